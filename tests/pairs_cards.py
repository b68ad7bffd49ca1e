"""The former merged exact Camel Up Cards leg kernel, kept in the tests as
a reference: breadth-first, one level per card, every (board, figures,
known cards left, unseen cards drawn) state kept apart and merged in a hash
table of pairs of keys.  It is slow for whole unknown decks (the states grow
about fourfold per card) but simple; the package's
``advisor.kernels.cards.exact.leg_counts`` (boards gathered one at a time, deck
states folded into moment vectors near the end) must give the very same
integer counts.  It uses the package's ``move``, ``rank_code`` and
``completions``, which the pure-Python reference checks on their own.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from advisor.kernels.cards.track import FENNEC, KINDS, N_CAMELS, PALM, move, rank_code
from advisor.kernels.cards.deck import completions
from dfs_cards import deck_left as _deck_left, end_state as _end_state  # the same set-up lines


KEY_BITS = 3  # per kind in a deck key: counts 0..6
_MIX = np.uint64(0x9E3779B97F4A7C15)
_MIX2 = np.uint64(0xC2B2AE3D27D4EB4F)


@njit(cache=True, inline="always")
def _board_key(sp, ht, fig, first):
    """Spaces (7 bits each), race order (10 bits), figures (7 bits each) and
    ``first + 1`` (4 bits): never 0."""
    key = 0
    for x in range(N_CAMELS):
        key |= sp[x] << (7 * x)
    key |= rank_code(sp, ht) << 35
    key |= fig[PALM] << 45
    key |= fig[FENNEC] << 52
    key |= (first + 1) << 59
    return key


@njit(cache=True, inline="always")
def _board_of(key, sp, ht, fig):
    """Inverse of :func:`_board_key`; returns the first card (or -1)."""
    for x in range(N_CAMELS):
        sp[x] = (key >> (7 * x)) & 127
    code = (key >> 35) & 1023
    rank = np.empty(N_CAMELS, np.int64)
    left = 10
    for x in range(N_CAMELS - 1):
        rank[x] = code % 5
        code //= 5
        left -= rank[x]
    rank[N_CAMELS - 1] = left
    for x in range(N_CAMELS):
        h = 0
        for y in range(N_CAMELS):
            if sp[y] == sp[x] and rank[y] > rank[x]:
                h += 1
        ht[x] = h
    fig[PALM] = (key >> 45) & 127
    fig[FENNEC] = (key >> 52) & 127
    return ((key >> 59) & 15) - 1


@njit(cache=True, inline="always")
def _deck_key(known, drawn):
    key = 0
    for t in range(KINDS):
        key |= known[t] << (KEY_BITS * t)
        key |= drawn[t] << (KEY_BITS * (KINDS + t))
    return key


@njit(cache=True, inline="always")
def _deck_of(key, known, drawn):
    for t in range(KINDS):
        known[t] = (key >> (KEY_BITS * t)) & 7
        drawn[t] = (key >> (KEY_BITS * (KINDS + t))) & 7


@njit(cache=True, inline="always")
def _slot2(a, b, bits):
    h = np.uint64(a) * _MIX ^ np.uint64(b) * _MIX2
    return np.int64(h >> np.uint64(64 - bits))


@njit(cache=True)
def _insert2(table, bits, a, b, weight):
    """Add ``weight`` to the count of key ``(a, b)`` (``a`` never 0) in an
    open-addressing table of ``1 << bits`` slots of 3 int64 (key a, key b,
    count); returns 1 if the key is new."""
    mask = (1 << bits) - 1
    i = _slot2(a, b, bits)
    while True:
        k = table[3 * i]
        if k == a and table[3 * i + 1] == b:
            table[3 * i + 2] += weight
            return 0
        if k == 0:
            table[3 * i] = a
            table[3 * i + 1] = b
            table[3 * i + 2] = weight
            return 1
        i = (i + 1) & mask


@njit(cache=True)
def _grow2(table, bits):
    bigger = np.zeros(3 << (bits + 1), np.int64)
    for i in range(0, table.size, 3):
        if table[i] != 0:
            _insert2(bigger, bits + 1, table[i], table[i + 1], table[i + 2])
    return bigger, bits + 1


@njit(cache=True)
def pairs_leg_counts(sp, ht, fig, length, known, pool, unknown, by_first, codes, figs, states):
    """Every order and content of the rest of the race deck, revealed card
    by card until it is empty or the race is over, counted exactly (see the
    counting convention above); returns the number of outcomes.

    Adds to ``codes[first, end, code]`` (int64[KINDS, 8, CODES]) the
    outcomes whose first card is of kind ``first`` (0 for every outcome
    unless ``by_first``), that end in state ``end = over + 2 * palm + 4 *
    fennec`` (``over`` 1 if the race ends in the leg; ``palm``/``fennec`` 1
    if that figure is still on the track then) with the camels in race
    order ``code``; to ``figs[first, f]`` (int64[KINDS, 2]) the outcomes in
    which figure ``f`` is still on the track when the leg (or the race)
    ends.  The deck holds the ``known`` cards and ``unknown`` more drawn
    from ``pool`` without replacement.  Sets ``states[j]`` (int64, one per
    card of the deck) to the distinct states kept after ``j + 1`` cards.
    The caller makes sure the number of outcomes fits in int64."""
    pool_total = 0
    for t in range(KINDS):
        pool_total += pool[t]
    total = completions(known, unknown, pool_total)
    no_draw = np.zeros(KINDS, np.int64)
    cur_a = np.empty(1, np.int64)
    cur_b = np.empty(1, np.int64)
    cur_w = np.ones(1, np.int64)
    cur_a[0] = _board_key(sp, ht, fig, -1)
    cur_b[0] = _deck_key(known, no_draw)
    depth = _deck_left(known, unknown)
    states[:] = 0
    s_sp = np.empty(N_CAMELS, np.int64)
    s_ht = np.empty(N_CAMELS, np.int64)
    s_fig = np.empty(2, np.int64)
    c_sp = np.empty(N_CAMELS, np.int64)
    c_ht = np.empty(N_CAMELS, np.int64)
    c_fig = np.empty(2, np.int64)
    s_known = np.empty(KINDS, np.int64)
    drawn = np.empty(KINDS, np.int64)
    for level in range(depth):
        bits = 6
        while (1 << bits) < 4 * cur_a.size:
            bits += 1
        table = np.zeros(3 << bits, np.int64)
        count = 0
        for s in range(cur_a.size):
            if 2 * (count + 2 * KINDS) > (1 << bits):
                table, bits = _grow2(table, bits)
            first = _board_of(cur_a[s], s_sp, s_ht, s_fig)
            _deck_of(cur_b[s], s_known, drawn)
            w = cur_w[s]
            k = 0
            d = 0
            for t in range(KINDS):
                k += s_known[t]
                d += drawn[t]
            u = unknown - d
            left = pool_total - d  # unseen cards not yet drawn
            for b in range(2 * KINDS):
                kind = b % KINDS
                if b < KINDS:
                    if s_known[kind] == 0:
                        continue
                    weight = w
                    s_known[kind] -= 1
                else:
                    avail = pool[kind] - drawn[kind]
                    if u == 0 or avail == 0:
                        continue
                    weight = w * avail
                    drawn[kind] += 1
                c_sp[:] = s_sp
                c_ht[:] = s_ht
                c_fig[:] = s_fig
                f = (kind if level == 0 else first) if by_first else 0
                over = move(c_sp, c_ht, c_fig, length, kind // 2, kind % 2 + 1)
                if over or k + u == 1:
                    if b < KINDS:
                        rest = completions(s_known, u, left)
                    else:
                        rest = completions(s_known, u - 1, left - 1)
                    n = weight * rest
                    codes[f, _end_state(over, c_fig), rank_code(c_sp, c_ht)] += n
                    for g in range(2):
                        if c_fig[g]:
                            figs[f, g] += n
                else:
                    count += _insert2(table, bits, _board_key(c_sp, c_ht, c_fig, f),
                                      _deck_key(s_known, drawn), weight)
                if b < KINDS:
                    s_known[kind] += 1
                else:
                    drawn[kind] -= 1
        states[level] = count
        cur_a = np.empty(count, np.int64)
        cur_b = np.empty(count, np.int64)
        cur_w = np.empty(count, np.int64)
        n = 0
        for i in range(0, table.size, 3):
            if table[i] != 0:
                cur_a[n] = table[i]
                cur_b[n] = table[i + 1]
                cur_w[n] = table[i + 2]
                n += 1
        if count == 0:
            break
    return total
