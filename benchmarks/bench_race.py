"""Whole-race odds: cold and warm timings, races per second per core, time
to +-0.2 percentage points, the gain of stratifying on the exact current
leg, and the ratio to a pure-Python simulator built on tests/naive.py.

    python benchmarks/bench_race.py           # full run (about a minute)
    python benchmarks/bench_race.py --quick
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, print_cold, timed  # noqa: E402

sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests"))

import numpy as np  # noqa: E402

def naive_race(position, rng: random.Random) -> str:
    """One random race in pure Python (tests/naive.py rules): the winner."""
    import naive

    ed = position.rules
    board = naive.board_of(str(position))  # the reference reads board strings
    tiles = naive.tiles_of(str(position))
    pyramid = list(position.dice)
    while True:
        for _ in range(len(pyramid) - ed.dice_left):
            die = pyramid.pop(rng.randrange(len(pyramid)))
            colour = rng.choice(("white", "black")) if die == "x" else None
            _, _, over = naive.apply_roll(board, die, rng.randint(1, 3), colour, tiles)
            if over:
                return naive.ranking(naive.stacks_of(board))[0]
        pyramid = list(ed.dice)
        tiles = {}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    import numba

    from advisor import race_odds, setup_position
    from advisor.rules.encode import encode, full_pyramid
    from advisor.kernels.board.race import MAX_LEGS, race_replicates

    rng = np.random.default_rng(args.seed)
    cores = numba.config.NUMBA_NUM_THREADS
    print(f"camelup-advisor race benchmark: numba {numba.__version__}, {cores} cores, seed {args.seed}")
    print_cold(timed("from advisor import race_odds\nrace_odds('1:B 2:YG 3:PR 14:w 15:k', samples=1000, seed=1)"),
               "one race_odds call")

    # -- raw simulation speed from the start of a game
    start = setup_position("second", rng)
    enc = encode(start)
    ed = start.rules
    boards = np.array([enc.board], np.int64)
    cdf = np.array([1.0])
    reps, per = 64, 4096 if args.quick else 16384

    def simulate(threads: int) -> float:
        numba.set_num_threads(threads)
        ranks = np.zeros((reps, 5, 5), np.int64)
        legs = np.zeros((reps, MAX_LEGS + 1), np.int64)
        t0 = time.perf_counter()
        race_replicates(boards, cdf, reps, per, args.seed, 0, full_pyramid(ed), ed.rolls_per_leg,
                        ranks, legs)
        return reps * per / (time.perf_counter() - t0)

    simulate(1)
    print(f"\nRaces simulated per second from a game start ({start}), {reps * per:,} races:")
    rates = {}
    for threads in sorted({1, cores}):
        rates[threads] = max(simulate(threads) for _ in range(3))
        print(f"  {threads} thread{'s' if threads > 1 else ' '}   {rates[threads] / 1e6:8.2f} million/s"
              f"   ({rates[threads] / threads / 1e6:.2f} million/s per core)")
    numba.set_num_threads(cores)

    # -- +-0.2 pp at 95% from the start of a game (warm, all cores)
    n_pos = 5 if args.quick else 15
    walls, counts = [], []
    for i in range(n_pos):
        pos = setup_position("second", rng)
        t0 = time.perf_counter()
        res = race_odds(pos, precision=0.002, seed=i)
        walls.append(time.perf_counter() - t0)
        counts.append(res.samples)
    print(f"\nrace_odds to +-0.2 pp (95%) on {n_pos} game starts, all cores, warm:")
    print(f"  wall median {statistics.median(walls):.3f} s, max {max(walls):.3f} s;"
          f" races median {int(statistics.median(counts)):,}")

    # -- stratification gain: variance of plain vs stratified Monte Carlo
    print("\nStratified on the exact current leg vs plain Monte Carlo: races needed for +-0.2 pp on"
          "\nthe worst win/lose probability; plain = p(1-p)(1.96/0.002)^2, stratified = the variance"
          "\nmeasured across 512 independent replicates; gain = mean over the 10 win/lose figures of"
          "\nplain variance / stratified variance:")
    cases = [
        ("game start", str(setup_position("second", rng))),
        ("mid-leg, 4 dice", "2:B 4:YG 6:PR 13:w 15:k +8 dice:GPRx"),
        ("late leg, 2 dice", "5:B 7:YG 9:PR 13:w 15:k -11 dice:Gx"),
        ("near the finish", "12:B 13:YG 14:PR 9:w 11:k dice:BRx"),
        ("finish, late leg", "13:B 14:YG 15:PR 9:w 11:k dice:Rx"),
    ]
    for name, text in cases:
        res = race_odds(text, method="sample", samples=512 * (256 if args.quick else 1024), replicates=512, seed=7)
        p = res.rank[:, [0, -1]]
        plain_var = p * (1 - p)
        strat_var = res.rank_se[:, [0, -1]] ** 2 * res.samples
        z = (1.96 / 0.002) ** 2
        mask = plain_var > 0
        gain = float(np.mean(plain_var[mask] / np.maximum(strat_var[mask], 1e-300)))
        print(f"  {name:18} plain {plain_var.max() * z:10,.0f}   stratified {strat_var.max() * z:10,.0f}"
              f"   gain {gain:7.1f}x")

    # -- pure-Python reference simulator
    n_naive = 300 if args.quick else 2000
    prng = random.Random(args.seed)
    t0 = time.perf_counter()
    for _ in range(n_naive):
        naive_race(start, prng)
    naive_rate = n_naive / (time.perf_counter() - t0)
    print(f"\nPure-Python simulator (tests/naive.py rules): {naive_rate:,.0f} races/s;"
          f" one-thread kernel is {rates[1] / naive_rate:,.0f}x faster")
    print("\nTargets: >= 2 million races/s per core; +-0.2 pp for a game start in < 0.3 s wall.")
    print(f"  per core: {rates[1] / 1e6:.2f} million/s -> {'met' if rates[1] >= 2e6 else 'MISSED'}")
    print(f"  +-0.2 pp: {statistics.median(walls):.3f} s -> {'met' if statistics.median(walls) < 0.3 else 'MISSED'}")


if __name__ == "__main__":
    main()
