"""Camel Up Cards whole games: games per second per bot line-up, on one
process and on every core, and the decision time of a Cards bot.

    python benchmarks/bench_cards_games.py [--players 4] [--games 400] [--greedy-games 4]
        [--bot greedy] [--only-bot] [--no-cold]

Prints:

* cold: one game of heuristic bots in a fresh process with an empty numba
  cache (compiling the Cards kernels), then in a fresh process loading it;
* warm, per line-up (every seat random; every seat heuristic; every seat
  the ``--bot``, by default greedy): games per second on one process (this
  one, kernels compiled, one game played first), and on every core
  (``advisor.simulate.simulate`` with one worker process per core, worker
  start-up included, as ``camelup simulate`` runs);
* the decision time of ``--bot`` (every call of its ``choose`` in the
  games of its line-up on one process, deck building apart): median, 95th
  percentile and the largest, wall and CPU seconds.

Wall and CPU times are both given, with the load average: on a busy
machine the wall time is longer than what an idle core takes.
"""

from __future__ import annotations

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, print_cold, timed  # noqa: E402

sys.path.insert(0, str(ROOT))


def load() -> str:
    try:
        return "load average " + " ".join(f"{x:.1f}" for x in os.getloadavg())
    except OSError:
        return "load average unknown"


class Timed:
    """A bot whose every decision (deck building apart) is timed."""

    def __init__(self, bot, log: list):
        self.bot, self.log = bot, log
        self.name, self.summary = bot.name, bot.summary

    def choose(self, state, player, rng):
        wall, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(state, player, rng)
        if state.phase != "build":
            self.log.append((time.perf_counter() - wall, time.process_time() - cpu))
        return action


def play(names, seed: int, log: list | None = None):
    """One game (as :func:`advisor.cards.bots.play_cards_game`), the bots'
    decisions timed into ``log``."""
    import numpy as np

    from advisor.cards.bots import make_cards_bot
    from advisor.cards.game import CardsGame, CardsSetup

    bots = [make_cards_bot(n) for n in names]
    if log is not None:
        bots = [Timed(b, log) for b in bots]
    game = CardsGame(CardsSetup(players=len(names)), seed)
    rngs = [np.random.default_rng([seed, s]) for s in range(len(names))]
    while not game.finished:
        p = game.state.current
        game.play(bots[p].choose(game.state, p, rngs[p]))
    return game.record


def one_process(names, games: int, log: list | None = None) -> tuple[float, float]:
    from advisor.simulate import game_seed

    wall, cpu = time.perf_counter(), time.process_time()
    for i in range(games):
        play(names, game_seed(1, i), log)
    return time.perf_counter() - wall, time.process_time() - cpu


def every_core(names, games: int) -> float:
    from advisor.simulate import simulate

    start = time.perf_counter()
    for _ in simulate(names, games, edition="cards", seed=1, processes=None, progress=False):
        pass
    return time.perf_counter() - start


def percentile(values, q: float) -> float:
    values = sorted(values)
    k = max(0, min(len(values) - 1, int(round(q * (len(values) - 1)))))
    return values[k]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400, help="games of the random and heuristic line-ups")
    parser.add_argument("--greedy-games", type=int, default=4, help="games of the --bot line-up")
    parser.add_argument("--bot", default="greedy", help="the Cards bot whose decisions are timed (default greedy)")
    parser.add_argument("--no-cold", action="store_true")
    parser.add_argument("--only-bot", action="store_true", help="the --bot line-up alone (no random, heuristic)")
    args = parser.parse_args()

    print(f"Camel Up Cards games, {args.players} players, {os.cpu_count()} cores; {load()}")
    if not args.no_cold:
        print_cold(timed(f"from advisor.cards.bots import play_cards_game\n"
                         f"play_cards_game(['heuristic'] * {args.players}, seed=1)"),
                   "one game of heuristic bots, imports included")

    play(["heuristic"] * args.players, 0)  # compile or load the kernels
    play([args.bot] * args.players, 0, []) if args.greedy_games else None
    print("\nWarm (kernels compiled; every core: worker processes started per run, start-up included):")
    print(f"  {'line-up':<22}{'games':>6}  {'one process':>26}  {'every core':>14}")
    lineups = [] if args.only_bot else [("random", args.games), ("heuristic", args.games)]
    for bot, games in lineups + [(args.bot, args.greedy_games)]:
        if not games:
            continue
        names = [bot] * args.players
        log: list = []
        wall, cpu = one_process(names, games, log if bot == args.bot else None)
        cores = every_core(names, games)
        print(f"  {bot + ' x' + str(args.players):<22}{games:>6}  {games / wall:8.2f} games/s "
              f"({games / cpu:7.2f} CPU)  {games / cores:8.2f} games/s   {load()}")
        print(f"  {'':<28}{wall / games:9.3f} s/game ({cpu / games:7.3f} CPU)  {cores / games:8.3f} s/game")
        if bot == args.bot:
            times = log
    if args.greedy_games:
        wall = [w for w, _ in times]
        cpu = [c for _, c in times]
        print(f"\nDecision time of the {args.bot} bot ({len(times)} decisions of {args.greedy_games} games, "
              "one process, deck building apart):")
        print(f"  median {statistics.median(wall):.3f} s wall ({statistics.median(cpu):.3f} s CPU); "
              f"95th percentile {percentile(wall, 0.95):.3f} s wall ({percentile(cpu, 0.95):.3f} s CPU); "
              f"largest {max(wall):.3f} s wall ({max(cpu):.3f} s CPU)")
    print(f"\n{load()}")


if __name__ == "__main__":
    main()
