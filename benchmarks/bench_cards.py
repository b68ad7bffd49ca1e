"""Camel Up Cards: leg enumeration, sampling, races and advice.

    python benchmarks/bench_cards.py [--quick]
    python benchmarks/bench_cards.py --kernels [--quick]

Prints cold (compile) and warm figures: the exact leg (every order and
content of the race deck, equal boards merged card by card, the unseen
cards drawn folded into moment vectors once two unknown cards remain) by
number of unknown cards, on a mid-leg position and on a game start, with
the pure-Python reference (tests/naive_cards.py) on the same positions and
the ratio (the reference is too slow beyond a few cards); a leg start with
the whole 12-card deck unknown (cold and warm, wall and CPU seconds on one
thread and on all, the load average, the states per card, the pure-Python
reference on the same start with 4 cards and the ratio), the leg odds of
five leg starts as `cards_odds` gives them for the deck alone (exact, or sampled beyond the
state limit) and the former merged kernel (tests/pairs_cards.py) on a
9-card deck for comparison; legs and races
sampled per second; `cards_odds` and `cards_best` on a leg start and
mid-leg.  Timings are medians of repeated calls on this machine.

``--kernels``: only the exact-leg kernels, as their public calls give them
(``exact_counts``: the race deck alone; ``others_exact``: with the other
players' turns): the compile time of both in a fresh process with an empty
cache, then the warm median of each on a few positions, on one thread.
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
sys.path.insert(0, str(ROOT / "tests"))

MID = "cards 0:B 2:OW 4:GY palm:7 deck:{deck} known:B1"
START = "cards 0:BGOWY deck:{deck}"


def median_time(fn, repeats: int) -> float:
    times = []
    for _ in range(repeats):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def naive_board(pos):
    import naive_cards

    stacks = {space: list(stack) for space, stack in pos.stacks}
    return naive_cards.Board(stacks, pos.length, pos.palm[0] if pos.palm else None,
                             pos.fennec[0] if pos.fennec else None)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--kernels", action="store_true", help="only the exact-leg kernels: compile and warm times")
    args = parser.parse_args()
    if args.kernels:
        return kernels(args.quick)
    import naive_cards

    from advisor.cards import cards_best, cards_odds, parse_cards
    import numpy as np

    from advisor.cards.odds import kernel_state, leg_distribution

    print("camelup-advisor Camel Up Cards benchmark")
    print_cold(timed("from advisor.cards import cards_odds\ncards_odds('cards 0:BGOWY', seed=1)"),
               "odds of a game start, leg and race")
    cards_odds("cards 0:BGOWY", seed=1)
    reps = 3 if args.quick else 7

    print_cold(timed("from advisor.cards import cards_odds\n"
                     "cards_odds('cards 0:B 2:OW 4:GY palm:7 deck:5 known:B1', race=False)"),
               "exact leg of 5 cards, merged enumeration")
    from advisor.kernels.cards.track import CODES, KINDS
    from advisor.kernels.cards.exact import leg_counts

    for title, text, top, naive_top in (("a mid-leg position (the known B1 and N unknown cards)", MID, 7, 4),
                                        ("a game start (N unknown cards)", START, 11, 4)):
        print(f"\nExact leg, {title}; by first card (advice) and without (odds):")
        print("  unknown   by first      odds          pure Python   ratio")
        for unknown in range(1, top if not args.quick else 5):
            pos = parse_cards(text.format(deck=unknown + (text is MID)))
            state = kernel_state(pos)

            def run(by_first):
                counts = np.zeros((KINDS, 8, CODES), np.int64)
                figs = np.zeros((KINDS, 2), np.int64)
                return leg_counts(state.sp, state.ht, state.fig, state.length, state.known, state.pool,
                                  state.unknown, by_first, counts, figs, np.zeros(state.cards(), np.int64))

            run(True)
            t_first = median_time(lambda: run(True), reps if unknown < 6 else 1)
            t_odds = median_time(lambda: run(False), reps if unknown < 6 else 1)
            line = f"  {unknown:>7}   {1e3 * t_first:9.2f} ms  {1e3 * t_odds:9.2f} ms"
            if unknown <= (3 if args.quick else naive_top):
                board = naive_board(pos)
                known = Counter(pos.known)
                pool = Counter(pos.unseen())
                t_naive = median_time(lambda: naive_cards.leg_distribution(board, known, pool, pos.unknown), 1)
                line += f"   {t_naive:9.3f} s   {t_naive / t_first:8.0f}x"
            print(line)

    import os

    deck = 10 if args.quick else 12
    text = START.format(deck=deck)
    print_cold(timed("from advisor.cards import parse_cards\n"
                     "from advisor.cards.odds import exact_counts, kernel_state\n"
                     f"exact_counts(kernel_state(parse_cards({text!r})), by_first=False, limit=-1)"),
               f"exact leg of a whole unknown {deck}-card deck")
    state = kernel_state(parse_cards(text))

    import numba

    def whole(by_first, threads):
        states = np.zeros(deck, np.int64)
        counts = np.zeros((KINDS, 8, CODES), np.int64)
        saved = numba.get_num_threads()
        numba.set_num_threads(threads)
        try:
            t0, c0 = time.perf_counter(), time.process_time()
            total = leg_counts(state.sp, state.ht, state.fig, state.length, state.known, state.pool,
                               state.unknown, by_first, counts, np.zeros((KINDS, 2), np.int64), states)
            return total, time.perf_counter() - t0, time.process_time() - c0, states
        finally:
            numba.set_num_threads(saved)

    cores = numba.get_num_threads()
    print(f"\nExact leg, a leg start with the whole {deck}-card deck unknown ({text}), warm, "
          f"load average {os.getloadavg()[0]:.1f} on {os.cpu_count()} cores:")
    for by_first in (False, True):
        for threads in sorted({1, cores}):
            runs = [whole(by_first, threads) for _ in range(1 if by_first or args.quick else 3)]
            total, _, _, states = runs[0]
            wall = statistics.median(r[1] for r in runs)
            cpu = statistics.median(r[2] for r in runs)
            print(f"  {'by first card (advice)' if by_first else 'odds':<24} {threads} thread{'s' if threads > 1 else ' '}"
                  f" {wall:7.2f} s wall  {cpu:7.2f} s CPU  ({total:,} outcomes)")
        print("    (board, deck state) pairs reached after each card: " + " ".join(f"{x:,}" for x in states[:-1]))
    print("  (they grow about fourfold per card while the unseen cards drawn are kept apart; folded into\n"
          "   55-entry moment vectors with two unknown cards left, they stop growing; boards from which no\n"
          "   camel can finish merge with their translates)")
    if not args.quick:
        print("\nThe deck's leg odds as a user asks for them (cards_odds(race=False, others='reveal'): exact\n"
              f"within EXACT_STATES, else sampled), leg starts with the whole 12-card deck unknown, all {cores}\n"
              "threads, warm, median of 3:")
        for text in ("cards 0:BGOWY", "cards 1:B 2:G 3:O 4:W 5:Y", "cards 3:B 4:GO 6:W 7:Y",
                     "cards 0:BGOWY palm:5 fennec:8", "cards 9:BGOWY"):
            cards_odds(text, seed=1, race=False, others="reveal")
            t = median_time(lambda: cards_odds(text, seed=1, race=False, others="reveal"), 3)
            n = cards_odds(text, seed=1, race=False, others="reveal").leg_samples
            print(f"  {text:<34} {t:6.2f} s   {'exact' if n == 0 else f'{n:,} legs sampled'}")
    # the pure-Python reference in the same run, on a deck it can do
    small = parse_cards(START.format(deck=4))
    s4 = kernel_state(small)
    t_naive = median_time(lambda: naive_cards.leg_distribution(naive_board(small), Counter(small.known),
                                                               Counter(small.unseen()), small.unknown), 1)
    t_kernel = median_time(lambda: leg_counts(s4.sp, s4.ht, s4.fig, s4.length, s4.known, s4.pool, s4.unknown,
                                              False, np.zeros((KINDS, 8, CODES), np.int64),
                                              np.zeros((KINDS, 2), np.int64), np.zeros(4, np.int64)), reps)
    print(f"  the same leg start with 4 unknown cards: pure-Python reference {t_naive:.3f} s, kernel "
          f"{1e3 * t_kernel:.2f} ms ({t_naive / t_kernel:,.0f}x)")
    import pairs_cards

    nine = kernel_state(parse_cards(START.format(deck=9)))

    def former():
        pairs_cards.pairs_leg_counts(nine.sp, nine.ht, nine.fig, nine.length, nine.known, nine.pool,
                                     nine.unknown, False, np.zeros((KINDS, 8, CODES), np.int64),
                                     np.zeros((KINDS, 2), np.int64), np.zeros(9, np.int64))

    def current():
        leg_counts(nine.sp, nine.ht, nine.fig, nine.length, nine.known, nine.pool, nine.unknown, False,
                   np.zeros((KINDS, 8, CODES), np.int64), np.zeros((KINDS, 2), np.int64), np.zeros(9, np.int64))

    former()
    current()
    t_former = median_time(former, 1)
    t_current = median_time(current, 3)
    print(f"\nA whole unknown 9-card deck: former merged kernel (tests/pairs_cards.py) {t_former:6.2f} s, "
          f"now {t_current:6.2f} s ({t_former / t_current:.0f}x)")

    print("\nSampling (one call, all threads):")
    state = kernel_state(parse_cards("cards 0:BGOWY"))
    n = 200_000
    t = median_time(lambda: leg_distribution(state, n, 1), reps)
    print(f"  legs of a full 12-card deck     {n / t / 1e6:6.2f} million/s")
    from advisor.cards.odds import race_ranks

    pos = parse_cards("cards 0:BGOWY")
    for others in ("random", "reveal"):
        n = 20_000
        t = median_time(lambda: race_ranks(pos, state, n, 1, others), reps)
        print(f"  races from a game start ({others:<6}) {n / t / 1e3:6.0f} thousand/s")

    print("\nWhole calls (warm, median; race odds to +-0.2 points, the default precision):")
    for text in ("cards 0:BGOWY", MID.format(deck=6), MID.format(deck=3)):
        t = median_time(lambda: cards_odds(text, seed=1), reps)
        races = cards_odds(text, seed=1).race_samples
        print(f"  cards_odds  {text:<45} {t:6.3f} s   ({races:,} races)")
    for text in ("cards 0:BGOWY hand:Y2", MID.format(deck=6) + " hand:O1", MID.format(deck=3) + " hand:O1"):
        t = median_time(lambda: cards_best(text, seed=1), max(1, reps // 2))
        rows = len(cards_best(text, seed=1))
        print(f"  cards_best  {text:<45} {t:6.3f} s   ({rows} turns)")


#: positions of ``--kernels``: the race deck alone, and with the other players
KERNEL_DECKS = (MID.format(deck=6), START.format(deck=8), START.format(deck=10))
KERNEL_OTHERS = ("cards players:2 0:BG 5:O 8:W 9:Y deck:2 known:B1G1 hands:?",
                 "cards players:3 0:BG 2:OW 3:Y deck:2 known:B1G1 fennec:6 hands:?? next:2",
                 "cards 0:BG 2:OW 3:Y deck:2 known:B1 palm:5@0 next:1 hands:?-O1")


def kernels(quick: bool) -> None:
    """Compile and warm times of the exact-leg kernels (``--kernels``)."""
    import numba

    from advisor.cards import parse_cards
    from advisor.cards.odds import exact_counts, kernel_state, others_exact

    print("camelup-advisor exact-leg kernels")
    print_cold(timed("from advisor.cards import parse_cards\n"
                     "from advisor.cards.odds import exact_counts, kernel_state, others_exact\n"
                     f"exact_counts(kernel_state(parse_cards({KERNEL_DECKS[0]!r})), by_first=True, limit=-1)\n"
                     f"others_exact(kernel_state(parse_cards({KERNEL_OTHERS[0]!r})), False, -1)"),
               "exact_counts and others_exact, each once")
    reps = 3 if quick else 5
    numba.set_num_threads(1)
    print(f"\nWarm, one thread, median of {reps} calls:")
    for text in KERNEL_DECKS[:2] if quick else KERNEL_DECKS:
        state = kernel_state(parse_cards(text))
        for by_first in (False, True):
            exact_counts(state, by_first=by_first, limit=-1)
            t = median_time(lambda: exact_counts(state, by_first=by_first, limit=-1), reps)
            print(f"  exact_counts  {text:<64} {'by first' if by_first else 'odds':<8} {1e3 * t:9.2f} ms")
    for text in KERNEL_OTHERS:
        state = kernel_state(parse_cards(text))
        for by_first in (False, True):
            others_exact(state, by_first, -1)
            t = median_time(lambda: others_exact(state, by_first, -1), reps)
            print(f"  others_exact  {text:<64} {'by first' if by_first else 'odds':<8} {1e3 * t:9.2f} ms")


if __name__ == "__main__":
    main()
