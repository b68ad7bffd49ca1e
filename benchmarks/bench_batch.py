"""`camelup batch` of many random mid-leg positions (leg odds), whole
process: per input and output format, the time of the whole command, and
the part of it spent before any analysis (the checks and the scan that
fingerprints the input and counts its rows, which a resume relies on).
Kernels are loaded from the cache (run any command once before).

    python benchmarks/bench_batch.py            # 100,000 positions (a few minutes)
    python benchmarks/bench_batch.py --quick    # 10,000 positions
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT  # noqa: E402

sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--quick", action="store_true")
    args = parser.parse_args()
    n = 10_000 if args.quick else 100_000

    import pandas as pd

    from advisor import random_position
    from advisor.batch.io import check_input, scan

    rng = np.random.default_rng(2026)
    texts = [str(random_position("second" if i % 4 else "first", rng, dice=int(rng.integers(2, 5)), tiles=1))
             for i in range(n)]
    env = {**os.environ, "PYTHONPATH": str(ROOT)}
    with tempfile.TemporaryDirectory() as tmp:
        tmp = Path(tmp)
        (tmp / "in.txt").write_text("\n".join(texts) + "\n")
        pd.DataFrame({"id": range(n), "position": texts}).to_csv(tmp / "in.csv", index=False)
        subprocess.run([sys.executable, "-m", "advisor.cli", "batch", str(tmp / "in.txt"), "-o",
                        str(tmp / "warm.csv")], env=env, check=True, capture_output=True)  # kernels cached
        print(f"camelup batch of {n:,} random mid-leg positions (leg odds), whole process:")
        for src, dst in [("in.txt", "out.csv"), ("in.csv", "out.csv"), ("in.txt", "out.jsonl"),
                         ("in.txt", "out.parquet")]:
            t0 = time.perf_counter()
            subprocess.run([sys.executable, "-m", "advisor.cli", "batch", str(tmp / src), "-o", str(tmp / dst)],
                           env=env, check=True, capture_output=True)
            total = time.perf_counter() - t0
            t0 = time.perf_counter()
            scan(check_input(tmp / src))
            before = time.perf_counter() - t0
            print(f"  {src:>9} -> {dst:<12} {total:7.2f} s  ({n / total:8,.0f} positions/s; "
                  f"checks and scan {before:5.2f} s)")


if __name__ == "__main__":
    main()
