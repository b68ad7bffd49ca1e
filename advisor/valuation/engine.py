"""The advisor: the expected value of every legal action, ranked.

``ev`` is the expected change of the advised player's money, in coins,
caused by the action (compared with the same state without it):

* Leg scoring is valued from the **exact joint distribution** of the final
  race order of this leg (and, for tiles, of the landings on the player's
  own tile), so the money floor is applied to the whole leg payout of each
  outcome, as the rules settle it: rewards and penalties of the scoring phase
  are summed, then money stops at 0 (``max(0, money + landings + payout)``).
  A broke player's penalties are therefore partly free.
* ``leg:C``: the top tile ``v`` of colour C pays ``v`` if C is 1st, 1 if 2nd,
  -1 otherwise.  Without the floor this is ``v P(1st) + P(2nd) - P(3rd..5th)``.
* ``pyramid``: +1 coin at leg end, and nothing else changes in expectation:
  the odds before the roll are the average of the odds after it over the
  roll's outcomes, so every held bet keeps its expected value.
* ``tile:+N`` / ``tile:-N``: the expected landings on the tile (one coin
  each) with the tile's own effect on the movement, plus the change in value
  of the bets the player holds: leg tiles (exact) and overall cards on the
  piles (race odds with and without the tile, same seed and sample count, so
  the difference is not dominated by noise).
* ``winner:C`` / ``loser:C``: the card's place is the pile's current size.
  The correct cards pay 8, 5, 3, 2, 1, 1, ... in placement order, a wrong
  card costs 1.  Face-down cards of other players are modelled explicitly:
  each names camel X with probability ``q_X``, independently (default: X's
  current race probability to win, resp. to finish last; ``pile_model`` of
  the state overrides it; a card's own ``model``, e.g. inferred from the
  game's history by :mod:`advisor.bots.inference`, overrides both for that card:
  the number of earlier cards naming a camel is then a Poisson binomial).  The money floor applies as the rules settle
  it, at the race end, to the sum of all the player's overall payouts and
  the money they have then; that money is taken as the least they can make
  sure to have: this leg's settled money (exact per leg outcome) plus one
  coin per later leg played to its end before the race's last (a pyramid
  tile on their turn; with at most 5 players), the number of legs drawn
  from the race simulation (:mod:`advisor.valuation.overall` gives the model and its
  approximations).
* ``partner:P`` (2nd edition, 6-8 players): at leg scoring the player may add
  the reward of one of P's tiles (leg tile or pyramid tile, +1) to their own,
  choosing none when all are negative; valued on P's current tiles.

Extra columns: ``sd`` and ``p_loss``, the standard deviation and the
probability of a loss of the action's own payout (for a tile: its coins);
``denial``, how much the best EV available to the next player drops because
of the action (their leg tiles, pyramid and overall cards, each valued in
expectation over the dice, so the pyramid's denial is 0; when the advised
player holds no overall card, the race odds behind the next player's cards
are taken at precision 0.01).  The next player's hand is used only as far
as the state shows it: a hidden hand (a count) is modelled by
:func:`advisor.valuation.overall.hand_distribution`, and their best option is the
expectation over their possible hands of the best option in each (they
choose knowing their hand).

Figures of the leg (leg tiles, pyramid, tile placements, partnerships) are
exact: the payouts are whole coins and the outcomes carry their integer
counts of die sequences, so each expectation is summed in integers and
divided once (:meth:`LegOutcomes.moments`); an exact figure is the float
nearest to the exact fraction (the pyramid's +1 prints as 1.0).

The bots' form of the same valuation (:func:`fast_values`)
-----------------------------------------------------------

The advisor's valuation in one pass, for bots: EV of every legal action.

:func:`advisor.best_moves` explains every figure (a DataFrame row per action,
risk columns, exact tile enumerations, race odds per tile placement).  A bot
needs only the EV of each action, thousands of times per tournament.
:func:`fast_values` computes the same EVs, by the same formulas (the money
floor on each outcome's whole leg payout, the pile model of the overall
cards), for all actions at once:

* the leg's outcomes without a new tile: exact, as in ``best_moves``;
* the outcomes with each tile placement: one kernel call for all placements,
  exact when at most :data:`EXACT_ROLLS` rolls are left in the leg, otherwise
  :data:`TILE_SAMPLES` sampled legs with common random numbers (every
  placement replays the same rolls);
* race odds (overall cards): :func:`advisor.race_odds` at ``precision``;
* the change a tile makes to the player's overall cards on the piles:
  :data:`RACE_SAMPLES` races with common random numbers for all placements
  at once, instead of one race-odds run per placement.

Both views run one pass (``_one_pass``) over the same tables: the leg's
outcomes as they stand, and the outcomes with each tile placement
(:class:`TileTables`), which ``best_moves`` takes from an exact enumeration
per placement (:func:`exact_tile_tables`) and the bots from the candidate
kernel (:func:`sampled_tile_tables`).  The denial figure of both is the
next player's best option on those tables (``_NextPlayer``).  In the exact
cases (no more than :data:`EXACT_ROLLS` rolls left, no own overall card on
a pile) every EV and denial figure of ``fast_values`` is ``best_moves``'s
float, bit for bit (both round the same exact fractions); the tests check
this.  Overall cards are valued by the same function as in ``best_moves``
(``Valuation.card_gains``: the pile model, the money floor at the race end),
and another player's hidden hand by the same model
(``Valuation.hand_model``), so a bot uses only what its view shows.
Results are a pure function of the state: the seeds derive from the board,
so repeated boards are served from a small memo and a game gives the same
moves whether or not the memo is hit.
"""

from __future__ import annotations

import hashlib
import os
from collections import OrderedDict
from dataclasses import dataclass, field
from fractions import Fraction
from functools import cached_property

import numpy as np

from advisor.errors import AdvisorError, IllegalActionError
from advisor.valuation.explain import sort_by_ev
from advisor.valuation.overall import (PILES, card_gains, floor_binds, hand_distribution, hand_distribution_cards,
                                       plain_gains, race_end_money, right_payout, right_payouts,
                                       right_payouts_cards)
from advisor.rules import turn as core
from advisor.rules.actions import Action, leg_bet_value, place_tile, take_leg_tile
from advisor.rules.turn import partner_options, tile_spaces
from advisor.rules.editions import Edition
from advisor.rules.position import Position
from advisor.rules.scoring import PYRAMID_TILE, leg_tile_payouts, partner_copy, pile_payout, settle
from advisor._tools.sampling import check_precision, resolve_seed
from advisor.rules.state import GameState, PileCard, StateError

__all__ = ["best_moves", "evaluate", "legal_actions", "fast_values", "FastValues", "shared_race_odds",
           "LegOutcomes", "Valuation", "TileTables", "exact_tile_tables", "sampled_tile_tables", "pile_payout",
           "tile_spaces", "partner_options", "EXACT_ROLLS", "TILE_SAMPLES", "RACE_SAMPLES"]

#: Race odds precision for the denial column when the advised player holds
#: no overall card (the next player's cards are its only use).
DENIAL_PRECISION = 0.01


# --------------------------------------------------------------------------
# The leg's outcome distribution
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class LegOutcomes:
    """Distinct outcomes of the rest of the leg with exact probabilities.

    ``prob``: float[n]; ``ranks``: int[n, 5] 0-based rank of each racing camel
    (edition order); ``landings``: int[n] landings on the tracked tile (0 when
    none is tracked).
    """

    prob: np.ndarray
    ranks: np.ndarray
    landings: np.ndarray
    reached: np.ndarray | None = None  # 1 where some move ends (see enumerate_joint)
    counts: np.ndarray | None = None  # int64[n]: die sequences behind each outcome (exact)
    total: int = 0  # their sum (prob = counts / total)
    rules: object = None  # the Edition (or variant) whose payouts apply; None: the editions' own


    @classmethod
    def of(cls, position: Position, track: int = 0) -> "LegOutcomes":
        from advisor.rules.encode import encode
        from advisor.kernels.board.leg import enumerate_joint
        from advisor.kernels.ranks import RANK_CODES, rank_codes

        enc = encode(position)
        orders = np.zeros((RANK_CODES, enc.rolls + 1 if track else 1), np.int64)
        reached = np.zeros(enc.tiles.size, np.int64)
        enumerate_joint(enc.board, enc.dice, enc.rolls, enc.tiles, False, track, orders,
                        np.zeros(enc.tiles.size, np.int64), reached)
        codes, hits = np.nonzero(orders)
        counts = orders[codes, hits]
        total = int(counts.sum())
        return cls(counts / total, rank_codes()[codes], hits, reached, counts, total, position.rules)

    def rank_probs(self, camel: int) -> np.ndarray:
        """P(rank k) of racing camel ``camel`` (index), k = 0..4."""
        if self.counts is not None:
            return np.bincount(self.ranks[:, camel], weights=self.counts, minlength=5) / self.total
        return np.bincount(self.ranks[:, camel], weights=self.prob, minlength=5)

    def exact_mean(self, values) -> Fraction | None:
        """E[values] as an exact fraction when the outcomes carry their
        counts and the values are whole numbers (payouts in coins); else
        ``None``."""
        ints = _whole(values) if self.counts is not None else None
        if ints is None:
            return None
        return Fraction(int(self.counts @ ints), self.total)

    def mean(self, values) -> float:
        """E[values]: the correctly rounded exact figure (one division of
        whole numbers) when :meth:`exact_mean` has one."""
        ints = _whole(values) if self.counts is not None else None
        if ints is None:
            return float(self.prob @ np.asarray(values, float))
        return int(self.counts @ ints) / self.total

    def moments(self, values) -> tuple[float, float, float]:
        """``(mean, sd, P(value < 0))`` of ``values`` over the outcomes; from
        the integer counts (one division at the end) when the values are
        whole numbers, so an exact figure prints exactly."""
        ints = _whole(values)
        if self.counts is None or ints is None:
            return _moments(np.asarray(values, float), self.prob)
        s1 = int(self.counts @ ints)
        s2 = int(self.counts @ (ints * ints))
        n = self.total
        variance = Fraction(n * s2 - s1 * s1, n * n)
        return s1 / n, float(np.sqrt(float(variance))), int(self.counts[ints < 0].sum()) / n

    def tile_payout(self, camel: int, value: int) -> np.ndarray:
        """Per outcome, what a leg bet tile of ``value`` on ``camel`` pays."""
        from advisor.rules.editions import SECOND

        return leg_tile_payouts(self.rules or SECOND, value)[self.ranks[:, camel]]


def _moments(values: np.ndarray, prob: np.ndarray) -> tuple[float, float, float]:
    mean = float(prob @ values)
    sd = float(np.sqrt(max(prob @ (values - mean) ** 2, 0.0)))
    return mean, sd, float(prob[values < -1e-12].sum())


def _whole(values) -> np.ndarray | None:
    """``values`` as int64 if every one is a whole number, else ``None``."""
    values = np.asarray(values)
    if values.dtype.kind in "iu":
        return values.astype(np.int64, copy=False)
    with np.errstate(invalid="ignore"):
        ints = values.astype(np.int64)
    # (whole numbers of coins are far below 2**53, where floats stay exact)
    return ints if (ints == values).all() else None


# --------------------------------------------------------------------------
# Valuation context
# --------------------------------------------------------------------------


class Valuation:
    """Everything shared by the valuations of one state: the leg's outcome
    table, the race odds, the pile model, the hand models and the caches of
    the figures built on them.  Both views of the one valuation
    (:func:`best_moves`, :func:`fast_values`) value from one of these.

    ``board_key``: when given, the race odds are seeded from the board and
    shared by every valuation on the same board (the bots' memo), instead of
    computed with ``seed``.  Every cache is declared here (``__slots__``): a
    figure is cached in one named place."""

    __slots__ = ("state", "pos", "ed", "racing", "player", "precision", "seed", "base", "board_key", "own_cards",
                 "tile_legs", "_race", "_pile_q", "_least_money", "_end_money", "_held_cards", "_card_gains",
                 "_card_values", "_hands", "_players", "_base_codes", "_base_counts", "_settled", "_gains")

    def __init__(self, state: GameState, player: int, precision: float, seed: int | None,
                 base: LegOutcomes | None = None, board_key: tuple | None = None):
        self.state = state
        self.pos = state.position
        self.ed = self.pos.rules
        self.racing = self.ed.racing
        self.player = player
        self.precision = precision
        self.seed = resolve_seed(seed)
        self.board_key = board_key
        own = state.own_tile(player)
        self.base = base if base is not None else LegOutcomes.of(self.pos, own.space if own else 0)
        st = state
        # the player's own overall cards need race odds at full precision;
        # otherwise only the denial column needs them, and coarser ones do
        self.own_cards = (not st.hand_hidden(player) and bool(st.hand(player))) or any(
            c.player == player and c.colour for c in st.winner_pile + st.loser_pile)
        self.tile_legs: dict[tuple[int, str], LegOutcomes] = {}  # filled by exact_tile_tables
        self._race = None
        self._pile_q: dict = {}
        self._least_money: dict = {}
        self._end_money: dict = {}
        self._held_cards: dict = {}
        self._card_gains: dict = {}
        self._card_values: dict = {}
        self._hands: dict = {}
        self._players: dict = {}
        self._base_codes = None
        self._base_counts = None
        self._settled = None
        self._gains: dict = {}

    @property
    def race_samples(self) -> int | None:
        """The samples of the race odds computed so far (``None``: none)."""
        return self._race.samples if self._race is not None else None

    def race_precision(self) -> float:
        return self.precision if self.own_cards else max(self.precision, DENIAL_PRECISION)

    def race(self):
        if self._race is None:
            self._race = self.compute_race()
        return self._race

    def compute_race(self):
        from advisor.odds.montecarlo import race_odds

        def compute():
            return race_odds(self.pos, precision=self.race_precision(), seed=self.seed)

        if self.board_key is None:
            return compute()
        return _MEMO.get(("race", self.board_key, self.race_precision()), compute)

    # ---------------------------------------------------------- holdings
    def holdings(self, player: int, leg: LegOutcomes) -> np.ndarray:
        """Per outcome, the player's leg-scoring payout from what they hold:
        leg tiles, pyramid tiles and (if partnered) the copied reward."""
        pl = self.state.players[player]
        total = np.full(leg.prob.size, float(PYRAMID_TILE * pl.pyramid_tiles))
        for colour, value in pl.leg_tiles:
            total += leg.tile_payout(self.racing.index(colour), value)
        if pl.partner is not None:
            total += self.copy_value(pl.partner, leg)
        return total

    def copy_value(self, partner: int, leg: LegOutcomes) -> np.ndarray:
        """Per outcome, the best reward among ``partner``'s tiles, or 0."""
        pl = self.state.players[partner]
        rewards = [leg.tile_payout(self.racing.index(colour), value) for colour, value in pl.leg_tiles]
        return partner_copy(rewards + [float(PYRAMID_TILE)] * min(1, pl.pyramid_tiles), np.zeros(leg.prob.size))

    def settle(self, player: int, leg: LegOutcomes, extra: np.ndarray | float = 0.0,
               landings: bool = True) -> np.ndarray:
        """Per outcome, the player's money after leg scoring: landing coins
        are paid at once, then the summed scoring settles (the money floor)."""
        money = self.state.players[player].money
        coins = leg.landings if landings else 0
        return settle(self.ed, money + coins, self.holdings(player, leg) + extra)

    # ---------------------------------------------------------- overall cards
    def pile_q(self, pile: str) -> np.ndarray:
        """Probability that an unknown card of ``pile`` names each camel
        (read only)."""
        cache = self._pile_q
        if pile not in cache:
            model = self.state.pile_model or {}
            if pile in model:
                cache[pile] = np.array([model[pile][c] for c in self.racing], float)
            else:
                race = self.race()
                cache[pile] = race.win.copy() if pile == "winner" else race.lose.copy()
            cache[pile].flags.writeable = False
        return cache[pile]

    def right_payout(self, pile: str, earlier: tuple[PileCard, ...], colour: str, player: int):
        """What ``player``'s card of ``colour`` pays when right, placed after
        the cards ``earlier`` (see :func:`advisor.valuation.overall.right_payout`; the
        player's own face-down cards never name that colour)."""
        known = sum(1 for e in earlier if e.colour == colour)
        c = self.racing.index(colour)
        cards_q = self.cards_q(pile, earlier, player)
        if cards_q is not None:
            counts = [known if k == c else 0 for k in range(len(self.racing))]
            values, probs = right_payouts_cards(counts, cards_q, self.ed)
            return values[c], probs[c]
        unknown = sum(1 for e in earlier if e.colour is None and e.player != player)
        return right_payout(known, unknown, float(self.pile_q(pile)[c]), self.ed)

    def card_q(self, pile: str, card: PileCard) -> np.ndarray:
        """P(the face-down ``card`` of ``pile`` names each camel): its own
        model when it has one, else the pile model."""
        if card.model is None:
            return self.pile_q(pile)
        model = dict(card.model)
        return np.array([model[c] for c in self.racing], float)

    def cards_q(self, pile: str, earlier: tuple[PileCard, ...], player: int) -> np.ndarray | None:
        """The models of the face-down cards of other players in ``earlier``
        (a row per card), or ``None`` when none of them has its own model
        (the binomial of the pile model applies)."""
        unknown = [e for e in earlier if e.colour is None and e.player != player]
        if not any(e.model is not None for e in unknown):
            return None
        return np.array([self.card_q(pile, e) for e in unknown]).reshape(len(unknown), len(self.racing))

    def card_payouts(self, pile: str, earlier: tuple[PileCard, ...], colour: str, outcome_probs: np.ndarray,
                     player: int | None = None):
        """Distribution of a card's payout: ``(values, probs)``, the last
        value the wrong card's payout (-1 by the editions' rules).  ``outcome_probs``: P(each camel wins)
        (or finishes last); ``player``: the card's owner (default: the
        advised player)."""
        c = self.racing.index(colour)
        values, probs = self.right_payout(pile, earlier, colour, self.player if player is None else player)
        return (np.concatenate([values, [self.ed.wrong_card]]).astype(float),
                np.concatenate([outcome_probs[c] * probs, [1 - outcome_probs[c]]]))

    def pile(self, name: str) -> tuple[PileCard, ...]:
        return self.state.winner_pile if name == "winner" else self.state.loser_pile

    def overall_odds(self, name: str, race=None) -> np.ndarray:
        race = race if race is not None else self.race()
        return race.win if name == "winner" else race.lose

    def held_cards_value(self, race=None) -> float:
        """Expected payout of the advised player's cards on both piles."""
        total = 0.0
        for name in PILES:
            pile = self.pile(name)
            for j, card in enumerate(pile):
                if card.player == self.player and card.colour:
                    values, probs = self.card_payouts(name, pile[:j], card.colour, self.overall_odds(name, race))
                    total += float(values @ probs)
        return total

    def least_leg_money(self, player: int) -> int:
        """The least money ``player`` can have after this leg's scoring."""
        if player == self.player:
            return int(self.settled_base()[1].min())
        cache = self._least_money
        if player not in cache:
            cache[player] = int(self.settle(player, self.base, landings=False).min())
        return cache[player]

    # ---------------------------------------------------------- the leg, in whole coins
    def settled_base(self) -> tuple[np.ndarray, np.ndarray]:
        """Per outcome of the leg as it stands, the advised player's leg
        income (what they hold pays, plus the landings on their tile) and
        their money after the leg's scoring: whole coins, int64."""
        if self._settled is None:
            held = np.rint(self.holdings(self.player, self.base)).astype(np.int64) + self.base.landings
            self._settled = held, settle(self.ed, self.state.players[self.player].money, held)
        return self._settled

    def leg_gain(self, key, extra) -> np.ndarray:
        """Per outcome of the leg as it stands, what ``extra`` (whole coins
        paid at leg scoring, per outcome or one figure) adds to the advised
        player's settled money (the money floor applied to the whole leg
        payout): int64, cached under ``key``."""
        if key not in self._gains:
            held, settled = self.settled_base()
            money = self.state.players[self.player].money
            extra = np.rint(np.asarray(extra, float)).astype(np.int64)
            self._gains[key] = settle(self.ed, money, held + extra) - settled
        return self._gains[key]

    def race_end_money(self, player: int):
        """The least money ``player`` can make sure to have at the race end
        (:func:`advisor.valuation.overall.race_end_money`): this leg's settled money
        per outcome of the leg as it stands, plus a coin per later leg
        played to its end (with at most 5 players)."""
        cache = self._end_money
        if player not in cache:
            leg = self.base
            secured = 1 if self.state.n_players <= self.ed.rolls_per_leg else 0
            cache[player] = race_end_money(self.settle(player, leg, landings=player == self.player), leg.prob,
                                           self.race().legs, secured)
        return cache[player]

    def held_cards(self, player: int) -> dict:
        """``player``'s cards on each pile whose colours the state gives:
        ``(camel, what it pays when right)``."""
        cache = self._held_cards
        if player not in cache:
            held = {}
            for pname in PILES:
                cards = self.pile(pname)
                held[pname] = [(self.racing.index(card.colour),
                                self.right_payout(pname, cards[:j], card.colour, player))
                               for j, card in enumerate(cards) if card.player == player and card.colour]
            cache[player] = held
        return cache[player]

    def placed_cards(self) -> list[tuple[str, int, float]]:
        """The advised player's overall cards on the piles: ``(pile, camel,
        A)``, with ``A`` the card's expected payout when its camel wins
        (loses): the card's EV is ``p (A - w) + w`` for the probability
        ``p`` of that and the wrong card's payout ``w`` (-1)."""
        out = []
        for name in PILES:
            pile = self.pile(name)
            for j, card in enumerate(pile):
                if card.player == self.player and card.colour:
                    values, probs = self.card_payouts(name, pile[:j], card.colour, np.ones(5))
                    out.append((name, self.racing.index(card.colour), float(values[:-1] @ probs[:-1])))
        return out

    def card_gains(self, name: str, player: int, pile: tuple[PileCard, ...]):
        """What a card of each camel placed by ``player`` on pile ``name``
        (as it is, ``pile``) adds to their settled money at the race end:
        ``(values, probs)``, a row per camel (:func:`advisor.valuation.overall.card_gains`,
        the one valuation of an overall card, for ``best_moves`` and the
        bots alike)."""
        cache = self._card_gains
        key = (name, player, pile)
        if key not in cache:
            known = [sum(1 for e in pile if e.colour == colour) for colour in self.racing]
            cards_q = self.cards_q(name, pile, player)
            if cards_q is not None:
                right = right_payouts_cards(known, cards_q, self.ed)
            else:
                unknown = sum(1 for e in pile if e.colour is None and e.player != player)
                right = right_payouts(known, unknown, self.pile_q(name), self.ed)
            cards = sum(1 for c in self.state.winner_pile + self.state.loser_pile if c.player == player and c.colour)
            if floor_binds(self.least_leg_money(player), cards, self.ed):
                odds = {pname: self.overall_odds(pname) for pname in PILES}
                cache[key] = card_gains(self.race_end_money(player), self.held_cards(player), odds, name, right,
                                        self.ed)
            else:  # this leg's money alone covers every card: the payout itself
                cache[key] = plain_gains(self.overall_odds(name), right, self.ed)
        return cache[key]

    def card_values(self, name: str, player: int, pile: tuple[PileCard, ...]) -> np.ndarray:
        """EV of placing an overall card of each camel on pile ``name`` (as
        ``pile``) for ``player``: the means of :meth:`card_gains`, the one
        valuation of an overall card (money floor at the race end
        included), for both views."""
        key = (name, player, pile)
        if key not in self._card_values:
            values, probs = self.card_gains(name, player, pile)
            self._card_values[key] = np.array([float(pr @ v.astype(float)) for v, pr in zip(values, probs)])
        return self._card_values[key]

    def next_player(self, who: int) -> "_NextPlayer":
        """The best options of player ``who`` on the tables (one per player
        and valuation)."""
        if who not in self._players:
            self._players[who] = _NextPlayer(self, who)
        return self._players[who]

    def base_code_probs(self) -> np.ndarray:
        """P(each rank code) at the end of the leg as it stands."""
        if self._base_codes is None:
            self._base_codes = _code_probs(self.base)
        return self._base_codes

    def base_code_counts(self) -> np.ndarray:
        """The die sequences ending in each rank code, the leg as it stands
        (int64; they sum to ``base.total``)."""
        if self._base_counts is None:
            from advisor.kernels.ranks import RANK_CODES

            counts = np.zeros(RANK_CODES, np.int64)
            np.add.at(counts, _code_of(self.base), self.base.counts)
            self._base_counts = counts
        return self._base_counts

    def rank_code_table(self) -> "LegOutcomes":
        """Every rank code once (probabilities unused): payouts per race
        order under this valuation's rules."""
        return _all_codes(self.ed)

    def hand_model(self, player: int) -> tuple[list[str], np.ndarray]:
        """``player``'s possible hands (strings of colours) and their
        probabilities: their hand when known, else
        :func:`advisor.valuation.overall.hand_distribution` over the colours not
        seen placed by them, weighted by the pile model."""
        cache = self._hands
        if player not in cache:
            st = self.state
            placed = {name: sum(1 for c in self.pile(name) if c.player == player and c.colour is None)
                      for name in PILES}
            if not st.hand_hidden(player):
                cache[player] = ([st.hand(player)], np.ones(1))
            elif st.hand_size(player) == 0 or not any(placed.values()):
                # nothing or every candidate in hand: no model needed
                cache[player] = ([st.hand_candidates(player) if st.hand_size(player) else ""], np.ones(1))
            else:
                candidates = [self.racing.index(c) for c in st.hand_candidates(player)]
                down = [(name, c) for name in PILES for c in self.pile(name) if c.player == player and c.colour is None]
                if any(c.model is not None for _, c in down):  # each card its own model
                    hands, probs = hand_distribution_cards(st.hand_size(player), candidates,
                                                           [self.card_q(name, c) for name, c in down])
                else:
                    q = {name: self.pile_q(name) for name in PILES}
                    hands, probs = hand_distribution(st.hand_size(player), candidates, placed, q)
                cache[player] = (["".join(self.racing[c] for c in h) for h in hands], probs)
        return cache[player]


# --------------------------------------------------------------------------
# Legal actions
# --------------------------------------------------------------------------


def legal_actions(state: GameState, player: int | None = None) -> list[str]:
    """Every legal action of ``player`` (default: the player to move, whose
    hand must be known: :meth:`GameState.check_player`), in a fixed order:
    leg tiles, pyramid, tiles, overall cards, partnerships (the rules core's
    :func:`advisor.rules.turn.legal_actions`, as strings)."""
    player = state.check_player(player)
    return [str(action) for action in core.legal_actions(state, player)]


# --------------------------------------------------------------------------
# The leg's outcomes with each tile placement
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class TileTables:
    """The leg's outcomes with each tile placement of the advised player, as
    whole counts: ``orders[k, code, n]`` die sequences (or sampled legs)
    ending in race order ``code`` (:mod:`advisor.kernels.ranks`) with ``n``
    landings on the tile of placement ``placements[k]`` (``(space, sign)``).
    Two sources fill them: :func:`exact_tile_tables` (each placement its own
    exact enumeration; the advice) and the candidate kernel
    (:func:`sampled_tile_tables`: exact up to :data:`EXACT_ROLLS` rolls,
    else sampled with common random numbers; the bots)."""

    placements: tuple
    orders: np.ndarray

    @cached_property
    def totals(self) -> np.ndarray:
        """Per placement, the die sequences (or legs) behind its table."""
        return self.orders.sum(axis=(1, 2))

    @cached_property
    def code_counts(self) -> np.ndarray:
        """``[placement, code]``: the counts of each race order."""
        return self.orders.sum(axis=2)


def _placements(ctx: Valuation, actions) -> tuple:
    """The tile placements among ``actions`` that change the leg: every one
    when the player's tile already stands (it is lifted from its space),
    else those on a space some move of the leg ends on (a tile no move
    reaches earns and changes nothing)."""
    lifted = ctx.state.own_tile(ctx.player) is not None
    return tuple((a.space, a.sign) for a in map(Action.parse, actions)
                 if a.kind == "tile" and (lifted or ctx.base.reached[a.space]))


def _with_tile(ctx: Valuation, space: int, sign: str) -> Position:
    """The position with the advised player's tile (lifted from its old
    space) on ``space`` (the rules core's :func:`place_tile`)."""
    return place_tile(ctx.pos, ctx.player, space, sign)


def exact_tile_tables(ctx: Valuation, placements) -> TileTables:
    """The exact tables: each placement its own enumeration of the leg
    (:meth:`LegOutcomes.of`, kept in ``ctx.tile_legs`` for the explanation),
    on every core at once (the kernel releases the GIL; the result does not
    depend on the thread count)."""
    from advisor.kernels.ranks import RANK_CODES

    jobs = [p for p in placements if p not in ctx.tile_legs]

    def one(job):
        return LegOutcomes.of(_with_tile(ctx, *job), job[0])

    threads = min(len(jobs), os.cpu_count() or 1)
    if threads >= 2:
        from concurrent.futures import ThreadPoolExecutor

        with ThreadPoolExecutor(threads) as pool:
            ctx.tile_legs.update(zip(jobs, pool.map(one, jobs)))
    else:
        ctx.tile_legs.update((job, one(job)) for job in jobs)
    legs = [ctx.tile_legs[p] for p in placements]
    orders = np.zeros((len(legs), RANK_CODES, 1 + max(int(leg.landings.max(initial=0)) for leg in legs)), np.int64)
    for k, leg in enumerate(legs):
        np.add.at(orders[k], (_code_of(leg), leg.landings), leg.counts)
    return TileTables(tuple(placements), orders)


def _tile_arrays(ctx: Valuation, enc, placements):
    """The kernel's form of ``placements``: the track's tiles without the
    player's own (lifted), the spaces and the signs (+1, -1)."""
    stripped = enc.tiles.copy()
    own = ctx.state.own_tile(ctx.player)
    if own is not None:
        stripped[own.space] = 0
    sp = np.array([space for space, _ in placements], np.int64)
    sg = np.array([1 if sign == "+" else -1 for _, sign in placements], np.int8)
    return stripped, sp, sg


def sampled_tile_tables(ctx: Valuation, enc, placements) -> TileTables:
    """The candidate kernel's tables: every placement in one call, exact
    when at most :data:`EXACT_ROLLS` rolls are left, otherwise
    :data:`TILE_SAMPLES` sampled legs replayed by every placement (common
    random numbers), seeded from the board and memoized."""
    stripped, sp, sg = _tile_arrays(ctx, enc, placements)
    key = ("tiles", ctx.board_key, stripped.tobytes(), sp.tobytes())
    orders = _MEMO.get(key + (sg.tobytes(),), lambda: _candidate_orders(enc, stripped, sp, sg, _seed(key)))
    return TileTables(tuple(placements), orders)


# --------------------------------------------------------------------------
# The one pass: every action's EV and denial from the tables
# --------------------------------------------------------------------------


def _one_pass(ctx: Valuation, actions, tables: TileTables | None, denial: bool):
    """The EV of every action of ``actions`` (tile placements: their leg
    figures, without the change of the player's overall cards) and, if
    ``denial``, the drop of the next player's best EV; ``(ev, denial,
    rows)`` with ``rows[k]`` the index of ``tables.placements[k]``'s action.

    Every leg figure is a whole number of coins per outcome (the money floor
    applied to each outcome's whole leg payout), summed in integers over
    the counts and divided once: the float nearest to the exact fraction."""
    parsed = [Action.parse(a) for a in actions]
    ev = np.zeros(len(parsed))
    den = np.zeros(len(parsed))
    base, ed, racing, stacks = ctx.base, ctx.ed, ctx.racing, ctx.pos.legtiles
    for i, a in enumerate(parsed):
        if a.kind == "leg":
            c = racing.index(a.colour)
            ev[i] = base.mean(ctx.leg_gain(("leg", c), base.tile_payout(c, leg_bet_value(ed, stacks[c]))))
        elif a.kind == "pyramid":
            ev[i] = base.mean(ctx.leg_gain("pyramid", PYRAMID_TILE))
        elif a.kind == "partner":
            ev[i] = base.mean(ctx.leg_gain(("partner", a.partner), ctx.copy_value(a.partner, base)))
        elif a.kind in PILES:
            ev[i] = ctx.card_values(a.kind, ctx.player, ctx.pile(a.kind))[racing.index(a.colour)]
    rows: list[int] = []
    if tables is not None and tables.placements:
        where = {(a.space, a.sign): i for i, a in enumerate(parsed) if a.kind == "tile"}
        rows = [where[p] for p in tables.placements]
        ev[rows] = _tile_values(ctx, tables)
    if denial:
        _denial(ctx, parsed, den, tables, rows)
    return ev, den, rows


def _tile_values(ctx: Valuation, tables: TileTables) -> np.ndarray:
    """Per placement, E[settled money with the tile] - E[without]: the
    landings paid at once, the holdings' payout per race order, the money
    floor on the sum; each the exact fraction of the counts, rounded once."""
    codes = _all_codes(ctx.ed)
    money = ctx.state.players[ctx.player].money
    held_codes = ctx.holdings(ctx.player, codes)  # [codes]
    n = np.arange(tables.orders.shape[2])
    settled = np.rint(settle(ctx.ed, money + n[None, :], held_codes[:, None])).astype(np.int64)
    settled_base = ctx.settled_base()[1]
    return _difference(tables.orders.reshape(len(tables.placements), -1) @ settled.ravel(), tables.totals,
                       int(ctx.base.counts @ settled_base), ctx.base.total)


# --------------------------------------------------------------------------
# The advice: every figure explained
# --------------------------------------------------------------------------


def _row(action: str, kind: str, ev: float, sd: float, p_loss: float, **extra) -> dict:
    return {"action": action, "kind": kind, "ev": ev, "sd": sd, "p_loss": p_loss, **extra}


def _value_leg(ctx: Valuation, colour: str, ev: float) -> dict:
    leg, c = ctx.base, ctx.racing.index(colour)
    value = leg_bet_value(ctx.ed, ctx.pos.legtiles[c])
    payout = leg.tile_payout(c, value)
    gain = ctx.leg_gain(("leg", c), payout)
    _, sd, p_loss = leg.moments(gain)
    p = leg.rank_probs(c)
    return _row(f"leg:{colour}", "leg", ev, sd, p_loss, value=value, p_first=p[0], p_second=p[1],
                p_rest=p[2:].sum(), floor=_mean_difference(leg, gain, payout))


def _mean_difference(leg: LegOutcomes, a: np.ndarray, b: np.ndarray | float) -> float:
    """E[a] - E[b] over ``leg`` (exact when the counts allow)."""
    b = np.broadcast_to(np.asarray(b, float), a.shape)
    return leg.mean(a - b)


def _value_pyramid(ctx: Valuation, ev: float) -> dict:
    gain = ctx.leg_gain("pyramid", PYRAMID_TILE)
    _, sd, p_loss = ctx.base.moments(gain)
    return _row("pyramid", "pyramid", ev, sd, p_loss, value=PYRAMID_TILE,
                floor=_mean_difference(ctx.base, gain, float(PYRAMID_TILE)))


def _value_card(ctx: Valuation, name: str, colour: str, player: int, pile: tuple[PileCard, ...]) -> dict:
    c = ctx.racing.index(colour)
    values, probs = ctx.card_gains(name, player, pile)
    _, sd, p_loss = _moments(values[c].astype(float), probs[c])
    ev = float(ctx.card_values(name, player, pile)[c])
    p = float(ctx.overall_odds(name)[c])
    right, right_probs = ctx.right_payout(name, pile, colour, player)
    plain = p * float(right @ right_probs) + (1 - p) * ctx.ed.wrong_card
    return _row(f"{name}:{colour}", name, ev, sd, p_loss, p_first=p if name == "winner" else np.nan,
                p_rest=p if name == "loser" else np.nan, pile_place=len(pile) + 1, floor=ev - plain)


def _value_partner(ctx: Valuation, partner: int, ev: float) -> dict:
    _, sd, p_loss = ctx.base.moments(ctx.leg_gain(("partner", partner), ctx.copy_value(partner, ctx.base)))
    return _row(f"partner:{partner}", "partner", ev, sd, p_loss)


def _expect(leg: LegOutcomes, values) -> Fraction | float:
    exact = leg.exact_mean(values)
    return exact if exact is not None else float(leg.prob @ np.asarray(values, float))


def _value_tile(ctx: Valuation, space: int, sign: str, ev: float, race: bool = True) -> dict:
    """The row of a tile placement: ``ev`` (its leg figure, from the one
    pass) with the change of the player's overall cards, and the figures
    behind it from the placement's exact outcomes."""
    if (space, sign) not in ctx.tile_legs:
        # No move of this leg ends on that space: with the tile there the leg
        # unfolds exactly as without it, so it earns and changes nothing.
        return _row(f"tile:{sign}{space}", "tile", 0.0, 0.0, 0.0, landings=0.0, bets_change=0.0,
                    overall_change=0.0, floor=0.0)
    leg = ctx.tile_legs[(space, sign)]
    # every figure an exact fraction of the die sequences' counts, rounded once
    leg_ev = _expect(leg, ctx.settle(ctx.player, leg)) - _expect(ctx.base, ctx.settle(ctx.player, ctx.base))
    landings = _expect(leg, leg.landings)
    bets = _expect(leg, ctx.holdings(ctx.player, leg)) - _expect(ctx.base, ctx.holdings(ctx.player, ctx.base))
    own_before = _expect(ctx.base, ctx.base.landings)
    overall = 0.0
    own_cards = any(c.player == ctx.player and c.colour for c in ctx.state.winner_pile + ctx.state.loser_pile)
    if own_cards and not race:
        overall = np.nan  # needs the race simulation: left out of this quick valuation
    elif own_cards:
        from advisor.odds.montecarlo import race_odds

        base_race = ctx.race()
        method = "auto" if base_race.exact else "sample"
        new_race = race_odds(_with_tile(ctx, space, sign), samples=base_race.samples or None,
                             precision=ctx.precision, seed=ctx.seed, method=method)
        overall = ctx.held_cards_value(new_race) - ctx.held_cards_value()
    _, sd, _ = leg.moments(leg.landings)
    return _row(f"tile:{sign}{space}", "tile", ev + (0.0 if np.isnan(overall) else overall), sd, 0.0,
                landings=float(landings), bets_change=float(bets), overall_change=overall,
                floor=float(leg_ev - (landings - own_before) - bets))


def _advice_rows(ctx: Valuation, actions, denial: bool, race: bool = True) -> list[dict]:
    """The rows of ``actions``: the one pass over the exact tables gives
    every EV and denial, the rows explain them."""
    tables = None
    actions = [Action.parse(a) for a in actions]
    placements = _placements(ctx, actions)
    if placements:
        tables = exact_tile_tables(ctx, placements)
    ev, den, _ = _one_pass(ctx, actions, tables, denial)
    out = []
    for i, action in enumerate(actions):
        kind, value = action.kind, float(ev[i])
        if kind == "leg":
            row = _value_leg(ctx, action.colour, value)
        elif kind == "pyramid":
            row = _value_pyramid(ctx, value)
        elif kind == "tile":
            row = _value_tile(ctx, action.space, action.sign, value, race)
        elif kind in PILES:
            row = _value_card(ctx, kind, action.colour, ctx.player, ctx.pile(kind))
        else:
            row = _value_partner(ctx, action.partner, value)
        row["denial"] = float(den[i])
        out.append(row)
    return out


# --------------------------------------------------------------------------
# Public entry points
# --------------------------------------------------------------------------


#: What :func:`best_moves` ranks by: the chance of winning the game, or EV.
OBJECTIVES = ("win", "ev")
#: Win chances closer than this count as level: the EV ranks them.
WIN_TIE = 1e-3


def rank_rows(frame):
    """The advice's rows best first: by the chance of winning when the
    frame has a ``win`` column (chances within :data:`WIN_TIE` of each
    other by EV, exact ties in the order given), else by EV
    (:func:`advisor.valuation.explain.sort_by_ev`)."""
    if "win" not in frame.columns:
        return sort_by_ev(frame)
    key = np.round(frame["win"].to_numpy() / WIN_TIE)
    order = np.lexsort((-frame["ev"].to_numpy(), -key))  # stable: the order given breaks exact ties
    return frame.iloc[order].reset_index(drop=True)


def best_moves(state: GameState | Position | str, player: int | None = None, *, precision: float = 0.002,
               seed: int | None = None, denial: bool = True, race: bool = True, rules: Edition | None = None,
               objective: str = "win"):
    """Every legal action of ``player`` (default: the player to move) with
    its EV and the figures behind it, as a pandas DataFrame, best first.
    A bare position gets the defaults of
    :meth:`GameState.from_board` (stated in ``frame.attrs["assumptions"]``).

    ``objective="win"`` (default): a column ``win``, the player's chance of
    winning the game after the action (:func:`advisor.valuation.winchance.after_actions`),
    the rows sorted by it (chances within :data:`WIN_TIE` of each other
    by EV), ``frame.attrs["win_now"]`` the chance before acting.
    ``objective="ev"``: the rows sorted by EV (highest first), no ``win``
    column.  ``frame.attrs["objective"]`` says which ranked the rows; the
    quick half (``race=False``) has no race odds and is ranked by EV.

    ``race=False`` gives the quick half of the advice, everything valued
    without the race simulation: the leg tiles, the pyramid, the tiles and
    the partnerships, with ``denial`` NaN (the next player's overall cards
    need race odds) and, when the player has cards on the overall piles,
    a tile's ``overall_change`` NaN and left out of its ``ev``.  The overall
    cards are not listed.

    ``rules``: a rule variant (:meth:`Edition.with_rules`) to read a board
    string under; a game state or position carries its own rules (given
    ``rules`` must then be the same)."""
    import pandas as pd

    if objective not in OBJECTIVES:
        raise AdvisorError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    state, assumptions = _as_state(state, rules)
    player = state.check_player(player)
    ctx = Valuation(state, player, check_precision(precision), seed)
    actions = core.legal_actions(state, player)
    extra = {}
    if race:
        from advisor.valuation.portfolio import add_columns

        rows = _advice_rows(ctx, actions, denial)
        placements = tuple(ctx.tile_legs)
        orders = exact_tile_tables(ctx, placements).orders if placements else None
        extra = add_columns(ctx, rows, orders, placements, seed=ctx.seed)
    else:
        rows = _advice_rows(ctx, [a for a in actions if a.kind not in PILES], False, race=False)
        for row in rows:
            row["denial"] = np.nan
    if race and objective == "win":
        from advisor.valuation.winchance import after_actions

        now, after = after_actions(ctx, [r["ev"] for r in rows], [r["sd"] for r in rows], [r.get("cov") for r in rows])
        for row, win in zip(rows, after):
            row["win"] = float(win)
        frame = rank_rows(pd.DataFrame(rows))
        extra["win_now"] = now
    else:
        objective = "ev"
        frame = rank_rows(pd.DataFrame(rows))
    frame.attrs.update(
        position=str(state.position), player=player, assumptions=assumptions, seed=ctx.seed,
        race_samples=ctx.race_samples, objective=objective, **extra,
    )
    return frame


def evaluate(state: GameState | Position | str, action: str, player: int | None = None, *,
             precision: float = 0.002, seed: int | None = None, denial: bool = True,
             rules: Edition | None = None) -> dict:
    """The valuation of one action (a row of :func:`best_moves`)."""
    state, _ = _as_state(state, rules)
    player = state.check_player(player)
    legal = legal_actions(state, player)
    if action not in legal:
        raise IllegalActionError(
            f"{action!r} is not a legal action for player {player} here (legal: {', '.join(legal)})"
        )
    return _advice_rows(Valuation(state, player, check_precision(precision), seed), [action], denial)[0]


def _as_state(state, rules: Edition | None = None) -> tuple[GameState, list[str]]:
    if isinstance(state, GameState):
        if rules is not None and state.position.rules != rules:
            raise StateError("rules", "the game state is under other rules than those given")
        return state, []
    st = GameState.from_board(state, rules=rules)
    return st, [
        f"{st.n_players} players; the advised player is player 0, to move",
        f"every player: money {st.rules.start_money}, no leg tiles or pyramid tiles, all five overall cards in hand, "
        "no partner",
        "overall piles empty; leg tiles as on the board (legtiles:) or full stacks",
    ]


# --------------------------------------------------------------------------
# The one pass for bots
# --------------------------------------------------------------------------


#: Tile placements are enumerated exactly when at most this many rolls are
#: left in the leg (a leg start, 5 rolls, is sampled).
EXACT_ROLLS = 4
#: Sampled legs per tile placement at a leg start.
TILE_SAMPLES = 1000
#: Races (common random numbers) behind the change of the overall cards.
RACE_SAMPLES = 300
_MEMO_SIZE = 256


@dataclass(frozen=True)
class FastValues:
    """EV of each legal action (``actions[i]`` is worth ``ev[i]`` coins);
    ``denial[i]``: the drop of the next player's best EV; ``rivals[i]``: the
    mean expected gain of the other players (see ``_rivals``); both zeros
    unless asked; ``gains[q]`` (with ``rivals``): each other player ``q``'s
    own expected gain per action (``rivals`` is their mean), ``None`` for
    the advised player and unless asked."""

    actions: list[str]
    ev: np.ndarray
    denial: np.ndarray
    rivals: np.ndarray
    #: the valuation behind the figures and the tile placements' tables (for
    #: views built on the same figures, e.g. :mod:`advisor.valuation.portfolio`)
    context: "Valuation | None" = field(default=None, repr=False, compare=False)
    tables: "TileTables | None" = field(default=None, repr=False, compare=False)
    gains: "list[np.ndarray | None] | None" = field(default=None, repr=False, compare=False)

    def scores(self, denial_weight: float = 0.0, rivals_weight: float = 0.0) -> np.ndarray:
        """Per action, ``ev + denial_weight * denial - rivals_weight * rivals``."""
        return self.ev + denial_weight * self.denial - rivals_weight * self.rivals

    def best(self, denial_weight: float = 0.0, rivals_weight: float = 0.0) -> str:
        """The action with the highest :meth:`scores` (the first in
        :func:`legal_actions` order on ties)."""
        return self.actions[int(np.argmax(self.scores(denial_weight, rivals_weight)))]


class _Memo:
    """A small least-recently-used memo of pure functions of the board."""

    def __init__(self, size: int):
        self.size = size
        self.data: OrderedDict = OrderedDict()

    def get(self, key, compute):
        if key in self.data:
            self.data.move_to_end(key)
            return self.data[key]
        value = compute()
        self.data[key] = value
        if len(self.data) > self.size:
            self.data.popitem(last=False)
        return value


_MEMO = _Memo(_MEMO_SIZE)


def _seed(key) -> int:
    """A seed that depends on ``key`` only (same in every process)."""
    return int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "little") >> 1


def _all_codes(rules) -> LegOutcomes:
    """Every rank code once (probabilities unused): payouts per rank code
    under ``rules`` (an edition or a variant)."""
    from advisor.kernels.ranks import RANK_CODES, rank_codes

    return LegOutcomes(np.zeros(RANK_CODES), rank_codes(), np.zeros(RANK_CODES, np.int64), rules=rules)


def _board_key(pos) -> tuple:
    from advisor.rules.encode import encode

    enc = encode(pos)
    return (pos.rules.name, int(enc.board), int(enc.dice), int(enc.rolls), enc.tiles.tobytes())


def shared_race_odds(position, precision: float = 0.02):
    """The race odds :func:`fast_values` values the overall cards with on
    ``position`` at ``precision``: seeded from the board, memoized, so every
    caller on the same board (a bot's decision, a game review's valuation)
    gets the same figures, computed once per process."""
    from advisor.odds.exact import as_position
    from advisor.odds.montecarlo import check_precision, race_odds

    pos = as_position(position)
    precision = check_precision(precision)
    key = _board_key(pos)
    return _MEMO.get(("race", key, precision), lambda: race_odds(pos, precision=precision, seed=_seed(key)))


def fast_values(state: GameState, player: int | None = None, *, precision: float = 0.02,
                denial: bool = False, rivals: bool = False) -> FastValues:
    """EV of every legal action of ``player`` (default: the one to move), in
    :func:`legal_actions` order; ``precision``: of the race odds behind the
    overall cards (95% half-width); ``denial``, ``rivals``: fill those
    figures (``rivals`` needs and implies ``denial``).  The one pass of
    :func:`best_moves` over the candidate kernel's tile tables
    (:func:`sampled_tile_tables`) instead of the exact ones."""
    from advisor.rules.encode import encode

    precision = check_precision(precision)
    player = state.check_player(player)
    pos = state.position
    enc = encode(pos)
    board_key = _board_key(pos)
    own = state.own_tile(player)
    track = own.space if own else 0
    # (the outcomes carry the rules whose payouts apply: a variant is part of the key)
    base = _MEMO.get(("leg", board_key, track, pos.rules), lambda: LegOutcomes.of(pos, track))
    ctx = Valuation(state, player, precision, _seed(board_key), base=base, board_key=board_key)
    parsed = core.legal_actions(state, player)
    actions = [str(a) for a in parsed]
    placements = _placements(ctx, parsed)
    tables = sampled_tile_tables(ctx, enc, placements) if placements else None
    ev, den, tile_rows = _one_pass(ctx, parsed, tables, denial or rivals)
    riv = np.zeros(len(actions))
    gains = None
    if rivals:
        tile_probs = tables.code_counts / tables.totals[:, None] if tables is not None else None
        gains = [None] * state.n_players
        _rivals(ctx, enc, {a: i for i, a in enumerate(actions)}, riv, den, tile_probs, tile_rows, gains)
    if tables is not None:
        cards = ctx.placed_cards()
        if cards:
            stripped, sp, sg = _tile_arrays(ctx, enc, placements)
            ev[tile_rows] += _overall_change(ctx, enc, board_key, stripped, sp, sg, cards)
    return FastValues(actions, ev, den, riv, ctx, tables, gains)


def _difference(sums: np.ndarray, totals: np.ndarray, sum0: int, total0: int) -> np.ndarray:
    """``sums / totals - sum0 / total0`` (integer sums and counts), each the
    float nearest to the exact fraction: one division of whole numbers (in
    numpy while they stay below 2**53, where floats hold them exactly)."""
    limit = 2**52 // max(total0, int(totals.max(initial=1)), 1)
    if np.abs(sums).max(initial=0) < limit and abs(sum0) < limit and totals.max(initial=0) < limit:
        return (sums * total0 - sum0 * totals) / (totals * total0)  # every product below 2**52
    return np.array([(int(a) * total0 - sum0 * int(t)) / (int(t) * total0) for a, t in zip(sums, totals)])


def _candidate_orders(enc, stripped, sp, sg, seed) -> np.ndarray:
    from advisor.kernels.board.candidates import candidate_joint
    from advisor.kernels.ranks import RANK_CODES

    exact = enc.rolls <= EXACT_ROLLS
    orders = np.zeros((sp.size, RANK_CODES, enc.rolls + 1), np.int64)
    candidate_joint(enc.board, enc.dice, enc.rolls, stripped, sp, sg, exact, TILE_SAMPLES, seed, orders)
    return orders


def _overall_change(ctx: Valuation, enc, board_key, stripped, sp, sg, cards) -> np.ndarray:
    """Per placement, the change of the EV of the player's overall cards."""
    from advisor.rules.encode import full_pyramid
    from advisor.kernels.board.candidates import candidate_races

    key = ("races", board_key, stripped.tobytes(), sp.tobytes(), sg.tobytes())

    def compute():
        ed = ctx.ed
        win = np.zeros((sp.size, 5), np.int64)
        lose = np.zeros((sp.size, 5), np.int64)
        candidate_races(enc.board, enc.dice, enc.rolls, enc.tiles, stripped, sp, sg, RACE_SAMPLES,
                        _seed(key), full_pyramid(ed), ed.rolls_per_leg, win, lose)
        return {"winner": win / RACE_SAMPLES, "loser": lose / RACE_SAMPLES}

    odds = _MEMO.get(key, compute)
    change = np.zeros(sp.size)
    for name, c, right in cards:
        change += (right - ctx.ed.wrong_card) * odds[name][:, c]
    return change


# --------------------------------------------------------------------------
# Denial: the next player's best option before and after
# --------------------------------------------------------------------------


class _NextPlayer:
    """The best EV available to one other player (``who``): their pyramid
    tile and leg tiles under a given leg distribution, and their overall
    cards for given piles (the ``denial`` figure of both views).

    Their leg options are whole coins per race order, summed over whole
    counts of race orders and divided once (each the float nearest to the
    exact fraction).  The player chooses knowing their own hand.  When it
    is hidden, their best option is the expectation over their possible
    hands (``Valuation.hand_model``: the colours not seen placed by them,
    weighted by the pile model) of the best option in each hand, ``E_H[max(leg
    options, best card of H)]``; a known hand is the one hand of
    probability 1."""

    def __init__(self, ctx: Valuation, who: int):
        self.ctx = ctx
        self.who = who
        self.codes = _all_codes(ctx.ed)
        self.money = ctx.state.players[who].money
        self.held = np.rint(ctx.holdings(who, self.codes)).astype(np.int64)
        self._hands = None  # (camel indices per possible hand, probabilities), when first needed
        self._cards: dict = {}
        self._columns: dict = {}
        self._options: dict = {}

    def _settled(self, extra) -> np.ndarray:
        """Per rank code, the player's settled leg money (int64) with
        ``extra``: whole coins, or ``(camel, value)`` for a leg tile."""
        if extra not in self._columns:
            pay = self.codes.tile_payout(*extra) if isinstance(extra, tuple) else extra
            self._columns[extra] = settle(self.ctx.ed, self.money, self.held + pay)
        return self._columns[extra]

    def best_leg(self, counts: np.ndarray, totals: np.ndarray, stacks) -> np.ndarray:
        """``counts`` [K, codes] (whole counts of race orders, ``totals``
        [K] their sums): per row, the EV of the best of the pyramid tile and
        the top leg tiles of ``stacks``."""
        if stacks not in self._options:
            ed = self.ctx.ed
            options = [self._settled(0), self._settled(PYRAMID_TILE)]
            options += [self._settled((c, leg_bet_value(ed, stack))) for c, stack in enumerate(stacks)
                        if leg_bet_value(ed, stack) is not None]
            self._options[stacks] = np.stack(options, axis=1)
        values = _whole_sums(counts, totals, self._options[stacks])  # [K, 1 + options]: the first without any
        return (values[:, 1:].max(axis=1) - values[:, 0]) / totals

    def best_leg_after_taking(self, counts: np.ndarray, total: int, stacks) -> dict[int, float]:
        """``counts`` [codes] (summing to ``total``): per colour ``c`` with a
        leg tile left, the EV of the best of the pyramid tile and the top
        leg tiles once the top tile of ``c`` is taken (:meth:`best_leg` of
        those stacks, all from one product)."""
        ed = self.ctx.ed
        live = [c for c, stack in enumerate(stacks) if leg_bet_value(ed, stack) is not None]
        # the tile under the one taken (the rules core's effect of taking it)
        under = {c: leg_bet_value(ed, take_leg_tile(ed, stacks, c)[1][c]) for c in live}
        columns = [self._settled(0), self._settled(PYRAMID_TILE)]
        columns += [self._settled((c, leg_bet_value(ed, stacks[c]))) for c in live]
        columns += [self._settled((c, under[c])) for c in live if under[c] is not None]
        values = _whole_sums(counts, total, np.stack(columns, axis=1))
        gains = values[1:] - values[0]  # pyramid, top tiles, second tiles (whole coins)
        top = dict(zip(live, gains[1:1 + len(live)]))
        second = dict(zip([c for c in live if under[c] is not None], gains[1 + len(live):]))
        out = {}
        for c in live:
            options = [gains[0]] + [v for d, v in top.items() if d != c] + ([second[c]] if c in second else [])
            out[c] = float(max(options)) / total
        return out

    def best_cards(self, piles: dict) -> np.ndarray:
        """Per possible hand, the EV of its best overall card on ``piles``
        (``-inf`` for an empty hand)."""
        key = (piles["winner"], piles["loser"])
        if key not in self._cards:
            hands, _ = self.hands()
            if any(hands):
                values = np.max([self.ctx.card_values(name, self.who, piles[name]) for name in PILES], axis=0)
            self._cards[key] = np.array([values[hand].max() if hand else -np.inf for hand in hands])
        return self._cards[key]

    def hands(self) -> tuple[list[list[int]], np.ndarray]:
        """The player's possible hands (camel indices) and their probabilities."""
        if self._hands is None:
            hands, probs = self.ctx.hand_model(self.who)
            self._hands = [[self.ctx.racing.index(colour) for colour in hand] for hand in hands], probs
        return self._hands

    def best(self, leg: np.ndarray, piles: dict) -> np.ndarray:
        """Per entry of ``leg`` (the best leg option's EV), the player's best
        option: ``E_H[max(leg, best card of H)]``."""
        cards = self.best_cards(piles)
        leg = np.asarray(leg, float)
        if cards.size == 1:  # a known hand
            return np.maximum(leg, cards[0])
        probs = self.hands()[1]
        # one dot product per entry: the same sum whatever the number of entries
        if leg.size == 1:
            return np.array([np.maximum(leg[0], cards) @ probs])
        return np.array([np.maximum(x, cards) @ probs for x in leg])


def _whole_sums(counts: np.ndarray, totals, values: np.ndarray) -> np.ndarray:
    """``counts @ values`` for whole counts (summing to ``totals``, per row)
    and whole coins, exactly: in floating point (fast), which holds every
    whole number below 2**53 exactly whatever the order of the sums, when
    no sum can reach it; else in integers."""
    if float(np.max(totals)) * float(np.abs(values).max(initial=0)) < 2.0**53:
        return counts.astype(float) @ values.astype(float)
    return counts @ values


def _piles(state: GameState) -> dict:
    return {"winner": state.winner_pile, "loser": state.loser_pile}


def _denial(ctx: Valuation, parsed: list[Action], den, tables: TileTables | None, tile_rows) -> None:
    """Fill ``den``: how much the next player's best EV drops per action
    (``parsed``); the tile placements' ``tables`` belong to rows
    ``tile_rows``.  The effects are the rules core's: taking a leg tile
    uncovers the one under it, an overall card lies face down for the next
    player, a tile changes the leg's race orders."""
    state = ctx.state
    nxt = ctx.next_player((ctx.player + 1) % state.n_players)
    piles = _piles(state)
    stacks = ctx.pos.legtiles
    counts, total = ctx.base_code_counts(), ctx.base.total
    base_leg = nxt.best_leg(counts[None, :], np.array([total]), stacks)
    before = float(nxt.best(base_leg, piles)[0])
    after: dict = {}  # per action's effect: the next player's best option after it
    taking = None
    for i, action in enumerate(parsed):
        kind = action.kind
        if kind == "leg":
            if taking is None:
                taking = nxt.best_leg_after_taking(counts, total, stacks)
            if action.colour not in after:
                after[action.colour] = float(nxt.best(np.array([taking[ctx.racing.index(action.colour)]]), piles)[0])
            drop = before - after[action.colour]
        elif kind in PILES:
            if kind not in after:  # any colour: the card lies face down for them
                changed = {**piles, kind: piles[kind] + (PileCard(ctx.player),)}
                after[kind] = float(nxt.best(base_leg, changed)[0])
            drop = before - after[kind]
        else:
            continue
        den[i] = drop if abs(drop) > 1e-12 else 0.0
    if tables is not None and tile_rows:
        drops = before - nxt.best(nxt.best_leg(tables.code_counts, tables.totals, stacks), piles)
        den[tile_rows] = np.where(np.abs(drops) > 1e-12, drops, 0.0)


def _rivals(ctx: Valuation, enc, index, riv, den, tile_probs, tile_rows, gains=None) -> None:
    """Fill ``riv``: the mean over the other players of what the action
    gains them in expectation (and, if given, ``gains[q]``: other player
    ``q``'s own gain per action).

    * Their held leg bets change only when the leg's distribution does: by a
      tile placement (exact or sampled as the placement's own value).
    * The next player's best option drops by the action's denial.
    * The pyramid gives the next player information: they choose after
      seeing the roll, and the average over the roll of their best option is
      at least their best option now (``E max >= max E``); the difference is
      their gain.  A roll that ends the race is valued on the order it
      leaves, so the average stays an average over every roll and the gain
      is never negative; with one roll left (the roll ends the leg) the gain
      is taken as 0.
    """
    from advisor.kernels.board.candidates import after_each_roll
    from advisor.kernels.ranks import RANK_CODES

    state = ctx.state
    others = [q for q in range(state.n_players) if q != ctx.player]
    nxt_q = (ctx.player + 1) % state.n_players
    gain = -den.copy()
    own = {q: np.zeros(len(riv)) for q in others}  # each player's share of ``gain``
    own[nxt_q] -= den
    if tile_probs is not None:
        probs = tile_probs
        base_probs = ctx.base_code_probs()
        for q in others:
            who = ctx.next_player(q)
            values = settle(ctx.ed, who.money, who.held) + 0.0
            change = probs @ values - base_probs @ values
            gain[tile_rows] += change
            own[q][tile_rows] += change
    if enc.rolls > 1:
        nxt = ctx.next_player((ctx.player + 1) % state.n_players)
        stacks = ctx.pos.legtiles
        piles = _piles(state)
        before = float(nxt.best(nxt.best_leg(ctx.base_code_counts()[None, :], np.array([ctx.base.total]), stacks),
                                piles)[0])

        def rolls():
            """Per next roll: its weight and the counts of the leg's race orders after it."""
            orders = np.zeros((6 * 6, RANK_CODES, 1), np.int64)
            weights = np.zeros(6 * 6, np.int64)
            after_each_roll(enc.board, enc.dice, enc.rolls, enc.tiles, orders, weights)
            live = weights > 0
            return weights[live], orders[live, :, 0]

        weights, counts = _MEMO.get(("rolls", ctx.board_key), rolls)
        after = nxt.best(nxt.best_leg(counts, counts.sum(axis=1), stacks), piles)
        info = float(weights @ after) / weights.sum() - before
        gain[index["pyramid"]] += info
        own[nxt_q][index["pyramid"]] += info
    riv[:] = gain / len(others)
    if gains is not None:
        for q in others:
            gains[q] = own[q]


def _code_probs(leg: LegOutcomes) -> np.ndarray:
    """P(each rank code) at the end of ``leg``."""
    from advisor.kernels.ranks import RANK_CODES

    return np.bincount(_code_of(leg), weights=leg.prob, minlength=RANK_CODES)


def _code_of(leg: LegOutcomes) -> np.ndarray:
    """The rank code of each outcome of ``leg``."""
    from advisor.kernels.ranks import codes_of

    return codes_of(leg.ranks)
