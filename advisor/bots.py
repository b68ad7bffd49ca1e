"""Bots: a small policy interface and the built-in players.

A policy maps what a player sees (:meth:`advisor.game.Game.view`) to an
action: ``policy.choose(state, player, rng) -> str``.  ``rng`` is a
``numpy.random.Generator`` owned by the seat, so a seeded game is
reproducible.

* ``random``: a uniformly random legal action.
* ``heuristic``: takes the leg bet tile with the highest expected value if
  that value exceeds 1 coin, else takes a pyramid tile (the "roll unless a leg
  tile is worth more than the +1" rule of thumb).
* ``advisor``: EV-greedy: the action with the highest EV, valued by
  :func:`advisor.valuation.fast_values` (``best_moves``'s EVs in one pass; race
  odds at +-2 percentage points).
* ``denial``: EV-greedy plus half the denial value of each action.
* ``rival``: EV minus what the action gains the other players (see
  :class:`RivalBot`); beats EV-greedy (README, tournament figures).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from .state import GameState

__all__ = ["Policy", "RandomBot", "HeuristicBot", "GreedyBot", "DenialBot", "RivalBot", "BOTS", "make_bot"]


class Policy(Protocol):
    name: str
    summary: str  # one line for the help texts

    def choose(self, state: GameState, player: int, rng: np.random.Generator) -> str: ...


class RandomBot:
    name = "random"
    summary = "a uniformly random legal action"

    def choose(self, state: GameState, player: int, rng: np.random.Generator) -> str:
        from .valuation import legal_actions

        actions = legal_actions(state, player)
        return actions[int(rng.integers(len(actions)))]


class HeuristicBot:
    name = "heuristic"
    summary = "the best leg tile if its EV exceeds 1 coin, else roll"

    def choose(self, state: GameState, player: int, rng: np.random.Generator) -> str:
        from .exact import leg_odds
        from .rules.actions import leg_bet_value

        pos = state.position
        ed = pos.rules
        odds = leg_odds(pos)
        best, best_ev = "pyramid", 1.0
        for i, (colour, stack) in enumerate(zip(pos.racing, pos.legtiles)):
            value = leg_bet_value(ed, stack)  # the top tile, or a variant's unlimited tile
            if value is not None:
                p = odds.rank[i]
                # what the tile pays by the rules (value / +1 / -1), without the money floor
                ev = value * p[0] + ed.leg_second * p[1] + ed.leg_other * p[2:].sum()
                if ev > best_ev:
                    best, best_ev = f"leg:{colour}", ev
        return best


class GreedyBot:
    """The advisor's first choice.  ``precision``: of the race odds behind
    the overall cards (default +-0.02)."""

    name = "advisor"
    summary = "EV-greedy: the action with the highest expected value"

    def __init__(self, precision: float = 0.02):
        self.precision = precision

    def choose(self, state: GameState, player: int, rng: np.random.Generator) -> str:
        from .valuation import fast_values

        return fast_values(state, player, precision=self.precision).best()


class DenialBot(GreedyBot):
    """EV-greedy plus ``weight`` times the denial value of each action: an
    action that also takes the best option away from the next player (the
    top leg tile, a good pile place) is worth more than its own EV."""

    name = "denial"
    summary = "EV-greedy plus half the denial value of each action"

    def __init__(self, precision: float = 0.02, weight: float = 0.5):
        super().__init__(precision)
        self.weight = weight

    def choose(self, state: GameState, player: int, rng: np.random.Generator) -> str:
        from .valuation import fast_values

        return fast_values(state, player, precision=self.precision, denial=True).best(self.weight)


class RivalBot(GreedyBot):
    """Plays for a larger share of the money, not just more money: EV minus
    ``weight`` times what the action gains the other players in total (their
    held leg bets moved by a tile, the next player's best option taken away
    (denial) or improved by the information of a roll); see
    :func:`advisor.valuation.fast_values` (``rivals``).  Default weight
    ``1 / (players - 1)``: the action's effect on the player's money minus
    the average opponent's."""

    name = "rival"
    summary = "EV minus what the action gains the other players"

    def __init__(self, precision: float = 0.02, weight: float | None = None):
        super().__init__(precision)
        self.weight = weight

    def choose(self, state: GameState, player: int, rng: np.random.Generator) -> str:
        from .valuation import fast_values

        values = fast_values(state, player, precision=self.precision, rivals=True)
        others = state.n_players - 1
        weight = 1 / others if self.weight is None else self.weight
        # rivals is the mean gain of the others: weight it by their number
        return values.best(rivals_weight=weight * others)


BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "advisor": GreedyBot, "denial": DenialBot, "rival": RivalBot}


def make_bot(name: str) -> Policy:
    from .errors import AdvisorError

    try:
        return BOTS[name]()
    except KeyError:
        raise AdvisorError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})") from None
