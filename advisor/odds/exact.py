"""Leg odds: the probability of every racing camel finishing the current leg
1st, 2nd, ... 5th (scored when the leg ends, or earlier if the race ends
during it).

:func:`leg_odds` validates, encodes, calls the exact enumeration kernel and
turns its integer counts into probabilities.  Every die order and face
sequence is equally likely (see :mod:`advisor.kernels.board.leg`), so a
probability is ``count / total`` with ``total`` the number of sequences:
exact, and every row and column of the rank matrix sums to 1.
:func:`sample_leg_odds` gives the same figures from randomly played legs
(reproducible from a seed).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable

import numpy as np

from advisor.rules.position import Position, as_position
from advisor._tools.sampling import check_samples, resolve_seed

__all__ = ["LegOdds", "leg_odds", "leg_odds_many", "sample_leg_odds", "as_position", "RANK_LABELS"]

RANK_LABELS = ("1st", "2nd", "3rd", "4th", "5th")


def _no_landings() -> np.ndarray:
    from advisor.kernels.board.track import TILE_SLOTS

    return np.zeros(TILE_SLOTS, np.int64)


def _no_landings() -> np.ndarray:
    """int64[TILE_SLOTS] zeros: no tile landings."""
    from advisor.kernels.board.track import TILE_SLOTS

    return np.zeros(TILE_SLOTS, np.int64)


@dataclass(frozen=True, eq=False)
class LegOdds:
    """Rank distribution of the racing camels at the end of the current leg.

    Attributes
    ----------
    - position: the position analysed.
    - camels: racing camel letters, the row order of every array.
    - counts: int64[5, 5]; ``counts[i, k]`` = die sequences (exact) or sampled
      legs in which camel ``i`` is ranked ``k+1``.
    - total: the number of sequences (exact) or of samples; each row sums to it.
    - samples: 0 when exact, else the number of sampled legs.
    - seed: the seed of a sampled result (``None`` when exact).
    - landing_counts: int64[TILE_SLOTS]: summed tile landings, by space.
    - ended_count: sequences (or samples) in which the race ends in this leg.
    """

    position: Position
    camels: tuple[str, ...]
    counts: np.ndarray
    total: int
    samples: int = 0
    seed: int | None = None
    landing_counts: np.ndarray = field(default_factory=_no_landings)
    ended_count: int = 0

    @property
    def exact(self) -> bool:
        return self.samples == 0

    @property
    def rank(self) -> np.ndarray:
        """float[5, 5]: ``rank[i, k]`` = P(camel ``i`` is ranked ``k+1``)."""
        return self.counts / self.total

    @property
    def stderr(self) -> np.ndarray:
        """Standard errors of :attr:`rank` (zeros when exact)."""
        if self.exact:
            return np.zeros_like(self.rank)
        p = self.rank
        return np.sqrt(p * (1 - p) / self.total)

    @property
    def race_ends(self) -> float:
        """P(the race ends during this leg)."""
        return self.ended_count / self.total

    def probability(self, camel: str, rank: int = 1) -> float:
        """P(``camel`` is ranked ``rank`` (1..5) when the leg is scored)."""
        return float(self.counts[self._row(camel), self._col(rank)] / self.total)

    def fraction(self, camel: str, rank: int = 1) -> Fraction:
        """The exact probability as a fraction (exact results only)."""
        if not self.exact:
            raise ValueError("a sampled result has no exact fraction")
        return Fraction(int(self.counts[self._row(camel), self._col(rank)]), self.total)

    def expected_landings(self) -> dict[int, float]:
        """Expected number of landings on each tile of the position during
        the rest of the leg (each pays its owner 1 coin)."""
        return {t.space: float(self.landing_counts[t.space] / self.total) for t in self.position.tiles}

    def _row(self, camel: str) -> int:
        if camel not in self.camels:
            raise KeyError(f"{camel!r} is not a racing camel (racing camels: {''.join(self.camels)})")
        return self.camels.index(camel)

    @staticmethod
    def _col(rank: int) -> int:
        if rank not in range(1, 6):
            raise KeyError(f"rank must be 1..5, not {rank!r}")
        return rank - 1

    def order(self) -> list[str]:
        """Camels by decreasing P(1st) (then P(2nd), ...)."""
        keys = {c: tuple(-self.counts[i]) for i, c in enumerate(self.camels)}
        return sorted(self.camels, key=lambda c: keys[c])

    def to_frame(self):
        """pandas DataFrame: one row per camel (edition order), columns
        ``1st``..``5th``; ``.attrs`` holds the position and how it was got."""
        import pandas as pd

        frame = pd.DataFrame(self.rank, index=pd.Index(self.camels, name="camel"), columns=list(RANK_LABELS))
        frame.attrs.update(position=str(self.position), exact=self.exact, samples=self.samples)
        return frame

    def to_dict(self) -> dict:
        """``{"B": {"rank": [p1, ..., p5]}, ...}`` as in docs/notation.md."""
        return {c: {"rank": [float(x) for x in row]} for c, row in zip(self.camels, self.rank)}

    def __repr__(self) -> str:
        how = "exact" if self.exact else f"{self.samples} samples"
        first = ", ".join(f"{c}={self.probability(c):.3f}" for c in self.order())
        return f"<LegOdds {how}; P(1st): {first}>"


def leg_odds(position: Position | str, *, samples: int | None = None, seed: int | None = None) -> LegOdds:
    """Leg rank probabilities of ``position``.

    Exact enumeration of every remaining die order and face, unless
    ``samples`` asks for Monte Carlo with that many sampled legs (``seed``
    makes it reproducible; without one a seed is drawn and recorded).
    """
    position = as_position(position)
    if samples is not None:
        return sample_leg_odds(position, samples=samples, seed=seed)
    from advisor.rules.encode import encode
    from advisor.kernels.board.leg import enumerate_leg

    enc = encode(position)
    counts = np.zeros((5, 5), np.int64)
    landings = np.zeros(enc.tiles.size, np.int64)
    ended, _, _ = enumerate_leg(enc.board, enc.dice, enc.rolls, enc.tiles, False, counts, landings)
    return LegOdds(
        position=position,
        camels=tuple(position.racing),
        counts=counts,
        total=int(counts[0].sum()),
        landing_counts=landings,
        ended_count=int(ended),
    )


def leg_odds_many(positions: Iterable[Position | str]) -> list[LegOdds]:
    """Exact leg odds of many positions in one kernel call per edition
    (parallel over positions)."""
    from advisor.rules.encode import encode
    from advisor.kernels.board.leg import leg_counts_batch

    items = [as_position(p) for p in positions]
    results: list[LegOdds | None] = [None] * len(items)
    by_edition: dict[str, list[int]] = {}
    for i, p in enumerate(items):
        by_edition.setdefault(p.edition, []).append(i)
    for indices in by_edition.values():
        encoded = [encode(items[i]) for i in indices]
        n = len(encoded)
        boards = np.array([e.board for e in encoded], np.int64)
        dice = np.array([e.dice for e in encoded], np.int64)
        rolls = np.array([e.rolls for e in encoded], np.int64)
        tiles = np.stack([e.tiles for e in encoded])
        counts = np.zeros((n, 5, 5), np.int64)
        landings = np.zeros((n, tiles.shape[1]), np.int64)
        ended = np.zeros(n, np.int64)
        leg_counts_batch(boards, dice, rolls, tiles, counts, landings, ended)
        for j, i in enumerate(indices):
            results[i] = LegOdds(
                position=items[i],
                camels=tuple(items[i].racing),
                counts=counts[j],
                total=int(counts[j, 0].sum()),
                landing_counts=landings[j],
                ended_count=int(ended[j]),
            )
    return results  # type: ignore[return-value]


def sample_leg_odds(position: Position | str, *, samples: int, seed: int | None = None) -> LegOdds:
    """Leg rank frequencies from ``samples`` randomly played legs (``seed``
    makes them reproducible; without one a seed is drawn and recorded)."""
    from advisor.rules.encode import encode
    from advisor.kernels.board.sample import sample_leg

    position = as_position(position)
    samples = check_samples(samples)
    seed = resolve_seed(seed)
    enc = encode(position)
    counts = np.zeros((5, 5), np.int64)
    landings = np.zeros(enc.tiles.size, np.int64)
    ended = sample_leg(enc.board, enc.dice, enc.rolls, enc.tiles, samples, seed, counts, landings)
    return LegOdds(
        position=position,
        camels=tuple(position.racing),
        counts=counts,
        total=samples,
        samples=samples,
        seed=seed,
        landing_counts=landings,
        ended_count=int(ended),
    )
