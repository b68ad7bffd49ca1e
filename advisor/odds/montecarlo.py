"""Race odds: who wins the whole race, who finishes last (exact when the
race must end soon, else simulated), reproducible from a seed.

Every random result takes ``seed=``; the same seed gives the same answer
whatever the thread count (each fixed-size chunk of samples has its own
random stream, see :mod:`advisor.kernels.rng`).  The checks of seeds,
sample counts, precision and threads live in :mod:`advisor._tools.sampling`
(re-exported here); sampled leg odds in :mod:`advisor.odds.exact`.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction

import numpy as np

from advisor.errors import AdvisorError
from advisor.odds.exact import RANK_LABELS, sample_leg_odds
from advisor.rules.position import Position, as_position
from advisor._tools.sampling import MAX_SAMPLES, check_precision, check_samples, check_threads, kernel_threads, resolve_seed

__all__ = ["sample_leg_odds", "race_odds", "RaceOdds", "check_samples", "check_precision", "resolve_seed",
           "MAX_SAMPLES"]


# --------------------------------------------------------------------------
# Whole-race odds
# --------------------------------------------------------------------------

#: Most races per replicate when sampling to a precision target (a coarse
#: target takes fewer: enough for it if a probability were 1/2).
REPLICATE_SIZE = 2048
#: Replicates in the first round (and the fewest ever used).
MIN_REPLICATES = 32
#: Largest number of leg-end states for which the next leg is enumerated
#: exactly in the hope that the race must end there.
EXACT_NEXT_LEG_BUDGET = 64
#: Safety net for --precision: never simulate more races than this.
MAX_RACES = 50_000_000


@dataclass(frozen=True, eq=False)
class RaceOdds:
    """Whole-race odds: who wins the race, who finishes last.

    Attributes
    ----------
    - position: the position analysed.
    - camels: racing camel letters (row order of every array).
    - rank: float[5, 5]; ``rank[i, k]`` = P(camel ``i`` finishes the race
      ``k+1``-th); ``rank[:, 0]`` is :attr:`win`, ``rank[:, 4]`` :attr:`lose`.
    - rank_se: standard errors of :attr:`rank` (zeros when exact).
    - legs: float[L]; ``legs[k]`` = P(the race ends ``k`` legs after the
      current one); ``legs[0]``: during the current leg.
    - samples: simulated races (0 when exact); replicates: independent
      replicates behind the standard errors; seed: the seed used.
    - exact_counts / exact_total: integer counts behind an exact result.
    - replicate_rank / replicate_legs: float[replicates, 5, 5] and
      float[replicates, L]: each replicate's own estimate of :attr:`rank`
      and :attr:`legs` (their means are those; ``None`` when exact): the
      joint sampling error of every figure read from the odds
      (:func:`advisor.valuation.winerror.race_directions`).
    """

    position: Position
    camels: tuple[str, ...]
    rank: np.ndarray
    rank_se: np.ndarray
    legs: np.ndarray
    samples: int = 0
    replicates: int = 0
    seed: int | None = None
    exact_counts: np.ndarray | None = None
    exact_total: int | None = None
    replicate_rank: np.ndarray | None = None
    replicate_legs: np.ndarray | None = None

    @property
    def exact(self) -> bool:
        return self.samples == 0

    @property
    def win(self) -> np.ndarray:
        return self.rank[:, 0]

    @property
    def lose(self) -> np.ndarray:
        return self.rank[:, -1]

    @property
    def win_se(self) -> np.ndarray:
        return self.rank_se[:, 0]

    @property
    def lose_se(self) -> np.ndarray:
        return self.rank_se[:, -1]

    def half_width(self, level: float = 0.95) -> np.ndarray:
        """Half-widths of the ``level`` intervals of :attr:`rank`."""
        if self.exact:
            return np.zeros_like(self.rank)
        return _t_quantile(0.5 + level / 2, self.replicates - 1) * self.rank_se

    def interval(self, camel: str, what: str = "win", level: float = 0.95) -> tuple[float, float]:
        """The ``level`` confidence interval of P(``camel`` wins) (``what=
        "win"``) or P(finishes last) (``"lose"``), clipped to 0..1."""
        i = self.camels.index(camel)
        k = {"win": 0, "lose": -1}[what]
        p, h = self.rank[i, k], self.half_width(level)[i, k]
        return max(0.0, p - h), min(1.0, p + h)

    def fraction(self, camel: str, rank: int = 1) -> Fraction:
        """The exact probability of finishing ``rank`` (exact results only)."""
        if self.exact_counts is None:
            raise ValueError("a sampled result has no exact fraction")
        return Fraction(int(self.exact_counts[self.camels.index(camel), rank - 1]), self.exact_total)

    def to_frame(self):
        """pandas DataFrame: per camel, P(win), P(lose), their 95% intervals
        and the final rank distribution."""
        import pandas as pd

        hw = self.half_width()
        data = {
            "win": self.win, "win_lo": np.clip(self.win - hw[:, 0], 0, 1),
            "win_hi": np.clip(self.win + hw[:, 0], 0, 1),
            "lose": self.lose, "lose_lo": np.clip(self.lose - hw[:, -1], 0, 1),
            "lose_hi": np.clip(self.lose + hw[:, -1], 0, 1),
        }
        for k, label in enumerate(RANK_LABELS):
            data[label] = self.rank[:, k]
        frame = pd.DataFrame(data, index=pd.Index(self.camels, name="camel"))
        frame.attrs.update(position=str(self.position), exact=self.exact, samples=self.samples, seed=self.seed)
        return frame

    def to_dict(self) -> dict:
        """``{"B": {"win": p, "lose": p, "win_se": s, "lose_se": s, "rank":
        [...]}, ...}``: docs/notation.md's ``race`` object, extended."""
        return {
            c: {
                "win": float(self.win[i]),
                "lose": float(self.lose[i]),
                "win_se": float(self.win_se[i]),
                "lose_se": float(self.lose_se[i]),
                "rank": [float(x) for x in self.rank[i]],
            }
            for i, c in enumerate(self.camels)
        }

    def __repr__(self) -> str:
        how = "exact" if self.exact else f"{self.samples} races"
        order = sorted(range(len(self.camels)), key=lambda i: -self.win[i])
        wins = ", ".join(f"{self.camels[i]}={self.win[i]:.3f}" for i in order)
        return f"<RaceOdds {how}; P(win): {wins}>"


def _t_quantile(q: float, df: int) -> float:
    """Student's t quantile (Cornish-Fisher expansion around the normal
    quantile; accurate to 1e-3 for df >= 10, and df is at least 31 here)."""
    from statistics import NormalDist

    z = NormalDist().inv_cdf(q)
    return z + (z**3 + z) / (4 * df) + (5 * z**5 + 16 * z**3 + 3 * z) / (96 * df**2)


def race_odds(
    position: Position | str,
    *,
    samples: int | None = None,
    precision: float = 0.002,
    seed: int | None = None,
    threads: int | None = None,
    method: str = "auto",
    replicates: int | None = None,
) -> RaceOdds:
    """Whole-race odds of ``position``: P(win), P(last), final ranks, legs left.

    The current leg is enumerated exactly; races that end in it are scored
    exactly.  If the race must end in the current leg, or in the next one
    (checked exactly when few leg-end states remain), the result is exact
    (``samples == 0``).  Otherwise later legs are simulated, stratified over
    the exact leg-end states: with ``samples`` races, or (default) until every
    win and lose probability has a 95% half-width below ``precision``.
    ``seed`` makes the result reproducible whatever ``threads`` is.
    ``method="sample"`` samples the later legs even when the next leg could be
    enumerated (races ending in the current leg are always exact).
    ``replicates``: with ``samples``, split them into this many independent
    replicates (default 32; more give a more accurate standard error).
    """
    position = as_position(position)
    if samples is not None:
        samples = check_samples(samples)
    precision = check_precision(precision)
    seed = resolve_seed(seed)
    if replicates is not None:
        if samples is None:
            raise AdvisorError("replicates applies with samples only")
        if isinstance(replicates, bool) or not isinstance(replicates, int) or not 2 <= replicates <= samples:
            raise AdvisorError(f"replicates must be a whole number 2..samples, not {replicates!r}")
    if method not in ("auto", "sample"):
        raise AdvisorError(f"method must be 'auto' or 'sample', not {method!r}")
    with kernel_threads(check_threads(threads)):
        return _race_odds(position, samples, precision, seed, method == "auto", replicates or MIN_REPLICATES)


def _race_odds(position: Position, samples: int | None, precision: float, seed: int, try_exact: bool,
               replicates: int) -> RaceOdds:
    from advisor.rules.encode import encode, full_pyramid, race_over
    from advisor.kernels.board.leg import enumerate_leg
    from advisor.kernels.board.race import MAX_LEGS, score_boards

    ed = position.rules
    enc = encode(position)
    ranks_leg = np.zeros((5, 5), np.int64)
    landings = np.zeros(enc.tiles.size, np.int64)
    _, boards, counts = enumerate_leg(enc.board, enc.dice, enc.rolls, enc.tiles, True, ranks_leg, landings)
    total = int(counts.sum())
    over = race_over(boards, ed)
    done = np.zeros((5, 5), np.int64)
    score_boards(boards[over], counts[over], done)
    open_boards, open_counts = boards[~over], counts[~over]
    camels = tuple(ed.racing)
    zeros = np.zeros((5, 5))

    if open_boards.size == 0:  # the race must end in this leg
        return RaceOdds(position, camels, done / total, zeros, np.array([1.0]), seed=seed,
                        exact_counts=done, exact_total=total)

    full = full_pyramid(ed)
    if try_exact and open_boards.size <= EXACT_NEXT_LEG_BUDGET:
        exact = _exact_next_leg(open_boards, open_counts, full, ed.rolls_per_leg)
        if exact is not None:
            next_counts, next_total = exact
            counts_all = done * next_total + next_counts
            denominator = total * next_total
            ended_now = int(counts[over].sum()) / total
            return RaceOdds(position, camels, counts_all / denominator, zeros,
                            np.array([ended_now, 1 - ended_now]), seed=seed,
                            exact_counts=counts_all, exact_total=denominator)

    weight_open = int(open_counts.sum()) / total
    cdf = np.cumsum(open_counts) / open_counts.sum()
    cdf[-1] = 1.0

    def run(replicates: int, per: int, stream0: int):
        return simulate_races(open_boards, cdf, replicates, per, seed, stream0, full, ed.rolls_per_leg)

    if samples is not None:
        per = -(-samples // replicates)
        ranks, legs = run(replicates, per, 0)
    else:
        # first round: enough races for the target if a probability were 1/2
        # (at most REPLICATE_SIZE per replicate, at least 64)
        worst = 0.25 * (2.05 / precision) ** 2 * weight_open**2
        per = int(min(REPLICATE_SIZE, max(64, np.ceil(worst / MIN_REPLICATES))))
        ranks, legs = run(MIN_REPLICATES, per, 0)
        while True:
            reps = ranks.shape[0]
            est = ranks / per
            se = weight_open * est[:, :, [0, -1]].std(axis=0, ddof=1) / np.sqrt(reps)
            hw = _t_quantile(0.975, reps - 1) * se.max()
            if hw <= precision or reps * per >= MAX_RACES:
                break
            # replicates needed for the target, from the current spread (+10%)
            need = int(np.ceil(reps * (hw / precision) ** 2 * 1.1))
            more = min(max(need - reps, 16), MAX_RACES // per - reps)
            more = -(-more // 16) * 16
            extra_ranks, extra_legs = run(more, per, reps)
            ranks = np.concatenate([ranks, extra_ranks])
            legs = np.concatenate([legs, extra_legs])

    reps = ranks.shape[0]
    est = ranks / per  # per-replicate final rank frequencies
    rank = done / total + weight_open * est.mean(axis=0)
    rank_se = weight_open * est.std(axis=0, ddof=1) / np.sqrt(reps)
    leg_freq = legs.sum(axis=0) / (reps * per)
    unfinished = leg_freq[-1]
    if unfinished:
        raise RuntimeError(f"{unfinished:.2e} of simulated races did not finish in {MAX_LEGS} legs")
    last = int(np.nonzero(leg_freq[:-1])[0].max()) + 1
    legs_dist = np.concatenate([[1 - weight_open], weight_open * leg_freq[:last]])
    rep_rank = done / total + weight_open * est
    rep_legs = np.concatenate([np.full((reps, 1), 1 - weight_open), weight_open * legs[:, :last] / per], axis=1)
    return RaceOdds(position, camels, rank, rank_se, legs_dist, samples=reps * per, replicates=reps, seed=seed,
                    replicate_rank=rep_rank, replicate_legs=rep_legs)


def simulate_races(boards: np.ndarray, cdf: np.ndarray, replicates: int, per: int, seed: int, stream0: int,
                   full: int, rolls: int) -> tuple[np.ndarray, np.ndarray]:
    """``replicates`` batches of ``per`` races from the leg-end states
    ``boards`` (int64[n], encoded; one drawn per race by the cumulative
    weights ``cdf``), with the random streams ``stream0``, ``stream0 + 1``,
    ... of ``seed``: per replicate the rank counts (int64[replicates, 5, 5])
    and the legs each race lasted (int64[replicates, MAX_LEGS + 1])."""
    from advisor.kernels.board.race import MAX_LEGS, race_replicates

    ranks = np.zeros((replicates, 5, 5), np.int64)
    legs = np.zeros((replicates, MAX_LEGS + 1), np.int64)
    race_replicates(boards, cdf, replicates, per, seed, stream0, full, rolls, ranks, legs)
    return ranks, legs


def _exact_next_leg(boards, counts, full, rolls):
    """Exact counts if every leg-end state's next leg surely ends the race,
    else ``None``: ``(rank counts, next-leg total)``, the counts weighted by
    ``counts`` (a common denominator: every next leg has the same total)."""
    from advisor.kernels.board.track import TILE_SLOTS
    from advisor.kernels.board.leg import completions, enumerate_leg

    next_total = completions(bin(full).count("1"), rolls)
    tiles = np.zeros(TILE_SLOTS, np.int8)
    acc = np.zeros((5, 5), np.int64)
    for board, weight in zip(boards, counts):
        ranks = np.zeros((5, 5), np.int64)
        ended, _, _ = enumerate_leg(board, full, rolls, tiles, False, ranks, np.zeros(tiles.size, np.int64))
        if ended != next_total:
            return None
        acc += int(weight) * ranks
    return acc, next_total
