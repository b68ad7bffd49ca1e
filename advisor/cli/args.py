"""The readers of the arguments the ``camelup`` commands share: each turns
an option (or a few checked together) into what the command works on, and
refuses a bad one with one line (:class:`advisor.errors.AdvisorError`).

Which input a position argument is (a board string, a Camel Up Cards
position, a game state file, a file of game records) and the input read
come from :mod:`advisor.inputs`, the reader the web page uses too.

Nothing heavy is imported here: the board and game state readers are plain
Python.
"""

from __future__ import annotations

import argparse
import sys

from advisor import EXAMPLE_POSITION
from advisor import inputs as reader
from advisor._tools.jsonio import MAX_BYTES, loads
from advisor.errors import AdvisorError
from advisor.rules.editions import parse_rules_text, rules_from_json
from advisor.rules.state import DEFAULT_PLAYERS, GameState
from advisor.present.jsonout import board_assumptions

__all__: list[str] = []


def rules_arg(args: argparse.Namespace, edition: str):
    """The rule variant of ``--rules`` for ``edition`` (``None`` without
    the option): a JSON file, or inline ``key=value`` pairs."""
    source = getattr(args, "rules", None)
    if source is None:
        return None
    if source.endswith(".json") or reader.is_file(source):
        try:
            with open(source, "rb") as fh:
                data = fh.read(MAX_BYTES + 1)
        except OSError as exc:
            raise AdvisorError(f"--rules {source}: cannot read ({exc.strerror})") from None
        except ValueError:  # a NUL character in the name
            raise AdvisorError(f"--rules {source!r}: not a valid file name") from None
        return rules_from_json(edition, loads(data, source))
    return rules_from_json(edition, parse_rules_text(source))


def _board_edition(text: str) -> str:
    """The edition a board string names (its ``first`` token), else ``second``."""
    return "first" if "first" in text.split() else "second"


def position_arg(args: argparse.Namespace):
    """The board position of ``position`` (the built-in example, said so, without one), with
    the rules of ``--rules``."""
    text = " ".join(args.position) if args.position else None
    if text is None:
        if not args.json:
            print(f"No position given: analysing the built-in example '{EXAMPLE_POSITION}'.\n")
        else:
            print(f"camelup: no position given: analysing the built-in example '{EXAMPLE_POSITION}'", file=sys.stderr)
        text = EXAMPLE_POSITION
    return reader.read_input(text, kind="board", rules=rules_arg(args, _board_edition(text))).value


def position_kind(args: argparse.Namespace) -> str:
    """The kind of input of the ``position`` words (:func:`advisor.inputs.input_kind`;
    one word may name a file)."""
    return reader.input_kind(" ".join(args.position), files=len(args.position) == 1)


def cards_text(args: argparse.Namespace) -> str | None:
    """The position text if it is a Camel Up Cards position."""
    text = " ".join(args.position) if args.position else ""
    if reader.input_kind(text) == "cards":
        if getattr(args, "rules", None) is not None:
            raise AdvisorError("--rules applies to the board games (first and second editions), not to Camel Up Cards")
        return text
    if getattr(args, "others", None) is not None:
        raise AdvisorError("--others applies to Camel Up Cards positions only")
    return None


def state_arg(args: argparse.Namespace, kind: str):
    """A GameState from a JSON file (``kind`` ``state``) or a board string
    (``board``), and the defaults used."""
    text = " ".join(args.position)
    if kind == "state":
        if args.players is not None:
            raise AdvisorError("--players applies to a bare board string, not to a game state file")
        state = reader.read_input(text, kind="state").value
        rules = rules_arg(args, state.rules.name)
        if rules is not None and rules != state.rules:
            if not state.rules.is_standard:
                raise AdvisorError(f"--rules: the game state {text} gives its own rules ('{state.rules.variant}'); "
                                   "give the rules in one place")
            state = GameState.from_json({**state.to_json(), "rules": rules.rules_json()})
        return state, []

    position = position_arg(args)
    n = args.players or DEFAULT_PLAYERS
    state = GameState.from_board(position, players=n)
    return state, board_assumptions(n, args.player, position.rules)


def edition_arg(args: argparse.Namespace):
    """``--edition``, or its variant given by ``--rules``."""
    if args.edition == "cards":
        if args.rules is not None:
            raise AdvisorError("--rules applies to the board games (first and second editions), not to Camel Up Cards")
        return args.edition
    return rules_arg(args, args.edition) or args.edition


_DEFAULT_BOTS = {"cards": ("greedy", "heuristic")}


def play_seats(cards: bool) -> list[str]:
    """The seats of ``camelup play`` when none are named: a human, the
    valuing bot of the game (``advisor``; Camel Up Cards: ``greedy``),
    heuristic and random."""
    return ["human", "greedy" if cards else "advisor", "heuristic", "random"]


def bots_arg(args: argparse.Namespace) -> list[str]:
    """``--bots``, one per seat of ``--players`` (a default field without it)."""
    if args.bots is None:
        # the default field fits any player count: the two named bots, random in the other seats
        lead = _DEFAULT_BOTS.get(args.edition, ("advisor", "heuristic"))
        return [*lead[:args.players], *["random"] * max(0, args.players - len(lead))]
    bots = [b.strip() for b in args.bots.split(",") if b.strip()]
    if len(bots) != args.players:
        raise AdvisorError(f"--bots names {len(bots)} bots for {args.players} players: give one per seat")
    return bots


def engine_kwargs(args: argparse.Namespace) -> dict:
    """``--engine``, ``--scheduler`` and ``--dice``, checked together."""
    if args.engine == "dask":
        if not args.scheduler:
            raise AdvisorError("--engine dask needs --scheduler ADDRESS")
        if args.processes is not None:
            raise AdvisorError("--processes applies to --engine local only")
    elif args.scheduler:
        raise AdvisorError("--scheduler applies to --engine dask only")
    out = {"engine": args.engine, "scheduler": args.scheduler}
    if getattr(args, "dice", "game") != "game":
        out["dice"] = args.dice
    return out
