"""The former exact Camel Up Cards leg kernel: a plain depth-first search
over every card sequence of the rest of the race deck, each with its
probability (floats).  It is kept here, in the tests, as a second reference
for legs too big for the pure-Python one (``naive_cards.py``): the merged
kernel ``advisor.kernels.cards.exact.leg_counts`` must agree with it.  It uses the
package's ``move`` and ``rank_code``, which the pure-Python reference checks
on their own.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from advisor.kernels.cards.track import KINDS, N_CAMELS, PALM, FENNEC, move, rank_code


@njit(cache=True)
def deck_left(known, unknown):
    n = unknown
    for t in range(KINDS):
        n += known[t]
    return n


@njit(cache=True)
def end_state(over, fig):
    return (1 if over else 0) + 2 * (fig[PALM] != 0) + 4 * (fig[FENNEC] != 0)


@njit(cache=True)
def leg_dfs(sp, ht, fig, length, known, pool, unknown, codes, figs):
    """Every order and content of the rest of the race deck, revealed card
    by card until it is empty or the race is over, with its probability.

    Adds to ``codes[first, end, code]`` (float64[KINDS, 8, CODES]) the
    probability that the leg's first card is of kind ``first``, that it ends
    in state ``end = over + 2 * palm + 4 * fennec`` (``over`` 1 if the race
    ends in the leg; ``palm``/``fennec`` 1 if that figure is still on the
    track then) and that the camels end in race order ``code``; to
    ``figs[first, f]`` (float64[KINDS, 2]) the probability that figure ``f``
    is still on the track when the leg (or the race) ends.
    The deck holds the ``known`` cards and ``unknown`` more drawn from
    ``pool`` without replacement (every order equally likely).
    """
    depth = deck_left(known, unknown)
    st_sp = np.empty((depth + 1, N_CAMELS), np.int64)
    st_ht = np.empty((depth + 1, N_CAMELS), np.int64)
    st_fig = np.empty((depth + 1, 2), np.int64)
    st_known = np.empty((depth + 1, KINDS), np.int64)
    st_pool = np.empty((depth + 1, KINDS), np.int64)
    st_unk = np.empty(depth + 1, np.int64)
    st_prob = np.empty(depth + 1, np.float64)
    st_next = np.zeros(depth + 1, np.int64)
    st_first = np.empty(depth + 1, np.int64)
    st_sp[0] = sp
    st_ht[0] = ht
    st_fig[0] = fig
    st_known[0] = known
    st_pool[0] = pool
    st_unk[0] = unknown
    st_prob[0] = 1.0
    st_first[0] = -1
    d = 0
    while d >= 0:
        b = st_next[d]
        if b >= 2 * KINDS:
            d -= 1
            continue
        st_next[d] = b + 1
        k = 0
        pool_total = 0
        for t in range(KINDS):
            k += st_known[d, t]
            pool_total += st_pool[d, t]
        u = st_unk[d]
        n = k + u
        e = d + 1
        st_known[e] = st_known[d]
        st_pool[e] = st_pool[d]
        st_unk[e] = u
        if b < KINDS:
            kind = b
            if st_known[d, kind] == 0:
                continue
            p = st_prob[d] * st_known[d, kind] / n
            st_known[e, kind] -= 1
        else:
            kind = b - KINDS
            if u == 0 or st_pool[d, kind] == 0:
                continue
            p = st_prob[d] * (u / n) * (st_pool[d, kind] / pool_total)
            st_pool[e, kind] -= 1
            st_unk[e] = u - 1
        st_sp[e] = st_sp[d]
        st_ht[e] = st_ht[d]
        st_fig[e] = st_fig[d]
        first = kind if d == 0 else st_first[d]
        over = move(st_sp[e], st_ht[e], st_fig[e], length, kind // 2, kind % 2 + 1)
        if over or n == 1:
            codes[first, end_state(over, st_fig[e]), rank_code(st_sp[e], st_ht[e])] += p
            for f in range(2):
                if st_fig[e, f]:
                    figs[first, f] += p
            continue
        st_prob[e] = p
        st_first[e] = first
        st_next[e] = 0
        d = e
