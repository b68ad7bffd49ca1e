"""Race orders as numbers: the one rank-code definition of every game.

Both board games and Camel Up Cards race five camels.  A race order is
coded as one number, ``code = r0 + 5 r1 + 25 r2 + 125 r3``, where ``r_i`` is
the 0-based rank of camel ``i`` (the game's camel order: ``i``-th row of every
result); ``r4 = 10 - r0 - r1 - r2 - r3`` follows, the ranks being a
permutation of 0..4.  Counting codes and expanding them once is cheaper than
five counters per end state, and a table indexed by code carries a whole
distribution of race orders.

Codes lie in ``0 .. RANK_CODES - 1``; 120 of them are race orders, the others
never occur (:func:`rank_codes` marks them -1).

:func:`code_of_ranks` and :func:`ranks_of_code` are the encoding and decoding
(kernels and, through ``py_func``, NumPy arrays); :func:`add_rank_codes`
expands counts by code into ``[camel, rank]`` counts; :func:`rank_codes` is
the decoding as a read-only table for Python code, :func:`codes_of` the
encoding of many rank rows.
"""

from __future__ import annotations

from functools import lru_cache

import numpy as np

from advisor.kernels._jit import njit

#: Camels in a race order.
N_RANKED = 5

#: Number of rank codes (``5 ** 4``: the last camel's rank follows).
RANK_CODES = N_RANKED ** (N_RANKED - 1)


@njit(inline="always")
def code_of_ranks(r0, r1, r2, r3):
    """The code of the race order in which camel ``i`` has 0-based rank
    ``r_i`` (the fifth camel's rank follows)."""
    return r0 + 5 * r1 + 25 * r2 + 125 * r3


@njit(inline="always")
def ranks_of_code(code):
    """``(r0, r1, r2, r3, r4)``: each camel's 0-based rank in race order
    ``code`` (meaningful for the 120 codes that are race orders)."""
    r0 = code % 5
    r1 = code // 5 % 5
    r2 = code // 25 % 5
    r3 = code // 125
    return r0, r1, r2, r3, 10 - r0 - r1 - r2 - r3


@njit
def add_rank_codes(code_counts, rank_counts):
    """Add counts by rank code (int64[RANK_CODES]) to ``rank_counts[camel, rank]``
    (int64[5, 5])."""
    for code in range(RANK_CODES):
        w = code_counts[code]
        if w:
            r0, r1, r2, r3, r4 = ranks_of_code(code)
            rank_counts[0, r0] += w
            rank_counts[1, r1] += w
            rank_counts[2, r2] += w
            rank_counts[3, r3] += w
            rank_counts[4, r4] += w


@lru_cache(maxsize=1)
def rank_codes() -> np.ndarray:
    """int64[RANK_CODES, 5]: the 0-based rank of each camel for each code;
    rows of codes that are no race order hold -1.  Read-only (cached)."""
    table = np.stack(ranks_of_code.py_func(np.arange(RANK_CODES, dtype=np.int64)), axis=1)
    is_order = (np.sort(table, axis=1) == np.arange(N_RANKED)).all(axis=1)
    table[~is_order] = -1
    table.flags.writeable = False
    return table


def codes_of(ranks: np.ndarray) -> np.ndarray:
    """The rank code of each row of ``ranks`` (int[..., 5]: 0-based ranks)."""
    ranks = np.asarray(ranks)
    return code_of_ranks.py_func(ranks[..., 0], ranks[..., 1], ranks[..., 2], ranks[..., 3])


__all__ = ["N_RANKED", "RANK_CODES", "code_of_ranks", "ranks_of_code", "add_rank_codes", "rank_codes", "codes_of"]
