"""Whole games: speed per bot line-up, the bots' valuation, the shape of games.

    python benchmarks/bench_games.py [--quick]

Prints, for 4-player second-edition games:

* cold start: one game with an advisor bot in a fresh process, empty numba
  cache (compile) and cached kernels (load);
* games per second, warm, in one process, for all-random, all-heuristic,
  all-advisor (EV-greedy) and all-rival tables; then all-advisor tables on
  every core through :func:`advisor.simulate.games.simulate` (worker start-up
  included);
* the bots' valuation (:func:`advisor.valuation.fast.fast_values`) against the
  reference advisor (:func:`advisor.best_moves`) on the decisions of
  EV-greedy games: time per decision of each, the ratio, and how much EV the
  fast valuation's choices give up, measured against a valuation with 20x
  the samples;
* from heuristic games: legs and turns per game, rolls per leg, and the
  winning camel's start space.

Every figure comes from the seeds printed.
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections import Counter
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, print_cold, timed  # noqa: E402

sys.path.insert(0, str(ROOT))


def decisions(seed: int, games: int):
    """The (state, player) of every decision of ``games`` EV-greedy games."""
    from advisor.bots.policies import make_bot
    from advisor.game import Game
    from advisor.simulate.games import game_seed

    out = []
    for i in range(games):
        game = Game("second", 4, game_seed(seed, i))
        bots = [make_bot("advisor") for _ in range(4)]
        rngs = [np.random.default_rng([game.seed, s]) for s in range(4)]
        while not game.finished:
            p = game.to_move
            view = game.view(p)
            out.append((view, p))
            game.apply(bots[p].choose(view, p, rngs[p]))
    return out


def valuation(seed: int, games: int) -> None:
    import advisor.valuation.fast as fastev
    import advisor.valuation.tiles as tiles
    from advisor import best_moves
    from advisor.valuation.memo import MEMO

    states = decisions(seed, games)
    print(f"\nThe bots' valuation on the {len(states)} decisions of {games} EV-greedy games:")
    MEMO.data.clear()
    t0 = time.perf_counter()
    fast = [fastev.fast_values(s, p) for s, p in states]
    t_fast = (time.perf_counter() - t0) / len(states)
    sub = states[:: max(1, len(states) // 60)]
    t0 = time.perf_counter()
    for s, p in sub:
        best_moves(s, p, precision=0.02, seed=1, denial=False)
    t_ref = (time.perf_counter() - t0) / len(sub)
    print(f"  fast_values (memo of repeated boards on)        {1e3 * t_fast:8.2f} ms / decision")
    print(f"  best_moves, race odds +-2 pp ({len(sub)} of them)      {1e3 * t_ref:8.2f} ms / decision"
          f"   ({t_ref / t_fast:.0f}x slower)")
    # (the sample counts are read where they are used: the tile tables' module
    # and the fast valuation's)
    saved = tiles.TILE_SAMPLES, fastev.RACE_SAMPLES
    try:
        tiles.TILE_SAMPLES, fastev.RACE_SAMPLES = 20 * saved[0], 20 * saved[1]
        MEMO.data.clear()
        fine = [fastev.fast_values(s, p) for s, p in states]
    finally:
        tiles.TILE_SAMPLES, fastev.RACE_SAMPLES = saved
        MEMO.data.clear()
    same = loss = 0.0
    for f, r in zip(fast, fine):
        chosen = f.actions.index(f.best())
        same += r.best() == f.best()
        loss += r.ev.max() - r.ev[chosen]
    print(f"  choice equal to the 20x-samples valuation's     {100 * same / len(states):8.1f} %")
    print(f"  EV given up per decision (by the 20x valuation) {loss / len(states):8.4f} coins")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    from advisor.game import Position
    from advisor.simulate.games import game_seed, play_game, simulate

    print(f"camelup-advisor games benchmark, seed {args.seed}")
    print_cold(timed("from advisor.simulate.games import play_game\nplay_game(['advisor', 'heuristic', 'random'], seed=1)"),
               "one 3-player game with an advisor bot")
    counts = {"random": 40, "heuristic": 40, "advisor": 10, "rival": 10} if args.quick else \
        {"random": 400, "heuristic": 400, "advisor": 100, "rival": 100}
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
    n = 60 if args.quick else 600
    t0 = time.perf_counter()
    for _ in simulate(["advisor"] * 4, n, seed=args.seed, progress=False):
        pass
    elapsed = time.perf_counter() - t0
    print(f"\nAll cores (simulate, worker start-up included), {n} all-advisor games:")
    print(f"  advisor    {n / elapsed:8.2f} games/s   ({elapsed:.1f} s)")

    valuation(args.seed, 2 if args.quick else 10)

    legs = Counter(r[-1]["legs"] for r in shape)
    print(f"\nShape of {len(shape)} heuristic games:")
    print("  legs per game: " + ", ".join(f"{k}: {100 * v / len(shape):.0f}%" for k, v in sorted(legs.items())))
    print(f"  turns per game: mean {statistics.mean(r[-1]['turns'] for r in shape):.1f}")
    rolls = [sum(1 for e in r if e.get("roll")) / r[-1]["legs"] for r in shape]
    print(f"  rolls per leg: mean {statistics.mean(rolls):.2f} (a leg that ends the race can be shorter)")
    start = Counter()
    for r in shape:
        pos = Position.from_string(r[0]["board"])
        start[pos.space_of(r[-1]["winner_camel"])] += 1
    print("  winning camel's start space: " + ", ".join(
        f"{s}: {100 * v / len(shape):.0f}%" for s, v in sorted(start.items())))


if __name__ == "__main__":
    main()
