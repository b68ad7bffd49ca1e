"""Bots: a small policy interface and the built-in players.

A policy maps what a player sees (:meth:`advisor.game.Game.view`) to an
action: ``policy.choose(state, player, rng) -> str``.  ``rng`` is a
``numpy.random.Generator`` owned by the seat, so a seeded game is
reproducible.

Every bot also gives its whole ranking: ``policy.ranked(state, player, rng)
-> list[(action, score)]``, every legal action of ``player`` once, best
first (ties in :func:`advisor.valuation.engine.legal_actions` order), so a host
that refuses an action (its own rules engine, a time limit) takes the next
one.  ``choose`` is the first action of ``ranked`` (:func:`first`), drawing
the same random numbers.  The scores are the bot's own: EVs in coins for
the valuing bots (``advisor``: EV; ``denial``: EV + half the denial;
``rival``: EV minus the others' gain; ``portfolio``, ``margin``: that
less their risk terms, the share of first place in their endgame), the
rule's figure for ``heuristic``
(a leg tile's EV, 1 for the pyramid, ``-inf`` for an action its rule never
takes) and the probability of being drawn for ``random`` (the drawn action
first, then the others in legal order).  :func:`ask` asks a bot for its
ranking from a game state (a :class:`~advisor.rules.state.GameState`, its JSON
object or file).

* ``random``: a uniformly random legal action.
* ``heuristic``: takes the leg bet tile with the highest expected value if
  that value exceeds 1 coin, else takes a pyramid tile (the "roll unless a leg
  tile is worth more than the +1" rule of thumb).
* ``advisor``: EV-greedy: the action with the highest EV, valued by
  :func:`advisor.valuation.fast.fast_values` (``best_moves``'s EVs in one pass; race
  odds at +-2 percentage points).
* ``denial``: EV-greedy plus half the denial value of each action.
* ``rival``: EV minus what the action gains the other players (see
  :class:`RivalBot`); beats EV-greedy (docs/results.md, Tournament figures).
* ``portfolio``: ``rival`` with its bets as a portfolio (:class:`PortfolioBot`).
* ``margin``: ``rival`` playing for the margin over the best other player
  (:class:`MarginBot`); beats ``rival`` (docs/user-guide/games.md, The margin bot).

A bot may also have ``observe(state, player)``: a host shows it its view
before the other players' turns (:func:`advisor.simulate.games.play_game` does),
for a bot that keeps a memory of the game (``margin``'s inferred cards).
"""

from __future__ import annotations

from typing import Protocol

import numpy as np

from advisor.bots.inference import SeenCards
from advisor.errors import AdvisorError, IllegalActionError
from advisor.odds.exact import leg_odds
from advisor.rules.actions import leg_bet_value
from advisor.rules.state import GameState
from advisor.valuation.engine import legal_actions
from advisor.valuation.fast import fast_values
from advisor.valuation.portfolio import (
    LEAD_SCALE, RISK, Portfolio, endgame_shares, joint_counts, nearness, race_ends_now, risk_attitude,
)
from advisor.valuation.standing import attitude, legs_left, margin, rival_holdings, standings, table_of, threat

__all__ = ["Policy", "RandomBot", "HeuristicBot", "GreedyBot", "DenialBot", "RivalBot", "PortfolioBot", "MarginBot", "BOTS", "make_bot",
           "order", "first", "first_accepted", "ask"]


class Policy(Protocol):
    name: str
    summary: str  # one line for the help texts

    def ranked(self, state: GameState, player: int,
               rng: np.random.Generator | None = None) -> list[tuple[str, float]]: ...

    def choose(self, state: GameState, player: int, rng: np.random.Generator) -> str: ...


def order(actions, scores) -> list[tuple[str, float]]:
    """``(action, score)`` pairs, highest score first; ties keep the order of
    ``actions`` (the first of the ties is what ``np.argmax`` picks)."""
    scores = [float(x) for x in scores]
    return [(actions[i], scores[i]) for i in sorted(range(len(actions)), key=lambda i: -scores[i])]


def first(ranking: list[tuple[str, float]]) -> str:
    """The action a bot plays: the first of its ranking."""
    return ranking[0][0]


def first_accepted(ranking: list[tuple[str, float]], accept) -> str:
    """The first action of ``ranking`` that ``accept(action)`` allows: a
    host's fallback when it refuses the bot's first choice (its own rules
    engine, a time limit).  Raises :class:`~advisor.errors.IllegalActionError`
    when it refuses every one."""
    for action, _ in ranking:
        if accept(action):
            return action
    raise IllegalActionError(f"every one of the {len(ranking)} ranked actions was refused")


def _rng(rng):
    return np.random.default_rng(0) if rng is None else rng


class RandomBot:
    name = "random"
    summary = "a uniformly random legal action"

    def ranked(self, state: GameState, player: int, rng: np.random.Generator | None = None):
        actions = legal_actions(state, player)
        k = int(_rng(rng).integers(len(actions)))
        return [(a, 1 / len(actions)) for a in [actions[k], *actions[:k], *actions[k + 1:]]]

    def choose(self, state: GameState, player: int, rng: np.random.Generator) -> str:
        return first(self.ranked(state, player, rng))


class HeuristicBot:
    name = "heuristic"
    summary = "the best leg tile if its EV exceeds 1 coin, else roll"

    def ranked(self, state: GameState, player: int, rng: np.random.Generator | None = None):
        pos = state.position
        ed = pos.rules
        odds = leg_odds(pos)
        scores = {"pyramid": 1.0}  # the pyramid first: it wins a tie at 1 coin
        for i, (colour, stack) in enumerate(zip(pos.racing, pos.legtiles)):
            value = leg_bet_value(ed, stack)  # the top tile, or a variant's unlimited tile
            if value is not None:
                p = odds.rank[i]
                # what the tile pays by the rules (value / +1 / -1), without the money floor
                scores[f"leg:{colour}"] = value * p[0] + ed.leg_second * p[1] + ed.leg_other * p[2:].sum()
        legal = legal_actions(state, player)
        actions = [a for a in scores if a in legal] + [a for a in legal if a not in scores]
        return order(actions, [scores.get(a, -np.inf) for a in actions])

    def choose(self, state: GameState, player: int, rng: np.random.Generator) -> str:
        return first(self.ranked(state, player, rng))


class GreedyBot:
    """The advisor's first choice.  ``precision``: of the race odds behind
    the overall cards (default +-0.02)."""

    name = "advisor"
    summary = "EV-greedy: the action with the highest expected value"

    def __init__(self, precision: float = 0.02):
        self.precision = precision

    def ranked(self, state: GameState, player: int, rng: np.random.Generator | None = None):
        values = fast_values(state, player, precision=self.precision)
        return order(values.actions, values.scores())

    def choose(self, state: GameState, player: int, rng: np.random.Generator) -> str:
        return first(self.ranked(state, player, rng))


class DenialBot(GreedyBot):
    """EV-greedy plus ``weight`` times the denial value of each action: an
    action that also takes the best option away from the next player (the
    top leg tile, a good pile place) is worth more than its own EV."""

    name = "denial"
    summary = "EV-greedy plus half the denial value of each action"

    def __init__(self, precision: float = 0.02, weight: float = 0.5):
        super().__init__(precision)
        self.weight = weight

    def ranked(self, state: GameState, player: int, rng: np.random.Generator | None = None):
        values = fast_values(state, player, precision=self.precision, denial=True)
        return order(values.actions, values.scores(self.weight))


class RivalBot(GreedyBot):
    """Plays for a larger share of the money, not just more money: EV minus
    ``weight`` times what the action gains the other players in total (their
    held leg bets moved by a tile, the next player's best option taken away
    (denial) or improved by the information of a roll); see
    :func:`advisor.valuation.fast.fast_values` (``rivals``).  Default weight
    ``1 / (players - 1)``: the action's effect on the player's money minus
    the average opponent's."""

    name = "rival"
    summary = "EV minus what the action gains the other players"

    def __init__(self, precision: float = 0.02, weight: float | None = None):
        super().__init__(precision)
        self.weight = weight

    def ranked(self, state: GameState, player: int, rng: np.random.Generator | None = None):
        values = fast_values(state, player, precision=self.precision, rivals=True)
        others = state.n_players - 1
        weight = 1 / others if self.weight is None else self.weight
        # rivals is the mean gain of the others: weight it by their number
        return order(values.actions, values.scores(rivals_weight=weight * others))



def _moments(book, values) -> tuple[np.ndarray, np.ndarray]:
    """Per action of ``values`` (the bots' fast values), against ``book`` (an
    :class:`advisor.valuation.portfolio.Portfolio`): the variance of its
    payout and its covariance with the holdings of ``book``; tile
    placements from the valuation's outcome tables, in one call."""
    var, cov = np.zeros(len(values.actions)), np.zeros(len(values.actions))
    for i, action in enumerate(values.actions):
        if not action.startswith("tile:"):
            var[i], cov[i] = book.of(action)
    if values.tables is not None and values.tables.placements:
        index = {a: i for i, a in enumerate(values.actions)}
        rows = [index[f"tile:{sign}{space}"] for space, sign in values.tables.placements]
        var[rows], cov[rows] = book.of_tiles(values.tables.orders)
    return var, cov

class PortfolioBot(RivalBot):
    """``rival``'s score with the portfolio view of its own bets
    (:mod:`advisor.valuation.portfolio`): ``score - lam * cov`` (``portfolio``: the
    covariance of the action's payout with what the bot holds, leg tiles
    and overall cards, over the joint distribution of this leg's order and
    the race's winner and last camel) and ``- lam / 2 * nearness * var``
    (``risk``: the action's own variance, weighted by how near the race's
    end is, :func:`advisor.valuation.portfolio.nearness`), with ``lam`` the risk
    attitude of the lead (:func:`advisor.valuation.portfolio.risk_attitude`:
    ``risk_scale`` at a lead of ``lead_scale`` coins or more, its negative
    when as far behind, 0 when level): diversify when ahead, concentrate
    when behind."""

    name = "portfolio"
    summary = "rival plus its bets as a portfolio: diversify when ahead, concentrate when behind, by the race end"

    def __init__(self, precision: float = 0.02, weight: float | None = None, portfolio: bool = True,
                 risk: bool = True, risk_scale: float | None = None, lead_scale: float | None = None,
                 endgame: bool = False):
        super().__init__(precision, weight)
        self.endgame = endgame
        self.portfolio, self.risk = portfolio, risk
        self.risk_scale = RISK if risk_scale is None else risk_scale
        self.lead_scale = LEAD_SCALE if lead_scale is None else lead_scale

    def ranked(self, state: GameState, player: int, rng: np.random.Generator | None = None):
        values = fast_values(state, player, precision=self.precision, rivals=True)
        others = state.n_players - 1
        weight = 1 / others if self.weight is None else self.weight
        scores = values.scores(rivals_weight=weight * others)
        lam = risk_attitude([p.money for p in state.players], player, self.risk_scale, self.lead_scale)
        if lam and (self.portfolio or self.risk):
            ctx = values.context
            var, cov = _moments(Portfolio(ctx, joint_counts(ctx.pos)), values)
            if self.portfolio:
                scores = scores - lam * cov
            if self.risk:
                scores = scores - lam / 2 * nearness(ctx.race()) * var
        if self.endgame:
            ctx = values.context
            if race_ends_now(ctx):
                # the race ends in this leg: the exact share of first place, the score as the tie-break
                shares = endgame_shares(ctx, values.actions, values.tables)
                ranks = sorted(range(len(scores)), key=lambda i: (-shares[i], -scores[i]))
                return [(values.actions[i], float(shares[i])) for i in ranks]
        return order(values.actions, scores)


class PortfolioEndBot(PortfolioBot):
    name = "portfolio-end"
    summary = "rival with exact values in the endgame only, to measure them"

    def __init__(self, precision: float = 0.02):
        super().__init__(precision, portfolio=False, risk=False, endgame=True)


class PortfolioCovBot(PortfolioBot):
    name = "portfolio-cov"
    summary = "portfolio with its covariance term only, to measure it"

    def __init__(self, precision: float = 0.02):
        super().__init__(precision, risk=False)


class PortfolioRiskBot(PortfolioBot):
    name = "portfolio-risk"
    summary = "portfolio with its risk term only, to measure it"

    def __init__(self, precision: float = 0.02):
        super().__init__(precision, portfolio=False)


class MarginBot(RivalBot):
    """``rival`` playing for the margin over the best other player, by
    ingredients that can each be switched off (to measure it):

    * ``infer``: the others' face-down overall cards inferred from what the
      bot has seen of the game (:class:`advisor.bots.inference.SeenCards`, one
      memory per bot: a bot plays one seat of one game), in every figure
      (the bot's own cards' places on the piles, the others' hands and
      standing);
    * ``risk``: minus ``lam / 2 * Var(X)`` of the action's payout ``X``,
      ``lam`` the risk attitude of the margin and the legs left
      (:func:`advisor.valuation.standing.attitude`): careful when ahead, gambling
      when behind, more so as the end nears;
    * ``cov``: minus ``lam * Cov(X, H)``, ``H`` the bot's holdings (leg
      bets and overall cards, over the joint distribution of this leg's
      order and the race's winner and last camel:
      :class:`advisor.valuation.portfolio.Portfolio`) less, with ``rival_cov``, the
      holdings of the best other player: diversify when ahead, concentrate
      when behind, and bet on what the leader does not when behind;
    * ``threat``: the others' gains (``rival``'s term) weighted by how much
      each threatens the bot's win (:func:`advisor.valuation.standing.threat`: the
      best other the most, a player far behind not at all) instead of
      their mean;
    * ``wealth``: the margin counted in expected wealth (money and what the
      placed bets are expected to pay, :func:`advisor.valuation.standing.wealth`);
      else in money;
    * ``endgame``: when the race surely ends in this leg, the exact share
      of first place of each action (:func:`advisor.valuation.portfolio.endgame_shares`),
      the score breaking ties.
    """

    name = "margin"
    summary = ("rival playing to win, for the margin over the best other player: risk and covariance of the margin, "
               "threat weights, inferred cards, exact endgame")

    def __init__(self, precision: float = 0.02, weight: float | None = None, infer: bool = True, risk: bool = True,
                 cov: bool = True, rival_cov: bool = True, threat: bool = True, wealth: bool = True,
                 endgame: bool = True, table=None):
        super().__init__(precision, weight)
        self.infer, self.risk, self.cov, self.rival_cov = infer, risk, cov, rival_cov
        self.threat, self.wealth, self.endgame = threat, wealth, endgame
        self.table = table  # None: the edition's (advisor.valuation.standing.LOGISTIC)
        self.seen = None
        if infer:
            self.seen = SeenCards()

    def ranked(self, state: GameState, player: int, rng: np.random.Generator | None = None):
        if self.seen is not None:
            state = self.seen.update(state, player)
        values = fast_values(state, player, precision=self.precision, rivals=True)
        others = state.n_players - 1
        weight = 1 / others if self.weight is None else self.weight
        ctx = values.context
        table = table_of(ctx.ed) if self.table is None else self.table
        standing = None
        if self.threat or self.risk or self.cov:
            standing = standings(ctx, self.wealth), legs_left(ctx.race()), table
        if self.threat:
            w = threat(standing[0], player, standing[1], table)
            scores = values.ev - weight * others * sum(w[q] * values.gains[q] for q in range(len(w)) if q != player)
        else:
            scores = values.scores(rivals_weight=weight * others)
        if self.risk or self.cov:
            scores = scores - self.penalties(values, *standing)
        if self.endgame:
            if race_ends_now(ctx):
                shares = endgame_shares(ctx, values.actions, values.tables)
                ranks = sorted(range(len(scores)), key=lambda i: (-shares[i], -scores[i]))
                return [(values.actions[i], float(shares[i])) for i in ranks]
        return order(values.actions, scores)

    def observe(self, state: GameState, player: int) -> None:
        """Take in ``player``'s view at another player's turn (a host's
        courtesy: :func:`advisor.simulate.games.play_game` shows every view; the
        inferred cards are then read from the board they were placed on)."""
        if self.seen is not None:
            self.seen.observe(state, player)

    def penalties(self, values, standing: list[float], legs: float, table) -> np.ndarray:
        """Per action, ``lam / 2 * var`` (``risk``) plus ``lam * cov``
        (``cov``) in coins, from the valuation ``values``, the players'
        ``standing`` (:func:`advisor.valuation.standing.standings`), the ``legs``
        left and the logistic's rows ``table``."""
        ctx = values.context
        d, top = margin(ctx, values=standing)
        lam = attitude(d, legs, table)
        out = np.zeros(len(values.actions))
        if not lam:
            return out
        against = rival_holdings(ctx, top, ctx.rank_code_table()) if self.cov and self.rival_cov else None
        var, cov = _moments(Portfolio(ctx, joint_counts(ctx.pos), against), values)
        if self.risk:
            out += lam / 2 * var
        if self.cov:
            out += lam * cov
        return out


def _variant(cls: str, name: str, what: str, **switches):
    """A ``margin`` bot with some ingredients switched (:class:`MarginBot`
    keywords ``switches``): to measure one ingredient."""

    def __init__(self, precision: float = 0.02):
        MarginBot.__init__(self, precision, **switches)

    return type(cls, (MarginBot,), {"name": name, "summary": f"margin {what}, to measure it", "__init__": __init__,
                                    "__doc__": f"``margin`` {what} (:class:`MarginBot` with {switches})."})


_INGREDIENTS = {"risk": "its risk term", "cov": "its covariance term", "threat": "its threat weights",
                "infer": "its inferred face-down cards", "endgame": "its exact endgame"}


def _only(ingredient: str):
    switches = {key: key == ingredient for key in _INGREDIENTS}
    short = "end" if ingredient == "endgame" else ingredient
    return _variant(f"Margin{short.capitalize()}Bot", f"margin-{short}", f"with {_INGREDIENTS[ingredient]} only",
                    **switches)


def _without(ingredient: str):
    short = "end" if ingredient == "endgame" else ingredient
    return _variant(f"MarginNo{short.capitalize()}Bot", f"margin-no-{short}", f"without {_INGREDIENTS[ingredient]}",
                    **{ingredient: False})


MarginRiskBot, MarginCovBot, MarginThreatBot, MarginInferBot, MarginEndBot = map(_only, _INGREDIENTS)
(MarginNoRiskBot, MarginNoCovBot, MarginNoThreatBot, MarginNoInferBot,
 MarginNoEndBot) = map(_without, _INGREDIENTS)

BOTS = {"random": RandomBot, "heuristic": HeuristicBot, "advisor": GreedyBot, "denial": DenialBot, "rival": RivalBot,
        "portfolio": PortfolioBot, "portfolio-cov": PortfolioCovBot, "portfolio-risk": PortfolioRiskBot,
        "portfolio-end": PortfolioEndBot, "margin": MarginBot,
        **{cls.name: cls for cls in (MarginRiskBot, MarginCovBot, MarginThreatBot, MarginInferBot, MarginEndBot,
                                     MarginNoRiskBot, MarginNoCovBot, MarginNoThreatBot, MarginNoInferBot,
                                     MarginNoEndBot)}}


def ask(bot: "str | Policy", state, player: int | None = None, seed: int = 0) -> list[tuple[str, float]]:
    """The ranking of ``bot`` (a name or a bot) for ``player`` (default: the
    player to move) in ``state``: a :class:`~advisor.rules.state.GameState`, its
    JSON object (:meth:`GameState.from_json`) or the path of its JSON file.
    ``seed`` seeds the bot's random numbers (only ``random`` draws any).
    The state is what the bot may see: give another player's hand as a
    count (``"overall_cards": 3``) to hide it, as a game's view does."""
    import os

    policy = make_bot(bot) if isinstance(bot, str) else bot
    if isinstance(state, (str, os.PathLike)):
        state = GameState.load(os.fspath(state))
    elif isinstance(state, dict):
        state = GameState.from_json(state)
    elif not isinstance(state, GameState):
        raise AdvisorError(f"a game state is a GameState, its JSON object or a file, not {type(state).__name__}")
    player = state.check_player(player)
    return policy.ranked(state, player, np.random.default_rng(seed))


def make_bot(name: str) -> Policy:
    try:
        return BOTS[name]()
    except KeyError:
        raise AdvisorError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})") from None
