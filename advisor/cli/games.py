"""``camelup simulate``, ``camelup tournament`` and ``camelup duel``: games
between bots, their records written, their results tabled, or two bots
compared on paired games.

``camelup bot`` (one bot's move) is :func:`advisor.cli.bot.run_bot`.
"""

from __future__ import annotations

import argparse

from advisor._tools.intervals import too_few
from advisor._tools.jsonio import dumps
from advisor.cli.args import bots_arg, edition_arg, engine_kwargs
from advisor.cli.duel import run_duel
from advisor.errors import AdvisorError

__all__: list[str] = []

#: Why this module imports inside its functions (tests/test_imports_top.py checks it).
LAZY_IMPORTS = "the command line loads a command's engine only when the command runs: camelup --help stays fast"


def cmd_simulate(args: argparse.Namespace) -> int:
    """``camelup simulate``: games between bots written to ``-o``, with the average game length."""
    from advisor.simulate.games import simulate_to_file

    bots = bots_arg(args)
    edition = edition_arg(args)
    totals = {"legs": 0, "turns": 0}

    def count(index: int, end: dict) -> None:
        totals["legs"] += end["legs"]
        totals["turns"] += end["turns"]

    games = simulate_to_file(bots, args.games, args.output, edition=edition, seed=args.seed,
                             processes=args.processes, resume=args.resume, on_game=count, overwrite=args.overwrite,
                             **engine_kwargs(args))
    print(f"{games} games written to {args.output}: {totals['legs'] / games:.2f} legs and "
          f"{totals['turns'] / games:.1f} turns per game on average.")
    return 0


def cmd_tournament(args: argparse.Namespace) -> int:
    """``camelup tournament``: each seat entry's win rate and money, with 95% intervals."""
    from advisor.simulate.games import Standings, simulate, simulate_to_file

    bots = bots_arg(args)
    edition = edition_arg(args)
    if args.resume and not args.output:
        raise AdvisorError("--resume continues a run written with -o FILE: give -o")
    rules = getattr(edition, "rules_json", lambda: None)()
    table = Standings(bots, seating=args.seating)
    if args.output:
        simulate_to_file(bots, args.games, args.output, edition=edition, seed=args.seed,
                         processes=args.processes, rotate=args.seating, resume=args.resume, on_game=table.add,
                         overwrite=args.overwrite, **engine_kwargs(args))
    else:
        for i, record in enumerate(simulate(bots, args.games, edition=edition, seed=args.seed,
                                            processes=args.processes, rotate=args.seating, **engine_kwargs(args))):
            table.add(i, record[-1])
    frame = table.frame(edition=args.edition, seed=args.seed)
    if args.json:
        out = {"games": args.games, "seed": args.seed, "edition": args.edition}
        if rules is not None:
            out["rules"] = rules
        print(dumps({**out, "seating": args.seating, "bots": frame.to_dict(orient="records")}))
        return 0
    variant = "" if rules is None else f", {rules['name']} rules"
    game = "Camel Up Cards" if args.edition == "cards" else f"{args.edition} edition"
    seats = "seats rotated over every cyclic order" if args.seating == "orders" else "seats rotated"
    print(f"{args.games} games, {args.players} players, {game}{variant}, {seats}, "
          f"seed {args.seed}:")
    if too_few(args.games, "games"):
        print(f"Warning: {too_few(args.games, 'games' if args.games != 1 else 'game')}.")
    print(f"{'seat entry':<14}{'win rate':>10}   95% interval   {'money':>7}   95% interval")
    for k, row in frame.iterrows():
        print(f"{k}:{row['bot']:<12}{100 * row['win_rate']:9.1f}%   "
              f"{_interval(100 * row['win_lo'], 100 * row['win_hi'], '4.1f', '%')}"
              f"   {row['money']:7.2f}   {_interval(row['money_lo'], row['money_hi'], '.2f')}")
    return 0


def _interval(lo: float, hi: float, spec: str, unit: str = "") -> str:
    """``lo-hi`` for a table, ``-`` where there is no interval (NaN)."""
    if lo != lo or hi != hi:
        return "-"
    return f"{lo:{spec}}-{hi:{spec}}{unit}"


def cmd_duel(args: argparse.Namespace) -> int:
    """``camelup duel``: :func:`advisor.cli.duel.run_duel`, its engine options checked first."""
    engine_kwargs(args)
    return run_duel(args, edition_arg(args))
