"""The lexical layer shared by the position notations (board games and
Camel Up Cards): a position is ASCII tokens separated by ASCII white space,
and its numbers are short runs of the ASCII digits 0-9.

Python's own ``str.split``, ``str.isdigit`` and ``int`` accept far more
(non-breaking spaces, superscript digits such as ``²``, Arabic-Indic digits
such as ``١``, numbers of thousands of digits), which the notation does not;
both parsers read their input only through these helpers, so anything else
is a :class:`~advisor.errors.PositionError` naming the token.
"""

from __future__ import annotations

import re

from advisor.errors import PositionError

__all__ = ["split_tokens", "is_number", "whole_number", "shown", "MAX_DIGITS"]

MAX_DIGITS = 9
"""The longest number the notations read (every number they hold is far
smaller: the range checks then give the message)."""

_SPACE = re.compile(r"[ \t\n\r\f\v]+")
_NUMBER = re.compile(r"[0-9]+", re.ASCII)
_FOREIGN = re.compile(r"[^\x21-\x7e]")  # anything but printable ASCII


def split_tokens(text: str) -> list[str]:
    """The tokens of a position string; raises :class:`PositionError`
    naming the first token that holds a character outside printable ASCII."""
    tokens = [tok for tok in _SPACE.split(text) if tok]
    for tok in tokens:
        bad = _FOREIGN.search(tok)
        if bad:
            char = bad.group()
            raise PositionError(
                f"character {char!r} (U+{ord(char):04X}) is not part of the notation, which is "
                "ASCII letters, the digits 0-9 and : + - , @ between plain spaces", tok)
    return tokens


def is_number(text: str) -> bool:
    """``text`` is a run of the ASCII digits 0-9 (of any length)."""
    return _NUMBER.fullmatch(text) is not None


def whole_number(text: str, token: str, what: str = "a whole number") -> int:
    """``text`` (part of ``token``) read as a number of the ASCII digits
    0-9, at most :data:`MAX_DIGITS` of them."""
    if not is_number(text):
        raise PositionError(f"expected {what} (digits 0-9), got {text!r}", token)
    significant = text.lstrip("0") or "0"
    if len(significant) > MAX_DIGITS:
        raise PositionError(f"the number {_short(text)} is far too large ({len(significant)} digits)", token)
    return int(significant)


def _short(text: str) -> str:
    return text if len(text) <= 12 else f"{text[:6]}...{text[-3:]}"


def shown(x: object) -> str:
    """A value for a message: a number as ``1,234``, or ``a number of about
    5,000 digits`` when too long to print (Python refuses to print ints past
    4,300 digits); anything else as its repr, shortened."""
    if isinstance(x, bool) or not isinstance(x, int):
        return repr(x) if len(repr(x)) <= 40 else repr(x)[:37] + "..."
    if abs(x) < 10**15:
        return f"{x:,}"
    digits = int(abs(x).bit_length() * 0.30103) + 1
    return f"a {'negative ' if x < 0 else ''}number of about {digits:,} digits"
