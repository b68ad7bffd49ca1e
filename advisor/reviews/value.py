"""The mark-to-market value of every player of a board game: W_p(s), the
figure the review's exact decomposition is taken in
(:mod:`advisor.reviews.review`, whose docstring defines it; the review of
a game gives :class:`Valuer` too).
"""

from __future__ import annotations

from dataclasses import replace
from fractions import Fraction

import numpy as np

from advisor.game import Game, RecordError
from advisor.rules import scoring
from advisor.rules.scoring import leg_rewards, settle
from advisor.valuation.fast import shared_race_odds
from advisor.valuation.legs import LegOutcomes

__all__ = ["Valuer"]


class Valuer:
    """W_p(s) for every player of a game state (module docstring).

    ``precision``: of the race odds behind the overall cards (those
    :func:`advisor.valuation.fast.fast_values` uses on the same board: one race
    simulation per board serves the decision and the valuation)."""

    def __init__(self, precision: float = 0.002, colours: dict | None = None):
        self.precision = precision
        # the colours of the cards placed face down unseen, as the record's
        # reveal lines show them at the race end ((pile, index) -> colour):
        # a card's colour was fixed when it was placed
        self.colours = dict(colours or {})
        self._legs: dict = {}

    def leg(self, position, track: int):
        """The leg's outcomes from ``position``, landings counted on the
        tile at ``track`` (0: none), with their integer counts."""
        key = (str(position), track)
        if key not in self._legs:
            if len(self._legs) > 64:
                self._legs.clear()
            self._legs[key] = LegOutcomes.of(position, track)
        return self._legs[key]

    def leg_values(self, state, players=None) -> list[Fraction]:
        """E[max(floor, m + L + R)] per player (the floor of the game's
        rules; none in a variant without one), exactly (``players``: the
        holdings to value, default the state's)."""
        players = tuple(state.players if players is None else players)
        pos = state.position
        owners = {t.owner: t.space for t in pos.tiles if t.owner is not None}
        held = [bool(p.leg_tiles or p.pyramid_tiles) for p in players]
        out = []
        racing = pos.rules.racing
        scored: dict = {}
        for p, pl in enumerate(players):
            partner_holds = pl.partner is not None and held[pl.partner]
            if not (held[p] or partner_holds or p in owners):
                out.append(Fraction(pl.money))  # nothing pending this leg
                continue
            track = owners.get(p, 0)
            leg = self.leg(pos, track)
            if track not in scored:
                # leg scoring sees only which camel is 1st and which 2nd (a
                # tile pays its value, 1 or -1): one call of the rule per pair
                pairs = np.argmin(leg.ranks, axis=1) * 8 + np.argmax(leg.ranks == 1, axis=1)
                keys, first, inverse = np.unique(pairs, return_index=True, return_inverse=True)
                rewards = np.array([leg_rewards(pos.rules, players, [racing[c] for c in np.argsort(leg.ranks[k])])
                                    for k in first], np.int64).reshape(len(keys), len(players))
                scored[track] = rewards[np.asarray(inverse).ravel()]
            own = leg.landings if track else 0
            # the money floor of the game's rules (none in a variant without one)
            values = settle(pos.rules, pl.money + own, scored[track][:, p])
            out.append(leg.exact_mean(values))
        return out

    def race(self, position):
        return shared_race_odds(position, self.precision)

    def overall_values(self, state) -> list[Fraction]:
        """E[O_p] per player: each player's cards on both piles, every colour
        known, against the race odds' winning and last camel."""
        n = state.n_players
        if not (state.winner_pile or state.loser_pile):
            return [Fraction(0)] * n
        race = self.race(state.position)
        racing = state.position.rules.racing
        out = [Fraction(0)] * n
        for pile, probs in (("winner", race.win), ("loser", race.lose)):
            cards = self.revealed(pile, getattr(state, f"{pile}_pile"))
            if not cards:
                continue
            for c, camel in enumerate(racing):
                p = Fraction(float(probs[c]))
                if p:
                    pays = scoring.overall_rewards(state.position.rules, n, ((cards, camel),))
                    out = [o + p * x for o, x in zip(out, pays)]
        return out

    def hindsight(self, state):
        """``state`` with the colour of every face-down card the record
        reveals, and each hand that was hidden for it the colours its owner
        has not placed: what each player saw of their own cards."""
        if not any(c.colour is None for c in state.winner_pile + state.loser_pile) \
                and not any(state.hand_hidden(p) for p in range(state.n_players)):
            return state
        players = tuple(replace(pl, overall_cards=None) if state.hand_hidden(i) else pl
                        for i, pl in enumerate(state.players))
        return replace(state, players=players, winner_pile=self.revealed("winner", state.winner_pile),
                       loser_pile=self.revealed("loser", state.loser_pile))

    def revealed(self, pile: str, cards: tuple) -> tuple:
        """``cards`` with the colour of each face-down card the record
        reveals; one it never reveals cannot be valued."""
        return tuple(card if card.colour is not None
                     else replace(card, colour=self.colour_of(pile, index, card.player), model=None)
                     for index, card in enumerate(cards))

    def colour_of(self, pile: str, index: int, player: int) -> str:
        """The colour the record reveals for card ``index`` of ``pile``,
        placed face down by ``player``."""
        colour = self.colours.get((pile, index))
        if colour is None:
            raise RecordError(f"the card P{player + 1} placed face down on the {pile} pile (card "
                              f"{index + 1}) is never revealed in the record: its colour is needed to "
                              "value the game (review a finished game, whose cards are revealed)")
        return colour

    def values(self, game: Game) -> list[Fraction]:
        """W_p of the game as it stands: the final money once it is over."""
        if game.finished:
            return [Fraction(m) for m in game.money()]
        st = game.state
        return [a + b for a, b in zip(self.leg_values(st), self.overall_values(st))]

    def expected_roll(self, game: Game) -> list[Fraction]:
        """E[W_p after a roll] of the player to move, per player: W_p with
        the roller holding one more pyramid tile (same board; exact for the
        leg, and the race odds' average over the roll is the odds now)."""
        st = game.state
        q = game.to_move
        plus = list(st.players)
        plus[q] = replace(plus[q], pyramid_tiles=plus[q].pyramid_tiles + 1)
        return [a + b for a, b in zip(self.leg_values(st, plus), self.overall_values(st))]
