"""``camelup play``, ``camelup serve`` and ``camelup warmup``: a game at the
terminal (the board games and Camel Up Cards), the web page, and the
kernels both load compiled ahead."""

from __future__ import annotations

import argparse
import sys
import time

from advisor.cli.args import play_seats, rules_arg
from advisor.errors import AdvisorError
from advisor.kernels._where import cache_root
from advisor.rules.editions import get_edition
from advisor.inputs import record_kind

__all__: list[str] = []

#: Why this module imports inside its functions (tests/test_imports_top.py checks it).
LAZY_IMPORTS = "the command line loads a command's engine only when the command runs: camelup --help stays fast"


def cmd_play(args: argparse.Namespace) -> int:
    """``camelup play``: a game at the terminal, every option checked before it starts."""
    from advisor.bots.policies import BOTS
    from advisor.cli.table import load_game, play

    seats = None if args.seats is None else [x.strip() for x in args.seats.split(",") if x.strip()]
    if args.edition == "cards" or (args.load is not None and record_kind(args.load) == "cards-records"):
        return _cmd_play_cards(args, seats)
    for seat in seats or ():
        if seat != "human" and seat not in BOTS:
            raise AdvisorError(f"unknown seat {seat!r}: use human or a bot ({', '.join(BOTS)})")
    record = None
    if args.load is not None:  # everything is checked before the game prints anything
        for option in ("edition", "seed", "rules"):
            if getattr(args, option) is not None:
                raise AdvisorError(f"--{option} does not apply with --load: the saved game gives it")
        record = load_game(args.load, args.game or 0)
    else:
        if args.game is not None:
            raise AdvisorError("--game applies with --load only")
        seats = seats or play_seats(cards=False)
        problem = get_edition(args.edition or "second").players_problem(len(seats))
        if problem:
            raise AdvisorError(problem)
    edition = args.edition or "second"
    play(seats, edition=rules_arg(args, edition) or edition, seed=args.seed, record=record,
         autosave=args.autosave, source=args.load, **_rehearsal(args))
    return 0


def _cmd_play_cards(args: argparse.Namespace, seats: list[str] | None) -> int:
    """``camelup play --edition cards`` (or --load of a Camel Up Cards record)."""
    from advisor.cli.table_cards import load_cards_game, play_cards

    if args.rules is not None:
        raise AdvisorError("--rules applies to the board games (first and second editions), not to Camel Up Cards")
    record = None
    if args.load is not None:  # everything is checked before the game prints anything
        for option in ("edition", "seed"):
            if getattr(args, option) is not None:
                raise AdvisorError(f"--{option} does not apply with --load: the saved game gives it")
        record = load_cards_game(args.load, args.game or 0)
    elif args.game is not None:
        raise AdvisorError("--game applies with --load only")
    play_cards(seats or (None if record else play_seats(cards=True)), seed=args.seed,
               record=record, autosave=args.autosave, source=args.load, **_rehearsal(args))
    return 0


def _rehearsal(args: argparse.Namespace) -> dict:
    """A first run (kernels cold): the game compiles them behind the first
    human prompt (:class:`advisor.cli.table.Rehearsal`); set by the command
    line's compile step."""
    return {"rehearse": getattr(args, "rehearse", False), "notice": getattr(args, "notice", None)}


def cmd_warmup(args: argparse.Namespace) -> int:
    """``camelup warmup``: every kernel compiled into the cache, with the time taken."""
    from advisor.warm import GROUPS, split_compile, split_plan, warmup

    print(f"Compiling kernels (cached for later runs in {cache_root()}):", flush=True)
    start = time.perf_counter()
    parts = split_plan([g.name for g in GROUPS])
    if parts is not None:  # on two cores at once; the groups below then load from the cache
        print(f"  in two processes at once: {', '.join(parts[0])} | {', '.join(parts[1])}", flush=True)
        report = split_compile(parts)
        print(f"  {'both halves':<28} {report['seconds']:7.2f} s", flush=True)
    warmup(verbose=True, progress=sys.stderr.isatty())
    print(f"Done in {time.perf_counter() - start:.1f} s.")
    return 0


def cmd_serve(args: argparse.Namespace) -> int:
    """``camelup serve``: the web page, until stopped."""
    from advisor.web.server import serve

    serve(args.host, args.port, open_browser=args.open, workers=args.workers)
    return 0
