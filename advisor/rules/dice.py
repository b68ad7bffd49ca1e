"""Where the dice of a whole game come from: the set-up, the first player
and every pyramid roll (docs/rules.md, Dice and legs; Setup).

A :class:`~advisor.game.Game` takes one of two sources, named on its
record's setup line (``"dice"``; absent means ``"game"``):

``"game"`` (the default)
    One random stream seeded by the game's seed: the set-up and the first
    player, then each roll draws a die uniformly from those still in the
    pyramid and one of its six faces.  The roll a game draws depends on how
    many draws the stream gave before, so a game replayed to a turn (whose
    rolls come from its record) and then continued draws other dice than
    the original.

``"leg"``
    The dice of each leg drawn whole at the leg's start, as a physical
    pyramid gives them whatever the players do: leg ``k`` (1, 2, ...) draws
    a random order of all the edition's dice and a face for each from its
    own stream, derived from ``(seed, k)``; the set-up and the first player
    come from the stream of ``(seed, 0)``.  Each roll is the first die of
    the leg's order still in the pyramid, showing the face drawn for it.
    Two games from the same seed therefore see the same set-up and the same
    dice, leg by leg and roll by roll, whatever the players decide (a paired
    duel, :mod:`advisor.simulate.duel`, rests on it), and a game replayed to any turn
    and continued draws exactly the dice of the original.

Both sources follow the rules: the die rolled is uniform over the dice
still in the pyramid (the first of a uniformly random order among those
left is uniform over them), each face of a die is equally likely (racing
dice 1, 1, 2, 2, 3, 3; the grey die 1, 2, 3 in white and in black), and
which rolls end the leg (5 dice) or the race (mid-leg, at once) is the
rules core's business (:func:`advisor.rules.actions.play`), not the source's.

The players' own randomness (a bot's ``rng``) never draws from these
streams: :func:`advisor.simulate.games.play_game` gives the bot in seat ``s`` the
stream ``(seed, s)``, so no decision shifts the dice.
"""

from __future__ import annotations

import numpy as np

from advisor.errors import AdvisorError
from advisor.rules.actions import Roll
from advisor.rules.editions import GREY_DIE

__all__ = ["DICE_MODES", "DiceSource", "GameDice", "LegDice", "dice_source", "face_roll", "draw_uniform"]

#: The dice sources a game can be played with (see the module text).
DICE_MODES = ("game", "leg")

#: Tag of the per-leg streams ``(seed, DICE_TAG, leg)``: never equal to a
#: seat's stream ``(seed, s)`` (s < 8) nor to another leg's.
DICE_TAG = 0x44494345  # "DICE"

_FACES = 6


def face_roll(die: str, face: int) -> Roll:
    """The roll of ``die`` landing on ``face`` (0..5): a racing die shows
    1, 1, 2, 2, 3, 3; the grey die 1, 2, 3 printed white, then 1, 2, 3
    printed black (docs/rules.md, Dice and legs)."""
    if die == GREY_DIE:
        return Roll(die, face % 3 + 1, ("white", "black")[face // 3])
    return Roll(die, face // 2 + 1)


def draw_uniform(rng: np.random.Generator, dice: str) -> Roll:
    """One roll drawn from ``rng``: a die uniformly from ``dice`` (the
    pyramid), then one of its faces."""
    die = dice[int(rng.integers(len(dice)))]
    return face_roll(die, int(rng.integers(_FACES)))


class DiceSource:
    """The dice of one game: :attr:`setup_rng` draws the set-up and the
    first player; :meth:`roll` the next pyramid roll."""

    mode: str
    setup_rng: np.random.Generator

    def roll(self, pyramid: str, leg: int, all_dice: str) -> Roll:
        """The next roll, the pyramid holding ``pyramid`` in leg ``leg``
        (1-based) of an edition whose dice are ``all_dice``."""
        raise NotImplementedError


class GameDice(DiceSource):
    """One stream for the whole game (``"game"``)."""

    mode = "game"

    def __init__(self, seed: int):
        self.setup_rng = np.random.default_rng(seed)

    def roll(self, pyramid: str, leg: int, all_dice: str) -> Roll:
        return draw_uniform(self.setup_rng, pyramid)


class LegDice(DiceSource):
    """Each leg's die order and faces drawn from ``(seed, leg)`` (``"leg"``)."""

    mode = "leg"

    def __init__(self, seed: int):
        self.seed = seed
        self.setup_rng = np.random.default_rng([seed, DICE_TAG, 0])
        self._leg: tuple[int, str, list[Roll]] | None = None  # (leg, all dice, its rolls in order)

    def leg_rolls(self, leg: int, all_dice: str) -> list[Roll]:
        """Leg ``leg``'s pre-drawn rolls: every die of ``all_dice`` in the
        order the pyramid gives them, each with its face."""
        if self._leg is None or self._leg[:2] != (leg, all_dice):
            rng = np.random.default_rng([self.seed, DICE_TAG, leg])
            order = rng.permutation(len(all_dice))
            faces = rng.integers(_FACES, size=len(all_dice))
            self._leg = (leg, all_dice, [face_roll(all_dice[i], int(f)) for i, f in zip(order, faces)])
        return self._leg[2]

    def roll(self, pyramid: str, leg: int, all_dice: str) -> Roll:
        for roll in self.leg_rolls(leg, all_dice):
            if roll.die in pyramid:
                return roll
        raise AssertionError(f"no die of the pyramid {pyramid!r} among the dice {all_dice!r}")


def dice_source(mode: str, seed: int) -> DiceSource:
    """The source of dice ``mode`` (:data:`DICE_MODES`) for a game seeded ``seed``."""
    if mode == "game":
        return GameDice(seed)
    if mode == "leg":
        return LegDice(seed)
    raise AdvisorError(f"dice must be one of {', '.join(repr(m) for m in DICE_MODES)}, not {mode!r:.40}")
