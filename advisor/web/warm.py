"""Kernels loaded (or compiled) before the server says it is ready.

:func:`advisor.warmup` compiles every kernel any command uses, Camel Up
Cards and the bots' kernels included; the server runs it once in its own
process (compiling what the cache lacks, with progress on the terminal), and
each worker runs it again, which then only loads the compiled code.
"""

from __future__ import annotations

import contextlib
import time
from typing import TextIO

__all__ = ["warm_server", "warm_worker"]


def warm_worker() -> None:
    """Load every kernel the API uses into this (worker) process."""
    from advisor import warmup

    warmup()


def warm_server(out: TextIO) -> float:
    """Compile or load every kernel in the server's process, printing the
    progress of each group to ``out``; returns the seconds taken.  (Workers
    then load the compiled kernels from the cache.)"""
    from advisor import warmup

    start = time.perf_counter()
    print("Loading the kernels (the first run compiles them, a minute or more; later runs load them "
          "from the cache):", file=out, flush=True)
    with contextlib.redirect_stdout(out):
        warmup(verbose=True)
    return time.perf_counter() - start
