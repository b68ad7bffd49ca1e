"""The actions of Camel Up (docs/rules.md, Actions) as values, and their effects
on the board, written once.

* :class:`Action`: an action as a value, read and written in the strings of
  the game records and the command line (``leg:B``, ``pyramid``,
  ``tile:+5``, ``winner:G``, ``loser:?``, ``partner:2``); :class:`Roll`: a
  pyramid roll drawn;
* the effects on the board the game and the valuation share, as plain
  functions: :func:`leg_bet_value` / :func:`take_leg_tile` (a leg bet tile),
  :func:`place_tile` (a spectator / desert tile).

What is legal for a player of a game state and what playing an action does
to the state (the leg and race end scoring included) is the rules core of
a turn, :mod:`advisor.rules.turn` (above the game state, :mod:`advisor.rules.state`);
this module stays on the rules' floor.

``winner:?`` / ``loser:?`` record another player's overall card placed face
down when its colour is not seen (:attr:`Action.face_down`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from advisor.errors import IllegalActionError
from advisor.rules.editions import Edition
from advisor.rules.position import Position, Tile
from advisor.rules.scoring import PILES

__all__ = ["Action", "Roll", "KINDS", "PILES", "UNKNOWN", "leg_bet_value", "take_leg_tile", "place_tile"]

#: The kinds of action, in the order :func:`advisor.rules.turn.legal_actions` lists them.
KINDS = ("leg", "pyramid", "tile", "winner", "loser", "partner")
#: The colour of a face-down overall card whose colour is not seen.
UNKNOWN = "?"

_FORMS = "leg:C, pyramid, tile:+N, tile:-N, winner:C, loser:C (C may be ?), partner:P"
_TILE = re.compile(r"([+-])([0-9]{1,2})", re.ASCII)
_PLAYER = re.compile(r"[0-9]{1,2}", re.ASCII)


@dataclass(frozen=True)
class Action:
    """One action.  ``kind``: one of :data:`KINDS`; ``colour``: the camel of
    a leg bet tile or an overall card (``None`` for a face-down card of
    unknown colour, written ``?``); ``space``, ``sign``: where and which side
    up a tile goes; ``partner``: the player asked to partner.

    ``Action.parse("tile:+5")`` reads the string of the records and the
    command line, ``str(action)`` writes it back."""

    kind: str
    colour: str | None = None
    space: int | None = None
    sign: str | None = None
    partner: int | None = None

    @classmethod
    def parse(cls, text: "str | Action") -> "Action":
        """The action written ``text``; :class:`~advisor.errors.IllegalActionError`
        names the token when it is not one (colours and spaces are checked
        against a state by :func:`check_action`)."""
        if isinstance(text, Action):
            return text
        if not isinstance(text, str):
            raise IllegalActionError(f"an action is a string such as 'leg:B', not {type(text).__name__}")
        kind, colon, arg = text.partition(":")
        shown = text if len(text) <= 40 else text[:37] + "..."
        if kind == "pyramid" and not colon:
            return cls("pyramid")
        if kind in ("leg", *PILES) and len(arg) == 1 and arg.isascii() and (arg.isalpha() or
                                                                            (arg == UNKNOWN and kind in PILES)):
            return cls(kind, colour=None if arg == UNKNOWN else arg)
        if kind == "tile":
            m = _TILE.fullmatch(arg)
            if m:
                return cls("tile", space=int(m.group(2)), sign=m.group(1))
        if kind == "partner" and _PLAYER.fullmatch(arg):
            return cls("partner", partner=int(arg))
        raise IllegalActionError(f"invalid action {shown!r}: expected {_FORMS}")

    def __str__(self) -> str:
        if self.kind == "pyramid":
            return "pyramid"
        if self.kind == "tile":
            return f"tile:{self.sign}{self.space}"
        if self.kind == "partner":
            return f"partner:{self.partner}"
        return f"{self.kind}:{UNKNOWN if self.colour is None else self.colour}"

    @property
    def face_down(self) -> bool:
        """An overall card of unknown colour (``winner:?``, ``loser:?``)."""
        return self.kind in PILES and self.colour is None


@dataclass(frozen=True)
class Roll:
    """A pyramid roll: the die drawn and what it shows (``colour`` "white" /
    "black" for the grey die)."""

    die: str
    value: int
    colour: str | None = None

    def to_json(self) -> dict:
        """The roll as a record line holds it: ``{"die": D, "value": V}``,
        and ``"colour"`` for the grey die (read back by :meth:`from_json`)."""
        out: dict[str, Any] = {"die": self.die, "value": self.value}
        if self.colour is not None:
            out["colour"] = self.colour
        return out

    @classmethod
    def from_json(cls, data: object) -> "Roll":
        """The roll written ``data``, as :meth:`to_json` writes it (the
        ``"roll"`` of a record's pyramid line): a JSON object with ``die``
        (one letter), ``value`` (a whole number) and, for the grey die,
        ``colour`` (a string); no other key.

        Only the shape is checked here, the same shape a record line must
        have (:func:`advisor.game.check_entry`); whether the die is still in
        the pyramid, the value 1..3 and the grey die's colour are the rules'
        question when the roll is played.  A shape that is not a roll
        raises :class:`~advisor.errors.IllegalActionError` whose message
        names, on one line, what is wrong."""
        if not isinstance(data, dict):
            raise IllegalActionError(f'a roll is a JSON object {{"die": D, "value": V}} (and "colour" for the '
                                     f'grey die), not {type(data).__name__}')
        extra = sorted(set(data) - {"die", "value", "colour"}, key=str)
        if extra:
            raise IllegalActionError(f"a roll has the keys die, value and colour, not {_shown(extra[0])}")
        die, value = data.get("die"), data.get("value")
        if "die" not in data:
            raise IllegalActionError("a roll names its die ('die': a letter such as 'B')")
        if not isinstance(die, str) or len(die) != 1:
            raise IllegalActionError(f"a roll's 'die' is one letter such as 'B', not {_shown(die)}")
        if "value" not in data:
            raise IllegalActionError("a roll gives what the die shows ('value': 1, 2 or 3)")
        if isinstance(value, bool) or not isinstance(value, int):
            raise IllegalActionError(f"a roll's 'value' is a whole number, not {_shown(value)}")
        colour = data.get("colour")
        if "colour" in data and not isinstance(colour, str):
            raise IllegalActionError(f"a roll's 'colour' is a name such as 'white', not {_shown(colour)}")
        return cls(die, value, colour)


def _shown(value: object) -> str:
    """``value`` written for a one-line message (at most 40 characters)."""
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


# --------------------------------------------------------------------------
# Effects on the board the game and the valuation share
# --------------------------------------------------------------------------


def leg_bet_value(rules: Edition, stack: tuple[int, ...]) -> int | None:
    """The value of the leg bet tile a player takes from ``stack`` (what is
    left of a colour, top first): its top tile; when it is empty, the
    variant's unlimited tiles (``leg_unlimited``) or ``None`` (no bet)."""
    return stack[0] if stack else rules.leg_unlimited


def take_leg_tile(rules: Edition, stacks: tuple[tuple[int, ...], ...], c: int):
    """``(value, stacks after)``: the leg bet tile of racing camel ``c``
    taken from ``stacks`` (all colours, top first)."""
    value = leg_bet_value(rules, stacks[c])
    return value, tuple(s[1:] if i == c else s for i, s in enumerate(stacks))


def place_tile(position: Position, player: int, space: int, sign: str) -> Position:
    """``position`` with ``player``'s tile (lifted from its old space) on
    ``space``, ``sign`` side up."""
    tiles = [t for t in position.tiles if t.owner != player] + [Tile(space, sign, player)]
    return replace(position, tiles=tuple(tiles))
