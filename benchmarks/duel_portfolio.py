"""Bots against ``rival``: paired duels per bot and edition (the portfolio
and margin bots and their one-ingredient forms), and the figures of
(partial) runs.

    python benchmarks/duel_portfolio.py run [--pairs 2000] [--editions second,first]
        [--bots portfolio,portfolio-cov,portfolio-risk,portfolio-end] [--against rival] [--seed 15]
        [--processes P] [--out DIR]
    python benchmarks/duel_portfolio.py read FILE.jsonl[.part] ...
    python benchmarks/duel_portfolio.py mix FILE.jsonl[.part] ...

``run`` plays, for every bot and edition, ``camelup duel BOT rival
--players 4 --games PAIRS --seed S --edition E -o DIR/BOT-E.jsonl`` (4
players, ``rival`` in the three other seats, per-leg dice; ``--against
margin``: ``camelup duel margin BOT ...`` into ``DIR/margin-BOT-E.jsonl``,
A the bot given, B each bot of ``--bots``: e.g. the full bot against
itself less one ingredient) and prints each
duel's paired win-rate and money differences with their 95% intervals;
an interrupted run continues where it stopped (``--resume``), so the
2,000-pair duels can be run in pieces.  The bots (:mod:`advisor.bots`):
``portfolio`` (rival + covariance + risk terms), ``portfolio-cov`` (the
covariance term only), ``portfolio-risk`` (the risk term only),
``portfolio-end`` (exact values in the endgame only); ``margin`` and its
one-ingredient bots ``margin-risk``, ``margin-cov``, ``margin-threat``,
``margin-infer``, ``margin-end`` (docs/user-guide/games.md, The margin bot).

``read`` gives the same figures from the complete pairs of records files
written by ``camelup duel -o`` (also the ``.part`` file of a run still
going or interrupted): the bots, seats and edition are read from the
records, the pairs in the order written.  ``mix``: what each duelist
does, per game, in the duel's seat: its actions of each kind (leg tiles,
pyramid, tiles, winner and loser cards) and how often it finishes in
each place (1 + the players richer: a shared place counts for each).
"""

from __future__ import annotations

import argparse
import json
import math
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

Z95 = 1.959963984540054


def _games(path: str):
    """Yield ``(setup, actions, end)`` of each complete game of a records
    file (also a ``.part`` file: a game cut off at its end is left out)."""
    setup, actions = None, []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            if not line.strip():
                continue
            entry = json.loads(line)
            if entry.get("type") == "setup":
                setup, actions = entry, []
            elif entry.get("type") == "action":
                actions.append(entry)
            elif entry.get("type") == "end" and setup is not None:
                yield setup, actions, entry
                setup = None


def read(path: str) -> dict:
    """The paired figures of the complete pairs in a duel's records file."""
    games = [(setup["bots"], end["winners"], end["money"], setup["edition"])  # bots per seat, ...
             for setup, _, end in _games(path)]
    pairs = []
    for k in range(0, len(games) - 1, 2):
        (bots_a, win_a, money_a, edition), (bots_b, win_b, money_b, _) = games[k], games[k + 1]
        seat = next(s for s in range(len(bots_a)) if bots_a[s] != bots_b[s]) if bots_a != bots_b else (k // 2) % len(bots_a)
        wa = 1 / len(win_a) if seat in win_a else 0.0
        wb = 1 / len(win_b) if seat in win_b else 0.0
        pairs.append((wa, wb, money_a[seat], money_b[seat], bots_a[seat], bots_b[seat], edition))
    n = len(pairs)
    out = {"file": path, "pairs": n}
    if n < 2:
        return out
    out.update(a=pairs[0][4], b=pairs[0][5], edition=pairs[0][6])
    for key, i, j in (("win", 0, 1), ("money", 2, 3)):
        d = [p[i] - p[j] for p in pairs]
        mean = sum(d) / n
        sd = math.sqrt(sum((x - mean) ** 2 for x in d) / (n - 1))
        out[key] = {"a": sum(p[i] for p in pairs) / n, "b": sum(p[j] for p in pairs) / n, "diff": mean,
                    "lo": mean - Z95 * sd / math.sqrt(n), "hi": mean + Z95 * sd / math.sqrt(n)}
    return out


def mix(path: str) -> str:
    """The duelists' actions per game by kind, in the duel's seat."""
    from collections import Counter

    games = [(setup["bots"], [(e["player"], e["action"].split(":")[0]) for e in actions], end["money"])
             for setup, actions, end in _games(path)]
    kinds = ("leg", "pyramid", "tile", "winner", "loser")
    counts = [Counter(), Counter()]
    places = [Counter(), Counter()]
    pairs = len(games) // 2
    for k in range(pairs):
        (bots_a, acts_a, money_a), (bots_b, acts_b, money_b) = games[2 * k], games[2 * k + 1]
        seat = next((s for s in range(len(bots_a)) if bots_a[s] != bots_b[s]), k % len(bots_a))
        for side, acts, money in ((0, acts_a, money_a), (1, acts_b, money_b)):
            counts[side].update(kind for p, kind in acts if p == seat)
            places[side][1 + sum(m > money[seat] for m in money)] += 1  # 1 + the players richer
    if not pairs:
        return f"{path}: no complete pair"
    names = games[0][0], games[1][0]
    seat = next((s for s in range(len(names[0])) if names[0][s] != names[1][s]), 0)
    lines = [f"{path}: {pairs} pairs, actions per game in the duel's seat; its places (1 + the players richer)"]
    for side in (0, 1):
        c = counts[side]
        lines.append(f"  {names[side][seat]:<16}" + "  ".join(f"{kind} {c[kind] / pairs:5.2f}" for kind in kinds)
                     + f"  all {sum(c.values()) / pairs:5.1f}   places "
                     + " ".join(f"{100 * places[side][q] / pairs:.1f}%" for q in range(1, len(names[0]) + 1)))
    return "\n".join(lines)


def show(fig: dict) -> str:
    if fig["pairs"] < 2:
        return f"{fig['file']}: {fig['pairs']} complete pair(s)"
    w, m = fig["win"], fig["money"]
    return (f"{fig['a']} vs {fig['b']}, {fig['edition']}, {fig['pairs']} pairs: win {100 * w['a']:.1f}% vs "
            f"{100 * w['b']:.1f}%, diff {100 * w['diff']:+.1f} points (95% {100 * w['lo']:+.1f} to "
            f"{100 * w['hi']:+.1f}); money {m['a']:.2f} vs {m['b']:.2f}, diff {m['diff']:+.2f} "
            f"({m['lo']:+.2f} to {m['hi']:+.2f})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = parser.add_subparsers(dest="what", required=True)
    run = sub.add_parser("run")
    run.add_argument("--pairs", type=int, default=2000)
    run.add_argument("--editions", default="second,first")
    run.add_argument("--bots", default="portfolio,portfolio-cov,portfolio-risk,portfolio-end")
    run.add_argument("--seed", type=int, default=15)
    run.add_argument("--against", default="rival", help="B of every duel (default rival); else A, the bot as B")
    run.add_argument("--processes", type=int)
    run.add_argument("--out", default="duels")
    rd = sub.add_parser("read")
    rd.add_argument("files", nargs="+")
    mx = sub.add_parser("mix")
    mx.add_argument("files", nargs="+")
    args = parser.parse_args()
    if args.what in ("read", "mix"):
        for path in args.files:
            print(show(read(path)) if args.what == "read" else mix(path))
        return
    from advisor.cli import command as cli

    Path(args.out).mkdir(parents=True, exist_ok=True)
    for edition in args.editions.split(","):
        for bot in args.bots.split(","):
            a, b = (bot, "rival") if args.against == "rival" else (args.against, bot)
            out = Path(args.out) / (f"{bot}-{edition}.jsonl" if args.against == "rival" else f"{a}-{b}-{edition}.jsonl")
            if out.exists():
                print(show(read(str(out))))
                continue
            argv = ["duel", a, b, "--players", "4", "--games", str(args.pairs), "--seed", str(args.seed),
                    "--edition", edition, "-o", str(out)]
            if args.processes:
                argv += ["--processes", str(args.processes)]
            if Path(str(out) + ".part").exists():
                argv.append("--resume")
            print("camelup " + " ".join(argv), flush=True)
            code = cli.main(argv)
            if code:
                sys.exit(code)


if __name__ == "__main__":
    main()
