"""One die roll on a position, in plain terms (for tests, tools and docs).

:func:`step` applies a single die result with the same kernel the
enumeration uses and returns the stacks after it, which may lie beyond the
track when the race ends.  It reads the position through its packed form
(:mod:`advisor.rules.encode`), so it stands beside the encoding, above the rules
as data (:mod:`advisor.rules`).
"""

from __future__ import annotations

from typing import NamedTuple

from advisor.errors import PositionError
from advisor.rules.editions import GREY_DIE
from advisor.rules.position import Position

__all__ = ["Step", "step", "CRAZY_COLOURS"]

#: Grey die colours: the printed colour names the crazy camel it moves
#: (unless the choice rules override it).
CRAZY_COLOURS = {"white": 0, "black": 1}


class Step(NamedTuple):
    """The result of one roll.

    ``stacks``: ``(space, camels bottom->top)`` pairs, spaces possibly beyond
    1..16; ``moved``: the camel the die moved (for the grey die, the crazy
    camel chosen); ``landed``: the space of the tile the unit ended on, or
    ``None``; ``race_over``: whether the race ended with this roll.
    """

    stacks: tuple[tuple[int, str], ...]
    moved: str
    landed: int | None
    race_over: bool


def step(position: Position, die: str, value: int, colour: str | None = None) -> Step:
    """Roll ``die`` showing ``value`` (1..3) on ``position``.

    For the grey die ``x`` give ``colour`` ``"white"`` or ``"black"``.  The
    die need not be in the pyramid (this is a rule probe, not a game step).
    """
    from advisor.rules.encode import encode, unpack_board  # (the kernels load on first use, not on import)
    from advisor.kernels.board.track import crazy_mover, roll

    ed = position.rules
    if die not in ed.dice:
        raise PositionError(f"unknown die {die!r} (the {ed.name} edition's dice are {ed.dice})")
    if value not in (1, 2, 3):
        raise PositionError(f"a die shows 1, 2 or 3, not {value!r}")
    enc = encode(position)
    index = ed.dice.index(die)
    if die == GREY_DIE:
        if colour not in CRAZY_COLOURS:
            raise PositionError("the grey die needs colour='white' or 'black'")
        face = CRAZY_COLOURS[colour] * 3 + value - 1
        moved = ed.camels[crazy_mover(enc.board, CRAZY_COLOURS[colour])]
    else:
        face = value - 1
        moved = die
    board, landed, over = roll(enc.board, index, face, enc.tiles)
    return Step(unpack_board(board, ed), moved, int(landed) or None, bool(over))
