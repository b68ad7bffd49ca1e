"""``camelup chart`` and ``camelup show``, and the picture files of every
command (``camelup best --chart`` too): the path checked before any work,
the figure, and the file written whole.  matplotlib is imported only when
a figure is drawn."""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

from advisor._tools.files import atomic_output, check_input, check_output
from advisor import inputs as reader
from advisor import plotting
from advisor.cli.args import cards_text, position_arg
from advisor.errors import AdvisorError

__all__: list[str] = []

#: Why this module imports inside its functions (tests/test_imports_top.py checks it).
LAZY_IMPORTS = "the command line loads a command's engine only when the command runs: camelup --help stays fast"

_PICTURES = (".png", ".svg", ".pdf")


def figure(size):
    """A new matplotlib figure of ``size`` inches, laid out to fit."""
    from matplotlib.figure import Figure

    return Figure(figsize=size, layout="constrained")


def picture_path(path: str, inputs=(), overwrite: bool = False) -> str:
    """``path`` if it can be written and its extension names a picture
    format (checked before any work is done); an existing file only with
    ``overwrite``."""
    check_output(path, suffixes=_PICTURES, what="picture file", inputs=inputs, overwrite=overwrite)
    return path


def save_picture(fig, path: str) -> None:
    """Save ``fig`` to ``path``, which appears only when complete."""
    with atomic_output(path, "picture file") as tmp:
        fig.savefig(tmp, format=Path(path).suffix.lower()[1:], dpi=120)
    print(f"Wrote {path}", file=sys.stderr)


def cmd_chart(args: argparse.Namespace) -> int:
    """``camelup chart``: the leg, win and lose curves of one recorded game."""
    from advisor.cards.record import iter_cards_records
    from advisor.game import iter_records

    picture_path(args.output, inputs=[args.record], overwrite=args.overwrite)
    check_input(args.record, "game records")
    count, chosen = 0, None
    games = iter_cards_records if reader.record_kind(args.record) == "cards-records" else iter_records
    for line, record in games(args.record):  # one game in memory at a time
        if count == args.game:
            chosen = line, record
            break
        count += 1
    if chosen is None:
        raise AdvisorError(f"--game {args.game}: {args.record} holds {count} game(s)")
    line, record = chosen
    if record[-1].get("type") != "end":
        raise AdvisorError(f"{args.record}:{line}: game {args.game} has no end line: the chart needs a whole game")
    try:
        frame = plotting.game_odds(record, precision=args.precision)
    except AdvisorError as exc:
        raise AdvisorError(f"{args.record}:{line}: game {args.game} is not a valid record: {exc}") from None
    fig = figure((11, 10))
    for ax, what in zip(fig.subplots(3, 1, sharex=True), ("leg", "win", "lose")):
        plotting.plot_game_odds(record, ax, what=what, frame=frame)
    save_picture(fig, args.output)
    return 0


def cmd_show(args: argparse.Namespace) -> int:
    """``camelup show``: a picture of the board (or Camel Up Cards track) with its leg odds."""
    picture_path(args.output, overwrite=args.overwrite)
    text = cards_text(args)
    if text is not None:
        position = reader.read_input(text, kind="cards").value
        fig = figure((12, 3.8))
        plotting.plot_cards_board(position, fig.add_subplot())
        save_picture(fig, args.output)
        return 0
    position = position_arg(args)
    fig = figure((12, 3.8))
    plotting.plot_board(position, fig.add_subplot())
    save_picture(fig, args.output)
    return 0
