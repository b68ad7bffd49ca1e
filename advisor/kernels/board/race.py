"""Whole-race sampling and scoring of end states.

A race is continued from the end states of the current leg (enumerated
exactly by :func:`advisor.kernels.board.leg.enumerate_leg`): every later leg starts
with every die in the pyramid and no tiles, and is played at random until a
unit ends a move beyond the track.

Sampling is stratified: within one *replicate*, sample ``i`` of ``m`` takes
the end state at position ``(u + i) / m`` of the cumulative distribution of
the leg-end states (one uniform ``u`` per replicate, systematic sampling),
so each state gets its exact share of samples up to one.  Replicates are
independent (stream ``stream0 + r`` of the seed), so their spread gives an
honest standard error, and the result does not depend on the thread count.
"""

from __future__ import annotations

import numpy as np
from numba import prange

from advisor.kernels._jit import njit
from advisor.kernels.board.track import TILE_SLOTS, add_ranks
from advisor.kernels.rng import next_u64, seed_stream
from advisor.kernels.board.sample import play_leg

MAX_LEGS = 64  # a race has never needed more than a dozen legs
#: Seconds per race on one thread, from a game start (the longest races;
#: ``benchmarks/bench_threads.py``): sizes a call's thread count.
RACE_SECONDS = 4e-7


@njit
def score_boards(boards, weights, rank_counts):
    """Add each board's ranks, weighted, to ``rank_counts`` int64[5, 5]."""
    for i in range(boards.size):
        add_ranks(boards[i], weights[i], rank_counts)


@njit(inline="always")
def _uniform(state):
    return np.float64(next_u64(state) >> np.uint64(11)) * (1.0 / 9007199254740992.0)


def _race_work(boards, cdf, replicates, per_replicate, *_):
    return replicates * per_replicate * RACE_SECONDS, replicates


@njit(parallel=True, work=_race_work)
def race_replicates(boards, cdf, replicates, per_replicate, seed, stream0, full_dice, rolls, ranks, legs):
    """Play ``replicates`` x ``per_replicate`` races from the leg-end states.

    boards : int64[n] leg-end boards (race not over); cdf : float64[n]
    cumulative probabilities of those boards (last = 1).  full_dice: the
    pyramid bit mask at a leg start; rolls: rolls per leg.
    Outputs, per replicate ``r``: ``ranks[r]`` int64[5, 5] final rank counts;
    ``legs[r, k]`` int64[replicates, MAX_LEGS + 1]: races that ended in the
    ``k+1``-th leg after the current one; the last column counts races still
    running after MAX_LEGS legs (their ranks are those of the last board).
    """
    tiles = np.zeros(TILE_SLOTS, np.int8)
    for r in prange(replicates):
        state = np.empty(4, np.uint64)
        seed_stream(seed, stream0 + r, state)
        landings = np.zeros(TILE_SLOTS, np.int64)
        u = _uniform(state)
        j = 0
        for i in range(per_replicate):
            x = (u + i) / per_replicate
            while j < boards.size - 1 and cdf[j] < x:
                j += 1
            board = boards[j]
            played = 0
            while True:
                board, over = play_leg(board, full_dice, rolls, tiles, state, landings)
                played += 1
                if over or played == MAX_LEGS:
                    break
            legs[r, played - 1 if over else MAX_LEGS] += 1
            add_ranks(board, 1, ranks[r])
