"""Monte Carlo sampling of the rest of a leg (rank counts, landings).

Work is cut into fixed chunks; chunk ``c`` draws from its own stream
``(seed, c)`` and keeps its own counts, which are summed at the end, so the
result depends on ``seed`` and ``samples`` only, whatever the thread count.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from advisor.kernels._jit import njit
from advisor.kernels.board.track import GREY, N_RACING, TILE_SLOTS, add_ranks, roll
from advisor.kernels.rng import below, seed_stream

CHUNK = 8192
#: Seconds per sampled leg on one thread (a leg start; sizes a call's threads).
LEG_SECONDS = 1.5e-7


@njit(inline="always")
def nth_die(pyramid, n):
    """The ``n``-th (0-based) die present in the bit mask ``pyramid``."""
    for die in range(GREY + 1):
        if (pyramid >> die) & 1:
            if n == 0:
                return die
            n -= 1
    return -1


@njit(inline="always")
def draw_die(pyramid, left, state):
    """The next roll from a pyramid of ``left`` dice: ``(die, face)`` (face
    as :func:`~advisor.kernels.board.track.roll` reads it).  One draw picks the
    die and one of its six faces, equally likely."""
    pick = below(state, left * 6)
    die = nth_die(pyramid, pick // 6)
    face = pick % 6
    if die != GREY:
        face //= 2  # a racing die reads 1, 1, 2, 2, 3, 3
    return die, face


@njit(inline="always")
def play_leg(board, pyramid, rolls, tiles, state, landings):
    """Play the rest of one leg at random; returns ``(board, over)`` and adds
    the tile landings to ``landings``."""
    left = 0
    for die in range(GREY + 1):
        left += (pyramid >> die) & 1
    for _ in range(rolls):
        die, face = draw_die(pyramid, left, state)
        pyramid &= ~(1 << die)
        left -= 1
        board, landed, over = roll(board, die, face, tiles)
        if landed:
            landings[landed] += 1
        if over:
            return board, True
    return board, False


def _sample_work(board, pyramid, rolls, tiles, samples, *_):
    return samples * LEG_SECONDS, (samples + CHUNK - 1) // CHUNK


@njit(parallel=True, work=_sample_work)
def sample_leg(board, pyramid, rolls, tiles, samples, seed, rank_counts, landings):
    """Sample ``samples`` legs; fills ``rank_counts`` int64[5, 5] and
    ``landings`` int64[TILE_SLOTS]; returns the number of legs in which the
    race ended."""
    nchunks = (samples + CHUNK - 1) // CHUNK
    ranks = np.zeros((nchunks, N_RACING, N_RACING), np.int64)
    lands = np.zeros((nchunks, TILE_SLOTS), np.int64)
    ends = np.zeros(nchunks, np.int64)
    for c in prange(nchunks):
        state = np.empty(4, np.uint64)
        seed_stream(seed, np.int64(c), state)  # int64, as every caller's stream (c is unsigned here)
        n = min(CHUNK, samples - c * CHUNK)
        for _ in range(n):
            end, over = play_leg(board, pyramid, rolls, tiles, state, lands[c])
            add_ranks(end, 1, ranks[c])
            if over:
                ends[c] += 1
    rank_counts += ranks.sum(axis=0)
    landings += lands.sum(axis=0)
    return ends.sum()
