"""The valuation per decision, warm, in CPU time: the bots' one pass and the
full advice.

    python benchmarks/bench_valuation.py [--quick] [--seed N]

CPU time (``time.process_time``: every thread of the process) is the figure
to compare on a shared machine; wall time is printed beside it.  Cases:

* ``fast_values`` on every decision of EV-greedy 4-player games (the bots'
  valuation, memo of repeated boards cleared before the pass), and again with
  ``denial`` and ``rivals`` (the rival bot);
* ``best_moves`` on a subset of those decisions (race odds +-2 pp, no
  denial, as ``bench_games.py`` times it) and with denial at the default
  precision;
* ``best_moves`` on game-start boards with overall cards in hand (the
  ``default hand`` case of ``bench_advice.py``).

Every figure comes from the seeds printed.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT  # noqa: E402

sys.path.insert(0, str(ROOT))


def decisions(seed: int, games: int):
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


def clock(fn, items, repeats: int) -> tuple[float, float]:
    """Per item, the least (over ``repeats`` passes) CPU and wall seconds of
    a whole pass divided by the items."""
    cpu = wall = float("inf")
    for _ in range(repeats):
        c0, w0 = time.process_time(), time.perf_counter()
        for item in items:
            fn(item)
        cpu = min(cpu, (time.process_time() - c0) / len(items))
        wall = min(wall, (time.perf_counter() - w0) / len(items))
    return cpu, wall


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    import advisor.valuation.fast as fastev
    from advisor import best_moves, setup_position
    from advisor.valuation.memo import MEMO
    from advisor.rules.state import GameState, PlayerState

    games = 2 if args.quick else 6
    states = decisions(args.seed, games)
    sub = states[:: max(1, len(states) // 40)]
    rng = np.random.default_rng(args.seed)
    boards = [str(setup_position("second", rng)) + " legtiles:B322,G322" for _ in range(4 if args.quick else 10)]
    starts = [GameState(b, (PlayerState(leg_tiles=(("B", 5), ("G", 5))), *[PlayerState()] * 3)) for b in boards]
    best_moves(starts[0], seed=0)  # warm
    fastev.fast_values(*states[0], denial=True, rivals=True)

    def fast_pass(kw):
        def go(item):
            fastev.fast_values(item[0], item[1], **kw)
        return go

    rows = []
    for label, kw in (("fast_values", {}), ("fast_values denial+rivals", {"denial": True, "rivals": True})):
        cpu = wall = float("inf")
        for _ in range(3):
            MEMO.data.clear()
            c, w = clock(fast_pass(kw), states, 1)
            cpu, wall = min(cpu, c), min(wall, w)
        rows.append((f"{label} ({len(states)} decisions)", cpu, wall))
    rows.append((f"best_moves +-2 pp, no denial ({len(sub)})",
                 *clock(lambda it: best_moves(it[0], it[1], precision=0.02, seed=1, denial=False), sub, 2)))
    rows.append((f"best_moves default, denial ({len(sub)})",
                 *clock(lambda it: best_moves(it[0], it[1], seed=1), sub, 1)))
    rows.append((f"best_moves leg start, cards in hand ({len(starts)})",
                 *clock(lambda st: best_moves(st, seed=1), starts, 2)))
    print(f"camelup-advisor valuation benchmark, seed {args.seed}, {games} games; "
          "least of the passes, per decision:")
    print(f"  {'case':<48} {'CPU ms':>9} {'wall ms':>9}")
    for label, cpu, wall in rows:
        print(f"  {label:<48} {1e3 * cpu:9.2f} {1e3 * wall:9.2f}")


if __name__ == "__main__":
    main()
