"""Camel Up Cards whole games: games per second per bot line-up, on one
process and on every core, and the decision time of the strongest Cards bot.

    python benchmarks/bench_cards_games.py [--players 4] [--games 400] [--bot-games 4]
        [--bot margin] [--only-bot] [--no-cold] [--reference 8]

Prints:

* cold: one game of heuristic bots, and one decision of ``--bot``, each in
  a fresh process with an empty numba cache (compiling the Cards kernels),
  then in a fresh process loading it;
* warm, per line-up (every seat random; every seat heuristic; every seat
  greedy; every seat ``--bot``, by default margin; the tournament's
  ``--bot``, greedy, heuristic, random): games per second on one process
  (this one, on one thread, kernels compiled, one game played first), and
  on every core (``advisor.simulate.games.simulate`` with one worker process per
  core, worker start-up included, as ``camelup simulate`` runs); the games
  of the valuing bots' line-ups are ``--bot-games``;
* the decision time of ``--bot`` on one thread (every call of its
  ``choose`` in the games of its line-up, deck building apart; deck
  building timed apart): median, 95th percentile and the largest, wall and
  CPU seconds;
* the references, in the same run: the fast valuation
  (:func:`advisor.cards.fast.cards_values`, what the bots use) against
  ``cards_best`` on ``--reference`` positions of those games (turn starts),
  and the candidate kernel against its slow pure-Python reference
  (``tests/naive_cards_turns.py``) on the same scenarios: time per call and
  the ratio.

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
    """A bot whose every decision is timed (``log``: turns; ``builds``: deck
    building; ``starts``: the position at each turn start)."""

    def __init__(self, bot, log: list, builds: list | None = None, starts: list | None = None):
        self.bot, self.log = bot, log
        self.builds = [] if builds is None else builds
        self.starts = [] if starts is None else starts
        self.name, self.summary = bot.name, bot.summary

    def choose(self, state, player, rng):
        if state.phase == "turn" and not (state.raced or state.bet):
            self.starts.append(str(state.position(player)))
        wall, cpu = time.perf_counter(), time.process_time()
        action = self.bot.choose(state, player, rng)
        (self.builds if state.phase == "build" else self.log).append(
            (time.perf_counter() - wall, time.process_time() - cpu))
        return action


def play(names, seed: int, log: list | None = None, timed_bot: str | None = None, builds=None, starts=None):
    """One game (as :func:`advisor.cards.bots.play_cards_game`), the
    decisions of the bot named ``timed_bot`` timed into ``log``."""
    import numpy as np

    from advisor.cards.bots import make_cards_bot
    from advisor.cards.game import CardsGame, CardsSetup

    bots = [make_cards_bot(n) for n in names]
    if log is not None:
        bots = [Timed(b, log, builds, starts) if b.name == timed_bot else b for b in bots]
    game = CardsGame(CardsSetup(players=len(names)), seed)
    rngs = [np.random.default_rng([seed, s]) for s in range(len(names))]
    while not game.finished:
        p = game.state.current
        game.play(bots[p].choose(game.state, p, rngs[p]))
    return game.record


def one_process(names, games: int, *timing) -> tuple[float, float]:
    """Seconds (wall, CPU) of ``games`` games on this process, on one thread."""
    import numba

    from advisor.simulate.games import game_seed

    limit = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        wall, cpu = time.perf_counter(), time.process_time()
        for i in range(games):
            play(names, game_seed(1, i), *timing)
        return time.perf_counter() - wall, time.process_time() - cpu
    finally:
        numba.set_num_threads(limit)


def every_core(names, games: int) -> float:
    from advisor.simulate.games import simulate

    start = time.perf_counter()
    for _ in simulate(names, games, edition="cards", seed=1, processes=None, progress=False):
        pass
    return time.perf_counter() - start


def percentile(values, q: float) -> float:
    values = sorted(values)
    k = max(0, min(len(values) - 1, int(round(q * (len(values) - 1)))))
    return values[k]


def references(starts: list[str], count: int) -> None:
    """The fast valuation against ``cards_best``, and the candidate kernel
    against its pure-Python reference, timed in this run."""
    import numba
    import numpy as np

    from advisor.cards import cards_best
    from advisor.cards.fast import cards_values

    picks = starts[:: max(1, len(starts) // count)][:count] if starts else []
    if not picks:
        return
    numba.set_num_threads(1)
    fast_t, best_t = [], []
    for i, text in enumerate(picks):
        cpu = time.process_time()
        cards_values(text, seed=i)
        fast_t.append(time.process_time() - cpu)
        cpu = time.process_time()
        cards_best(text, seed=i, precision=0.02, progress=False)
        best_t.append(time.process_time() - cpu)
    print(f"\nThe fast valuation against cards_best (precision 0.02), {len(picks)} turn starts of those games, "
          "one thread, CPU seconds per call:")
    print(f"  cards_values median {statistics.median(fast_t):.3f} s, cards_best median {statistics.median(best_t):.3f} s: "
          f"{statistics.median(best_t) / statistics.median(fast_t):.1f}x (sum {sum(best_t) / sum(fast_t):.1f}x)")
    # the candidate kernel against its slow reference, on the same scenarios
    sys.path.insert(0, str(ROOT / "tests"))
    import naive_cards as N
    import naive_cards_turns as T

    from advisor.cards.advice import race_actions
    from advisor.cards.odds import kernel_state
    from advisor.cards.position import parse_cards
    from advisor.kernels.cards.turns import FENNEC, HAND, PALM, REVEAL, candidate_outcomes

    pos = parse_cards(picks[0])
    s = kernel_state(pos)
    actions = race_actions(pos)[1:]
    kinds = [REVEAL] + [HAND if a == "hand" else PALM if a.startswith("palm") else FENNEC for a in actions]
    args = [0] + [int(a.partition(":")[2] or 0) for a in actions]
    legs, races = 40, 8
    out = (np.zeros((len(kinds), legs), np.int64), np.zeros(legs, np.int64), np.zeros((len(kinds), races), np.int64))
    call = (s.sp, s.ht, s.fig, s.own, s.track, s.ncards, s.known, s.pool, s.unknown, s.players, s.nxt, s.hands,
            s.random_mask, np.array(kinds, np.int64), np.array(args, np.int64), legs, races, pos.decksize, True, 1)
    candidate_outcomes(*call, *out)
    cpu = time.process_time()
    for _ in range(20):
        candidate_outcomes(*call, *out)
    kernel = (time.process_time() - cpu) / 20
    board = N.parse_board(" ".join(f"{sp}:{st}" for sp, st in pos.stacks), pos.length,
                          pos.palm[0] if pos.palm else None, pos.fennec[0] if pos.fennec else None)
    cpu = time.process_time()
    ref = T.candidate_outcomes(board, pos.track, [bool(x) for x in s.own], [int(x) for x in s.known],
                               [int(x) for x in s.pool], s.unknown, [T.UNKNOWN if h == 10 else int(h) for h in s.hands],
                               pos.players, pos.next, {p for p in range(pos.players) if (s.random_mask >> p) & 1},
                               list(zip(kinds, args)), legs, races, pos.decksize, True, 1)
    slow = time.process_time() - cpu
    same = ref[0] == out[0].tolist() and ref[1] == out[1].tolist() and ref[2] == out[2].tolist()
    print(f"The candidate kernel against tests/naive_cards_turns.py ({len(kinds)} race actions, {legs} scenarios, "
          f"{races} to the race's end; outcomes {'identical' if same else 'DIFFERENT'}): kernel {kernel * 1e3:.2f} ms, "
          f"reference {slow:.2f} s CPU: {slow / kernel:.0f}x")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--games", type=int, default=400, help="games of the random and heuristic line-ups")
    parser.add_argument("--bot-games", "--greedy-games", type=int, default=4, dest="bot_games",
                        help="games of each line-up with a valuing bot")
    parser.add_argument("--bot", default="margin", help="the Cards bot whose decisions are timed (default margin)")
    parser.add_argument("--reference", type=int, default=8, help="turn starts timed with cards_best (default 8)")
    parser.add_argument("--no-cold", action="store_true")
    parser.add_argument("--only-bot", action="store_true", help="the --bot line-up alone (no random, heuristic)")
    args = parser.parse_args()

    print(f"Camel Up Cards games, {args.players} players, {os.cpu_count()} cores; {load()}")
    if not args.no_cold:
        print_cold(timed(f"from advisor.cards.bots import play_cards_game\n"
                         f"play_cards_game(['heuristic'] * {args.players}, seed=1)"),
                   "one game of heuristic bots, imports included")
        print_cold(timed("from advisor.cards.fast import cards_values\n"
                         "cards_values('cards 0:BG 2:OW 3:Y deck:4 known:B1G2 hand:O1', seed=1)"),
                   f"one turn of the {args.bot} bot's valuation, imports included")

    play(["heuristic"] * args.players, 0)  # compile or load the kernels
    if args.bot_games:
        play([args.bot] * args.players, 0, [], args.bot)
    print("\nWarm (kernels compiled; one process on one thread; every core: worker processes started per run, "
          "start-up included):")
    print(f"  {'line-up':<34}{'games':>6}  {'one process':>26}  {'every core':>14}")
    lineups = [] if args.only_bot else [(["random"] * args.players, args.games),
                                        (["heuristic"] * args.players, args.games),
                                        (["greedy"] * args.players, args.bot_games)]
    lineups.append(([args.bot] * args.players, args.bot_games))
    if not args.only_bot and args.players == 4:
        lineups.append(([args.bot, "greedy", "heuristic", "random"], args.bot_games))
    log: list = []
    builds: list = []
    starts: list = []
    for names, games in lineups:
        if not games:
            continue
        own = names == [args.bot] * args.players
        wall, cpu = one_process(names, games, *((log, args.bot, builds, starts) if own else ()))
        cores = every_core(names, games)
        label = (names[0] + " x" + str(args.players)) if len(set(names)) == 1 else ",".join(names)
        print(f"  {label:<34}{games:>6}  {games / wall:8.3f} games/s "
              f"({games / cpu:7.3f} CPU)  {games / cores:8.3f} games/s   {load()}")
        print(f"  {'':<40}{wall / games:9.3f} s/game ({cpu / games:7.3f} CPU)  {cores / games:8.3f} s/game")
    if log:
        wall = [w for w, _ in log]
        cpu = [c for _, c in log]
        print(f"\nDecision time of the {args.bot} bot on one thread ({len(log)} decisions of {args.bot_games} games "
              f"of {args.bot} x{args.players}, deck building apart):")
        print(f"  median {statistics.median(wall):.3f} s wall ({statistics.median(cpu):.3f} s CPU); "
              f"95th percentile {percentile(wall, 0.95):.3f} s wall ({percentile(cpu, 0.95):.3f} s CPU); "
              f"largest {max(wall):.3f} s wall ({max(cpu):.3f} s CPU); "
              f"over 0.5 s: {sum(w > 0.5 for w in wall)} wall, {sum(c > 0.5 for c in cpu)} CPU")
        if builds:
            print(f"  deck building ({len(builds)}): median {statistics.median([c for _, c in builds]):.3f} s CPU, "
                  f"largest {max(c for _, c in builds):.3f} s CPU")
        references(starts, args.reference)
    print(f"\n{load()}")


if __name__ == "__main__":
    main()
