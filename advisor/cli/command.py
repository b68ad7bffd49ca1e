"""The ``camelup`` command: :func:`main` reads the command line with the
parser of :mod:`advisor.cli.parser` and runs the command's handler from
:data:`COMMANDS`.

``camelup --help`` and ``--version`` import nothing heavy (no numba, pandas
or matplotlib): subcommands import what they need when they run.  Bad input
prints one line to stderr and exits with status 2; nothing is computed.

The handlers, by theme: :mod:`advisor.cli.analysis` (odds, best, batch),
:mod:`advisor.cli.review`, :mod:`advisor.cli.games` (simulate, tournament,
duel), :mod:`advisor.cli.bot`, :mod:`advisor.cli.pictures` (chart, show)
and :mod:`advisor.cli.interactive` (play, serve, warmup); the readers of the
arguments they share are in :mod:`advisor.cli.args`.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import sys

from advisor._tools.files import claim
from advisor.cli.analysis import cmd_batch, cmd_best, cmd_odds
from advisor.cli.args import bots_arg, play_seats
from advisor.cli.bot import run_bot
from advisor.cli.games import cmd_duel, cmd_simulate, cmd_tournament
from advisor.cli.interactive import cmd_play, cmd_serve, cmd_warmup
from advisor.cli.parser import UsageError, build_parser, parse
from advisor.cli.pictures import cmd_chart, cmd_show
from advisor.cli.review import run_review
from advisor.errors import AdvisorError, Interrupted
from advisor.inputs import input_kind

__all__ = ["main"]

#: Why this module imports inside its functions (tests/test_imports_top.py checks it).
LAZY_IMPORTS = "the command line loads the kernels' compile check only when a command runs: camelup --help stays fast"

#: The handler of every command (the parser's commands are
#: :data:`advisor.cli.parser.COMMAND_PARSERS`): it returns the exit status.
COMMANDS = {
    "odds": cmd_odds,
    "best": cmd_best,
    "review": run_review,
    "simulate": cmd_simulate,
    "tournament": cmd_tournament,
    "duel": cmd_duel,
    "bot": run_bot,
    "batch": cmd_batch,
    "chart": cmd_chart,
    "show": cmd_show,
    "play": cmd_play,
    "serve": cmd_serve,
    "warmup": cmd_warmup,
}


def main(argv: list[str] | None = None) -> int:
    """Run the command line; returns the exit status."""
    parser = build_parser()
    argv = sys.argv[1:] if argv is None else list(argv)
    try:
        args = parse(parser, argv)
    except UsageError as exc:
        print(str(exc), file=sys.stderr)
        return 2
    except SystemExit as exc:  # --help, --version
        return int(exc.code or 0)
    if args.command is None:
        parser.print_help()
        return 0
    problem = _numba_environment_problem()
    if problem:
        print(f"camelup: error: {problem}", file=sys.stderr)
        return 2
    try:
        with _claims(args), _compile_notice(args) as notice:
            _compile_first(notice, args)
            return COMMANDS[args.command](args)
    except AdvisorError as exc:
        print(f"camelup: error: {exc}", file=sys.stderr)
        return 2
    except Interrupted as exc:  # the command cleaned up and says what it kept
        print(f"\ncamelup: interrupted: {exc}", file=sys.stderr)
        return 130
    except KeyboardInterrupt:  # nothing worth keeping was under way
        print("\ncamelup: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:  # the reader (e.g. `| head`) stopped reading: not an error
        os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())
        return 0


_THREADING_LAYERS = ("default", "safe", "threadsafe", "forksafe", "tbb", "omp", "workqueue")


def _numba_environment_problem(environ=None) -> str | None:
    """The numba settings of the environment that would break a command
    (checked before numba is imported: numba itself answers with a long
    traceback), as one line naming the variable and what it accepts."""
    env = os.environ if environ is None else environ
    threads = env.get("NUMBA_NUM_THREADS")
    if threads is not None and threads.strip() != "":
        text = threads.strip()
        if not (text.isascii() and text.isdigit()) or int(text) < 1:
            return (f"NUMBA_NUM_THREADS={threads[:20]!r}: must be a whole number of threads, 1 or more "
                    f"(this machine has {os.cpu_count()} cores), or unset")
    layer = env.get("NUMBA_THREADING_LAYER")
    if layer is not None and layer.strip() != "" and layer.strip().lower() not in _THREADING_LAYERS:
        return (f"NUMBA_THREADING_LAYER={layer[:20]!r}: must be one of {', '.join(_THREADING_LAYERS)}, or unset")
    disable = env.get("NUMBA_DISABLE_JIT")
    if disable is not None and disable.strip() not in ("", "0"):
        return (f"NUMBA_DISABLE_JIT={disable[:20]!r}: the kernels need numba's compiler (pure Python would take "
                "hours): set it to 0 or unset it")
    return None


def _claims(args: argparse.Namespace):
    """Every file the command writes (-o, --chart, --autosave), claimed for
    this run from the start (:func:`advisor._tools.files.claim`): a second run on
    one of them is refused in one line naming this run's pid."""
    stack = contextlib.ExitStack()
    for option in ("output", "chart", "autosave"):
        path = getattr(args, option, None)
        if path:
            with contextlib.ExitStack() as undo:  # a refusal releases the files claimed so far
                undo.push(stack)
                stack.enter_context(claim(path))
                undo.pop_all()
    return stack


def _compile_notice(args: argparse.Namespace):
    """Says on stderr while kernels compile (the first run after an install,
    with the time the command's kernels usually take); nothing otherwise."""
    from advisor.compiling import CompileNotice
    from advisor.warm import forms, needs

    if args.command == "warmup":  # reports its own progress
        return contextlib.nullcontext()
    position = " ".join(getattr(args, "position", None) or [])
    bots = (getattr(args, "bots", None) or getattr(args, "seats", None) or "").split(",")
    if args.command == "duel":
        bots = [args.a, args.b, *(args.field or "rival").split(",")]
    elif args.command == "bot":
        bots = [args.name]
    race = getattr(args, "race", True) and not getattr(args, "leg_only", False)
    advice = getattr(args, "advice", False) or getattr(args, "moves", False)
    cards = input_kind(position) == "cards" or getattr(args, "edition", None) == "cards"
    if not any(b.strip() for b in bots):
        bots = _default_seats(args, cards)
    options = dict(cards=cards, race=race, advice=advice, samples=getattr(args, "samples", None) is not None,
                   bots=[b.strip() for b in bots if b.strip()])
    return CompileNotice(needs(args.command, **options),
                         forms=forms(args.command, workers=_on_workers(args), **options))


def _compile_first(notice, args: argparse.Namespace) -> None:
    """A first run on 2+ cores: the kernels the command needs compiled in
    two processes at once, before it starts (:func:`advisor.warm.compile_first`);
    the command then loads them from the cache.  ``play`` starts at once
    instead: its kernels compile behind the first prompt while the player
    reads the table (``args.rehearse``; :class:`advisor.cli.table.Rehearsal`)."""
    args.rehearse, args.notice = False, notice
    if notice is None:
        return
    from advisor.warm import cold_groups, compile_first

    if args.command == "play":
        args.rehearse = bool(cold_groups(notice.groups))
        if args.rehearse:  # what compiles before the table shows takes seconds: no estimate of the whole
            notice.seconds = 0.0
        return
    compile_first(notice)


def _default_seats(args: argparse.Namespace, cards: bool) -> list[str]:
    """The seats of a game whose command line names none: the default field
    of simulate and tournament (:func:`advisor.cli.args.bots_arg`), and of
    play (a human, the valuing bot, heuristic, random)."""
    if args.command in ("simulate", "tournament"):
        try:
            return bots_arg(args)
        except AdvisorError:  # refused by the command itself, in one line
            return []
    if args.command == "play":
        return play_seats(cards)
    return []


def _on_workers(args: argparse.Namespace) -> bool:
    """Whether the command runs its games or reviews on local worker
    processes, which first compile whole kernel groups in this process
    (one game, one reviewed game or ``--processes 1`` run here and compile
    only what they call)."""
    if args.command not in ("simulate", "tournament", "duel", "review"):
        return False
    if getattr(args, "engine", "local") != "local" or getattr(args, "processes", None) == 1:
        return False
    if args.command == "review":
        return getattr(args, "game", None) is None
    return args.command == "duel" or (getattr(args, "games", None) or 0) > 1


if __name__ == "__main__":  # pragma: no cover
    sys.exit(main())
