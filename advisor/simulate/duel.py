"""Paired duels: is bot A stronger than bot B, measured with common random numbers.

Pair ``p`` of a duel seeded ``S`` is two games with the same seed
(:func:`advisor.simulate.games.game_seed` ``(S, p)``) and per-leg dice
(:mod:`advisor.rules.dice`, ``dice="leg"``): the same set-up, first player and
dice leg by leg whatever the players decide.  In the first game A sits in
seat ``p mod players``, in the second B sits there; the other seats hold the
same field in the same order (the field follows the duelist round the
table, so the player after the duelist is always the field's first bot).
The two games therefore differ only by the decisions of A and B (and the
field's answers to them): the luck of the dice, of the seat and of the
set-up cancels in the difference, which is what makes small differences
measurable with far fewer games than independent games need
(``benchmarks/bench_duel.py`` measures how many fewer).

**Camel Up Cards** (``edition="cards"``): a Cards game's chance is each
leg's deal and the order of its race deck, and the deck holds the cards
the players chose to put into it.  A pair's two games draw them per leg
(:mod:`advisor.cards.chance`, ``dice="leg"``): the same set-up cards, the
same deal in every leg, and a race deck in the order of a key drawn per
physical card, so the cards both decks hold come in the same relative
order (the same deck when the players built the same one).  That is the
ruling of what "the same dice" means in Camel Up Cards.  The default field
is the greedy Cards bot.

Per pair the result of each side is its win (1, or ``1/k`` for a first
place shared by ``k`` players, as :class:`advisor.simulate.games.Standings`
counts it) and its final money; the paired differences ``A - B`` give the
mean difference and its 95% interval (normal: mean +- 1.96 sd / sqrt(pairs)).

Sequential test (:class:`SPRT`): optionally the duel stops as soon as the
win-rate differences decide between H0, "A's win rate exceeds B's by
``h0``" and H1, "by ``h1``" (e.g. 0 and 2 points), with error rates
``alpha`` (accepting H1 when H0 holds) and ``beta`` (accepting H0 when H1
holds): Wald's sequential probability ratio test on the per-pair win
differences, their log-likelihood ratio taken from the normal model with
the variance estimated from the pairs so far (the generalised SPRT),
``LLR = n (h1 - h0) (2 mean - h0 - h1) / (2 var)``, H1 accepted once
``LLR >= log((1 - beta) / alpha)``, H0 once ``LLR <= log(beta / (1 - alpha))``.
The test is looked at after every complete turn of the seats (every
``players`` pairs, so every seat has counted as often) from
``min_pairs`` pairs on (the variance estimate needs them).  After an
early stop the intervals are the plain ones of the pairs played (their
coverage is nominal: the test's own guarantee is its ``alpha`` and
``beta``).
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass
from typing import TYPE_CHECKING, Sequence

import numpy as np

from advisor.errors import AdvisorError
from advisor._tools.intervals import Z95, clip  # Z95: the two-sided 95% normal quantile
from advisor.cards.game import CardsSetup
from advisor.rules.editions import get_edition
from advisor.simulate.games import Schedule, game_seed, is_cards_edition, play_schedule, schedule_to_file

if TYPE_CHECKING:
    from advisor.rules.editions import Edition

__all__ = ["duel", "DuelSchedule", "DuelTally", "SPRT", "default_field", "DEFAULT_FIELD_BOT", "Z95"]

#: The bot of every other seat when no field is given: the strongest
#: built-in bot, as a difference among strong players is what needs measuring.
DEFAULT_FIELD_BOT = "rival"
#: The same for Camel Up Cards.
DEFAULT_CARDS_FIELD_BOT = "greedy"



def default_field(players: int, cards: bool = False) -> list[str]:
    """The field of a duel at ``players`` seats when none is given
    (``cards``: of Camel Up Cards)."""
    return [DEFAULT_CARDS_FIELD_BOT if cards else DEFAULT_FIELD_BOT] * (players - 1)


class DuelSchedule(Schedule):
    """Game ``2p`` is pair ``p``'s game with ``a`` in seat ``p mod
    players``, game ``2p + 1`` the same with ``b``; both seeded
    :func:`game_seed` ``(seed, p)``, with per-leg dice."""

    bots_hint = "A, B or --field"

    def __init__(self, a: str, b: str, field: Sequence[str], seed: int = 0):
        super().__init__([a, *field], seed, rotate=True, dice="leg")
        self.a, self.b, self.field = a, b, list(field)

    def names(self) -> list[str]:
        return list(dict.fromkeys([self.a, self.b, *self.field]))

    def seated_by(self, index: int, found) -> None:
        """A duel has no other seating to name (resume's message)."""
        return None

    def seat_of(self, pair: int) -> int:
        """The seat of the duelist in pair ``pair``."""
        return pair % self.players

    def seats(self, index: int) -> list[str]:
        pair, side = divmod(index, 2)
        lineup = [(self.a, self.b)[side], *self.field]
        seat = self.seat_of(pair)
        return [lineup[(s - seat) % self.players] for s in range(self.players)]

    def seed_of(self, index: int) -> int:
        return game_seed(self.seed, index // 2)


@dataclass(frozen=True)
class SPRT:
    """The sequential test of a duel (see the module text).  ``h0``,
    ``h1``: A's win rate minus B's under each hypothesis, as fractions
    (0.02 = 2 points); ``alpha``, ``beta``: the error rates; ``min_pairs``:
    pairs before the first look."""

    h0: float = 0.0
    h1: float = 0.02
    alpha: float = 0.05
    beta: float = 0.05
    min_pairs: int = 100

    def __post_init__(self):
        for name in ("h0", "h1", "alpha", "beta"):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
                raise AdvisorError(f"SPRT {name} must be a number, not {value!r:.40}")
        if not -1 < self.h0 < self.h1 < 1:
            raise AdvisorError(f"SPRT hypotheses must satisfy -1 < h0 < h1 < 1 (win-rate differences), "
                               f"not h0={self.h0:g}, h1={self.h1:g}")
        for name in ("alpha", "beta"):
            if not 0 < getattr(self, name) < 0.5:
                raise AdvisorError(f"SPRT {name} must lie between 0 and 0.5, not {getattr(self, name):g}")
        if isinstance(self.min_pairs, bool) or not isinstance(self.min_pairs, int) or self.min_pairs < 2:
            raise AdvisorError(f"SPRT min_pairs must be a whole number >= 2, not {self.min_pairs!r:.40}")

    @property
    def lower(self) -> float:
        """H0 is accepted once the LLR is at or below this."""
        return math.log(self.beta / (1 - self.alpha))

    @property
    def upper(self) -> float:
        """H1 is accepted once the LLR is at or above this."""
        return math.log((1 - self.beta) / self.alpha)

    def llr(self, n: int, mean: float, var: float) -> float:
        """The log-likelihood ratio of H1 against H0 after ``n`` pairs whose
        win differences have mean ``mean`` and variance ``var`` (no spread
        at all: the hypothesis nearer the mean is certain)."""
        lead = n * (self.h1 - self.h0) * (2 * mean - self.h0 - self.h1) / 2
        if var > 0:
            return lead / var
        return 0.0 if lead == 0 else math.copysign(math.inf, lead)

    def decide(self, llr: float) -> str | None:
        """``"H1"``, ``"H0"`` or ``None`` (go on)."""
        if llr >= self.upper:
            return "H1"
        if llr <= self.lower:
            return "H0"
        return None


class DuelTally:
    """The results of a duel, pair by pair: feed it each game's index and
    end line in order (:meth:`add`, as ``on_game`` of
    :func:`advisor.simulate.games.schedule_to_file`); :meth:`add` returns True
    once the sequential test, if any, has decided."""

    def __init__(self, schedule: DuelSchedule, sprt: SPRT | None = None):
        self.schedule = schedule
        self.sprt = sprt
        self.rows: list[tuple[float, float, int, int]] = []  # per pair: a win, b win, a money, b money
        self._first: tuple[float, int] | None = None  # A's result while B's game is awaited
        self.llr: float | None = None
        self.decision: str | None = None
        self.decided_at: int | None = None

    @property
    def pairs(self) -> int:
        return len(self.rows)

    def add(self, index: int, end: dict) -> bool:
        pair, side = divmod(index, 2)
        if pair != self.pairs or (side == 1) != (self._first is not None):
            raise AdvisorError(f"duel game {index} came out of order (pairs so far: {self.pairs})")
        seat = self.schedule.seat_of(pair)
        won = 1 / len(end["winners"]) if seat in end["winners"] else 0.0
        result = (won, int(end["money"][seat]))
        if side == 0:
            self._first = result
            return False
        (aw, am), (bw, bm) = self._first, result
        self._first = None
        self.rows.append((aw, bw, am, bm))
        return self._look()

    def _look(self) -> bool:
        sprt = self.sprt
        if sprt is None or self.decision is not None:
            return self.decision is not None
        n = self.pairs
        if n < sprt.min_pairs or n % self.schedule.players:
            return False
        diff = self.arrays()["win_diff"]
        self.llr = sprt.llr(n, float(diff.mean()), float(diff.var(ddof=1)))
        self.decision = sprt.decide(self.llr)
        if self.decision is not None:
            self.decided_at = n
        return self.decision is not None

    def arrays(self) -> dict[str, np.ndarray]:
        """Per pair: ``a_win``, ``b_win``, ``a_money``, ``b_money``,
        ``win_diff``, ``money_diff`` (A minus B)."""
        data = np.array(self.rows, dtype=float).reshape(-1, 4)
        out = {"a_win": data[:, 0], "b_win": data[:, 1], "a_money": data[:, 2], "b_money": data[:, 3]}
        out["win_diff"] = out["a_win"] - out["b_win"]
        out["money_diff"] = out["a_money"] - out["b_money"]
        return out

    def pairs_frame(self):
        """One row per pair: its seed, the duelist's seat, each side's win
        and money, the differences."""
        import pandas as pd

        sched = self.schedule
        frame = pd.DataFrame(self.arrays())
        frame.insert(0, "seat", [sched.seat_of(p) for p in range(self.pairs)])
        frame.insert(0, "seed", [sched.seed_of(2 * p) for p in range(self.pairs)])
        frame.index.name = "pair"
        return frame

    def summary(self) -> dict:
        """Every figure of the duel (NaN where a figure needs more pairs)."""
        sched = self.schedule
        n = self.pairs
        arr = self.arrays()
        out: dict = {"a": sched.a, "b": sched.b, "players": sched.players, "field": sched.field, "seed": sched.seed,
                     "pairs": n, "games": 2 * n}
        for key, a, b, d in (("win", "a_win", "b_win", "win_diff"), ("money", "a_money", "b_money", "money_diff")):
            mean = float(arr[d].mean()) if n else math.nan
            sd = float(arr[d].std(ddof=1)) if n > 1 else math.nan
            # independent games: the variance of one A-game minus one B-game is the sum of the variances
            sd_unpaired = math.sqrt(arr[a].var(ddof=1) + arr[b].var(ddof=1)) if n > 1 else math.nan
            half = Z95 * sd / math.sqrt(n) if n > 1 else math.nan
            lo, hi = mean - half, mean + half
            if key == "win":  # a difference of two win rates lies in -1..1
                lo, hi = clip(lo, hi, -1.0, 1.0)
            out[key] = {"a": float(arr[a].mean()) if n else math.nan, "b": float(arr[b].mean()) if n else math.nan,
                        "diff": mean, "lo": lo, "hi": hi, "sd": sd, "sd_unpaired": sd_unpaired}
        out["sprt"] = None if self.sprt is None else {
            **asdict(self.sprt), "lower": self.sprt.lower, "upper": self.sprt.upper, "llr": self.llr,
            "decision": self.decision, "pairs": self.decided_at}
        return out

    def frame(self, **attrs):
        """The summary as a DataFrame: rows ``win_rate`` and ``money``;
        columns ``a``, ``b`` (each side's mean), ``diff`` (A - B),
        ``diff_lo``, ``diff_hi`` (its 95% interval), ``sd`` (of the
        per-pair difference), ``sd_unpaired`` (of the difference of one A
        and one B game played independently).  ``attrs``: the run (a, b,
        field, players, seed, pairs, games, sprt, and ``attrs``)."""
        import pandas as pd

        summary = self.summary()
        rows = {}
        for key, name in (("win", "win_rate"), ("money", "money")):
            s = summary[key]
            rows[name] = {"a": s["a"], "b": s["b"], "diff": s["diff"], "diff_lo": s["lo"], "diff_hi": s["hi"],
                          "sd": s["sd"], "sd_unpaired": s["sd_unpaired"]}
        frame = pd.DataFrame.from_dict(rows, orient="index")
        frame.attrs.update({k: v for k, v in summary.items() if k not in ("win", "money")}, **attrs)
        return frame


def _check_duel(a: str, b: str, players: int, field: Sequence[str] | None, edition) -> list[str]:
    cards = is_cards_edition(edition)
    if cards:
        try:
            CardsSetup(players=players)
            problem = None
        except AdvisorError as exc:
            problem = str(exc)
    else:
        problem = get_edition(edition).players_problem(players)
    if problem:
        raise AdvisorError(problem)
    for name in (a, b):
        if not isinstance(name, str):
            raise AdvisorError(f"a duelist is a bot's name, not {name!r:.40}")
    if field is None:
        return default_field(players, cards)
    field = [field] if isinstance(field, str) else list(field)
    if len(field) == 1 and players > 2:
        field = field * (players - 1)  # one bot fills every other seat
    if len(field) != players - 1:
        raise AdvisorError(f"the field names {len(field)} bots for the {players - 1} other seats of "
                           f"{players} players: give one bot per seat, or one bot for all")
    return field


def duel(a: str, b: str, games: int, *, players: int = 4, field: Sequence[str] | str | None = None,
         edition: "str | Edition" = "second", seed: int = 0, sprt: SPRT | None = None,
         processes: int | None = None, progress: bool | None = None, engine: str = "local",
         scheduler: str | None = None, output=None, resume: bool = False, records: list | None = None,
         overwrite: bool = False):
    """A paired duel of bot ``a`` against bot ``b``: ``games`` pairs (each
    two games, ``2 * games`` in all; fewer when ``sprt`` decides early) at
    ``players`` seats against ``field`` (the bots of the other seats, in
    order after the duelist; one name fills them all; default
    :func:`default_field`).  Returns :meth:`DuelTally.frame` (a table
    pair by pair: :class:`DuelTally` fed by
    :func:`advisor.simulate.games.play_schedule` of a :class:`DuelSchedule`, as
    here).

    ``output``: also write every game's record to this JSON lines file
    (streamed into ``output.part``, renamed when the run is complete;
    ``resume`` continues an interrupted run, as
    :func:`advisor.simulate.games.simulate_to_file`; an existing ``output`` is
    replaced only with ``overwrite``).  ``records``: a list to
    collect the records into.  ``processes``, ``progress``, ``engine``,
    ``scheduler``: as for :func:`advisor.simulate.games.simulate`; the result is
    the same whatever they are."""
    if sprt is not None and not isinstance(sprt, SPRT):
        raise AdvisorError(f"sprt must be an advisor.simulate.duel.SPRT, not {type(sprt).__name__}")
    field = _check_duel(a, b, players, field, edition)
    schedule = DuelSchedule(a, b, field, seed)
    tally = DuelTally(schedule, sprt)
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise AdvisorError(f"games (pairs) must be a whole number >= 1, not {games!r:.40}")
    if output is not None:
        def on_game(index: int, end: dict) -> bool:
            return tally.add(index, end)

        if records is not None:
            raise AdvisorError("give output or records, not both (read the records from the output file)")
        schedule_to_file(schedule, 2 * games, output, edition=edition, processes=processes, resume=resume,
                         progress=progress, on_game=on_game, engine=engine, scheduler=scheduler,
                         overwrite=overwrite)
    else:
        if resume:
            raise AdvisorError("resume continues a run written to an output file: give output")
        run = play_schedule(schedule, 2 * games, edition=edition, processes=processes, progress=progress,
                            engine=engine, scheduler=scheduler)
        try:
            for index, record in enumerate(run):
                if records is not None:
                    records.append(record)
                if tally.add(index, record[-1]):
                    break
        finally:
            run.close()  # stops the workers when the test decided early
    ed = edition if isinstance(edition, str) else edition.name
    return tally.frame(edition=ed)
