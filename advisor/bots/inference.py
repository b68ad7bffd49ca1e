"""Which camel each face-down overall card names: inferred from the public
history of a game.

A player places an overall card when its camel looks good to them, so the
moment of a placement says something about its colour.  The model reads
only what every player at the table sees (a game record less the colours of
the cards): for each face-down card, the race odds at the moment it was
placed (:func:`advisor.race_odds` of the board then), the leg, its place on
the pile, and the leg bet tiles its owner held then.

**The model.**  Each card ``k`` gets a score per camel ``c``,
``s_k(c) = beta . x_k(c)``, with the features ``x_k(c)`` (:data:`FEATURES`):

* ``log_odds``: log of c's race probability for the card's own pile (to
  win, for the winner pile; to finish last, for the loser pile), at
  placement (floored at :data:`ODDS_FLOOR`);
* ``log_other``: log of c's probability for the other pile;
* ``favourite``: 1 if c is the most likely camel for the card's pile;
* ``first_leg``: ``log_odds`` if the card was placed in the first leg
  (odds are then least informative), else 0;
* ``leg_tile``: 1 if the owner held a leg bet tile of c when placing the
  card (a winner card and a leg bet on the same camel go together);
* ``late_place``: ``log_odds`` times the card's place on its pile
  (0, 1/4, ... up to 1 from the fifth card on): a late card pays less when
  right, so a player places it only on a surer camel.

A player's face-down cards have distinct colours (one card per colour), so
the model is a **conditional logit over the possible colourings** of one
player's face-down cards: a colouring ``(c_1, ..., c_m)`` of distinct
colours has probability proportional to ``exp(sum_k s_k(c_k))``.  That is
the same as each card naming camel ``c`` with probability
``softmax(s_k)(c)`` independently, conditioned on the colours being
distinct (the structure of :func:`advisor.valuation.overall.hand_distribution`).  The
default model of the advice (each face-down card names camel ``c`` with
``c``'s current race probability for its pile) is the member
``beta = (1, 0, 0, 0, 0, 0)`` (with the odds of the moment of the advice).

The coefficients are fitted by maximum likelihood (Newton's method on the
convex log-likelihood) on simulated games where every colour is known, and
stored as data (``advisor/data/inference.json``); ``benchmarks/fit_inference.py``
refits them and measures the model on held-out games (docs/user-guide/best-move.md,
Face-down cards inferred from the game's history).

:func:`infer_view` gives a player's view of a game with every face-down
card's inferred marginal (``PileCard.model``); the valuation uses them in
place of the pile model, for the payout of the player's cards and for the
colours still in another player's hidden hand.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from functools import lru_cache
from importlib import resources
from itertools import permutations
from typing import Iterable, Sequence

import numpy as np

from advisor.errors import AdvisorError
from advisor.game import Replay, replay
from advisor.odds.montecarlo import race_odds
from advisor.rules.scoring import PILES
from advisor.rules.state import GameState, PileCard
from advisor.valuation.fast import shared_race_odds
from advisor.valuation.overall import hand_distribution_cards

__all__ = ["FEATURES", "ODDS_FLOOR", "ODDS_PRECISION", "CardEvent", "InferenceError", "placements",
           "card_features", "colourings", "player_marginals", "load_params", "infer_view", "fit",
           "evaluate", "DEFAULT_BETA", "SeenCards"]

FEATURES = ("log_odds", "log_other", "favourite", "first_leg", "leg_tile", "late_place")
#: The default model of the advice as coefficients: each card names camel c
#: with c's race probability for its pile.
DEFAULT_BETA = np.array([1.0, 0, 0, 0, 0, 0])
ODDS_FLOOR = 1e-3
#: Precision of the race odds behind the features (their seed is fixed, so
#: the same history gives the same inference).
ODDS_PRECISION = 0.02
ODDS_SEED = 0


class InferenceError(AdvisorError):
    """Game history the inference cannot read, or bad coefficients."""


@dataclass(frozen=True)
class CardEvent:
    """One overall card placed in a game, as the table saw it.

    ``turn``: the record's turn; ``player``: its owner; ``pile``: ``"winner"``
    or ``"loser"``; ``index``: its place on the pile (0 = first);
    ``features``: ``x(c)`` per camel, shape ``(camels, len(FEATURES))``;
    ``odds``: the race probability of each camel for the card's pile at
    placement; ``colour``: the truth (from the record; never used by the
    model)."""

    turn: int
    player: int
    pile: str
    index: int
    features: np.ndarray
    odds: np.ndarray
    colour: str | None


def card_features(win: np.ndarray, lose: np.ndarray, pile: str, leg: int, index: int,
                  leg_tiles: Iterable[str], racing: str) -> np.ndarray:
    """The features of a card placed on ``pile`` (module docstring), a row
    per camel of ``racing``: ``win`` / ``lose`` the race odds then, ``leg``
    the leg (1 = first), ``index`` its place on the pile, ``leg_tiles`` the
    colours of the owner's leg bet tiles then."""
    own, other = (win, lose) if pile == "winner" else (lose, win)
    own = np.asarray(own, float)
    log_own = np.log(np.maximum(own, ODDS_FLOOR))
    log_other = np.log(np.maximum(np.asarray(other, float), ODDS_FLOOR))
    favourite = (own == own.max()).astype(float)
    held = set(leg_tiles)
    tiles = np.array([1.0 if c in held else 0.0 for c in racing])
    late = min(index, 4) / 4
    return np.column_stack([log_own, log_other, favourite, log_own * (leg == 1), tiles, log_own * late])


def placements(record: list[dict], upto: int | None = None, progress=None) -> list[CardEvent]:
    """Every overall card placed in the game of ``record`` before turn
    ``upto`` (default: all), with its public features.  The record is
    checked by :func:`advisor.game.replay` first."""
    replay(record, upto)  # a record that does not replay says so here, with its reason, before any work
    replayed = Replay(record, upto)
    racing = replayed.game.state.position.racing
    truth = _final_colours(record)
    events: list[CardEvent] = []
    odds_cache: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for step in replayed:  # each action line, the state before it (the replay plays it after)
        action = step.action
        pile = action.split(":")[0]
        if pile in PILES:
            st = step.before
            board = str(st.position)
            if board not in odds_cache:
                odds = race_odds(st.position, precision=ODDS_PRECISION, seed=ODDS_SEED, threads=1)
                odds_cache[board] = (odds.win.copy(), odds.lose.copy())
            win, lose = odds_cache[board]
            index = len(st.winner_pile if pile == "winner" else st.loser_pile)
            tiles = [c for c, _ in st.players[step.player].leg_tiles]
            x = card_features(win, lose, pile, step.leg, index, tiles, racing)
            colour = action.split(":")[1]
            events.append(CardEvent(step.turn, step.player, pile, index, x,
                                    win if pile == "winner" else lose,
                                    colour if colour in racing else truth.get((pile, index))))
            if progress is not None:
                progress()
    return events


def _final_colours(record: list[dict]) -> dict[tuple[str, int], str]:
    """``(pile, index) -> colour`` of the cards the record reveals."""
    return {(e["pile"], e["index"]): e["colour"] for e in record if e.get("type") == "reveal"}


@lru_cache(maxsize=8)
def colourings(m: int, camels: int = 5) -> np.ndarray:
    """Every colouring of ``m`` cards with distinct camels: ``int[n, m]``."""
    return np.array(list(permutations(range(camels), m)), np.int64).reshape(-1, m)


def player_marginals(features: Sequence[np.ndarray], beta: np.ndarray,
                     excluded: Iterable[int] = ()) -> tuple[np.ndarray, np.ndarray]:
    """One player's face-down cards under the model: ``(marginals, hand)``.

    ``features``: each card's feature matrix (camels x features);
    ``excluded``: camels the player surely does not have among these cards
    (e.g. colours of their cards that are known).  ``marginals[k, c]``: P(card
    k names camel c); ``hand[c]``: P(camel c is none of these cards), i.e.
    P(c is still in the player's hand when the hand holds every other colour).
    """
    camels = features[0].shape[0] if features else 5
    if not features:
        return np.zeros((0, camels)), np.ones(camels)
    scores = np.stack([x @ beta for x in features])  # cards x camels
    seqs = colourings(len(features), camels)
    ok = ~np.isin(seqs, list(excluded)).any(axis=1)
    seqs = seqs[ok]
    if not len(seqs):
        raise InferenceError(f"{len(features)} face-down cards cannot have distinct colours "
                             f"outside {len(set(excluded))} excluded ones")
    u = scores[np.arange(len(features))[None, :], seqs].sum(axis=1)
    w = np.exp(u - u.max())
    w /= w.sum()
    marginals = np.zeros((len(features), camels))
    for k in range(len(features)):
        np.add.at(marginals[k], seqs[:, k], w)
    return marginals, 1 - marginals.sum(axis=0)


# --------------------------------------------------------------------------
# Coefficients: stored, fitted, measured
# --------------------------------------------------------------------------


@lru_cache(maxsize=1)
def load_params() -> dict:
    """The stored coefficients (``advisor/data/inference.json``): ``beta``
    (one per name of :data:`FEATURES`) and how they were fitted."""
    text = resources.files("advisor.data").joinpath("inference.json").read_text(encoding="utf-8")
    params = json.loads(text)
    check_params(params)
    return params


def check_params(params: dict) -> np.ndarray:
    """The coefficient vector of ``params``; raises :class:`InferenceError`
    unless it names every feature with a finite number."""
    beta = params.get("beta") if isinstance(params, dict) else None
    if not isinstance(beta, dict) or set(beta) != set(FEATURES):
        raise InferenceError(f"inference coefficients must name the features {', '.join(FEATURES)}")
    values = [beta[f] for f in FEATURES]
    if any(isinstance(v, bool) or not isinstance(v, (int, float)) or not np.isfinite(v) for v in values):
        raise InferenceError("inference coefficients must be finite numbers")
    return np.array(values, float)


def stored_beta() -> np.ndarray:
    return check_params(load_params())


def _groups(events: Sequence[CardEvent]) -> list[list[CardEvent]]:
    """The events of a game, one group per player (in placement order)."""
    by_player: dict[int, list[CardEvent]] = {}
    for e in events:
        by_player.setdefault(e.player, []).append(e)
    return list(by_player.values())


def fit(games: Iterable[Sequence[CardEvent]], racing: str, ridge: float = 1e-3, iterations: int = 50) -> np.ndarray:
    """Maximum-likelihood coefficients of the conditional logit over the
    colourings of each player's cards in each game (every colour known),
    by Newton's method with a small ridge penalty ``ridge * |beta|^2 / 2``."""
    observations = []
    for events in games:
        for group in _groups(events):
            m = len(group)
            seqs = colourings(m, len(racing))
            x = np.stack([e.features for e in group])  # cards x camels x features
            alt = x[np.arange(m)[None, :], seqs].sum(axis=1)  # colourings x features
            truth = [racing.index(e.colour) for e in group]
            chosen = int(np.flatnonzero((seqs == truth).all(axis=1))[0])
            observations.append((alt, chosen))
    if not observations:
        raise InferenceError("no overall cards to fit the inference on")
    beta = DEFAULT_BETA.copy()
    for _ in range(iterations):
        grad = -ridge * beta
        hess = -ridge * np.eye(beta.size)
        for alt, chosen in observations:
            u = alt @ beta
            p = np.exp(u - u.max())
            p /= p.sum()
            mean = p @ alt
            grad += alt[chosen] - mean
            centred = alt - mean
            hess -= (centred * p[:, None]).T @ centred
        step = np.linalg.solve(hess, grad)
        beta = beta - step
        if np.abs(step).max() < 1e-9:
            break
    return beta


def evaluate(games: Iterable[Sequence[CardEvent]], racing: str, models: dict[str, np.ndarray | None]) -> dict:
    """Top-1 accuracy and log loss (natural log, per card) of each model on
    every card of ``games``, per pile, each card judged when it is placed:
    the joint of its owner's cards placed so far (its own included).  A
    model is coefficients, or ``None`` for the raw race odds of the moment
    (each card alone, no distinct-colour condition).  Returns
    ``{model: {pile: {"cards", "top1", "log_loss"}}}``."""
    sums = {name: {p: [0, 0.0, 0.0] for p in PILES} for name in models}
    for events in games:
        for group in _groups(events):
            for k, event in enumerate(group):
                truth = racing.index(event.colour)
                for name, beta in models.items():
                    if beta is None:
                        probs = event.odds / event.odds.sum()
                    else:
                        probs = player_marginals([e.features for e in group[:k + 1]], beta)[0][k]
                    s = sums[name][event.pile]
                    s[0] += 1
                    s[1] += float(probs.argmax() == truth)
                    s[2] += -float(np.log(max(probs[truth], 1e-12)))
    return {name: {p: {"cards": n, "top1": hit / n if n else float("nan"), "log_loss": loss / n if n else float("nan")}
                   for p, (n, hit, loss) in piles.items()} for name, piles in sums.items()}


# --------------------------------------------------------------------------
# The advice
# --------------------------------------------------------------------------


def infer_view(record: list[dict], upto: int, viewer: int, beta: np.ndarray | None = None) -> GameState:
    """Player ``viewer``'s view of the game of ``record`` before turn
    ``upto`` (:meth:`advisor.game.Game.view`) with every other player's
    face-down card carrying its inferred marginal (``PileCard.model``;
    coefficients ``beta``, default the stored ones)."""
    beta = stored_beta() if beta is None else np.asarray(beta, float)
    view = replay(record, upto).view(viewer)
    events = placements(record, upto)
    racing = view.position.racing
    models: dict[tuple[str, int], tuple[float, ...]] = {}
    for group in _groups(events):
        if group[0].player == viewer:
            continue
        marginals, _ = player_marginals([e.features for e in group], beta)
        for e, probs in zip(group, marginals):
            models[(e.pile, e.index)] = tuple(float(p) for p in probs)

    def fill(name: str, pile: tuple[PileCard, ...]) -> tuple[PileCard, ...]:
        return tuple(replace(card, model=tuple(zip(racing, models[(name, k)])))
                     if card.colour is None and (name, k) in models else card for k, card in enumerate(pile))

    return replace(view, winner_pile=fill("winner", view.winner_pile), loser_pile=fill("loser", view.loser_pile))


def _card_models(state: GameState) -> list[tuple[str, int, PileCard]]:
    return [(name, k, card) for name in PILES for k, card in enumerate(getattr(state, f"{name}_pile"))
            if card.colour is None and card.model is not None]


def hand_colours(state: GameState, player: int) -> dict[str, float] | None:
    """P(each colour is in ``player``'s hidden hand), from the models of
    their face-down cards (:func:`advisor.valuation.overall.hand_distribution_cards`),
    or ``None`` when the hand is not hidden or a face-down card of theirs
    has no model."""
    if not state.hand_hidden(player):
        return None
    down = [c for name in PILES for c in getattr(state, f"{name}_pile") if c.player == player and c.colour is None]
    if not down or any(c.model is None for c in down):
        return None
    racing = state.position.racing
    candidates = [racing.index(c) for c in state.hand_candidates(player)]
    cards_q = [np.array([dict(c.model)[x] for x in racing]) for c in down]
    hands, probs = hand_distribution_cards(state.hand_size(player), candidates, cards_q)
    return {colour: float(sum(p for h, p in zip(hands, probs) if k in h)) for k, colour in enumerate(racing)}


def face_down_json(state: GameState) -> dict:
    """``{"inferred": {"cards": [...], "hands": {...}}}`` when face-down
    cards of ``state`` carry models (else ``{}``): each card's pile, place,
    owner and P(each camel); per player with a hidden hand, P(each colour is
    still in it)."""
    cards = _card_models(state)
    if not cards:
        return {}
    hands = {str(p): h for p in range(state.n_players) if (h := hand_colours(state, p)) is not None}
    return {"inferred": {"cards": [{"pile": name, "index": k, "player": card.player, "model": dict(card.model)}
                                   for name, k, card in cards], "hands": hands}}


def face_down_lines(state: GameState) -> list[str]:
    """The lines of the advice text about the face-down cards' models."""
    cards = _card_models(state)
    if not cards:
        return []

    def top(model) -> str:
        ranked = sorted(model, key=lambda cp: -cp[1])
        return " ".join(f"{c} {100 * p:.0f}%" for c, p in ranked[:3])

    lines = ["Face-down cards (colours inferred from the game's history; --no-infer: the race odds):"]
    for name, k, card in cards:
        lines.append(f"  {name} pile #{k + 1} (P{card.player}): {top(card.model)}")
    for p in range(state.n_players):
        h = hand_colours(state, p)
        if h is not None:
            lines.append(f"  P{p}'s hand ({state.hand_size(p)} cards): P(colour in it) "
                         + " ".join(f"{c} {100 * v:.0f}%" for c, v in h.items()))
    return lines


def without_models(state: GameState) -> GameState:
    """``state`` with no face-down card's own model (the pile model for all)."""
    strip = lambda pile: tuple(replace(c, model=None) for c in pile)  # noqa: E731
    return replace(state, winner_pile=strip(state.winner_pile), loser_pile=strip(state.loser_pile))


# --------------------------------------------------------------------------
# A player's own memory of the game: the inference from the views it is shown
# --------------------------------------------------------------------------


class SeenCards:
    """The inference as one player can run it at the table from what it is
    shown (:meth:`advisor.game.Game.view`, in order), without a game
    record: a bot's memory.  Shown its view before every turn
    (:meth:`observe`; the games of :func:`advisor.simulate.games.play_game` show
    it to every bot that has ``observe``), it reads what
    :func:`placements` reads from a record; shown only the views of its own
    turns (:meth:`update` at each decision, e.g. by a host that calls only
    ``ranked``), it reads the nearest it saw.

    Each face-down card of another player is seen first in the view after
    it was placed; its features (:func:`card_features`) are read from the
    views around it: the race odds of the board of the previous view when
    no die was rolled since (the board the card was placed on), else of the
    board now (the nearest board the player saw); the leg counted from the
    views (a refilled pyramid, emptied leg or pyramid tiles); the owner's
    leg tiles on that board's view; its place on the pile.  The race odds
    are :func:`advisor.valuation.fast.shared_race_odds` at
    :data:`ODDS_PRECISION` (memoized per board).  A view that does not
    follow the last one (another player, another game: the piles are not
    the earlier ones extended) starts the memory again; the cards already
    on the piles of a first view are read from its board.

    :meth:`update` returns the view with every face-down card of the
    others carrying its inferred marginal (``PileCard.model``), as
    :func:`infer_view` gives from a record."""

    def __init__(self, beta: np.ndarray | None = None):
        self.beta = stored_beta() if beta is None else np.asarray(beta, float)
        self.reset()

    def reset(self) -> None:
        self.player: int | None = None
        self.last: GameState | None = None
        self.legs = 1
        self.cards: dict[tuple[str, int], tuple[int, np.ndarray]] = {}  # (pile, index) -> (owner, features)

    def _follows(self, view: GameState, player: int) -> bool:
        last = self.last
        if last is None or player != self.player or view.n_players != last.n_players \
                or view.position.rules != last.position.rules:
            return False
        for name in PILES:
            old, new = getattr(last, f"{name}_pile"), getattr(view, f"{name}_pile")
            if len(new) < len(old) or any(a.player != b.player for a, b in zip(old, new)):
                return False
        return True

    def _new_leg(self, view: GameState) -> bool:
        """A leg ended between the last view and ``view``."""
        last = self.last
        if not set(view.position.dice) <= set(last.position.dice):
            return True
        return any(b.pyramid_tiles < a.pyramid_tiles or len(b.leg_tiles) < len(a.leg_tiles)
                   for a, b in zip(last.players, view.players))

    def update(self, view: GameState, player: int) -> GameState:
        """Take in ``player``'s view ``view`` (:meth:`observe`) and return
        it with the inferred models of the others' face-down cards."""
        self.observe(view, player)
        return self.with_models(view)

    def observe(self, view: GameState, player: int) -> None:
        """Take in ``player``'s view ``view``, the next one shown to it."""
        follows = self._follows(view, player)
        if not follows:
            self.reset()
            self.player = player
        last = self.last
        rolled = last is None or last.position.stacks != view.position.stacks or last.position.dice != view.position.dice
        new_leg = follows and self._new_leg(view)
        # the board (and its view) the new cards were most likely placed on
        source, legs = (view, self.legs + new_leg) if rolled else (last, self.legs)
        racing = view.position.racing
        for name in PILES:
            for index, card in enumerate(getattr(view, f"{name}_pile")):
                if card.player == player or card.colour is not None or (name, index) in self.cards:
                    continue
                odds = shared_race_odds(source.position, ODDS_PRECISION)
                tiles = [c for c, _ in source.players[card.player].leg_tiles]
                x = card_features(odds.win, odds.lose, name, legs, index, tiles, racing)
                self.cards[(name, index)] = (card.player, x)
        self.legs += new_leg
        self.last = view

    def with_models(self, view: GameState) -> GameState:
        """``view`` with the models of the face-down cards remembered."""
        racing = view.position.racing
        models: dict[tuple[str, int], tuple] = {}
        owners = sorted({owner for owner, _ in self.cards.values()})
        for owner in owners:
            keys = sorted(k for k, (o, _) in self.cards.items() if o == owner)
            marginals, _ = player_marginals([self.cards[k][1] for k in keys], self.beta)
            for key, probs in zip(keys, marginals):
                models[key] = tuple(zip(racing, (float(p) for p in probs)))

        def fill(name: str, pile: tuple[PileCard, ...]) -> tuple[PileCard, ...]:
            return tuple(replace(card, model=models[(name, k)]) if card.colour is None and (name, k) in models
                         else card for k, card in enumerate(pile))

        return replace(view, winner_pile=fill("winner", view.winner_pile), loser_pile=fill("loser", view.loser_pile))
