"""Helpers shared by the benchmark scripts (not part of the package)."""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def cold_figures(snippet: str) -> tuple[float, float]:
    """Seconds ``snippet`` (which prints its own timing last) takes in a
    fresh process with an empty numba cache (compilation), then in a second
    fresh process loading that cache."""
    with tempfile.TemporaryDirectory() as cache:
        env = {**os.environ, "NUMBA_CACHE_DIR": cache, "PYTHONPATH": str(ROOT)}

        def run() -> float:
            out = subprocess.run([sys.executable, "-c", snippet], env=env, check=True,
                                 capture_output=True, text=True).stdout
            return float(out.split()[-1])

        return run(), run()


def print_cold(snippet: str, what: str) -> None:
    compile_s, load_s = cold_figures(snippet)
    print(f"\nCold start (fresh processes, {what}):")
    print(f"  empty cache (compile)          {compile_s:8.2f} s")
    print(f"  cached kernels (load)          {load_s:8.2f} s")


def timed(snippet_body: str) -> str:
    """A cold-start snippet: ``snippet_body`` timed from the first import."""
    return f"import time\nt0 = time.perf_counter()\n{snippet_body}\nprint(time.perf_counter() - t0)\n"


def per_call(fn, items, repeats: int = 3) -> list[float]:
    """Seconds per item: the best of ``repeats`` calls (the machine is
    shared; the minimum is the least disturbed figure)."""
    out = []
    for item in items:
        best = float("inf")
        for _ in range(repeats):
            start = time.perf_counter()
            fn(item)
            best = min(best, time.perf_counter() - start)
        out.append(best)
    return out
