"""The sampling error of the chance of winning: how far the advice's
``win`` figures (:mod:`advisor.valuation.winchance`) move with the Monte
Carlo error of the race odds they read.

**What is sampled.**  The leg's figures are exact; the race odds are
simulated unless the race must end soon (:func:`advisor.odds.montecarlo.race_odds`).
They are the mean of ``R`` independent replicates, so the estimate
``theta`` = (P(win) per camel, P(last) per camel, P(the race ends ``k``
legs on) per ``k``) has covariance ``Sigma = Cov_r(theta_r) / R`` from the
replicates' own estimates ``theta_r``, win, last and legs together (the
same races give all three).  From them the advice reads: every player's
expected wealth ``W_q`` (their overall cards on the piles, the pile model),
the legs left ``L`` (every player's spread), each overall card's EV and
spread, and a tile's change of the player's own overall cards
(``overall_change``: the race odds with the tile, a second simulation,
minus those without it).

**The delta method.**  The chance of the advised player ``p`` after an
action ``i`` is ``F(W + ev_i e_p, x_i, L)`` (:meth:`WinModel.of`, ``x_i =
sd_i^2 + 2 cov_i`` the variance the action adds), so to first order its
error is

    dF_i = sum_q dF/dW_q dW_q + dF/dW_p d ev_i + dF/dx d(sd_i^2) + dF/dL dL

with the model's own derivatives (:meth:`WinModel.of_gradient`:
:func:`advisor.valuation.winchance.chance_gradient` by the chain rule).
Each of ``dW_q, d ev_i, d(sd_i^2), dL`` is linear in the error of
``theta`` near ``theta``; rather than write each of those derivatives out
through the card valuation, the figures are recomputed with ``theta``
moved along the principal axes of ``Sigma`` (eigenvalues ``lam_k``,
vectors ``e_k``) by ``+-h sqrt(lam_k) e_k`` and differenced: ``D_k = (f(+)
- f(-)) / 2h`` is the figure's error along axis ``k``, in standard
errors, the axes independent, so

    se(F_i)^2 = sum_k (grad F_i . D_k)^2

(``= grad F^T J Sigma J^T grad F``, ``J`` the figures' Jacobian: the delta
method exactly, for figures linear in the odds, which the card EVs are
away from the money floor's kinks).  A tile's second simulation adds its
own axes, taken as independent of the first (they share a seed, not the
draws: when the common seed correlates them, the error of the difference
is smaller and this is an upper bound).  The chance now is ``F(W, 0, L)``
with the player to move (their ``tau``), the same way.

**What is left out.**  The covariances of the portfolio (``cov``, from a
separate sample of 40,000 races per board) move the added variance by
little: a card's ``cov`` changes the chance through ``dF/dx`` alone, an
order smaller than its EV's error, and is taken as exact.  And this is the
error of the inputs alone, not of the model: how far the model's chances
are from the share of games won (calibration on held-out games,
``python benchmarks/calibration.py``) is a separate, larger error.
"""

from __future__ import annotations

import dataclasses

import numpy as np

from advisor.valuation.legs import weighted_moments
from advisor.valuation.overall import PILES
from advisor.valuation.standing import legs_left, standings
from advisor.valuation.winchance import WinModel, load

__all__ = ["race_directions", "win_errors", "STEP"]

#: The step ``h`` of the central differences, in standard errors (the
#: figures are close to linear in the odds: any small step gives the same).
STEP = 0.1


def race_directions(race, step: float = STEP) -> list[tuple[object, object]]:
    """``(plus, minus)`` race odds moved by ``+-step`` standard errors along
    each principal axis of the sampling covariance of (P(win), P(last),
    P(legs)) (module text); none for exact odds."""
    if race.exact or race.replicate_rank is None or race.replicates < 2:
        return []
    n = race.rank.shape[0]
    theta = np.concatenate([race.replicate_rank[:, :, 0], race.replicate_rank[:, :, -1], race.replicate_legs], axis=1)
    cov = np.atleast_2d(np.cov(theta, rowvar=False, ddof=1)) / theta.shape[0]
    lam, vec = np.linalg.eigh(cov)
    out = []
    for k in np.nonzero(lam > max(lam.max(), 0.0) * 1e-12)[0]:
        delta = step * np.sqrt(lam[k]) * vec[:, k]
        pair = []
        for sign in (1.0, -1.0):
            rank = race.rank.copy()
            rank[:, 0] += sign * delta[:n]
            rank[:, -1] += sign * delta[n:2 * n]
            pair.append(dataclasses.replace(race, rank=rank, legs=race.legs + sign * delta[2 * n:]))
        out.append(tuple(pair))
    return out


def _with_race(ctx, race):
    """A valuation of ``ctx``'s state on the same leg with ``race`` as its
    race odds (every cache fresh)."""
    clone = type(ctx)(ctx.state, ctx.player, ctx.precision, ctx.seed, base=ctx.base)
    clone._race = race
    clone.tile_races = ctx.tile_races
    return clone


def _figures(ctx, rows) -> tuple[np.ndarray, float, np.ndarray, np.ndarray]:
    """``(W, L, ev, var)``: the figures of the advice that read the race
    odds, at ``ctx``: every player's expected wealth, the legs left, and
    per row the part of its EV and of its own variance that reads them (0
    where none does)."""
    n_rows = len(rows)
    ev, var = np.zeros(n_rows), np.zeros(n_rows)
    for i, row in enumerate(rows):
        kind, action = row["kind"], row["action"]
        if kind in PILES:
            colour = action.split(":")[1]
            c = ctx.racing.index(colour)
            values, probs = ctx.card_gains(kind, ctx.player, ctx.pile(kind))
            ev[i] = float(ctx.card_values(kind, ctx.player, ctx.pile(kind))[c])
            var[i] = weighted_moments(values[c].astype(float), probs[c])[1] ** 2
        elif kind == "tile" and _tile_key(action) in ctx.tile_races:
            ev[i] = ctx.held_cards_value(ctx.tile_races[_tile_key(action)]) - ctx.held_cards_value()
    return np.array(standings(ctx, True)), legs_left(ctx.race()), ev, var


def _tile_key(action: str) -> tuple[int, str]:
    spec = action.split(":")[1]
    return int(spec[1:]), spec[0]


def _axes(ctx, rows, step: float) -> list[tuple]:
    """Per independent axis of the sampling error, ``(dW, dL, d_ev,
    d_var)``: the figures' errors along it (module text)."""
    axes = []
    for plus, minus in race_directions(ctx.race(), step):
        hi = _figures(_with_race(ctx, plus), rows)
        lo = _figures(_with_race(ctx, minus), rows)
        axes.append(tuple((np.asarray(a, float) - np.asarray(b, float)) / (2 * step) for a, b in zip(hi, lo)))
    n = ctx.state.n_players
    for i, row in enumerate(rows):
        if row["kind"] != "tile" or _tile_key(row["action"]) not in ctx.tile_races:
            continue
        for plus, minus in race_directions(ctx.tile_races[_tile_key(row["action"])], step):
            d_ev = np.zeros(len(rows))
            d_ev[i] = (ctx.held_cards_value(plus) - ctx.held_cards_value(minus)) / (2 * step)
            axes.append((np.zeros(n), 0.0, d_ev, np.zeros(len(rows))))
    return axes


def win_errors(ctx, rows, model: WinModel | None = None, step: float = STEP) -> tuple[float, np.ndarray]:
    """``(now_se, se)``: the standard error, from the sampling of the race
    odds, of the advised player's chance of winning now and after each row
    of ``rows`` (the advice's rows with ``ev``, ``sd``, ``cov``, as
    :func:`advisor.valuation.winchance.after_actions` reads them): 0 where
    every figure is exact (module text)."""
    model = model or load()
    axes = _axes(ctx, rows, step)
    if not axes:
        return 0.0, np.zeros(len(rows))
    values = np.array(standings(ctx, True))
    n, me = values.size, ctx.player
    edition, legs = getattr(ctx.ed, "name", ctx.ed), legs_left(ctx.race())
    to_move = ctx.state.to_move if getattr(ctx.state, "to_move", None) is not None else me
    _, now_w, _, now_l = model.of_gradient(edition, values, legs, to_move, me)
    ev = np.nan_to_num(np.array([r["ev"] for r in rows], float))
    sd = np.nan_to_num(np.array([r["sd"] for r in rows], float))
    cov = np.nan_to_num(np.array([r.get("cov", 0.0) for r in rows], float))
    wealth = np.tile(values, (len(rows), 1))
    wealth[:, me] += ev
    extra = np.zeros_like(wealth)
    extra[:, me] = sd**2 + 2 * cov
    _, d_w, d_x, d_l = model.of_gradient(edition, wealth, legs, (me + 1) % n if n > 1 else None, me, extra)
    now_var, var = 0.0, np.zeros(len(rows))
    for dW, dL, d_ev, d_var in axes:
        now_var += float(now_w @ dW + now_l * dL) ** 2
        var += (d_w @ dW + d_w[:, me] * d_ev + d_x * d_var + d_l * dL) ** 2
    return float(np.sqrt(now_var)), np.sqrt(var)
