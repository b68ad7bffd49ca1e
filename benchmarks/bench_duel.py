"""Paired duels against independent games: how many games a 2-point
win-rate difference needs each way.

    python benchmarks/bench_duel.py [--a rival] [--b advisor] [--field rival] [--players 4]
                                    [--pairs 200] [--seed 2026] [--edition second] [--processes P]

Plays ``--pairs`` pairs of a duel (:mod:`advisor.simulate.duel`: both games of a pair
from one seed with per-leg dice, A and then B in the same seat against the
same field) and prints, for the win (a shared first place a fraction) and
the money:

* the variance of the paired difference A - B per pair;
* the variance of the difference of one A game and one B game played
  independently (other seeds), estimated two ways from the same games: the
  sum of each side's variance, and directly from A's game of pair i against
  B's game of pair i + 1 (different seeds, so independent);
* their ratio (how many times fewer games the pairing needs), with a 95%
  bootstrap interval over the pairs;
* the games each design needs to show a true difference of ``--delta``
  (default 2 points of win rate): the 95% interval of the difference
  excludes 0 with 80% probability when n = (1.960 + 0.842)^2 var / delta^2
  pairs (paired: 2n games; independent: n games of A and n of B, 2n games);
* how long the two games of a pair stay alike: the turn of their first
  different action, and how often the race ends the same (winning and
  losing camel);
* the time the games took (warm kernels: the cache is loaded first).

Every figure comes from the seed printed.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT  # noqa: E402

sys.path.insert(0, str(ROOT))

Z_95 = 1.959964  # two-sided 95%
Z_80 = 0.841621  # power 80%


def needed(var: float, delta: float) -> float:
    """Pairs (or games per side) for the 95% interval to exclude 0 with 80%
    probability at a true difference ``delta``."""
    return (Z_95 + Z_80) ** 2 * var / delta ** 2


def bootstrap_ratio(a: np.ndarray, b: np.ndarray, rng: np.random.Generator, rounds: int = 2000):
    """95% bootstrap interval (resampling pairs) of var(a) + var(b) over var(a - b)."""
    n = len(a)
    ratios = []
    for _ in range(rounds):
        k = rng.integers(n, size=n)
        d = a[k] - b[k]
        vd = d.var(ddof=1)
        if vd > 0:
            ratios.append((a[k].var(ddof=1) + b[k].var(ddof=1)) / vd)
    return np.percentile(ratios, [2.5, 97.5])


def race_end(end: dict):
    """How a race ended: its winning and losing camel (a Camel Up Cards end
    line names neither: read from its final board, whose stacks are listed
    by space, bottom to top)."""
    if "winner_camel" in end:
        return end["winner_camel"], end["loser_camel"]
    stacks = [part.split(":") for part in end["board"].split()[1:] if part[0].isdigit()]
    stacks = sorted((int(space), camels) for space, camels in stacks)
    return stacks[-1][1][-1], stacks[0][1][0]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--a", default="rival")
    parser.add_argument("--b", default="advisor")
    parser.add_argument("--field", default="rival", help="comma-separated, or one bot for every other seat")
    parser.add_argument("--players", type=int, default=4)
    parser.add_argument("--pairs", type=int, default=200)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--edition", default="second")
    parser.add_argument("--processes", type=int, default=None)
    parser.add_argument("--delta", type=float, default=0.02, help="win-rate difference to show (default 0.02)")
    args = parser.parse_args()

    from advisor.simulate.duel import DuelSchedule, DuelTally
    from advisor.simulate.games import play_game, play_schedule
    from advisor.warm import cold_groups, needs, warmup

    field = [b.strip() for b in args.field.split(",")]
    if len(field) == 1:
        field = field * (args.players - 1)
    schedule = DuelSchedule(args.a, args.b, field, args.seed)
    tally = DuelTally(schedule)
    cold = cold_groups(needs("duel", bots=schedule.names(), cards=args.edition == "cards"))
    if cold:
        warmup(groups=cold)
    play_game([args.a, *field], args.edition, 1, dice="leg")  # this process warm too
    print(f"Duel A={args.a} against B={args.b}, field {','.join(field)}, {args.players} players, {args.edition} "
          f"edition, seed {args.seed}: {args.pairs} pairs = {2 * args.pairs} games "
          f"(processes: {args.processes or os.cpu_count()}; load average before: "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())})")
    print(f"  (the games of: camelup duel {args.a} {args.b} --field {','.join(field)} --players {args.players} "
          f"--games {args.pairs} --seed {args.seed} --edition {args.edition})")
    start = time.perf_counter()
    split, same_race, first, turns = [], 0, None, []
    for index, record in enumerate(play_schedule(schedule, 2 * args.pairs, edition=args.edition,
                                                 processes=args.processes, progress=sys.stderr.isatty())):
        tally.add(index, record[-1])
        turns.append(record[-1]["turns"])
        actions = [e["action"] for e in record if e.get("type") == "action"]
        if index % 2 == 0:
            first = (actions, record[-1])
            continue
        other, end = first
        split.append(next((t for t, (x, y) in enumerate(zip(other, actions)) if x != y), min(len(other), len(actions))))
        same_race += race_end(end) == race_end(record[-1])
    wall = time.perf_counter() - start
    print(f"  {wall:.0f} s of games ({2 * args.pairs / wall:.2f} games/s); load average after: "
          f"{', '.join(f'{x:.2f}' for x in os.getloadavg())}")

    split = np.array(split)
    print(f"  the two games of a pair first differ at turn {np.median(split):.0f} (median; quartiles "
          f"{np.percentile(split, 25):.0f}-{np.percentile(split, 75):.0f}; a game lasts {np.mean(turns):.0f} turns "
          f"on average); the race ends the same (winner and loser camel) in "
          f"{100 * same_race / len(split):.0f}% of pairs")
    arr = tally.arrays()
    rng = np.random.default_rng(args.seed)
    for what, a_key, b_key, unit, scale in (("win", "a_win", "b_win", "points", 100.0),
                                            ("money", "a_money", "b_money", "coins", 1.0)):
        a, b = arr[a_key], arr[b_key]
        d = a - b
        var_paired = d.var(ddof=1)
        var_sum = a.var(ddof=1) + b.var(ddof=1)
        cross = a - np.roll(b, -1)  # A of pair i against B of pair i + 1: other seeds, independent games
        var_cross = cross.var(ddof=1)
        lo, hi = bootstrap_ratio(a, b, rng)
        print(f"\n{what}: A {scale * a.mean():.2f}, B {scale * b.mean():.2f}, paired difference "
              f"{scale * d.mean():+.2f} +- {scale * Z_95 * d.std(ddof=1) / np.sqrt(len(d)):.2f} {unit} (95%)")
        print(f"  variance of A - B per pair (paired)                  {var_paired:10.4f}")
        print(f"  variance of A - B, independent games: var A + var B  {var_sum:10.4f}")
        print(f"  variance of A - B, independent games: A_i - B_(i+1)  {var_cross:10.4f}")
        print(f"  ratio independent / paired                           {var_sum / var_paired:10.2f}"
              f"   (95% bootstrap interval {lo:.2f}-{hi:.2f})")
        if what == "win":
            n_paired, n_indep = needed(var_paired, args.delta), needed(var_sum, args.delta)
            print(f"  to show a {100 * args.delta:g}-point difference (95% interval excludes 0, power 80%):")
            print(f"    paired:      {n_paired:9,.0f} pairs = {2 * n_paired:9,.0f} games")
            print(f"    independent: {n_indep:9,.0f} games of A and as many of B = {2 * n_indep:9,.0f} games")


if __name__ == "__main__":
    main()
