"""The board string of docs/notation.md: its grammar, read and written.

:func:`read_board` turns a board string into the values a
:class:`~advisor.rules.position.Position` is built from (checking what the
tokens themselves can get wrong: an unknown token, a value given twice,
digits, a leg tile stack that cannot be left of the edition's); the
position checks everything else when it is built.  :func:`write_board`
gives the canonical string: the edition token only for ``first``, stacks by
space, tiles by space, ``dice:`` only mid-leg (die letters in edition order,
grey die last), ``legtiles:`` only for colours whose stack is not full.

Under a rule variant (:meth:`~advisor.rules.editions.Edition.with_rules`)
the board string is the same; it is read with the variant's values
(``legtiles:`` against its stacks), and the variant itself travels beside
the board (the ``rules`` key of a game state or record, ``--rules``).

This module sits below ``Position`` (it builds nothing but plain values),
so ``Position`` reads and writes its own string without an import circle;
:mod:`advisor.notation` holds the public ``parse_position`` /
``format_position``.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from advisor.errors import PositionError
from advisor._tools.tokens import is_number, split_tokens, whole_number
from advisor.rules.editions import EDITIONS, Edition, get_edition

__all__ = ["BoardValues", "read_board", "write_board"]

# ASCII digits only (``\d`` would take any Unicode digit); the numbers'
# length is checked by ``whole_number``
_STACK = re.compile(r"(-?)([0-9]+):(.*)", re.ASCII | re.DOTALL)
_TILE = re.compile(r"([+-])([0-9]+)(?:@(.*))?", re.ASCII | re.DOTALL)
_EXPECTED = "expected N:STACK, +N, -N, +N@P, -N@P, dice:..., legtiles:..., first or second"


class BoardValues(NamedTuple):
    """What a board string says: ``Position(**values._asdict())`` builds it.
    ``tiles`` are ``(space, sign, owner)`` triples."""

    rules: Edition
    stacks: tuple[tuple[int, str], ...]
    tiles: tuple[tuple[int, str, int | None], ...]
    dice: str | None
    legtiles: dict[str, tuple[int, ...]] | None


def read_board(text: str, rules: Edition | None = None) -> BoardValues:
    """The values of board string ``text``; ``rules``: a variant to read it
    with (its edition's token may be given or left out).  Raises
    :class:`~advisor.errors.PositionError` naming the first token at fault."""
    if not isinstance(text, str):
        raise PositionError(f"a position is a board string, not {type(text).__name__}")
    tokens = split_tokens(text)
    if not tokens:
        raise PositionError("the board string is empty")

    edition = None
    for tok in tokens:
        if tok in EDITIONS:
            if edition is not None:
                raise PositionError(f"the edition is already given as {edition!r}", tok)
            edition = tok
    if rules is None:
        ed = get_edition(edition or "second")
    else:
        ed = rules
        if edition is not None and edition != ed.name:
            raise PositionError(f"the rules given are a variant of the {ed.name} edition", edition)

    stacks: list[tuple[int, str]] = []
    tiles: list[tuple[int, str, int | None]] = []
    dice: str | None = None
    legtiles: dict[str, tuple[int, ...]] | None = None
    seen_space: dict[int, str] = {}

    for tok in tokens:
        if tok in EDITIONS:
            continue
        if tok.startswith("dice:"):
            if dice is not None:
                raise PositionError("dice: is given twice", tok)
            dice = tok[len("dice:"):]
            continue
        if tok.startswith("legtiles:"):
            if legtiles is not None:
                raise PositionError("legtiles: is given twice", tok)
            legtiles = _read_legtiles(tok, ed)
            continue
        m = _STACK.fullmatch(tok)
        if m:
            space = whole_number(m.group(2), tok) * (-1 if m.group(1) else 1)
            camels = m.group(3)
            if space in seen_space:
                raise PositionError(f"space {space} is already given by {seen_space[space]!r}", tok)
            seen_space[space] = tok
            stacks.append((space, camels))
            continue
        m = _TILE.fullmatch(tok)
        if m:
            sign, space, owner = m.group(1), whole_number(m.group(2), tok), m.group(3)
            if owner is not None:
                if not is_number(owner):
                    raise PositionError("the owner after '@' must be a player number 0, 1, 2, ...", tok)
                owner = whole_number(owner, tok)
            tiles.append((space, sign, owner))
            continue
        raise PositionError(f"unrecognised token ({_EXPECTED})", tok)
    return BoardValues(ed, tuple(stacks), tuple(tiles), dice, legtiles)


def _read_legtiles(tok: str, ed: Edition) -> dict[str, tuple[int, ...]]:
    body = tok[len("legtiles:"):]
    if not body:
        raise PositionError("legtiles: lists no colour", tok)
    out: dict[str, tuple[int, ...]] = {}
    for part in body.split(","):
        if not part:
            raise PositionError("empty entry between commas", tok)
        colour, digits = part[0], part[1:]
        if colour not in ed.racing:
            raise PositionError(
                f"unknown colour {colour!r} (the {ed.name} edition's racing camels are {ed.racing})", tok
            )
        if colour in out:
            raise PositionError(f"colour {colour} is listed twice", tok)
        if digits and not is_number(digits):
            raise PositionError(f"tile values of {colour} must be digits 0-9, got {digits!r}", tok)
        out[colour] = tuple(int(d) for d in digits)
        problem = ed.leg_stack_problem(out[colour])
        if problem:
            raise PositionError(f"colour {colour} {problem}", tok)
    return out


def write_board(position) -> str:
    """The canonical board string of ``position`` (a
    :class:`~advisor.rules.position.Position`)."""
    ed = position.rules
    parts: list[str] = []
    if ed.name != "second":
        parts.append(ed.name)
    parts += [f"{space}:{camels}" for space, camels in position.stacks]
    parts += [tile.token for tile in position.tiles]
    if position.dice != ed.dice:
        parts.append(f"dice:{position.dice}")
    short = [
        colour + "".join(map(str, stack))
        for colour, stack in zip(ed.racing, position.legtiles)
        if stack != ed.leg_stack
    ]
    if short:
        parts.append("legtiles:" + ",".join(short))
    return " ".join(parts)
