"""Whole games: speed per bot line-up and the shape of simulated games.

    python benchmarks/bench_games.py [--quick]

Prints, for 4-player second-edition games: games per second in one process
for all-random, all-heuristic and all-advisor tables (the advisor bot's
race odds are taken at +-2 percentage points, 95%); then, from the
heuristic games, legs and turns per game and the distribution of the
winning camel's start space.  Every figure comes from the seeds printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, print_cold, timed  # noqa: E402

sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    from advisor.game import Position
    from advisor.simulate import game_seed, play_game

    print(f"camelup-advisor games benchmark, seed {args.seed}")
    print_cold(timed("from advisor.simulate import play_game\nplay_game(['advisor', 'heuristic', 'random'], seed=1)"),
               "one 3-player game with an advisor bot")
    counts = {"random": 40, "heuristic": 40, "advisor": 3} if args.quick else \
        {"random": 400, "heuristic": 400, "advisor": 20}
    play_game(["advisor"] * 4, seed=0)  # warm
    print("\nWarm, one process, 4-player second-edition games:")
    shape = []
    for bot, n in counts.items():
        t0 = time.perf_counter()
        records = [play_game([bot] * 4, seed=game_seed(args.seed, i)) for i in range(n)]
        rate = n / (time.perf_counter() - t0)
        turns = statistics.mean(r[-1]["turns"] for r in records)
        print(f"  {bot:<10} {rate:8.2f} games/s   ({n} games, {turns:.0f} turns per game)")
        if bot == "heuristic":
            shape = records
    legs = Counter(r[-1]["legs"] for r in shape)
    print(f"\nShape of {len(shape)} heuristic games:")
    print("  legs per game: " + ", ".join(f"{k}: {100 * v / len(shape):.0f}%" for k, v in sorted(legs.items())))
    print(f"  turns per game: mean {statistics.mean(r[-1]['turns'] for r in shape):.1f}")
    start = Counter()
    for r in shape:
        pos = Position.from_string(r[0]["board"])
        start[pos.space_of(r[-1]["winner_camel"])] += 1
    print("  winning camel's start space: " + ", ".join(
        f"{s}: {100 * v / len(shape):.0f}%" for s, v in sorted(start.items())))


if __name__ == "__main__":
    main()
