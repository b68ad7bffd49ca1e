"""Monte Carlo odds (sampled), reproducible from a seed.

Every random result takes ``seed=``; the same seed gives the same answer
whatever the thread count (each fixed-size chunk of samples has its own
random stream, see :mod:`advisor.kernels.rng`).
"""

from __future__ import annotations

import numpy as np

from .errors import AdvisorError
from .exact import LegOdds, as_position
from .rules.position import Position

__all__ = ["sample_leg_odds", "check_samples", "resolve_seed"]

MAX_SAMPLES = 10**10


def check_samples(samples: object, name: str = "samples") -> int:
    if isinstance(samples, bool) or not isinstance(samples, (int, np.integer)):
        raise AdvisorError(f"{name} must be a whole number, not {samples!r}")
    if not 1 <= samples <= MAX_SAMPLES:
        raise AdvisorError(f"{name} must be 1..{MAX_SAMPLES}, not {samples}")
    return int(samples)


def resolve_seed(seed: object) -> int:
    """The seed to use: ``seed`` itself (0 <= seed < 2**63), or a fresh one
    drawn from the operating system when ``None`` (and then reported)."""
    if seed is None:
        return int(np.random.SeedSequence().entropy % (2**63))
    if isinstance(seed, bool) or not isinstance(seed, (int, np.integer)) or not 0 <= seed < 2**63:
        raise AdvisorError(f"seed must be a whole number 0..2**63-1, not {seed!r}")
    return int(seed)


def sample_leg_odds(position: Position | str, *, samples: int, seed: int | None = None) -> LegOdds:
    """Leg rank frequencies from ``samples`` randomly played legs."""
    from .encode import encode
    from .kernels.sample import sample_leg

    position = as_position(position)
    samples = check_samples(samples)
    seed = resolve_seed(seed)
    enc = encode(position)
    counts = np.zeros((5, 5), np.int64)
    landings = np.zeros(enc.tiles.size, np.int64)
    ended = sample_leg(enc.board, enc.dice, enc.rolls, enc.tiles, enc.ncam, samples, seed, counts, landings)
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
