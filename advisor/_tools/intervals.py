"""Intervals on proportions that stay honest at small counts.

Every interval the package prints on a probability estimated by counting
(sampled leg odds, simulated races, tournament win rates, duels) comes from
here.  :func:`wilson` is the Wilson score interval: unlike the normal
``p +- 1.96 sqrt(p(1-p)/n)`` it never collapses to a point at ``p = 0`` or
``p = 1`` (one sample that wins gives 21%..100%, not 100% +- 0) and never
leaves 0..1.  Below :data:`FLOOR` counts a figure is printed with a warning
(:func:`too_few`): an interval from a handful of samples is valid but wide,
and the point estimate means little.
"""

from __future__ import annotations

import numpy as np

__all__ = ["Z95", "FLOOR", "wilson", "wilson_half", "honest_half", "clip", "too_few"]

Z95 = 1.959963984540054  # two-sided 95% normal quantile

#: Fewer counts than this and a printed estimate says it means little.
FLOOR = 30


def wilson(p, n, z: float = Z95):
    """The Wilson score interval ``(lo, hi)`` of a proportion ``p``
    observed in ``n`` trials (arrays broadcast); ``(0, 1)`` where ``n`` is 0."""
    p = np.asarray(p, dtype=float)
    n = np.asarray(n, dtype=float)
    with np.errstate(divide="ignore", invalid="ignore"):
        denom = 1 + z * z / n
        centre = (p + z * z / (2 * n)) / denom
        half = z * np.sqrt(np.maximum(p * (1 - p), 0.0) / n + z * z / (4 * n * n)) / denom
        lo = np.where((n > 0) & (p > 0), np.clip(centre - half, 0.0, 1.0), 0.0)  # exactly 0 at p = 0
        hi = np.where((n > 0) & (p < 1), np.clip(centre + half, 0.0, 1.0), 1.0)
    if lo.ndim == 0:
        return float(lo), float(hi)
    return lo, hi


def wilson_half(p, n, z: float = Z95):
    """The larger distance from ``p`` to either end of its Wilson interval
    (what a ``+-`` figure must show to cover the interval)."""
    lo, hi = wilson(p, n, z)
    return np.maximum(np.asarray(p, dtype=float) - lo, hi - np.asarray(p, dtype=float))


def honest_half(half, p, n, z: float = Z95):
    """A ``+-`` half-width ``half`` computed by a normal approximation (from
    replicates, or a variance-reduced estimate), kept where that
    approximation holds (at least 5 counts on either side: ``n p >= 5`` and
    ``n (1 - p) >= 5``) and widened to :func:`wilson_half` where it does not
    (a camel that never won in 32 races is not "0% +- 0")."""
    p = np.asarray(p, dtype=float)
    half = np.asarray(half, dtype=float)
    small = (n * p < 5) | (n * (1 - p) < 5)
    return np.where(small, np.maximum(half, wilson_half(p, n, z)), half)


def clip(lo: float, hi: float, low: float, high: float) -> tuple[float, float]:
    """An interval cut to the values the quantity can take (``low..high``),
    e.g. -1..1 for the difference of two win rates."""
    if lo != lo or hi != hi:
        return lo, hi
    return max(low, min(lo, high)), min(high, max(hi, low))


def too_few(count: int, what: str, floor: int = FLOOR) -> str:
    """A warning for a figure from ``count`` ``what`` (e.g. "legs"), or ""
    at ``floor`` or more."""
    if count >= floor:
        return ""
    return (f"only {count:,} {what}: too few for the figures to mean much (the interval is wide; "
            f"{floor} or more)")
