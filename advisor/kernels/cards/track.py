"""Camel Up Cards: moves, legs and races (docs/rules.md, Camel Up Cards).

State arrays (all int64):

* ``sp[5]``, ``ht[5]``: each racing camel's space and height.  Space 0 is
  the start card, spaces ``1..length`` the track, ``length + 1`` the finish
  card (a unit there or beyond has finished).  Heights order a stack bottom
  (0) to top.  On the start card the camels stand side by side; their
  "heights" there only order them for ranking (see the Ruling below).
* ``fig[2]``: the space of the palm (``fig[0]``) and of the fennec
  (``fig[1]``), 0 when the figure stands beside the track.
* ``track[MAX_CARDS]`` with ``ncards`` used: the track cards after the start
  card, in order: ``NORMAL`` (2 spaces), ``SAND`` (sandstorm side, 1 space),
  ``HALF`` (a normal card half covered by the finish card, 1 space).
* Cards of the race deck are numbered ``2 * camel + (value - 1)``: ten kinds,
  ``deck[10]`` counts per kind.  The 30 racing cards: per camel five ``+1``
  and one ``+2``.

**Rulings** (where the rulebook is silent):

* Camels on the start card stand side by side and rank behind every camel
  on the track; among themselves they rank in the order given (notation:
  the first listed ranks last).  A camel leaving the start card moves alone.
* A unit moved back onto the start card by the fennec ranks behind the
  camels already there (it goes "under" them), its own order kept; later
  each of its camels leaves the start card alone.
* Figures act on every move (revealed card or hand card).  A unit sent by
  one figure onto the other figure's space (the two may stand on adjacent
  spaces) triggers that one too; each figure is removed as it acts, so a
  move triggers each at most once.
* A figure is removed (with its card, beside the track) as soon as every
  camel is strictly ahead of it, checked after every move.
"""

from __future__ import annotations

import numpy as np

from numba import prange

from advisor.kernels._jit import njit
from advisor.kernels.ranks import RANK_CODES, code_of_ranks
from advisor.kernels.rng import below, seed_stream

N_CAMELS = 5
KINDS = 10  # deck card kinds: 2 * camel + (value - 1)
NORMAL, SAND, HALF = 2, 1, 3
MAX_CARDS = 64
PALM, FENNEC = 0, 1


@njit(inline="always")
def card_spaces(kind):
    return 2 if kind == NORMAL else 1


@njit
def track_length(track, ncards):
    n = 0
    for i in range(ncards):
        n += card_spaces(track[i])
    return n


@njit
def _put(sp, ht, unit_mask, base_ht, space, top):
    """Move the camels of ``unit_mask`` (heights relative to ``base_ht``) to
    ``space``: on top of the camels there, or under them."""
    here = 0
    for x in range(N_CAMELS):
        if sp[x] == space and not (unit_mask >> x) & 1:
            here += 1
    size = 0
    for x in range(N_CAMELS):
        size += (unit_mask >> x) & 1
    if not top:
        for x in range(N_CAMELS):
            if sp[x] == space and not (unit_mask >> x) & 1:
                ht[x] += size
    for x in range(N_CAMELS):
        if (unit_mask >> x) & 1:
            ht[x] = ht[x] - base_ht + (here if top else 0)
            sp[x] = space


@njit
def move(sp, ht, fig, length, camel, dist):
    """Move ``camel`` (with every camel above it; alone from the start card)
    ``dist`` spaces forward, with the palm and fennec effects; returns True
    if the race is over (a unit reached the finish card or beyond)."""
    s0 = sp[camel]
    h0 = ht[camel]
    unit = 0
    if s0 == 0:
        unit = 1 << camel
        for x in range(N_CAMELS):  # the others on the start card close up
            if sp[x] == 0 and ht[x] > h0:
                ht[x] -= 1
    else:
        for x in range(N_CAMELS):
            if sp[x] == s0 and ht[x] >= h0:
                unit |= 1 << x
    t = s0 + dist
    _put(sp, ht, unit, h0, t, np.bool_(True))
    # figures stand on track spaces 1..length (0 means beside the track)
    while 1 <= t <= length:
        if fig[PALM] == t:
            fig[PALM] = 0
            h = ht[camel]
            t += 1
            _put(sp, ht, unit, h, t, np.bool_(True))
        elif fig[FENNEC] == t:
            fig[FENNEC] = 0
            h = ht[camel]
            t -= 1
            _put(sp, ht, unit, h, t, np.bool_(False))
        else:
            break
    last = sp[0]
    for x in range(1, N_CAMELS):
        last = min(last, sp[x])
    for f in range(2):  # also on the move that ends the race
        if fig[f] and fig[f] < last:
            fig[f] = 0
    return t > length


@njit(inline="always")
def rank_of(sp, ht, camel):
    """The 0-based rank of ``camel``: the camels ahead of it (further along,
    or on the same space and higher)."""
    r = 0
    for x in range(N_CAMELS):
        if sp[x] > sp[camel] or (sp[x] == sp[camel] and ht[x] > ht[camel]):
            r += 1
    return r


@njit(inline="always")
def rank_code(sp, ht):
    """The race order as one number (:func:`~advisor.kernels.ranks.code_of_ranks`
    of each camel's :func:`rank_of`)."""
    return code_of_ranks(rank_of(sp, ht, 0), rank_of(sp, ht, 1), rank_of(sp, ht, 2), rank_of(sp, ht, 3))


@njit
def figure_spaces(sp, fig, length, out):
    """Legal spaces for a figure beside the track: empty of camels and of
    the other figure, strictly ahead of the last camel, not beyond
    ``length``.  Fills ``out`` and returns how many."""
    last = sp[0]
    for x in range(1, N_CAMELS):
        last = min(last, sp[x])
    n = 0
    for s in range(max(last + 1, 1), length + 1):
        free = fig[PALM] != s and fig[FENNEC] != s
        for x in range(N_CAMELS):
            if sp[x] == s:
                free = False
        if free:
            out[n] = s
            n += 1
    return n


@njit
def leg_start(sp, ht, fig, track, ncards):
    """Between legs: the figures return beside the track, every empty
    normal track card strictly between the last and the leading camel turns
    to its sandstorm side (for good), and the track is extended so exactly
    3 spaces lie between the leader and the finish if fewer did.  Returns
    ``(ncards, length)``."""
    fig[PALM] = 0
    fig[FENNEC] = 0
    lead = sp[0]
    last = sp[0]
    for x in range(1, N_CAMELS):
        lead = max(lead, sp[x])
        last = min(last, sp[x])
    # sandstorm: decide on the old numbering, then renumber from the back
    first = np.empty(ncards, np.int64)
    s = 1
    for i in range(ncards):
        first[i] = s
        s += card_spaces(track[i])
    for i in range(ncards - 1, -1, -1):
        if track[i] != NORMAL:
            continue
        a = first[i]
        b = a + 1
        if a <= last or b >= lead:
            continue
        empty = True
        for x in range(N_CAMELS):
            if a <= sp[x] <= b:
                empty = False
        if empty:
            track[i] = SAND
            for x in range(N_CAMELS):
                if sp[x] > b:
                    sp[x] -= 1
            lead -= 1
    length = track_length(track, ncards)
    need = 3 - (length - lead)
    if need > 0 and ncards and track[ncards - 1] == HALF:
        track[ncards - 1] = NORMAL
        need -= 1
    while need >= 2:
        track[ncards] = NORMAL
        ncards += 1
        need -= 2
    if need == 1:
        track[ncards] = HALF
        ncards += 1
    return ncards, track_length(track, ncards)


@njit
def draw_card(known, pool, unknown, state):
    """Draw the next card of the race deck: ``known`` counts the cards known
    to be in it, ``unknown`` how many others it holds, drawn from the unseen
    cards ``pool``.  Updates the counts; returns ``(kind, unknown)``."""
    k = 0
    for t in range(KINDS):
        k += known[t]
    r = below(state, k + unknown)
    if r < k:
        for t in range(KINDS):
            if r < known[t]:
                known[t] -= 1
                return t, unknown
            r -= known[t]
    total = 0
    for t in range(KINDS):
        total += pool[t]
    r = below(state, total)
    for t in range(KINDS):
        if r < pool[t]:
            pool[t] -= 1
            return t, unknown - 1
        r -= pool[t]
    return -1, unknown


CODES = RANK_CODES  # race orders (see advisor.kernels.ranks)
CHUNK = 4096  # samples per parallel chunk
#: Seconds on one thread per sampled leg and per race (players choosing at
#: random; revealing only is faster): sizes a call's thread count.
LEG_SECONDS = 1e-6
RACE_SECONDS = 8e-6


@njit
def _deck_left(known, unknown):
    n = unknown
    for t in range(KINDS):
        n += known[t]
    return n


@njit(inline="always")
def end_state(over, fig):
    return (1 if over else 0) + 2 * (fig[PALM] != 0) + 4 * (fig[FENNEC] != 0)


@njit(inline="always")
def _reveal_rest(sp, ht, fig, length, known, pool, unknown, state):
    """Reveal the rest of the race deck at random until it is empty or the
    race is over; returns ``(over, kind of the first card or -1)``."""
    first = -1
    over = False
    while not over and _deck_left(known, unknown) > 0:
        kind, unknown = draw_card(known, pool, unknown, state)
        if first < 0:
            first = kind
        over = move(sp, ht, fig, length, kind // 2, kind % 2 + 1)
    return over, first


def _leg_work(sp, ht, fig, length, known, pool, unknown, samples, *_):
    return samples * LEG_SECONDS, (samples + CHUNK - 1) // CHUNK


@njit(parallel=True, work=_leg_work)
def leg_sample(sp, ht, fig, length, known, pool, unknown, samples, seed, codes, figs):
    """the legs of :func:`advisor.kernels.cards.exact.leg_counts`, by sampling: ``samples`` legs, sample ``i`` from
    stream ``(seed, i)``; adds counts (not probabilities).  Chunks of
    samples run in parallel, each with its own counts, summed in order: the
    result does not depend on the thread count."""
    nchunks = (samples + CHUNK - 1) // CHUNK
    part_codes = np.zeros((nchunks,) + codes.shape, codes.dtype)
    part_figs = np.zeros((nchunks,) + figs.shape, figs.dtype)
    for c in prange(nchunks):
        _leg_chunk(sp, ht, fig, length, known, pool, unknown, c * CHUNK, min(samples, (c + 1) * CHUNK), seed,
                   part_codes[c], part_figs[c])
    for c in range(nchunks):
        codes += part_codes[c]
        figs += part_figs[c]


@njit
def _leg_chunk(sp, ht, fig, length, known, pool, unknown, start, stop, seed, codes, figs):
    state = np.empty(4, np.uint64)
    s_sp = np.empty(N_CAMELS, np.int64)
    s_ht = np.empty(N_CAMELS, np.int64)
    s_fig = np.empty(2, np.int64)
    s_known = np.empty(KINDS, np.int64)
    s_pool = np.empty(KINDS, np.int64)
    for i in range(start, stop):
        seed_stream(seed, i, state)
        s_sp[:] = sp
        s_ht[:] = ht
        s_fig[:] = fig
        s_known[:] = known
        s_pool[:] = pool
        over, first = _reveal_rest(s_sp, s_ht, s_fig, length, s_known, s_pool, unknown, state)
        codes[first, end_state(over, s_fig), rank_code(s_sp, s_ht)] += 1
        for f in range(2):
            if s_fig[f]:
                figs[first, f] += 1


@njit
def _random_turn(sp, ht, fig, length, player, hands, known, pool, unk, state, spaces):
    """One turn of a player choosing at random among the race actions open
    to them: reveal, play their hand card (moves 1), place a figure beside
    the track on a random legal space.  Returns ``(over, unknown, revealed)``."""
    options = 1
    hand = hands[player] >= 0
    options += hand
    nspaces = figure_spaces(sp, fig, length, spaces)
    figures_free = 0
    if nspaces:
        for f in range(2):
            figures_free += fig[f] == 0
    options += figures_free
    pick = below(state, options)
    if pick == 0:
        kind, unk = draw_card(known, pool, unk, state)
        return move(sp, ht, fig, length, kind // 2, kind % 2 + 1), unk, True
    if hand and pick == 1:
        camel = hands[player] // 2
        hands[player] = -1
        return move(sp, ht, fig, length, camel, np.int64(1)), unk, False
    pick -= 1 + hand
    for f in range(2):
        if fig[f] == 0:
            if pick == 0:
                fig[f] = spaces[below(state, nspaces)]
                return False, unk, False
            pick -= 1
    return False, unk, False


def _race_work(sp, ht, fig, track, ncards, known, pool, unknown, players, deck_size, random_others, start, stop,
               *_):
    samples = stop - start
    return samples * RACE_SECONDS * (1.0 if random_others else 0.75), (samples + CHUNK - 1) // CHUNK


@njit(parallel=True, work=_race_work)
def race_sample(sp, ht, fig, track, ncards, known, pool, unknown, players, deck_size, random_others,
                start, stop, seed, ranks, legs):
    """Whole races: the current leg reveals the rest of its deck; each later
    leg starts with :func:`leg_start`, a deck of ``deck_size`` cards drawn
    from the 30 and a hand card for each of ``players`` from the rest, and is
    played by players who choose at random (``random_others``) or only
    reveal.  Plays races ``start .. stop - 1``: race ``i`` uses stream
    ``(seed, i)``, so the same seed replays the same cards from any start
    and a run can be extended with more races.  Adds to
    ``ranks[first, camel, rank]`` (int64[KINDS, 5, 5]) the final ranks of
    the camels, by the kind of the current leg's first card, and to
    ``legs[k]`` the races that ended ``k`` legs after this one (the last
    entry: still running after that many).  A race already over (no card
    left to draw) counts under kind 0.  Chunks run in parallel with their
    own counts (thread count never matters)."""
    nchunks = (stop - start + CHUNK - 1) // CHUNK
    part_ranks = np.zeros((nchunks,) + ranks.shape, np.int64)
    part_legs = np.zeros((nchunks,) + legs.shape, np.int64)
    for c in prange(nchunks):
        _race_chunk(sp, ht, fig, track, ncards, known, pool, unknown, players, deck_size, random_others,
                    start + c * CHUNK, min(stop, start + (c + 1) * CHUNK), seed, part_ranks[c], part_legs[c])
    for c in range(nchunks):
        ranks += part_ranks[c]
        legs += part_legs[c]


@njit
def _race_chunk(sp, ht, fig, track, ncards, known, pool, unknown, players, deck_size, random_others,
                start, stop, seed, ranks, legs):
    state = np.empty(4, np.uint64)
    s_sp = np.empty(N_CAMELS, np.int64)
    s_ht = np.empty(N_CAMELS, np.int64)
    s_fig = np.empty(2, np.int64)
    s_known = np.empty(KINDS, np.int64)
    s_pool = np.empty(KINDS, np.int64)
    s_track = np.empty(MAX_CARDS, np.int64)
    full = np.empty(KINDS, np.int64)
    hands = np.empty(players, np.int64)
    spaces = np.empty(MAX_CARDS * 2, np.int64)
    for i in range(start, stop):
        seed_stream(seed, i, state)
        s_sp[:] = sp
        s_ht[:] = ht
        s_fig[:] = fig
        s_known[:] = known
        s_pool[:] = pool
        s_track[:ncards] = track[:ncards]
        n = ncards
        length = track_length(s_track, n)
        over, first = _reveal_rest(s_sp, s_ht, s_fig, length, s_known, s_pool, unknown, state)
        over, played = later_legs(s_sp, s_ht, s_fig, s_track, n, over, players, deck_size, random_others, state,
                                  s_known, s_pool, full, hands, spaces, legs.size - 1)
        legs[played if over else legs.size - 1] += 1
        for camel in range(N_CAMELS):
            ranks[max(first, 0), camel, rank_of(s_sp, s_ht, camel)] += 1


@njit
def later_legs(sp, ht, fig, track, ncards, over, players, deck_size, random_others, state, known, pool, full, hands,
               spaces, max_legs):
    """The legs after the current one (which ended with ``over`` telling
    whether the race is over), until the race is over or ``max_legs`` legs
    were played: each starts with :func:`leg_start`, a deck of
    ``deck_size`` cards drawn from the 30 and a hand card for each of
    ``players`` from the rest, and is played from player 0 on by players
    who choose at random (``random_others``) or only reveal.  ``known``,
    ``pool``, ``full`` (int64[KINDS]), ``hands`` (int64[players]) and
    ``spaces`` are scratch.  Returns ``(over, legs played)``."""
    n = ncards
    length = track_length(track, n)
    played = 0
    while not over and played < max_legs:
        played += 1
        n, length = leg_start(sp, ht, fig, track, n)
        for t in range(KINDS):
            full[t] = 5 if t % 2 == 0 else 1
            known[t] = 0
        # the deck: deck_size cards of the 30; the hands: from the rest
        for t in range(KINDS):
            pool[t] = full[t]
        unk = deck_size
        for p in range(players):
            total = 0
            for t in range(KINDS):
                total += pool[t]
            # hands first, then the deck lazily from what is left: every
            # deal of the 30 cards is equally likely either way
            r = below(state, total)
            hands[p] = -1
            for t in range(KINDS):
                if r < pool[t]:
                    hands[p] = t
                    pool[t] -= 1
                    break
                r -= pool[t]
        player = np.int64(0)
        while not over and unk > 0:
            if random_others:
                over, unk, _ = _random_turn(sp, ht, fig, length, player, hands, known, pool, unk, state, spaces)
            else:
                kind, unk = draw_card(known, pool, unk, state)
                over = move(sp, ht, fig, length, kind // 2, kind % 2 + 1)
            player = (player + 1) % players
    return over, played


__all__ = [
    "CODES", "FENNEC", "HALF", "leg_sample", "race_sample", "KINDS", "MAX_CARDS", "NORMAL", "N_CAMELS", "PALM", "SAND", "card_spaces", "draw_card",
    "end_state", "figure_spaces", "later_legs", "leg_start", "move", "rank_code", "rank_of", "track_length",
]
