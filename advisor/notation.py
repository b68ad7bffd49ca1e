"""Parse and format the board string of ../shared/NOTATION.md.

``parse_position(format_position(p)) == p`` for every position, and
``format_position`` gives the canonical form: the edition token only for
``first``, stacks by space, tiles by space, ``dice:`` only mid-leg (die
letters in edition order, grey die last), ``legtiles:`` only for colours
whose stack is not full.
"""

from __future__ import annotations

import re

from .errors import PositionError
from .rules.editions import EDITIONS, get_edition
from .rules.position import Position, Tile, check_leg_stack
from .tokens import is_number, split_tokens, whole_number

__all__ = ["parse_position", "format_position"]

# ASCII digits only (``\d`` would take any Unicode digit); the numbers'
# length is checked by ``whole_number``
_STACK = re.compile(r"(-?)([0-9]+):(.*)", re.ASCII | re.DOTALL)
_TILE = re.compile(r"([+-])([0-9]+)(?:@(.*))?", re.ASCII | re.DOTALL)
_EXPECTED = "expected N:STACK, +N, -N, +N@P, -N@P, dice:..., legtiles:..., first or second"


def parse_position(text: str) -> Position:
    """Read a board string into a validated :class:`Position`.

    Raises :class:`~advisor.errors.PositionError` naming the first token at
    fault.
    """
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
    ed = get_edition(edition or "second")

    stacks: list[tuple[int, str]] = []
    tiles: list[Tile] = []
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
            legtiles = _parse_legtiles(tok, ed)
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
            tiles.append(Tile(space, sign, owner))
            continue
        raise PositionError(f"unrecognised token ({_EXPECTED})", tok)

    return Position(
        edition=ed.name, stacks=tuple(stacks), tiles=tuple(tiles), dice=dice, legtiles=legtiles
    )


def _parse_legtiles(tok: str, ed) -> dict[str, tuple[int, ...]]:
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
        check_leg_stack(ed, colour, out[colour], tok)
    return out


def format_position(position: Position) -> str:
    """The canonical board string of ``position``."""
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
