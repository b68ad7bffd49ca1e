"""Camel Up Cards odds: the leg's rank distribution and the race's.

**The current leg, the deck alone.**  The rest of the leg is the race deck
revealed card by card: the cards known to be in it plus, for the others, cards drawn from
the unseen ones (the 30 racing cards minus every card the advised player
has seen), every order equally likely.  It is enumerated exactly
(:func:`advisor.kernels.cards.exact.leg_counts`: equal boards merged card by
card, the unseen cards drawn folded into exact moment vectors once two
unknown cards remain) when the deck holds at most :data:`EXACT_CARDS` cards or
:data:`EXACT_LEAVES` card sequences, and otherwise unless the enumeration
would keep more than :data:`EXACT_STATES` states after some card
(:data:`EXACT_STATES_BY_FIRST` when the outcomes are split by the first
card, as the advice needs; it gives up early, from the growth it sees);
then (or if its counts would not fit in 64 bits) the leg is sampled.  A
leg start with the whole 12-card deck unknown is exact (about 0.8 s on two
cores).  That is the leg with ``others="reveal"`` (and ``"later"``): the
deck alone, as if every player revealed.

**The other players in the current leg** (``others="random"``, the
advice's default, :data:`ADVICE_OTHERS`; the odds' default,
:data:`ODDS_OTHERS`, is ``"later"``: the deck alone in this leg).  The rest of the leg is played turn by turn from the player whose
race action comes next (``next:``, default the advised player, 0),
clockwise, until the deck is empty or the race is over.  Each other player
chooses their race action at random, as in later legs (one model for the
leg and the race): reveal; play their hand card (``hands:``; an unseen one
is drawn from the unseen cards, with the deck's unknown cards, without
replacement), which moves its camel 1; put a figure standing beside the
track on a random legal space (each figure one option).  The advised
player reveals on each of their turns in the rest of the leg, the current
one too for the odds (their own choices are the advice's, turn by turn,
and :mod:`advisor.cards.advice` values the current one's; a spectator's
position, ``hands:`` for
every player, has no advised player: player 0 chooses as the others do).
A figure another player puts down is theirs: its card costs the advised
player nothing.  The leg is exact (:func:`advisor.kernels.cards.others.
leg_others_exact`, float64 probabilities) when the deck holds at most
:data:`OTHERS_EXACT_CARDS` cards and no turn keeps more than
:data:`OTHERS_EXACT_STATES` states, else :data:`LEG_SAMPLES` legs are
sampled (each sample deals the deck's order and the unseen hand cards
first, then the choices: common random numbers for the advice).

**Later legs** (race odds).  Each starts with the figures beside the track,
the sandstorm and the track extension (:func:`advisor.kernels.cards.
leg_start`), a race deck of ``decksize`` cards dealt from all 30 and one
hand card per player from the rest.  Players then choose their race action
at random among those open to them (reveal; play the hand card, which moves
its camel 1; place a figure beside the track on a random legal space):
``others="random"`` (the advice's default; the current leg as above) and
``others="later"`` (the odds' default; the current leg: the deck alone).  ``others="reveal"``:
they only reveal, in this leg and later ones.
Race odds are sampled (exact when the race must end in this leg), by
default until every P(win) and P(last) has a 95% half-width below
``precision``, as the board game's race odds are: each race is an
independent draw (race ``i`` from random stream ``(seed, i)``), so a count
``k`` of ``n`` races has the binomial standard error ``sqrt(p (1 - p) / n)``
with ``p = k / n``, and a run that needs more races adds races ``n, n + 1,
...``: the same seed gives the same races, whatever the thread count.
"""

from __future__ import annotations

from dataclasses import dataclass, field
import math
from functools import lru_cache

import numpy as np

from advisor._tools.arraymemo import ArrayMemo
from advisor.errors import AdvisorError
from advisor.cards.position import CAMELS, UNKNOWN_HAND, CardsPosition, parse_cards
from advisor.odds.montecarlo import MAX_RACES, check_precision, check_samples, resolve_seed

__all__ = ["CardsOdds", "cards_odds", "EXACT_CARDS", "EXACT_LEAVES", "EXACT_STATES", "EXACT_STATES_BY_FIRST", "OTHERS",
           "OTHERS_EXACT_CARDS", "OTHERS_EXACT_STATES", "ODDS_OTHERS", "ADVICE_OTHERS", "kernel_state", "KERNEL_MEMO"]

#: The rest of a leg is enumerated exactly unless the merged enumeration
#: would reach more than this many (board, deck state) pairs after some
#: card: the leg odds (outcomes not split by the first card).  A whole
#: unknown 12-card deck at a game start keeps at most 6,643,120 (after 10
#: cards) and takes about 0.8 s on the 2-core benchmark machine
#: (``benchmarks/bench_cards.py``); a stack of five with 12 unknown cards
#: would keep tens of millions, and is sampled (the enumeration gives up
#: early, from the growth it sees).
EXACT_STATES = 8_000_000
#: The same by first card (the advice, which values each first card of a
#: reveal): about three times the states and the time (a whole unknown
#: 12-card deck: about 2.3 s on both cores), so a 12-card deck is sampled
#: and a whole unknown 10-card deck (under 700,000) is exact.
EXACT_STATES_BY_FIRST = 700_000
#: ... and always (whatever the states) when the deck holds at most this
#: many cards or at most this many card sequences (few kinds of cards left).
EXACT_CARDS = 7
EXACT_LEAVES = 2_000_000
#: Outcomes counted must fit in int64 with room to spare.
MAX_OUTCOMES = 2 ** 62
LEG_SAMPLES = 200_000
#: With the other players' race actions (``others="random"``) the rest of
#: the leg is exact when the deck holds at most this many cards and no
#: turn keeps more than this many states (the figures' placements make
#: them grow fast: a 2-card deck with 3 other players may reach 850,000
#: after the advised player's turn, 2.7 s of CPU; see docs/explanations/cards-model.md); else
#: :data:`LEG_SAMPLES` legs are sampled.
OTHERS_EXACT_CARDS = 2
OTHERS_EXACT_STATES = 200_000
#: The other players' models (``others=``): (this leg, later legs) random?
OTHERS = {"random": (True, True), "later": (False, True), "reveal": (False, False)}
#: The default models: the odds are the deck's in this leg (what the cards
#: can do: the rules' information model, and the figures other calculators
#: give), the other players choosing at random in later legs; the advice
#: also has them choose at random in this leg, which changes the decision
#: (docs/explanations/cards-model.md).
ODDS_OTHERS = "later"
ADVICE_OTHERS = "random"
#: Races in the first round when sampling to a precision: a quarter of what
#: the target needs if a probability were 1/2, within these bounds.
FIRST_RACES = (1_000, 20_000)
#: The normal quantile of the 95% intervals (races are independent draws).
Z95 = 1.959963984540054
MAX_LEGS = 32
#: The process-wide memo of the kernels' results (:func:`leg_distribution`,
#: :func:`others_exact`, :func:`race_ranks`, so :func:`races_to_precision`
#: too): each is a pure function of the kernel state (the position's
#: camels, figures, track, deck, hands, players, next), the seed and its
#: arguments, never of the bets a player holds, so the positions of one
#: turn (its start, then after a bet) and every race action's run the
#: kernels once.  128 results, 64 MiB at most (a leg distribution by first
#: card is 0.4 MB); callers get copies.  ``KERNEL_MEMO.enabled = False``
#: runs every kernel; ``KERNEL_MEMO.clear()`` forgets them.
KERNEL_MEMO = ArrayMemo(128, 64 << 20)


@dataclass
class KernelState:
    """A position as the kernels take it (:mod:`advisor.kernels.cards`;
    ``own``, ``players``, ``nxt``, ``hands`` and ``random_mask`` as in
    :mod:`advisor.kernels.cards.others`)."""

    sp: np.ndarray
    ht: np.ndarray
    fig: np.ndarray
    track: np.ndarray
    ncards: int
    length: int
    known: np.ndarray
    pool: np.ndarray
    unknown: int
    own: np.ndarray = field(default_factory=lambda: np.zeros(2, np.int64))
    players: int = 4
    nxt: int = 0
    hands: np.ndarray = field(default_factory=lambda: np.full(4, -1, np.int64))
    random_mask: int = 0

    def copy(self) -> "KernelState":
        return KernelState(self.sp.copy(), self.ht.copy(), self.fig.copy(), self.track.copy(), self.ncards,
                           self.length, self.known.copy(), self.pool.copy(), self.unknown, self.own.copy(),
                           self.players, self.nxt, self.hands.copy(), self.random_mask)

    def cards(self) -> int:
        """Cards left in the race deck."""
        return int(self.known.sum()) + self.unknown

    def leaves(self) -> float:
        """An upper bound on the card sequences of the rest of the leg."""
        kinds = np.count_nonzero((self.known > 0) | ((self.pool > 0) & (self.unknown > 0)))
        return float(max(kinds, 1)) ** (int(self.known.sum()) + self.unknown)


def _key(state: KernelState) -> tuple:
    """The memo's key of a kernel state: every field, arrays by type, shape and bytes."""
    arrays = (state.sp, state.ht, state.fig, state.track, state.known, state.pool, state.own, state.hands)
    return (tuple((a.dtype.str, a.shape, a.tobytes()) for a in arrays), int(state.ncards), int(state.length),
            int(state.unknown), int(state.players), int(state.nxt), int(state.random_mask))


def kind_of(card) -> int:
    return 2 * CAMELS.index(card[0]) + card[1] - 1


def kernel_state(pos: CardsPosition) -> KernelState:
    from advisor.kernels.cards.track import HALF, KINDS, MAX_CARDS, NORMAL, SAND
    from advisor.kernels.cards.others import HAND_UNKNOWN

    sp = np.zeros(5, np.int64)
    ht = np.zeros(5, np.int64)
    for space, stack in pos.stacks:
        for h, c in enumerate(stack):
            sp[CAMELS.index(c)] = space
            ht[CAMELS.index(c)] = h
    fig = np.array([pos.palm[0] if pos.palm else 0, pos.fennec[0] if pos.fennec else 0], np.int64)
    track = np.zeros(MAX_CARDS, np.int64)
    codes = {"n": NORMAL, "s": SAND, "h": HALF}  # the track letters of the notation
    track[: len(pos.track)] = [codes[c] for c in pos.track]
    known = np.zeros(KINDS, np.int64)
    for card in pos.known:
        known[kind_of(card)] += 1
    pool = np.zeros(KINDS, np.int64)
    for card, n in pos.unseen().items():
        pool[kind_of(card)] = n
    own = np.array([int(bool(f and f[1] == 0)) for f in (pos.palm, pos.fennec)], np.int64)
    hands = np.array([-1 if h is None else HAND_UNKNOWN if h == UNKNOWN_HAND else kind_of(h)
                      for h in pos.seat_hands()], np.int64)
    # the other players choose at random (with a spectator's position, player 0 too)
    mask = ((1 << pos.players) - 1) & ~(0 if pos.spectator else 1)
    return KernelState(sp, ht, fig, track, len(pos.track), pos.length, known, pool, pos.unknown, own, pos.players,
                       pos.next, hands, mask)


def exact_fits(state: KernelState) -> bool:
    """Whether the leg's outcomes (see :func:`advisor.kernels.cards.deck.
    completions`) fit the kernel's int64 counts."""
    known = int(state.known.sum())
    n = math.comb(known + state.unknown, state.unknown)
    left = known
    for k in state.known:
        n *= math.comb(left, int(k))
        left -= int(k)
    return n * math.perm(int(state.pool.sum()), state.unknown) < MAX_OUTCOMES


def state_limit(state: KernelState, by_first: bool = True) -> int:
    """The states the exact enumeration may keep after a card (-1: any)."""
    small = state.cards() <= EXACT_CARDS or state.leaves() <= EXACT_LEAVES
    return -1 if small else (EXACT_STATES_BY_FIRST if by_first else EXACT_STATES)


def exact_counts(state: KernelState, by_first: bool = True, limit: int | None = None):
    """``(codes[first, end, code] int64 counts, outcomes)`` of the merged
    exact enumeration, or None if it would keep more than ``limit``
    (default :func:`state_limit`) states after some card or its counts
    would not fit in int64."""
    from advisor.kernels.cards.track import CODES, KINDS
    from advisor.kernels.cards.exact import leg_counts

    if not exact_fits(state):
        return None
    if limit is None:
        limit = state_limit(state, by_first)
    counts = np.zeros((KINDS, 8, CODES), np.int64)
    figs = np.zeros((KINDS, 2), np.int64)
    total = leg_counts(state.sp, state.ht, state.fig, state.length, state.known, state.pool, state.unknown,
                       by_first, counts, figs, np.zeros(max(state.cards(), 1), np.int64), limit)
    return None if total < 0 else (counts, total)


def others_exact(state: KernelState, by_first: bool = True, limit: int | None = None) -> np.ndarray | None:
    """:func:`_others_exact` through :data:`KERNEL_MEMO`."""
    key = ("others_exact", _key(state), bool(by_first), None if limit is None else int(limit))
    return KERNEL_MEMO.get(key, lambda: _others_exact(state, by_first, limit))


def _others_exact(state: KernelState, by_first: bool = True, limit: int | None = None) -> np.ndarray | None:
    """``codes[first, end, code]`` probabilities of the rest of the leg with
    the other players' race actions (:func:`advisor.kernels.cards.others.
    leg_others_exact`), or None when the deck holds more than
    :data:`OTHERS_EXACT_CARDS` cards or a turn would keep more than
    ``limit`` (default :data:`OTHERS_EXACT_STATES`; -1: any) states."""
    from advisor.kernels.cards.track import CODES, KINDS
    from advisor.kernels.cards.others import leg_others_exact

    if limit is None:
        if state.cards() > OTHERS_EXACT_CARDS:
            return None
        limit = OTHERS_EXACT_STATES
    codes = np.zeros((KINDS, 8, CODES))
    most = leg_others_exact(state.sp, state.ht, state.fig, state.own, state.length, state.known, state.pool,
                            state.unknown, state.players, state.nxt, state.hands, state.random_mask, by_first, codes,
                            limit)
    return None if most < 0 else codes


def leg_distribution(state: KernelState, samples: int | None, seed: int,
                     by_first: bool = True, this_leg: bool = False,
                     limit: int | None = None) -> tuple[np.ndarray, int]:
    """:func:`_leg_distribution` through :data:`KERNEL_MEMO`."""
    key = ("leg", _key(state), None if samples is None else int(samples), int(seed), bool(by_first),
           bool(this_leg), None if limit is None else int(limit))
    return KERNEL_MEMO.get(key, lambda: _leg_distribution(state, samples, seed, by_first, this_leg, limit))


def _leg_distribution(state: KernelState, samples: int | None, seed: int, by_first: bool = True,
                      this_leg: bool = False, limit: int | None = None) -> tuple[np.ndarray, int]:
    """``(codes[first, end, code] probabilities, samples)``: exact
    (``samples`` 0) when none were asked for and the enumeration stays
    within :data:`EXACT_STATES` (:func:`exact_counts`; by first card
    :data:`EXACT_STATES_BY_FIRST`).
    ``by_first=False``: an exact result puts every outcome under first
    card 0 (faster; for callers that sum over it).  ``this_leg``: with the
    other players' race actions (:func:`others_exact`, with ``limit``, or
    ``samples`` or :data:`LEG_SAMPLES` legs of
    :func:`advisor.kernels.cards.others.leg_others_sample`); the end codes
    then count a figure on the track only when the advised player holds
    its card."""
    from advisor.kernels.cards.track import CODES, KINDS, leg_sample

    if this_leg:
        from advisor.kernels.cards.others import leg_others_sample

        if samples is None:
            exact = others_exact(state, by_first, limit)
            if exact is not None:
                return exact, 0
        n = samples or LEG_SAMPLES
        codes = np.zeros((KINDS, 8, CODES))
        leg_others_sample(state.sp, state.ht, state.fig, state.own, state.length, state.known, state.pool,
                          state.unknown, state.players, state.nxt, state.hands, state.random_mask, n, seed, codes)
        return codes / n, n
    if samples is None:
        exact = exact_counts(state, by_first)
        if exact is not None:
            counts, total = exact
            return counts / total, 0
    codes = np.zeros((KINDS, 8, CODES))
    figs = np.zeros((KINDS, 2))
    n = samples or LEG_SAMPLES
    leg_sample(state.sp, state.ht, state.fig, state.length, state.known, state.pool, state.unknown, n, seed,
               codes, figs)
    return codes / n, n


def race_ranks(pos: CardsPosition, state: KernelState, samples: int, seed: int, others: str,
               start: int = 0) -> np.ndarray:
    """Sampled final-rank counts ``[first card kind, camel, rank]`` of
    races ``start .. start + samples - 1`` (race ``i`` from stream ``(seed, i)``)
    under the ``others`` model (:data:`OTHERS`), through :data:`KERNEL_MEMO`
    (the position counts by its players and deck size)."""
    key = ("race", _key(state), int(pos.players), int(pos.decksize), int(samples), int(seed), str(others),
           int(start))
    return KERNEL_MEMO.get(key, lambda: _race_ranks(pos, state, samples, seed, others, start))


def _race_ranks(pos: CardsPosition, state: KernelState, samples: int, seed: int, others: str,
                start: int = 0) -> np.ndarray:
    from advisor.kernels.cards.track import KINDS, race_sample

    ranks = np.zeros((KINDS, 5, 5), np.int64)
    legs = np.zeros(MAX_LEGS + 1, np.int64)
    if others == "random":  # this leg too
        from advisor.kernels.cards.others import race_others_sample

        race_others_sample(state.sp, state.ht, state.fig, state.own, state.track, state.ncards, state.known,
                           state.pool, state.unknown, pos.players, state.nxt, state.hands, state.random_mask,
                           pos.decksize, True, start, start + samples, seed, ranks, legs)
        return ranks
    race_sample(state.sp, state.ht, state.fig, state.track, state.ncards, state.known, state.pool, state.unknown,
                pos.players, pos.decksize, others != "reveal", start, start + samples, seed, ranks, legs)
    return ranks


def half_width(counts: np.ndarray, races: int) -> float:
    """The largest 95% half-width among P(win) and P(last) of the camels,
    from final-rank counts ``[..., camel, rank]`` of ``races`` races."""
    p = counts.reshape(-1, 5, 5).sum(axis=0)[:, [0, 4]] / races
    return float(Z95 * np.sqrt(p * (1 - p) / races).max())


def races_to_precision(pos: CardsPosition, state: KernelState, seed: int, others: str, *,
                       samples: int | None = None, precision: float = 0.002) -> tuple[np.ndarray, int]:
    """``(final-rank counts [first card kind, camel, rank], races)``:
    ``samples`` races, or (default) races until every P(win) and P(last)
    has a 95% half-width below ``precision`` (at most
    :data:`~advisor.odds.montecarlo.MAX_RACES`).  Each round plans the races
    still needed from the spread seen so far (+10%)."""
    if samples is not None:
        return race_ranks(pos, state, samples, seed, others), samples
    worst = int(np.ceil(0.25 * (Z95 / precision) ** 2))  # enough if every p were 1/2
    n = min(worst, max(FIRST_RACES[0], min(worst // 4, FIRST_RACES[1])))
    counts = race_ranks(pos, state, n, seed, others)
    while n < min(worst, MAX_RACES) and half_width(counts, n) > precision:
        p = counts.sum(axis=0)[:, [0, 4]] / n
        need = int(np.ceil(1.1 * (Z95 / precision) ** 2 * (p * (1 - p)).max()))
        more = min(max(need, n + n // 4), worst, MAX_RACES) - n
        counts = counts + race_ranks(pos, state, more, seed, others, start=n)
        n += more
    return counts, n


@lru_cache(maxsize=1)
def _code_onehot() -> np.ndarray:
    """``[code, camel, rank]``: 1 where race order ``code`` ranks the camel
    so (codes that are no race order: all 0).  Read-only (cached)."""
    from advisor.kernels.ranks import rank_codes

    table = rank_codes()  # [code, camel] -> rank (-1: no permutation)
    onehot = np.zeros((table.shape[0], 5, 5))
    idx = np.nonzero(table[:, 0] >= 0)[0]
    for camel in range(5):
        onehot[idx, camel, table[idx, camel]] = 1.0
    onehot.setflags(write=False)
    return onehot


def code_ranks(codes: np.ndarray) -> np.ndarray:
    """``[..., code]`` probabilities to ``[..., camel, rank]``."""
    return np.tensordot(codes, _code_onehot(), axes=([-1], [0]))


@dataclass(frozen=True)
class CardsOdds:
    """Leg and race odds of a Camel Up Cards position.

    ``leg[i, k]``: P(camel ``i`` is ranked k+1 when the leg is scored);
    ``race_ends``: P(the race ends in this leg); ``win[i]`` / ``lose[i]``:
    P(camel ``i`` finishes the race first / last) with standard errors
    ``win_se`` / ``lose_se`` (0 when exact); ``rank[i, k]``: P(camel ``i``
    finishes the race k+1-th).  The race figures are None with ``race=False``."""

    position: CardsPosition
    leg: np.ndarray
    leg_samples: int
    race_ends: float
    win: np.ndarray | None
    lose: np.ndarray | None
    win_se: np.ndarray | None
    lose_se: np.ndarray | None
    race_samples: int
    others: str
    seed: int
    rank: np.ndarray | None = None

    @property
    def camels(self) -> tuple[str, ...]:
        return tuple(CAMELS)

    def to_frame(self):
        import pandas as pd

        frame = pd.DataFrame(self.leg, index=list(CAMELS), columns=[f"leg_{k + 1}" for k in range(5)])
        if self.win is not None:
            frame["race_win"] = self.win
            frame["race_lose"] = self.lose
        frame.index.name = "camel"
        return frame

    def to_dict(self) -> dict:
        out = {
            "position": str(self.position),
            "leg": {c: {"rank": [float(x) for x in self.leg[i]]} for i, c in enumerate(CAMELS)},
            "leg_samples": self.leg_samples,
            "race_ends_this_leg": self.race_ends,
        }
        if self.win is not None:
            out["race"] = race_dict(self.win, self.lose, self.win_se, self.lose_se, self.rank)
            out["race_samples"] = self.race_samples
            out["others"] = self.others
        out["others_model"] = others_model(self.others)
        return out


def race_dict(win, lose, win_se, lose_se, rank) -> dict:
    """``{"B": {"win", "lose", "win_se", "lose_se", "rank"}, ...}``: the
    board game's ``race`` object of the JSON output."""
    return {
        c: {"win": float(win[i]), "lose": float(lose[i]), "win_se": float(win_se[i]),
            "lose_se": float(lose_se[i]), "rank": [float(x) for x in rank[i]]}
        for i, c in enumerate(CAMELS)
    }


def as_cards(position) -> CardsPosition:
    if isinstance(position, CardsPosition):
        return position
    if isinstance(position, str):
        return parse_cards(position)
    raise AdvisorError(f"expected a Camel Up Cards position, not {type(position).__name__}")


def check_others(others: str) -> str:
    if others not in OTHERS:
        raise AdvisorError(f"others must be {', '.join(map(repr, OTHERS))}, not {others!r}")
    return others


def others_model(others: str) -> dict:
    """The JSON ``others_model`` object: what the other players do in this
    leg and in later legs (``random``: a random race action; ``reveal``)."""
    this_leg, later = OTHERS[others]
    return {"this_leg": "random" if this_leg else "reveal", "later_legs": "random" if later else "reveal"}


def cards_odds(position: CardsPosition | str, *, samples: int | None = None, leg_samples: int | None = None,
               precision: float = 0.002, seed: int | None = None, others: str = ODDS_OTHERS,
               race: bool = True) -> CardsOdds:
    """Leg and race odds (see the module docstring for the model; by
    default, :data:`ODDS_OTHERS`, the deck's leg and the other players
    choosing at random in later legs).  Race odds are simulated until every P(win) and P(last) has a 95%
    half-width below ``precision`` (default 0.002: +-0.2 percentage points),
    or with exactly ``samples`` races; ``leg_samples``: sample the leg even
    when it could be enumerated; ``race=False``: the leg only (the race
    figures are then None)."""
    pos = as_cards(position)
    others = check_others(others)
    if samples is not None:
        samples = check_samples(samples)
    precision = check_precision(precision)
    if leg_samples is not None:
        leg_samples = check_samples(leg_samples)
    seed = resolve_seed(seed)
    state = kernel_state(pos)
    codes, n_leg = leg_distribution(state, leg_samples, seed, by_first=False, this_leg=OTHERS[others][0])
    by_end = codes.sum(axis=0)  # [end, code]
    leg = code_ranks(by_end.sum(axis=0))
    over = by_end[1::2].sum(axis=0)  # race over in this leg
    race_ends = float(over.sum())
    if not race:
        return CardsOdds(pos, leg, n_leg, race_ends, None, None, None, None, 0, others, seed)
    if n_leg == 0 and race_ends > 1 - 1e-12:
        final = code_ranks(over)
        zeros = np.zeros(5)
        return CardsOdds(pos, leg, 0, race_ends, final[:, 0], final[:, 4], zeros, zeros, 0, others, seed, final)
    counts, races = races_to_precision(pos, state, seed, others, samples=samples, precision=precision)
    ranks = counts.sum(axis=0) / races
    win, lose = ranks[:, 0], ranks[:, 4]
    se = lambda p: np.sqrt(p * (1 - p) / races)  # noqa: E731
    return CardsOdds(pos, leg, n_leg, race_ends, win, lose, se(win), se(lose), races, others, seed, ranks)
