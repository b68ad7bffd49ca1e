"""Time per move of every bot (what a host waits for), on one core.

    NUMBA_NUM_THREADS=1 python benchmarks/bench_bots.py [--games 2] [--seed 7] [--edition second] [--bots a,b]

Plays ``--games`` 4-player games of ``rival`` bots (per-leg dice) and asks
every board bot for its whole ranking (``bot.ranked(view, player)``, as
``camelup bot`` and :func:`advisor.bots.policies.ask` do) before every turn: the
first call of each bot (kernels loaded from the cache, first boards) and
then the mean, median, 95th percentile and largest time per move, warm.
Run it with ``NUMBA_NUM_THREADS=1`` (and ``taskset -c 0`` where available)
for one core.  ``--cpu``: CPU time of the process per move (``time.process_time``,
what one core spends whatever else shares the machine) instead of wall
time.  ``--bots``: only these bots.  ``--fresh``: every decision on empty
memos (the valuation's board memo and the portfolio's joint
distributions: nothing computed for an earlier decision is reused; the
most a decision can take), instead of as in a game.  Then the cold start of ``camelup bot`` in fresh processes
(empty numba cache: compile; then the cache loaded).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import numpy as np  # noqa: E402

from _common import print_cold, timed  # noqa: E402


def forget() -> None:
    """Empty the memos of the bots' valuation (a pure function of the board)."""
    import advisor.valuation.portfolio as portfolio
    from advisor.valuation.memo import MEMO

    MEMO.data.clear()
    portfolio._JOINTS.clear()


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=2)
    parser.add_argument("--seed", type=int, default=7)
    parser.add_argument("--edition", default="second")
    parser.add_argument("--no-cold", action="store_true", help="skip the fresh-process figures")
    parser.add_argument("--bots", help="comma-separated bots (default: every board bot)")
    parser.add_argument("--cpu", action="store_true", help="CPU time per move instead of wall time")
    parser.add_argument("--fresh", action="store_true", help="empty the memos before every decision")
    args = parser.parse_args()
    from advisor.bots.policies import BOTS, make_bot
    from advisor.game import Game

    views = []
    for g in range(args.games):
        game = Game(args.edition, 4, seed=args.seed + g, dice="leg")
        rival = make_bot("rival")
        rng = np.random.default_rng(args.seed)
        while not game.finished:
            p = game.to_move
            views.append((game.view(p), p))
            game.apply(rival.choose(game.view(p), p, rng))
    print(f"{len(views)} decisions of {args.games} {args.edition}-edition 4-player games (seed {args.seed}):")
    clock = time.process_time if args.cpu else time.perf_counter
    print(f"{'bot':<16}{'first':>9}{'mean':>9}{'median':>9}{'p95':>9}{'max':>9}   "
          f"(seconds per move, warm, {'CPU' if args.cpu else 'wall'})")
    for name in (args.bots.split(",") if args.bots else BOTS):
        bot = make_bot(name)
        start = clock()
        bot.ranked(*views[0], np.random.default_rng(0))
        first = clock() - start
        times = []
        for view, p in views:
            if args.fresh:
                forget()
            start = clock()
            bot.ranked(view, p, np.random.default_rng(0))
            times.append(clock() - start)
        times.sort()
        print(f"{name:<16}{first:9.3f}{statistics.mean(times):9.4f}{statistics.median(times):9.4f}"
              f"{times[int(0.95 * (len(times) - 1))]:9.4f}{times[-1]:9.4f}")
    if not args.no_cold:
        import json
        import tempfile

        from advisor.game import Game as G

        game = G(args.edition, 4, seed=args.seed)
        with tempfile.NamedTemporaryFile("w", suffix=".json", delete=False) as fh:
            json.dump(game.view(game.to_move).to_json(), fh)
        print_cold(timed(f"from advisor import cli\ncli.main(['bot', 'portfolio', {fh.name!r}, '--json'])"),
                   "camelup bot portfolio STATE --json")


if __name__ == "__main__":
    main()
