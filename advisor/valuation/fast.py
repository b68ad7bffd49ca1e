"""The bots' form of the valuation: :func:`fast_values`, the EV of every
legal action in one pass.

:func:`advisor.best_moves` explains every figure (a DataFrame row per action,
risk columns, exact tile enumerations, race odds per tile placement).  A bot
needs only the EV of each action, thousands of times per tournament.
:func:`fast_values` computes the same EVs, by the same formulas (the money
floor on each outcome's whole leg payout, the pile model of the overall
cards), for all actions at once:

* the leg's outcomes without a new tile: exact, as in ``best_moves``;
* the outcomes with each tile placement: one kernel call for all placements,
  exact when at most :data:`~advisor.valuation.tiles.EXACT_ROLLS` rolls are
  left in the leg, otherwise :data:`~advisor.valuation.tiles.TILE_SAMPLES`
  sampled legs with common random numbers (every placement replays the same
  rolls);
* race odds (overall cards): :func:`advisor.race_odds` at ``precision``;
* the change a tile makes to the player's overall cards on the piles:
  :data:`RACE_SAMPLES` races with common random numbers for all placements
  at once, instead of one race-odds run per placement.

Both views run one pass (:func:`advisor.valuation.onepass.one_pass`) over
the same tables: the leg's outcomes as they stand, and the outcomes with
each tile placement (:class:`~advisor.valuation.tiles.TileTables`), which
``best_moves`` takes from an exact enumeration per placement
(:func:`~advisor.valuation.tiles.exact_tile_tables`) and the bots from the
candidate kernel (:func:`~advisor.valuation.tiles.sampled_tile_tables`).
The denial figure of both is the next player's best option on those tables
(``_NextPlayer`` of :mod:`advisor.valuation.context`).  In the exact cases
(no more than :data:`~advisor.valuation.tiles.EXACT_ROLLS` rolls left, no
own overall card on a pile) every EV and denial figure of ``fast_values``
is ``best_moves``'s float, bit for bit (both round the same exact
fractions); the tests check this.  Overall cards are valued by the same
function as in ``best_moves`` (``Valuation.card_gains``: the pile model,
the money floor at the race end), and another player's hidden hand by the
same model (``Valuation.hand_model``), so a bot uses only what its view
shows.  Results are a pure function of the state: the seeds derive from the
board, so repeated boards are served from a small memo
(:mod:`advisor.valuation.memo`) and a game gives the same moves whether or
not the memo is hit.

This module holds :func:`fast_values` and its result :class:`FastValues`,
the race odds it values the overall cards with (:func:`shared_race_odds`)
and the change a tile makes to the player's overall cards
(:data:`RACE_SAMPLES` races).
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from advisor._tools.sampling import check_precision
from advisor.odds.exact import as_position
from advisor.odds.montecarlo import race_odds
from advisor.rules import turn as core
from advisor.rules.state import GameState
from advisor.valuation.context import Valuation
from advisor.valuation.legs import LegOutcomes
from advisor.valuation.memo import MEMO, board_key_of, seed_for
from advisor.valuation.onepass import fill_rivals, one_pass
from advisor.valuation.tiles import TileTables, sampled_tile_tables, tile_arrays, tile_placements

__all__ = ["FastValues", "fast_values", "shared_race_odds", "RACE_SAMPLES"]


# --------------------------------------------------------------------------
# The one pass for bots
# --------------------------------------------------------------------------


#: Races (common random numbers) behind the change of the overall cards.
RACE_SAMPLES = 300


@dataclass(frozen=True)
class FastValues:
    """EV of each legal action (``actions[i]`` is worth ``ev[i]`` coins);
    ``denial[i]``: the drop of the next player's best EV; ``rivals[i]``: the
    mean expected gain of the other players (see :func:`advisor.valuation.onepass.fill_rivals`); both zeros
    unless asked; ``gains[q]`` (with ``rivals``): each other player ``q``'s
    own expected gain per action (``rivals`` is their mean), ``None`` for
    the advised player and unless asked."""

    actions: list[str]
    ev: np.ndarray
    denial: np.ndarray
    rivals: np.ndarray
    #: the valuation behind the figures and the tile placements' tables (for
    #: views built on the same figures, e.g. :mod:`advisor.valuation.portfolio`)
    context: "Valuation | None" = field(default=None, repr=False, compare=False)
    tables: "TileTables | None" = field(default=None, repr=False, compare=False)
    gains: "list[np.ndarray | None] | None" = field(default=None, repr=False, compare=False)

    def scores(self, denial_weight: float = 0.0, rivals_weight: float = 0.0) -> np.ndarray:
        """Per action, ``ev + denial_weight * denial - rivals_weight * rivals``."""
        return self.ev + denial_weight * self.denial - rivals_weight * self.rivals

    def best(self, denial_weight: float = 0.0, rivals_weight: float = 0.0) -> str:
        """The action with the highest :meth:`scores` (the first in
        :func:`~advisor.valuation.engine.legal_actions` order on ties)."""
        return self.actions[int(np.argmax(self.scores(denial_weight, rivals_weight)))]


def shared_race_odds(position, precision: float = 0.02):
    """The race odds :func:`fast_values` values the overall cards with on
    ``position`` at ``precision``: seeded from the board, memoized, so every
    caller on the same board (a bot's decision, a game review's valuation)
    gets the same figures, computed once per process."""
    pos = as_position(position)
    precision = check_precision(precision)
    key = board_key_of(pos)
    return MEMO.get(("race", key, precision), lambda: race_odds(pos, precision=precision, seed=seed_for(key)))


def fast_values(state: GameState, player: int | None = None, *, precision: float = 0.02,
                denial: bool = False, rivals: bool = False) -> FastValues:
    """EV of every legal action of ``player`` (default: the one to move), in
    :func:`~advisor.valuation.engine.legal_actions` order; ``precision``: of the race odds behind the
    overall cards (95% half-width); ``denial``, ``rivals``: fill those
    figures (``rivals`` needs and implies ``denial``).  The one pass of
    :func:`~advisor.valuation.engine.best_moves` over the candidate kernel's
    tile tables (:func:`~advisor.valuation.tiles.sampled_tile_tables`) instead of the exact ones."""
    from advisor.rules.encode import encode

    precision = check_precision(precision)
    player = state.check_player(player)
    pos = state.position
    enc = encode(pos)
    board_key = board_key_of(pos)
    own = state.own_tile(player)
    track = own.space if own else 0
    # (the outcomes carry the rules whose payouts apply: a variant is part of the key)
    base = MEMO.get(("leg", board_key, track, pos.rules), lambda: LegOutcomes.of(pos, track))
    ctx = Valuation(state, player, precision, seed_for(board_key), base=base, board_key=board_key)
    parsed = core.legal_actions(state, player)
    actions = [str(a) for a in parsed]
    placements = tile_placements(ctx, parsed)
    tables = sampled_tile_tables(ctx, enc, placements) if placements else None
    ev, den, tile_rows = one_pass(ctx, parsed, tables, denial or rivals)
    riv = np.zeros(len(actions))
    gains = None
    if rivals:
        tile_probs = tables.code_counts / tables.totals[:, None] if tables is not None else None
        gains = [None] * state.n_players
        fill_rivals(ctx, enc, {a: i for i, a in enumerate(actions)}, riv, den, tile_probs, tile_rows, gains)
    if tables is not None:
        cards = ctx.placed_cards()
        if cards:
            stripped, sp, sg = tile_arrays(ctx, enc, placements)
            ev[tile_rows] += _overall_change(ctx, enc, board_key, stripped, sp, sg, cards)
    return FastValues(actions, ev, den, riv, ctx, tables, gains)


def _overall_change(ctx: Valuation, enc, board_key, stripped, sp, sg, cards) -> np.ndarray:
    """Per placement, the change of the EV of the player's overall cards."""
    from advisor.rules.encode import full_pyramid
    from advisor.kernels.board.candidates import candidate_races

    key = ("races", board_key, stripped.tobytes(), sp.tobytes(), sg.tobytes())

    def compute():
        ed = ctx.ed
        win = np.zeros((sp.size, 5), np.int64)
        lose = np.zeros((sp.size, 5), np.int64)
        candidate_races(enc.board, enc.dice, enc.rolls, enc.tiles, stripped, sp, sg, RACE_SAMPLES,
                        seed_for(key), full_pyramid(ed), ed.rolls_per_leg, win, lose)
        return {"winner": win / RACE_SAMPLES, "loser": lose / RACE_SAMPLES}

    odds = MEMO.get(key, compute)
    change = np.zeros(sp.size)
    for name, c, right in cards:
        change += (right - ctx.ed.wrong_card) * odds[name][:, c]
    return change

