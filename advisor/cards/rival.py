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

The shark bot (:class:`~advisor.cards.bots.SharkCardsBot`) plays the turn
of highest ``ev - weight * gain``.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from advisor.cards.advice import TurnRows
from advisor.cards.fast import TurnValues
from advisor.cards.game import CardsPlayer, CardsState
from advisor.cards.position import CAMELS, CardsPosition

__all__ = ["others_gain", "holdings_position", "rival_player", "table_after"]


def holdings_position(pos: CardsPosition, player: CardsPlayer, table: dict) -> CardsPosition:
    """``pos`` with the money and bets of ``player`` (a
    :class:`~advisor.cards.game.CardsPlayer`) and the bets on offer of
    ``table`` (``legtiles``, ``mid``, ``winners``, ``losers``): the
    position their bets are valued on."""
    bets = [f"{c}{v}" for c, v in player.leg] + [f"m{c}" for c in player.mid]
    bets += [f"w{player.winner}"] if player.winner else []
    bets += [f"l{player.loser}"] if player.loser else []
    return dataclasses.replace(pos, bets=tuple(bets), money=player.money, **table)


def rival_player(pos: CardsPosition, money: int, bets) -> CardsPlayer:
    """The other player holding ``money`` and ``bets`` (tokens of the
    notation's ``bets:``: ``C5`` a leg-winner card, ``mC``, ``wC``, ``lC``)
    in the game of ``pos``: the inverse of :func:`holdings_position`, the
    holdings checked against the cards on offer in ``pos`` as the advised
    player's are (:class:`~advisor.errors.PositionError` naming the token)."""
    held = dataclasses.replace(pos, bets=tuple(bets), money=money).held()
    return CardsPlayer(money=money, leg=tuple(held["leg"]), mid=tuple(held["mid"]), winner=held["winner"],
                       loser=held["loser"])


def table_after(pos: CardsPosition, bet: str | None, holder: CardsPlayer | None) -> dict:
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
    """The next player's best bet under many outcomes at once, per table."""

    def __init__(self, values: TurnValues, player: CardsPlayer, me: CardsPlayer):
        self.values = values
        self.player = player
        self.me = me
        self.rows: dict = {}

    def best(self, table_bet: str | None, dists: np.ndarray, finals: np.ndarray) -> np.ndarray:
        """Per outcome ``dists[k]``, ``finals[k]``: the most the next player
        gains by a bet on the table ``table_bet`` leaves (0: none)."""
        if table_bet not in self.rows:
            pos = self.values.position
            turns = self.values.turns
            hold = holdings_position(pos, self.player, table_after(pos, table_bet, self.me))
            self.rows[table_bet] = TurnRows(hold, turns.this_leg, turns.base_codes, turns.race_all)
        v = self.rows[table_bet].values_batch(dists, (False, False), finals)
        return np.maximum(0.0, (v[:, 1:] - v[:, :1]).max(axis=1, initial=0.0))


def others_gain(values: TurnValues, state: CardsState, player: int) -> dict[str, float]:
    """Per turn of ``values`` (its row ``action``): the mean over the other
    players of ``state`` of what the turn gains them (module docstring),
    ``player`` being the mover (their view: everything used is public)."""
    turns = values.turns
    n = state.setup.players
    me = state.players[player]
    others = [(player + k) % n for k in range(1, n)]
    pos = values.position
    races = [r for r in turns.outcomes if r != "reveal"]
    dists = np.stack([turns.base_dist] + [turns.outcomes[r][0] for r in races])
    finals = np.stack([turns.final0] + [turns.outcomes[r][2] for r in races])
    # their bets under each race action's leg and race, against the position as it stands
    held = np.zeros(len(races) + 1)
    for q in others:
        rows = TurnRows(holdings_position(pos, state.players[q], table_after(pos, None, me)), turns.this_leg,
                        turns.base_codes, turns.race_all)
        v = rows.values_batch(dists, (False, False), finals)[:, 0]
        held += v - v[0]
    held_of = dict(zip(["reveal"] + races, held))
    nxt = _Next(values, state.players[others[0]], me)
    before = float(nxt.best(None, dists[:1], finals[:1])[0])
    # after a reveal the next player has seen its card
    weight = turns.base_codes.sum(axis=(1, 2))
    cards = [t for t in range(weight.size) if weight[t] > 0]
    seen_dists = np.stack([turns.base_codes[t] / weight[t] for t in cards])
    seen_finals = np.stack([turns.race_all[t] / turns.race_all[t, 0].sum() if turns.race_all[t, 0].sum()
                            else turns.final0 for t in cards])
    w = weight[cards]
    best_after = []  # my bet after each card (reveal+best), as the advice takes it
    for t in cards:
        options = turns.after_card(t, weight[t])
        k = int(np.argmax(options))
        best_after.append(None if k == 0 else turns.bet_list[k - 1])
    by_table: dict = {}

    def after_reveal(bet):
        if bet not in by_table:
            by_table[bet] = nxt.best(bet, seen_dists, seen_finals)
        return by_table[bet]

    after_race: dict = {}
    out = {}
    for row in turns.rows:
        race, bet = row["race"] or "reveal", row["bet"] or None
        if race == "reveal":
            if bet == "best after the card":
                nxt_after = sum(w[j] * after_reveal(best_after[j])[j] for j in range(len(cards)))
            elif row["race"]:
                nxt_after = float(w @ after_reveal(bet))
            else:  # after the race action of this turn: the table the bet leaves, on the odds now
                nxt_after = float(nxt.best(bet, dists[:1], finals[:1])[0])
        else:
            if bet not in after_race:
                after_race[bet] = nxt.best(bet, dists[1:], finals[1:])
            nxt_after = float(after_race[bet][races.index(race)])
        out[row["action"]] = (held_of[race] + nxt_after - before) / len(others)
    return out
