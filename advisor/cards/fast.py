"""Camel Up Cards: the advice's values in one pass, for the bots.

:func:`~advisor.cards.best.cards_best` computes the leg and the races
of each race action on its own (20,000 legs and 2,000 races each when the
leg cannot be enumerated): thorough, about a second per turn.
:func:`cards_values` gives the same rows, valued by the same code
(:class:`~advisor.cards.advice.TurnRows`), from shared scenarios:

* the position's own leg by the kind of its first card: exact where small
  (with the other players' actions: a deck of at most 2 cards and at most
  :data:`BASE_STATES` states a turn; the deck alone: at most
  :data:`~advisor.cards.advice.ACTION_EXACT_LEAVES` card sequences), else
  :data:`BASE_LEGS` legs of the candidate kernel; its race odds to
  ``precision`` as ``cards_best``'s;
* every race action (the hand card, the palm and the fennec on every legal
  space) in one call of :func:`advisor.kernels.cards.turns.
  candidate_outcomes`: about ``LEG_BUDGET / actions`` scenarios
  (:data:`LEGS` bounds), each dealt once (the race deck's order and the
  unseen hand cards) and replayed for every action with the other players'
  choices drawn turn by turn from the same streams (common random
  numbers), the position's own leg among them; an action's leg is that of
  its scenarios corrected by the same scenarios' own leg (``dist -
  base_same + base``, as ``cards_best`` corrects its samples), or exact
  where small (within :data:`ACTION_STATES` states a turn, while the
  position's own leg is exact);
* an action's race odds: the position's, plus the change the action makes
  to the order the leg ends in, weighted by the final order of the races
  that ended their leg in that order (about ``RACE_BUDGET / actions`` of
  each action's scenarios are played to the race's end, all actions
  pooled; exact where the race ends in the leg).  The races of two actions
  share too little for a difference of two small samples (one card's shift
  changes every stack after it): this estimate misses what an action does
  to the race without changing the leg's order (docs/user-guide/cards.md,
  Camel Up Cards bots, measured);
* then the race actions of the :data:`VERIFY` best turns are valued again
  on fresh scenarios (:data:`VERIFY_LEGS`): the best of some thirty noisy
  values is biased upward, a second look at the chosen few is not.

When every leg is exact and the race ends in this leg, the values are
``cards_best``'s exactly.  The same seed gives the same values on any
thread count.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import lru_cache

import numpy as np

from advisor.cards.advice import (
    ACTION_EXACT_LEAVES, TurnRows, advised, after_action, ends_surely, race_actions, race_orders, race_over_outcome,
)
from advisor.cards.odds import (
    ADVICE_OTHERS, OTHERS, OTHERS_EXACT_CARDS, KernelState, as_cards, check_others, code_ranks, exact_counts, kernel_state,
    others_exact, others_model, race_dict, races_to_precision,
)
from advisor.cards.position import CardsPosition
from advisor.odds.montecarlo import check_precision, resolve_seed

__all__ = ["cards_values", "turn_values", "TurnValues", "BASE_LEGS", "LEGS", "LEG_BUDGET", "RACES", "RACE_BUDGET",
           "BASE_STATES", "ACTION_STATES", "VERIFY", "VERIFY_LEGS", "VERIFY_RACES"]

#: The position's own leg (by the kind of its first card), when not exact:
#: this many sampled legs.
BASE_LEGS = 8_000
#: Scenarios (sampled legs) shared by every race action of a turn: about
#: ``LEG_BUDGET / candidates``, within these bounds ...
LEGS = (500, 2_000)
LEG_BUDGET = 20_000
#: ... of which about ``RACE_BUDGET / candidates`` (within these bounds) are
#: played to the race's end.
RACES = (100, 300)
RACE_BUDGET = 3_000
#: Then the race actions of the best turns (this many) are valued again on
#: fresh scenarios (so that the first choice is not the one whose
#: scenarios happened to favour it): this many legs and races each.
VERIFY = 3
VERIFY_LEGS = 3_000
VERIFY_RACES = 300
#: With the other players' race actions, the position's own leg is exact
#: when the deck holds at most 2 cards and no turn keeps more than this
#: many states, and each race action's (then) within :data:`ACTION_STATES`.
BASE_STATES = 20_000
ACTION_STATES = 2_000


@dataclass
class TurnValues:
    """The rows of a turn (:class:`~advisor.cards.advice.TurnRows`, with
    each race action's outcomes) and how they were computed: ``base_legs``
    the position's own legs sampled (0: exact), ``legs`` the scenarios of
    each race action (0: every action's leg exact), ``races`` those played
    to the race's end, ``race_samples`` the position's own races (0:
    exact), ``exact`` which legs were exact (by race action; ``reveal``:
    the position's own), ``verified`` the race actions valued again."""

    turns: TurnRows
    position: CardsPosition
    seed: int
    others: str
    base_legs: int
    legs: int
    races: int
    race_samples: int
    race: dict
    exact: dict
    verified: tuple = ()

    def frame(self, shown: CardsPosition | None = None):
        """The rows as :func:`~advisor.cards.best.cards_best` gives them."""
        return self.turns.frame(position=str(shown or self.position), seed=self.seed, others=self.others,
                                leg_samples=self.base_legs,
                                race_samples=self.race_samples, race=self.race,
                                others_model=others_model(self.others), fast=True)


def _exact_leg(state: KernelState, this_leg: bool, by_first: bool, limit: int) -> np.ndarray | None:
    """``codes[first, end, code]`` probabilities of the leg, exact when
    small (see the module docstring), else None."""
    if this_leg:
        if state.cards() > OTHERS_EXACT_CARDS:
            return None
        return others_exact(state, by_first, limit)
    if state.leaves() > ACTION_EXACT_LEAVES:
        return None
    exact = exact_counts(state, by_first)
    return None if exact is None else exact[0] / exact[1]


def _kernel_own(state: KernelState, this_leg: bool) -> np.ndarray:
    """The figure flags the candidate kernel counts at the leg's end: the
    advised player's figure cards with the other players' actions; every
    figure on the track with the deck alone (as the exact leg counts them:
    the rows mask them by the player's cards)."""
    if this_leg:
        return state.own.copy()
    return (state.fig != 0).astype(np.int64)


def _strata(dist: np.ndarray) -> np.ndarray:
    """``dist[end, code]`` by race order, the race over or not: ``[over *
    120 + order]`` (orders: :func:`~advisor.cards.advice.race_orders`)."""
    orders = race_orders()
    return np.concatenate([dist[0::2][:, orders].sum(axis=0), dist[1::2][:, orders].sum(axis=0)])


def _race_by_leg_end(leg_out: np.ndarray, race_out: np.ndarray) -> np.ndarray:
    """``[over * 120 + order, camel, rank]``: the final ranks of the races
    whose leg ended with race order ``order`` (over or not), from the races
    of every candidate pooled (a race over in the leg: its own order; an
    order no race reached: the mean of every race still running)."""
    from advisor.kernels.cards.track import CODES

    orders = race_orders()
    m = orders.size
    index = np.full(CODES, -1)
    index[orders] = np.arange(m)
    over = (leg_out // CODES) & 1
    stratum = over * m + index[leg_out % CODES]
    counts = np.bincount((stratum * m + index[race_out]).ravel(), minlength=2 * m * m).reshape(2 * m, m)
    n = counts.sum(axis=1)
    running = counts[:m].sum(axis=0)
    fallback = running / running.sum() if running.sum() else np.zeros(m)
    probs = np.where(n[:, None] > 0, counts / np.maximum(n, 1)[:, None], fallback[None, :])
    probs[m:] = np.eye(m)  # the race is over: its order is the leg's
    return np.tensordot(probs, _order_ranks(), axes=(1, 0))


@lru_cache(maxsize=1)
def _order_ranks() -> np.ndarray:
    """``[order, camel, rank]``: 1 where race order ``order`` ranks the camel so."""
    from advisor.kernels.cards.track import CODES

    return code_ranks(np.eye(CODES)[race_orders()])


def _sizes(k: int, legs: int | None, races: int | None) -> tuple[int, int]:
    """Scenarios and races per candidate for ``k`` candidates: within
    :data:`LEG_BUDGET` / :data:`RACE_BUDGET` candidate legs / races, between
    the bounds of :data:`LEGS` / :data:`RACES` (unless given)."""
    if legs is None:
        legs = int(np.clip(LEG_BUDGET // max(k, 1), *LEGS))
    if races is None:
        races = int(np.clip(RACE_BUDGET // max(k, 1), *RACES))
    return legs, min(races, legs)


def _run(base: KernelState, this_leg: bool, kinds, args, legs: int, races: int, decksize: int, random_later: bool,
         seed: int):
    """``(leg_out, first_out, race_out)`` of the candidate kernel."""
    from advisor.kernels.cards.turns import candidate_outcomes

    k = len(kinds)
    leg_out = np.zeros((k, legs), np.int64)
    first_out = np.zeros(legs, np.int64)
    race_out = np.zeros((k, races), np.int64)
    candidate_outcomes(base.sp, base.ht, base.fig, _kernel_own(base, this_leg), base.track, base.ncards, base.known,
                       base.pool, base.unknown, base.players, base.nxt, base.hands,
                       base.random_mask if this_leg else 0, np.array(kinds, np.int64), np.array(args, np.int64), legs,
                       races, decksize, random_later, seed, leg_out, first_out, race_out)
    return leg_out, first_out, race_out


def turn_values(position: CardsPosition | str, *, seed: int | None = None, others: str = ADVICE_OTHERS,
                precision: float = 0.02, legs: int | None = None, races: int | None = None,
                base_legs: int = BASE_LEGS, verify: int = VERIFY) -> TurnValues:
    """The rows of :func:`cards_values` with their outcomes (module docstring)."""
    from advisor.kernels.cards.track import CODES, KINDS
    from advisor.kernels.cards.turns import REVEAL
    pos = advised(as_cards(position))
    others = check_others(others)
    precision = check_precision(precision)
    seed = resolve_seed(seed)
    this_leg = OTHERS[others][0]
    random_later = others != "reveal"
    base = kernel_state(pos)
    actions = race_actions(pos)[1:] if pos.next == 0 else []
    after = {a: after_action(pos, base, a) for a in actions}
    # exact where small: the position's own leg, then each race action's
    exact: dict[str, np.ndarray | None] = {"reveal": _exact_leg(base, this_leg, True, BASE_STATES)}
    try_exact = exact["reveal"] is not None
    for action in actions:
        state, _, over = after[action]
        if over:
            continue
        exact[action] = _exact_leg(state, this_leg, False, ACTION_STATES) if try_exact else None
        try_exact = try_exact and (exact[action] is not None or not this_leg)
    # the position's own leg by first card: exact, or base_legs scenarios
    base_n = 0
    if exact["reveal"] is not None:
        base_codes = exact["reveal"]
    else:
        base_n = base_legs
        leg0, first0, _ = _run(base, this_leg, [REVEAL], [0], base_n, 0, pos.decksize, random_later, seed)
        flat = first0 * (8 * CODES) + leg0[0]
        base_codes = np.bincount(flat, minlength=KINDS * 8 * CODES).reshape(KINDS, 8, CODES) / base_n
    # the position's race by first card: exact when the leg is and ends it, else races to the precision
    if base_n == 0 and ends_surely(base_codes.sum(axis=0)):
        race_all = code_ranks(base_codes[:, 1::2].sum(axis=1))
        final0 = race_all.sum(axis=0)
        zeros = np.zeros(5)
        race, race_samples = race_dict(final0[:, 0], final0[:, 4], zeros, zeros, final0), 0
    else:
        counts, race_samples = races_to_precision(pos, base, seed, others, precision=precision)
        race_all = counts / race_samples
        final0 = race_all.sum(axis=0)
        se = np.sqrt(np.clip(final0 * (1 - final0), 0.0, None) / race_samples)  # sums may pass 1 by rounding
        race = race_dict(final0[:, 0], final0[:, 4], se[:, 0], se[:, 4], final0)
    job = _Job(pos, base, this_leg, random_later, after, exact, base_codes.sum(axis=0), final0)
    outcomes, n_legs, n_races = job.outcomes(actions, seed, legs, races)

    def rows(outcomes) -> TurnRows:
        turns = TurnRows(pos, this_leg, base_codes, race_all)
        if pos.next:
            turns.add_now()
        else:
            turns.add_reveal()
        for action in actions:
            turns.add_action(action, *outcomes[action])
        return turns

    turns = rows(outcomes)
    verified: list[str] = []
    if verify and n_legs:  # the best sampled race actions again, on fresh scenarios
        for race in turns.frame().race:
            if race not in verified and race in after and exact.get(race) is None and not after[race][2]:
                verified.append(race)
                if len(verified) == verify:
                    break
        if verified:
            again, _, _ = job.outcomes(verified, seed + 1, VERIFY_LEGS, VERIFY_RACES)
            outcomes.update(again)
            turns = rows(outcomes)
    return TurnValues(turns, pos, seed, others, base_n, n_legs, n_races, race_samples, race,
                      {a: e is not None for a, e in exact.items()}, tuple(verified))


class _Job:
    """The race actions' outcomes on shared scenarios (:meth:`outcomes`)."""

    def __init__(self, pos, base, this_leg, random_later, after, exact, base_dist, final0):
        self.pos, self.base, self.this_leg, self.random_later = pos, base, this_leg, random_later
        self.after, self.exact, self.base_dist, self.final0 = after, exact, base_dist, final0
        #: (leg end, race end) pairs of every race played so far (:func:`_race_by_leg_end`)
        self.pool: list[tuple[np.ndarray, np.ndarray]] = []

    def outcomes(self, actions, seed, legs, races):
        """``({action: (dist[end, code], figs, final[camel, rank], over)},
        scenarios, races)`` of ``actions`` on ``legs`` scenarios of
        ``seed`` (default: :func:`_sizes`); the race of a leg's end from
        every race played so far (:attr:`pool`)."""
        from advisor.kernels.cards.track import CODES
        from advisor.kernels.cards.turns import FENNEC, HAND, PALM, REVEAL

        exact, after = self.exact, self.after
        live = [a for a in actions if not after[a][2]]
        sampled = [a for a in live if exact.get(a) is None]
        unsure = [a for a in live if exact.get(a) is None or not ends_surely(exact[a].sum(axis=0))]
        kinds = [REVEAL] + [HAND if a == "hand" else PALM if a.startswith("palm") else FENNEC for a in actions]
        args = [0] + [int(a.partition(":")[2] or 0) for a in actions]
        n_legs, n_races = _sizes(len(kinds), legs, races)
        n_races = n_races if unsure else 0
        n_legs = n_legs if sampled else n_races
        race_of = None
        if n_legs:
            leg_out, _, race_out = _run(self.base, self.this_leg, kinds, args, n_legs, n_races, self.pos.decksize,
                                        self.random_later, seed)
            if n_races:
                self.pool.append((leg_out[:, :n_races], race_out))
                race_of = _race_by_leg_end(np.concatenate([x.ravel() for x, _ in self.pool]),
                                           np.concatenate([y.ravel() for _, y in self.pool]))
            base_same = np.bincount(leg_out[0], minlength=8 * CODES).reshape(8, CODES) / n_legs
        out = {}
        for i, action in enumerate(actions, start=1):
            state, figs, over = after[action]
            if over:
                out[action] = (*race_over_outcome(state, figs), True)
                continue
            if self.this_leg:
                figs = (True, True)
            if exact.get(action) is None:  # common random numbers: corrected by the same scenarios' own leg
                dist = np.bincount(leg_out[i], minlength=8 * CODES).reshape(8, CODES) / n_legs
                dist = dist - base_same + self.base_dist
            else:
                dist = exact[action].sum(axis=0)
            if exact.get(action) is not None and ends_surely(dist):
                final = code_ranks(dist[1::2].sum(axis=0))
            else:  # the position's race plus the change of the leg's end
                final = self.final0 + np.tensordot(_strata(dist) - _strata(self.base_dist), race_of, axes=(0, 0))
            out[action] = (dist, figs, final, False)
        return out, (n_legs if sampled else 0), n_races


def cards_values(position: CardsPosition | str, *, seed: int | None = None, others: str = ADVICE_OTHERS,
                 precision: float = 0.02, legs: int | None = None, races: int | None = None):
    """Every legal turn with its EV, as :func:`~advisor.cards.best.
    cards_best` gives them (the same rows and formulas; ``attrs["fast"]``
    True), valued in one pass over shared scenarios (module docstring):
    ``legs`` sampled legs, ``races`` of them to the race's end; race odds
    behind the overall cards to ``precision`` (default 0.02, the bots')."""
    shown = as_cards(position)
    return turn_values(shown, seed=seed, others=others, precision=precision, legs=legs, races=races).frame(shown)
