"""The figures of a Camel Up Cards bot tournament, from its records: the
table (win rate with its 95% Wilson interval, mean final money with its 95%
interval, per bot), what each bot did (``advisor.cards.record.bot_actions``)
and the seat order between the two bots that won most (:func:`by_gap`),
written as the JSON the notebook ``notebooks/cards_bots.ipynb`` reads.

    python benchmarks/cards_tournament_figures.py RECORDS.jsonl [-o notebooks/data/cards_tournament.json]
        [--command "camelup tournament ..."]

The records are those of ``camelup tournament --edition cards ... -o
RECORDS.jsonl`` (every game's setup line names the bot in each seat). The
output is written beside and renamed when complete.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

Z95 = 1.959963984540054


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The 95% Wilson score interval of a proportion ``wins / n``."""
    p = wins / n
    centre = (p + Z95 ** 2 / (2 * n)) / (1 + Z95 ** 2 / n)
    half = Z95 * math.sqrt(p * (1 - p) / n + Z95 ** 2 / (4 * n * n)) / (1 + Z95 ** 2 / n)
    return centre - half, centre + half


def win_share(end: dict, seat: int) -> float:
    """The seat's share of the win in a game's end line (a first place
    shared by ``k`` players counts ``1/k``)."""
    return (seat in end["winners"]) / len(end["winners"])


def table(records: list) -> list[dict]:
    """Per bot: seat-games, wins (a shared first place counts ``1/k``), win
    rate and its interval, mean money and its interval."""
    seen: dict[str, dict] = {}
    for record in records:
        bots, end = record[0]["bots"], record[-1]
        for seat, bot in enumerate(bots):
            row = seen.setdefault(bot, {"games": 0, "wins": 0.0, "money": []})
            row["games"] += 1
            row["money"].append(end["money"][seat])
            row["wins"] += win_share(end, seat)
    rows = []
    for bot, row in seen.items():
        n, money = row["games"], row["money"]
        mean = sum(money) / n
        sd = math.sqrt(sum((m - mean) ** 2 for m in money) / (n - 1)) if n > 1 else float("nan")
        lo, hi = wilson(row["wins"], n)
        rows.append({"bot": bot, "games": n, "wins": row["wins"], "win_rate": row["wins"] / n, "win_lo": lo,
                     "win_hi": hi, "money": mean, "money_lo": mean - Z95 * sd / math.sqrt(n),
                     "money_hi": mean + Z95 * sd / math.sqrt(n)})
    return sorted(rows, key=lambda r: -r["win_rate"])


def by_gap(records: list, a: str, b: str) -> list[dict]:
    """The seat order between bots ``a`` and ``b`` (each once per game): per
    gap (``b`` sits ``gap`` seats after ``a``, clockwise: 1, ``b`` plays
    right after ``a``), the games and each one's win rate with its 95%
    Wilson interval (a shared first place counting ``1/k``)."""
    seen: dict[int, list] = {}
    for record in records:
        bots, end = record[0]["bots"], record[-1]
        if bots.count(a) != 1 or bots.count(b) != 1:
            continue
        i, j = bots.index(a), bots.index(b)
        row = seen.setdefault((j - i) % len(bots), [0, 0.0, 0.0])
        row[0] += 1
        row[1] += win_share(end, i)
        row[2] += win_share(end, j)
    out = []
    for gap in sorted(seen):
        n, wa, wb = seen[gap]
        (alo, ahi), (blo, bhi) = wilson(wa, n), wilson(wb, n)
        out.append({"gap": gap, "games": n, a: wa / n, f"{a}_lo": alo, f"{a}_hi": ahi, b: wb / n, f"{b}_lo": blo,
                    f"{b}_hi": bhi})
    return out


def main() -> None:
    from advisor.cards.record import bot_actions, iter_cards_records

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records")
    parser.add_argument("-o", "--output", default="notebooks/data/cards_tournament.json")
    parser.add_argument("--command", default="", help="the command that played the games (kept in the output)")
    args = parser.parse_args()
    from advisor.errors import AdvisorError

    try:
        records = [record for _, record in iter_cards_records(args.records)]
        actions = bot_actions(records)
    except AdvisorError as exc:
        print(f"cards_tournament_figures: {exc}", file=sys.stderr)  # one line, nothing written
        sys.exit(2)
    rows = table(records)
    out = {"command": args.command, "games": len(records), "table": rows,
           "actions": actions.reset_index().to_dict(orient="list")}
    if len(rows) >= 2:  # the seat order between the two bots that won most
        a, b = rows[0]["bot"], rows[1]["bot"]
        out["order"] = {"bots": [a, b], "gaps": by_gap(records, a, b)}
    path = Path(args.output)
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(json.dumps(out, indent=1) + "\n", encoding="utf-8")
    os.replace(tmp, path)
    for row in out["table"]:
        print(f"{row['bot']:>10}  {row['games']} seat-games  win {100 * row['win_rate']:.1f}% "
              f"({100 * row['win_lo']:.1f}-{100 * row['win_hi']:.1f})  money {row['money']:.2f} "
              f"({row['money_lo']:.2f}-{row['money_hi']:.2f})")
    print(actions.round(2).to_string())
    if "order" in out:
        a, b = out["order"]["bots"]
        for row in out["order"]["gaps"]:
            print(f"{b} {row['gap']} seat(s) after {a}: {row['games']} games, {a} {100 * row[a]:.1f}% "
                  f"({100 * row[a + '_lo']:.1f}-{100 * row[a + '_hi']:.1f}), {b} {100 * row[b]:.1f}% "
                  f"({100 * row[b + '_lo']:.1f}-{100 * row[b + '_hi']:.1f})")
    print(f"written: {path}")


if __name__ == "__main__":
    main()
