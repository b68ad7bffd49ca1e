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
* ``greedy``: the EV-greedy first choice of the advice's values on its
  position (the fast valuation, :func:`~advisor.cards.fast.cards_values`:
  :func:`~advisor.cards.best.cards_best`'s rows and formulas in one pass
  over shared scenarios): a bet before (``B+reveal``, or ``R+B``, taken
  first) or after the race action (``reveal+best``: after the card, the bet
  worth most on the odds then, if any is worth more than nothing);
  :class:`GreedyCardsBot` itself values with ``cards_best`` (``fast=False``);
* ``shark``: greedy's values, minus what the turn gains the other players
  (:mod:`advisor.cards.rival`), the race deck built for information
  (:func:`information_build`), and once the race likely ends in the leg the
  chance of winning the game (:mod:`advisor.cards.endgame`);
* ``margin``: every turn, the chance of winning the game
  (:mod:`advisor.cards.endgame` with the spread of the legs to come): the
  margin over the richest other player after the leg, a race that goes on
  won with the normal chance of that margin; shark's deck building;
* ``share``, ``informed``, ``endgame``: each of shark's three parts alone
  on top of greedy (to measure them: docs/user-guide/cards.md, Camel Up Cards bots).

Every bot also gives its whole ranking of the step to play:
``ranked(state, player, rng) -> list[(CardsAction, score)]``, every legal
action once (the deck building: the one building the bot makes), best
first, so a host that refuses an action takes the next; ``choose`` is its
first action, drawing the same random numbers.  Scores: ``greedy``, the
EV (coins) of the best turn that starts with the action (``pass`` after a
reveal is worth 0); ``shark`` and ``share``, that EV minus what the turn
gains the others (``shark`` near the end: the chance of winning plus a
thousandth of that score; ``endgame`` likewise; ``margin`` on every turn,
plus a thousandth of the EV); ``random``, the probability of being drawn
(the drawn action first, the others in legal order); ``heuristic``, 1 for
the action its rule takes and 0 for the others (in legal order).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from advisor.errors import AdvisorError
from advisor.cards.actions import CardsAction
from advisor.cards.best import cards_best
from advisor.cards.endgame import ENDGAME, race_ends, spread_for, win_chances
from advisor.cards.fast import cards_values, turn_values
from advisor.cards.game import CardsGame, CardsSetup, CardsState, legal_actions, ranking
from advisor.cards.odds import code_ranks, kernel_state, leg_distribution
from advisor.cards.position import CAMELS, CardsPosition
from advisor.cards.rival import others_gain

__all__ = ["ranked_first", "CardsBot", "RandomCardsBot", "HeuristicCardsBot", "GreedyCardsBot", "FastGreedyCardsBot",
           "SharkCardsBot", "MarginCardsBot", "ShareCardsBot", "InformedCardsBot", "EndgameCardsBot", "CARDS_BOTS",
           "make_cards_bot", "play_cards_game", "build_for", "information_build", "BUILD_LEGS"]


class CardsBot(Protocol):
    name: str
    summary: str

    def ranked(self, state: CardsState, player: int,
               rng: np.random.Generator | None = None) -> list[tuple[CardsAction, float]]: ...

    def choose(self, state: CardsState, player: int, rng: np.random.Generator) -> CardsAction: ...


def ranked_first(state: CardsState, chosen: CardsAction, score: float = 1.0, rest: float = 0.0):
    """``chosen`` with ``score``, then every other legal action with
    ``rest``, in legal order (the ranking of a bot that picks one action
    by a rule)."""
    return [(chosen, score)] + [(a, rest) for a in legal_actions(state) if a != chosen]


def _rng(rng):
    return np.random.default_rng(0) if rng is None else rng


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

    def ranked(self, state: CardsState, player: int, rng: np.random.Generator | None = None):
        rng = _rng(rng)
        if state.phase == "build":
            return [(build_for(state, player, rng.permutation(len(state.players[player].dealt))), 1.0)]
        actions = legal_actions(state)
        return ranked_first(state, actions[int(rng.integers(len(actions)))], 1 / len(actions), 1 / len(actions))

    def choose(self, state: CardsState, player: int, rng: np.random.Generator) -> CardsAction:
        return self.ranked(state, player, rng)[0][0]


class HeuristicCardsBot:
    name = "heuristic"
    summary = "the leader's leg-winner card if worth 3 or 5, then reveal; a +2 card kept in hand"

    def ranked(self, state: CardsState, player: int, rng: np.random.Generator | None = None):
        chosen = self._rule(state, player)
        if state.phase == "build":
            return [(chosen, 1.0)]
        return ranked_first(state, chosen)

    def choose(self, state: CardsState, player: int, rng: np.random.Generator) -> CardsAction:
        return self.ranked(state, player, rng)[0][0]

    def _rule(self, state: CardsState, player: int) -> CardsAction:
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
    """The advisor's first choice on the player's position: with
    ``fast=False`` (this class's default) :func:`~advisor.cards.best.
    cards_best`'s, the review's own valuation (so the bot loses nothing
    against a review with its seed and precision); with ``fast=True`` (the
    ``greedy`` bot of :data:`CARDS_BOTS`, :class:`FastGreedyCardsBot`) the
    fast valuation's, :func:`~advisor.cards.fast.cards_values` (the same
    rows and formulas, in a tenth of the time)."""

    name = "greedy"
    summary = "the advisor's first choice (cards_best on the player's position)"

    def __init__(self, precision: float = 0.02, fast: bool = False):
        self.precision = precision
        self.fast = fast
        self.pending: list[CardsAction] = []

    def ranked(self, state: CardsState, player: int, rng: np.random.Generator | None = None):
        """The ranking of the step to play (see the module text); a bet
        taken first is followed by the race action of its turn
        (:meth:`choose` remembers it)."""
        return self._ranked(state, player, _rng(rng))[0]

    def values(self, state: CardsState, player: int, seed: int):
        """The advice's rows on the player's position."""
        if self.fast:
            return cards_values(state.position(player), seed=seed, precision=self.precision)
        return cards_best(state.position(player), seed=seed, precision=self.precision, progress=False,
                          objective="ev")

    def build(self, state: CardsState, player: int, rng: np.random.Generator) -> CardsAction:
        """The deck building: a ``+2`` card kept in hand, then by value."""
        dealt = state.players[player].dealt
        return build_for(state, player, sorted(range(len(dealt)), key=lambda i: -dealt[i][1]))

    def _ranked(self, state: CardsState, player: int, rng: np.random.Generator):
        if state.phase == "build":
            return [(self.build(state, player, rng), 0.0)], None
        seed = int(rng.integers(2**31))
        if state.raced:  # after a reveal: the bet worth most on the odds now, if any
            # (the position says next:1: cards_best values the bets now)
            frame = self.values(state, player, seed)
            before = frame[frame.timing == "now"].sort_values("ev", ascending=False, kind="stable")
            scores = {CardsAction("pass"): 0.0}  # pass first: it wins a tie at 0
            for bet, ev in zip(before.bet, before.ev):
                scores.setdefault(CardsAction.parse(bet), float(ev))
            return _by_score(state, scores), None
        if state.bet:  # the bet of a chosen turn is taken: its race action
            chosen = self.pending[-1] if self.pending else CardsAction("reveal")
            return ranked_first(state, chosen), None
        frame = self.values(state, player, seed)
        scores, after = {}, {}
        for race, bet, timing, ev in zip(frame.race, frame.bet, frame.timing, frame.ev):
            race = CardsAction.parse(race)
            # the bet first when the turn takes it before (its value is the same either way)
            step = CardsAction.parse(bet) if bet and timing != "after" else race
            if step not in scores:
                scores[step] = float(ev)
                after[step] = race if step != race else None
        ranking = _by_score(state, scores)
        return ranking, after.get(ranking[0][0])

    def choose(self, state: CardsState, player: int, rng: np.random.Generator) -> CardsAction:
        ranking, then = self._ranked(state, player, rng)
        if state.phase == "turn" and not state.raced:
            if state.bet:
                if self.pending:  # played now: the first of the ranking
                    self.pending.pop()
            else:
                self.pending = [] if then is None else [then]
        return ranking[0][0]


def _by_score(state: CardsState, scores: dict) -> list[tuple[CardsAction, float]]:
    """Every legal action with its score, highest first (ties in the order
    of ``scores``); an action without a score comes last at ``-inf``."""
    actions = list(scores) + [a for a in legal_actions(state) if a not in scores]
    values = [scores.get(a, -np.inf) for a in actions]
    return [(actions[i], values[i]) for i in sorted(range(len(actions)), key=lambda i: -values[i])]


class FastGreedyCardsBot(GreedyCardsBot):
    """The ``greedy`` bot: the EV-greedy first choice of the advice's values,
    from the fast valuation (:func:`~advisor.cards.fast.cards_values`)."""

    summary = "the EV-greedy first choice of the advice's values (the fast valuation)"

    def __init__(self, precision: float = 0.02):
        super().__init__(precision, fast=True)


class SharkCardsBot(FastGreedyCardsBot):
    """Plays for a larger share of the money: the turn of highest ``ev -
    weight * gain``, ``gain`` the mean over the other players of what the
    turn gains them (:func:`~advisor.cards.rival.others_gain`: their bets
    under the leg and race the turn leaves, the next player's best bet on
    the table it leaves and on what they will know); ``weight`` 1.  With
    ``build=True`` it builds the race deck for information
    (:func:`information_build`); with ``endgame=True``, once the race ends
    in this leg with probability at least
    :data:`~advisor.cards.endgame.ENDGAME`, it plays for the chance of
    winning the game (:func:`~advisor.cards.endgame.win_chances`; the
    score is that chance plus a thousandth of the score above, which
    breaks ties)."""

    name = "shark"
    summary = ("EV minus what the turn gains the others; builds the race deck for information; plays for the "
               "win near the end")
    #: a race that goes on weighed against every other player (``"all"``)
    #: or the richest alone (:func:`~advisor.cards.endgame.turn_win_chances`)
    against = "all"

    def __init__(self, precision: float = 0.02, weight: float = 1.0, build: bool = True, endgame: bool = True):
        super().__init__(precision)
        self.weight = weight
        self.informed = build
        self.endgame = endgame

    def values(self, state: CardsState, player: int, seed: int):
        values = turn_values(state.position(player), seed=seed, precision=self.precision)
        frame = values.frame()
        score = frame.ev.to_numpy().copy()
        if self.weight:
            gain = others_gain(values, state, player)
            score -= self.weight * np.array([gain[a] for a in frame.action])
        spread = self.win_spread(values, state)
        if spread is not None:
            win = win_chances(values, state, player, spread, self.against)
            score = np.array([win[a] for a in frame.action]) + 1e-3 * score
        frame["ev"] = score
        return frame.sort_values("ev", ascending=False, kind="stable").reset_index(drop=True)

    def win_spread(self, values, state: CardsState) -> float | None:
        """Play for the chance of winning (:func:`~advisor.cards.endgame.
        win_chances` with this spread) or, None, for the score above:
        with ``endgame``, once the race likely ends in the leg, as if it
        ended there (spread 0)."""
        if not self.endgame:
            return None
        return 0.0 if race_ends(values) >= ENDGAME else None

    def build(self, state: CardsState, player: int, rng: np.random.Generator) -> CardsAction:
        if not self.informed:
            return super().build(state, player, rng)
        return information_build(state, player, int(rng.integers(2**31)))


class MarginCardsBot(SharkCardsBot):
    """Plays every turn for the chance of winning the game
    (:func:`~advisor.cards.endgame.win_chances` with the spread of the
    legs to come, :func:`~advisor.cards.endgame.spread_for`): each leg
    outcome of the turn settles everyone's bets; a race over is won by the
    most money, a race that goes on with the normal chance
    ``Phi(margin / spread)`` of the player's margin over the richest other
    player (``against="richest"``: the model its duels and tournaments
    measured; the advice weighs every other player, which reads better
    calibrated chances from 3 players on but is not yet measured as a way
    to play).  Ahead it keeps the lead, behind it
    takes the bets that can overtake; its score is that chance plus a
    thousandth of the EV (ties).  The race deck built for information
    (:func:`information_build`; ``build=False``: greedy's building)."""

    name = "margin"
    summary = ("every turn, the chance of winning the game: the margin over the richest other player after the leg "
               "against the spread of the legs to come; builds the race deck for information")
    against = "richest"

    def __init__(self, precision: float = 0.02, build: bool = True):
        super().__init__(precision, weight=0.0, build=build, endgame=True)

    def win_spread(self, values, state: CardsState) -> float | None:
        return spread_for(state.leg)


class EndgameCardsBot(SharkCardsBot):
    """``greedy`` playing for the chance of winning near the end (to
    measure it alone)."""

    name = "endgame"
    summary = "greedy, playing for the chance of winning once the race likely ends in the leg"

    def __init__(self, precision: float = 0.02):
        super().__init__(precision, weight=0.0, build=False, endgame=True)


class InformedCardsBot(SharkCardsBot):
    """``greedy`` with ``shark``'s deck building (to measure it alone)."""

    name = "informed"
    summary = "greedy, building the race deck for information"

    def __init__(self, precision: float = 0.02):
        super().__init__(precision, weight=0.0, build=True, endgame=False)


class ShareCardsBot(SharkCardsBot):
    """``greedy`` minus what the turn gains the others (``shark``'s term
    alone, to measure it)."""

    name = "share"
    summary = "EV minus what the turn gains the other players; greedy's deck building"

    def __init__(self, precision: float = 0.02):
        super().__init__(precision, weight=1.0, build=False, endgame=False)


#: Sampled legs per deck building valued by :func:`information_build`.
BUILD_LEGS = 2_000


def information_build(state: CardsState, player: int, seed: int, samples: int = BUILD_LEGS) -> CardsAction:
    """The deck building whose race deck the player knows best: of every
    way to keep, show, put down and discard the dealt cards, the one whose
    leg odds, as the player will see them (the cards shown and put down in
    the deck, the hand card and the discards out of it, the other cards
    unknown: ``samples`` legs of the deck alone), make the top leg-winner
    card of some camel worth most (the player bets on it first; the others
    do not know the cards put face down).  Ties: the first in the order of
    :func:`build_for` over the dealt cards' orders."""
    from itertools import combinations

    setup = state.setup
    dealt = state.players[player].dealt
    idx = range(len(dealt))
    best, best_score, seen = None, -np.inf, set()
    for h in idx:
        for s in ([i for i in idx if i != h] if setup.shown else [None]):
            rest = [i for i in idx if i not in (h, s)]
            for down in combinations(rest, setup.down):
                discard = [i for i in rest if i not in down]
                shown = [dealt[s]] if s is not None else []
                known = tuple(sorted([dealt[i] for i in down] + shown))
                key = (dealt[h], known, tuple(sorted(dealt[i] for i in discard)))
                if key in seen:
                    continue
                seen.add(key)
                pos = CardsPosition(stacks=state.stacks(), players=setup.players, track=state.track,
                                    decksize=setup.decksize, known=known, out=key[2], hand=dealt[h])
                codes, _ = leg_distribution(kernel_state(pos), samples, seed, by_first=False)
                leg = code_ranks(codes.sum(axis=(0, 1)))
                score = float((6 * leg[:, 0] + 2 * leg[:, 1] - 1).max())  # 5 if 1st, 1 if 2nd, else -1
                if score > best_score:
                    best, best_score = [h] + ([s] if s is not None else []) + list(down) + discard, score
    return build_for(state, player, best)


CARDS_BOTS = {"random": RandomCardsBot, "heuristic": HeuristicCardsBot, "greedy": FastGreedyCardsBot,
              "shark": SharkCardsBot, "share": ShareCardsBot, "informed": InformedCardsBot,
              "endgame": EndgameCardsBot, "margin": MarginCardsBot}


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
