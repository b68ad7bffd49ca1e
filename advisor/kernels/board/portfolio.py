"""The joint distribution of this leg's race order and the race's winner and
last camel, sampled: what the portfolio view of a player's bets needs (a
leg tile pays on this leg's order, an overall card on the race's end, and
the two are far from independent).

Sample ``i`` plays the rest of this leg and every later leg (with no tiles,
as tiles leave the board at a leg's end) from stream ``(seed, i)``.
"""

from __future__ import annotations

import numpy as np

from advisor.kernels._jit import njit
from advisor.kernels.board.track import TILE_SLOTS, rank_code, ranks_of
from advisor.kernels.board.race import MAX_LEGS
from advisor.kernels.rng import seed_stream
from advisor.kernels.board.sample import play_leg


@njit
def race_joint(board, dice, rolls, tiles, samples, seed, full_dice, full_rolls, counts):
    """``counts[code, w, l]`` (int64[RANK_CODES, 5, 5]) += the sampled races
    whose current leg ends in race order ``code`` (the race order when the
    race ends during the leg) and whose race is won by racing camel ``w``
    with ``l`` last.  ``full_dice``/``full_rolls``: a later leg's pyramid
    and rolls."""
    state = np.empty(4, np.uint64)
    no_tiles = np.zeros(TILE_SLOTS, np.int8)
    landings = np.zeros(TILE_SLOTS, np.int64)
    later = np.zeros(TILE_SLOTS, np.int64)
    for i in range(samples):
        seed_stream(seed, i, state)
        b, over = play_leg(board, dice, rolls, tiles, state, landings)
        code = rank_code(b)
        played = 0
        while not over and played < MAX_LEGS:
            b, over = play_leg(b, full_dice, full_rolls, no_tiles, state, later)
            played += 1
        r = ranks_of(b)
        w = 0
        lo = 0
        for camel in range(5):
            if r[camel] == 0:
                w = camel
            elif r[camel] == 4:
                lo = camel
        counts[code, w, lo] += 1


__all__ = ["race_joint"]
