"""Scoring (docs/rules.md, Money and scoring): every payout and the money floor,
written once, for the game engine and the valuation alike.

Every figure comes from the rules record (:class:`~advisor.rules.editions.Edition`,
or a variant of one), never from a literal:

* a leg bet tile pays its value when its camel is 1st, ``leg_second`` (+1)
  when 2nd, ``leg_other`` (-1) otherwise (:func:`leg_tile_payouts`);
* a pyramid tile pays :data:`PYRAMID_TILE` (+1) at leg scoring; a camel
  unit landing on a spectator / desert tile pays its owner
  :data:`LANDING_COIN` (1) at once;
* the overall piles pay, in placement order, the ladder ``pile_payouts``
  (8, 5, 3, 2) then ``pile_rest`` (1) to each correct card and
  ``wrong_card`` (-1) to each wrong one (:func:`pile_payout`);
* each scoring phase is summed per player, then settled: money never goes
  below ``money_floor`` (0; ``None``: no floor) (:func:`settle`).

The functions take plain values (money, tiles, cards), so they serve whole
games (:mod:`advisor.rules.turn`) and the valuation's arrays of outcomes
(:func:`settle` and :func:`leg_tile_payouts` work element-wise on numpy
arrays) alike.
"""

from __future__ import annotations

from typing import Iterable, Sequence

import numpy as np

from advisor.rules.editions import SECOND, Edition

__all__ = ["PILES", "PILE_PAYOUTS", "PYRAMID_TILE", "LANDING_COIN", "pile_payout", "leg_tile_payouts",
           "leg_tile_payout", "partner_copy", "settle", "race_order", "leg_rewards", "overall_rewards"]

#: The overall piles: the cards on ``winner`` bet on the race's winner, on
#: ``loser`` on its last camel.
PILES = ("winner", "loser")

#: What the first correct cards of an overall pile pay (the editions' own
#: ladder; a variant may change it: :attr:`Edition.pile_payouts`).
PILE_PAYOUTS = SECOND.pile_payouts

#: What a pyramid tile pays at leg scoring.
PYRAMID_TILE = 1

#: What a camel unit landing on a spectator / desert tile pays its owner.
LANDING_COIN = 1


def pile_payout(k: int, rules: Edition = SECOND) -> int:
    """Payout of the ``k``-th (0-based) correct card of a pile: 8, 5, 3, 2,
    1, 1, ... (the ladder of ``rules``, then its ``pile_rest``)."""
    ladder = rules.pile_payouts
    return ladder[k] if k < len(ladder) else rules.pile_rest


def leg_tile_payouts(rules: Edition, value: int) -> np.ndarray:
    """What a leg bet tile of ``value`` pays for each rank of its camel
    (0-based, one entry per racing camel): ``value``, ``leg_second``, then
    ``leg_other``.  Index it with an array of ranks for the payout of every
    outcome."""
    out = np.full(len(rules.racing), rules.leg_other, np.int64)
    out[0], out[1] = value, rules.leg_second
    return out


def leg_tile_payout(rules: Edition, rank: int, value: int) -> int:
    """What a leg bet tile of ``value`` pays when its camel finishes the leg
    at ``rank`` (0-based)."""
    return int(leg_tile_payouts(rules, value)[rank])


def settle(rules: Edition, money, change):
    """Money after a scoring phase: ``money + change`` held at the money
    floor (``max(floor, money + change)``; unchanged without a floor).
    Element-wise on numpy arrays; whole numbers stay ``int``."""
    total = money + change
    floor = rules.money_floor
    if floor is None:
        return total
    if isinstance(total, np.ndarray):
        return np.maximum(floor, total)
    return max(floor, total)


def race_order(stacks: Iterable[tuple[int, str]], racing: str) -> list[str]:
    """Racing camels first to last: by space, then height in the stack
    (spaces past the track count as they are, see the rulings)."""
    key = {}
    for space, camels in stacks:
        for height, camel in enumerate(camels):
            key[camel] = (space, height)
    return sorted(racing, key=lambda c: key[c], reverse=True)


def partner_copy(rewards: Iterable, none=0):
    """What a partnered player adds at leg scoring: the best one of the
    partner's rewards (leg bet tiles and pyramid tiles), never a negative
    one (``none``, 0, when all lose or the partner holds nothing).
    Element-wise when the rewards (or ``none``) are numpy arrays, one value
    per leg outcome."""
    best = none
    for reward in rewards:
        best = np.maximum(best, reward) if isinstance(best, np.ndarray) or isinstance(reward, np.ndarray) \
            else max(best, reward)
    return best


def leg_rewards(rules: Edition, players: Sequence, order: Sequence[str]) -> list[int]:
    """Each player's summed leg scoring (before the money floor): their leg
    bet tiles by the rank of their camel in ``order``, their pyramid tiles,
    and, when partnered, the best of the partner's rewards (never a
    negative one).  ``players``: objects with ``leg_tiles`` ((colour,
    value) pairs), ``pyramid_tiles`` and ``partner``."""
    rank = {camel: k for k, camel in enumerate(order)}
    own = [[leg_tile_payout(rules, rank[c], v) for c, v in pl.leg_tiles] + [PYRAMID_TILE] * pl.pyramid_tiles
           for pl in players]
    out = []
    for i, pl in enumerate(players):
        total = sum(own[i])
        if pl.partner is not None:
            total += partner_copy(own[pl.partner])
        out.append(total)
    return out


def overall_rewards(rules: Edition, n_players: int, piles: Iterable[tuple[Sequence, str]]) -> list[int]:
    """Each player's summed overall-pile scoring (before the money floor).
    ``piles``: ``(cards, camel)`` pairs, the cards (with ``player`` and
    ``colour``) in placement order, ``camel`` the one the pile bets on (the
    winner, the loser).  Every card's colour must be known."""
    out = [0] * n_players
    for pile, camel in piles:
        correct = 0
        for card in pile:
            if card.colour is None:
                raise ValueError("a face-down card of unknown colour cannot be scored: reveal it first")
            if card.colour == camel:
                out[card.player] += pile_payout(correct, rules)
                correct += 1
            else:
                out[card.player] += rules.wrong_card
    return out
