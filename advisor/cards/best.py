"""Camel Up Cards advice played to win: every legal turn with its EV
(:func:`advisor.cards.advice.cards_turns`) and the advised player's chance
of winning the game after it (:func:`advisor.cards.endgame.turn_win_chances`,
the ``margin`` bot's model), ranked by either, as the board game's advice
(:func:`advisor.valuation.engine.best_moves`) ranks its actions.
"""

from __future__ import annotations

from advisor.cards.advice import TurnRows, cards_turns
from advisor.cards.endgame import spread_for, turn_win_chances
from advisor.cards.game import CardsPlayer
from advisor.cards.odds import ADVICE_OTHERS
from advisor.cards.position import START_MONEY, CardsPosition, parse_cards
from advisor.valuation.engine import check_objective, rank_rows

__all__ = ["cards_best", "rank_turns"]


def cards_best(position: CardsPosition | str, *, seed: int | None = None, others: str = ADVICE_OTHERS,
               precision: float = 0.002, progress: bool | None = None, objective: str = "win",
               chances: bool = False, rivals=None, leg: int | None = None):
    """Every legal turn (race action and optional bet) with its EV, as a
    pandas DataFrame, best first: the rows, figures and ``attrs`` of
    :func:`advisor.cards.advice.cards_turns` (seed, others, precision and
    progress as there).

    ``objective="win"`` (default): a column ``win``, the advised player's
    chance of winning the game after the turn (every other player weighed,
    :func:`advisor.cards.endgame.turn_win_chances` with the spread of the
    leg, :func:`~advisor.cards.endgame.spread_for`), the rows sorted by it
    (chances within :data:`~advisor.valuation.engine.WIN_TIE` of each other
    by EV), ``.attrs["win_now"]`` the chance of the position as it stands
    (the turn every EV is measured from: ``reveal`` alone, or ``pass`` once
    the race action is played).  ``objective="ev"``: the rows sorted by EV
    (highest first), no ``win`` column.  ``chances=True``: the ``win``
    column and ``win_now`` under either objective.  ``rivals``: the other
    players' money and bets (:class:`~advisor.cards.game.CardsPlayer`;
    default: each with the start money and no bets) and ``leg`` the leg
    being played (default 1); the defaults taken are listed in
    ``.attrs["assumptions"]``.  ``.attrs["objective"]`` says which ranked
    the rows."""
    check_objective(objective)
    if isinstance(position, str):
        position = parse_cards(position)
    _check_game(position, rivals, leg)
    frame, turns = cards_turns(position, seed=seed, others=others, precision=precision, progress=progress)
    if objective == "win" or chances:
        _add_chances(frame, turns, rivals, leg)
    return rank_turns(frame, objective)


def _check_game(pos: CardsPosition, rivals, leg: int | None) -> None:
    """Refuse (``ValueError`` naming the argument) rivals that are not one
    per other player and a leg below 1, before anything is computed."""
    if rivals is not None and len(rivals) != pos.players - 1:
        raise ValueError(f"rivals: one per other player, {pos.players - 1} for {pos.players} players "
                         f"(given {len(rivals)})")
    if leg is not None and leg < 1:
        raise ValueError(f"leg: the leg being played, 1 or more (given {leg})")


def _add_chances(frame, turns: TurnRows, rivals, leg: int | None) -> None:
    """The column ``win`` of :func:`cards_best`'s ``frame`` and its
    ``attrs`` ``win_now``, ``spread`` and ``assumptions`` (the defaults
    taken for ``rivals`` and ``leg``)."""
    assumptions = []
    if rivals is None:
        rivals = [CardsPlayer(money=START_MONEY)] * (turns.pos.players - 1)
        assumptions.append(f"the other players hold {START_MONEY} coins and no bets")
    if leg is None:
        leg = 1
        assumptions.append("leg 1 is being played")
    spread = spread_for(leg)
    win = turn_win_chances(turns, turns.pos, rivals, spread)
    frame["win"] = [win[a] for a in frame["action"]]
    frame.attrs.update(win_now=win.get("reveal", win.get("pass", float("nan"))), spread=spread,
                       assumptions=assumptions)


def rank_turns(frame, objective: str):
    """:func:`cards_best`'s rows (sorted by EV) ranked by ``objective``
    (``"win"``: by the ``win`` column, EV breaking near-ties, as the board
    game's advice ranks, :func:`advisor.valuation.engine.rank_rows`), with
    ``attrs["objective"]``."""
    attrs = dict(frame.attrs)
    if objective == "win":
        frame = rank_rows(frame)
    frame.attrs.update(attrs, objective=objective)
    return frame
