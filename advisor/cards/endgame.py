"""Camel Up Cards: the chance of winning the game, near its end.

The EV of a turn counts coins; the game is won by the most money.  When
the race is about to end the two differ: a player behind needs the turns
that can overtake the leader, however unlikely, and a player ahead the
turns that keep the lead.  :func:`win_chances` gives, for
each turn of the advice (:class:`~advisor.cards.fast.TurnValues`), the
chance that the mover ends the game with the most money if the race ended
with this leg (:func:`turn_win_chances`: the same for the advice's rows,
:func:`advisor.cards.best.cards_best`):

* each leg outcome of the turn's race action (its race order and whether
  the race is over) settles everyone's bets: the mover's with the turn's
  bet (the money floor, the figure cards) and every other player's
  leg-winner and midfield cards (public), with their floors;
* a race over in the leg pays the overall cards by its order; a race that
  goes on pays them their expected value under the position's race odds;
* the mover wins an outcome if their money is the largest, a share ``1/k``
  of it when ``k`` players tie for the most.

With ``spread=0`` (the shark bot's endgame) the legs after this one are
not modelled: the figure is meant for the leg in which the race ends (the
shark bot uses it once that is likely, :data:`ENDGAME`).  With a
``spread`` (the advice and the margin bot, every turn), an outcome in which
the race goes on is won with the chance that the mover's money ends the largest when
the rest of the game moves each player's money by an independent normal
change, ``spread`` the standard deviation of what it changes between two
players' money (:func:`spread_for`: :data:`SPREAD`, measured on recorded
games by ``benchmarks/fit_cards_spread.py``), the money after the leg
with the overall cards at their expected value
(:func:`advisor.valuation.winchance.lead_chance`).  Against one other
player that is ``Phi(margin / spread)``, the margin the mover's money less
theirs.  The margin bot weighs the mover against the richest other
player alone (``against="richest"``, the model its duels measured); the
advice weighs every other player: the richest alone read too high from 4
players on, level money reading 50% at any table (``python
benchmarks/calibration.py --edition cards``).
"""

from __future__ import annotations

import math
from typing import Sequence

import numpy as np

from advisor.cards.advice import TurnRows, race_orders
from advisor.cards.fast import TurnValues
from advisor.cards.game import CardsPlayer, CardsState, LOSER_PAY, WINNER_PAY
from advisor.cards.position import CAMELS, CardsPosition
from advisor.cards.rival import holdings_position, table_after
from advisor.valuation.winchance import lead_chance

__all__ = ["win_chances", "turn_win_chances", "race_ends", "ENDGAME", "SPREAD", "spread_for"]

#: The shark bot plays for the chance of winning once the race ends in
#: this leg with at least this probability.
ENDGAME = 0.8

#: After leg 1, 2 and 3 or later: the standard deviation (coins) of the
#: change of the money difference between the two valuing players from the
#: leg's end to the game's end, over the legs after which the race went on
#: (2,000 four-player games of shark, greedy, heuristic and random, seed
#: 1616: 9.77, 8.42 and 7.77 over 2,000, 1,861 and 508 legs; later legs,
#: too few, take leg 3's; ``python benchmarks/fit_cards_spread.py
#: cards_tournament.jsonl --pair shark,greedy``).
SPREAD = (9.8, 8.4, 7.8)


def spread_for(leg: int) -> float:
    """:data:`SPREAD` for an outcome at the end of leg ``leg``."""
    return SPREAD[min(leg, len(SPREAD)) - 1]


#: Which of the leg's 8 end codes are a race over (bit 0).
_OVER = (np.arange(8) & 1).astype(bool)

_erf = np.frompyfunc(math.erf, 1, 1)


def _normal(z: np.ndarray) -> np.ndarray:
    """The standard normal distribution function, elementwise."""
    return 0.5 * (1.0 + _erf(z / math.sqrt(2.0)).astype(float))


def race_ends(values: TurnValues) -> float:
    """P(the race ends in this leg), as the position stands."""
    return float(values.turns.base_dist[1::2].sum())


def _overall(cards, final_ranks: np.ndarray, expected: np.ndarray) -> tuple[np.ndarray, float]:
    """``(payout per race order, expected payout)`` of an overall winner
    and loser card ``cards`` (``final_ranks[order, camel]``: 0-based ranks;
    ``expected[camel, rank]``: the race odds)."""
    winner, loser = cards
    by_order = np.zeros(final_ranks.shape[0])
    mean = 0.0
    if winner:
        c = CAMELS.index(winner)
        by_order += np.asarray(WINNER_PAY, float)[final_ranks[:, c]]
        mean += float(expected[c] @ np.asarray(WINNER_PAY, float))
    if loser:
        c = CAMELS.index(loser)
        by_order += np.asarray(LOSER_PAY, float)[final_ranks[:, c]]
        mean += float(expected[c] @ np.asarray(LOSER_PAY, float))
    return by_order, mean


def _money(rows: TurnRows, figs, money: int, ranks: np.ndarray, final0: np.ndarray) -> np.ndarray:
    """``[option, end, order]``: the money after the leg (and the overall
    cards: by the order when the race is over, else expected)."""
    settled = rows.settled(figs)
    out = money + settled.copy()
    for i, cards in enumerate(rows.option_cards):
        by_order, mean = _overall(cards, ranks, final0)
        out[i, _OVER, :] += by_order[None, :]
        out[i, ~_OVER, :] += mean
    return out


def win_chances(values: TurnValues, state: CardsState, player: int, spread: float = 0.0,
                against: str = "all") -> dict[str, float]:
    """Per turn of ``values`` (its row ``action``): the chance that
    ``player`` ends the game with the most money if the race ended with
    this leg (``spread=0``), or with the legs after it worth a normal
    change of standard deviation ``spread`` between two players (module
    docstring; everything used is public)."""
    n = state.setup.players
    rivals = [state.players[(player + k) % n] for k in range(1, n)]
    return turn_win_chances(values.turns, values.position, rivals, spread, against)


def turn_win_chances(turns: TurnRows, pos: CardsPosition, rivals: Sequence[CardsPlayer],
                     spread: float = 0.0, against: str = "all") -> dict[str, float]:
    """:func:`win_chances` of the rows ``turns`` of the advised player's
    position ``pos``, against the other players ``rivals`` (their money and
    bets, :class:`~advisor.cards.game.CardsPlayer`; the order does not
    matter): per row ``action``, the chance of winning the game.
    ``against``: in a race that goes on, ``"all"`` (the advice) the
    chance of ending with the most money against every other player;
    ``"richest"`` (the ``margin`` bot, as its duels measured it)
    ``Phi(margin / spread)`` against the richest other player alone (the
    same with one other player)."""
    if against not in ("all", "richest"):
        raise ValueError(f"against: 'all' or 'richest', not {against!r}")
    from advisor.kernels.ranks import rank_codes

    ranks = rank_codes()[race_orders()]  # [order, camel]
    table = table_after(pos, None, None)  # the bets on offer as they are
    best_other = None
    others = []
    for rival in rivals:
        rows = TurnRows(holdings_position(pos, rival, table), turns.this_leg, turns.base_codes, turns.race_all)
        theirs = _money(rows, (False, False), rival.money, ranks, turns.final0)[0]
        others.append(theirs[~_OVER, :])
        if best_other is None:
            best_other, ties = theirs, np.ones(theirs.shape)
        else:
            ties = np.where(theirs > best_other, 1.0, np.where(theirs == best_other, ties + 1, ties))
            best_other = np.maximum(best_other, theirs)
    wins: dict = {}

    def chances(figs) -> np.ndarray:
        """``[option, end, order]``: the mover's share of the win."""
        key = (bool(figs[0]), bool(figs[1]))
        if key not in wins:
            mine = _money(turns, figs, pos.money, ranks, turns.final0)
            won = np.where(mine > best_other, 1.0, np.where(mine == best_other, 1.0 / (ties + 1), 0.0))
            if spread > 0 and (len(others) == 1 or against == "richest"):  # the race goes on: the rest decides
                won[:, ~_OVER, :] = _normal((mine - best_other)[:, ~_OVER, :] / spread)
            elif spread > 0:  # against every other player, not the richest alone
                go_on = mine[:, ~_OVER, :]
                leads = np.stack([go_on - theirs[None] for theirs in others], axis=-1)
                won[:, ~_OVER, :] = lead_chance(leads, spread)
            wins[key] = won
        return wins[key]

    orders = race_orders()

    def p_win(dist, figs) -> np.ndarray:
        w = chances(figs)
        return w.reshape(w.shape[0], -1) @ dist[:, orders].ravel()

    options = {None: 0, **{b: i + 1 for i, b in enumerate(turns.bet_list)}}
    by_race = {race: p_win(dist, figs) for race, (dist, figs, _, _) in turns.outcomes.items()}
    if "reveal" not in by_race:  # a position after the race action: the bets now
        by_race[""] = p_win(turns.base_dist, turns.figs0)
    weight = turns.base_codes.sum(axis=(1, 2))
    after = 0.0
    for t in range(weight.size):
        if weight[t] > 0:
            allowed = len(turns.after_card(t, weight[t]))  # 1: the card ends the leg, no bet after it
            after += weight[t] * p_win(turns.base_codes[t] / weight[t], turns.figs0)[:allowed].max()
    out = {}
    for row in turns.rows:
        race, bet = row["race"], row["bet"]
        if bet == "best after the card":
            out[row["action"]] = float(after)
        else:
            out[row["action"]] = float(by_race[race or ("reveal" if "reveal" in by_race else "")][options[bet or None]])
    return out
