"""The figures behind an action's EV, as one line of text (``camelup best``'s
``details`` column, a game review's ``details`` and ``best_details``)."""

from __future__ import annotations

import numpy as np

__all__ = ["action_details", "ev_order", "sort_by_ev", "EV_TIE"]


def action_details(row: dict) -> str:
    """The figures behind one action's EV (a row of :func:`advisor.best_moves`)
    as one line: the ``details`` column of ``camelup best`` and of a game
    review."""
    kind = row["kind"]
    floor = f"; money floor {row['floor']:+.3f}" if abs(row.get("floor", 0) or 0) > 5e-4 else ""
    if kind == "leg":
        return (f"tile {int(row['value'])}: P(1st) {100 * row['p_first']:.1f}%, P(2nd) {100 * row['p_second']:.1f}%, "
                f"P(3rd-5th) {100 * row['p_rest']:.1f}%{floor}")
    if kind == "pyramid":
        return f"+1 coin at leg end{floor}"
    if kind == "tile":
        out = f"landings {row['landings']:.3f}, held leg bets {row['bets_change']:+.3f}"
        if row["overall_change"]:
            out += f", overall cards {row['overall_change']:+.3f}"
        return out + floor
    if kind in ("winner", "loser"):
        p = row["p_first"] if kind == "winner" else row["p_rest"]
        word = "wins" if kind == "winner" else "finishes last"
        return f"P({word}) {100 * p:.1f}%, card #{int(row['pile_place'])} on the pile{floor}"
    return f"copy the partner's best tile at leg end{floor}"


#: EVs closer than this are ties: their order is the order of the legal
#: actions, not the last bits of floating-point sums.
EV_TIE = 1e-9


def ev_order(ev) -> np.ndarray:
    """The order of rows with EVs ``ev`` best first: EVs within
    :data:`EV_TIE` keep the order the rows were given in."""
    key = np.round(np.asarray(ev, dtype=float) / EV_TIE)
    return np.argsort(-key, kind="stable")


def sort_by_ev(frame):
    """``frame`` (one row per action, an ``ev`` column) sorted best first
    (:func:`ev_order`)."""
    return frame.iloc[ev_order(frame["ev"].to_numpy())].reset_index(drop=True)
