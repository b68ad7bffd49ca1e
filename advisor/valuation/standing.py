"""Standing: where each player stands, and how much risk the advised player
should take for it.

The game is won by the most money at the end, so what counts is not a
player's money but their margin over the best of the others, and how much
of the game is left to change it.

**Expected wealth** (:func:`wealth`): a player's money now, plus what their
bets already placed are expected to pay: their leg tiles, pyramid tiles
and partnership at this leg's end (the leg's exact outcome table, the money
floor on each outcome's payout) and their overall cards on the piles at the
race's end (:func:`pile_payouts`; a face-down card of another player at its
expectation under its own model, e.g. inferred from the game's history by
:mod:`advisor.bots.inference`, or the pile model).  Future actions are left out:
they are what the rest of the game decides.

**The margin** (:func:`margin`): the advised player's expected wealth
minus the largest of the others' (the player who decides whether they
win), and that player.

**The risk attitude** (:func:`attitude`).  Let ``u(D)`` be the chance of
winning the game with a margin ``D`` of expected wealth.  An action adding
a small random ``X`` to the player's wealth changes it by about ``u'(D)
(E[X] - lam / 2 E[(X - E X)^2])`` with ``lam = -u''(D) / u'(D)``: the
mean-variance value of the action, with the risk attitude ``lam`` (per
coin).  With the logistic ``u(D) = 1 / (1 + exp(-(a + b D)))``, ``lam = b
(2 u(D) - 1)``: positive where the chance of winning is above one half
(clearly ahead: a lead is kept by not gambling), negative below it (level
or behind: a deficit is made up only by gambling), bounded by ``b``.
``b`` shrinks with the legs left (the rest of the game adds noise of its
own to the margin); ``a`` is below 0 at four players (level with the best
other, the player is still behind the even chance: two more players can
come from behind).  :data:`LOGISTIC` holds ``(a, b)`` per edition and
number of legs left, fitted by maximum likelihood on games of ``rival``
bots (the wins of every player against their margin at every other turn;
``benchmarks/fit_standing.py`` refits them), read at the race odds'
expected number of legs left (:func:`legs_left`).

**The threat of each player** (:func:`threat`): how much another player's
gain costs the advised player's chance of winning, for weighing the
others' gains (``rival``'s term) by who they are.

**The margin's portfolio** (:func:`rival_holdings`): the variance that
matters is that of the margin, so an action's covariance is taken with
the player's holdings *minus* those of the best other player
(:class:`advisor.valuation.portfolio.Portfolio` ``against``): when behind, a bet
that pays when the leader's bets fail is worth more (the only games the
player wins are those); when ahead, copying the second's bets protects
the lead.
"""

from __future__ import annotations

import numpy as np

from advisor.valuation.overall import PILES

__all__ = ["pile_payouts", "wealth", "standings", "margin", "threat", "attitude", "logistic", "table_of", "legs_left",
           "rival_holdings", "LOGISTIC"]

#: Per edition, ``(legs left, a, b)`` rows: the logistic chance of winning
#: at margin ``D`` of expected wealth, ``1 / (1 + exp(-(a + b D)))``, at
#: that many legs left (this one included), fitted on 4-player games of
#: ``rival`` bots (``benchmarks/fit_standing.py``, docs/user-guide/games.md); between two rows
#: it is read linearly, before the first and past the last as those.
LOGISTIC = {
    "second": ((1.10, -0.431, 0.392), (1.49, -0.544, 0.329), (2.14, -0.614, 0.263), (2.99, -0.569, 0.239),
               (4.26, -0.670, 0.210), (5.58, -0.856, 0.176)),
    "first": ((1.05, -0.656, 0.388), (1.50, -0.616, 0.315), (2.16, -0.638, 0.269), (3.01, -0.639, 0.253),
              (4.40, -0.825, 0.195), (5.11, -0.744, 0.183)),
}


def pile_payouts(ctx, player: int) -> tuple[np.ndarray, np.ndarray]:
    """``(win, lose)``: what ``player``'s cards on the winner pile pay,
    in expectation, when racing camel ``w`` wins the race (``win[w]``), and
    their cards on the loser pile when ``l`` finishes last (``lose[l]``).
    A card of known colour pays its expected right payout (its place among
    the right cards under the pile's earlier cards' models) when its camel
    is the one, else the wrong card's payout; a face-down card names camel
    ``c`` with its model's (or the pile model's) ``q_c``.  ``ctx``: a
    :class:`advisor.valuation.context.Valuation`."""
    wrong = float(ctx.ed.wrong_card)
    racing = ctx.racing
    out = {}
    for name in PILES:
        pay = np.zeros(len(racing))
        pile = ctx.pile(name)
        for j, card in enumerate(pile):
            if card.player != player:
                continue
            if card.colour:
                values, probs = ctx.right_payout(name, pile[:j], card.colour, player)
                v = np.full(len(racing), wrong)
                v[racing.index(card.colour)] = float(values @ probs)
            else:
                q = ctx.card_q(name, card)
                right = np.array([float(np.dot(*ctx.right_payout(name, pile[:j], colour, player))) for colour in racing])
                v = q * right + (1 - q) * wrong
            pay += v
        out[name] = pay
    return out["winner"], out["loser"]


def wealth(ctx, player: int) -> float:
    """``player``'s expected wealth: money, plus this leg's expected
    settlement of what they hold (landings on the advised player's own
    tile included), plus their overall cards' expected payout at the race's
    end (the race odds' winner and loser probabilities)."""
    leg = ctx.base
    settled = float(leg.prob @ ctx.settle(player, leg, landings=player == ctx.player))
    win, lose = pile_payouts(ctx, player)
    race = ctx.race()
    return settled + float(race.win @ win) + float(race.lose @ lose)


def standings(ctx, use_wealth: bool = True) -> list[float]:
    """Every player's :func:`wealth` (or, ``use_wealth=False``, money)."""
    if use_wealth:
        return [wealth(ctx, p) for p in range(ctx.state.n_players)]
    return [float(pl.money) for pl in ctx.state.players]


def margin(ctx, use_wealth: bool = True, values: list[float] | None = None) -> tuple[float, int]:
    """``(D, q)``: the advised player's margin over the best other player
    ``q`` (expected wealth, :func:`wealth`, or with ``use_wealth=False``
    money alone; ``values``: the :func:`standings` when already at hand).
    A tie for the best other: the first of them."""
    values = standings(ctx, use_wealth) if values is None else values
    others = [p for p in range(len(values)) if p != ctx.player]
    if not others:
        return 0.0, ctx.player
    best = max(others, key=lambda p: values[p])
    return values[ctx.player] - values[best], best


def threat(values: list[float], player: int, legs: float, table) -> np.ndarray:
    """How much each other player's gain costs ``player``, as weights
    summing to 1 (0 for ``player``): ``w_q`` proportional to ``1 - s_q``,
    ``s_q = 1 / (1 + exp(-b (W - W_q)))`` the chance of finishing ahead of
    ``q`` at the margin ``W - W_q`` of their standings ``values``, ``b`` of
    ``table`` (:func:`table_of`) at ``legs`` legs left.  The chance of winning is about
    the product of the ``s_q``, whose change by ``q``'s gain ``x`` is
    ``-b (1 - s_q) x`` relatively: a player far behind costs nothing, the
    best other the most; level players weigh the same (the mean of the
    others' gains)."""
    _, b = logistic(legs, table)
    w = np.zeros(len(values))
    for q, v in enumerate(values):
        if q != player:
            w[q] = 1.0 - 1.0 / (1.0 + np.exp(-b * (values[player] - v)))
    total = w.sum()
    return w / total if total > 0 else w

def legs_left(race) -> float:
    """The expected number of legs left, this one included (race odds)."""
    legs = np.asarray(race.legs, float)
    return float((np.arange(1, legs.size + 1) * legs).sum() / max(legs.sum(), 1e-12))


def table_of(rules) -> tuple:
    """The rows of :data:`LOGISTIC` for ``rules`` (an edition, or a variant
    of one: its edition's)."""
    return LOGISTIC[rules.name]


def logistic(legs: float, table) -> tuple[float, float]:
    """``(a, b)`` of the rows ``table`` (:func:`table_of`) at ``legs``
    legs left (linear between rows)."""
    xs = np.array([row[0] for row in table])
    a = float(np.interp(legs, xs, [row[1] for row in table]))
    b = float(np.interp(legs, xs, [row[2] for row in table]))
    return a, b


def attitude(d: float, legs: float, table) -> float:
    """The risk attitude ``lam = b (2 u(d) - 1)`` (per coin) at margin ``d``
    with ``legs`` legs left, ``table`` the rows of :func:`table_of`
    (module text)."""
    a, b = logistic(legs, table)
    u = 1.0 / (1.0 + np.exp(-(a + b * d)))
    return float(b * (2 * u - 1))


def rival_holdings(ctx, player: int, codes) -> tuple[np.ndarray, tuple[np.ndarray, np.ndarray]]:
    """``player``'s holdings as :class:`advisor.valuation.portfolio.Portfolio`
    ``against`` takes them: their leg-scoring payout per race order of
    ``codes`` (every rank code), and their pile cards' :func:`pile_payouts`."""
    return ctx.holdings(player, codes), pile_payouts(ctx, player)
