"""Exact leg odds: cold (compile) and warm timings, and the speed ratio to
the pure-Python reference of tests/naive.py, all in one run.

    python benchmarks/bench_leg.py            # full run (about a minute)
    python benchmarks/bench_leg.py --quick    # fewer positions

Figures printed:
* cold: a fresh process with an empty numba cache (compilation), then a
  second process loading the cached kernels;
* warm, one thread: 6-dice ``second`` and 5-dice ``first`` leg starts, one
  ``leg_odds`` call per position (each position's best of 3 calls; median
  and 90th percentile over positions), and the kernel alone;
* warm, many positions in one call (``leg_odds_many`` / the batch kernel) for
  mid-leg pyramids of 3-4 dice, with one thread and with every core;
* the pure-Python reference on the same positions, and the ratio.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, per_call, print_cold, timed  # noqa: E402

sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

EXAMPLE = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"

def fmt_us(seconds: float) -> str:
    return f"{seconds * 1e6:10.1f} us"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer positions")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    n_start = 50 if args.quick else 300
    n_mid = 5000 if args.quick else 50000
    n_naive_start = 1 if args.quick else 3
    n_naive_mid = 50 if args.quick else 300

    import numba

    from advisor import leg_odds, leg_odds_many, random_position, setup_position
    from advisor.rules.encode import encode
    from advisor.kernels.board.leg import enumerate_leg, leg_counts_batch
    from naive import naive_leg_counts

    rng = np.random.default_rng(args.seed)
    print(f"camelup-advisor leg benchmark: numba {numba.__version__}, {os.cpu_count()} cores, seed {args.seed}")

    print_cold(timed(f"from advisor import leg_odds\nleg_odds({EXAMPLE!r}); leg_odds('first 1:B 2:YG 3:OW dice:BG')"),
               "leg_odds on a second and a first edition position")

    leg_odds(EXAMPLE)
    leg_odds_many([EXAMPLE])
    numba.set_num_threads(1)
    starts = {
        "second, 6 dice": [setup_position("second", rng) for _ in range(n_start)],
        "first, 5 dice": [setup_position("first", rng) for _ in range(n_start)],
    }
    print("\nWarm, one thread, one leg_odds call per leg-start position:")
    print(f"  {'':16}{'median':>13}{'p90':>13}{'kernel med.':>13}")
    medians = {}
    for name, items in starts.items():
        wall = per_call(leg_odds, items)
        encoded = [encode(p) for p in items]

        def kernel(e):
            enumerate_leg(e.board, e.dice, e.rolls, e.tiles, False,
                          np.zeros((5, 5), np.int64), np.zeros(e.tiles.size, np.int64))

        kern = per_call(kernel, encoded)
        medians[name] = statistics.median(wall)
        print(f"  {name:16}{fmt_us(statistics.median(wall))}{fmt_us(np.percentile(wall, 90))}"
              f"{fmt_us(statistics.median(kern))}")

    mids = [random_position("second", rng, dice=int(rng.integers(3, 5)), tiles=int(rng.integers(0, 3)))
            for _ in range(n_mid)]
    encoded = [encode(p) for p in mids]
    boards = np.array([e.board for e in encoded], np.int64)
    dice = np.array([e.dice for e in encoded], np.int64)
    rolls = np.array([e.rolls for e in encoded], np.int64)
    tiles = np.stack([e.tiles for e in encoded])

    def batch_kernel():
        n = boards.size
        leg_counts_batch(boards, dice, rolls, tiles, np.zeros((n, 5, 5), np.int64),
                         np.zeros((n, tiles.shape[1]), np.int64), np.zeros(n, np.int64))

    print(f"\nWarm, {n_mid} mid-leg second-edition positions (3-4 dice) in one call, per position:")
    print(f"  {'threads':10}{'kernel':>13}{'leg_odds_many':>15}")
    batch = {}
    for threads in sorted({1, numba.config.NUMBA_NUM_THREADS}):
        numba.set_num_threads(threads)
        batch_kernel()
        start = time.perf_counter()
        batch_kernel()
        k = (time.perf_counter() - start) / n_mid
        start = time.perf_counter()
        leg_odds_many(mids)
        w = (time.perf_counter() - start) / n_mid
        batch[threads] = k
        print(f"  {threads:<10}{fmt_us(k)}  {fmt_us(w)}")
    numba.set_num_threads(1)

    print("\nPure-Python reference (tests/naive.py) on the same positions:")
    # the reference reads board strings
    naive_start = per_call(naive_leg_counts, [str(p) for p in starts["second, 6 dice"][:n_naive_start]], repeats=1)
    naive_mid = per_call(naive_leg_counts, [str(p) for p in mids[:n_naive_mid]], repeats=1)
    ns, nm = statistics.median(naive_start), statistics.median(naive_mid)
    print(f"  second 6-dice leg start        {ns:10.2f} s     ratio {ns / medians['second, 6 dice']:10.0f}x")
    print(f"  mid-leg 3-4 dice               {fmt_us(nm)}   ratio {nm / batch[1]:10.0f}x (vs one-thread batch)")

    print("\nTargets: 6-dice second leg start <= 1 ms warm on one core; 3-4 dice mid-leg <= 20 us per position in one call.")
    print(f"  leg start: {medians['second, 6 dice'] * 1e3:.3f} ms  ->  {'met' if medians['second, 6 dice'] <= 1e-3 else 'MISSED'}")
    print(f"  mid-leg:   {batch[1] * 1e6:.2f} us (one thread)  ->  {'met' if batch[1] <= 20e-6 else 'MISSED'}")


if __name__ == "__main__":
    main()
