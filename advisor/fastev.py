"""The advisor's valuation in one pass, for bots: EV of every legal action.

:func:`advisor.best_moves` explains every figure (a DataFrame row per action,
risk columns, exact tile enumerations, race odds per tile placement).  A bot
needs only the EV of each action, thousands of times per tournament.
:func:`fast_values` computes the same EVs, by the same formulas (the money
floor on each outcome's whole leg payout, the pile model of the overall
cards), for all actions at once:

* the leg's outcomes without a new tile: exact, as in ``best_moves``;
* the outcomes with each tile placement: one kernel call for all placements,
  exact when at most :data:`EXACT_ROLLS` rolls are left in the leg, otherwise
  :data:`TILE_SAMPLES` sampled legs with common random numbers (every
  placement replays the same rolls);
* race odds (overall cards): :func:`advisor.race_odds` at ``precision``;
* the change a tile makes to the player's overall cards on the piles:
  :data:`RACE_SAMPLES` races with common random numbers for all placements
  at once, instead of one race-odds run per placement.

In the exact cases (no more than :data:`EXACT_ROLLS` rolls left, no own
overall card on a pile) the EVs equal ``best_moves`` to rounding; the tests
check this.  Results are a pure function of the state: the seeds derive from
the board, so repeated boards are served from a small memo and a game gives
the same moves whether or not the memo is hit.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .ev import LegOutcomes, _Context, legal_actions, partner_options, tile_spaces
from .rules.scoring import PILE_PAYOUTS, pile_payout
from .state import GameState, PileCard

__all__ = ["fast_values", "FastValues", "EXACT_ROLLS", "TILE_SAMPLES", "RACE_SAMPLES"]

#: Tile placements are enumerated exactly when at most this many rolls are
#: left in the leg (a leg start, 5 rolls, is sampled).
EXACT_ROLLS = 4
#: Sampled legs per tile placement at a leg start.
TILE_SAMPLES = 1000
#: Races (common random numbers) behind the change of the overall cards.
RACE_SAMPLES = 300
_MEMO_SIZE = 256
_PAYOUTS = np.array([pile_payout(k) for k in range(len(PILE_PAYOUTS) + 1)], float)


@dataclass(frozen=True)
class FastValues:
    """EV of each legal action (``actions[i]`` is worth ``ev[i]`` coins);
    ``denial[i]``: the drop of the next player's best EV; ``rivals[i]``: the
    mean expected gain of the other players (see ``_rivals``); both zeros
    unless asked."""

    actions: list[str]
    ev: np.ndarray
    denial: np.ndarray
    rivals: np.ndarray

    def best(self, denial_weight: float = 0.0, rivals_weight: float = 0.0) -> str:
        """The action with the highest ``ev + denial_weight * denial -
        rivals_weight * rivals`` (the first in :func:`legal_actions` order on
        ties)."""
        score = self.ev + denial_weight * self.denial - rivals_weight * self.rivals
        return self.actions[int(np.argmax(score))]


class _Memo:
    """A small least-recently-used memo of pure functions of the board."""

    def __init__(self, size: int):
        self.size = size
        self.data: OrderedDict = OrderedDict()

    def get(self, key, compute):
        if key in self.data:
            self.data.move_to_end(key)
            return self.data[key]
        value = compute()
        self.data[key] = value
        if len(self.data) > self.size:
            self.data.popitem(last=False)
        return value


_MEMO = _Memo(_MEMO_SIZE)


def _seed(key) -> int:
    """A seed that depends on ``key`` only (same in every process)."""
    return int.from_bytes(hashlib.blake2b(repr(key).encode(), digest_size=8).digest(), "little") >> 1


def _all_codes() -> LegOutcomes:
    """Every rank code once (probabilities unused): payouts per rank code."""
    from .encode import rank_codes
    from .kernels.leg import RANK_CODES

    return LegOutcomes(np.zeros(RANK_CODES), rank_codes(), np.zeros(RANK_CODES, np.int64))


class _FastContext(_Context):
    """Race odds shared by every decision on the same board."""

    board_key: tuple

    def compute_race(self):
        return _MEMO.get(("race", self.board_key, self.race_precision()), super().compute_race)


def fast_values(state: GameState, player: int | None = None, *, precision: float = 0.02,
                denial: bool = False, rivals: bool = False) -> FastValues:
    """EV of every legal action of ``player`` (default: the one to move), in
    :func:`legal_actions` order; ``precision``: of the race odds behind the
    overall cards (95% half-width); ``denial``, ``rivals``: fill those
    figures (``rivals`` needs and implies ``denial``)."""
    from .encode import encode
    from .montecarlo import check_precision

    precision = check_precision(precision)
    player = state.check_player(player)
    pos = state.position
    enc = encode(pos)
    board_key = (pos.rules.name, int(enc.board), int(enc.dice), int(enc.rolls), enc.tiles.tobytes())
    own = state.own_tile(player)
    track = own.space if own else 0
    base = _MEMO.get(("leg", board_key, track), lambda: LegOutcomes.of(pos, track))
    ctx = _FastContext(state, player, precision, _seed(board_key), base=base)
    ctx.board_key = board_key
    actions = legal_actions(state, player)
    ev = np.zeros(len(actions))
    den = np.zeros(len(actions))
    codes = _all_codes()

    # what the player already holds, per outcome and per rank code
    money = state.players[player].money
    held_base = ctx.holdings(player, base)
    v0 = float(base.prob @ np.maximum(0.0, money + base.landings + held_base))

    def gain(extra: np.ndarray | float) -> float:
        return float(base.prob @ np.maximum(0.0, money + base.landings + held_base + extra)) - v0

    racing = ctx.racing
    index = {a: i for i, a in enumerate(actions)}
    for c, (colour, stack) in enumerate(zip(racing, pos.legtiles)):
        if stack:
            ev[index[f"leg:{colour}"]] = gain(base.tile_payout(c, stack[0]))
    ev[index["pyramid"]] = gain(1.0)
    for q in partner_options(state, player):
        ev[index[f"partner:{q}"]] = gain(ctx.copy_value(q, base))
    hand = state.hand(player)
    if hand:
        for name in ("winner", "loser"):
            values = _card_values(ctx, name, money)
            for colour in hand:
                ev[index[f"{name}:{colour}"]] = values[racing.index(colour)]

    # tile placements, all at once
    spaces = [s for s in tile_spaces(state, player) if own is not None or base.reached[s]]
    tile_probs = None
    tile_rows = [index[f"tile:{sign}{space}"] for space in spaces for sign in "+-"]
    if spaces:
        sp = np.repeat(np.array(spaces, np.int64), 2)
        sg = np.tile(np.array([1, -1], np.int8), len(spaces))
        stripped = enc.tiles.copy()
        if own is not None:
            stripped[own.space] = 0
        ckey = ("tiles", board_key, stripped.tobytes(), sp.tobytes())
        orders = _MEMO.get(ckey, lambda: _candidate_orders(enc, stripped, sp, sg, _seed(ckey)))
        total = orders.sum(axis=(1, 2), keepdims=True)
        tile_probs = orders / total  # [K, codes, landings]
        held_codes = ctx.holdings(player, codes)  # [codes]
        n = np.arange(orders.shape[2])
        settled = np.maximum(0.0, money + n[None, :] + held_codes[:, None])  # [codes, landings]
        values = (tile_probs * settled).sum(axis=(1, 2)) - v0
    riv = np.zeros(len(actions))
    if denial or rivals:
        _denial(ctx, actions, den, tile_probs, tile_rows)
    if rivals:
        _rivals(ctx, enc, index, riv, den, tile_probs, tile_rows)
    if spaces:
        cards = _held_cards(ctx)
        if cards:
            values += _overall_change(ctx, enc, board_key, stripped, sp, sg, cards)
        ev[tile_rows] = values
    return FastValues(actions, ev, den, riv)


def _card_values(ctx: _Context, name: str, money: int, pile=None) -> np.ndarray:
    """EV of placing an overall card of each camel on pile ``name`` (as it
    is, or ``pile``) for a player with ``money``: ``_value_card`` of
    :mod:`advisor.ev` for all five camels at once."""
    from math import comb

    pile = ctx.pile(name) if pile is None else pile
    cache = ctx.__dict__.setdefault("_card_values", {})
    key = (name, money, pile)
    if key in cache:
        return cache[key]
    odds = ctx.overall_odds(name)
    q = ctx.pile_q(name)
    unknown = sum(1 for card in pile if card.colour is None)
    known = np.array([sum(1 for card in pile if card.colour == c) for c in ctx.racing])
    j = np.arange(unknown + 1)
    pmf = np.array([comb(unknown, k) for k in j]) * q[:, None] ** j * (1 - q[:, None]) ** (unknown - j)
    right = np.maximum(_PAYOUTS[np.minimum(known[:, None] + j, _PAYOUTS.size - 1)], -money)
    cache[key] = odds * (pmf * right).sum(axis=1) + (1 - odds) * max(-1, -money)
    return cache[key]


def _candidate_orders(enc, stripped, sp, sg, seed) -> np.ndarray:
    from .kernels.candidates import candidate_joint
    from .kernels.leg import RANK_CODES

    exact = enc.rolls <= EXACT_ROLLS
    orders = np.zeros((sp.size, RANK_CODES, enc.rolls + 1), np.int64)
    candidate_joint(enc.board, enc.dice, enc.rolls, stripped, enc.ncam, sp, sg, exact, TILE_SAMPLES, seed, orders)
    return orders


def _held_cards(ctx: _Context) -> list[tuple[str, int, float]]:
    """The player's overall cards on the piles: ``(pile, camel, A)``, with
    ``A`` the card's expected payout when its camel wins (loses): the card's
    EV is ``p (A + 1) - 1`` for the probability ``p`` of that."""
    out = []
    for name in ("winner", "loser"):
        pile = ctx.pile(name)
        for j, card in enumerate(pile):
            if card.player == ctx.player and card.colour:
                values, probs = ctx.card_payouts(name, pile[:j], card.colour, np.ones(5))
                out.append((name, ctx.racing.index(card.colour), float(values[:-1] @ probs[:-1])))
    return out


def _overall_change(ctx: _Context, enc, board_key, stripped, sp, sg, cards) -> np.ndarray:
    """Per placement, the change of the EV of the player's overall cards."""
    from .encode import full_pyramid
    from .kernels.candidates import candidate_races

    key = ("races", board_key, stripped.tobytes(), sp.tobytes(), sg.tobytes())

    def compute():
        ed = ctx.ed
        win = np.zeros((sp.size, 5), np.int64)
        lose = np.zeros((sp.size, 5), np.int64)
        candidate_races(enc.board, enc.dice, enc.rolls, enc.tiles, stripped, enc.ncam, sp, sg, RACE_SAMPLES,
                        _seed(key), full_pyramid(ed), ed.rolls_per_leg, win, lose)
        return {"winner": win / RACE_SAMPLES, "loser": lose / RACE_SAMPLES}

    odds = _MEMO.get(key, compute)
    change = np.zeros(sp.size)
    for name, c, right in cards:
        change += (right + 1) * odds[name][:, c]
    return change


class _NextPlayer:
    """The best EV available to one other player (``who``): their pyramid
    tile and leg tiles under a given leg distribution, and their overall
    cards for given piles (as the ``denial`` column of :func:`best_moves`)."""

    def __init__(self, ctx: _Context, who: int):
        self.ctx = ctx
        self.who = who
        self.codes = _all_codes()
        self.money = ctx.state.players[who].money
        self.held = ctx.holdings(who, self.codes)
        self.hand = [ctx.racing.index(colour) for colour in ctx.state.hand(who)]
        self._cards: dict = {}
        self._columns: dict = {}

    def _settled(self, extra) -> np.ndarray:
        """Per rank code, the player's settled leg money with ``extra``."""
        key = extra if isinstance(extra, tuple) else ("coins", extra)
        if key not in self._columns:
            pay = self.codes.tile_payout(*extra) if isinstance(extra, tuple) else extra
            self._columns[key] = np.maximum(0.0, self.money + self.held + pay)
        return self._columns[key]

    def best_leg(self, probs: np.ndarray, stacks) -> np.ndarray:
        """``probs`` [K, codes]: per row, the best of the pyramid tile and
        the top leg tiles of ``stacks``."""
        options = [self._settled(1.0)] + [self._settled((c, stack[0])) for c, stack in enumerate(stacks) if stack]
        values = probs @ np.stack(options, axis=1)  # [K, options]
        return values.max(axis=1) - probs @ self._settled(0.0)

    def best_cards(self, piles: dict) -> float:
        key = (piles["winner"], piles["loser"])
        if key not in self._cards:
            self._cards[key] = max(
                (float(_card_values(self.ctx, name, self.money, piles[name])[self.hand].max()) for name in piles),
                default=-np.inf,
            ) if self.hand else -np.inf
        return self._cards[key]


def _player(ctx: _Context, who: int) -> _NextPlayer:
    """One :class:`_NextPlayer` per player and valuation."""
    cache = ctx.__dict__.setdefault("_players", {})
    if who not in cache:
        cache[who] = _NextPlayer(ctx, who)
    return cache[who]


def _piles(state: GameState) -> dict:
    return {"winner": state.winner_pile, "loser": state.loser_pile}


def _denial(ctx: _Context, actions, den, tile_probs, tile_rows) -> None:
    """Fill ``den``: how much the next player's best EV drops per action
    (as the ``denial`` column of :func:`advisor.best_moves`); the tile
    placements' leg distributions ``tile_probs`` belong to rows ``tile_rows``."""
    state = ctx.state
    nxt = _player(ctx, (ctx.player + 1) % state.n_players)
    piles = _piles(state)
    stacks = ctx.pos.legtiles
    base_probs = _code_probs(ctx.base)[None, :]
    now_cards = nxt.best_cards(piles)
    before = max(float(nxt.best_leg(base_probs, stacks)[0]), now_cards)
    for i, action in enumerate(actions):
        kind, _, arg = action.partition(":")
        if kind == "leg":
            c = ctx.racing.index(arg)
            taken = tuple(s[1:] if j == c else s for j, s in enumerate(stacks))
            after = max(float(nxt.best_leg(base_probs, taken)[0]), now_cards)
        elif kind in ("winner", "loser"):
            changed = {**piles, kind: piles[kind] + (PileCard(ctx.player),)}
            after = max(float(nxt.best_leg(base_probs, stacks)[0]), nxt.best_cards(changed))
        else:
            continue
        drop = before - after
        den[i] = drop if abs(drop) > 1e-12 else 0.0
    if tile_probs is not None:
        drops = before - np.maximum(nxt.best_leg(tile_probs.sum(axis=2), stacks), now_cards)
        den[tile_rows] = np.where(np.abs(drops) > 1e-12, drops, 0.0)


def _rivals(ctx: _Context, enc, index, riv, den, tile_probs, tile_rows) -> None:
    """Fill ``riv``: the mean over the other players of what the action
    gains them in expectation.

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
    from .kernels.candidates import after_each_roll
    from .kernels.leg import RANK_CODES

    state = ctx.state
    others = [q for q in range(state.n_players) if q != ctx.player]
    gain = -den.copy()
    if tile_probs is not None:
        probs = tile_probs.sum(axis=2)
        base_probs = _code_probs(ctx.base)
        for q in others:
            who = _player(ctx, q)
            values = np.maximum(0.0, who.money + who.held)
            gain[tile_rows] += probs @ values - base_probs @ values
    if enc.rolls > 1:
        nxt = _player(ctx, (ctx.player + 1) % state.n_players)
        stacks = ctx.pos.legtiles
        now_cards = nxt.best_cards(_piles(state))
        before = max(float(nxt.best_leg(_code_probs(ctx.base)[None, :], stacks)[0]), now_cards)
        def rolls():
            """Per next roll: its weight and the leg's race-order probabilities after it."""
            orders = np.zeros((6 * 6, RANK_CODES, 1), np.int64)
            weights = np.zeros(6 * 6, np.int64)
            after_each_roll(enc.board, enc.dice, enc.rolls, enc.tiles, enc.ncam, orders, weights)
            live = weights > 0
            counts = orders[live, :, 0]
            return weights[live], counts / counts.sum(axis=1, keepdims=True)

        weights, probs = _MEMO.get(("rolls", ctx.board_key), rolls)
        after = np.maximum(nxt.best_leg(probs, stacks), now_cards)
        gain[index["pyramid"]] += float(weights @ after) / weights.sum() - before
    riv[:] = gain / len(others)


def _code_probs(leg: LegOutcomes) -> np.ndarray:
    """P(each rank code) at the end of ``leg``."""
    from .kernels.leg import RANK_CODES

    return np.bincount(_code_of(leg), weights=leg.prob, minlength=RANK_CODES)


def _code_of(leg: LegOutcomes) -> np.ndarray:
    """The rank code of each outcome of ``leg``."""
    r = leg.ranks
    return r[:, 0] + 5 * r[:, 1] + 25 * r[:, 2] + 125 * r[:, 3]
