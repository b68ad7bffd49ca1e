"""Camel Up Cards advice: the EV of every legal turn.

A turn is one race action, plus at most one betting action before or after
it:

* race actions: ``reveal`` (the race deck's top card), ``hand`` (play the
  hand card: its camel moves 1, even for a ``+2``), ``palm:N`` /
  ``fennec:N`` (place a figure standing beside the track on empty space N
  ahead of the last camel, taking its card);
* bets: ``leg:C`` (the top leg-winner card of C: pays its value if C is 1st
  at leg scoring, 1 if 2nd, else -1), ``mid:C`` (the midfield card: 3rd +2,
  2nd or 4th +1, 1st or 5th -1), ``winner:C`` / ``loser:C`` (the overall card
  from the table: at game end 1st (last) +7, 2nd (4th) +3, else -1; taking
  one returns the one held, whose value is then lost).

``ev`` is the expected change of the player's money caused by the turn,
compared with the position as it stands (the rest of the leg: the player
reveals, then, with ``others="random"``, the default, the other players
take their race actions at random on their turns and the player reveals on
theirs, see :mod:`advisor.cards.odds`; with ``"reveal"`` or ``"later"``
the deck is revealed).  Leg scoring is valued on each outcome's whole leg payout: bets
held and taken, the figure penalty per figure card still held (its figure
still on the track when the leg ends), then the money floor
(:func:`advisor.cards.game.floor_money`): the payouts are those of the
rules module :mod:`advisor.cards.game`.  The overall cards are valued at their expected payout at the
game's end (race odds; the floor at that time is not modelled).

Timing: for ``hand`` and a figure the bet's value does not depend on
whether it is taken before or after (the action is known in advance), so
one row ``R+B`` stands for both.  For ``reveal`` the order matters:
``B+reveal`` bets on the odds now; ``reveal+best`` reveals, then takes the
bet that is best given the card seen (none if none is worth it).  A reveal
that ends the leg (the deck's last card) or the race allows no bet after it.
"""

from __future__ import annotations

import dataclasses
from functools import lru_cache

import numpy as np

from advisor.errors import AdvisorError
from advisor.cards.odds import (
    ADVICE_OTHERS, OTHERS, OTHERS_EXACT_CARDS, KernelState, as_cards, check_others, code_ranks, kernel_state, leg_distribution,
    others_exact, others_model, race_dict, race_ranks, races_to_precision,
)
from advisor.valuation.explain import sort_by_ev
from advisor.cards import game as rules
from advisor.cards.position import CAMELS, CardsPosition
from advisor.odds.montecarlo import check_precision, resolve_seed

__all__ = ["cards_turns", "race_actions", "bets", "TurnRows", "race_orders", "race_over_outcome", "ends_surely", "advised",
           "after_action", "ACTION_LEG_SAMPLES", "ACTION_EXACT_LEAVES", "ACTION_OTHERS_STATES",
           "ACTION_RACES"]

#: Per race action: legs sampled when the leg is too big to enumerate,
#: with common random numbers (every action sees the same cards).
ACTION_LEG_SAMPLES = 20_000
#: Exact per action up to this many card sequences.
ACTION_EXACT_LEAVES = 200_000
#: With the other players' actions: exact per action while no turn keeps
#: more than this many states (and the deck is small), else sampled.
ACTION_OTHERS_STATES = 20_000
#: Races per race action (common random numbers); the position's own race
#: odds are simulated to the precision asked (``cards_best(precision=)``).
ACTION_RACES = 2_000

# the payout tables of the rules (cards/game.py), by rank 1st..5th, as floats
MID_PAY = np.array(rules.MID_PAY, float)
WINNER_PAY = np.array(rules.WINNER_PAY, float)
LOSER_PAY = np.array(rules.LOSER_PAY, float)


def race_actions(pos: CardsPosition) -> list[str]:
    return rules.race_choices(bool(pos.hand), pos.palm is None, pos.fennec is None, pos.figure_spaces())


def bets(pos: CardsPosition) -> list[str]:
    return rules.bet_choices(pos.legtiles, pos.mid, pos.winners, pos.losers)


def _figure_penalties(ends: np.ndarray, own_figs) -> np.ndarray:
    """Per leg end code (bit 1: the palm on the track, bit 2: the fennec),
    the figure penalties of a player holding the figures ``own_figs``."""
    on_track = ((ends >> 1) & 1) * bool(own_figs[0]) + ((ends >> 2) & 1) * bool(own_figs[1])
    return (rules.FIGURE_PENALTY * on_track).astype(float)


def _rank_table() -> np.ndarray:
    from advisor.kernels.ranks import rank_codes

    return rank_codes()  # [code, camel] -> 0-based rank (-1: not a race order)


class _Valuer:
    """Values of holdings over leg outcomes ``[end, code]``."""

    def __init__(self, pos: CardsPosition):
        self.pos = pos
        self.money = pos.money
        ranks = _rank_table()
        self.ranks = np.where(ranks < 0, 0, ranks)
        held = pos.held()
        self.payout = np.zeros(ranks.shape[0])  # leg bets held, per code
        for colour, value in held["leg"]:
            self.payout += self.leg_card(colour, value)
        for colour in held["mid"]:
            self.payout += self.mid_card(colour)
        self.winner = held["winner"]
        self.loser = held["loser"]

    def leg_card(self, colour: str, value: int) -> np.ndarray:
        return rules.leg_card_payout(self.ranks[:, CAMELS.index(colour)], value).astype(float)

    def mid_card(self, colour: str) -> np.ndarray:
        return MID_PAY[self.ranks[:, CAMELS.index(colour)]]

    def leg_value(self, dist: np.ndarray, own_figs: tuple[bool, bool], extra: np.ndarray | float = 0.0) -> float:
        """Expected money change of leg scoring under ``dist[end, code]``
        (probabilities summing to the weight of the branch)."""
        ends = np.arange(8)
        penalty = _figure_penalties(ends, own_figs)
        settled = rules.floor_money(self.money + penalty[:, None] + self.payout[None, :] + extra) - self.money
        return float((dist * settled).sum())

    def overall(self, final: np.ndarray, winner: str | None, loser: str | None) -> float:
        """Expected payout of overall cards under final ranks ``[camel, rank]``."""
        total = 0.0
        if winner:
            total += float(final[CAMELS.index(winner)] @ WINNER_PAY)
        if loser:
            total += float(final[CAMELS.index(loser)] @ LOSER_PAY)
        return total


def race_orders() -> np.ndarray:
    """The rank codes that are race orders, in the order of the last axis
    of :meth:`TurnRows.settled`."""
    return _orders()


@lru_cache(maxsize=1)
def _orders() -> np.ndarray:
    """The rank codes that are race orders (the others never occur)."""
    return np.nonzero(_rank_table()[:, 0] >= 0)[0]


def _own_figures(pos: CardsPosition) -> tuple[bool, bool]:
    """Whether the advised player (0) holds the palm's / the fennec's card."""
    return bool(pos.palm and pos.palm[1] == 0), bool(pos.fennec and pos.fennec[1] == 0)


def _after(pos: CardsPosition, base: KernelState, action: str) -> tuple[KernelState, tuple[bool, bool], bool]:
    """The kernel state after a race action other than ``reveal`` (the
    next player to move), the player's figure cards then, and whether the
    race is over."""
    from advisor.kernels.cards.track import move

    state = base.copy()
    own = list(_own_figures(pos))
    over = False
    if action == "hand":
        over = bool(move(state.sp, state.ht, state.fig, state.length, CAMELS.index(pos.hand[0]), 1))
        state.hands[0] = -1
    else:
        name, _, space = action.partition(":")
        f = 0 if name == "palm" else 1
        state.fig[f] = int(space)
        own[f] = True
    for f in range(2):  # the figure cards the player holds for figures still on the track
        own[f] = own[f] and state.fig[f] != 0
        state.own[f] = int(own[f])
    state.nxt = (state.nxt + 1) % state.players
    return state, (own[0], own[1]), over


def _ends_surely(dist: np.ndarray) -> bool:
    """Whether the race ends in this leg on every branch of ``dist[end, code]``."""
    return float(dist[1::2].sum()) > 1 - 1e-12


class TurnRows:
    """The rows of the advice from the outcomes behind them: one formula
    for :func:`cards_best` and for the bots' fast valuation
    (:mod:`advisor.cards.fast`), whatever computed the leg and race
    distributions.  Each row is ``{action, race, bet, timing, ev}``; ``ev``
    is the turn's expected money against ``v0``, the position as it stands.

    ``base_codes[first, end, code]``: the position's own leg by the kind of
    its first card (P); ``race_all[first, camel, rank]``: its race by first
    card (probabilities summing to 1 over first cards; ``final0`` their
    sum).  :meth:`add_reveal` and :meth:`add_action` append rows and keep
    each race action's outcomes in :attr:`outcomes` (``race action ->
    (dist[end, code], figs, final[camel, rank], over)``; ``reveal``: the
    base's), for views built on the same figures (the rival bot's)."""

    def __init__(self, pos: CardsPosition, this_leg: bool, base_codes: np.ndarray, race_all: np.ndarray):
        self.pos = pos
        self.val = _Valuer(pos)
        self.own0 = _own_figures(pos)
        # with the other players' actions the leg's end codes count only the player's own figure cards
        self.figs0 = (True, True) if this_leg else self.own0
        self.this_leg = this_leg
        self.base_codes = base_codes
        self.base_dist = base_codes.sum(axis=0)
        self.race_all = race_all
        self.final0 = race_all.sum(axis=0)
        self.bet_list = bets(pos)
        self._extras = None
        self._cards: list = []
        self._settled_by_figs: dict = {}
        self.v0 = self.value(self.base_dist, self.figs0, self.final0, None)
        self.rows: list[dict] = []
        self.outcomes: dict[str, tuple] = {}
        self._probe = None

    def bet_extra(self, bet: str):
        """(leg payout per code, winner card, loser card) with ``bet`` taken."""
        val, pos = self.val, self.pos
        kind, _, colour = bet.partition(":")
        extra, winner, loser = 0.0, val.winner, val.loser
        if kind == "leg":
            extra = val.leg_card(colour, pos.legtiles[CAMELS.index(colour)][0])
        elif kind == "mid":
            extra = val.mid_card(colour)
        elif kind == "winner":
            winner = colour
        else:
            loser = colour
        return extra, winner, loser

    def settled(self, figs) -> np.ndarray:
        """``[option, end, order]``: the money change of leg scoring (with
        the floor) with no bet (option 0) and with each bet, per end code
        and race order (the 120 codes that are race orders), for the
        player's figure cards ``figs``."""
        key = (bool(figs[0]), bool(figs[1]))
        if key not in self._settled_by_figs:
            val = self.val
            if self._extras is None:
                extras = [np.zeros(val.payout.shape)]
                self._cards = [(val.winner, val.loser)]
                for bet in self.bet_list:
                    extra, winner, loser = self.bet_extra(bet)
                    extras.append(extra + np.zeros(val.payout.shape))
                    self._cards.append((winner, loser))
                self._extras = np.stack(extras)[:, _orders()]
            ends = np.arange(8)
            penalty = _figure_penalties(ends, key)
            payout = val.payout[_orders()]
            self._settled_by_figs[key] = rules.floor_money(
                val.money + penalty[None, :, None] + payout[None, None, :] + self._extras[:, None, :]) - val.money
        return self._settled_by_figs[key]

    def values(self, dist, figs, final) -> np.ndarray:
        """The turn's value under leg outcomes ``dist[end, code]`` and final
        ranks ``final[camel, rank]``, with no bet (entry 0) and with each
        bet of :attr:`bet_list`: leg scoring (the whole payout of each
        outcome, then the floor) plus the overall cards' expected payout."""
        settled = self.settled(figs)
        leg = settled.reshape(settled.shape[0], -1) @ dist[:, _orders()].ravel()
        win, lose = final @ WINNER_PAY, final @ LOSER_PAY
        overall = np.array([(win[CAMELS.index(w)] if w else 0.0) + (lose[CAMELS.index(lo)] if lo else 0.0)
                            for w, lo in self._cards])
        return leg + overall

    def values_batch(self, dists: np.ndarray, figs, finals: np.ndarray) -> np.ndarray:
        """:meth:`values` of many outcomes at once: ``dists[k, end, code]``,
        ``finals[k, camel, rank]`` -> ``[k, option]``."""
        settled = self.settled(figs)
        orders = _orders()
        leg = dists[:, :, orders].reshape(dists.shape[0], -1) @ settled.reshape(settled.shape[0], -1).T
        win, lose = finals @ WINNER_PAY, finals @ LOSER_PAY  # [k, camel]
        overall = np.zeros(leg.shape)
        for i, (w, lo) in enumerate(self._cards):
            if w:
                overall[:, i] += win[:, CAMELS.index(w)]
            if lo:
                overall[:, i] += lose[:, CAMELS.index(lo)]
        return leg + overall

    @property
    def option_cards(self) -> list[tuple[str | None, str | None]]:
        """Per option (no bet, then each bet): the overall winner and loser
        card the player holds with it."""
        self.settled((False, False))
        return list(self._cards)

    def value(self, dist, figs, final, bet: str | None) -> float:
        return float(self.values(dist, figs, final)[0 if bet is None else 1 + self.bet_list.index(bet)])

    def add(self, action, race, bet, timing, ev):
        self.rows.append({"action": action, "race": race, "bet": bet or "", "timing": timing, "ev": ev})

    def add_now(self) -> None:
        """The race action is played: a bet at the odds now, or none."""
        values = self.values(self.base_dist, self.figs0, self.final0)
        for bet, v in zip(self.bet_list, values[1:]):
            self.add(bet, "", bet, "now", float(v) - self.v0)
        self.add("pass", "", None, "", 0.0)

    def after_card(self, t: int, weight: float) -> tuple[float, ...]:
        """Per option after a reveal whose card is of kind ``t`` (``weight``:
        its probability; no bet, then each bet unless the card ends the leg
        or the race): the turn's value, given the card."""
        from advisor.kernels.cards.track import move

        dist = self.base_codes[t] / weight
        n_t = self.race_all[t, 0].sum()  # P(first card t), as the race sample saw it
        final_t = self.race_all[t] / n_t if n_t else self.final0
        values = self.values(dist, self.figs0, final_t)
        if self._probe is None:
            self._probe = kernel_state(self.pos)
        probe = self._probe.copy()
        ends_now = self.pos.deck == 1 or move(probe.sp, probe.ht, probe.fig, probe.length, t // 2, t % 2 + 1)
        return tuple(float(v) for v in (values[:1] if ends_now else values))

    def add_reveal(self) -> None:
        """``reveal``, each bet before it (odds now), and ``reveal+best``
        (the bet best on the card seen)."""
        from advisor.kernels.cards.track import KINDS

        self.add("reveal", "reveal", None, "", 0.0)
        values = self.values(self.base_dist, self.figs0, self.final0)
        for bet, v in zip(self.bet_list, values[1:]):
            self.add(f"{bet}+reveal", "reveal", bet, "before", float(v) - self.v0)
        weight = self.base_codes.sum(axis=(1, 2))  # P(first card kind)
        after = 0.0
        for t in range(KINDS):
            if weight[t] > 0:
                after += weight[t] * max(self.after_card(t, weight[t]))
        self.add("reveal+best", "reveal", "best after the card", "after", after - self.v0)
        self.outcomes["reveal"] = (self.base_dist, self.figs0, self.final0, False)

    def add_action(self, action: str, dist, figs, final, over: bool) -> None:
        """A hand card or a figure alone and with each bet (none after a
        move that ends the race)."""
        values = self.values(dist, figs, final)
        self.add(action, action, None, "", float(values[0]) - self.v0)
        if not over:
            for bet, v in zip(self.bet_list, values[1:]):
                self.add(f"{action}+{bet}", action, bet, "either", float(v) - self.v0)
        self.outcomes[action] = (dist, figs, final, over)

    def frame(self, **attrs):
        import pandas as pd

        frame = sort_by_ev(pd.DataFrame(self.rows))
        frame.attrs.update(attrs)
        return frame


def race_over_outcome(state: KernelState, figs: tuple[bool, bool]):
    """``(dist[end, code], figs, final[camel, rank])`` of a race action that
    ends the race (a hand card carrying a unit over the finish): one
    outcome, exact."""
    from advisor.kernels.cards.track import CODES, rank_code

    dist = np.zeros((8, CODES))
    end = 1 + 2 * (state.fig[0] != 0 and figs[0]) + 4 * (state.fig[1] != 0 and figs[1])
    dist[end, rank_code(state.sp, state.ht)] = 1.0
    return dist, (True, True), code_ranks(dist.sum(axis=0))


def ends_surely(dist: np.ndarray) -> bool:
    """Whether the race ends in this leg on every branch of ``dist[end, code]``."""
    return _ends_surely(dist)


def advised(pos: CardsPosition) -> CardsPosition:
    """The position the advice values: refused for a spectator's; with
    another player to move (``next:2`` and beyond), as if the advised
    player moved now."""
    if pos.spectator:
        raise AdvisorError("a spectator's position (hands: lists every player) has no advised player")
    return dataclasses.replace(pos, next=0) if pos.next > 1 else pos


def after_action(pos: CardsPosition, base: KernelState, action: str):
    """:func:`_after`: the kernel state after a hand card or a figure, the
    player's figure cards then, and whether the race is over."""
    return _after(pos, base, action)


def cards_turns(position: CardsPosition | str, *, seed: int | None = None, others: str = ADVICE_OTHERS,
                precision: float = 0.002, progress: bool | None = None) -> tuple:
    """``(frame, turns)``: every legal turn (race action and optional bet)
    with its EV, as a pandas DataFrame sorted by EV (highest first), and
    the :class:`TurnRows` behind it (the outcomes the chance of winning is
    computed on: :func:`advisor.cards.best.cards_best`).  The position's
    race odds (behind the overall cards) are simulated until every P(win) and
    P(last) has a 95% half-width below ``precision``; ``.attrs["race"]``
    holds them (``win``, ``lose``, ``win_se``, ``lose_se``, ``rank`` per
    camel) and ``.attrs["race_samples"]`` the races (0: exact).
    ``others``: the other players' model (:data:`~advisor.cards.odds.OTHERS`;
    default ``random``: their race actions in this leg and later ones).
    A position with ``next:1`` (the player's race action of this turn is
    played): the bets at the odds now (``timing`` ``now``) and ``pass``;
    with another player to move (``next:2`` and beyond) the turns are
    valued as if the advised player moved now (``next:0``).
    ``.attrs["others_model"]``: what the other players do in this leg and
    in later legs.
    ``progress``: a progress bar on stderr (default: when stderr is a
    terminal)."""
    import sys

    from tqdm import tqdm

    pos = as_cards(position)
    others = check_others(others)
    precision = check_precision(precision)
    seed = resolve_seed(seed)
    shown = pos
    pos = advised(pos)
    this_leg = OTHERS[others][0]
    base = kernel_state(pos)
    actions = race_actions(pos) if pos.next == 0 else []
    if progress is None:
        progress = sys.stderr.isatty()
    with tqdm(total=len(actions) + 1, unit="step", desc="valuing turns", disable=not progress, file=sys.stderr,
              leave=False) as bar:  # one step for the position's own odds, one per race action
        # the position as it stands: the leg by first card, the race by first card
        base_codes, base_leg_n = leg_distribution(base, None, seed, this_leg=this_leg)  # [first, end, code]
        base_dist = base_codes.sum(axis=0)
        sure_end = base_leg_n == 0 and _ends_surely(base_dist)
        race_all, races, race, crn0 = _base_race(pos, base, base_codes, sure_end, seed, others, precision)
        bar.update()
        turns = TurnRows(pos, this_leg, base_codes, race_all)
        final0 = turns.final0
        if pos.next:  # the race action is played: a bet at the odds now, or none
            turns.add_now()
        else:
            turns.add_reveal()  # reveal: bet before (odds now), or after seeing the card
            bar.update()
        # hand card and figures: one leg and race computation each, same seed
        base_same = None
        try_exact = [True]  # with the other players: until an action's leg is too big to enumerate
        for action in actions[1:]:
            state, figs, over = _after(pos, base, action)
            if over:
                dist, figs, final = race_over_outcome(state, figs)
            else:
                dist, exact = _action_leg(state, seed, this_leg, try_exact)
                if this_leg:
                    figs = (True, True)
                if not exact:  # common random numbers: correct by the same-sample base
                    if base_same is None:
                        base_same = leg_distribution(base, ACTION_LEG_SAMPLES, seed, this_leg=this_leg)[0].sum(axis=0)
                    dist = dist - base_same + base_dist
                if exact and _ends_surely(dist):
                    final = code_ranks(dist[1::2].sum(axis=0))
                else:
                    crn = race_ranks(pos, state, ACTION_RACES, seed, others).sum(axis=0) / ACTION_RACES
                    final = final0 + crn - crn0
            turns.add_action(action, dist, figs, final, over)
            bar.update()
        frame = turns.frame(position=str(shown), seed=seed, others=others, leg_samples=base_leg_n,
                            race_samples=races, race=race, others_model=others_model(others))
    return frame, turns



def _base_race(pos: CardsPosition, base: KernelState, base_codes: np.ndarray, sure_end: bool, seed: int,
               others: str, precision: float):
    """``(race_all[first, camel, rank], races, race dict, crn0)``: the
    position's race by the first card (exact when the race ends in this
    leg on every branch of an exact leg, else races to ``precision``) and
    the :data:`ACTION_RACES` races of ``seed`` the race actions' races are
    compared with (common random numbers)."""
    if sure_end:  # the race ends in this leg: its final ranks are the leg's
        race_all = code_ranks(base_codes[:, 1::2].sum(axis=1))
        final0 = race_all.sum(axis=0)
        zeros = np.zeros(5)
        return race_all, 0, race_dict(final0[:, 0], final0[:, 4], zeros, zeros, final0), final0
    counts, races = races_to_precision(pos, base, seed, others, precision=precision)
    race_all = counts / races  # [first, camel, rank]
    final0 = race_all.sum(axis=0)
    se = np.sqrt(np.clip(final0 * (1 - final0), 0.0, None) / races)  # sums may pass 1 by rounding
    race = race_dict(final0[:, 0], final0[:, 4], se[:, 0], se[:, 4], final0)
    crn0 = race_ranks(pos, base, ACTION_RACES, seed, others).sum(axis=0) / ACTION_RACES
    return race_all, races, race, crn0


def _action_leg(state: KernelState, seed: int, this_leg: bool, try_exact: list) -> tuple[np.ndarray, bool]:
    """``(dist[end, code], exact)`` of the leg after a race action: exact
    when small (:data:`ACTION_EXACT_LEAVES` card sequences of the deck; with
    the other players' actions a deck of at most
    :data:`~advisor.cards.odds.OTHERS_EXACT_CARDS` cards whose turns keep at
    most :data:`ACTION_OTHERS_STATES` states, tried while ``try_exact[0]``:
    once an action's leg is too big the rest of the turn's actions, of about
    the same size, are sampled at once), else :data:`ACTION_LEG_SAMPLES`
    sampled legs of ``seed``."""
    if this_leg:
        codes = None
        if try_exact[0] and state.cards() <= OTHERS_EXACT_CARDS:
            codes = others_exact(state, False, ACTION_OTHERS_STATES)
            try_exact[0] = codes is not None
        if codes is not None:
            return codes.sum(axis=0), True
        return leg_distribution(state, ACTION_LEG_SAMPLES, seed, by_first=False, this_leg=True)[0].sum(axis=0), False
    exact = state.leaves() <= ACTION_EXACT_LEAVES
    codes, _ = leg_distribution(state, None if exact else ACTION_LEG_SAMPLES, seed, by_first=False)
    return codes.sum(axis=0), exact
