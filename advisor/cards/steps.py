"""Camel Up Cards advice step by step, as the engine takes a turn: one
action at a time.

:func:`~advisor.cards.best.cards_best` values whole turns (a race action
with at most one bet before or after it); the engine
(:mod:`advisor.cards.game`) and a game record take a turn's actions one by
one.  :func:`step_advice` gives the advice for the step a player is at
(``camelup best CARDS.jsonl --turn T``, ``camelup play``'s ``best``), and
:func:`step_values` values every legal action of that step (``camelup
review``):

* at a turn's start, an action is valued with the best way to finish the
  turn after it (within the turn the player decides again, and a review
  values that decision on its own): a bet ``X`` is the best of the turns
  taking ``X`` first (``X+reveal``, or ``R+X`` for a hand card or a figure,
  whose value is the same either way); ``reveal`` is ``reveal+best`` (the
  bet best on the card seen, if any); a hand card or a figure ``R`` is the
  best of ``R`` alone and ``R+X``;
* once the bet is taken: the race actions, the bet held;
* once the race action is played: the bets at the odds now, or ``pass``.

Each action's ``own`` value is what the action itself adds, the rest of the
turn aside: a bet at the odds now (``X+reveal``: a reveal is worth nothing
by itself in the model, the deck being revealed anyway), a race action
alone, 0 for ``pass``.  All values are from the player's view
(:meth:`~advisor.cards.game.CardsState.view`: their own cards, nothing
hidden from them) and are changes of the player's expected money against
the position as it stands, as ``cards_best`` gives them.

Each action's ``win`` is the player's chance of winning the game after it,
from the same view, as ``cards_best(..., chances=True)`` gives it for whole
turns (advisor.cards.endgame, the other players' money and bets and the
leg from the table): at a turn's start the highest chance among the whole
turns starting with the action (the turns ``ev`` is the best of by EV:
the two may come from different turns); once the bet is taken or the race
action played, the action's own chance (the race action ends the turn; a
bet at the odds now, or ``pass``).
"""

from __future__ import annotations

import dataclasses

from advisor.cards.best import cards_best, rank_turns
from advisor.errors import AdvisorError
from advisor.cards.game import CardsState, legal_actions
from advisor.cards.odds import ADVICE_OTHERS
from advisor.valuation.explain import sort_by_ev

__all__ = ["step_advice", "step_values"]


def _turn_start(state: CardsState, player: int) -> bool:
    return player != state.current or not (state.raced or state.bet)


def step_advice(state: CardsState, player: int, *, seed: int | None = 0, precision: float = 0.002,
                others: str = ADVICE_OTHERS, progress: bool | None = None, objective: str = "ev",
                chances: bool = False):
    """The advisor's ranking for ``player`` from their view of ``state``
    (:meth:`~advisor.cards.game.CardsState.view`, then its position: their
    cards and holdings, nothing hidden from them), for the step of the turn
    they are at: whole turns (:func:`~advisor.cards.best.cards_best`);
    once the player to act has taken a bet, the race actions; once they
    have played their race action, the bets at the odds now or ``pass``
    (``timing`` ``now``).  A pandas DataFrame as ``cards_best`` gives,
    best first, with its ``attrs``; ranked by ``objective`` (``"win"``:
    the chance of winning, the other players' money and bets and the leg
    from the table; ``chances``: that chance under either objective, as
    ``cards_best``'s)."""
    import pandas as pd

    if state.phase != "turn":
        raise AdvisorError(f"leg {state.leg}'s race deck is being built: the advice comes with the leg's turns")
    view = state.view(player)
    pos = view.position(player)
    if player != state.current and pos.next == 1:  # they just played: advice as if it were their turn
        pos = dataclasses.replace(pos, next=0)
    n = state.setup.players
    rivals = [view.players[(player + k) % n] for k in range(1, n)]
    frame = cards_best(pos, seed=seed, precision=precision, others=others, progress=progress, objective=objective,
                       chances=chances, rivals=rivals, leg=state.leg)
    if _turn_start(state, player) or state.raced:
        return frame  # whole turns; once the race action is played (next:1), the bets now and pass
    # the bet is taken: the race action
    rows = [{**r, "action": r["race"], "bet": "", "timing": ""} for r in frame.to_dict(orient="records")
            if not r["bet"]]
    out = sort_by_ev(pd.DataFrame(rows, columns=list(frame.columns)))
    out.attrs.update(frame.attrs)
    return rank_turns(out, objective)


def _first_steps(row) -> tuple[str, ...]:
    """The actions a whole turn of ``cards_best`` may start with: the bet
    of a bet taken before the reveal (``before``); either action of a hand
    card or a figure with a bet (``either``: the same value in either
    order, so the turn counts for the bet taken first and for the race
    action played first); else the race action."""
    if row.bet and row.timing == "either":
        return row.bet, row.race
    return (row.bet,) if row.bet and row.timing == "before" else (row.race,)


def step_values(state: CardsState, *, seed: int | None = 0, precision: float = 0.002, others: str = ADVICE_OTHERS):
    """Every legal action of the player to act at this step of ``state``,
    valued from their view (module text): a pandas DataFrame, best first,
    with columns ``action``, ``ev`` (the action with the best way to finish
    the turn after it), ``own`` (what the action itself adds), ``turn``
    (the whole turn behind ``ev``, as ``cards_best`` names it) and ``win``
    (the chance of winning the game after the action: at a turn's start
    the highest chance among the whole turns starting with it, the same
    turns ``ev`` takes the best of by EV, so the two may come from
    different turns; once the bet is taken or the race action played, that
    action's chance).  Its ``attrs`` are those of the
    ``cards_best`` frame behind it (position, seed, race odds, ``win_now``)."""
    import pandas as pd

    player = state.current
    frame = step_advice(state, player, seed=seed, precision=precision, others=others, progress=False, chances=True)
    legal = [str(a) for a in legal_actions(state)]
    best: dict[str, tuple[float, str]] = {}
    own: dict[str, float] = {}
    win: dict[str, float] = {}
    if _turn_start(state, player):
        for r in frame.itertuples():
            for first in _first_steps(r):
                if first not in best or r.ev > best[first][0]:
                    best[first] = (float(r.ev), r.action)
                win[first] = max(win.get(first, 0.0), float(r.win))
            if r.bet and r.timing == "before":
                own[r.bet] = float(r.ev)  # the bet at the odds now (a reveal adds nothing)
            elif not r.bet:
                own[r.race] = float(r.ev)  # the race action alone
    else:
        for r in frame.itertuples():
            best[r.action] = (float(r.ev), r.action)
            own[r.action] = float(r.ev)
            win[r.action] = float(r.win)
    missing = [a for a in legal if a not in best]
    if missing:
        raise AdvisorError(f"the advice does not value the legal action(s) {', '.join(missing)} "
                           f"at {frame.attrs['position']}")
    rows = [{"action": a, "ev": best[a][0], "own": own.get(a, 0.0), "turn": best[a][1], "win": win[a]}
            for a in legal]
    out = sort_by_ev(pd.DataFrame(rows, columns=["action", "ev", "own", "turn", "win"]))
    out.attrs.update(frame.attrs)
    return out
