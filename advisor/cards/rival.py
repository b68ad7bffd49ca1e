"""Camel Up Cards: what a turn gains the other players.

A Camel Up Cards game is won by the most money, not by the most money
gained: a turn that earns a coin but hands two to an opponent is a bad
turn.  :func:`others_gain` measures, for each turn of the advice
(:class:`~advisor.cards.fast.TurnValues`: the rows and the leg and race
outcomes behind them), the mean over the other players of what the turn
gains them in expectation, against the position as it stands:

* **their bets**: every other player's leg-winner and midfield cards and
  overall cards (all public in Camel Up Cards: taken from open stacks and
  tables) are valued under the leg and the race the turn's race action
  leaves (a hand card or a figure moves camels; a reveal changes nothing
  in expectation), with their money floor (their figure cards aside: the
  leg outcomes count the advised player's only);
* **the next player's best bet**: the player after the mover chooses
  next, among the bets the turn leaves on the table (a leg-winner card
  taken uncovers the one under it; an overall card taken returns the one
  held), on what they will know: after a reveal they have seen the card
  (their information gain: the average over the card of their best bet is
  at least their best bet now), after a hand card or a figure the leg it
  leaves.  Their best bet is the most of their bets' expected payouts and
  of taking none (their race actions are not modelled).

The rival bot (:class:`~advisor.cards.bots.RivalCardsBot`) plays the turn
of highest ``ev - weight * gain``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from .advice import TurnRows
from .fast import TurnValues
from .game import CardsPlayer, CardsState
from .position import CAMELS, CardsPosition

__all__ = ["others_gain", "holdings_position", "table_after"]


def holdings_position(pos: CardsPosition, player: CardsPlayer, table: dict) -> CardsPosition:
    """``pos`` with the money and bets of ``player`` (a
    :class:`~advisor.cards.game.CardsPlayer`) and the bets on offer of
    ``table`` (``legtiles``, ``mid``, ``winners``, ``losers``): the
    position their bets are valued on."""
    bets = [f"{c}{v}" for c, v in player.leg] + [f"m{c}" for c in player.mid]
    bets += [f"w{player.winner}"] if player.winner else []
    bets += [f"l{player.loser}"] if player.loser else []
    return dataclasses.replace(pos, bets=tuple(bets), money=player.money, **table)


def table_after(pos: CardsPosition, bet: str | None, holder: CardsPlayer) -> dict:
    """The bets on offer once ``holder`` takes ``bet`` (None: none)."""
    table = {"legtiles": pos.legtiles, "mid": pos.mid, "winners": pos.winners, "losers": pos.losers}
    if not bet:
        return table
    kind, _, colour = bet.partition(":")
    i = CAMELS.index(colour)
    if kind == "leg":
        table["legtiles"] = pos.legtiles[:i] + (pos.legtiles[i][1:],) + pos.legtiles[i + 1:]
    elif kind == "mid":
        table["mid"] = pos.mid.replace(colour, "")
    else:
        name = "winners" if kind == "winner" else "losers"
        old = getattr(holder, kind)
        left = table[name].replace(colour, "") + (old or "")
        table[name] = "".join(c for c in CAMELS if c in left)
    return table


class _Next:
    """The next player's best bet under given outcomes, per table."""

    def __init__(self, values: TurnValues, player: CardsPlayer):
        self.values = values
        self.player = player
        self.rows: dict = {}

    def best(self, table_bet: str | None, me: CardsPlayer, dist, final) -> float:
        if table_bet not in self.rows:
            pos = self.values.position
            turns = self.values.turns
            hold = holdings_position(pos, self.player, table_after(pos, table_bet, me))
            self.rows[table_bet] = TurnRows(hold, turns.this_leg, turns.base_codes, turns.race_all)
        v = self.rows[table_bet].values(dist, (False, False), final)
        return float(max(0.0, (v[1:] - v[0]).max(initial=0.0)))


def others_gain(values: TurnValues, state: CardsState, player: int) -> dict[str, float]:
    """Per turn of ``values`` (its row ``action``): the mean over the other
    players of ``state`` of what the turn gains them (module docstring),
    ``player`` being the mover (their view: everything used is public)."""
    turns = values.turns
    n = state.setup.players
    me = state.players[player]
    others = [(player + k) % n for k in range(1, n)]
    pos = values.position
    # their bets under each race action's leg and race, against the position as it stands
    held = {}
    for q in others:
        rows = TurnRows(holdings_position(pos, state.players[q], table_after(pos, None, me)), turns.this_leg,
                        turns.base_codes, turns.race_all)
        v0 = rows.values(turns.base_dist, (False, False), turns.final0)[0]
        held[q] = {race: float(rows.values(dist, (False, False), final)[0] - v0)
                   for race, (dist, _, final, _) in turns.outcomes.items()}
    nxt = _Next(values, state.players[others[0]])
    before = nxt.best(None, me, turns.base_dist, turns.final0)
    # after a reveal the next player has seen its card
    weight = turns.base_codes.sum(axis=(1, 2))
    cards = [t for t in range(weight.size) if weight[t] > 0]

    def after_card(t):
        n_t = turns.race_all[t, 0].sum()
        return turns.base_codes[t] / weight[t], (turns.race_all[t] / n_t if n_t else turns.final0)

    seen = {t: after_card(t) for t in cards}
    best_after = {}  # my bet after each card (reveal+best), as the advice takes it
    for t in cards:
        options = turns.after_card(t, weight[t])
        k = int(np.argmax(options))
        best_after[t] = None if k == 0 else turns.bet_list[k - 1]
    out = {}
    for row in turns.rows:
        race, bet = row["race"], row["bet"]
        gain = sum(held[q].get(race or "reveal", 0.0) for q in others)
        if race == "reveal":
            table = [best_after[t] if bet == "best after the card" else (bet or None) for t in cards]
            nxt_after = sum(weight[t] * nxt.best(table[j], me, *seen[t]) for j, t in enumerate(cards))
        else:
            dist, _, final, _ = turns.outcomes.get(race, (turns.base_dist, None, turns.final0, False))
            nxt_after = nxt.best(bet or None, me, dist, final)
        gain += nxt_after - before
        out[row["action"]] = gain / len(others)
    return out
