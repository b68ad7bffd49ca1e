"""Parse and format the board string of docs/notation.md.

``parse_position(format_position(p)) == p`` for every position, and
``format_position`` gives the canonical form: the edition token only for
``first``, stacks by space, tiles by space, ``dice:`` only mid-leg (die
letters in edition order, grey die last), ``legtiles:`` only for colours
whose stack is not full.  The grammar itself lives in
:mod:`advisor.rules.boardtext`, below :class:`~advisor.rules.position.Position`,
which reads and writes its own string with it.
"""

from __future__ import annotations

from advisor.rules.editions import Edition
from advisor.rules.position import Position

__all__ = ["parse_position", "format_position"]


def parse_position(text: str, rules: Edition | None = None) -> Position:
    """Read a board string into a validated :class:`Position`; ``rules``: a
    rule variant to read it under (its ``legtiles:`` follow the variant's
    stacks).

    Raises :class:`~advisor.errors.PositionError` naming the first token at
    fault.
    """
    return Position.from_string(text, rules)


def format_position(position: Position) -> str:
    """The canonical board string of ``position``."""
    return str(position)
