"""Camel Up Cards: how the fast valuation estimates a race action's change
of the race odds, against independent races.

    python benchmarks/cards_fast_race.py [--races 40000] [--seed 1]

The fast valuation (:mod:`advisor.cards.fast`) takes the change of P(win)
and P(last) that a race action (a hand card, a figure) makes through the
order the leg ends in: the final order of every race it played, all
actions pooled, given the leg's end order, weighted by how the action
changes the leg's end.  Here, for the first race actions of three
positions, that estimate (with many scenarios: 20,000 legs and 2,000 races
per action, and with the bots' defaults) against the difference of two
independent runs of ``--races`` races each (``race_ranks``, the race
model itself; its standard error printed).  Prints cold (first call,
compiling) and warm times of one valuation.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

POSITIONS = ["cards 0:BGOWY hand:Y2",
             "cards 0:BG 2:OW 3:Y deck:4 known:B1G2 hand:O1 legtiles:B322 bets:B5 money:2",
             "cards 5:B 6:GO 7:W 9:Y deck:2 known:Y1 hand:B1 legtiles:Y2 money:3"]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--races", type=int, default=40_000)
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--actions", type=int, default=4, help="race actions per position")
    args = parser.parse_args()

    from advisor.cards.advice import after_action
    from advisor.cards.fast import turn_values
    from advisor.cards.odds import as_cards, kernel_state, race_ranks

    start = time.perf_counter()
    turn_values(POSITIONS[1], seed=0)
    print(f"cold (first valuation, kernels compiled or loaded): {time.perf_counter() - start:.2f} s")
    start = time.perf_counter()
    turn_values(POSITIONS[1], seed=0)
    print(f"warm: {time.perf_counter() - start:.3f} s")
    n = args.races
    worst = []
    for text in POSITIONS:
        pos = as_cards(text)
        base = kernel_state(pos)
        ref0 = race_ranks(pos, base, n, args.seed + 1000, "random").sum(axis=0) / n
        big = turn_values(text, seed=args.seed, legs=20_000, races=2_000, verify=0)
        bots = turn_values(text, seed=args.seed)
        print(f"\n{text}")
        print(f"  {'action':<10} {'':4} {'measured (+-2 se)':>34}   {'estimated, 20,000 legs':>34}   {'estimated, bots':>34}")
        for action in [a for a in big.turns.outcomes if a != "reveal"][:args.actions]:
            state, _, _ = after_action(pos, base, action)
            ref = race_ranks(pos, state, n, args.seed + 2000, "random").sum(axis=0) / n - ref0
            se = np.sqrt(2 * (ref0 * (1 - ref0)) / n)
            est = big.turns.outcomes[action][2] - big.turns.final0
            est2 = (bots.turns.outcomes[action][2] - bots.turns.final0) if action in bots.turns.outcomes else est * 0
            for k, what in ((0, "win"), (4, "last")):
                fmt = lambda v: " ".join(f"{x:+.3f}" for x in v)  # noqa: E731
                print(f"  {action:<10} {what:<4} {fmt(ref[:, k]):>34}   {fmt(est[:, k]):>34}   {fmt(est2[:, k]):>34}"
                      f"   (2 se {2 * se[:, k].max():.3f})")
                worst.append(np.abs(est[:, k] - ref[:, k]).max())
    print(f"\nlargest difference, estimate (20,000 legs) against measured: {max(worst):.3f}; "
          f"median {np.median(worst):.3f} (camels B G O W Y in each row)")


if __name__ == "__main__":
    main()
