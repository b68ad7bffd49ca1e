"""The one pass: every action's EV and the next player's drop (``denial``)
from the leg's outcome tables (:func:`one_pass`), for both views of the
valuation; the tile placements' leg figures as exact fractions rounded once
(:func:`exact_difference`); the other players' gains (:func:`fill_rivals`, the
bots' ``rivals`` figure).
"""

from __future__ import annotations

import numpy as np

from advisor.rules.actions import Action, leg_bet_value
from advisor.rules.scoring import PYRAMID_TILE, settle
from advisor.rules.state import GameState, PileCard
from advisor.valuation.context import Valuation
from advisor.valuation.legs import all_codes
from advisor.valuation.memo import MEMO
from advisor.valuation.overall import PILES
from advisor.valuation.tiles import TileTables

__all__ = ["one_pass", "exact_difference", "fill_rivals"]


# --------------------------------------------------------------------------
# The one pass: every action's EV and denial from the tables
# --------------------------------------------------------------------------


def one_pass(ctx: Valuation, actions, tables: TileTables | None, denial: bool):
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
    codes = all_codes(ctx.ed)
    money = ctx.state.players[ctx.player].money
    held_codes = ctx.holdings(ctx.player, codes)  # [codes]
    n = np.arange(tables.orders.shape[2])
    settled = np.rint(settle(ctx.ed, money + n[None, :], held_codes[:, None])).astype(np.int64)
    settled_base = ctx.settled_base()[1]
    return exact_difference(tables.orders.reshape(len(tables.placements), -1) @ settled.ravel(), tables.totals,
                            int(ctx.base.counts @ settled_base), ctx.base.total)


def exact_difference(sums: np.ndarray, totals: np.ndarray, sum0: int, total0: int) -> np.ndarray:
    """``sums / totals - sum0 / total0`` (integer sums and counts), each the
    float nearest to the exact fraction: one division of whole numbers (in
    numpy while they stay below 2**53, where floats hold them exactly)."""
    limit = 2**52 // max(total0, int(totals.max(initial=1)), 1)
    if np.abs(sums).max(initial=0) < limit and abs(sum0) < limit and totals.max(initial=0) < limit:
        return (sums * total0 - sum0 * totals) / (totals * total0)  # every product below 2**52
    return np.array([(int(a) * total0 - sum0 * int(t)) / (int(t) * total0) for a, t in zip(sums, totals)])


# --------------------------------------------------------------------------
# Denial: the next player's best option before and after
# --------------------------------------------------------------------------


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


def fill_rivals(ctx: Valuation, enc, index, riv, den, tile_probs, tile_rows, gains=None) -> None:
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

        weights, counts = MEMO.get(("rolls", ctx.board_key), rolls)
        after = nxt.best(nxt.best_leg(counts, counts.sum(axis=1), stacks), piles)
        info = float(weights @ after) / weights.sum() - before
        gain[index["pyramid"]] += info
        own[nxt_q][index["pyramid"]] += info
    riv[:] = gain / len(others)
    if gains is not None:
        for q in others:
            gains[q] = own[q]

