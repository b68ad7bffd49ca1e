"""The portfolio view of one decision: how an action's payout moves with
what the player already holds.

A player's bets are one portfolio: leg bet tiles pay on this leg's race
order, overall cards on the race's winner and last camel, and these are
strongly linked (the camel leading the leg often wins the race).  For each
legal action ``a`` with payout ``X_a`` and the player's holdings ``H``
(their leg tiles, pyramid tiles and partner's copied tile, paid at this
leg's end, and their overall cards on the piles, paid at the race's end,
each card at what it pays when right, the pile model's average, or the
wrong card's -1) this module gives, over the joint distribution of (this
leg's race order, the race's winner, its last camel):

* ``var``: ``Var(X_a)``, the action's own risk (coins^2);
* ``cov``: ``Cov(X_a, H)``, positive when the action concentrates the
  portfolio on outcomes it already needs, negative when it hedges it;
* the mean-variance value ``ev - lam / 2 * (var + 2 cov)``: the change of
  ``E[W] - lam / 2 Var(W)`` of the player's wealth ``W`` by the action
  (``Var(H + X) - Var(H) = Var(X) + 2 Cov(X, H)``), with the risk attitude
  ``lam`` from the lead (:func:`risk_attitude`): positive when ahead
  (a lead is kept by diversifying), negative when behind (a deficit is made
  up by concentrating).

The joint distribution: this leg's race orders with their exact
probabilities (the valuation's outcome table), and for each order the
winner and last camel drawn from sampled races that end this leg in that
order (:func:`advisor.kernels.board.portfolio.race_joint`; an order no sample
reached takes the samples' overall winner and loser).  When every outcome
of the leg ends the race, the order decides both and the figures are
exact.  A tile placement's payout is its landings, from the placement's
own joint table of race orders and landings; its effect on the value of
the holdings is in its ``ev`` already and is not counted twice.  The
money floor is left out of these payouts (it changes the means, which
``ev`` has, far more than the spreads).
"""

from __future__ import annotations

import numpy as np

from advisor.rules.actions import Action, leg_bet_value
from advisor.rules.scoring import PYRAMID_TILE, settle
from advisor.valuation.standing import pile_payouts

__all__ = ["Portfolio", "risk_attitude", "lead_of", "add_columns", "joint_counts", "nearness", "race_ends_now", "endgame_shares", "LEAD_SCALE", "RISK", "JOINT_SAMPLES"]

#: The lead (coins, the player's money minus the richest other player's)
#: at which the risk attitude is full.
LEAD_SCALE = 10.0
#: The risk attitude at a full lead (per coin): ``lam`` in ``E - lam/2 Var``.
RISK = 0.1
#: Sampled races behind the joint distribution (per board).
JOINT_SAMPLES = 2000


def lead_of(money, player: int) -> int:
    """``player``'s money minus the richest other player's."""
    others = [m for i, m in enumerate(money) if i != player]
    return money[player] - max(others) if others else 0


def risk_attitude(money, player: int, risk: float = RISK, scale: float = LEAD_SCALE) -> float:
    """``risk * clip(lead / scale, -1, 1)`` (:func:`lead_of`): risk-averse
    when ahead, risk-seeking when behind, neutral when level."""
    return risk * float(np.clip(lead_of(money, player) / scale, -1.0, 1.0))


def add_columns(ctx, rows: list[dict], orders: np.ndarray | None, placements=(), samples: int = 20 * JOINT_SAMPLES,
                seed: int | None = None) -> dict:
    """Add ``cov`` (``Cov(X, H)``) and ``portfolio`` (``ev - lam cov``) to
    the advice ``rows`` (dicts with ``action`` and ``ev``): the portfolio
    view of the advice (``camelup best``).  ``orders``: the tile
    placements' joint tables (``placements``, in their order).  Returns
    ``{"lead", "risk_attitude", "joint_samples"}`` for the frame's attrs."""
    book = Portfolio(ctx, joint_counts(ctx.pos, samples, seed))
    tile_moments = {}
    if orders is not None and len(placements):
        var, cov = book.of_tiles(orders)
        tile_moments = {f"tile:{sign}{space}": (v, c) for (space, sign), v, c in zip(placements, var, cov)}
    money = [p.money for p in ctx.state.players]
    lam = risk_attitude(money, ctx.player)
    for row in rows:
        action = row["action"]
        if action.startswith("tile:"):
            cov = tile_moments.get(action, (0.0, 0.0))[1]  # a tile no move reaches: no landings
        else:
            cov = book.of(action)[1]
        row["cov"] = cov
        row["portfolio"] = row["ev"] - lam * cov
    return {"lead": lead_of(money, ctx.player), "risk_attitude": lam, "joint_samples": samples}


class Portfolio:
    """The joint distribution and the player's holdings on it, for one
    valuation ``ctx`` (:class:`advisor.valuation.context.Valuation`).  ``counts``:
    the sampled ``[code, winner, loser]`` counts (see
    :func:`joint_counts`).  ``against``: another player's holdings,
    ``(leg[code], (win[camel], lose[camel]))`` (their leg-scoring payout
    per rank code, their pile cards' payout per race winner and per last
    camel: :func:`advisor.valuation.standing.rival_holdings`), subtracted from the
    player's: the covariances are then with the margin over that player."""

    def __init__(self, ctx, counts: np.ndarray, against=None):
        from advisor.kernels.ranks import RANK_CODES

        self.ctx = ctx
        code_p = np.zeros(RANK_CODES)
        np.add.at(code_p, _codes(ctx.base), ctx.base.prob)
        per_code = counts.sum(axis=(1, 2)).astype(float)
        overall = counts.sum(axis=0) / max(counts.sum(), 1)
        cond = np.where(per_code[:, None, None] > 0, counts / np.maximum(per_code, 1)[:, None, None], overall)
        self.cond = cond  # P(winner, loser | this leg's order)
        self.p = code_p[:, None, None] * cond  # [code, w, l]
        self.codes = ctx.rank_code_table()  # every rank code once: the payouts per code
        self.held_leg = ctx.holdings(ctx.player, self.codes)  # [code]
        self.held_cards = np.zeros((5, 5))  # [w, l]
        for name, camel, right in ctx.placed_cards():
            pay = np.full(5, float(ctx.ed.wrong_card))
            pay[camel] = right
            self.held_cards += pay[:, None] if name == "winner" else pay[None, :]
        if against is not None:  # the margin over another player: their holdings subtracted
            leg, (win, lose) = against
            self.held_leg = self.held_leg - leg
            self.held_cards = self.held_cards - (win[:, None] + lose[None, :])
        self.h = self.held_leg[:, None, None] + self.held_cards[None, :, :]
        self.h_code = self.held_leg + (cond * self.held_cards[None]).sum(axis=(1, 2))  # E[H | code]

    def _moments(self, x: np.ndarray) -> tuple[float, float]:
        p, h = self.p, self.h
        mx = float((p * x).sum())
        var = float((p * (x - mx) ** 2).sum())
        cov = float((p * (x - mx) * (h - (p * h).sum())).sum())
        return var, cov

    def of(self, action: str | Action) -> tuple[float, float]:
        """``(var, cov)`` of an action that is not a tile placement."""
        ctx = self.ctx
        a = Action.parse(action)
        shape = (self.codes.ranks.shape[0], 5, 5)
        if a.kind == "leg":
            c = ctx.racing.index(a.colour)
            x = self.codes.tile_payout(c, leg_bet_value(ctx.ed, ctx.pos.legtiles[c]))[:, None, None]
        elif a.kind in ("winner", "loser"):
            pile = ctx.pile(a.kind)
            values, probs = ctx.card_payouts(a.kind, pile, a.colour, np.ones(5))
            pay = np.full(5, float(ctx.ed.wrong_card))
            pay[ctx.racing.index(a.colour)] = float(values[:-1] @ probs[:-1])
            x = pay[None, :, None] if a.kind == "winner" else pay[None, None, :]
        elif a.kind == "partner":
            x = ctx.copy_value(a.partner, self.codes)[:, None, None]
        else:  # the pyramid tile's +1 (and anything else certain)
            return 0.0, 0.0
        return self._moments(np.broadcast_to(x, shape))

    def of_tiles(self, orders: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
        """``(var, cov)`` per tile placement of the landings (its coins),
        from ``orders[k, code, n]`` (the placements' joint tables)."""
        n = np.arange(orders.shape[2], dtype=float)
        var = np.zeros(orders.shape[0])
        cov = np.zeros(orders.shape[0])
        for k in range(orders.shape[0]):
            p = orders[k] / max(orders[k].sum(), 1)
            ml = float(p.sum(axis=0) @ n)
            pc = p.sum(axis=1)
            mh = float(pc @ self.h_code)
            var[k] = float(p.sum(axis=0) @ (n - ml) ** 2)
            cov[k] = float(((n[None, :] - ml) * (self.h_code[:, None] - mh) * p).sum())
        return var, cov


def joint_counts(position, samples: int = JOINT_SAMPLES, seed: int | None = None) -> np.ndarray:
    """The sampled ``[code, winner, loser]`` counts of ``position``
    (:func:`advisor.kernels.board.portfolio.race_joint`); ``seed=None``: seeded
    from the board, and remembered for the last boards (a pure function of
    the board, as the bots' valuation)."""
    from advisor.rules.encode import encode, full_pyramid
    from advisor.kernels.board.portfolio import race_joint
    from advisor.kernels.ranks import RANK_CODES

    enc = encode(position)
    ed = position.rules
    key = (ed.name, int(enc.board), int(enc.dice), int(enc.rolls), enc.tiles.tobytes(), samples)
    if seed is None and key in _JOINTS:
        return _JOINTS[key]
    counts = np.zeros((RANK_CODES, 5, 5), np.int64)
    use = _board_seed(key) if seed is None else seed
    race_joint(enc.board, enc.dice, enc.rolls, enc.tiles, samples, use, full_pyramid(ed), ed.rolls_per_leg, counts)
    if seed is None:
        _JOINTS[key] = counts
        while len(_JOINTS) > 64:
            _JOINTS.pop(next(iter(_JOINTS)))
    return counts


_JOINTS: dict = {}


def _board_seed(key) -> int:
    import hashlib

    return int.from_bytes(hashlib.blake2b(repr(("joint",) + key).encode(), digest_size=8).digest(), "little") >> 1


def nearness(race) -> float:
    """How near the race's end is: ``1 / E[legs left]``, this one included
    (1 when the race surely ends in this leg), from the race odds' legs."""
    legs = np.asarray(race.legs, float)
    return float(1.0 / max((np.arange(1, legs.size + 1) * legs).sum() / max(legs.sum(), 1e-12), 1.0))


def _codes(leg) -> np.ndarray:
    from advisor.kernels.ranks import codes_of

    return codes_of(leg.ranks)


# --------------------------------------------------------------------------
# The endgame: the race ends in this leg
# --------------------------------------------------------------------------


def race_ends_now(ctx) -> bool:
    """The race surely ends during this leg (exact race odds say so)."""
    race = ctx.race()
    return bool(race.exact and race.legs.size and race.legs[0] == 1.0)


def _race_end_money(ed, money, leg_change, card_change):
    """Money at the race's end: this leg's scoring, then the overall cards,
    each held at the rules' money floor (:func:`advisor.rules.scoring.settle`)."""
    return settle(ed, settle(ed, money, leg_change), card_change)


def endgame_shares(ctx, actions, tables=None) -> np.ndarray:
    """Per action of ``actions``, the player's expected share of first place
    when the race ends in this leg (a first place shared by ``k`` players
    counts ``1/k``), exactly over the leg's outcomes: every player's final
    money per race order (this leg's scoring with the money floor, then the
    overall cards at the race's end, which this leg's order decides), the
    others' face-down cards at their expected payout under the pile model,
    nobody else betting before the leg ends.  ``tables``: the tile
    placements' joint tables (their action is valued on its own table)."""
    from advisor.kernels.ranks import RANK_CODES
    ed, codes = ctx.ed, ctx.rank_code_table()
    winner = np.argmin(codes.ranks, axis=1)  # per code
    loser = np.argmax(codes.ranks, axis=1)
    state = ctx.state
    best_other = np.full(RANK_CODES, -np.inf)
    for q in range(state.n_players):
        if q == ctx.player:
            continue
        money = _race_end_money(ed, state.players[q].money, ctx.holdings(q, codes), _cards_of(ctx, q, winner, loser))
        best_other = np.maximum(best_other, money)
    ties = np.zeros(RANK_CODES)
    for q in range(state.n_players):  # how many others share the best other money
        if q != ctx.player:
            money = _race_end_money(ed, state.players[q].money, ctx.holdings(q, codes),
                                    _cards_of(ctx, q, winner, loser))
            ties += money == best_other
    mine = _cards_of(ctx, ctx.player, winner, loser)
    held = ctx.holdings(ctx.player, codes)
    me = state.players[ctx.player].money

    def share(grid: np.ndarray, extra_leg, extra_card) -> float:
        """``grid[code, n]``: counts (or probabilities) of race order and
        landings on the player's tile."""
        n = np.arange(grid.shape[1])
        final = _race_end_money(ed, me + n[None, :], (held + extra_leg)[:, None], (mine + extra_card)[:, None])
        win = np.where(final > best_other[:, None], 1.0,
                       np.where(final == best_other[:, None], 1.0 / (ties[:, None] + 1), 0.0))
        return float((grid * win).sum() / grid.sum())

    base = np.zeros((RANK_CODES, int(ctx.base.landings.max(initial=0)) + 1))
    from advisor.kernels.ranks import codes_of

    np.add.at(base, (codes_of(ctx.base.ranks), ctx.base.landings), ctx.base.prob)
    tile_grid = {}
    if tables is not None:
        tile_grid = {f"tile:{sign}{space}": tables.orders[k] for k, (space, sign) in enumerate(tables.placements)}
    out = np.zeros(len(actions))
    zero = np.zeros(RANK_CODES)
    for i, action in enumerate(actions):
        a = Action.parse(action)
        if a.kind == "leg":
            c = ctx.racing.index(a.colour)
            out[i] = share(base, codes.tile_payout(c, leg_bet_value(ed, ctx.pos.legtiles[c])), zero)
        elif a.kind == "pyramid":
            out[i] = share(base, np.full(RANK_CODES, float(PYRAMID_TILE)), zero)
        elif a.kind == "partner":
            out[i] = share(base, ctx.copy_value(a.partner, codes), zero)
        elif a.kind in ("winner", "loser"):
            values, probs = ctx.card_payouts(a.kind, ctx.pile(a.kind), a.colour, np.ones(5))
            c = ctx.racing.index(a.colour)
            right = (winner if a.kind == "winner" else loser) == c
            out[i] = share(base, zero, np.where(right, float(values[:-1] @ probs[:-1]), float(ed.wrong_card)))
        elif action in tile_grid:
            out[i] = share(tile_grid[action].astype(float), zero, zero)
        else:  # a tile no move of this leg reaches: the leg as it stands
            out[i] = share(base, zero, zero)
    return out


def _cards_of(ctx, player: int, winner: np.ndarray, loser: np.ndarray) -> np.ndarray:
    """Per race order, what ``player``'s cards on the piles pay (a card of
    unknown colour at its expectation under its own model or the pile
    model: :func:`advisor.valuation.standing.pile_payouts`)."""
    win, lose = pile_payouts(ctx, player)
    return win[winner] + lose[loser]
