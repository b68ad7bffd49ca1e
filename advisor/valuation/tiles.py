"""The leg's outcomes with each tile placement of the advised player:
:class:`TileTables` (whole counts of race orders and landings per
placement), filled by an exact enumeration per placement
(:func:`exact_tile_tables`, the advice) or by the candidate kernel
(:func:`sampled_tile_tables`, the bots: exact up to :data:`EXACT_ROLLS`
rolls, else :data:`TILE_SAMPLES` sampled legs with common random numbers);
the placements that change the leg (:func:`tile_placements`) and the kernel's
form of them (:func:`tile_arrays`).
"""

from __future__ import annotations

import os
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from functools import cached_property

import numpy as np

from advisor.rules.actions import Action, place_tile
from advisor.rules.position import Position
from advisor.valuation.context import Valuation
from advisor.valuation.legs import LegOutcomes, code_of
from advisor.valuation.memo import MEMO, seed_for

__all__ = ["TileTables", "exact_tile_tables", "sampled_tile_tables", "tile_placements", "with_tile", "tile_arrays",
           "EXACT_ROLLS", "TILE_SAMPLES"]

#: Tile placements are enumerated exactly when at most this many rolls are
#: left in the leg (a leg start, 5 rolls, is sampled).
EXACT_ROLLS = 4
#: Sampled legs per tile placement at a leg start.
TILE_SAMPLES = 1000


# --------------------------------------------------------------------------
# The leg's outcomes with each tile placement
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TileTables:
    """The leg's outcomes with each tile placement of the advised player, as
    whole counts: ``orders[k, code, n]`` die sequences (or sampled legs)
    ending in race order ``code`` (:mod:`advisor.kernels.ranks`) with ``n``
    landings on the tile of placement ``placements[k]`` (``(space, sign)``).
    Two sources fill them: :func:`exact_tile_tables` (each placement its own
    exact enumeration; the advice) and the candidate kernel
    (:func:`sampled_tile_tables`: exact up to :data:`EXACT_ROLLS` rolls,
    else sampled with common random numbers; the bots)."""

    placements: tuple
    orders: np.ndarray

    @cached_property
    def totals(self) -> np.ndarray:
        """Per placement, the die sequences (or legs) behind its table."""
        return self.orders.sum(axis=(1, 2))

    @cached_property
    def code_counts(self) -> np.ndarray:
        """``[placement, code]``: the counts of each race order."""
        return self.orders.sum(axis=2)


def tile_placements(ctx: Valuation, actions) -> tuple:
    """The tile placements among ``actions`` that change the leg: every one
    when the player's tile already stands (it is lifted from its space),
    else those on a space some move of the leg ends on (a tile no move
    reaches earns and changes nothing)."""
    lifted = ctx.state.own_tile(ctx.player) is not None
    return tuple((a.space, a.sign) for a in map(Action.parse, actions)
                 if a.kind == "tile" and (lifted or ctx.base.reached[a.space]))


def with_tile(ctx: Valuation, space: int, sign: str) -> Position:
    """The position with the advised player's tile (lifted from its old
    space) on ``space`` (the rules core's :func:`place_tile`)."""
    return place_tile(ctx.pos, ctx.player, space, sign)


def exact_tile_tables(ctx: Valuation, placements) -> TileTables:
    """The exact tables: each placement its own enumeration of the leg
    (:meth:`LegOutcomes.of`, kept in ``ctx.tile_legs`` for the explanation),
    on every core at once (the kernel releases the GIL; the result does not
    depend on the thread count)."""
    from advisor.kernels.ranks import RANK_CODES

    jobs = [p for p in placements if p not in ctx.tile_legs]

    def one(job):
        return LegOutcomes.of(with_tile(ctx, *job), job[0])

    threads = min(len(jobs), os.cpu_count() or 1)
    if threads >= 2:
        with ThreadPoolExecutor(threads) as pool:
            ctx.tile_legs.update(zip(jobs, pool.map(one, jobs)))
    else:
        ctx.tile_legs.update((job, one(job)) for job in jobs)
    legs = [ctx.tile_legs[p] for p in placements]
    orders = np.zeros((len(legs), RANK_CODES, 1 + max(int(leg.landings.max(initial=0)) for leg in legs)), np.int64)
    for k, leg in enumerate(legs):
        np.add.at(orders[k], (code_of(leg), leg.landings), leg.counts)
    return TileTables(tuple(placements), orders)


def tile_arrays(ctx: Valuation, enc, placements):
    """The kernel's form of ``placements``: the track's tiles without the
    player's own (lifted), the spaces and the signs (+1, -1)."""
    stripped = enc.tiles.copy()
    own = ctx.state.own_tile(ctx.player)
    if own is not None:
        stripped[own.space] = 0
    sp = np.array([space for space, _ in placements], np.int64)
    sg = np.array([1 if sign == "+" else -1 for _, sign in placements], np.int8)
    return stripped, sp, sg


def sampled_tile_tables(ctx: Valuation, enc, placements) -> TileTables:
    """The candidate kernel's tables: every placement in one call, exact
    when at most :data:`EXACT_ROLLS` rolls are left, otherwise
    :data:`TILE_SAMPLES` sampled legs replayed by every placement (common
    random numbers), seeded from the board and memoized."""
    stripped, sp, sg = tile_arrays(ctx, enc, placements)
    key = ("tiles", ctx.board_key, stripped.tobytes(), sp.tobytes())
    orders = MEMO.get(key + (sg.tobytes(),), lambda: _candidate_orders(enc, stripped, sp, sg, seed_for(key)))
    return TileTables(tuple(placements), orders)


def _candidate_orders(enc, stripped, sp, sg, seed) -> np.ndarray:
    from advisor.kernels.board.candidates import candidate_joint
    from advisor.kernels.ranks import RANK_CODES

    exact = enc.rolls <= EXACT_ROLLS
    orders = np.zeros((sp.size, RANK_CODES, enc.rolls + 1), np.int64)
    candidate_joint(enc.board, enc.dice, enc.rolls, stripped, sp, sg, exact, TILE_SAMPLES, seed, orders)
    return orders

