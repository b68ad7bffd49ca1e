"""Kernels loaded (or compiled) before the server says it is ready.

:func:`advisor.warmup` compiles the board-game kernels; the page also
serves Camel Up Cards, whose kernels are warmed here on small positions
(loading them from numba's cache when :func:`advisor.warmup` already
compiled them).
"""

from __future__ import annotations

import time
from typing import Callable, TextIO

__all__ = ["warm_server", "warm_worker"]

_CARDS = "cards 0:BGOWY deck:2 known:B1G1"
#: The race surely ends with the deck's last card: the advice runs every
#: kernel of its path in a few milliseconds once loaded.
_CARDS_END = "cards track:nh 0:BGOW 3:Y deck:1 known:Y1 hand:B1"


def _cards_tasks() -> list[tuple[str, Callable[[], object]]]:
    from ..cards import cards_best, cards_odds

    return [
        ("Camel Up Cards: odds", lambda: (cards_odds(_CARDS, seed=0, samples=64),
                                          cards_odds("cards 0:BGOWY", seed=0, samples=64, leg_samples=64))),
        ("Camel Up Cards: advice", lambda: cards_best(_CARDS_END, seed=0)),
    ]


def warm_worker() -> None:
    """Load every kernel the API uses into this (worker) process."""
    from .. import warmup

    warmup()
    for _, task in _cards_tasks():
        task()


def warm_server(out: TextIO) -> float:
    """Compile or load every kernel in the server's process, printing the
    progress of each group to ``out``; returns the seconds taken.  (Workers
    then load the compiled kernels from the cache.)"""
    from .. import warmup

    start = time.perf_counter()
    print("Loading the kernels (the first run compiles them, a minute or more; later runs load them "
          "from the cache):", file=out, flush=True)
    import contextlib

    with contextlib.redirect_stdout(out):
        warmup(verbose=True)
    for name, task in _cards_tasks():
        t0 = time.perf_counter()
        task()
        print(f"  {name:<28} {time.perf_counter() - t0:7.2f} s", file=out, flush=True)
    return time.perf_counter() - start
