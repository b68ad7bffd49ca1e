"""Full advice (every legal action valued): cold and warm timings.

    python benchmarks/bench_advice.py [--quick]

Cases, each on 6-dice second-edition leg starts (every tile placement
valued, ~2 x 10-13 exact enumerations with landing tracking):
* leg tiles only: the player holds leg tiles and no overall cards (so no
  race odds are needed);
* default hand: all five overall cards in hand (one race-odds run at the
  default precision values the winner/loser cards);
* cards on the piles: the player has overall cards on both piles, so every
  tile placement also needs race odds with and without it (common random
  numbers, default precision).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, print_cold, timed  # noqa: E402

sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--quick", action="store_true")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args()
    import numba

    from advisor import best_moves, setup_position
    from advisor.rules.state import GameState, PileCard, PlayerState

    rng = np.random.default_rng(args.seed)
    print(f"camelup-advisor advice benchmark: numba {numba.__version__}, "
          f"{numba.config.NUMBA_NUM_THREADS} cores, seed {args.seed}")
    print_cold(timed("from advisor import best_moves\nbest_moves('1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx', seed=1)"),
               "best_moves on the example position")

    n = 5 if args.quick else 20
    boards = [str(setup_position("second", rng)) + " legtiles:B322,G322" for _ in range(n)]
    others = [PlayerState()] * 3

    def state(board: str, case: str) -> GameState:
        tiles = (("B", 5), ("G", 5))
        if case == "leg tiles only":
            return GameState(board, (PlayerState(leg_tiles=tiles, overall_cards=""), *others))
        if case == "default hand":
            return GameState(board, (PlayerState(leg_tiles=tiles), *others))
        return GameState(board, (PlayerState(leg_tiles=tiles, overall_cards="GPR"), *others),
                         winner_pile=(PileCard(1), PileCard(0, "B")), loser_pile=(PileCard(0, "Y"),))

    best_moves(state(boards[0], "cards on the piles"), seed=0)
    print(f"\nWarm, {n} game-start positions, median (max) wall time per full advice:")
    targets = {"leg tiles only": 0.1, "default hand": None, "cards on the piles": 3.0}
    for case, target in targets.items():
        times, actions = [], 0
        for i, board in enumerate(boards):
            st = state(board, case)
            t0 = time.perf_counter()
            frame = best_moves(st, seed=i)
            times.append(time.perf_counter() - t0)
            actions = len(frame)
        med = statistics.median(times)
        verdict = "" if target is None else f"   target < {target} s: {'met' if med < target else 'MISSED'}"
        print(f"  {case:<20} {med:7.3f} s ({max(times):.3f}), {actions} actions{verdict}")


if __name__ == "__main__":
    main()
