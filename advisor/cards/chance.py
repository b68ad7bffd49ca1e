"""Where the cards of a Camel Up Cards game come from when two games must
share their luck: each leg's deal and race-deck order drawn from the leg's
own stream, whatever the players decide (a paired duel, :mod:`advisor.simulate.duel`).

A :class:`~advisor.cards.game.CardsGame` takes one of two sources, named on
its record's setup line (``"dice"``, the name the board games use for
their source; absent means ``"game"``):

``"game"`` (the default)
    One random stream seeded by the game's seed draws the five set-up cards,
    then each deal and each shuffle in turn.

``"leg"`` (:class:`LegCards`)
    The five set-up cards come from the stream ``(seed, CARDS_TAG, 0)``.
    Leg ``k`` (1, 2, ...) draws from its own stream ``(seed, CARDS_TAG, k)``
    an order of the 30 racing cards (the deal: player ``p`` gets its
    ``p``-th share) and a random key per physical card, the 30 cards told
    apart by colour, value and copy (the first, second, ... card of a kind).
    The race deck is the cards the players put into it (shown and face
    down), in the order of their keys, a kind's cards taking its copies'
    keys in order.

**Ruling** (what "the same dice" means in Camel Up Cards): the chance of a
leg is its deal and its race deck's order.  The deal depends on nothing the
players do, so both games of a pair deal the same cards in every leg.  The
race deck is built from the players' choices, so it cannot be the same
when they choose differently; the keys make it as alike as it can be: the
cards both decks hold come in the same relative order, and a card one deck
holds and the other does not takes the place its own key gives it.  Where
both games build the same deck, it is the same deck in the same order.

The order is uniform, as a shuffle must be: which copies of a kind go into
the deck is fixed without looking at the keys, so the deck's keys are
independent and uniform, and sorting by them gives every order the same
chance.  Bots draw from their own streams ``(seed, seat)``, never from
these.
"""

from __future__ import annotations

import numpy as np

from advisor.cards.position import FULL_DECK

__all__ = ["LegCards", "CARDS_TAG", "CARD_MODES", "RACING_CARDS"]

#: The sources of a game's cards (see the module text).
CARD_MODES = ("game", "leg")

#: Tag of the per-leg streams: never equal to a seat's stream ``(seed, s)``.
CARDS_TAG = 0x43415244  # "CARD"

#: The 30 racing cards, sorted: copies of a kind side by side.
RACING_CARDS: tuple[tuple[str, int], ...] = tuple(sorted(card for card, n in FULL_DECK.items() for _ in range(n)))


class LegCards:
    """The ``"leg"`` source of a game seeded ``seed`` (module text)."""

    mode = "leg"

    def __init__(self, seed: int):
        self.seed = seed
        self._leg: tuple[int, tuple, np.ndarray] | None = None  # (leg, deal, keys)

    def setup(self) -> tuple[tuple[str, int], ...]:
        """The 30 racing cards in the order the set-up draws them (the
        first five are the set-up cards)."""
        order = np.random.default_rng([self.seed, CARDS_TAG, 0]).permutation(len(RACING_CARDS))
        return tuple(RACING_CARDS[i] for i in order)

    def _draw(self, leg: int):
        if self._leg is None or self._leg[0] != leg:
            rng = np.random.default_rng([self.seed, CARDS_TAG, leg])
            deal = tuple(RACING_CARDS[i] for i in rng.permutation(len(RACING_CARDS)))
            self._leg = (leg, deal, rng.random(len(RACING_CARDS)))
        return self._leg

    def deal(self, leg: int) -> tuple[tuple[str, int], ...]:
        """Leg ``leg``'s deal: the 30 racing cards in order."""
        return self._draw(leg)[1]

    def shuffle(self, leg: int, cards) -> tuple[tuple[str, int], ...]:
        """Leg ``leg``'s race deck from ``cards`` (the cards put into it),
        top first: in the order of their cards' keys."""
        keys = self._draw(leg)[2]
        first = {}
        for i, card in enumerate(RACING_CARDS):
            first.setdefault(card, i)
        used: dict = {}
        keyed = []
        for card in sorted(cards):
            copy = used.get(card, 0)
            if copy >= FULL_DECK[card]:
                raise ValueError(f"more than {FULL_DECK[card]} cards {card[0]}{card[1]} in a race deck")
            used[card] = copy + 1
            keyed.append((float(keys[first[card] + copy]), card))
        return tuple(card for _, card in sorted(keyed))
