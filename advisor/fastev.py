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
overall card on a pile) the EVs equal ``best_moves`` to rounding (the leg
figures exactly: both round the same exact fractions); the tests check
this.  Overall cards are valued by the same function as in ``best_moves``
(``Context.card_gains``: the pile model, the money floor at the race end),
and another player's hidden hand by the same model
(``Context.hand_model``), so a bot uses only what its view shows.
Results are a pure function of the state: the seeds derive from the board,
so repeated boards are served from a small memo and a game gives the same
moves whether or not the memo is hit.
"""

from __future__ import annotations

import hashlib
from collections import OrderedDict
from dataclasses import dataclass

import numpy as np

from .ev import Context, LegOutcomes, legal_actions
from .rules.actions import Action, leg_bet_value, partner_options, take_leg_tile, tile_spaces
from .rules.scoring import PILES, PYRAMID_TILE, settle
from .sampling import check_precision
from .state import GameState, PileCard

__all__ = ["fast_values", "FastValues", "shared_race_odds", "EXACT_ROLLS", "TILE_SAMPLES", "RACE_SAMPLES"]

#: Tile placements are enumerated exactly when at most this many rolls are
#: left in the leg (a leg start, 5 rolls, is sampled).
EXACT_ROLLS = 4
#: Sampled legs per tile placement at a leg start.
TILE_SAMPLES = 1000
#: Races (common random numbers) behind the change of the overall cards.
RACE_SAMPLES = 300
_MEMO_SIZE = 256


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


def _all_codes(rules) -> LegOutcomes:
    """Every rank code once (probabilities unused): payouts per rank code
    under ``rules`` (an edition or a variant)."""
    from .kernels.ranks import RANK_CODES, rank_codes

    return LegOutcomes(np.zeros(RANK_CODES), rank_codes(), np.zeros(RANK_CODES, np.int64), rules=rules)


class _FastContext(Context):
    """Race odds shared by every decision on the same board."""

    board_key: tuple

    def compute_race(self):
        return _MEMO.get(("race", self.board_key, self.race_precision()), super().compute_race)


def _board_key(pos) -> tuple:
    from .encode import encode

    enc = encode(pos)
    return (pos.rules.name, int(enc.board), int(enc.dice), int(enc.rolls), enc.tiles.tobytes())


def shared_race_odds(position, precision: float = 0.02):
    """The race odds :func:`fast_values` values the overall cards with on
    ``position`` at ``precision``: seeded from the board, memoized, so every
    caller on the same board (a bot's decision, a game review's valuation)
    gets the same figures, computed once per process."""
    from .exact import as_position
    from .montecarlo import check_precision, race_odds

    pos = as_position(position)
    precision = check_precision(precision)
    key = _board_key(pos)
    return _MEMO.get(("race", key, precision), lambda: race_odds(pos, precision=precision, seed=_seed(key)))


def fast_values(state: GameState, player: int | None = None, *, precision: float = 0.02,
                denial: bool = False, rivals: bool = False) -> FastValues:
    """EV of every legal action of ``player`` (default: the one to move), in
    :func:`legal_actions` order; ``precision``: of the race odds behind the
    overall cards (95% half-width); ``denial``, ``rivals``: fill those
    figures (``rivals`` needs and implies ``denial``)."""
    from .encode import encode

    precision = check_precision(precision)
    player = state.check_player(player)
    pos = state.position
    enc = encode(pos)
    board_key = _board_key(pos)
    own = state.own_tile(player)
    track = own.space if own else 0
    # (the outcomes carry the rules whose payouts apply: a variant is part of the key)
    base = _MEMO.get(("leg", board_key, track, pos.rules), lambda: LegOutcomes.of(pos, track))
    ctx = _FastContext(state, player, precision, _seed(board_key), base=base)
    ctx.board_key = board_key
    actions = legal_actions(state, player)
    ev = np.zeros(len(actions))
    den = np.zeros(len(actions))
    codes = _all_codes(pos.rules)

    # what the player already holds, per outcome and per rank code
    # (whole coins, in integers: every expectation below is exact, as in best_moves)
    money = state.players[player].money
    held_base = np.rint(ctx.holdings(player, base)).astype(np.int64) + base.landings
    ed = pos.rules
    settled_base = settle(ed, money, held_base)
    # (the least of it is what Context.least_leg_money would compute again)
    ctx.__dict__.setdefault("_least_money", {})[player] = int(settled_base.min())

    def gain(extra: np.ndarray | int) -> float:
        return base.mean(settle(ed, money, held_base + extra) - settled_base)

    racing = ctx.racing
    index = {a: i for i, a in enumerate(actions)}
    for c, (colour, stack) in enumerate(zip(racing, pos.legtiles)):
        value = leg_bet_value(ed, stack)
        if value is not None:
            ev[index[f"leg:{colour}"]] = gain(base.tile_payout(c, value))
    ev[index["pyramid"]] = gain(PYRAMID_TILE)
    for q in partner_options(state, player):
        ev[index[f"partner:{q}"]] = gain(np.rint(ctx.copy_value(q, base)).astype(np.int64))
    hand = state.hand(player)
    if hand:
        for name in PILES:
            values = _card_values(ctx, name, player, ctx.pile(name))
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
        if denial or rivals:  # the others' figures need the race-order distributions
            tile_probs = orders.sum(axis=2) / total[:, :, 0]  # [K, codes]
        held_codes = ctx.holdings(player, codes)  # [codes]
        n = np.arange(orders.shape[2])
        settled = np.rint(settle(ctx.ed, money + n[None, :], held_codes[:, None])).astype(np.int64)
        # E[with the tile] - E[without]: the exact fraction of the counts, rounded once (as best_moves)
        values = _difference(orders.reshape(len(sp), -1) @ settled.ravel(), total.ravel(),
                             int(base.counts @ settled_base), base.total)
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


def _difference(sums: np.ndarray, totals: np.ndarray, sum0: int, total0: int) -> np.ndarray:
    """``sums / totals - sum0 / total0`` (integer sums and counts), each the
    float nearest to the exact fraction: one division of whole numbers (in
    numpy while they stay below 2**53, where floats hold them exactly)."""
    limit = 2**52 // max(total0, int(totals.max(initial=1)), 1)
    if np.abs(sums).max(initial=0) < limit and abs(sum0) < limit and totals.max(initial=0) < limit:
        return (sums * total0 - sum0 * totals) / (totals * total0)  # every product below 2**52
    return np.array([(int(a) * total0 - sum0 * int(t)) / (int(t) * total0) for a, t in zip(sums, totals)])


def _card_values(ctx: Context, name: str, player: int, pile: tuple[PileCard, ...]) -> np.ndarray:
    """EV of placing an overall card of each camel on pile ``name`` (as
    ``pile``) for ``player``: the means of ``Context.card_gains``, the one
    valuation of an overall card (money floor at the race end included)."""
    cache = ctx.__dict__.setdefault("_card_values", {})
    key = (name, player, pile)
    if key not in cache:
        values, probs = ctx.card_gains(name, player, pile)
        cache[key] = (values * probs).sum(axis=1)
    return cache[key]


def _candidate_orders(enc, stripped, sp, sg, seed) -> np.ndarray:
    from .kernels.candidates import candidate_joint
    from .kernels.ranks import RANK_CODES

    exact = enc.rolls <= EXACT_ROLLS
    orders = np.zeros((sp.size, RANK_CODES, enc.rolls + 1), np.int64)
    candidate_joint(enc.board, enc.dice, enc.rolls, stripped, sp, sg, exact, TILE_SAMPLES, seed, orders)
    return orders


def _held_cards(ctx: Context) -> list[tuple[str, int, float]]:
    """The player's overall cards on the piles: ``(pile, camel, A)``, with
    ``A`` the card's expected payout when its camel wins (loses): the card's
    EV is ``p (A - w) + w`` for the probability ``p`` of that and the wrong
    card's payout ``w`` (-1)."""
    out = []
    for name in ("winner", "loser"):
        pile = ctx.pile(name)
        for j, card in enumerate(pile):
            if card.player == ctx.player and card.colour:
                values, probs = ctx.card_payouts(name, pile[:j], card.colour, np.ones(5))
                out.append((name, ctx.racing.index(card.colour), float(values[:-1] @ probs[:-1])))
    return out


def _overall_change(ctx: Context, enc, board_key, stripped, sp, sg, cards) -> np.ndarray:
    """Per placement, the change of the EV of the player's overall cards."""
    from .encode import full_pyramid
    from .kernels.candidates import candidate_races

    key = ("races", board_key, stripped.tobytes(), sp.tobytes(), sg.tobytes())

    def compute():
        ed = ctx.ed
        win = np.zeros((sp.size, 5), np.int64)
        lose = np.zeros((sp.size, 5), np.int64)
        candidate_races(enc.board, enc.dice, enc.rolls, enc.tiles, stripped, sp, sg, RACE_SAMPLES,
                        _seed(key), full_pyramid(ed), ed.rolls_per_leg, win, lose)
        return {"winner": win / RACE_SAMPLES, "loser": lose / RACE_SAMPLES}

    odds = _MEMO.get(key, compute)
    change = np.zeros(sp.size)
    for name, c, right in cards:
        change += (right - ctx.ed.wrong_card) * odds[name][:, c]
    return change


class _NextPlayer:
    """The best EV available to one other player (``who``): their pyramid
    tile and leg tiles under a given leg distribution, and their overall
    cards for given piles (as the ``denial`` column of :func:`best_moves`).

    The player chooses knowing their own hand.  When it is hidden, their
    best option is the expectation over their possible hands
    (``Context.hand_model``: the colours not seen placed by them, weighted
    by the pile model) of the best option in each hand, ``E_H[max(leg
    options, best card of H)]``; a known hand is the one hand of
    probability 1."""

    def __init__(self, ctx: Context, who: int):
        self.ctx = ctx
        self.who = who
        self.codes = _all_codes(ctx.ed)
        self.money = ctx.state.players[who].money
        self.held = ctx.holdings(who, self.codes)
        self._hands = None  # (camel indices per possible hand, probabilities), when first needed
        self._cards: dict = {}
        self._columns: dict = {}
        self._options: dict = {}

    def _settled(self, extra) -> np.ndarray:
        """Per rank code, the player's settled leg money with ``extra``."""
        key = extra if isinstance(extra, tuple) else ("coins", extra)
        if key not in self._columns:
            pay = self.codes.tile_payout(*extra) if isinstance(extra, tuple) else extra
            self._columns[key] = settle(self.ctx.ed, self.money, self.held + pay) + 0.0
        return self._columns[key]

    def best_leg(self, probs: np.ndarray, stacks) -> np.ndarray:
        """``probs`` [K, codes]: per row, the best of the pyramid tile and
        the top leg tiles of ``stacks``."""
        if stacks not in self._options:
            ed = self.ctx.ed
            options = [self._settled(0.0), self._settled(float(PYRAMID_TILE))]
            options += [self._settled((c, leg_bet_value(ed, stack))) for c, stack in enumerate(stacks)
                        if leg_bet_value(ed, stack) is not None]
            self._options[stacks] = np.stack(options, axis=1)
        values = probs @ self._options[stacks]  # [K, 1 + options]: the first without any
        return values[:, 1:].max(axis=1) - values[:, 0]

    def best_leg_after_taking(self, probs: np.ndarray, stacks) -> dict[int, float]:
        """``probs`` [codes]: per colour ``c`` with a leg tile left, the best
        of the pyramid tile and the top leg tiles once the top tile of ``c``
        is taken (:meth:`best_leg` of those stacks, all from one product)."""
        ed = self.ctx.ed
        live = [c for c, stack in enumerate(stacks) if leg_bet_value(ed, stack) is not None]
        # the tile under the one taken (the rules core's effect of taking it)
        under = {c: leg_bet_value(ed, take_leg_tile(ed, stacks, c)[1][c]) for c in live}
        columns = [self._settled(0.0), self._settled(float(PYRAMID_TILE))]
        columns += [self._settled((c, leg_bet_value(ed, stacks[c]))) for c in live]
        columns += [self._settled((c, under[c])) for c in live if under[c] is not None]
        values = probs @ np.stack(columns, axis=1)
        gains = values[1:] - values[0]  # pyramid, top tiles, second tiles
        top = dict(zip(live, gains[1:1 + len(live)]))
        second = dict(zip([c for c in live if under[c] is not None], gains[1 + len(live):]))
        out = {}
        for c in live:
            options = [gains[0]] + [v for d, v in top.items() if d != c] + ([second[c]] if c in second else [])
            out[c] = float(max(options))
        return out

    def best_cards(self, piles: dict) -> np.ndarray:
        """Per possible hand, the EV of its best overall card on ``piles``
        (``-inf`` for an empty hand)."""
        key = (piles["winner"], piles["loser"])
        if key not in self._cards:
            hands, _ = self.hands()
            if any(hands):
                values = np.max([_card_values(self.ctx, name, self.who, piles[name]) for name in PILES], axis=0)
            self._cards[key] = np.array([values[hand].max() if hand else -np.inf for hand in hands])
        return self._cards[key]

    def hands(self) -> tuple[list[list[int]], np.ndarray]:
        """The player's possible hands (camel indices) and their probabilities."""
        if self._hands is None:
            hands, probs = self.ctx.hand_model(self.who)
            self._hands = [[self.ctx.racing.index(colour) for colour in hand] for hand in hands], probs
        return self._hands

    def best(self, leg: np.ndarray, piles: dict) -> np.ndarray:
        """Per entry of ``leg`` (the best leg option's EV), the player's best
        option: ``E_H[max(leg, best card of H)]``."""
        cards = self.best_cards(piles)
        if cards.size == 1:  # a known hand
            return np.maximum(leg, cards[0])
        return np.maximum(np.asarray(leg, float)[:, None], cards[None, :]) @ self.hands()[1]


def _player(ctx: Context, who: int) -> _NextPlayer:
    """One :class:`_NextPlayer` per player and valuation."""
    cache = ctx.__dict__.setdefault("_players", {})
    if who not in cache:
        cache[who] = _NextPlayer(ctx, who)
    return cache[who]


def _piles(state: GameState) -> dict:
    return {"winner": state.winner_pile, "loser": state.loser_pile}


def _denial(ctx: Context, actions, den, tile_probs, tile_rows) -> None:
    """Fill ``den``: how much the next player's best EV drops per action
    (as the ``denial`` column of :func:`advisor.best_moves`); the tile
    placements' race-order distributions ``tile_probs`` [K, codes] belong to
    rows ``tile_rows``."""
    state = ctx.state
    nxt = _player(ctx, (ctx.player + 1) % state.n_players)
    piles = _piles(state)
    stacks = ctx.pos.legtiles
    base_probs = _base_code_probs(ctx)[None, :]
    base_leg = nxt.best_leg(base_probs, stacks)
    before = float(nxt.best(base_leg, piles)[0])
    after: dict = {}  # per action's effect: the next player's best option after it
    taking = nxt.best_leg_after_taking(base_probs[0], stacks)
    for i, action in enumerate(actions):
        parsed = Action.parse(action)
        kind, arg = parsed.kind, parsed.colour
        if kind == "leg":
            if arg not in after:
                after[arg] = float(nxt.best(np.array([taking[ctx.racing.index(arg)]]), piles)[0])
            drop = before - after[arg]
        elif kind in PILES:
            if kind not in after:  # any colour: the card lies face down for them
                changed = {**piles, kind: piles[kind] + (PileCard(ctx.player),)}
                after[kind] = float(nxt.best(base_leg, changed)[0])
            drop = before - after[kind]
        else:
            continue
        den[i] = drop if abs(drop) > 1e-12 else 0.0
    if tile_probs is not None:
        drops = before - nxt.best(nxt.best_leg(tile_probs, stacks), piles)
        den[tile_rows] = np.where(np.abs(drops) > 1e-12, drops, 0.0)


def _rivals(ctx: Context, enc, index, riv, den, tile_probs, tile_rows) -> None:
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
    from .kernels.ranks import RANK_CODES

    state = ctx.state
    others = [q for q in range(state.n_players) if q != ctx.player]
    gain = -den.copy()
    if tile_probs is not None:
        probs = tile_probs
        base_probs = _base_code_probs(ctx)
        for q in others:
            who = _player(ctx, q)
            values = settle(ctx.ed, who.money, who.held) + 0.0
            gain[tile_rows] += probs @ values - base_probs @ values
    if enc.rolls > 1:
        nxt = _player(ctx, (ctx.player + 1) % state.n_players)
        stacks = ctx.pos.legtiles
        piles = _piles(state)
        before = float(nxt.best(nxt.best_leg(_base_code_probs(ctx)[None, :], stacks), piles)[0])
        def rolls():
            """Per next roll: its weight and the leg's race-order probabilities after it."""
            orders = np.zeros((6 * 6, RANK_CODES, 1), np.int64)
            weights = np.zeros(6 * 6, np.int64)
            after_each_roll(enc.board, enc.dice, enc.rolls, enc.tiles, orders, weights)
            live = weights > 0
            counts = orders[live, :, 0]
            return weights[live], counts / counts.sum(axis=1, keepdims=True)

        weights, probs = _MEMO.get(("rolls", ctx.board_key), rolls)
        after = nxt.best(nxt.best_leg(probs, stacks), piles)
        gain[index["pyramid"]] += float(weights @ after) / weights.sum() - before
    riv[:] = gain / len(others)


def _base_code_probs(ctx: Context) -> np.ndarray:
    """:func:`_code_probs` of the valuation's leg (once per valuation)."""
    if "_base_codes" not in ctx.__dict__:
        ctx._base_codes = _code_probs(ctx.base)
    return ctx._base_codes


def _code_probs(leg: LegOutcomes) -> np.ndarray:
    """P(each rank code) at the end of ``leg``."""
    from .kernels.ranks import RANK_CODES

    return np.bincount(_code_of(leg), weights=leg.prob, minlength=RANK_CODES)


def _code_of(leg: LegOutcomes) -> np.ndarray:
    """The rank code of each outcome of ``leg``."""
    from .kernels.ranks import codes_of

    return codes_of(leg.ranks)
