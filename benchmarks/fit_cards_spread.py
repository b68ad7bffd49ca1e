"""The spread of the legs to come in Camel Up Cards, from game records.

The margin bot (``advisor.cards.bots.MarginCardsBot``) values an outcome in
which the race goes on by the normal chance of its margin against the
spread of what the rest of the game changes between two players' money
(``advisor.cards.endgame.SPREAD``).  This script measures it: for each
game and each leg after which the race went on, the change of the money
difference between the two bots named by ``--pair`` from that leg's end
to the game's end (the later legs and the overall cards); per leg number,
the number of legs, the mean change and its standard deviation.

    python benchmarks/fit_cards_spread.py RECORDS.jsonl --pair shark,greedy [--json]

The records are those of ``camelup tournament --edition cards ... -o
RECORDS.jsonl`` (each game's setup line names the bot in each seat); each
game must seat each bot of the pair exactly once.
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))


def leg_end_money(record: list[dict]) -> list[list[int]]:
    """Each player's money at the end of every leg after which the race
    went on (the money of the leg's last action, its scoring included)."""
    ends, last = [], None
    for line in record:
        if line["type"] == "deal" and line["leg"] > 1:
            ends.append(last["money"])
        elif line["type"] == "action":
            last = line
    return ends


def spreads(records: list, pair: tuple[str, str]) -> list[dict]:
    """Per leg number: legs, mean and standard deviation of the change of
    ``money[a] - money[b]`` from the leg's end to the game's end."""
    a, b = pair
    changes: dict[int, list[int]] = {}
    for record in records:
        bots = record[0].get("bots") or []
        if bots.count(a) != 1 or bots.count(b) != 1:
            raise ValueError(f"a game seats {bots}: the pair {a},{b} must each sit once")
        i, j = bots.index(a), bots.index(b)
        final = record[-1]["money"]
        for leg, money in enumerate(leg_end_money(record), 1):
            changes.setdefault(leg, []).append((final[i] - final[j]) - (money[i] - money[j]))
    rows = []
    for leg in sorted(changes):
        v = changes[leg]
        mean = sum(v) / len(v)
        sd = math.sqrt(sum((x - mean) ** 2 for x in v) / (len(v) - 1)) if len(v) > 1 else float("nan")
        rows.append({"leg": leg, "legs": len(v), "mean": mean, "sd": sd})
    return rows


def main() -> None:
    from advisor.cards.record import iter_cards_records
    from advisor.errors import AdvisorError

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records")
    parser.add_argument("--pair", default="shark,greedy", help="the two bots whose money difference is followed")
    parser.add_argument("--json", action="store_true")
    args = parser.parse_args()
    pair = tuple(b.strip() for b in args.pair.split(","))
    if len(pair) != 2 or not all(pair) or pair[0] == pair[1]:
        print(f"fit_cards_spread: --pair {args.pair!r}: name two different bots, A,B", file=sys.stderr)
        sys.exit(2)
    try:
        rows = spreads([record for _, record in iter_cards_records(args.records)], pair)
    except (AdvisorError, ValueError) as exc:
        print(f"fit_cards_spread: {exc}", file=sys.stderr)
        sys.exit(2)
    if args.json:
        print(json.dumps(rows))
        return
    print(f"{args.records}: change of {pair[0]}'s money less {pair[1]}'s from a leg's end to the game's end")
    print(f"{'after leg':>9} {'legs':>6} {'mean':>7} {'sd':>7}")
    for row in rows:
        print(f"{row['leg']:>9} {row['legs']:>6} {row['mean']:7.2f} {row['sd']:7.2f}")


if __name__ == "__main__":
    main()
