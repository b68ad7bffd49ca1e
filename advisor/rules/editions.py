"""The board-game editions as data (RULES.md section 1).

Edition differences live here and nowhere else: code elsewhere reads these
fields instead of testing ``edition == ...``.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import cached_property

__all__ = ["Edition", "EDITIONS", "FIRST", "SECOND", "get_edition", "TRACK_LENGTH", "GREY_DIE"]

#: Spaces 1..16; the finish line lies after space 16.
TRACK_LENGTH = 16

#: The letter of the grey die in ``dice:`` (second edition).
GREY_DIE = "x"


@dataclass(frozen=True)
class Edition:
    """One board-game edition.

    Attributes
    ----------
    name:
        ``"first"`` or ``"second"``.
    racing:
        Racing camel letters, in the edition's canonical order (this order is
        the row order of every result).
    crazy:
        Crazy camel letters (``"wk"``: white, black) or ``""``.
    leg_stack:
        Values of one colour's leg bet tiles, top first.
    dice_left:
        Dice that stay in the pyramid when a leg ends (``second``: 1).
    min_players, max_players:
        Player counts for whole games.
    partnership_players:
        Smallest player count with partnerships (``None``: never).
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

    @cached_property
    def has_grey_die(self) -> bool:
        return bool(self.crazy)

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
    """Return the edition called ``name`` (``"first"`` or ``"second"``)."""
    if isinstance(name, Edition):
        return name
    try:
        return EDITIONS[name]
    except KeyError:
        raise ValueError(
            f"unknown edition {name!r}: expected one of {', '.join(EDITIONS)}"
        ) from None
