"""One reader of what a user gives the advisor to analyse, for the command
line and the web page alike: which input a text is, and the input read.

A text is one of five kinds (:data:`KINDS`):

* ``board``: a board string of the board games (first or second edition),
  read into a :class:`advisor.Position`;
* ``cards``: a Camel Up Cards position (it holds the token ``cards``), read
  into a :class:`advisor.cards.CardsPosition`;
* ``state``: the path of a game state JSON file, read into a
  :class:`advisor.GameState`;
* ``records`` and ``cards-records``: the path of a JSON-lines file of game
  records of the board games or of Camel Up Cards.  A file of records can
  be large and one game of it is what a command asks for: the reader names
  the kind and the file, and the game is read where it is picked (the path
  is the input's ``value``).

Only a caller that reads the user's own files (the command line) asks for
``files=True``; without it a text is always a position, never a path (the
web page never opens a file a request names).  Bad input raises
:class:`advisor.errors.AdvisorError` (a :class:`~advisor.errors.PositionError`
or a :class:`~advisor.rules.state.StateError`) with one line naming what is
wrong: a file that is not UTF-8 says so, UTF-16 by name; a UTF-8 byte order
mark is accepted.

:func:`input_kind` decides the kind without reading anything but the
first line of a ``.jsonl`` file, so that a caller can check the options
that go with the kind before the input is read by :func:`read_input`.
"""

from __future__ import annotations

import sys
from dataclasses import dataclass
from typing import Any

from advisor._tools.files import file_kind
from advisor._tools.jsonio import MAX_BYTES, loads
from advisor.errors import AdvisorError
from advisor.notation import parse_position
from advisor.rules.state import GameState, StateError

__all__ = ["KINDS", "Input", "input_kind", "read_input", "record_kind", "is_file", "load_state",
           "state_from_json"]

#: The kinds of input, in the order :func:`input_kind` tries them.
KINDS = ("cards", "cards-records", "records", "state", "board")


@dataclass(frozen=True)
class Input:
    """An input read: ``kind`` (one of :data:`KINDS`), ``value`` (a
    ``Position``, a ``CardsPosition``, a ``GameState``, or the path of a
    file of records) and ``text``, the text it was read from."""

    kind: str
    value: Any
    text: str


def is_file(text: str) -> bool:
    """``text`` names an existing file (a board string never does; a name
    the system refuses, e.g. too long, is not one)."""
    try:
        return file_kind(text) == "file"
    except AdvisorError:
        return False


def record_kind(path: str) -> str:
    """``cards-records`` if the JSON-lines file ``path`` holds Camel Up
    Cards records (its first record line is a Camel Up Cards setup line),
    else ``records`` (an unreadable file included: its reader says why)."""
    from advisor.cards.record import is_cards_file  # lazy: the package advisor.cards stays out of CLI start-up

    return "cards-records" if is_cards_file(path) else "records"


def input_kind(text: str, *, files: bool = False) -> str:
    """The kind of ``text`` (one of :data:`KINDS`), nothing read but the
    first line of an existing ``.jsonl`` file.  A text with the token
    ``cards`` is a Camel Up Cards position; with ``files``, a name ending in
    ``.jsonl`` is a file of records (a missing one too: its reader says
    so), and a name ending in ``.json`` or naming an existing file is a game
    state file; anything else is a board string."""
    from advisor.cards.position import is_cards  # lazy: the package advisor.cards stays out of CLI start-up

    if is_cards(text):
        return "cards"
    if files:
        if text.lower().endswith(".jsonl"):
            return record_kind(text) if is_file(text) else "records"
        if text.endswith(".json") or is_file(text):
            return "state"
    return "board"


def read_input(text: str, *, files: bool = False, kind: str | None = None, rules=None) -> Input:
    """``text`` read as its kind (``kind`` when the caller has decided it
    with :func:`input_kind`); ``rules``, a rule variant
    (:class:`advisor.Edition`), is the one a board string is read with."""
    if kind is None:
        kind = input_kind(text, files=files)
    elif kind not in KINDS:
        raise ValueError(f"unknown kind of input {kind!r} (kinds: {', '.join(KINDS)})")
    if rules is not None and kind != "board":
        raise AdvisorError(f"a rule variant applies to a board string, not to a {_NAMES[kind]}")
    if kind == "board":
        return Input(kind, parse_position(text, rules), text)
    if kind == "cards":
        from advisor.cards.position import parse_cards  # lazy: the package advisor.cards stays out of CLI start-up

        return Input(kind, parse_cards(text), text)
    if kind == "state":
        return Input(kind, load_state(text), text)
    return Input(kind, text, text)


_NAMES = {"board": "board string", "cards": "Camel Up Cards position", "state": "game state file",
          "records": "file of game records", "cards-records": "file of Camel Up Cards game records"}


def load_state(source: str):
    """A :class:`advisor.GameState` from the JSON file ``source``, or from
    standard input for ``-`` (at most :data:`advisor._tools.jsonio.MAX_BYTES`)."""
    if source == "-":
        data = sys.stdin.buffer.read(MAX_BYTES + 1)
        return GameState.from_json(loads(data, "standard input"))
    return GameState.load(source)


def state_from_json(raw: Any):
    """A :class:`advisor.GameState` from its decoded JSON object (a request's
    ``state``), every field checked as in a game state file."""
    if not isinstance(raw, dict):
        raise StateError("(top)", "must be a JSON object")
    try:
        return GameState.from_json(raw)
    except AdvisorError:
        raise
    except (TypeError, ValueError, OverflowError) as exc:  # a field of an unexpected type
        raise StateError("(state)", f"a field has the wrong type or size ({exc})") from None
