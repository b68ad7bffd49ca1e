"""Every kernel loaded into a worker at its start (``create_app(warm=True)``,
as the tests' servers do).  ``camelup serve`` instead compiles the kernels
once in a process of its own and lets each worker load them as its tasks
need them (:mod:`advisor.web.ready`).
"""

from __future__ import annotations

from advisor import warm

__all__ = ["warm_worker"]


def warm_worker() -> None:
    """Load every kernel the API uses into this (worker) process."""
    warm.warmup()
