"""The chance of winning the game: every player's, from the standing the
advice already computes.

**The model.**  Each player ``p`` ends the game with ``W_p + e_p``: ``W_p``
their expected wealth now (:func:`advisor.valuation.standing.wealth`: money plus what
the bets they already hold are expected to pay) plus ``e_p``, what the rest
of the game adds, normal with mean ``tau`` for the player to move (the
worth of having the next turn) and 0 for the others, and spread

    sigma = (s0 + s1 * L) * (n / 4) ** g

coins, ``L`` the expected number of legs left (race odds, this leg
included), ``n`` the number of players; the ``e_p`` independent.  A player
wins when their final wealth is the largest, so

    P(p wins) = integral phi(z) prod_{q != p} Phi((m_p + s_p z - m_q) / s_q) dz

(``m`` the means, ``s`` the spreads), by Gauss-Hermite quadrature; the
chances of all players sum to 1.  A first place shared by ``k`` players
counts ``1/k`` to each in the games the parameters are fitted on (the
tournaments' count), so the chance reads as the expected share of the win.

**After an action** of the advised player: their mean moves by the action's
EV and their variance by ``sd^2 + 2 cov`` (the action's own payout's
variance and twice its covariance with the bets they hold, the advice's
``sd`` and ``cov`` columns), and the next player is to move
(:func:`after_actions`).

The parameters ``(s0, s1, g, tau)`` per edition are fitted by maximum
likelihood (every player's share of the win against their chance) on
self-play positions of mixed line-ups; they ship in
``advisor/data/win_model.json`` with the version, seed and command that
made them (``benchmarks/fit_win_model.py``).  A rule variant reads its
edition's parameters.  Inference is numpy alone.
"""

from __future__ import annotations

import functools
import json
from importlib import resources

import numpy as np

from advisor.valuation.standing import legs_left, standings

__all__ = ["WinModel", "load", "chances", "chance_gradient", "standing_chances", "after_actions", "NODES"]

#: Gauss-Hermite nodes of the integral over the advised player's spread.
NODES = 32


@functools.lru_cache(maxsize=None)
def _quadrature(k: int = NODES) -> tuple[np.ndarray, np.ndarray]:
    z, w = np.polynomial.hermite_e.hermegauss(k)
    return z, w / w.sum()


def _phi(x: np.ndarray) -> np.ndarray:
    """The standard normal distribution function (erfc by its Chebyshev
    fit, relative error below 1.2e-7: Numerical Recipes' ``erfcc``)."""
    z = np.abs(x) / np.sqrt(2.0)
    t = 1.0 / (1.0 + 0.5 * z)
    poly = (-z * z - 1.26551223 + t * (1.00002368 + t * (0.37409196 + t * (0.09678418 + t * (
        -0.18628806 + t * (0.27886807 + t * (-1.13520398 + t * (1.48851587 + t * (-0.82215223 + t * 0.17087277)))))))))
    erfc = t * np.exp(poly)
    return np.where(x >= 0, 1.0 - 0.5 * erfc, 0.5 * erfc)


def chances(means: np.ndarray, spreads: np.ndarray) -> np.ndarray:
    """Every player's chance of the largest final wealth: ``means`` and
    ``spreads`` of shape ``(..., players)`` (NaN means: no such player),
    the result of the same shape (0 where no player), each row summing to
    1."""
    means = np.asarray(means, float)
    spreads = np.broadcast_to(np.asarray(spreads, float), means.shape)
    present = ~np.isnan(means)
    m = np.where(present, means, 0.0)
    s = np.where(present, np.maximum(spreads, 1e-9), 1.0)
    z, w = _quadrature()
    # x[..., p, k]: player p's final wealth at node k
    x = m[..., :, None] + s[..., :, None] * z
    # Phi((x_p - m_q) / s_q) for every q: [..., p, q, k]
    cdf = _phi((x[..., :, None, :] - m[..., None, :, None]) / s[..., None, :, None])
    n = means.shape[-1]
    eye = np.eye(n, dtype=bool)[:, :, None]
    absent = ~present[..., None, :, None]
    cdf = np.where(eye | absent, 1.0, cdf)
    out = (cdf.prod(axis=-2) * w).sum(axis=-1)
    out = np.where(present, out, 0.0)
    total = out.sum(axis=-1, keepdims=True)
    return out / np.where(total > 0, total, 1.0)


def lead_chance(leads: np.ndarray, spread: float) -> np.ndarray:
    """A player's chance of ending with the most money when they lead each
    other player by ``leads[..., q]`` coins now and the rest of the game
    moves every player's money by an independent normal change whose
    difference between any two players has standard deviation ``spread``
    (each ``spread / sqrt(2)``): ``E_z prod_q Phi(lead_q / sigma + z)``,
    ``sigma = spread / sqrt(2)``, by the quadrature of :func:`chances`.
    With one other player it is ``Phi(lead / spread)``.  NaN leads (no such
    player) count as certain wins against them."""
    leads = np.asarray(leads, float)
    sigma = spread / np.sqrt(2.0)
    z, w = _quadrature()
    cdf = _phi(leads[..., None] / sigma + z)  # [..., q, node]
    cdf = np.where(np.isnan(leads)[..., None], 1.0, cdf)
    return cdf.prod(axis=-2) @ w


def _pdf(x: np.ndarray) -> np.ndarray:
    return np.exp(-0.5 * x * x) / np.sqrt(2.0 * np.pi)


def _integral_gradient(m: np.ndarray, s: np.ndarray, p: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(P, dP/dm, dP/ds)``: player ``p``'s integral (before the
    normalisation of :func:`chances`) and its derivatives
    (:func:`chance_gradient`)."""
    n = m.shape[-1]
    z, w = _quadrature()
    u = (m[..., p, None, None] + s[..., p, None, None] * z - m[..., :, None]) / s[..., :, None]  # [..., q, k]
    cdf = np.where(np.arange(n)[:, None] == p, 1.0, _phi(u))
    d_mean = np.zeros(m.shape)
    d_spread = np.zeros(m.shape)
    own = np.zeros(m.shape[:-1])
    for q in range(n):
        if q == p:
            continue
        rest = np.where(np.arange(n)[:, None] == q, 1.0, cdf).prod(axis=-2)  # R_q: [..., k]
        dens = _pdf(u[..., q, :]) * rest
        d_mean[..., q] = -(dens * w).sum(axis=-1) / s[..., q]
        d_spread[..., q] = -(dens * u[..., q, :] * w).sum(axis=-1) / s[..., q]
        own += (z * dens * w).sum(axis=-1) / s[..., q]
    d_mean[..., p] = -d_mean.sum(axis=-1)
    d_spread[..., p] = own
    return (cdf.prod(axis=-2) * w).sum(axis=-1), d_mean, d_spread


def chance_gradient(means: np.ndarray, spreads: np.ndarray, p: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """``(chance, d_mean, d_spread)``: player ``p``'s chance (as
    :func:`chances`, every player present) and its derivatives with respect
    to every player's mean and spread, ``means`` and ``spreads`` of shape
    ``(..., players)``.  With ``u_q = (m_p + s_p z - m_q) / s_q`` and
    ``R_q = prod_{r != p, q} Phi(u_r)`` (the product without ``q``), by the
    same quadrature as the chance::

        dP/dm_q = -E_z[phi(u_q) R_q] / s_q            (q != p)
        dP/dm_p = -sum_{q != p} dP/dm_q               (a common shift changes nothing)
        dP/ds_q = -E_z[phi(u_q) u_q R_q] / s_q        (q != p)
        dP/ds_p = E_z[z sum_{q != p} phi(u_q) R_q / s_q]

    The chances of all players sum to 1 whatever the means and spreads, so
    for the integral the normalisation ``P_p / sum_r P_r`` that
    :func:`chances` applies has derivative 0; its quadrature sums to 1 only
    nearly (a spread far below another's), so the derivative is taken of
    the normalised figure: ``(dP_p - chance_p sum_r dP_r) / sum_r P_r``."""
    m = np.asarray(means, float)
    s = np.maximum(np.broadcast_to(np.asarray(spreads, float), m.shape), 1e-9)
    parts = [_integral_gradient(m, s, r) for r in range(m.shape[-1])]
    total = sum(part[0] for part in parts)
    chance = parts[p][0] / total
    d_mean = (parts[p][1] - chance[..., None] * sum(part[1] for part in parts)) / total[..., None]
    d_spread = (parts[p][2] - chance[..., None] * sum(part[2] for part in parts)) / total[..., None]
    return chance, d_mean, d_spread


class WinModel:
    """The fitted parameters (:func:`load`): per edition ``s0, s1, g,
    tau`` (module text)."""

    def __init__(self, data: dict):
        self.data = data
        self.version = data["version"]
        self.params = data["editions"]

    def spread(self, edition: str, legs, players) -> np.ndarray:
        p = self.params[edition]
        return (p["s0"] + p["s1"] * np.asarray(legs, float)) * (np.asarray(players, float) / 4.0) ** p["g"]

    def tempo(self, edition: str) -> float:
        return float(self.params[edition]["tau"])

    def of(self, edition: str, wealth, legs: float, to_move: int | None, extra_var=None) -> np.ndarray:
        """Every player's chance of winning: expected wealth ``wealth`` (one
        per player), ``legs`` legs left, ``to_move`` the player to move (or
        None), ``extra_var`` (per player, optional) added to their
        variance."""
        wealth = np.array(wealth, float)
        n = wealth.shape[-1]
        if to_move is not None:
            wealth[..., to_move] += self.tempo(edition)
        var = np.broadcast_to(self.spread(edition, legs, n) ** 2, wealth.shape).copy()
        if extra_var is not None:
            var = np.maximum(var + extra_var, 0.05 * var)
        return chances(wealth, np.sqrt(var))

    def of_gradient(self, edition: str, wealth, legs: float, to_move: int | None, me: int, extra_var=None):
        """``(chance, d_wealth, d_extra, d_legs)``: player ``me``'s chance
        of winning as :meth:`of` gives it, and its derivatives with respect
        to every player's expected wealth, to ``me``'s added variance and to
        the legs left (which set every player's spread ``sigma``):
        :func:`chance_gradient` by the chain rule, ``s_q = sqrt(sigma^2 +
        x_q)`` (``x`` the added variance; where the floor ``0.05
        sigma^2`` binds, ``0.05 sigma^2``), ``ds_q/dx_q = 1 / (2 s_q)``,
        ``ds_q/dL = c_q sigma sigma' / s_q`` (``c_q`` 1, or 0.05 where
        floored; ``sigma' = s1 (n/4)^g``)."""
        wealth = np.array(wealth, float)
        n = wealth.shape[-1]
        if to_move is not None:
            wealth[..., to_move] += self.tempo(edition)
        sigma = float(self.spread(edition, legs, n))
        slope = self.params[edition]["s1"] * (n / 4.0) ** self.params[edition]["g"]
        extra = np.zeros(wealth.shape) if extra_var is None else np.broadcast_to(np.asarray(extra_var, float), wealth.shape)
        raw = sigma**2 + extra
        floored = raw < 0.05 * sigma**2
        spreads = np.sqrt(np.where(floored, 0.05 * sigma**2, raw))
        chance, d_mean, d_spread = chance_gradient(wealth, spreads, me)
        d_extra = np.where(floored[..., me], 0.0, d_spread[..., me] / (2 * spreads[..., me]))
        d_legs = (d_spread * np.where(floored, 0.05, 1.0) * sigma * slope / spreads).sum(axis=-1)
        return chance, d_mean, d_extra, d_legs


@functools.lru_cache(maxsize=None)
def load() -> WinModel:
    """The shipped parameters (``advisor/data/win_model.json``)."""
    text = resources.files("advisor.data").joinpath("win_model.json").read_text(encoding="utf-8")
    return WinModel(json.loads(text))


def _edition(rules) -> str:
    return getattr(rules, "name", rules)


def standing_chances(ctx, values: list[float] | None = None, model: WinModel | None = None) -> np.ndarray:
    """Every player's chance of winning now, at the valuation ``ctx``
    (:class:`advisor.valuation.context.Valuation`; its player is the one to move
    when the state says so)."""
    model = model or load()
    values = standings(ctx, True) if values is None else values
    to_move = ctx.state.to_move if getattr(ctx.state, "to_move", None) is not None else ctx.player
    return model.of(_edition(ctx.ed), values, legs_left(ctx.race()), to_move)


def after_actions(ctx, ev, sd, cov, values: list[float] | None = None,
                  model: WinModel | None = None) -> tuple[float, np.ndarray]:
    """``(now, after)``: the advised player's chance of winning now and
    after each action (EV ``ev[i]``, own payout's spread ``sd[i]``,
    covariance ``cov[i]`` with the held bets; module text)."""
    model = model or load()
    values = standings(ctx, True) if values is None else values
    n = len(values)
    me = ctx.player
    edition, legs = _edition(ctx.ed), legs_left(ctx.race())
    to_move = ctx.state.to_move if getattr(ctx.state, "to_move", None) is not None else me
    now = float(model.of(edition, values, legs, to_move)[me])
    ev, sd = np.asarray(ev, float), np.asarray(sd, float)
    cov = np.zeros_like(ev) if cov is None else np.nan_to_num(np.asarray(cov, float))
    wealth = np.tile(np.asarray(values, float), (len(ev), 1))
    wealth[:, me] += np.nan_to_num(ev)
    extra = np.zeros_like(wealth)
    extra[:, me] = np.nan_to_num(sd) ** 2 + 2 * cov
    after = model.of(edition, wealth, legs, (me + 1) % n if n > 1 else None, extra)[:, me]
    return now, after
