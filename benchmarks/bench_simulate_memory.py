"""Memory of `camelup simulate` against the number of games: records stream
to the output as games finish, so the peak memory of a run of 10N games
equals that of N games.

    python benchmarks/bench_simulate_memory.py [N]   (default N = 40)

Prints, for N and 10N games of random bots in one process, the peak
resident memory of the command and its games per second.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def run(games: int, folder: str) -> tuple[float, float]:
    """(peak RSS in MB, games per second) of one simulate run in a fresh process."""
    script = (
        "import resource, sys, time\n"
        "from advisor.cli import main\n"
        "start = time.perf_counter()\n"
        f"code = main(['simulate', '--games', '{games}', '--players', '3', '--bots', 'random,random,random', "
        f"'--processes', '1', '-o', {os.path.join(folder, f'g{games}.jsonl')!r}])\n"
        "elapsed = time.perf_counter() - start\n"
        "peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024\n"
        "print(peak, elapsed, file=sys.stderr)\n"
    )
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", script], env=env, check=True, capture_output=True, text=True)
    peak, elapsed = map(float, out.stderr.split()[-2:])
    return peak, games / elapsed


def main() -> None:
    n = int(sys.argv[1]) if len(sys.argv) > 1 else 40
    with tempfile.TemporaryDirectory() as folder:
        run(1, folder)  # load the kernels' cache once
        for games in (n, 10 * n):
            start = time.perf_counter()
            peak, rate = run(games, folder)
            print(f"{games:6d} games: peak memory {peak:6.0f} MB, {rate:5.1f} games/s "
                  f"({time.perf_counter() - start:.0f} s)")


if __name__ == "__main__":
    main()
