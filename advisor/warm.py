"""Compile every kernel once (``camelup warmup`` / ``advisor.warmup()``).

Kernels are compiled with ``cache=True``: the first process pays the
compilation and writes the machine code next to the sources; later processes
load it in a fraction of a second.
"""

from __future__ import annotations

import time
from typing import Callable

__all__ = ["warmup"]


def _tasks() -> list[tuple[str, Callable[[], object]]]:
    from .ev import best_moves
    from .exact import leg_odds, leg_odds_many
    from .montecarlo import race_odds, sample_leg_odds
    from .rules.moves import step
    from .notation import parse_position

    second = parse_position("1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx")
    first = parse_position("first 1:B 2:YG 3:OW +6 dice:BGO")
    return [
        ("board moves", lambda: step(second, "x", 1, "white")),
        ("exact leg enumeration", lambda: (leg_odds(second), leg_odds(first))),
        ("batch leg enumeration", lambda: leg_odds_many([second, first])),
        ("leg sampler", lambda: sample_leg_odds(second, samples=1000, seed=0)),
        ("race simulation", lambda: race_odds(first, samples=1000, seed=0)),
        ("advisor (joint leg odds)", lambda: best_moves(second, seed=0, precision=0.05)),
    ]


def warmup(verbose: bool = False) -> dict[str, float]:
    """Compile (or load from the cache) every kernel; returns seconds per
    kernel group and prints them when ``verbose``."""
    times: dict[str, float] = {}
    for name, task in _tasks():
        start = time.perf_counter()
        task()
        times[name] = time.perf_counter() - start
        if verbose:
            print(f"  {name:<28} {times[name]:7.2f} s", flush=True)
    return times
