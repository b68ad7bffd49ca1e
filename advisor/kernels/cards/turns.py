"""Camel Up Cards: every race action of a turn replayed on shared scenarios.

The bots' fast path (:mod:`advisor.cards.fast`).  The advice compares the
race actions open to the player to move (seat ``nxt``): reveal, play the
hand card, put the palm or the fennec on each legal space.  Here one call
values them all: each *scenario* ``i`` is dealt once, from its own random
stream ``(seed, i)`` (:func:`~advisor.kernels.cards.others.deal_leg`: the
race deck's order and the unseen hand cards), and every candidate replays
the rest of the leg on it:

* the candidate's own action first (``REVEAL``: the seat reveals, as the
  position's own leg does; ``HAND``: its hand card moves its camel 1;
  ``PALM`` / ``FENNEC``: the figure goes on space ``args[k]``, its card
  held by the seat), then the other seats' turns as
  :mod:`advisor.kernels.cards.others` plays them (the seats of
  ``random_mask`` choose at random among their race actions, the others
  reveal);
* the choice of a seat on the ``t``-th turn of the rest of the leg is drawn
  from stream ``(seed2, i * TURN_STREAMS + t)``: the same turn of every
  candidate draws the same numbers, and the ``d``-th card revealed is the
  ``d``-th card of the scenario's deck (common random numbers: the
  candidates' differences carry little noise);
* the first ``races`` scenarios go on to the race's end
  (:func:`later_legs_shared`: the model of
  :func:`~advisor.kernels.cards.track.later_legs`), the deal of later leg ``L``
  from stream ``(seed3, (i, L))`` and its choices turn by turn from streams
  of ``(seed4, (i, L))``, the same for every candidate.

Outputs, per candidate ``k`` and scenario ``i``: ``leg_out[k, i] = end *
CODES + code`` (``end`` as :func:`~advisor.kernels.cards.others.end_code`:
race over, and the palm / fennec on the track with its card held by seat
0; ``code`` the race order), ``first_out[i]``: the kind of the first card
revealed in candidate 0's leg (0 when none is), ``race_out[k, i]``: the
race order at the race's end.  Each scenario writes its own entries, so
the result does not depend on the thread count.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from advisor.kernels._jit import njit
from advisor.kernels.cards.track import CODES, KINDS, MAX_CARDS, N_CAMELS, figure_spaces, leg_start, move, rank_code, track_length
from advisor.kernels.cards.others import HAND_UNKNOWN, deal_leg, end_code
from advisor.kernels.rng import below, next_u64, seed_stream

#: Candidate kinds (``kinds[k]``).
REVEAL, HAND, PALM, FENNEC = 0, 1, 2, 3
#: Scenarios per parallel task.
BLOCK = 64
#: Turn streams per scenario (a leg never has this many turns in practice;
#: beyond, streams of the next scenario would be reused).
TURN_STREAMS = 1 << 16
#: Later legs a race plays at most.
MAX_LEGS = 32
#: Seconds on one thread per candidate leg and card or seat, and per
#: candidate race (as :mod:`advisor.kernels.cards.others`): sizes a call's
#: thread count.
LEG_SECONDS = 1.5e-7
RACE_SECONDS = 9e-6
# int64 (not literals): mixed_seed compiles once for the three salts
_CHOICE_SALT = np.int64(0x5DEECE66D)
_RACE_SALT = np.int64(0x2545F4914F6CDD1D)
_LATER_SALT = np.int64(0x61C8864680B583EB)


@njit
def mixed_seed(seed, salt):
    """A seed of its own for the choices / the later legs of ``seed``, as
    int64 (the same bits; every seed a kernel passes to seed_stream is
    int64, so seed_stream compiles once)."""
    return np.int64((np.uint64(seed) ^ np.uint64(salt)) * np.uint64(0x9E3779B97F4A7C15))


@njit
def act(kind, arg, sp, ht, fig, own, length, hands, seat):
    """The candidate's own race action by ``seat`` (not ``REVEAL``);
    returns whether the race is over."""
    over = False
    if kind == HAND:
        camel = hands[seat] // 2
        hands[seat] = -1
        over = move(sp, ht, fig, length, camel, np.int64(1))
    else:
        f = 0 if kind == PALM else 1
        fig[f] = arg
        own[f] = 1 if seat == 0 else 0
    for f in range(2):
        if fig[f] == 0:
            own[f] = 0
    return over


@njit
def choose(state, hand_held, palm_free, fennec_free):
    """A random seat's choice among its open race actions (0 reveal, 1 the
    hand card, 2 the palm, 3 the fennec), uniform among the open ones: the
    first open action of a random order of all four (three draws of
    ``state``, whatever is open, so the same numbers make the same choice
    where the same actions are open)."""
    order = np.arange(4)
    for j in range(3, 0, -1):
        r = below(state, j + 1)
        tmp = order[j]
        order[j] = order[r]
        order[r] = tmp
    for j in range(4):
        a = order[j]
        if a == 0 or (a == 1 and hand_held) or (a == 2 and palm_free) or (a == 3 and fennec_free):
            return a
    return 0


@njit
def choose_space(state, spaces, nspaces, length):
    """A legal space uniform among ``spaces[:nspaces]``: the one with the
    largest random key, a key drawn for every track space ``1..length`` in
    order (the same numbers pick the same space where it is legal)."""
    best = spaces[0]
    top = np.uint64(0)
    j = 0
    for s in range(1, length + 1):
        key = next_u64(state)
        if j < nspaces and spaces[j] == s:
            if j == 0 or key > top:
                best = s
                top = key
            j += 1
    return best


@njit
def replay(sp, ht, fig, own, length, players, seat, turn, hands, random_mask, deck, d, n, choice_seed, scenario,
           state, spaces):
    """Play the rest of the leg from ``seat`` on turn ``turn`` with the
    scenario's deck ``deck[d:n]`` and hands (a random seat's choice on turn
    ``t`` from stream ``(choice_seed, (scenario, t))``: :func:`choose`,
    :func:`choose_space`); returns ``(over, first kind revealed or -1)``."""
    first = -1
    over = False
    while not over and d < n:
        pick = 0
        nspaces = 0
        if (random_mask >> seat) & 1:
            nspaces = figure_spaces(sp, fig, length, spaces)
            held = hands[seat] >= 0
            if held or (nspaces and (fig[0] == 0 or fig[1] == 0)):
                seed_stream(choice_seed, scenario * TURN_STREAMS + turn, state)
                pick = choose(state, held, nspaces > 0 and fig[0] == 0, nspaces > 0 and fig[1] == 0)
        if pick == 0:
            kind = deck[d]
            d += 1
            if first < 0:
                first = kind
            over = move(sp, ht, fig, length, kind // 2, kind % 2 + 1)
        elif pick == 1:
            camel = hands[seat] // 2
            hands[seat] = -1
            over = move(sp, ht, fig, length, camel, np.int64(1))
        else:
            f = pick - 2
            fig[f] = choose_space(state, spaces, nspaces, length)
            own[f] = 1 if seat == 0 else 0
        for f in range(2):
            if fig[f] == 0:
                own[f] = 0
        seat = (seat + 1) % players
        turn += 1
    return over, first


@njit
def later_legs_shared(sp, ht, fig, own, track, ncards, over, players, deck_size, random_later, deal_seed, choice_seed,
                      scenario, state, known, pool, hands, deck, spaces, max_legs):
    """The legs after the current one, as :func:`advisor.kernels.cards.
    later_legs` plays them (each starts with :func:`~advisor.kernels.cards.
    leg_start`, a deck of ``deck_size`` cards and a hand card per player
    dealt from the 30, played from player 0 by players who choose at random
    when ``random_later``, else reveal), with the cards and the choices of
    leg ``L`` drawn from streams of ``(scenario, L)`` alone: two candidates
    whose boards differ see the same deals and the same choice numbers,
    turn by turn.  Returns whether the race is over."""
    n = ncards
    length = track_length(track, n)
    mask = (1 << players) - 1 if random_later else 0
    legs = 0
    while not over and legs < max_legs:
        legs += 1
        n, length = leg_start(sp, ht, fig, track, n)
        own[0] = 0
        own[1] = 0
        for t in range(KINDS):
            known[t] = 0
            pool[t] = 5 if t % 2 == 0 else 1
        for p in range(players):
            hands[p] = HAND_UNKNOWN
        stream = scenario * (MAX_LEGS + 1) + legs
        seed_stream(deal_seed, stream, state)
        m = deal_leg(known, pool, deck_size, hands, players, deck, state)
        zero = np.int64(0)
        over, _ = replay(sp, ht, fig, own, length, players, zero, zero, hands, mask, deck, zero, m, choice_seed,
                         stream, state, spaces)
    return over


def _work(sp, ht, fig, own, track, ncards, known, pool, unknown, players, nxt, hands, random_mask, kinds, args, legs,
          races, *_):
    k = kinds.size
    cards = int(known.sum()) + unknown
    seconds = legs * k * LEG_SECONDS * (cards + players) + races * k * RACE_SECONDS
    return seconds, (legs + BLOCK - 1) // BLOCK


@njit(parallel=True, work=_work)
def candidate_outcomes(sp, ht, fig, own, track, ncards, known, pool, unknown, players, nxt, hands, random_mask, kinds,
                       args, legs, races, deck_size, random_later, seed, leg_out, first_out, race_out):
    """Scenarios ``0 .. legs - 1`` (the first ``races`` to the race's end)
    replayed for every candidate ``kinds[k]``, ``args[k]`` (module
    docstring); fills ``leg_out[K, legs]``, ``first_out[legs]`` and
    ``race_out[K, races]`` (int64).  ``deck_size``, ``random_later``:
    the later legs' deck and whether their players choose at random."""
    nblocks = (legs + BLOCK - 1) // BLOCK
    for b in prange(nblocks):
        _block(sp, ht, fig, own, track, ncards, known, pool, unknown, players, nxt, hands, random_mask, kinds, args,
               b * BLOCK, min(legs, (b + 1) * BLOCK), races, deck_size, random_later, seed, leg_out, first_out,
               race_out)


@njit
def _block(sp, ht, fig, own, track, ncards, known, pool, unknown, players, nxt, hands, random_mask, kinds, args,
           start, stop, races, deck_size, random_later, seed, leg_out, first_out, race_out):
    state = np.empty(4, np.uint64)
    s_known = np.empty(KINDS, np.int64)
    s_pool = np.empty(KINDS, np.int64)
    dealt = np.empty(players, np.int64)
    deck = np.empty(32, np.int64)
    c_sp = np.empty(N_CAMELS, np.int64)
    c_ht = np.empty(N_CAMELS, np.int64)
    c_fig = np.empty(2, np.int64)
    c_own = np.empty(2, np.int64)
    c_hands = np.empty(players, np.int64)
    c_track = np.empty(MAX_CARDS, np.int64)
    spaces = np.empty(MAX_CARDS * 2, np.int64)
    r_known = np.empty(KINDS, np.int64)
    r_pool = np.empty(KINDS, np.int64)
    r_hands = np.empty(players, np.int64)
    r_deck = np.empty(32, np.int64)
    length = track_length(track, ncards)
    choice_seed = mixed_seed(seed, _CHOICE_SALT)
    race_seed = mixed_seed(seed, _RACE_SALT)
    later_seed = mixed_seed(seed, _LATER_SALT)
    for i in range(start, stop):
        seed_stream(seed, i, state)
        s_known[:] = known
        s_pool[:] = pool
        dealt[:] = hands
        n = deal_leg(s_known, s_pool, unknown, dealt, players, deck, state)
        for k in range(kinds.size):
            c_sp[:] = sp
            c_ht[:] = ht
            c_fig[:] = fig
            c_own[:] = own
            c_hands[:] = dealt
            seat = nxt
            turn = 0
            over = False
            first = -1
            if kinds[k] != REVEAL:
                over = act(kinds[k], args[k], c_sp, c_ht, c_fig, c_own, length, c_hands, seat)
                seat = (seat + 1) % players
                turn = 1
            if not over:
                over, first = replay(c_sp, c_ht, c_fig, c_own, length, players, seat, turn, c_hands, random_mask,
                                     deck, np.int64(0), n, choice_seed, i, state, spaces)
            leg_out[k, i] = end_code(over, c_fig, c_own) * CODES + rank_code(c_sp, c_ht)
            if k == 0:
                first_out[i] = max(first, 0)
            if i < races:
                c_track[:ncards] = track[:ncards]
                later_legs_shared(c_sp, c_ht, c_fig, c_own, c_track, ncards, over, players, deck_size, random_later,
                                  race_seed, later_seed, i, state, r_known, r_pool, r_hands, r_deck, spaces,
                                  np.int64(MAX_LEGS))
                race_out[k, i] = rank_code(c_sp, c_ht)


__all__ = ["REVEAL", "HAND", "PALM", "FENNEC", "BLOCK", "TURN_STREAMS", "act", "choose", "choose_space", "replay", "mixed_seed",
           "later_legs_shared",
           "candidate_outcomes"]
