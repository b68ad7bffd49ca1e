"""The leg's outcome distribution: :class:`LegOutcomes`, the distinct
outcomes of the rest of the leg (race order, landings on a tracked tile)
with their exact counts of die sequences, and the figures summed over them
in whole numbers; the rank codes of the outcomes (:mod:`advisor.kernels.ranks`)
and the table of every rank code once (:func:`all_codes`).
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from advisor.rules.editions import SECOND
from advisor.rules.position import Position
from advisor.rules.scoring import leg_tile_payouts

__all__ = ["LegOutcomes", "weighted_moments", "all_codes", "code_probs", "code_of"]


# --------------------------------------------------------------------------
# The leg's outcome distribution
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class LegOutcomes:
    """Distinct outcomes of the rest of the leg with exact probabilities.

    ``prob``: float[n]; ``ranks``: int[n, 5] 0-based rank of each racing camel
    (edition order); ``landings``: int[n] landings on the tracked tile (0 when
    none is tracked).
    """

    prob: np.ndarray
    ranks: np.ndarray
    landings: np.ndarray
    reached: np.ndarray | None = None  # 1 where some move ends (see enumerate_joint)
    counts: np.ndarray | None = None  # int64[n]: die sequences behind each outcome (exact)
    total: int = 0  # their sum (prob = counts / total)
    rules: object = None  # the Edition (or variant) whose payouts apply; None: the editions' own


    @classmethod
    def of(cls, position: Position, track: int = 0) -> "LegOutcomes":
        from advisor.rules.encode import encode
        from advisor.kernels.board.leg import enumerate_joint
        from advisor.kernels.ranks import RANK_CODES, rank_codes

        enc = encode(position)
        orders = np.zeros((RANK_CODES, enc.rolls + 1 if track else 1), np.int64)
        reached = np.zeros(enc.tiles.size, np.int64)
        enumerate_joint(enc.board, enc.dice, enc.rolls, enc.tiles, False, track, orders,
                        np.zeros(enc.tiles.size, np.int64), reached)
        codes, hits = np.nonzero(orders)
        counts = orders[codes, hits]
        total = int(counts.sum())
        return cls(counts / total, rank_codes()[codes], hits, reached, counts, total, position.rules)

    def rank_probs(self, camel: int) -> np.ndarray:
        """P(rank k) of racing camel ``camel`` (index), k = 0..4."""
        if self.counts is not None:
            return np.bincount(self.ranks[:, camel], weights=self.counts, minlength=5) / self.total
        return np.bincount(self.ranks[:, camel], weights=self.prob, minlength=5)

    def exact_mean(self, values) -> Fraction | None:
        """E[values] as an exact fraction when the outcomes carry their
        counts and the values are whole numbers (payouts in coins); else
        ``None``."""
        ints = _whole(values) if self.counts is not None else None
        if ints is None:
            return None
        return Fraction(int(self.counts @ ints), self.total)

    def mean(self, values) -> float:
        """E[values]: the correctly rounded exact figure (one division of
        whole numbers) when :meth:`exact_mean` has one."""
        ints = _whole(values) if self.counts is not None else None
        if ints is None:
            return float(self.prob @ np.asarray(values, float))
        return int(self.counts @ ints) / self.total

    def moments(self, values) -> tuple[float, float, float]:
        """``(mean, sd, P(value < 0))`` of ``values`` over the outcomes; from
        the integer counts (one division at the end) when the values are
        whole numbers, so an exact figure prints exactly."""
        ints = _whole(values)
        if self.counts is None or ints is None:
            return weighted_moments(np.asarray(values, float), self.prob)
        s1 = int(self.counts @ ints)
        s2 = int(self.counts @ (ints * ints))
        n = self.total
        variance = Fraction(n * s2 - s1 * s1, n * n)
        return s1 / n, float(np.sqrt(float(variance))), int(self.counts[ints < 0].sum()) / n

    def tile_payout(self, camel: int, value: int) -> np.ndarray:
        """Per outcome, what a leg bet tile of ``value`` on ``camel`` pays."""
        return leg_tile_payouts(self.rules or SECOND, value)[self.ranks[:, camel]]


def weighted_moments(values: np.ndarray, prob: np.ndarray) -> tuple[float, float, float]:
    """``(mean, sd, P(value < 0))`` of ``values`` under the probabilities
    ``prob`` (in floating point)."""
    mean = float(prob @ values)
    sd = float(np.sqrt(max(prob @ (values - mean) ** 2, 0.0)))
    return mean, sd, float(prob[values < -1e-12].sum())


def _whole(values) -> np.ndarray | None:
    """``values`` as int64 if every one is a whole number, else ``None``."""
    values = np.asarray(values)
    if values.dtype.kind in "iu":
        return values.astype(np.int64, copy=False)
    with np.errstate(invalid="ignore"):
        ints = values.astype(np.int64)
    # (whole numbers of coins are far below 2**53, where floats stay exact)
    return ints if (ints == values).all() else None


def all_codes(rules) -> LegOutcomes:
    """Every rank code once (probabilities unused): payouts per rank code
    under ``rules`` (an edition or a variant)."""
    from advisor.kernels.ranks import RANK_CODES, rank_codes

    return LegOutcomes(np.zeros(RANK_CODES), rank_codes(), np.zeros(RANK_CODES, np.int64), rules=rules)


def code_probs(leg: LegOutcomes) -> np.ndarray:
    """P(each rank code) at the end of ``leg``."""
    from advisor.kernels.ranks import RANK_CODES

    return np.bincount(code_of(leg), weights=leg.prob, minlength=RANK_CODES)


def code_of(leg: LegOutcomes) -> np.ndarray:
    """The rank code of each outcome of ``leg``."""
    from advisor.kernels.ranks import codes_of

    return codes_of(leg.ranks)
