"""The valuation context: :class:`Valuation`, everything shared by the
valuations of one state (the leg's outcome table, the race odds, the pile
model, the hand models and the caches of the figures built on them), from
which both views of the one valuation (:func:`advisor.valuation.engine.best_moves`,
:func:`advisor.valuation.fast.fast_values`) value; and ``_NextPlayer``, the
best options of another player on its tables (the ``denial`` figure).
"""

from __future__ import annotations

import numpy as np

from advisor._tools.sampling import resolve_seed
from advisor.odds.montecarlo import race_odds
from advisor.rules.actions import leg_bet_value, take_leg_tile
from advisor.rules.scoring import PYRAMID_TILE, partner_copy, settle
from advisor.rules.state import GameState, PileCard
from advisor.valuation.legs import LegOutcomes, all_codes, code_of, code_probs
from advisor.valuation.memo import MEMO
from advisor.valuation.overall import (PILES, card_gains, floor_binds, hand_distribution, hand_distribution_cards,
                                       plain_gains, race_end_money, right_payout, right_payouts,
                                       right_payouts_cards)

__all__ = ["Valuation", "DENIAL_PRECISION"]

#: Race odds precision for the denial column when the advised player holds
#: no overall card (the next player's cards are its only use).
DENIAL_PRECISION = 0.01


# --------------------------------------------------------------------------
# Valuation context
# --------------------------------------------------------------------------


class Valuation:
    """Everything shared by the valuations of one state: the leg's outcome
    table, the race odds, the pile model, the hand models and the caches of
    the figures built on them.  Both views of the one valuation
    (:func:`~advisor.valuation.engine.best_moves`,
    :func:`~advisor.valuation.fast.fast_values`) value from one of these.

    ``board_key``: when given, the race odds are seeded from the board and
    shared by every valuation on the same board (the bots' memo), instead of
    computed with ``seed``.  Every cache is declared here (``__slots__``): a
    figure is cached in one named place."""

    __slots__ = ("state", "pos", "ed", "racing", "player", "precision", "seed", "base", "board_key", "own_cards",
                 "tile_legs", "tile_races", "_race", "_pile_q", "_least_money", "_end_money", "_held_cards",
                 "_card_gains", "_card_values", "_hands", "_players", "_base_codes", "_base_counts", "_settled", "_gains")

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
        # the race odds with a tile placed, per placement, that a tile's
        # overall_change read (filled by the advice's tile rows)
        self.tile_races: dict = {}
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
        def compute():
            return race_odds(self.pos, precision=self.race_precision(), seed=self.seed)

        if self.board_key is None:
            return compute()
        return MEMO.get(("race", self.board_key, self.race_precision()), compute)

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
            self._base_codes = code_probs(self.base)
        return self._base_codes

    def base_code_counts(self) -> np.ndarray:
        """The die sequences ending in each rank code, the leg as it stands
        (int64; they sum to ``base.total``)."""
        if self._base_counts is None:
            from advisor.kernels.ranks import RANK_CODES

            counts = np.zeros(RANK_CODES, np.int64)
            np.add.at(counts, code_of(self.base), self.base.counts)
            self._base_counts = counts
        return self._base_counts

    def rank_code_table(self) -> "LegOutcomes":
        """Every rank code once (probabilities unused): payouts per race
        order under this valuation's rules."""
        return all_codes(self.ed)

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
        self.codes = all_codes(ctx.ed)
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

