"""Camel Up Cards: the current leg with the other players' race actions.

The race deck alone (:func:`advisor.kernels.cards.exact.leg_counts`,
``leg_sample``) leaves out that the other players, on their turns in this
leg, may play their hand card or put a figure on the track instead of
revealing.  Here the rest of the leg is played turn by turn from the seat
to move (``nxt``), clockwise over ``players`` seats, until the race deck
is empty or the race is over:

* a seat of ``random_mask`` chooses its race action **at random** among
  those open to it, as the players of later legs do in
  :func:`advisor.kernels.cards.track.race_sample` (one model for the leg and the
  race): reveal the top card of the race deck; play its hand card (its
  camel moves 1, even for a ``+2``); put a figure standing beside the track
  on a legal space (:func:`~advisor.kernels.cards.track.figure_spaces`), each
  figure one option and the space uniform among the legal ones.  Each open
  option is equally likely.
* any other seat reveals.

Arrays (int64 unless said):

* ``sp``, ``ht``, ``fig``, ``length``, ``known``, ``pool``, ``unknown``:
  as in :mod:`advisor.kernels.cards` (the board, the cards known to be in
  the deck, the unseen cards, how many of the deck's cards are unknown).
* ``own[2]``: 1 when the palm's (``own[0]``) / the fennec's card on the
  track is held by seat 0 (the advised player).  A figure the random
  seats put down is held by that seat; a figure that acts or is passed
  returns beside the track with its card.
* ``hands[players]``: each seat's hand card: ``-1`` none (played, or
  seat 0 without one), ``0..9`` a known card kind, :data:`HAND_UNKNOWN` a
  card drawn from the unseen ``pool`` (the same cards the deck's unknown
  part is drawn from, without replacement).

Outcomes are ``codes[first, end, code]``: ``first`` the kind of the first
card revealed in the rest of the leg (0 when none is), ``end`` =
``over + 2 * palm + 4 * fennec`` where ``palm`` / ``fennec`` say that the
figure is on the track at the leg's end **with its card held by seat 0**
(what costs the advised player 1), ``code`` the race order
(:func:`~advisor.kernels.cards.track.rank_code`).

:func:`leg_others_exact` gives exact probabilities (float64: the choices
have unequal odds, so no integer count of equally likely outcomes is
used); :func:`leg_others_sample` and :func:`race_others_sample` sample,
sample ``i`` from stream ``(seed, i)``: the deck's order and the unknown
hand cards are drawn first, then the players' choices, so the same sample
of two positions that differ only in a race action sees the same cards
(common random numbers).
"""

from __future__ import annotations

import numpy as np
from numba import prange, types
from numba.typed import Dict

from advisor.kernels._jit import njit
from advisor.kernels.cards.track import (
    CHUNK, KINDS, MAX_CARDS, N_CAMELS, draw_card, figure_spaces, later_legs, move, rank_code, rank_of, track_length,
)
from advisor.kernels.rng import below, seed_stream

#: ``hands[p]``: a hand card drawn from the unseen cards.
HAND_UNKNOWN = KINDS
#: Seats at most (the game is for 2..6 players).
MAX_SEATS = 6
#: Seconds on one thread per sampled leg and card or seat (a leg of a
#: 12-card deck with 4 players: about 2.3 microseconds; 4 cards: 0.9) and
#: per race (8 to 11 microseconds), measured with
#: ``benchmarks/cards_others.py``: sizes a call's thread count.
LEG_SECONDS = 1.5e-7
RACE_SECONDS = 9e-6

# the state vector of the exact enumeration (int64[WIDTH])
_SP, _HT, _FIG, _OWN, _KNOWN, _POOL, _UNK, _FIRST, _HANDS = 0, 5, 10, 12, 14, 24, 34, 35, 36
WIDTH = _HANDS + MAX_SEATS
_KEY = types.UniTuple(types.int64, 3)  # a state's key (see _key)


@njit(inline="always")
def end_code(over, fig, own):
    return (1 if over else 0) + 2 * (fig[0] != 0 and own[0] != 0) + 4 * (fig[1] != 0 and own[1] != 0)


@njit
def turn_options(sp, fig, length, hand, random, spaces):
    """``(options, hand option, free figures, legal spaces)`` of a turn:
    a seat that is not random only reveals."""
    if not random:
        return 1, 0, 0, 0
    nspaces = figure_spaces(sp, fig, length, spaces)
    held = 1 if hand >= 0 else 0
    free = 0
    if nspaces:
        for f in range(2):
            free += fig[f] == 0
    return 1 + held + free, held, free, nspaces


# ---------------------------------------------------------------- sampling
@njit
def deal_leg(known, pool, unknown, hands, players, deck, state):
    """Draw the deck's order (``deck[:n]``, card kinds, top first) and the
    unknown hand cards (``hands`` updated) of one sample; ``known`` and
    ``pool`` are consumed.  Returns ``n``."""
    n = unknown
    for t in range(KINDS):
        n += known[t]
    unk = unknown
    for i in range(n):
        kind, unk = draw_card(known, pool, unk, state)
        deck[i] = kind
    for p in range(players):
        if hands[p] == HAND_UNKNOWN:
            total = 0
            for t in range(KINDS):
                total += pool[t]
            r = below(state, total)
            for t in range(KINDS):
                if r < pool[t]:
                    hands[p] = t
                    pool[t] -= 1
                    break
                r -= pool[t]
    return n


@njit
def _play_leg(sp, ht, fig, own, length, players, nxt, hands, random_mask, deck, n, state, spaces):
    """Play the rest of the leg from seat ``nxt`` with the deck's order
    ``deck[:n]`` and the hands dealt.  Returns ``(over, first kind or -1)``."""
    seat = nxt
    d = 0
    first = -1
    over = False
    while not over and d < n:
        options, held, free, nspaces = turn_options(sp, fig, length, hands[seat], (random_mask >> seat) & 1, spaces)
        pick = 0 if options == 1 else below(state, options)
        if pick == 0:
            kind = deck[d]
            d += 1
            if first < 0:
                first = kind
            over = move(sp, ht, fig, length, kind // 2, kind % 2 + 1)
        elif held and pick == 1:
            camel = hands[seat] // 2
            hands[seat] = -1
            over = move(sp, ht, fig, length, camel, np.int64(1))
        else:
            pick -= 1 + held
            for f in range(2):
                if fig[f] == 0:
                    if pick == 0:
                        fig[f] = spaces[below(state, nspaces)]
                        own[f] = 1 if seat == 0 else 0
                        break
                    pick -= 1
        for f in range(2):
            if fig[f] == 0:
                own[f] = 0
        seat = (seat + 1) % players
    return over, first


def _leg_work(sp, ht, fig, own, length, known, pool, unknown, players, nxt, hands, random_mask, samples, *_):
    return samples * LEG_SECONDS * (int(known.sum()) + unknown + players), (samples + CHUNK - 1) // CHUNK


@njit(parallel=True, work=_leg_work)
def leg_others_sample(sp, ht, fig, own, length, known, pool, unknown, players, nxt, hands, random_mask, samples, seed,
                      codes):
    """``samples`` legs of the model (module docstring), sample ``i`` from
    stream ``(seed, i)``; adds counts to ``codes[first, end, code]``
    (float64 or int64).  Chunks run in parallel with their own counts,
    summed in order: the result does not depend on the thread count."""
    nchunks = (samples + CHUNK - 1) // CHUNK
    part = np.zeros((nchunks,) + codes.shape, codes.dtype)
    for c in prange(nchunks):
        _leg_chunk(sp, ht, fig, own, length, known, pool, unknown, players, nxt, hands, random_mask,
                   c * CHUNK, min(samples, (c + 1) * CHUNK), seed, part[c])
    for c in range(nchunks):
        codes += part[c]


@njit
def _leg_chunk(sp, ht, fig, own, length, known, pool, unknown, players, nxt, hands, random_mask, start, stop, seed,
               codes):
    state = np.empty(4, np.uint64)
    s_sp = np.empty(N_CAMELS, np.int64)
    s_ht = np.empty(N_CAMELS, np.int64)
    s_fig = np.empty(2, np.int64)
    s_own = np.empty(2, np.int64)
    s_known = np.empty(KINDS, np.int64)
    s_pool = np.empty(KINDS, np.int64)
    s_hands = np.empty(players, np.int64)
    deck = np.empty(32, np.int64)
    spaces = np.empty(MAX_CARDS * 2, np.int64)
    for i in range(start, stop):
        seed_stream(seed, i, state)
        s_sp[:] = sp
        s_ht[:] = ht
        s_fig[:] = fig
        s_own[:] = own
        s_known[:] = known
        s_pool[:] = pool
        s_hands[:] = hands
        n = deal_leg(s_known, s_pool, unknown, s_hands, players, deck, state)
        over, first = _play_leg(s_sp, s_ht, s_fig, s_own, length, players, nxt, s_hands, random_mask, deck, n, state,
                                spaces)
        codes[max(first, 0), end_code(over, s_fig, s_own), rank_code(s_sp, s_ht)] += 1


def _race_work(sp, ht, fig, own, track, ncards, known, pool, unknown, players, nxt, hands, random_mask, deck_size,
               random_later, start, stop, *_):
    samples = stop - start
    return samples * RACE_SECONDS, (samples + CHUNK - 1) // CHUNK


@njit(parallel=True, work=_race_work)
def race_others_sample(sp, ht, fig, own, track, ncards, known, pool, unknown, players, nxt, hands, random_mask,
                       deck_size, random_later, start, stop, seed, ranks, legs):
    """Whole races: the rest of this leg as :func:`leg_others_sample`
    plays it, then the later legs of
    :func:`advisor.kernels.cards.track.later_legs` (players choosing at random
    when ``random_later``, else revealing).  Races ``start .. stop - 1``,
    race ``i`` from stream ``(seed, i)``; adds to ``ranks[first, camel,
    rank]`` and ``legs[k]`` as :func:`advisor.kernels.cards.track.race_sample`
    does (a race in which no card is revealed in this leg counts under
    kind 0)."""
    nchunks = (stop - start + CHUNK - 1) // CHUNK
    part_ranks = np.zeros((nchunks,) + ranks.shape, np.int64)
    part_legs = np.zeros((nchunks,) + legs.shape, np.int64)
    for c in prange(nchunks):
        _race_chunk(sp, ht, fig, own, track, ncards, known, pool, unknown, players, nxt, hands, random_mask, deck_size,
                    random_later, start + c * CHUNK, min(stop, start + (c + 1) * CHUNK), seed, part_ranks[c],
                    part_legs[c])
    for c in range(nchunks):
        ranks += part_ranks[c]
        legs += part_legs[c]


@njit
def _race_chunk(sp, ht, fig, own, track, ncards, known, pool, unknown, players, nxt, hands, random_mask, deck_size,
                random_later, start, stop, seed, ranks, legs):
    state = np.empty(4, np.uint64)
    s_sp = np.empty(N_CAMELS, np.int64)
    s_ht = np.empty(N_CAMELS, np.int64)
    s_fig = np.empty(2, np.int64)
    s_own = np.empty(2, np.int64)
    s_known = np.empty(KINDS, np.int64)
    s_pool = np.empty(KINDS, np.int64)
    s_track = np.empty(MAX_CARDS, np.int64)
    full = np.empty(KINDS, np.int64)
    s_hands = np.empty(players, np.int64)
    deck = np.empty(32, np.int64)
    spaces = np.empty(MAX_CARDS * 2, np.int64)
    for i in range(start, stop):
        seed_stream(seed, i, state)
        s_sp[:] = sp
        s_ht[:] = ht
        s_fig[:] = fig
        s_own[:] = own
        s_known[:] = known
        s_pool[:] = pool
        s_hands[:] = hands
        s_track[:ncards] = track[:ncards]
        length = track_length(s_track, ncards)
        n = deal_leg(s_known, s_pool, unknown, s_hands, players, deck, state)
        over, first = _play_leg(s_sp, s_ht, s_fig, s_own, length, players, nxt, s_hands, random_mask, deck, n, state,
                                spaces)
        over, played = later_legs(s_sp, s_ht, s_fig, s_track, ncards, over, players, deck_size, random_later, state,
                                  s_known, s_pool, full, s_hands, spaces, legs.size - 1)
        legs[played if over else legs.size - 1] += 1
        for camel in range(N_CAMELS):
            ranks[max(first, 0), camel, rank_of(s_sp, s_ht, camel)] += 1


# ---------------------------------------------------------------- exact
@njit
def _key(v):
    """Three int64 words that identify a state vector (every field fits
    its bits: spaces < 128, heights < 8, counts < 8, hands -1..10)."""
    k0 = 0
    for x in range(N_CAMELS):
        k0 = (k0 << 7) | v[_SP + x]
        k0 = (k0 << 3) | v[_HT + x]
    k0 = (k0 << 2) | (v[_OWN] << 1) | v[_OWN + 1]
    k1 = (v[_FIG] << 7) | v[_FIG + 1]
    for t in range(KINDS):
        k1 = (k1 << 3) | v[_KNOWN + t]
    k1 = (k1 << 4) | v[_UNK]
    k1 = (k1 << 4) | (v[_FIRST] + 1)
    k2 = 0
    for t in range(KINDS):
        k2 = (k2 << 3) | v[_POOL + t]
    for p in range(MAX_SEATS):
        k2 = (k2 << 4) | (v[_HANDS + p] + 1)
    return (k0, k1, k2)


@njit
def _grow_rows(a, rows):
    out = np.empty((rows,) + a.shape[1:], a.dtype)
    out[: a.shape[0]] = a
    return out


@njit
def _grow_vec(a, rows):
    out = np.empty(rows, a.dtype)
    out[: a.shape[0]] = a
    return out


@njit(inline="always")
def _turn_children(v, p0, seat, random, length, by_first, codes, table, nxt_states, nxt_prob, nn, spaces, child):
    """Add the children of state ``v`` (probability ``p0``) on ``seat``'s
    turn: a card revealed (a known one of each kind, or an unknown one),
    the seat's hand card played, a figure card placed.  Returns the next
    level's ``(count, states, probabilities)``."""
    c_sp = v[_SP:_SP + N_CAMELS]
    c_fig = v[_FIG:_FIG + 2]
    hand = v[_HANDS + seat]
    options, held, free, nspaces = turn_options(c_sp, c_fig, length, hand, random, spaces)
    share = p0 / options
    # reveal: a known card of each kind, or an unknown one
    k = 0
    for t in range(KINDS):
        k += v[_KNOWN + t]
    unk = v[_UNK]
    ptotal = 0
    for t in range(KINDS):
        ptotal += v[_POOL + t]
    for src in range(2):
        for t in range(KINDS):
            if src == 0:
                if v[_KNOWN + t] == 0:
                    continue
                q = share * v[_KNOWN + t] / (k + unk)
            else:
                if unk == 0 or v[_POOL + t] == 0:
                    continue
                q = share * unk / (k + unk) * v[_POOL + t] / ptotal
            child[:] = v
            if src == 0:
                child[_KNOWN + t] -= 1
            else:
                child[_UNK] -= 1
                child[_POOL + t] -= 1
            if child[_FIRST] < 0:
                child[_FIRST] = t
            over = move(child[_SP:_SP + N_CAMELS], child[_HT:_HT + N_CAMELS], child[_FIG:_FIG + 2], length,
                        t // 2, t % 2 + 1)
            done = over or k + unk == 1
            nn, nxt_states, nxt_prob = _emit(child, q, done, over, by_first, codes, table, nxt_states, nxt_prob,
                                             nn)
    if held:
        if hand == HAND_UNKNOWN:
            for t in range(KINDS):
                if v[_POOL + t] == 0:
                    continue
                child[:] = v
                child[_POOL + t] -= 1
                child[_HANDS + seat] = -1
                over = move(child[_SP:_SP + N_CAMELS], child[_HT:_HT + N_CAMELS], child[_FIG:_FIG + 2],
                            length, t // 2, np.int64(1))
                nn, nxt_states, nxt_prob = _emit(child, share * v[_POOL + t] / ptotal, over, over, by_first,
                                                 codes, table, nxt_states, nxt_prob, nn)
        else:
            child[:] = v
            child[_HANDS + seat] = -1
            over = move(child[_SP:_SP + N_CAMELS], child[_HT:_HT + N_CAMELS], child[_FIG:_FIG + 2], length,
                        hand // 2, np.int64(1))
            nn, nxt_states, nxt_prob = _emit(child, share, over, over, by_first, codes, table, nxt_states,
                                             nxt_prob, nn)
    if free:
        for f in range(2):
            if v[_FIG + f] != 0:
                continue
            for j in range(nspaces):
                child[:] = v
                child[_FIG + f] = spaces[j]
                child[_OWN + f] = 1 if seat == 0 else 0
                nn, nxt_states, nxt_prob = _emit(child, share / nspaces, np.bool_(False), np.bool_(False), by_first,
                                                 codes, table, nxt_states, nxt_prob, nn)
    return nn, nxt_states, nxt_prob


@njit
def leg_others_exact(sp, ht, fig, own, length, known, pool, unknown, players, nxt, hands, random_mask, by_first, codes,
                     limit=-1):
    """The exact distribution of the model's leg outcomes: adds
    probabilities to ``codes[first, end, code]`` (float64; ``by_first``
    False: every outcome under first kind 0).  Breadth-first, one level per
    turn; equal states of a level (board, figure cards, deck and unseen
    cards left, hands, first card) are merged.  Returns the most states a
    level held, or -1 (``codes`` then incomplete) as soon as a level would
    hold more than ``limit`` (-1: no limit).  Serial: the same sums in the
    same order on any machine."""
    cur = np.zeros((64, WIDTH), np.int64)
    prob = np.zeros(64)
    v = cur[0]
    v[_SP:_SP + N_CAMELS] = sp
    v[_HT:_HT + N_CAMELS] = ht
    v[_FIG:_FIG + 2] = fig
    for f in range(2):
        v[_OWN + f] = own[f] if fig[f] != 0 else 0
    v[_KNOWN:_KNOWN + KINDS] = known
    v[_POOL:_POOL + KINDS] = pool
    v[_UNK] = unknown
    v[_FIRST] = -1
    for p in range(MAX_SEATS):
        v[_HANDS + p] = hands[p] if p < players else -1
    prob[0] = 1.0
    ncur = 1
    seat = nxt
    most = 1
    spaces = np.empty(MAX_CARDS * 2, np.int64)
    child = np.empty(WIDTH, np.int64)
    while ncur > 0:
        table = Dict.empty(key_type=_KEY, value_type=types.int64)
        nxt_states = np.zeros((max(64, ncur), WIDTH), np.int64)
        nxt_prob = np.zeros(max(64, ncur))
        nn = np.int64(0)
        random = (random_mask >> seat) & 1
        for s in range(ncur):
            nn, nxt_states, nxt_prob = _turn_children(cur[s], prob[s], seat, random, length, by_first, codes, table,
                                                      nxt_states, nxt_prob, nn, spaces, child)
            if limit >= 0 and nn > limit:
                return -1
        cur = nxt_states
        prob = nxt_prob
        ncur = nn
        most = max(most, nn)
        seat = (seat + 1) % players
    return most


@njit
def _emit(child, q, done, over, by_first, codes, table, states, probs, n):
    """Add a child state: to ``codes`` when the leg is over (``done``),
    else merged into the next level.  Returns the level's arrays."""
    for f in range(2):
        if child[_FIG + f] == 0:
            child[_OWN + f] = 0
    if done:
        first = child[_FIRST] if by_first and child[_FIRST] >= 0 else 0
        code = rank_code(child[_SP:_SP + N_CAMELS], child[_HT:_HT + N_CAMELS])
        codes[first, end_code(over, child[_FIG:_FIG + 2], child[_OWN:_OWN + 2]), code] += q
        return n, states, probs
    key = _key(child)
    if key in table:
        probs[table[key]] += q
        return n, states, probs
    if n == states.shape[0]:
        states = _grow_rows(states, 2 * n)
        probs = _grow_vec(probs, 2 * n)
    states[n] = child
    probs[n] = q
    table[key] = n
    return n + 1, states, probs


__all__ = ["HAND_UNKNOWN", "MAX_SEATS", "WIDTH", "deal_leg", "end_code", "turn_options", "leg_others_exact",
           "leg_others_sample", "race_others_sample"]
