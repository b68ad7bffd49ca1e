"""The advisor: the expected value of every legal action, ranked.

``ev`` is the expected change of the advised player's money, in coins,
caused by the action (compared with the same state without it):

* Leg scoring is valued from the **exact joint distribution** of the final
  race order of this leg (and, for tiles, of the landings on the player's
  own tile), so the money floor is applied to the whole leg payout of each
  outcome, as the rules settle it: rewards and penalties of the scoring phase
  are summed, then money stops at 0 (``max(0, money + landings + payout)``).
  A broke player's penalties are therefore partly free.
* ``leg:C``: the top tile ``v`` of colour C pays ``v`` if C is 1st, 1 if 2nd,
  -1 otherwise.  Without the floor this is ``v P(1st) + P(2nd) - P(3rd..5th)``.
* ``pyramid``: +1 coin at leg end, and nothing else changes in expectation:
  the odds before the roll are the average of the odds after it over the
  roll's outcomes, so every held bet keeps its expected value.
* ``tile:+N`` / ``tile:-N``: the expected landings on the tile (one coin
  each) with the tile's own effect on the movement, plus the change in value
  of the bets the player holds: leg tiles (exact) and overall cards on the
  piles (race odds with and without the tile, same seed and sample count, so
  the difference is not dominated by noise).
* ``winner:C`` / ``loser:C``: the card's place is the pile's current size.
  The correct cards pay 8, 5, 3, 2, 1, 1, ... in placement order, a wrong
  card costs 1.  Face-down cards of other players are modelled explicitly:
  each names camel X with probability ``q_X``, independently (default: X's
  current race probability to win, resp. to finish last; ``pile_model`` of
  the state overrides it; a card's own ``model``, e.g. inferred from the
  game's history by :mod:`advisor.bots.inference`, overrides both for that card:
  the number of earlier cards naming a camel is then a Poisson binomial).  The money floor applies as the rules settle
  it, at the race end, to the sum of all the player's overall payouts and
  the money they have then; that money is taken as the least they can make
  sure to have: this leg's settled money (exact per leg outcome) plus one
  coin per later leg played to its end before the race's last (a pyramid
  tile on their turn; with at most 5 players), the number of legs drawn
  from the race simulation (:mod:`advisor.valuation.overall` gives the model and its
  approximations).
* ``partner:P`` (2nd edition, 6-8 players): at leg scoring the player may add
  the reward of one of P's tiles (leg tile or pyramid tile, +1) to their own,
  choosing none when all are negative; valued on P's current tiles.

Extra columns: ``sd`` and ``p_loss``, the standard deviation and the
probability of a loss of the action's own payout (for a tile: its coins);
``denial``, how much the best EV available to the next player drops because
of the action (their leg tiles, pyramid and overall cards, each valued in
expectation over the dice, so the pyramid's denial is 0; when the advised
player holds no overall card, the race odds behind the next player's cards
are taken at precision 0.01).  The next player's hand is used only as far
as the state shows it: a hidden hand (a count) is modelled by
:func:`advisor.valuation.overall.hand_distribution`, and their best option is the
expectation over their possible hands of the best option in each (they
choose knowing their hand).

Figures of the leg (leg tiles, pyramid, tile placements, partnerships) are
exact: the payouts are whole coins and the outcomes carry their integer
counts of die sequences, so each expectation is summed in integers and
divided once (:meth:`LegOutcomes.moments`); an exact figure is the float
nearest to the exact fraction (the pyramid's +1 prints as 1.0).

The pieces, lowest first: :mod:`advisor.valuation.memo` (the process-wide
memo and the seeds drawn from a board), :mod:`advisor.valuation.legs` (the
leg's outcomes), :mod:`advisor.valuation.context` (the :class:`Valuation`
shared by the figures of one state, the next player's options),
:mod:`advisor.valuation.tiles` (the outcomes with each tile placement),
:mod:`advisor.valuation.onepass` (every EV and denial from those tables),
:mod:`advisor.valuation.fast` (the bots' form of the valuation,
:func:`fast_values`).  This module holds the advice itself: every figure
explained (:func:`best_moves`, :func:`evaluate`), the legal actions, and the
ranking by the chance of winning (:data:`OBJECTIVES`, :data:`WIN_TIE`); it
gives the pieces' public names too.
"""

from __future__ import annotations

from fractions import Fraction

import numpy as np

from advisor._tools.sampling import check_precision
from advisor.errors import AdvisorError, IllegalActionError
from advisor.odds.montecarlo import race_odds
from advisor.rules import turn as core
from advisor.rules.actions import Action, leg_bet_value
from advisor.rules.editions import Edition
from advisor.rules.position import Position
from advisor.rules.scoring import PYRAMID_TILE, pile_payout
from advisor.rules.state import GameState, PileCard, StateError
from advisor.rules.turn import partner_options, tile_spaces
from advisor.valuation.context import DENIAL_PRECISION, Valuation  # noqa: F401
from advisor.valuation.explain import ev_order, sort_by_ev
from advisor.valuation.fast import RACE_SAMPLES, FastValues, fast_values, shared_race_odds
from advisor.valuation.legs import LegOutcomes, weighted_moments
from advisor.valuation.onepass import one_pass
from advisor.valuation.overall import PILES
from advisor.valuation.portfolio import add_columns
from advisor.valuation.tiles import (EXACT_ROLLS, TILE_SAMPLES, TileTables, exact_tile_tables, sampled_tile_tables,
                                     tile_placements, with_tile)
from advisor.valuation.winchance import after_actions
from advisor.valuation.winerror import win_errors

# Names read here by code written before the engine was split: the one
# process-wide memo (the same object the valuation uses), the seed drawn
# from a board, the exact difference of the tile figures.
from advisor.valuation.memo import MEMO as _MEMO, seed_for as _seed  # noqa: F401
from advisor.valuation.onepass import exact_difference as _difference  # noqa: F401

__all__ = ["best_moves", "advice_table", "AdviceTable", "check_objective", "evaluate", "legal_actions", "fast_values",
           "fast_chances", "FastValues", "shared_race_odds",
           "LegOutcomes", "Valuation", "TileTables", "exact_tile_tables", "sampled_tile_tables", "pile_payout",
           "tile_spaces", "partner_options", "EXACT_ROLLS", "TILE_SAMPLES", "RACE_SAMPLES"]


# --------------------------------------------------------------------------
# Legal actions
# --------------------------------------------------------------------------


def legal_actions(state: GameState, player: int | None = None) -> list[str]:
    """Every legal action of ``player`` (default: the player to move, whose
    hand must be known: :meth:`GameState.check_player`), in a fixed order:
    leg tiles, pyramid, tiles, overall cards, partnerships (the rules core's
    :func:`advisor.rules.turn.legal_actions`, as strings)."""
    player = state.check_player(player)
    return [str(action) for action in core.legal_actions(state, player)]


# --------------------------------------------------------------------------
# The advice: every figure explained
# --------------------------------------------------------------------------


def _row(action: str, kind: str, ev: float, sd: float, p_loss: float, **extra) -> dict:
    return {"action": action, "kind": kind, "ev": ev, "sd": sd, "p_loss": p_loss, **extra}


def _value_leg(ctx: Valuation, colour: str, ev: float) -> dict:
    leg, c = ctx.base, ctx.racing.index(colour)
    value = leg_bet_value(ctx.ed, ctx.pos.legtiles[c])
    payout = leg.tile_payout(c, value)
    gain = ctx.leg_gain(("leg", c), payout)
    _, sd, p_loss = leg.moments(gain)
    p = leg.rank_probs(c)
    return _row(f"leg:{colour}", "leg", ev, sd, p_loss, value=value, p_first=p[0], p_second=p[1],
                p_rest=p[2:].sum(), floor=_mean_difference(leg, gain, payout))


def _mean_difference(leg: LegOutcomes, a: np.ndarray, b: np.ndarray | float) -> float:
    """E[a] - E[b] over ``leg`` (exact when the counts allow)."""
    b = np.broadcast_to(np.asarray(b, float), a.shape)
    return leg.mean(a - b)


def _value_pyramid(ctx: Valuation, ev: float) -> dict:
    gain = ctx.leg_gain("pyramid", PYRAMID_TILE)
    _, sd, p_loss = ctx.base.moments(gain)
    return _row("pyramid", "pyramid", ev, sd, p_loss, value=PYRAMID_TILE,
                floor=_mean_difference(ctx.base, gain, float(PYRAMID_TILE)))


def _value_card(ctx: Valuation, name: str, colour: str, player: int, pile: tuple[PileCard, ...]) -> dict:
    c = ctx.racing.index(colour)
    values, probs = ctx.card_gains(name, player, pile)
    _, sd, p_loss = weighted_moments(values[c].astype(float), probs[c])
    ev = float(ctx.card_values(name, player, pile)[c])
    p = float(ctx.overall_odds(name)[c])
    right, right_probs = ctx.right_payout(name, pile, colour, player)
    plain = p * float(right @ right_probs) + (1 - p) * ctx.ed.wrong_card
    return _row(f"{name}:{colour}", name, ev, sd, p_loss, p_first=p if name == "winner" else np.nan,
                p_rest=p if name == "loser" else np.nan, pile_place=len(pile) + 1, floor=ev - plain)


def _value_partner(ctx: Valuation, partner: int, ev: float) -> dict:
    _, sd, p_loss = ctx.base.moments(ctx.leg_gain(("partner", partner), ctx.copy_value(partner, ctx.base)))
    return _row(f"partner:{partner}", "partner", ev, sd, p_loss)


def _expect(leg: LegOutcomes, values) -> Fraction | float:
    exact = leg.exact_mean(values)
    return exact if exact is not None else float(leg.prob @ np.asarray(values, float))


def _value_tile(ctx: Valuation, space: int, sign: str, ev: float, race: bool = True) -> dict:
    """The row of a tile placement: ``ev`` (its leg figure, from the one
    pass) with the change of the player's overall cards, and the figures
    behind it from the placement's exact outcomes."""
    if (space, sign) not in ctx.tile_legs:
        # No move of this leg ends on that space: with the tile there the leg
        # unfolds exactly as without it, so it earns and changes nothing.
        return _row(f"tile:{sign}{space}", "tile", 0.0, 0.0, 0.0, landings=0.0, bets_change=0.0,
                    overall_change=0.0, floor=0.0)
    leg = ctx.tile_legs[(space, sign)]
    # every figure an exact fraction of the die sequences' counts, rounded once
    leg_ev = _expect(leg, ctx.settle(ctx.player, leg)) - _expect(ctx.base, ctx.settle(ctx.player, ctx.base))
    landings = _expect(leg, leg.landings)
    bets = _expect(leg, ctx.holdings(ctx.player, leg)) - _expect(ctx.base, ctx.holdings(ctx.player, ctx.base))
    own_before = _expect(ctx.base, ctx.base.landings)
    overall = 0.0
    own_cards = any(c.player == ctx.player and c.colour for c in ctx.state.winner_pile + ctx.state.loser_pile)
    if own_cards and not race:
        overall = np.nan  # needs the race simulation: left out of this quick valuation
    elif own_cards:
        base_race = ctx.race()
        method = "auto" if base_race.exact else "sample"
        new_race = race_odds(with_tile(ctx, space, sign), samples=base_race.samples or None,
                             precision=ctx.precision, seed=ctx.seed, method=method)
        overall = ctx.held_cards_value(new_race) - ctx.held_cards_value()
        ctx.tile_races[(space, sign)] = new_race
    _, sd, _ = leg.moments(leg.landings)
    return _row(f"tile:{sign}{space}", "tile", ev + (0.0 if np.isnan(overall) else overall), sd, 0.0,
                landings=float(landings), bets_change=float(bets), overall_change=overall,
                floor=float(leg_ev - (landings - own_before) - bets))


def _advice_rows(ctx: Valuation, actions, denial: bool, race: bool = True) -> list[dict]:
    """The rows of ``actions``: the one pass over the exact tables gives
    every EV and denial, the rows explain them."""
    tables = None
    actions = [Action.parse(a) for a in actions]
    placements = tile_placements(ctx, actions)
    if placements:
        tables = exact_tile_tables(ctx, placements)
    ev, den, _ = one_pass(ctx, actions, tables, denial)
    out = []
    for i, action in enumerate(actions):
        kind, value = action.kind, float(ev[i])
        if kind == "leg":
            row = _value_leg(ctx, action.colour, value)
        elif kind == "pyramid":
            row = _value_pyramid(ctx, value)
        elif kind == "tile":
            row = _value_tile(ctx, action.space, action.sign, value, race)
        elif kind in PILES:
            row = _value_card(ctx, kind, action.colour, ctx.player, ctx.pile(kind))
        else:
            row = _value_partner(ctx, action.partner, value)
        row["denial"] = float(den[i])
        out.append(row)
    return out


# --------------------------------------------------------------------------
# Public entry points
# --------------------------------------------------------------------------


#: What :func:`best_moves` ranks by: the chance of winning the game, or EV.
OBJECTIVES = ("win", "ev")
#: Win chances closer than this count as level: the EV ranks them.
WIN_TIE = 1e-3


def check_objective(objective: str) -> str:
    """``objective`` if the advice can rank by it (:data:`OBJECTIVES`)."""
    if objective not in OBJECTIVES:
        raise AdvisorError(f"objective must be one of {', '.join(OBJECTIVES)}, not {objective!r}")
    return objective


def win_order(win, ev) -> np.ndarray:
    """The order of rows with chances of winning ``win`` and EVs ``ev``
    best first: by the chance (chances within :data:`WIN_TIE` of each
    other by EV, exact ties in the order given)."""
    key = np.round(np.asarray(win, dtype=float) / WIN_TIE)
    return np.lexsort((-np.asarray(ev, dtype=float), -key))  # stable: the order given breaks exact ties


def rank_rows(frame):
    """The advice's rows best first: by the chance of winning when the
    frame has a ``win`` column (:func:`win_order`), else by EV
    (:func:`advisor.valuation.explain.sort_by_ev`)."""
    if "win" not in frame.columns:
        return sort_by_ev(frame)
    return frame.iloc[win_order(frame["win"].to_numpy(), frame["ev"].to_numpy())].reset_index(drop=True)


def _number(value) -> bool:
    return isinstance(value, (int, float, np.integer, np.floating)) and not isinstance(value, (bool, np.bool_))


def _column_kind(values: list, rows: int):
    """How a column's values read back from a DataFrame: a column of
    numbers in float (int when every row has an integer), other values as
    they are."""
    if not values or not all(_number(v) for v in values):
        return lambda value: value
    if len(values) == rows and all(isinstance(v, (int, np.integer)) for v in values):
        return int
    return float


class AdviceTable:
    """The advice of :func:`advice_table`: one row (a dict) per legal
    action, best first, and the figures about the whole (``attrs``), as
    :func:`best_moves`'s DataFrame holds them (:meth:`frame`).  The command
    line's text and JSON read it as they read that frame (``attrs``,
    ``columns``, ``to_dict(orient="records")``), without importing pandas
    (0.3 s of ``camelup best``'s start)."""

    def __init__(self, rows: list[dict], attrs: dict):
        self.rows = rows
        self.attrs = attrs
        self.columns = tuple(dict.fromkeys(key for row in rows for key in row))  # as pandas orders them

    def to_dict(self, orient: str = "records") -> list[dict]:
        """The rows, each with every column (NaN where a row has none),
        as ``frame().to_dict(orient="records")`` gives them."""
        if orient != "records":
            raise ValueError(f"an advice table gives its rows as records only, not {orient!r}")
        kinds = {c: _column_kind([row[c] for row in self.rows if c in row], len(self.rows)) for c in self.columns}
        return [{c: kinds[c](row[c]) if c in row else np.nan for c in self.columns} for row in self.rows]

    def frame(self):
        """The rows as a pandas DataFrame (its ``attrs`` these ``attrs``)."""
        import pandas as pd

        frame = pd.DataFrame(self.rows)
        frame.attrs.update(self.attrs)
        return frame


def best_moves(state: GameState | Position | str, player: int | None = None, *, precision: float = 0.002,
               seed: int | None = None, denial: bool = True, race: bool = True, rules: Edition | None = None,
               objective: str = "win", chances: bool = False):
    """Every legal action of ``player`` (default: the player to move) with
    its EV and the figures behind it, as a pandas DataFrame, best first.
    A bare position gets the defaults of
    :meth:`GameState.from_board` (stated in ``frame.attrs["assumptions"]``).

    ``objective="win"`` (default): a column ``win``, the player's chance of
    winning the game after the action (:func:`advisor.valuation.winchance.after_actions`),
    the rows sorted by it (chances within :data:`WIN_TIE` of each other
    by EV), ``frame.attrs["win_now"]`` the chance before acting; a column
    ``win_se`` and ``frame.attrs["win_now_se"]``, their standard errors
    from the sampling of the race odds (0 when those are exact:
    :func:`advisor.valuation.winerror.win_errors`).
    ``objective="ev"``: the rows sorted by EV (highest first), no ``win``
    column.  ``frame.attrs["objective"]`` says which ranked the rows; the
    quick half (``race=False``) has no race odds and is ranked by EV.
    ``chances=True``: the ``win`` column and ``win_now`` under either
    objective (the rows ranked as ``objective`` says).

    ``race=False`` gives the quick half of the advice, everything valued
    without the race simulation: the leg tiles, the pyramid, the tiles and
    the partnerships, with ``denial`` NaN (the next player's overall cards
    need race odds) and, when the player has cards on the overall piles,
    a tile's ``overall_change`` NaN and left out of its ``ev``.  The overall
    cards are not listed.

    ``rules``: a rule variant (:meth:`Edition.with_rules`) to read a board
    string under; a game state or position carries its own rules (given
    ``rules`` must then be the same)."""
    return advice_table(state, player, precision=precision, seed=seed, denial=denial, race=race, rules=rules,
                        objective=objective, chances=chances).frame()


def advice_table(state: GameState | Position | str, player: int | None = None, *, precision: float = 0.002,
                 seed: int | None = None, denial: bool = True, race: bool = True, rules: Edition | None = None,
                 objective: str = "win", chances: bool = False) -> AdviceTable:
    """:func:`best_moves`'s advice (same arguments, same rows and attrs) as
    an :class:`AdviceTable`: what the command line prints, without pandas."""
    check_objective(objective)
    state, assumptions = as_state(state, rules)
    player = state.check_player(player)
    ctx = Valuation(state, player, check_precision(precision), seed)
    actions = core.legal_actions(state, player)
    extra = {}
    if race:
        rows = _advice_rows(ctx, actions, denial)
        placements = tuple(ctx.tile_legs)
        orders = exact_tile_tables(ctx, placements).orders if placements else None
        extra = add_columns(ctx, rows, orders, placements, seed=ctx.seed)
    else:
        rows = _advice_rows(ctx, [a for a in actions if a.kind not in PILES], False, race=False)
        for row in rows:
            row["denial"] = np.nan
    if race and (objective == "win" or chances):
        now, after = after_actions(ctx, [r["ev"] for r in rows], [r["sd"] for r in rows], [r.get("cov") for r in rows])
        now_se, se = win_errors(ctx, rows)
        for row, win, err in zip(rows, after, se):
            row["win"] = float(win)
            row["win_se"] = float(err)
        extra["win_now"] = now
        extra["win_now_se"] = now_se
    if not race:
        objective = "ev"
    ev = [row["ev"] for row in rows]
    order = win_order([row["win"] for row in rows], ev) if objective == "win" and "win" in rows[0] else ev_order(ev)
    return AdviceTable([rows[i] for i in order], dict(
        position=str(state.position), player=player, assumptions=assumptions, seed=ctx.seed,
        race_samples=ctx.race_samples, objective=objective, **extra,
    ))


def fast_chances(values: FastValues) -> tuple[float, np.ndarray]:
    """``(now, after)``: the chance of winning of the player of a fast
    valuation (:func:`fast_values`) now and after each of its actions (in
    ``values.actions`` order): the advice's win model
    (:func:`advisor.valuation.winchance.after_actions`, as the ``win`` column
    of :func:`best_moves`) on the fast EVs, each action's spread and
    covariance with the held bets as ``best_moves`` computes them (``sd``,
    ``cov``), all on the fast valuation's own context (its leg tables, race
    odds and seed: no second valuation of the state).  Where the fast EVs
    are ``best_moves``'s (module :mod:`advisor.valuation.fast`) and the seeds
    agree, so are the chances."""
    ctx = values.context
    rows = _advice_rows(ctx, values.actions, False, race=False)  # the spreads (race=False: no race per tile)
    placements = tuple(ctx.tile_legs)
    orders = exact_tile_tables(ctx, placements).orders if placements else None
    for row, ev in zip(rows, values.ev):
        row["ev"] = float(ev)
    add_columns(ctx, rows, orders, placements, seed=ctx.seed)
    return after_actions(ctx, values.ev, [r["sd"] for r in rows], [r["cov"] for r in rows])


def evaluate(state: GameState | Position | str, action: str, player: int | None = None, *,
             precision: float = 0.002, seed: int | None = None, denial: bool = True,
             rules: Edition | None = None) -> dict:
    """The valuation of one action (a row of :func:`best_moves`)."""
    state, _ = as_state(state, rules)
    player = state.check_player(player)
    legal = legal_actions(state, player)
    if action not in legal:
        raise IllegalActionError(
            f"{action!r} is not a legal action for player {player} here (legal: {', '.join(legal)})"
        )
    return _advice_rows(Valuation(state, player, check_precision(precision), seed), [action], denial)[0]


def as_state(state, rules: Edition | None = None) -> tuple[GameState, list[str]]:
    if isinstance(state, GameState):
        if rules is not None and state.position.rules != rules:
            raise StateError("rules", "the game state is under other rules than those given")
        return state, []
    st = GameState.from_board(state, rules=rules)
    return st, [
        f"{st.n_players} players; the advised player is player 0, to move",
        f"every player: money {st.rules.start_money}, no leg tiles or pyramid tiles, all five overall cards in hand, "
        "no partner",
        "overall piles empty; leg tiles as on the board (legtiles:) or full stacks",
    ]

