"""The settings of random and parallel work, checked once for every
caller: seeds, sample counts, precision targets and kernel threads.

Every random result of the package takes ``seed=`` (:func:`resolve_seed`);
the same seed gives the same answer whatever the thread count
(:func:`kernel_threads` only changes how fast).
"""

from __future__ import annotations

import numpy as np

from advisor.errors import AdvisorError

__all__ = ["resolve_seed", "check_samples", "check_precision", "check_threads", "kernel_threads", "MAX_SAMPLES"]

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


def check_precision(precision: object) -> float:
    if isinstance(precision, bool) or not isinstance(precision, (int, float)) or not 0 < precision < 1:
        raise AdvisorError(f"precision must be a number between 0 and 1, not {precision!r}")
    if precision < 1e-4:
        raise AdvisorError(f"precision {precision} is finer than 0.0001 (1 in 10,000): too many races")
    return float(precision)


def check_threads(threads: object) -> int | None:
    if threads is not None and (isinstance(threads, bool) or not isinstance(threads, int) or threads < 1):
        raise AdvisorError(f"threads must be a whole number >= 1, not {threads!r}")
    return threads


class kernel_threads:
    """Context manager: run numba kernels on at most ``n`` threads
    (``None``: as many as allowed); the previous setting is restored."""

    def __init__(self, n: int | None):
        self.n = check_threads(n)

    def __enter__(self):
        if self.n is not None:
            import numba

            self.saved = numba.get_num_threads()
            numba.set_num_threads(min(self.n, numba.config.NUMBA_NUM_THREADS))
        return self

    def __exit__(self, *exc):
        if self.n is not None:
            import numba

            numba.set_num_threads(self.saved)
