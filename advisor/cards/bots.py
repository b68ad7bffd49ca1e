"""Camel Up Cards bots and whole bot games.

A bot answers ``choose(state, player, rng) -> CardsAction`` for the player
to act (deck building or a step of a turn).  It reads only what that
player may see: its own cards (``state.players[player]``), the public
table, and :meth:`~advisor.cards.game.CardsState.position` (the position as
the player sees it); never the deck's order nor the others' hands.

* ``random``: a uniformly random legal action (and a random deck building);
* ``heuristic``: at the start of its turn, the leg-winner card of the
  camel leading now if it is worth 3 or 5, then reveals (ends its turn with
  ``pass``); keeps a ``+2`` card in hand;
* ``greedy``: the first choice of :func:`~advisor.cards.advice.cards_best`
  on its position: a bet before (``B+reveal``, or ``R+B``, taken first) or
  after the race action (``reveal+best``: after the card, the bet worth
  most on the odds then, if any is worth more than nothing).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from ..errors import AdvisorError
from .actions import CardsAction
from .game import CardsGame, CardsSetup, CardsState, legal_actions, ranking
from .position import CAMELS

__all__ = ["CardsBot", "RandomCardsBot", "HeuristicCardsBot", "GreedyCardsBot", "CARDS_BOTS", "make_cards_bot",
           "play_cards_game", "build_for"]


class CardsBot(Protocol):
    name: str
    summary: str

    def choose(self, state: CardsState, player: int, rng: np.random.Generator) -> CardsAction: ...


def build_for(state: CardsState, player: int, order) -> CardsAction:
    """The deck building that keeps ``order[0]`` of the player's dealt
    cards (indices) in hand, shows the next if the set-up shows one, puts
    the next ones face down and discards the rest."""
    setup = state.setup
    cards = [state.players[player].dealt[i] for i in order]
    shown = cards[1] if setup.shown else None
    down = tuple(cards[1 + setup.shown:1 + setup.shown + setup.down])
    return CardsAction("build", hand=cards[0], shown=shown, down=down,
                       discard=tuple(cards[1 + setup.shown + setup.down:]))


class RandomCardsBot:
    name = "random"
    summary = "a uniformly random legal action; a random deck building"

    def choose(self, state: CardsState, player: int, rng: np.random.Generator) -> CardsAction:
        if state.phase == "build":
            return build_for(state, player, rng.permutation(len(state.players[player].dealt)))
        actions = legal_actions(state)
        return actions[int(rng.integers(len(actions)))]


class HeuristicCardsBot:
    name = "heuristic"
    summary = "the leader's leg-winner card if worth 3 or 5, then reveal; a +2 card kept in hand"

    def choose(self, state: CardsState, player: int, rng: np.random.Generator) -> CardsAction:
        if state.phase == "build":
            dealt = state.players[player].dealt
            order = sorted(range(len(dealt)), key=lambda i: -dealt[i][1])  # a +2 card first: the hand
            return build_for(state, player, order)
        if state.raced:
            return CardsAction("pass")
        if not state.bet:
            leader = ranking(state.sp, state.ht)[0]
            stack = state.legtiles[CAMELS.index(leader)]
            if stack and stack[0] >= 3:
                return CardsAction("leg", leader)
        return CardsAction("reveal")


class GreedyCardsBot:
    name = "greedy"
    summary = "the advisor's first choice (cards_best on the player's position)"

    def __init__(self, precision: float = 0.02):
        self.precision = precision
        self.pending: list[CardsAction] = []

    def choose(self, state: CardsState, player: int, rng: np.random.Generator) -> CardsAction:
        from .advice import cards_best

        if state.phase == "build":
            dealt = state.players[player].dealt
            return build_for(state, player, sorted(range(len(dealt)), key=lambda i: -dealt[i][1]))
        seed = int(rng.integers(2**31))
        if state.raced:  # after a reveal: the bet worth most on the odds now, if any
            frame = cards_best(state.position(player), seed=seed, precision=self.precision, progress=False)
            before = frame[frame.timing == "before"]
            if len(before) and before.ev.max() > 0:
                return CardsAction.parse(before.loc[before.ev.idxmax(), "bet"])
            return CardsAction("pass")
        if state.bet:  # the bet of a chosen turn is taken: its race action
            if self.pending:
                return self.pending.pop()
            return CardsAction("reveal")
        frame = cards_best(state.position(player), seed=seed, precision=self.precision, progress=False)
        row = frame.iloc[0]
        race = CardsAction.parse(row.race)
        self.pending = []
        if row.bet and row.timing != "after":  # the bet first: its value is the same either way
            self.pending = [race]
            return CardsAction.parse(row.bet)
        return race


CARDS_BOTS = {"random": RandomCardsBot, "heuristic": HeuristicCardsBot, "greedy": GreedyCardsBot}


def make_cards_bot(name: str) -> CardsBot:
    if name not in CARDS_BOTS:
        raise AdvisorError(f"unknown Camel Up Cards bot {name!r} (bots: {', '.join(CARDS_BOTS)})")
    return CARDS_BOTS[name]()


def play_cards_game(bots, setup: CardsSetup | None = None, seed: int = 0, dice: str = "game") -> list[dict]:
    """One game, bot ``bots[s]`` in seat ``s`` (each drawing from its own
    stream ``(seed, s)``); returns its record (the setup line names the
    bots).  ``dice``: the source of the deals and shuffles
    (:mod:`advisor.cards.chance`; ``"leg"``: each leg's own)."""
    players = [make_cards_bot(name) for name in bots]
    setup = setup or CardsSetup(players=len(players))
    if setup.players != len(players):
        raise AdvisorError(f"{len(players)} bots for {setup.players} players: one per seat")
    game = CardsGame(setup, seed, dice=dice)
    game.record[0]["bots"] = list(bots)
    rngs = [np.random.default_rng([seed, s]) for s in range(len(players))]
    while not game.finished:
        p = game.state.current
        game.play(players[p].choose(game.state, p, rngs[p]))
    return game.record
