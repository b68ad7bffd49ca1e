"""Overall winner / loser cards: the models behind their values.

Three models, used by :func:`advisor.best_moves` and by the bots'
:func:`advisor.valuation.fast.fast_values` alike (so their figures agree):

Every payout and the money floor come from the rules record (an
:class:`~advisor.rules.editions.Edition` or a variant of it, argument
``rules``): the figures below are the editions' own (ladder 8, 5, 3, 2, then
1; a wrong card -1; money never below 0); a variant's ladder, wrong-card
payout and floor (or none) replace them throughout.

**What a right card pays** (:func:`right_payout`).  The correct cards of a
pile pay 8, 5, 3, 2, 1, 1, ... in placement order.  A card's place among the
correct ones depends on the earlier cards of the pile: those whose colour is
known count when they name the card's camel; each face-down one names camel
X with probability ``q_X`` (the pile model: X's race probability to win,
resp. to finish last, or the state's ``pile_model``), independently.  A
player's own face-down cards never name the colour they place (one card per
colour), so they are left out of that count.

**Hidden hands** (:func:`hand_distribution`).  Another player's hand is
known only by its size ``k``.  Its colours are those not seen placed by that
player (the *candidates*), less the ``m`` face-down cards they placed.  The
face-down cards are modelled as the pile model draws them: each card on the
winner (loser) pile names camel X with probability ``q_X`` of that pile,
independently, conditioned on what the rules make certain: the cards have
``m`` distinct colours, all among the candidates.  So

    P(hand H) ∝ Σ over the ways to split the rest R = candidates - H into
                the winner pile's cards W and the loser pile's L:
                Π_{x∈W} q^winner_x · Π_{y∈L} q^loser_y

(if no split has a positive weight, every possible hand is taken as equally
likely).  When each face-down card has its own model ``q^k`` (a state's
``PileCard.model``, as :mod:`advisor.bots.inference` fills it),
:func:`hand_distribution_cards` weighs the ways to give the rest one card
each by ``Π_k q^k``, and :func:`right_payouts_cards` counts the earlier
cards naming a camel as a sum of Bernoulli variables (Poisson binomial).  A camel likely to be named by the piles is therefore likely to be
gone from the hand.

The value of another player's best option is the expectation over their
possible hands of the best option *in* that hand, ``E_H[max(leg options,
best card of H)]``: the player sees their own hand and chooses from it, so
their best option is a maximum taken after the hand is known.  (The best
over colours weighted by the probability that each is in the hand would
value no option the player actually has.)

**The money floor at the race end** (:func:`race_end_money`,
:func:`card_gains`).  Overall cards are scored when the race ends: the
player's overall payouts (every card of theirs on both piles) are summed
with the money they have then, and the total settles at 0 at worst (docs/rules.md:
penalties and rewards of one scoring phase are summed first, then settled).
A card's value is therefore

    E[max(0, M + O + X) - max(0, M + O)]

with ``X`` the card's payout, ``O`` the player's other cards' payouts and
``M`` the money at the race end.  ``M`` is not known: later legs depend on
everybody's play.  It is approximated by the least money the player can make
sure to have then:

* this leg's scoring is known exactly: the money after it, per leg outcome
  (``max(0, money + landings + leg rewards)`` with what the player holds);
* every later leg that is played to its end before the race's last leg pays
  at least 1 coin: a leg has at least 5 turns (one per die rolled), so with at
  most 5 players each has a turn in it, and taking a pyramid tile (+1 at leg
  end) is always legal and can lose nothing.  With 6-8 players this is not
  certain and 0 is used.  The number of such legs is one less than the
  number of legs after this one in which the race ends, drawn from the race
  simulation (``RaceOdds.legs``); it is taken as independent of this leg's
  outcome, and of the winning and last camels.

The winning and the last camel are taken as independent (each with its race
odds; the race odds give no joint figure).  Cards whose colour is not known
(another player's face-down cards) are left out of ``O``.  Using the least
money the player can secure overstates the floor at most as far as the player
will earn more than that; a rich player (``M`` surely covers every card of
theirs) gets the plain expectation ``E[X]``.
"""

from __future__ import annotations

from functools import lru_cache
from itertools import combinations
from math import comb
from typing import Mapping, Sequence

import numpy as np

from advisor.rules.editions import SECOND, Edition
from advisor.rules.scoring import PILES, pile_payout, settle

__all__ = ["PILES", "right_payout", "right_payouts", "right_payouts_cards", "hand_distribution",
           "hand_distribution_cards", "race_end_money", "card_gains",
           "floor_binds", "plain_gains", "Distribution"]

#: An integer-valued distribution: ``(values int64[n], probabilities float[n])``
#: (or one per row of 2-d arrays, a row per camel).
Distribution = tuple[np.ndarray, np.ndarray]


def right_payout(known: int, unknown: int, q: float, rules: Edition = SECOND) -> Distribution:
    """What a card pays when its camel is right: ``known`` earlier cards
    surely and ``J ~ Binomial(unknown, q)`` earlier face-down cards name the
    same camel, and the card pays :func:`pile_payout` of ``known + J``
    (the ladder of ``rules``)."""
    j = range(unknown + 1)
    return (np.array([pile_payout(known + k, rules) for k in j], np.int64),
            np.array([comb(unknown, k) * q**k * (1 - q) ** (unknown - k) for k in j], float))


def right_payouts(known: Sequence[int], unknown: int, q: np.ndarray, rules: Edition = SECOND) -> Distribution:
    """:func:`right_payout` for several camels at once (``known[c]``,
    ``q[c]``) with the same number of earlier face-down cards: ``(values,
    probs)``, row ``c`` for camel ``c``."""
    j, binomial, payouts = _binomial_row(unknown, rules)
    q = np.asarray(q, float)[:, None]
    return payouts[np.asarray(known, np.int64)[:, None] + j], binomial * q**j * (1 - q) ** (unknown - j)


@lru_cache(maxsize=64)
def _binomial_row(n: int, rules: Edition = SECOND) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(0..n, the binomial coefficients of n, pile_payout(k) for k up to
    n + 8)``: :func:`right_payouts`' constants for ``n`` face-down cards."""
    j = np.arange(n + 1)
    return j, np.array([comb(n, k) for k in j], float), np.array([pile_payout(k, rules) for k in range(n + 9)],
                                                                 np.int64)


def hand_distribution(size: int, candidates: Sequence[int], placed: Mapping[str, int],
                      q: Mapping[str, np.ndarray]) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """The possible hidden hands of ``size`` cards and their probabilities.

    ``candidates``: the camels (indices) the player may still hold;
    ``placed[pile]``: how many face-down cards of the player lie on each pile
    (their colours are the candidates not in the hand); ``q[pile]``: the
    pile model, P(a face-down card names each camel).  See the module
    docstring for the model.  A known number of cards must add up:
    ``size + placed["winner"] + placed["loser"] == len(candidates)``."""
    candidates = tuple(candidates)
    n_w, n_l = placed.get("winner", 0), placed.get("loser", 0)
    if size < 0 or size + n_w + n_l != len(candidates):
        raise ValueError(f"a hand of {size} and {n_w} + {n_l} placed cards do not make the "
                         f"{len(candidates)} candidate colours")
    hands = list(combinations(candidates, size))
    weights = np.zeros(len(hands))
    for h, hand in enumerate(hands):
        rest = [c for c in candidates if c not in hand]
        for winners in combinations(rest, n_w):
            w = 1.0
            for c in rest:
                w *= q["winner"][c] if c in winners else q["loser"][c]
            weights[h] += w
    total = weights.sum()
    if not total > 0:
        return hands, np.full(len(hands), 1 / len(hands))
    return hands, weights / total


def right_payouts_cards(known: Sequence[int], cards_q: np.ndarray, rules: Edition = SECOND) -> Distribution:
    """:func:`right_payouts` when each earlier face-down card has its own
    model: ``cards_q[k, c]`` = P(card ``k`` names camel ``c``) (e.g. inferred
    from the game's history).  The number of them naming camel ``c`` is a
    sum of independent Bernoulli variables (Poisson binomial) instead of a
    binomial; row ``c`` for camel ``c``."""
    cards_q = np.asarray(cards_q, float).reshape(-1, len(known))
    n = cards_q.shape[0]
    _, _, payouts = _binomial_row(n, rules)
    counts = np.zeros((len(known), n + 1))
    counts[:, 0] = 1.0
    for q in cards_q:  # add one card: P(j) <- P(j) (1 - q) + P(j - 1) q
        counts[:, 1:] = counts[:, 1:] * (1 - q[:, None]) + counts[:, :-1] * q[:, None]
        counts[:, 0] *= 1 - q
    return payouts[np.asarray(known, np.int64)[:, None] + np.arange(n + 1)], counts


def hand_distribution_cards(size: int, candidates: Sequence[int],
                            cards_q: Sequence[np.ndarray]) -> tuple[list[tuple[int, ...]], np.ndarray]:
    """:func:`hand_distribution` when each of the player's face-down cards
    has its own model (``cards_q[k][c]``: P(card ``k`` names camel ``c``)):
    the cards are taken as naming camels independently, conditioned on
    distinct colours among the candidates, so
    ``P(hand H) ∝ Σ over the ways to give the rest R = candidates - H one
    card each: Π_k cards_q[k][colour of card k]``."""
    from itertools import permutations

    candidates = tuple(candidates)
    if size < 0 or size + len(cards_q) != len(candidates):
        raise ValueError(f"a hand of {size} and {len(cards_q)} placed cards do not make the "
                         f"{len(candidates)} candidate colours")
    hands = list(combinations(candidates, size))
    weights = np.zeros(len(hands))
    for h, hand in enumerate(hands):
        rest = [c for c in candidates if c not in hand]
        for order in permutations(rest):
            weights[h] += float(np.prod([q[c] for q, c in zip(cards_q, order)]))
    total = weights.sum()
    if not total > 0:
        return hands, np.full(len(hands), 1 / len(hands))
    return hands, weights / total


def race_end_money(leg_money: np.ndarray, leg_prob: np.ndarray, race_legs: np.ndarray,
                   secured_per_leg: int) -> Distribution:
    """The least money a player can make sure to have at the race end (see
    the module docstring): ``leg_money`` (per outcome of this leg, with
    probabilities ``leg_prob``) plus ``secured_per_leg`` coins per later leg
    played to its end before the race's last one, ``race_legs[k]`` being
    P(the race ends ``k`` legs after this one)."""
    money = _collect(np.rint(leg_money).astype(np.int64), leg_prob)
    extra = secured_per_leg * np.maximum(0, np.arange(len(race_legs)) - 1)
    return _convolve(money, _collect(extra, race_legs))


def card_gains(money: Distribution, held: Mapping[str, Sequence[tuple[int, Distribution]]],
               odds: Mapping[str, np.ndarray], pile: str, right: Distribution,
               rules: Edition = SECOND) -> Distribution:
    """The distribution of what placing a card of each camel on ``pile``
    adds to the player's settled money at the race end.

    ``money``: the player's money at the race end (:func:`race_end_money`);
    ``held[p]``: the player's cards on pile ``p`` whose colours are known,
    as ``(camel, what it pays when right)``; ``odds[p]``: P(each camel is the
    one pile ``p`` is scored against: the winner / the last camel);
    ``right``: what the new card of each camel pays when right, row per camel
    (:func:`right_payouts`).  The result is ``(values, probs)``, row ``c``
    the distribution of ``max(0, M + O + X) - max(0, M + O)`` for a card of
    camel ``c`` (module docstring; a value may repeat, and padding entries
    have probability 0); when the money surely covers every card, ``X``
    itself (:func:`plain_gains`).  ``rules``: the ladder, the wrong card's
    payout and the money floor (the settlement ``max(floor, ...)``)."""
    n_held = sum(len(cards) for cards in held.values())
    odds_p = np.asarray(odds[pile], float)
    right_values, right_probs = right
    if not floor_binds(int(money[0].min()), n_held, rules):
        return plain_gains(odds_p, right, rules)
    wrong = rules.wrong_card
    other = PILES[1 - PILES.index(pile)]
    base = _convolve(money, _pile_sum(held.get(other, ()), odds[other], wrong))
    n_p = len(held.get(pile, ()))
    by_camel = dict(held.get(pile, ()))
    # the total T before the new card, given the camel Z the pile is scored
    # against: every card of the player on this pile wrong, or their Z card right
    wrong_all = (base[0] + n_p * wrong, base[1])
    totals = [_convolve(base, (by_camel[z][0] + (n_p - 1) * wrong, by_camel[z][1])) if z in by_camel else wrong_all
              for z in range(odds_p.size)]
    # a wrong new card changes the settled total by settle(T + wrong) - settle(T)
    # (under the editions' rules: -1 exactly when T >= 1, else 0); one slot per
    # such change, the change 0 last, its probability the complement
    changes = [settle(rules, t_values + wrong, 0) - settle(rules, t_values, 0) for t_values, _ in totals]
    slots = sorted((set(np.concatenate(changes).tolist()) | {wrong}) - {0}) + [0]
    masses = [odds_p * np.array([t_probs[change == v].sum() for (_, t_probs), change in zip(totals, changes)])
              for v in slots[:-1]]
    wrong_probs = [mass.sum() - mass for mass in masses]
    wrong_probs.append(odds_p.sum() - odds_p - sum(wrong_probs))
    # the right card: settle(T + x) - settle(T) for each total and payout
    width = max(t[0].size for t in totals) * right_values.shape[1] + len(slots)
    values = np.zeros((odds_p.size, width), np.int64)
    probs = np.zeros((odds_p.size, width))
    for k, (v, p) in enumerate(zip(slots, wrong_probs)):
        values[:, width - len(slots) + k], probs[:, width - len(slots) + k] = v, p
    groups = [[c for c in range(odds_p.size) if c not in by_camel]] + [[c] for c in by_camel]
    for rows in filter(None, groups):
        t_values, t_probs = totals[rows[0]]  # the same total for every camel of the group
        t = t_values[None, :, None]
        gain = settle(rules, t + right_values[rows][:, None, :], 0) - settle(rules, t, 0)
        n = gain[0].size
        values[rows, :n] = gain.reshape(len(rows), n)
        probs[rows, :n] = (odds_p[rows][:, None, None] * t_probs[None, :, None]
                           * right_probs[rows][:, None, :]).reshape(len(rows), n)
    return values, probs


def floor_binds(least_money: int, cards: int, rules: Edition = SECOND) -> bool:
    """Whether the money floor can change what a new card adds for a player
    who has at least ``least_money`` at the race end and ``cards`` other
    cards of known colour on the piles (each costs at most what the worst
    card pays under ``rules``, 1 coin by the editions' rules, as does the new
    card).  Never without a floor."""
    if rules.money_floor is None:
        return False
    worst = min(0, rules.wrong_card, rules.pile_rest, *rules.pile_payouts)
    return least_money + (cards + 1) * worst < rules.money_floor


def plain_gains(odds: np.ndarray, right: Distribution, rules: Edition = SECOND) -> Distribution:
    """What a new card of each camel pays, unsettled: its right payout with
    probability ``odds[c]``, the wrong card's payout (-1) otherwise
    (:func:`card_gains` when the floor cannot bind); row ``c`` for camel ``c``."""
    odds = np.asarray(odds, float)
    values = np.concatenate([right[0], np.full((odds.size, 1), rules.wrong_card)], axis=1)
    probs = np.concatenate([odds[:, None] * right[1], 1 - odds[:, None]], axis=1)
    return values, probs


def _pile_sum(cards: Sequence[tuple[int, Distribution]], odds: np.ndarray, wrong: int = -1) -> Distribution:
    """The summed payout of a player's known cards on one pile: the camel
    the pile is scored against is drawn from ``odds``; the card of that
    colour (if any) pays its right payout, every other card ``wrong``."""
    n = len(cards)
    by_camel = dict(cards)
    values, probs = [], []
    for z, pz in enumerate(np.asarray(odds, float)):
        if pz <= 0:
            continue
        if z in by_camel:
            v, p = by_camel[z]
            values.append(v + (n - 1) * wrong)
            probs.append(pz * p)
        else:
            values.append(np.array([n * wrong]))
            probs.append(np.array([pz]))
    if not values:
        return np.array([n * wrong]), np.array([1.0])
    return _collect(np.concatenate(values), np.concatenate(probs))


def _convolve(a: Distribution, b: Distribution) -> Distribution:
    """The distribution of the sum of two independent integer variables."""
    return _collect((a[0][:, None] + b[0][None, :]).ravel(), (a[1][:, None] * b[1][None, :]).ravel())


def _collect(values: np.ndarray, probs: np.ndarray) -> Distribution:
    """Equal values merged, zero probabilities dropped, values ascending."""
    values = np.asarray(values, np.int64).ravel()
    low = values.min()
    total = np.bincount(values - low, weights=np.asarray(probs, float).ravel())
    keep = np.flatnonzero(total > 0)
    if not keep.size:
        return values[:1], np.zeros(1)
    return keep + low, total[keep]

