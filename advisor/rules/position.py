"""``Position``: one board position of a board-game edition, validated.

A position is what lies on the table: the camel stacks, the spectator /
desert tiles, the dice still in the pyramid and the leg bet tiles still on
the board, under the rules of an edition (or of a variant of one:
:meth:`~advisor.rules.editions.Edition.with_rules`).  It is immutable and
always valid: the constructor checks every rule of docs/notation.md
(and anything else impossible) and raises
:class:`~advisor.errors.PositionError` naming the token at fault.  It reads
and writes its board string itself (:mod:`advisor.rules.boardtext`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable, Iterable, Mapping, NamedTuple

from advisor.errors import PositionError
from advisor.rules.boardtext import read_board, write_board
from advisor.rules.editions import TRACK_LENGTH, Edition, get_edition

__all__ = ["Tile", "Position", "check_leg_stack", "as_position", "DISPLAY_HOOKS"]

#: How a position shows itself in notebooks: ``{"svg": function(position) ->
#: SVG text}``, filled in by :mod:`advisor.plotting` when it is imported (the
#: rules draw nothing themselves; ``import advisor`` registers it).
DISPLAY_HOOKS: dict[str, Callable[["Position"], str]] = {}


class Tile(NamedTuple):
    """A spectator (``second``) / desert (``first``) tile on the track.

    ``sign`` is ``"+"`` (cheering / oasis) or ``"-"`` (booing / mirage);
    ``owner`` is the 0-based player index, or ``None`` for a tile that
    belongs to nobody the advice concerns.
    """

    space: int
    sign: str
    owner: int | None = None

    @property
    def token(self) -> str:
        owner = "" if self.owner is None else f"@{self.owner}"
        return f"{self.sign}{self.space}{owner}"


def check_leg_stack(ed: Edition, colour: str, stack: tuple[int, ...], token: str) -> None:
    """Raise unless ``stack`` (top first) is what can be left of a colour's
    leg bet tiles: a suffix of the edition's stack."""
    problem = ed.leg_stack_problem(tuple(stack))
    if problem:
        raise PositionError(f"colour {colour} {problem}", token)


def _stack_token(space: object, camels: object) -> str:
    return f"{space}:{camels}"


@dataclass(frozen=True, repr=False)
class Position:
    """A validated board position (``first`` or ``second`` edition).

    Parameters
    ----------
    edition:
        ``"second"`` (default) or ``"first"``.
    stacks:
        ``{space: camels}`` or pairs ``(space, camels)``; ``camels`` lists the
        stack bottom to top, e.g. ``{2: "YG", 3: "PR"}``.
    tiles:
        :class:`Tile` values (or ``(space, sign[, owner])`` tuples).
    dice:
        Dice still in the pyramid (``"x"`` is the grey die); ``None`` means
        every die (the start of a leg).
    legtiles:
        ``{colour: values}`` of the leg bet tiles left per racing colour, top
        first; a colour not given has its full stack.
    rules:
        The :class:`~advisor.rules.editions.Edition` whose rules apply: the
        edition's own (default) or a variant of it; ``edition`` may then be
        left out.

    Use :func:`advisor.parse_position` / :meth:`from_string` to read the
    board string of docs/notation.md, ``str(position)`` to write it.
    """

    edition: str | None = None
    stacks: tuple[tuple[int, str], ...] = ()
    tiles: tuple[Tile, ...] = ()
    dice: str | None = None
    legtiles: tuple[tuple[int, ...], ...] | Mapping[str, Iterable[int]] | None = None
    rules: Edition | None = None

    # ------------------------------------------------------------------ setup
    def __post_init__(self) -> None:
        ed = self.rules
        if ed is None:
            try:
                ed = get_edition("second" if self.edition is None else self.edition)
            except ValueError:
                raise PositionError(
                    "unknown edition: expected 'first' or 'second'", str(self.edition)
                ) from None
        elif not isinstance(ed, Edition):
            raise PositionError(f"rules must be an Edition (or a variant of one), not {type(ed).__name__}")
        elif self.edition is not None and self.edition != ed.name:
            raise PositionError(f"the rules given are a variant of the {ed.name} edition", str(self.edition))
        set_ = lambda name, value: object.__setattr__(self, name, value)  # noqa: E731
        set_("edition", ed.name)
        set_("rules", ed)
        set_("stacks", self._check_stacks(ed))
        set_("tiles", self._check_tiles(ed))
        set_("dice", self._check_dice(ed))
        set_("legtiles", self._check_legtiles(ed))

    def _check_stacks(self, ed: Edition) -> tuple[tuple[int, str], ...]:
        raw = list(self.stacks.items() if isinstance(self.stacks, Mapping) else self.stacks)
        # fast path for valid input; anything odd is explained by _explain_stacks
        try:
            spaces = {space for space, _ in raw}
            letters = "".join(camels for _, camels in raw)
            if (len(spaces) == len(raw) and all(type(s) is int and 1 <= s <= TRACK_LENGTH for s in spaces)
                    and all(type(c) is str and c for _, c in raw) and sorted(letters) == sorted(ed.camels)):
                return tuple(sorted((space, camels) for space, camels in raw))
        except (TypeError, ValueError):
            pass
        return self._explain_stacks(ed, raw)

    def _explain_stacks(self, ed: Edition, raw) -> tuple[tuple[int, str], ...]:
        seen_spaces: set[int] = set()
        seen_camels: set[str] = set()
        out = []
        for item in raw:
            space, camels = item
            token = _stack_token(space, camels)
            if not isinstance(space, int) or isinstance(space, bool):
                raise PositionError("space must be a whole number 1..16", token)
            if not 1 <= space <= TRACK_LENGTH:
                raise PositionError(f"space must be 1..{TRACK_LENGTH}", token)
            if not isinstance(camels, str) or not camels:
                raise PositionError("a stack needs at least one camel", token)
            if space in seen_spaces:
                raise PositionError(f"space {space} is given twice", token)
            seen_spaces.add(space)
            for letter in camels:
                if letter not in ed.camels:
                    if letter in "wk" and not ed.crazy:
                        raise PositionError(
                            f"crazy camel {letter!r} does not exist in the {ed.name} edition",
                            token,
                        )
                    raise PositionError(
                        f"unknown camel {letter!r} (the {ed.name} edition has racing camels "
                        f"{ed.racing}" + (f" and crazy camels {ed.crazy}" if ed.crazy else "") + ")",
                        token,
                    )
                if letter in seen_camels:
                    raise PositionError(f"camel {letter!r} appears twice", token)
                seen_camels.add(letter)
            out.append((space, camels))
        missing = [c for c in ed.camels if c not in seen_camels]
        if missing:
            raise PositionError(
                "camel" + ("s " if len(missing) > 1 else " ")
                + ", ".join(repr(c) for c in missing)
                + (" are" if len(missing) > 1 else " is") + " missing from the board"
            )
        return tuple(sorted(out))

    def _check_tiles(self, ed: Edition) -> tuple[Tile, ...]:
        occupied = {space for space, _ in self.stacks}
        tiles: list[Tile] = []
        for raw in self.tiles:
            tile = raw if isinstance(raw, Tile) else Tile(*raw)
            token = tile.token
            if tile.sign not in ("+", "-"):
                raise PositionError("a tile's side must be '+' or '-'", token)
            if not isinstance(tile.space, int) or not 1 <= tile.space <= TRACK_LENGTH:
                raise PositionError(f"space must be 1..{TRACK_LENGTH}", token)
            if tile.owner is not None and (
                not isinstance(tile.owner, int) or tile.owner < 0 or tile.owner >= ed.max_players
            ):
                raise PositionError(f"owner must be a player 0..{ed.max_players - 1}", token)
            low, high = ed.tile_spaces
            if not low <= tile.space <= high:
                raise PositionError("no tile may lie on space 1" if tile.space == 1 and low > 1
                                    else f"tiles may lie on spaces {low}..{high} only", token)
            if tile.space in occupied:
                raise PositionError(f"space {tile.space} holds camels; a tile needs an empty space", token)
            for other in tiles:
                if other.space == tile.space:
                    raise PositionError(f"space {tile.space} already holds a tile", token)
                if abs(other.space - tile.space) == 1:
                    raise PositionError(f"next to the tile {other.token}; tiles may not be adjacent", token)
                if tile.owner is not None and other.owner == tile.owner:
                    raise PositionError(
                        f"player {tile.owner} already has the tile {other.token}; a player owns one tile",
                        token,
                    )
            tiles.append(tile)
        return tuple(sorted(tiles))

    def _check_dice(self, ed: Edition) -> str:
        if self.dice is None:
            return ed.dice
        token = f"dice:{self.dice}"
        if not isinstance(self.dice, str):
            raise PositionError("dice must be a string of die letters", token)
        for i, letter in enumerate(self.dice):
            if letter not in ed.dice:
                raise PositionError(
                    f"unknown die {letter!r} (the {ed.name} edition's dice are {ed.dice})", token
                )
            if letter in self.dice[:i]:
                raise PositionError(f"die {letter!r} is listed twice", token)
        if len(self.dice) < ed.min_pyramid:
            if not self.dice:
                raise PositionError("the pyramid is empty: the leg is over", token)
            raise PositionError(
                f"a pyramid with {len(self.dice)} die means the leg is over "
                f"(the {ed.name} edition needs {ed.min_pyramid}..{len(ed.dice)} dice mid-leg)",
                token,
            )
        return "".join(d for d in ed.dice if d in self.dice)

    def _check_legtiles(self, ed: Edition) -> tuple[tuple[int, ...], ...]:
        if self.legtiles is None:
            return tuple(ed.leg_stack for _ in ed.racing)
        if isinstance(self.legtiles, Mapping):
            given = dict(self.legtiles)
            for colour in given:
                if colour not in ed.racing:
                    raise PositionError(
                        f"unknown colour {colour!r} (racing camels: {ed.racing})",
                        f"legtiles:{colour}",
                    )
            values = [tuple(given.get(c, ed.leg_stack)) for c in ed.racing]
        else:
            values = [tuple(v) for v in self.legtiles]
            if len(values) != len(ed.racing):
                raise PositionError(f"legtiles needs one stack per racing colour ({ed.racing})")
        for colour, stack in zip(ed.racing, values):
            check_leg_stack(ed, colour, stack, f"legtiles:{colour}{''.join(map(str, stack))}")
        return tuple(values)

    # ------------------------------------------------------------ accessors
    @property
    def racing(self) -> str:
        return self.rules.racing

    @property
    def is_leg_start(self) -> bool:
        return len(self.dice) == len(self.rules.dice)

    def space_of(self, camel: str) -> int:
        for space, camels in self.stacks:
            if camel in camels:
                return space
        raise KeyError(camel)

    def stack_at(self, space: int) -> str:
        for s, camels in self.stacks:
            if s == space:
                return camels
        return ""

    def tile_at(self, space: int) -> Tile | None:
        for tile in self.tiles:
            if tile.space == space:
                return tile
        return None

    # ------------------------------------------------------------ text
    @classmethod
    def from_string(cls, text: str, rules: Edition | None = None) -> "Position":
        """Parse a board string (docs/notation.md); ``rules``: a variant
        to read it under (see :mod:`advisor.rules.boardtext`)."""
        values = read_board(text, rules)
        return cls(stacks=values.stacks, tiles=values.tiles, dice=values.dice, legtiles=values.legtiles,
                   rules=values.rules)

    def __str__(self) -> str:
        return write_board(self)

    def __repr__(self) -> str:
        if self.rules.is_standard:
            return f"Position.from_string({str(self)!r})"
        return f"<Position {str(self)!r} under the {self.rules.variant} rules ({self.rules.name} edition)>"

    def _repr_svg_(self) -> str | None:
        """The board as a picture in notebooks (see :data:`DISPLAY_HOOKS`)."""
        draw = DISPLAY_HOOKS.get("svg")
        return None if draw is None else draw(self)


def as_position(position: Position | str, rules: Edition | None = None) -> Position:
    """A :class:`Position` from a Position or a board string (read under
    ``rules`` when given; a Position must then have those rules)."""
    if isinstance(position, Position):
        if rules is not None and position.rules != rules:
            raise PositionError(f"the position's rules ({position.rules.variant or 'standard'}) are not the "
                                f"rules given ({rules.variant or 'standard'})")
        return position
    if isinstance(position, str):
        return Position.from_string(position, rules)
    raise PositionError(f"expected a Position or a board string, not {type(position).__name__}")
