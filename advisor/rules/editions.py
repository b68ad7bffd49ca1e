"""The board-game editions as data (docs/rules.md, board games), and rule variants.

Edition differences live here and nowhere else: code elsewhere reads these
fields instead of testing ``edition == ...``.

An :class:`Edition` is a frozen record of everything the rules leave to
numbers: the camels and dice (the game itself), and the *rule values* a
table may change (:data:`RULE_FIELDS`): the start money, the money floor,
the leg bet tiles and what they pay, the overall cards' payout ladder and
where tiles may stand.  A house rule is a *variant*: a modified copy of an
edition with a name, made by :meth:`Edition.with_rules` (which checks every
value) or read from JSON (:func:`rules_from_json`, the ``rules`` key of a
game state or record, ``--rules`` on the command line).  Everything that
plays or values the game (positions, game states, whole games, the bots and
the valuation) reads its rules from the record, so a variant changes them
all at once.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, fields, replace
from functools import cached_property
from typing import Any, Mapping

from advisor.errors import AdvisorError

__all__ = ["Edition", "EDITIONS", "FIRST", "SECOND", "get_edition", "TRACK_LENGTH", "GREY_DIE", "RULE_FIELDS",
           "RulesError", "rules_from_json", "parse_rules_text"]

#: Spaces 1..16; the finish line lies after space 16.
TRACK_LENGTH = 16

#: The letter of the grey die in ``dice:`` (second edition).
GREY_DIE = "x"

#: The rule values a variant may change (every other field is the game itself).
RULE_FIELDS = ("start_money", "money_floor", "leg_stack", "leg_second", "leg_other", "leg_unlimited",
               "pile_payouts", "pile_rest", "wrong_card", "tile_spaces")

#: The largest amount of money a rule value may name (far above any game's).
_MAX_COINS = 1000


class RulesError(AdvisorError):
    """A rule variant with a value that is not allowed; names the key."""

    def __init__(self, key: str, message: str):
        self.key = key
        self.detail = message
        super().__init__(f"invalid rules: {key}: {message}")


@dataclass(frozen=True)
class Edition:
    """One board-game edition, or a variant of one (its rules changed).

    The game
    --------
    name:
        ``"first"`` or ``"second"`` (a variant keeps its edition's name).
    title:
        For people, e.g. ``"Camel Up, 2nd edition"``.
    racing:
        Racing camel letters, in the edition's canonical order (this order is
        the row order of every result).
    crazy:
        Crazy camel letters (``"wk"``: white, black) or ``""``.
    dice_left:
        Dice that stay in the pyramid when a leg ends (``second``: 1).
    min_players, max_players:
        Player counts for whole games.
    partnership_players:
        Smallest player count with partnerships (``None``: never).

    The rule values (:data:`RULE_FIELDS`)
    -------------------------------------
    variant:
        The variant's name; ``""`` for the edition's own rules.
    start_money:
        Coins each player starts with (3).
    money_floor:
        Money never goes below this (0); ``None``: no floor, money may be
        negative.  Each scoring phase is summed first, then settled.
    leg_stack:
        Values of one colour's leg bet tiles, top first (5,3,2,2 / 5,3,2).
    leg_second, leg_other:
        What a leg bet tile pays when its camel is 2nd (+1) / 3rd or worse
        (-1); 1st pays the tile's value.
    leg_unlimited:
        ``None``: a colour whose stack is empty offers no leg bet.  A value
        ``v``: once the stack is empty, unlimited tiles of value ``v``.
    pile_payouts, pile_rest:
        What the correct overall cards pay in placement order: the ladder
        (8, 5, 3, 2), then ``pile_rest`` (1) each.
    wrong_card:
        What a wrong overall card pays (-1).
    tile_spaces:
        ``(low, high)``: the spaces a spectator / desert tile may stand on
        (2..16), besides the rules of empty and non-adjacent spaces.
    """

    name: str
    title: str
    racing: str
    crazy: str
    leg_stack: tuple[int, ...]
    dice_left: int
    min_players: int
    max_players: int
    partnership_players: int | None
    variant: str = ""
    start_money: int = 3
    money_floor: int | None = 0
    leg_second: int = 1
    leg_other: int = -1
    leg_unlimited: int | None = None
    pile_payouts: tuple[int, ...] = (8, 5, 3, 2)
    pile_rest: int = 1
    wrong_card: int = -1
    tile_spaces: tuple[int, int] = (2, TRACK_LENGTH)

    @cached_property
    def has_grey_die(self) -> bool:
        return bool(self.crazy)

    @cached_property
    def tile_names(self) -> tuple[str, str]:
        """The desert tiles' names, + side then − side: cheering and booing
        (2nd edition), oasis and mirage (1st)."""
        return ("cheering", "booing") if self.crazy else ("oasis", "mirage")

    @cached_property
    def camels(self) -> str:
        """Every camel letter: racing first, then crazy."""
        return self.racing + self.crazy

    @cached_property
    def dice(self) -> str:
        """Every die letter in the pyramid at a leg start, canonical order."""
        return self.racing + (GREY_DIE if self.has_grey_die else "")

    @cached_property
    def rolls_per_leg(self) -> int:
        return len(self.dice) - self.dice_left

    def players_problem(self, players: object) -> str | None:
        """Why ``players`` is not a player count of this edition, or ``None``."""
        if isinstance(players, bool) or not isinstance(players, int) or not (
                self.min_players <= players <= self.max_players):
            return f"the {self.name} edition is for {self.min_players}-{self.max_players} players, not {players!r}"
        return None

    @cached_property
    def min_pyramid(self) -> int:
        """Fewest dice a mid-leg pyramid can hold (one more than ``dice_left``)."""
        return self.dice_left + 1

    def leg_stack_problem(self, stack: tuple[int, ...]) -> str | None:
        """Why ``stack`` (top first) cannot be what is left of a colour's leg
        bet tiles (a suffix of :attr:`leg_stack`), or ``None``."""
        n = len(stack)
        if n > len(self.leg_stack) or tuple(stack) != self.leg_stack[len(self.leg_stack) - n:]:
            return (f"holds {''.join(map(str, stack)) or 'nothing'}, which is not what can be left of the stack "
                    f"{''.join(map(str, self.leg_stack))} (top first)")
        return None

    # ------------------------------------------------------------ variants
    @property
    def standard(self) -> "Edition":
        """The edition with its own rules (itself, unless a variant)."""
        return EDITIONS[self.name]

    @property
    def is_standard(self) -> bool:
        return self == self.standard

    def with_rules(self, name: str, **changes: Any) -> "Edition":
        """A variant: this edition with the rule values ``changes`` (keys of
        :data:`RULE_FIELDS`), called ``name``.  Every value is checked
        (:class:`RulesError` names the key)."""
        if not isinstance(name, str) or not re.fullmatch(r"[A-Za-z0-9][A-Za-z0-9_.+-]{0,39}", name, re.ASCII):
            raise RulesError("name", "a variant's name is 1-40 letters, digits or _ . + - (starting with a letter "
                                     f"or digit), not {_shown(name)}")
        unknown = sorted(set(changes) - set(RULE_FIELDS))
        if unknown:
            raise RulesError(unknown[0], f"not a rule value (rule values: {', '.join(RULE_FIELDS)})")
        values = {key: _check_value(key, value) for key, value in changes.items()}
        ed = replace(self, variant=name, title=f"{self.standard.title}, {name} rules", **values)
        ed._check_consistent()
        return ed

    def _check_consistent(self) -> None:
        low, high = self.tile_spaces
        if not 1 <= low <= high <= TRACK_LENGTH:
            raise RulesError("tile_spaces", f"must be two spaces low <= high within 1..{TRACK_LENGTH}, "
                                            f"not {low}..{high}")
        if self.money_floor is not None and self.start_money < self.money_floor:
            raise RulesError("start_money", f"{self.start_money} is below the money floor {self.money_floor}")

    def rule_changes(self) -> dict[str, Any]:
        """The rule values that differ from the edition's own rules."""
        std = self.standard
        return {key: getattr(self, key) for key in RULE_FIELDS if getattr(self, key) != getattr(std, key)}

    def rules_json(self) -> dict | None:
        """The variant as JSON data (``{"name": ..., changed values}``), or
        ``None`` for the edition's own rules; :func:`rules_from_json` reads it."""
        if self.is_standard:
            return None
        out: dict[str, Any] = {"name": self.variant}
        for key, value in self.rule_changes().items():
            out[key] = list(value) if isinstance(value, tuple) else value
        return out


SECOND = Edition(
    name="second",
    title="Camel Up, 2nd edition",
    racing="BGPRY",
    crazy="wk",
    leg_stack=(5, 3, 2, 2),
    dice_left=1,
    min_players=3,
    max_players=8,
    partnership_players=6,
)

FIRST = Edition(
    name="first",
    title="Camel Up, 1st edition",
    racing="BGOYW",
    crazy="",
    leg_stack=(5, 3, 2),
    dice_left=0,
    min_players=2,
    max_players=8,
    partnership_players=None,
)

EDITIONS: dict[str, Edition] = {e.name: e for e in (SECOND, FIRST)}


def get_edition(name: str | Edition) -> Edition:
    """Return the edition called ``name`` (``"first"`` or ``"second"``); an
    :class:`Edition` (also a variant) is returned as it is."""
    if isinstance(name, Edition):
        return name
    try:
        return EDITIONS[name]
    except (KeyError, TypeError):
        raise ValueError(
            f"unknown edition {name!r}: expected one of {', '.join(EDITIONS)}"
        ) from None


# --------------------------------------------------------------------------
# Checking and reading rule values
# --------------------------------------------------------------------------


def _shown(value: object) -> str:
    text = repr(value)
    return text if len(text) <= 40 else text[:37] + "..."


def _int(key: str, value: object, low: int, high: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int):
        raise RulesError(key, f"must be a whole number, not {_shown(value)}")
    if not low <= value <= high:
        raise RulesError(key, f"must be {low}..{high}, not {value}")
    return value


def _ints(key: str, value: object, low: int, high: int, longest: int) -> tuple[int, ...]:
    if isinstance(value, (str, bytes)) or not isinstance(value, (list, tuple)) or not 1 <= len(value) <= longest:
        raise RulesError(key, f"must be a list of 1..{longest} whole numbers, not {_shown(value)}")
    return tuple(_int(key, v, low, high) for v in value)


def _check_value(key: str, value: object) -> object:
    if key == "start_money":
        return _int(key, value, 0, _MAX_COINS)
    if key == "money_floor":
        return None if value is None else _int(key, value, -_MAX_COINS, _MAX_COINS)
    if key == "leg_stack":  # one digit per tile: the notation writes stacks as digits (legtiles:B322)
        return _ints(key, value, 0, 9, 9)
    if key in ("leg_second", "leg_other", "pile_rest", "wrong_card"):
        return _int(key, value, -99, 99)
    if key == "leg_unlimited":
        return None if value is None else _int(key, value, 0, 9)
    if key == "pile_payouts":
        return _ints(key, value, -99, 99, 16)
    if key == "tile_spaces":
        spaces = _ints(key, value, 1, TRACK_LENGTH, 2)
        if len(spaces) != 2:
            raise RulesError(key, f"must be two spaces [low, high], not {_shown(value)}")
        return spaces
    raise RulesError(key, "not a rule value")  # pragma: no cover (keys are checked before)


def rules_from_json(edition: str | Edition, data: object) -> Edition:
    """The variant of ``edition`` that the JSON object ``data`` describes:
    ``{"name": "house", "money_floor": null, "pile_payouts": [8, 5, 3, 1]}``
    (``name`` and any rule values of :data:`RULE_FIELDS`; lists for
    ``leg_stack``, ``pile_payouts`` and ``tile_spaces``).  ``None`` gives the
    edition's own rules."""
    ed = get_edition(edition).standard
    if data is None:
        return ed
    if not isinstance(data, Mapping):
        raise RulesError("rules", 'must be an object such as {"name": "house", "money_floor": null}')
    data = dict(data)
    if "name" not in data:
        raise RulesError("name", "a variant needs a name")
    name = data.pop("name")
    return ed.with_rules(name, **data)


_WORD = re.compile(r"[a-z_]+=[^\s=]*", re.ASCII)


def parse_rules_text(text: str) -> dict[str, Any]:
    """``key=value`` pairs separated by spaces (the inline form of
    ``--rules``) as the JSON object :func:`rules_from_json` reads: numbers,
    comma-separated lists (``pile_payouts=8,5,3,1``) and ``none`` (no
    floor, no unlimited leg bets); ``name=house`` names the variant."""
    out: dict[str, Any] = {}
    for word in text.split():
        if not _WORD.fullmatch(word):
            raise RulesError(word[:40], "expected key=value, e.g. money_floor=none or pile_payouts=8,5,3,1")
        key, _, value = word.partition("=")
        if key in out:
            raise RulesError(key, "given twice")
        if key == "name":
            out[key] = value
        elif value == "none":
            out[key] = None
        else:
            try:
                parts = [int(v) for v in value.split(",")] if re.fullmatch(r"-?[0-9]{1,4}(,-?[0-9]{1,4})*", value) \
                    else None
            except ValueError:  # pragma: no cover (the pattern admits only numbers)
                parts = None
            if parts is None:
                raise RulesError(key, f"expected a number, numbers separated by commas, or none; got {value[:40]!r}")
            out[key] = parts if "," in value or key in ("leg_stack", "pile_payouts", "tile_spaces") else parts[0]
    if not out:
        raise RulesError("rules", "no key=value pairs given")
    return out
