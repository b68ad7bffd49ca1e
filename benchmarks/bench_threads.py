"""One process on every thread against one thread: whole games, and large calls.

    python benchmarks/bench_threads.py [--games 20] [--seed 1] [--repeat 3] [--root DIR]

Every figure comes from a fresh subprocess (kernels loaded from the cache,
the first game or call excluded), so the settings are those of a new
``camelup`` process:

* games per second of one process: 4-player second-edition games of four
  EV-greedy bots (``advisor``), as ``camelup simulate --processes 1 --bots
  advisor,advisor,advisor,advisor`` plays them, with the default settings,
  with ``NUMBA_NUM_THREADS=1``, and with every kernel call on every thread
  (``CAMELUP_THREAD_SECONDS=0``: how calls ran before they were sized by
  their work).  Wall and CPU seconds; the game records of every setting
  must be identical.  Then the whole command line, start-up included.
* large calls, on every thread against one: race odds to +-0.2 percentage
  points (95%) from a game start; exact leg odds of 100,000 random mid-leg
  positions in one kernel call, and through ``leg_odds_many``; Camel Up
  Cards race odds to +-0.2 points from a game start.

``--root DIR`` measures another checkout of the package (e.g. an older
version) with the same script.  The machine is shared: each setting runs
``--repeat`` times, alternating, and the median is printed, with the load
average before and after.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT  # noqa: E402

GAMES = """
import hashlib, json, sys, time
from advisor.simulate.games import game_seed, play_game

games, seed = int(sys.argv[1]), int(sys.argv[2])
play_game(["advisor"] * 4, seed=game_seed(seed, 10**6))  # load the kernels
wall, cpu = time.perf_counter(), time.process_time()
records = [play_game(["advisor"] * 4, seed=game_seed(seed, i)) for i in range(games)]
wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
import numba
digest = hashlib.sha256(json.dumps(records, sort_keys=True).encode()).hexdigest()[:16]
print(json.dumps({"wall": wall, "cpu": cpu, "digest": digest, "layer": numba.threading_layer(),
                  "threads": numba.get_num_threads()}))
"""

LARGE = """
import json, sys, time
import numba
import numpy as np
from advisor import leg_odds_many, race_odds, random_position, setup_position
from advisor.rules.encode import encode

def best(fn, repeat=3):
    # (wall, cpu) seconds of the fastest of the calls
    fn()
    out = (float("inf"), 0.0)
    for _ in range(repeat):
        t, c = time.perf_counter(), time.process_time()
        fn()
        out = min(out, (time.perf_counter() - t, time.process_time() - c))
    return out

rng = np.random.default_rng(7)
start = setup_position("second", 11)
positions = [random_position("second", rng, dice=int(rng.integers(3, 5))) for _ in range(100_000)]
enc = [encode(p) for p in positions]
boards = np.array([e.board for e in enc], np.int64)
dice = np.array([e.dice for e in enc], np.int64)
rolls = np.array([e.rolls for e in enc], np.int64)
tiles = np.stack([e.tiles for e in enc])
from advisor.kernels.board.leg import leg_counts_batch

def batch_kernel():
    n = boards.size
    leg_counts_batch(boards, dice, rolls, tiles, np.zeros((n, 5, 5), np.int64),
                     np.zeros((n, tiles.shape[1]), np.int64), np.zeros(n, np.int64))

tasks = {
    "race odds to +-0.2 pp, game start": lambda: race_odds(start, precision=0.002, seed=1),
    "exact leg odds, 100,000 mid-leg positions (kernel)": batch_kernel,
    "exact leg odds, 100,000 mid-leg positions (leg_odds_many)": lambda: leg_odds_many(positions),
}
try:
    from advisor.cards import cards_odds
    cards_odds("cards 0:BGOWY", seed=1, precision=0.05)
    tasks["Camel Up Cards race odds to +-0.2 pp, game start"] = lambda: cards_odds("cards 0:BGOWY", seed=1,
                                                                                   precision=0.002)
except TypeError:  # a version without cards precision
    pass
cores = numba.get_num_threads()
out = {}
for name, fn in tasks.items():
    numba.set_num_threads(cores)
    every = best(fn)
    numba.set_num_threads(1)
    one = best(fn)
    out[name] = [every, one]
print(json.dumps({"cores": cores, "times": out}))
"""


def load() -> str:
    try:
        return " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "n/a"


def run(snippet: str, root: Path, env_extra: dict, *argv) -> dict:
    env = {**os.environ, "PYTHONPATH": str(root), **env_extra}
    for key in ("NUMBA_NUM_THREADS", "CAMELUP_THREAD_SECONDS"):
        if key not in env_extra:
            env.pop(key, None)
    with tempfile.TemporaryDirectory() as tmp:  # not the working directory: it may hold another advisor
        out = subprocess.run([sys.executable, "-c", snippet, *map(str, argv)], env=env, check=True, cwd=tmp,
                             capture_output=True, text=True).stdout
    return json.loads(out.splitlines()[-1])


SETTINGS = {
    "default": {},
    "NUMBA_NUM_THREADS=1": {"NUMBA_NUM_THREADS": "1"},
    "every call on every thread": {"CAMELUP_THREAD_SECONDS": "0"},
}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=20)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--root", type=Path, default=ROOT, help="checkout of the package to measure")
    parser.add_argument("--no-large", action="store_true", help="games only")
    args = parser.parse_args()
    root = args.root.resolve()

    print(f"camelup-advisor threads benchmark: {root}, {os.cpu_count()} cores, load average {load()}")
    print(f"\nOne process, {args.games} all-advisor 4-player games (seed {args.seed}), median of {args.repeat}:")
    runs: dict[str, list[dict]] = {name: [] for name in SETTINGS}
    for _ in range(args.repeat):
        for name, env in SETTINGS.items():
            runs[name].append(run(GAMES, root, env, args.games, args.seed))
    digests = {r["digest"] for rs in runs.values() for r in rs}
    base = statistics.median(r["wall"] for r in runs["NUMBA_NUM_THREADS=1"])
    for name, rs in runs.items():
        wall = statistics.median(r["wall"] for r in rs)
        cpu = statistics.median(r["cpu"] for r in rs)
        print(f"  {name:<28} {args.games / wall:6.2f} games/s   wall {wall:6.2f} s  cpu {cpu:6.2f} s   "
              f"{wall / base:5.2f}x the one-thread time   (threads {rs[0]['threads']}, layer {rs[0]['layer']})")
    print(f"  game records identical in every run: {'yes' if len(digests) == 1 else 'NO'}")

    cmd = [sys.executable, "-m", "advisor.cli", "simulate", "--games", str(args.games), "--seed", str(args.seed),
           "--processes", "1", "--bots", "advisor,advisor,advisor,advisor"]
    print(f"\nThe command line, start-up included: camelup {' '.join(cmd[3:])} -o FILE")
    with tempfile.TemporaryDirectory() as tmp:
        times: dict[str, list[float]] = {name: [] for name in SETTINGS}
        outputs = set()
        for _ in range(args.repeat):
            for name, extra in SETTINGS.items():
                env = {**os.environ, "PYTHONPATH": str(root), **extra}
                for key in ("NUMBA_NUM_THREADS", "CAMELUP_THREAD_SECONDS"):
                    if key not in extra:
                        env.pop(key, None)
                path = Path(tmp) / "games.jsonl"
                t = time.perf_counter()
                subprocess.run([*cmd, "-o", str(path)], env=env, check=True, capture_output=True, cwd=tmp)
                times[name].append(time.perf_counter() - t)
                outputs.add(path.read_bytes())
        for name, ts in times.items():
            print(f"  {name:<28} {statistics.median(ts):6.2f} s")
        print(f"  records identical: {'yes' if len(outputs) == 1 else 'NO'}")

    if args.no_large:
        return
    large = [run(LARGE, root, {}) for _ in range(max(1, args.repeat // 2))]
    print(f"\nLarge calls, every thread ({large[0]['cores']}) against one thread, median wall seconds "
          "(CPU / wall: the cores kept busy):")
    for name in large[0]["times"]:
        every = statistics.median(r["times"][name][0][0] for r in large)
        every_cpu = statistics.median(r["times"][name][0][1] / r["times"][name][0][0] for r in large)
        one = statistics.median(r["times"][name][1][0] for r in large)
        print(f"  {name:<58} {every:7.3f} s (CPU/wall {every_cpu:3.1f}) / {one:7.3f} s   "
              f"speed-up {one / every:4.2f}x")
    print(f"\nload average at the end: {load()}")


if __name__ == "__main__":
    main()
