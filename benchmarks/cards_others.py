"""Camel Up Cards: what the other players' race actions in the current leg
change (``--others random``, the default, against ``--others reveal``, the
deck alone), and what the model costs.

    python benchmarks/cards_others.py [--quick] [--precision P]

Prints (markdown) for a few positions the leg odds P(1st) and the advice
under both models: the best turn and its EV, and the EV under this model of
the turn the other model would take (what following the other model
costs).  Then timings: the exact kernel (``leg_others_exact``) against the
pure-Python reference (``tests/naive_cards_others.py``) on the same
positions, with the ratio; sampled legs and races, CPU microseconds each on one thread
(``leg_others_sample`` and the deck-alone ``leg_sample``; races with
``others`` ``random`` and ``later``); ``cards_best`` under the three models
(``later``: the former default) on a leg start, mid-leg and with two cards
left (CPU seconds on one thread and on all, wall seconds and the load
average);
cold (compile) and warm starts of the new kernels.  Seeds are fixed: the
same run prints the same odds and EVs.
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
sys.path.insert(0, str(ROOT / "tests"))

#: (name, position): the golden output's position, a leg's end, a figure
#: of the advised player's on the track with 5 players, two players.
POSITIONS = [
    ("mid-leg, 4 players", "cards 0:BG 2:OW 3:Y deck:4 known:B1G2 hand:O1 legtiles:B322 bets:B5 money:2"),
    ("2 cards left", "cards 5:B 6:GO 7:W 9:Y deck:2 known:Y1 hand:B1 legtiles:Y2 money:3"),
    ("own palm, 5 players", "cards players:5 3:BG 4:O 6:WY deck:3 known:W1 hand:G2 palm:8@0 legtiles:W2 bets:W3 "
                            "money:4"),
    ("leg start, 2 players", "cards players:2 2:B 3:GO 5:WY hand:Y1 known:W1O1B1G1Y1"),
]


def cpu_wall(fn):
    c0, w0 = time.process_time(), time.perf_counter()
    out = fn()
    return out, time.process_time() - c0, time.perf_counter() - w0


def table(precision: float) -> None:
    from advisor.cards import cards_best, cards_odds

    print("| position | others | P(1st this leg) B G O W Y | best turn | EV | EV of the other model's best turn |")
    print("|---|---|---|---|---|---|")
    for name, text in POSITIONS:
        frames, odds = {}, {}
        for others in ("random", "reveal"):
            odds[others] = cards_odds(text, seed=1, others=others, race=False)
            frames[others] = cards_best(text, seed=1, others=others, precision=precision, progress=False)
        for others, other in (("random", "reveal"), ("reveal", "random")):
            f = frames[others]
            best = f.iloc[0]
            theirs = f.set_index("action").ev[frames[other].iloc[0].action]
            leg = " ".join(f"{100 * p:.1f}" for p in odds[others].leg[:, 0])
            exact = "exact" if odds[others].leg_samples == 0 else f"{odds[others].leg_samples:,} legs"
            print(f"| {name if others == 'random' else ''} | {others} | {leg} ({exact}) | `{best.action}` | "
                  f"{best.ev:+.3f} | {theirs:+.3f} (`{frames[other].iloc[0].action}`) |")
    print("\nPositions:")
    for name, text in POSITIONS:
        print(f"  {name}: {text}")


def kernel_vs_reference() -> None:
    from collections import Counter

    import naive_cards as N
    import naive_cards_others as NO

    from advisor.cards import parse_cards
    from advisor.cards.odds import kernel_state, others_exact

    print("\nExact leg with the other players: kernel against the pure-Python reference (same position):")
    print("  position                                                         states   kernel s   reference s   ratio")
    for text in ["cards players:2 0:BG 5:O 8:W 9:Y deck:2 known:B1G1 hands:?",
                 "cards players:3 0:BG 2:OW 3:Y deck:2 known:B1G1 fennec:6 hands:?? next:2",
                 "cards 0:BG 2:OW 3:Y deck:2 known:B1 palm:5@0 next:1 hands:?-O1"]:
        pos = parse_cards(text)
        state = kernel_state(pos)
        others_exact(state, False, -1)  # compiled
        t_k = statistics.median(_time(lambda: others_exact(state, False, -1)) for _ in range(5))
        board = N.parse_board(" ".join(f"{s}:{st}" for s, st in pos.stacks), pos.length,
                              pos.palm[0] if pos.palm else None, pos.fennec[0] if pos.fennec else None)
        own = (bool(pos.palm and pos.palm[1] == 0), bool(pos.fennec and pos.fennec[1] == 0))
        t_n = _time(lambda: NO.leg_outcomes(board, Counter(pos.known), pos.unseen(), pos.unknown,
                                            list(pos.seat_hands()), pos.next, set(range(1, pos.players)), own))
        states = _states(state)
        print(f"  {text:<64} {states:>7,} {t_k:10.4f} {t_n:13.2f} {t_n / t_k:8.0f}x")


def _states(state) -> int:
    import numpy as np

    from advisor.kernels.cards.track import CODES, KINDS
    from advisor.kernels.cards.others import leg_others_exact

    codes = np.zeros((KINDS, 8, CODES))
    return leg_others_exact(state.sp, state.ht, state.fig, state.own, state.length, state.known, state.pool,
                            state.unknown, state.players, state.nxt, state.hands, state.random_mask, False, codes, -1)


def _time(fn) -> float:
    t0 = time.perf_counter()
    fn()
    return time.perf_counter() - t0


def sampling(quick: bool) -> None:
    import numba

    from advisor.cards import parse_cards
    from advisor.cards.odds import kernel_state, leg_distribution, race_ranks

    n = 50_000 if quick else 200_000
    print(f"\nSampled legs and races, CPU microseconds each on one thread ({n:,} legs, {n // 10:,} races):")
    limit = numba.get_num_threads()
    numba.set_num_threads(1)
    try:
        for text in ["cards 0:BGOWY", "cards players:6 0:BGOWY", "cards 0:BG 2:OW 3:Y deck:4 known:B1G2"]:
            pos = parse_cards(text)
            state = kernel_state(pos)
            for this_leg, others in ((True, "random"), (False, "later")):
                leg_distribution(state, 1000, 1, this_leg=this_leg)  # compiled
                race_ranks(pos, state, 100, 1, others)
                _, leg_cpu, _ = cpu_wall(lambda: leg_distribution(state, n, 1, this_leg=this_leg))
                _, race_cpu, _ = cpu_wall(lambda: race_ranks(pos, state, n // 10, 1, others))
                what = "others random" if this_leg else "deck alone"
                print(f"  {text:<40} {what:<14} leg {1e6 * leg_cpu / n:5.2f}  race {1e6 * race_cpu / (n // 10):6.2f}")
    finally:
        numba.set_num_threads(limit)


def advice(quick: bool) -> None:
    import numba

    from advisor.cards import cards_best

    print("\ncards_best (precision 0.02; CPU and wall seconds; the load average before each):")
    for text in ["cards 0:BGOWY hand:Y2", "cards 0:BG 2:OW 3:Y deck:4 known:B1G2 hand:O1",
                 "cards 5:B 6:GO 7:W 9:Y deck:2 known:Y1 hand:B1"]:
        for others in ("random", "later", "reveal"):
            cards_best(text, seed=1, others=others, precision=0.02, progress=False)  # compiled, warm
            load = os.getloadavg()[0]
            reps = 1 if quick else 3
            runs = [cpu_wall(lambda: cards_best(text, seed=1, others=others, precision=0.02, progress=False))
                    for _ in range(reps)]
            cpu = statistics.median(r[1] for r in runs)
            wall = statistics.median(r[2] for r in runs)
            limit = numba.get_num_threads()
            numba.set_num_threads(1)
            try:
                one = statistics.median(
                    cpu_wall(lambda: cards_best(text, seed=1, others=others, precision=0.02, progress=False))[1]
                    for _ in range(reps))
            finally:
                numba.set_num_threads(limit)
            print(f"  {text:<46} {others:<7} {one:6.2f} s CPU on one thread, {cpu:6.2f} s CPU {wall:6.2f} s wall "
                  f"on all  (load {load:.1f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true", help="fewer repeats, no cold start")
    parser.add_argument("--precision", type=float, default=0.002, help="race odds precision of the table")
    parser.add_argument("--table-only", action="store_true")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.1f}")
    table(args.precision)
    if args.table_only:
        return
    kernel_vs_reference()
    sampling(args.quick)
    advice(args.quick)
    if not args.quick:
        print_cold(timed("from advisor.cards import cards_odds\n"
                         "cards_odds('cards 0:BG 2:OW 3:Y deck:2 known:B1G1', seed=1, race=False)\n"
                         "cards_odds('cards 0:BG 2:OW 3:Y deck:4 known:B1G2', seed=1, samples=1000)"),
                   "the exact and sampled leg and 1,000 races with the other players")


if __name__ == "__main__":
    main()
