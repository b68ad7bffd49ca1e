"""Game review: every decision of a recorded game against the best one, and
each player's money taken apart into skill, the others' play and luck.

:func:`review` takes one game record (the JSON-lines format of
:mod:`advisor.game`, both editions, or of :mod:`advisor.cards.record`) and returns a :class:`Review` of three
pandas DataFrames:

* ``decisions``: one row per turn: the action taken and its EV, the best
  action and its EV, the **EV lost** (0 when the best was chosen), the rank
  of the action taken among the legal ones, the figures behind both (as
  ``camelup best`` prints them), and the action's ``skill`` (below);
* ``players``: one row per player: decisions, mean and total EV lost,
  mistakes above 0.5 and 1.5 coins (named), the share of decisions within
  0.1 coin of the best, and the decomposition ``start + skill + others +
  luck == final``;
* ``steps``: one row per turn and player: that turn's ``skill``, ``others``
  and ``luck`` of the player, and their value after it.

**The valuation of a decision** is the advisor's, from what the player could
see (:meth:`advisor.game.Game.view`: the others' pile cards face down, their
hands hidden): :func:`advisor.valuation.fast.fast_values`, the one-pass form of
:func:`advisor.best_moves` (the same formulas; leg figures exact, tile
placements at a leg start from sampled legs with common random numbers;
race odds behind the overall cards to ``precision``, by default the
``camelup best`` default 0.002).  ``full=True`` values every decision with
:func:`advisor.best_moves` itself (slower: a race simulation per tile
placement when the player has cards on the piles).

**The decomposition** (see docs/user-guide/review.md): the mark-to-market value
of player p in game state s is

    W_p(s) = E[max(f, m_p + L_p + R_p)] + E[O_p]

with ``m_p`` p's money, ``L_p`` the coins p's tile will still earn this leg
(landings), ``R_p`` p's leg scoring (leg bet tiles, pyramid tiles, the
partner's copied reward, :func:`advisor.rules.scoring.leg_rewards` under
the game's rules), ``f`` the money floor of the rules (none in a variant
without one), the first
expectation exact over the rest of the leg (integer counts of die
sequences, so it is a fraction), and ``O_p`` what p's cards on the overall
piles pay (:func:`advisor.rules.scoring.overall_rewards`, every card's colour known
to the review), with the winning and the last camel drawn from the race
odds (sampled, to ``precision``).  At the end of the game W is the final
money.  Each turn changes every W_p; for the player q who acts:

* the **expected** change E[ΔW_p] is exact for every action but the pyramid
  (the action changes the state, nothing random happens); for the pyramid
  it is W_p(s+) - W_p(s), s+ being s with q holding one more pyramid tile:
  the leg's outcomes after the roll average to those before it, so this is
  the expectation over the roll exactly (tested), and the race odds after
  the roll average to those before it (in the model);
* it is p's **skill** when p == q and **others** when p != q;
* **luck** is the realised change less the expected one (only a roll has
  luck: what the dice did, the race's end and the money floor of the
  overall cards included, and the sampling error of the race odds).

So ``W(start) + skill + others + luck == W(end)`` exactly for every player
(the parts are kept as fractions: :attr:`Review.exact`), ``W(start)`` being
the start money and ``W(end)`` the final money of a finished game.

**Camel Up Cards records** (setup line ``game: cards``) go through the same
loop (:func:`review`); what differs is the edition's side of it
(:class:`_CardsSide`): a decision is one action of a turn (deck building is
not valued), valued from the mover's view by
:func:`advisor.cards.steps.step_values` (an action at a turn's start with
the best way to finish the turn; sampled figures, seeded by ``seed``; the
chance of winning after it from the Cards advice's win model).
There is no exact decomposition: players value one state from different
information and the figures are sampled, so ``skill`` is the sum of the
own EV of the player's actions (floats) and ``others`` and ``luck`` are
NaN (docs/user-guide/review.md).

The mark-to-market value W is :class:`Valuer`
(:mod:`advisor.reviews.value`; this module gives the name too).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterable, Iterator, Sequence

import numpy as np

from advisor import warm
from advisor._tools.cluster import connect, ordered_tasks
from advisor._tools.workers import spawn_pool, worker_init
from advisor.cards.game import ranking
from advisor.cards.record import is_cards_file, is_cards_record, iter_cards_records, replay_cards
from advisor.cards.steps import step_values
from advisor.errors import AdvisorError
from advisor.game import RecordError, Replay, iter_records, state_view
from advisor.odds.montecarlo import check_precision
from advisor.reviews.scoresheet import record_seats
from advisor.reviews.value import Valuer
from advisor.valuation.engine import best_moves, evaluate, fast_chances, fast_values
from advisor.valuation.explain import action_details
from advisor.valuation.fast import shared_race_odds

__all__ = ["review", "Review", "Valuer", "review_records", "read_games",
           "MISTAKE", "BLUNDER", "CLOSE", "DECISION_COLUMNS", "PLAYER_COLUMNS"]

#: EV lost (coins) above which a decision is a mistake, and a blunder.
MISTAKE = 0.5
BLUNDER = 1.5
#: A decision within this many coins of the best counts as accurate.
CLOSE = 0.1

def _cards_setup(entry) -> bool:
    """Whether ``entry`` is the setup line of a Camel Up Cards game: the
    Cards record format (``game: cards``, :mod:`advisor.cards.record`) or a
    board-game setup line naming the edition ``cards``."""
    return is_cards_record([entry]) or (isinstance(entry, dict) and entry.get("type") == "setup"
                                        and entry.get("edition") == "cards")

DECISION_COLUMNS = ["game", "turn", "leg", "player", "seat", "action", "kind", "ev", "best_action", "best_ev",
                    "ev_lost", "rank", "options", "skill", "details", "best_details",
                    "win", "best_win_action", "best_win", "win_lost"]
PLAYER_COLUMNS = ["game", "player", "seat", "decisions", "ev_lost_total", "ev_lost_mean", "mistakes",
                  "blunders", "accurate", "mistake_list", "start", "skill", "others", "luck", "final", "won",
                  "win_lost_total", "win_lost_mean"]
STEP_COLUMNS = ["game", "turn", "leg", "actor", "player", "skill", "others", "luck", "value"]


@dataclass
class Review:
    """A reviewed game: ``decisions``, ``players``, ``steps`` (DataFrames,
    see the module docstring) and ``exact``: per player the parts of the
    decomposition as fractions (``start``, ``skill``, ``others``, ``luck``,
    ``final``).  Unpacks as ``decisions, players = review(record)``."""

    decisions: object
    players: object
    steps: object
    exact: list[dict] = field(default_factory=list)
    info: dict = field(default_factory=dict)

    def __iter__(self):
        yield self.decisions
        yield self.players


# --------------------------------------------------------------------------
# One game
# --------------------------------------------------------------------------


def _seats(setup: dict, n: int) -> list[str]:
    seats = record_seats(setup)
    return seats if seats is not None and len(seats) == n else [f"player {p}" for p in range(n)]


def _check_record(record) -> None:
    """Refuse what cannot be reviewed, naming the turn at fault (a line
    that is malformed or a setup the rules refuse raise as they are)."""
    replayed = Replay(record)
    try:
        for _ in replayed:
            pass
    except AdvisorError as exc:
        message = str(exc)
        if message.startswith(("turn ", "line ", "a game record")):
            raise RecordError(message) from None
        # an illegal action or reveal, an end line that does not match: the turn the replay stopped at
        raise RecordError(f"turn {replayed.game.turns}: {message}") from None


def _details(row) -> str:
    try:
        return action_details(row)
    except (KeyError, TypeError, ValueError):
        return ""


def win_figures(actions: list[str], win, chosen: int) -> dict:
    """A decision's chance-of-winning figures from the chance after each of
    ``actions`` (``win``; ``chosen``: the index of the action taken): the
    chance after the action taken, the action of the highest chance (the
    action taken when it is one of the highest) and that chance, and the
    chance lost (0 when the action taken is one of the highest)."""
    win = np.asarray(win, float)
    best = int(np.argmax(win))
    if win[best] - win[chosen] <= 1e-12:
        best = chosen
    return {"win": float(win[chosen]), "best_win_action": actions[best], "best_win": float(win[best]),
            "win_lost": float(win[best] - win[chosen])}


class _Decisions:
    """Values the decisions of one game (fast or full): the EV of every
    legal action and the chance of winning after it (one valuation)."""

    def __init__(self, precision: float, seed: int, full: bool, details: bool):
        self.precision, self.seed, self.full, self.details = precision, seed, full, details

    def __call__(self, view, player: int, action: str) -> dict:
        if self.full:
            return self._full(view, player, action)

        values = fast_values(view, player, precision=self.precision)
        ev = np.asarray(values.ev, float)
        actions = list(values.actions)
        chosen = actions.index(action)
        best = int(np.argmax(ev))
        if ev[best] - ev[chosen] <= 1e-12:
            best = chosen  # the action taken is (one of) the best
        row = {"ev": float(ev[chosen]), "best_action": actions[best], "best_ev": float(ev[best]),
               "rank": 1 + int((ev > ev[chosen] + 1e-9).sum()), "options": len(actions),
               **win_figures(actions, fast_chances(values)[1], chosen)}
        if self.details:
            rows = self._detail_rows(view, player, {action, actions[best]}, dict(zip(actions, ev)))
            row["details"], row["best_details"] = _details(rows[action]), _details(rows[actions[best]])
        return row

    def _detail_rows(self, view, player: int, wanted: set, ev: dict) -> dict:
        """The ``best_moves`` rows of the actions ``wanted``, without a race
        simulation of their own: an overall card's probability is that of
        the race odds behind its EV, a tile's change of the player's cards
        on the piles is its EV less its leg figures."""
        own_cards = any(c.player == player and c.colour for c in view.winner_pile + view.loser_pile)
        rows, quick = {}, None
        for action in wanted:
            kind, _, arg = action.partition(":")
            if kind in ("winner", "loser"):
                race = shared_race_odds(view.position, self.precision)
                p = float((race.win if kind == "winner" else race.lose)[view.position.rules.racing.index(arg)])
                pile = view.winner_pile if kind == "winner" else view.loser_pile
                rows[action] = {"action": action, "kind": kind, "ev": ev[action], "p_first": p, "p_rest": p,
                                "pile_place": len(pile) + 1, "floor": 0.0}
            elif kind == "tile" and own_cards:
                if quick is None:
                    quick = best_moves(view, player, denial=False, race=False).set_index("action", drop=False)
                row = quick.loc[action].to_dict()
                rows[action] = {**row, "overall_change": ev[action] - row["ev"], "ev": ev[action]}
            else:  # leg figures: exact, no race odds
                rows[action] = evaluate(view, action, player, precision=self.precision, seed=self.seed,
                                        denial=False)
        return rows

    def _full(self, view, player: int, action: str) -> dict:
        # one valuation gives both: the rows ranked by EV, with their chance of winning
        frame = best_moves(view, player, precision=self.precision, seed=self.seed, denial=False, objective="ev",
                           chances=True)
        ev = frame["ev"].to_numpy(float)
        chosen = int(np.flatnonzero(frame["action"].to_numpy() == action)[0])
        best = 0 if ev[0] - ev[chosen] > 1e-12 else chosen
        rows = frame.to_dict(orient="records")
        return {"ev": float(ev[chosen]), "best_action": rows[best]["action"], "best_ev": float(ev[best]),
                "rank": 1 + int((ev > ev[chosen] + 1e-9).sum()), "options": len(rows),
                **win_figures(list(frame["action"]), frame["win"].to_numpy(float), chosen),
                "details": _details(rows[chosen]) if self.details else None,
                "best_details": _details(rows[best]) if self.details else None}


class _Step:
    """One decision of a record: who acted, what, and when; ``state``: the
    side's own handle of it (the board games': the
    :class:`~advisor.game.ReplayStep`, played by ``advance``; Camel Up
    Cards': the state before it)."""

    __slots__ = ("turn", "leg", "player", "action", "state")

    def __init__(self, turn: int, leg: int, player: int, action: str, state):
        self.turn, self.leg, self.player, self.action, self.state = turn, leg, player, action, state


class _BoardSide:
    """The board games' part of a review: the replay, the valuation of a
    decision (:class:`_Decisions`) and the exact decomposition
    (:class:`Valuer`)."""

    decomposed = True

    def __init__(self, record: list[dict], precision: float, seed: int, full: bool, details: bool):
        _check_record(record)
        self.record = record
        self.replayed = Replay(record)
        self.game = self.replayed.game
        self.n = self.game.state.n_players
        self.valuer = Valuer(precision, {(e["pile"], e["index"]): e["colour"]
                                         for e in record if e.get("type") == "reveal"})
        self.decide = _Decisions(precision, seed, full, details)
        self.start = self.valuer.values(self.game)

    def steps(self) -> Iterator[_Step]:
        for played in self.replayed:  # each action line, the game before it (reveal lines played between)
            yield _Step(played.turn, played.leg, played.player, played.action, played)

    def value_decision(self, step: _Step) -> dict:
        """The decision valued from what its player saw: their own cards
        placed face down unseen at the table are theirs to know (the
        record's reveal lines give the colours; a card ``winner:?`` is the
        card of the colour revealed)."""
        st = self.game.state
        action = step.action
        kind, _, colour = action.partition(":")
        if colour == "?":
            index = len(st.winner_pile if kind == "winner" else st.loser_pile)  # the card goes on top
            action = f"{kind}:{self.valuer.colour_of(kind, index, step.player)}"
        return self.decide(state_view(self.valuer.hindsight(st), step.player), step.player, action)

    def advance(self, step: _Step) -> tuple[list, list]:
        """Play the step: each player's expected value after it and the
        value after it (fractions; they differ only when a die is rolled)."""
        game = self.game
        expected = self.valuer.expected_roll(game) if step.action == "pyramid" else None
        step.state.play()
        after = self.valuer.values(game)
        return (after if expected is None else expected), after

    def summary(self) -> dict:
        game = self.game
        return {"edition": game.state.position.rules.name, "turns": game.turns, "legs": game.legs,
                "finished": game.finished, "money": game.money(), "winner_camel": game.winner_camel,
                "loser_camel": game.loser_camel}


class _CardsSide:
    """Camel Up Cards' part of a review: the replay
    (:func:`advisor.cards.record.replay_cards`, every line checked) and the
    valuation of a decision from the mover's view
    (:func:`advisor.cards.steps.step_values`: sampled figures).  There is no
    exact decomposition (docs/user-guide/review.md): the parts ``others`` and
    ``luck`` are not computed; ``skill`` is the sum of what the player's own
    actions added, each valued from their view when they took it.  The
    chance of winning after each action is the Cards advice's
    (``step_values``' ``win``: the margin bot's model)."""

    decomposed = False

    def __init__(self, record: list[dict], precision: float, seed: int, full: bool, details: bool):
        states: list = []
        try:
            self.game = replay_cards(record, visit=lambda g: states.append(g.state))
        except RecordError:
            raise
        except AdvisorError as exc:  # an illegal action: name it
            raise RecordError(f"turn {_cards_failing_turn(record)}: {exc}") from None
        self.record, self.states = record, states
        self.precision, self.seed, self.details = precision, seed, details
        self.n = self.game.setup.players
        self.start = [self.game.setup.start_money] * self.n

    def steps(self) -> Iterator[_Step]:
        # visit() saw the game after each deal, shuffle and action line: the
        # state before a line is the one after the line before it
        before, turn = None, 0
        for entry, after in zip(self.record[1:], self.states):
            if entry.get("type") == "action":
                if not entry["action"].startswith("build"):
                    yield _Step(turn, before.leg, before.current, entry["action"], before)
                turn += 1
            before = after

    def value_decision(self, step: _Step) -> dict:
        """The action taken and every legal action of its step, from the
        mover's view (deck building is not valued: it is not a decision
        the advisor models): their EVs and their chances of winning
        (:func:`win_figures`, as the board games')."""
        frame = step_values(step.state, seed=self.seed, precision=self.precision)
        actions = list(frame["action"])
        ev = frame["ev"].to_numpy(float)
        chosen = actions.index(step.action)
        best = 0 if ev[0] - ev[chosen] > 1e-12 else chosen
        turns = list(frame["turn"])
        row = {"ev": float(ev[chosen]), "best_action": actions[best], "best_ev": float(ev[best]),
               "rank": 1 + int((ev > ev[chosen] + 1e-9).sum()), "options": len(actions),
               "skill": float(frame["own"].iloc[chosen]), **win_figures(actions, frame["win"], chosen)}
        if self.details:
            row["details"] = _cards_details(actions[chosen], turns[chosen])
            row["best_details"] = _cards_details(actions[best], turns[best])
        return row

    def advance(self, step: _Step):
        return None

    def summary(self) -> dict:
        game = self.game
        state = game.state
        order = ranking(state.sp, state.ht) if game.finished else (None, None)
        return {"edition": "cards", "turns": game.turns, "legs": state.leg, "finished": game.finished,
                "money": [p.money for p in state.players], "winner_camel": order[0], "loser_camel": order[-1]}


def _cards_details(action: str, turn: str) -> str:
    """The whole turn behind a Camel Up Cards step's value."""
    if turn == action:
        return "the turn as it stands"
    if turn.endswith("+reveal") and turn != "reveal":
        return f"as the turn {turn} (the bet before the reveal)"
    if turn == "reveal+best":
        return "as the turn reveal+best (then the bet best on the card seen, if any)"
    return f"as the turn {turn}"


def _cards_failing_turn(record) -> int:
    """The action at which a Camel Up Cards record stops replaying."""
    turns = [e.get("turn") for e in record[1:] if isinstance(e, dict) and e.get("type") == "action"]
    last = 0
    for k, turn in enumerate(turns):
        try:
            replay_cards(record, upto=k + 1)
        except AdvisorError:
            return turn if isinstance(turn, int) else k
        last = k
    return last


def _side(record: list[dict], precision: float, seed: int, full: bool, details: bool):
    if is_cards_record(record):
        if full:
            raise AdvisorError("full applies to the board games' review (a Camel Up Cards step has one valuation)")
        return _CardsSide(record, precision, seed, full, details)
    if record and _cards_setup(record[0]):
        raise RecordError("line 1 of the game: a Camel Up Cards record's setup line says game: cards "
                          "(as camelup simulate --edition cards writes it)")
    return _BoardSide(record, precision, seed, full, details)


def review(record: Sequence[dict], *, precision: float = 0.002, seed: int = 0, full: bool = False,
           details: bool = True, game_index: int = 0, players: Iterable[int] | None = None) -> Review:
    """Review one game record (module docstring): a board game's or a Camel
    Up Cards game's (the edition-specific part is the valuation of a
    decision and the decomposition, :class:`_BoardSide` and
    :class:`_CardsSide`; the loop and the tables are the same).
    ``precision``: of the race odds behind the overall cards (default
    0.002, as ``camelup best``); ``seed``: of the race odds behind the
    ``details`` (and of every figure with ``full``; of every figure of a
    Camel Up Cards review); ``full``: value each decision with
    :func:`advisor.best_moves` instead of its one-pass form (board games);
    ``details``: the figures behind the action taken and the best one
    (text, as ``camelup best`` prints them); ``game_index``: the ``game``
    column; ``players``: the players whose decisions are valued (default
    all): ``decisions`` holds theirs only and ``players`` their rows only,
    each figure as in a review of every player (the game is still played
    through every decision: the board games' decomposition of every player
    is computed whole; a Camel Up Cards step of another player has its
    ``skill`` NaN in ``steps``).

    A record that does not replay raises :class:`~advisor.game.RecordError`
    naming the turn at fault."""
    import pandas as pd

    precision = check_precision(precision)
    record = list(record)
    side = _side(record, precision, seed, full, details)
    n = side.n
    valued = range(n) if players is None else sorted({int(p) for p in players} & set(range(n)))
    seats = _seats(record[0], n)
    start = list(side.start)
    value = list(start)
    zero = Fraction(0) if side.decomposed else 0.0
    parts = {k: [zero] * n for k in ("skill", "others", "luck")}
    decisions, steps = [], []
    for step in side.steps():
        q = step.player
        row = side.value_decision(step) if q in valued else None  # a player not asked for: not valued
        change = side.advance(step)
        if change is None:  # no decomposition: the mover's own value, the others' parts unknown
            skill = np.nan if row is None else row.pop("skill")
            parts["skill"][q] += skill
            for p in range(n):
                steps.append({"game": game_index, "turn": step.turn, "leg": step.leg, "actor": q, "player": p,
                              "skill": skill if p == q else 0.0, "others": np.nan, "luck": np.nan,
                              "value": np.nan})
        else:
            expected, after = change
            skill = float(expected[q] - value[q])
            for p in range(n):
                exp = expected[p] - value[p]
                luck = after[p] - expected[p]
                parts["skill" if p == q else "others"][p] += exp
                parts["luck"][p] += luck
                steps.append({"game": game_index, "turn": step.turn, "leg": step.leg, "actor": q, "player": p,
                              "skill": float(exp) if p == q else 0.0, "others": 0.0 if p == q else float(exp),
                              "luck": float(luck), "value": float(after[p])})
            value = after
        if row is None:
            continue
        decisions.append({"game": game_index, "turn": step.turn, "leg": step.leg, "player": q, "seat": seats[q],
                          "action": step.action, "kind": step.action.partition(":")[0], **row,
                          "ev_lost": max(0.0, row["best_ev"] - row["ev"]), "skill": skill})
    summary = side.summary()
    money = summary["money"]
    if side.decomposed:
        exact = [{"start": start[p], "skill": parts["skill"][p], "others": parts["others"][p],
                  "luck": parts["luck"][p], "final": value[p]} for p in range(n)]
        table = exact
    else:
        exact = []
        table = [{"start": start[p], "skill": parts["skill"][p], "others": np.nan, "luck": np.nan,
                  "final": money[p] if summary["finished"] else np.nan} for p in range(n)]
    dec = pd.DataFrame(decisions, columns=DECISION_COLUMNS)
    step_frame = pd.DataFrame(steps, columns=STEP_COLUMNS)
    won = [summary["finished"] and m == max(money) for m in money]
    rows = _player_table(dec, table, seats, won, game_index, valued)
    info = {"game": game_index, "edition": summary["edition"], "players": n, "turns": summary["turns"],
            "legs": summary["legs"], "finished": summary["finished"], "seats": seats, "money": money,
            "winner_camel": summary["winner_camel"], "loser_camel": summary["loser_camel"],
            "precision": precision, "seed": seed, "full": full, "decomposed": side.decomposed}
    for frame in (dec, rows, step_frame):
        frame.attrs.update(info)
    return Review(dec, rows, step_frame, exact, info)


def _mistake_list(rows) -> str:
    return "; ".join(f"turn {r.turn} {r.action} (best {r.best_action}, -{r.ev_lost:.2f})"
                     for r in rows.itertuples() if r.ev_lost > MISTAKE)


def _win_totals(lost) -> dict:
    """A player's chance of winning lost over their decisions: the total and
    the mean (NaN where no decision has the figure)."""
    if not len(lost) or lost.isna().all():
        return {"win_lost_total": np.nan, "win_lost_mean": np.nan}
    return {"win_lost_total": float(lost.sum()), "win_lost_mean": float(lost.mean())}


def _player_table(dec, exact: list[dict], seats: list[str], won: list[bool], game_index: int, valued):
    import pandas as pd

    rows = []
    for p in valued:
        parts = exact[p]
        mine = dec[dec["player"] == p]
        lost = mine["ev_lost"]
        rows.append({"game": game_index, "player": p, "seat": seats[p], "decisions": len(mine),
                     "ev_lost_total": float(lost.sum()), "ev_lost_mean": float(lost.mean()) if len(mine) else np.nan,
                     "mistakes": int((lost > MISTAKE).sum()), "blunders": int((lost > BLUNDER).sum()),
                     "accurate": float((lost <= CLOSE).mean()) if len(mine) else np.nan,
                     "mistake_list": _mistake_list(mine),
                     **{k: float(parts[k]) for k in ("start", "skill", "others", "luck", "final")},
                     "won": won[p], **_win_totals(mine["win_lost"])})
    return pd.DataFrame(rows, columns=PLAYER_COLUMNS)


# --------------------------------------------------------------------------
# A file of games, on every core or on a Dask cluster
# --------------------------------------------------------------------------


@dataclass(frozen=True)
class Reviewed:
    """One game of a file: its index and setup line, and its
    :class:`Review` or, for a record that does not replay, the ``error``
    (naming the turn at fault)."""

    index: int
    line: int
    review: Review | None = None
    error: str | None = None


def read_games(path) -> Iterator[tuple[int, int, list[dict]]]:
    """``(index, line, record)`` for each game of a JSON-lines file, one in
    memory at a time: a file of board-game records
    (:func:`advisor.game.iter_records`) or of Camel Up Cards records
    (:func:`advisor.cards.record.iter_cards_records`, told by its first
    setup line).  A file that is not a file of game records raises
    :class:`RecordError`."""
    if is_cards_file(path):
        for index, (line, record) in enumerate(iter_cards_records(path)):
            yield index, line, record
        return
    try:
        for index, (line, record) in enumerate(iter_records(path)):
            yield index, line, record
    except RecordError as exc:
        if _cards_line(path, exc):
            raise RecordError(f"{exc}: a Camel Up Cards game among board-game records (review one kind of "
                              "game per file)") from None
        raise


def _cards_line(path, exc: RecordError) -> bool:
    """Whether ``exc`` (from reading ``path``) is about a Camel Up Cards setup line."""
    import json
    import re

    found = re.match(rf"{re.escape(str(path))}:(\d+):", str(exc))
    if not found:
        return False
    try:
        with open(path, "rb") as fh:
            for k, line in enumerate(fh, 1):
                if k == int(found.group(1)):
                    entry = json.loads(line)
                    return _cards_setup(entry)
    except (OSError, ValueError, RecursionError):  # RecursionError: JSON nested too deep
        return False
    return False


def count_games(path, games: set[int] | None = None) -> int:
    """How many games of the file a review covers (reads it through: its
    format is checked before any work)."""
    return sum(1 for index, _, _ in read_games(path) if games is None or index in games)


def review_one(index: int, line: int, record: list[dict], options: dict) -> Reviewed:
    """Review one game of a file; a bad record becomes a :class:`Reviewed`
    with its error (the other games go on)."""
    try:
        return Reviewed(index, line, review(record, game_index=index, **options))
    except AdvisorError as exc:
        return Reviewed(index, line, error=f"game {index} (line {line}): {exc}")


def _review_many(jobs: list) -> list[Reviewed]:
    return [review_one(*job) for job in jobs]


def _worker_init() -> None:
    """Worker set-up: Ctrl-C is the parent's to handle, nothing from a
    worker once the parent is gone (:mod:`advisor._tools.workers`); one numba
    thread per worker (the processes share the cores; results never depend
    on the thread count)."""
    import numba

    worker_init()
    numba.set_num_threads(1)


def review_records(path, *, games: set[int] | None = None, processes: int | None = None,
                   engine: str = "local", scheduler: str | None = None, progress: bool | None = None,
                   total: int | None = None, **options) -> Iterator[Reviewed]:
    """Review the games of a JSON-lines file (``games``: the indices to
    review, default all), yielding a :class:`Reviewed` per game in file
    order.  ``engine="local"``: on every core (``processes`` worker
    processes, default one per core; 1: in this process);
    ``engine="dask"``: on the Dask cluster at ``scheduler``.  ``options``:
    those of :func:`review` (``players``: the players whose decisions are
    valued, default all).  ``progress``: a bar on stderr (default: when
    stderr is a terminal)."""
    import os
    import sys

    from tqdm import tqdm

    if engine not in ("local", "dask"):
        raise AdvisorError(f"engine must be 'local' or 'dask', not {engine!r}")
    jobs = ((index, line, record, options) for index, line, record in read_games(path)
            if games is None or index in games)
    if progress is None:
        progress = sys.stderr.isatty()
    bar = tqdm(total=total, unit="game", disable=not progress, file=sys.stderr)
    try:
        if engine == "dask":
            source = _on_dask(jobs, scheduler)
        elif processes == 1 or (total is not None and total <= 1) or (os.cpu_count() or 1) == 1 and not processes:
            source = (review_one(*job) for job in jobs)
        else:
            source = _on_processes(jobs, processes, is_cards_file(path))
        for result in source:
            bar.update()
            yield result
    finally:
        bar.close()


def _on_processes(jobs, processes: int | None, cards: bool = False) -> Iterator[Reviewed]:
    import os
    from collections import deque

    cold = warm.cold_groups(warm.needs("review", cards=cards))
    if cold:  # compile once here, not in every worker
        warm.warmup(groups=cold)

    workers = processes or os.cpu_count() or 1
    with spawn_pool(workers, _worker_init) as pool:
        pending: deque = deque()
        for job in jobs:
            pending.append(pool.apply_async(review_one, job))
            if len(pending) >= 4 * workers:  # a few games in flight per worker: memory stays flat
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


def _on_dask(jobs, scheduler: str | None, per_task: int = 4) -> Iterator[Reviewed]:
    """Games in tasks of ``per_task`` on the cluster, results in file order."""
    if not scheduler:
        raise AdvisorError("the dask engine needs a scheduler address (--scheduler tcp://HOST:8786)")
    client = connect(scheduler)
    try:
        yield from ordered_tasks(client, _review_many, jobs, per_task)
    finally:
        client.close()
