"""Many games: simulations and seat-rotated tournaments, on every core.

Game ``i`` of a run with seed ``S`` is seeded from ``(S, i)`` and the bot in
seat ``s`` draws from its own stream ``(game seed, s)``, so a run gives the
same games whatever the number of processes.  In a tournament, game ``i``
rotates the seats by ``i`` places, so every bot plays every seat equally
often and no seat's advantage can bias the result.  The bots' cyclic order stays
as listed, though (``shark,greedy,...``: shark always plays right before
greedy), and in Camel Up Cards the player just before another takes the
best cards first; seating ``"orders"`` (``camelup tournament --seating
orders``) goes through every cyclic order, ``n`` rotations of each, so over
each ``n!`` games every bot also follows every other bot equally often
(:func:`seat_entries`).

``edition`` is an edition's name or an
:class:`~advisor.rules.editions.Edition`, such as a rule variant
(:meth:`Edition.with_rules`): every game is then played under it and its
record's setup line carries the ``rules``.  ``edition="cards"`` plays
Camel Up Cards with its bots (:data:`advisor.cards.bots.CARDS_BOTS`) and
its default set-up for the number of seats
(:func:`advisor.cards.bots.play_cards_game`); the records are the Cards
game records (setup line ``game: "cards"``).
"""

from __future__ import annotations

import math
import sys
from typing import TYPE_CHECKING, Iterator, Sequence

import numpy as np

from advisor import warm
from advisor._tools.cluster import connect, ordered_tasks
from advisor._tools.files import OVERWRITE_HINT, check_output, claim, commit, discard, file_kind, partial_path
from advisor._tools.intervals import Z95, wilson
from advisor._tools.jsonio import dumps, loads
from advisor._tools.workers import spawn_pool, worker_init
from advisor.bots.policies import BOTS, make_bot
from advisor.cards.bots import CARDS_BOTS, play_cards_game
from advisor.cards.game import CardsSetup
from advisor.errors import AdvisorError, Interrupted
from advisor.game import Game
from advisor.rules.dice import DICE_MODES
from advisor.rules.editions import get_edition

if TYPE_CHECKING:
    from advisor.rules.editions import Edition

__all__ = ["play_game", "simulate", "tournament", "game_seed", "seating", "Standings", "simulate_to_file", "CARDS",
           "is_cards_edition", "Schedule", "play_schedule", "schedule_to_file", "ENGINES", "SEATINGS",
           "seat_entries"]

#: The ``edition`` that plays Camel Up Cards.
CARDS = "cards"

#: The seatings of a tournament (:func:`seat_entries`): ``"rotate"``, the
#: bots' listed order rotated by the game's index, and ``"orders"``, the
#: rotations of every cyclic order in turn.
SEATINGS = ("rotate", "orders")


def is_cards_edition(edition) -> bool:
    """``edition`` names Camel Up Cards (the board games are editions or
    their names)."""
    return isinstance(edition, str) and edition == CARDS


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0] >> np.uint64(1))


def play_game(bots: Sequence[str], edition: "str | Edition" = "second", seed: int = 0, dice: str = "game") -> list[dict]:
    """Play one game, bot ``bots[s]`` in seat ``s``; returns its record.
    ``dice``: the game's dice source (:mod:`advisor.rules.dice`; ``"leg"``: each
    leg's dice fixed by ``(seed, leg)``, whatever the bots do).  The bot in
    seat ``s`` draws its own randomness from the stream ``(seed, s)``,
    never from the dice.  A bot with ``observe(view, seat)`` is shown its
    view before every other player's turn too."""
    if is_cards_edition(edition):
        return play_cards_game(bots, seed=seed, dice=dice)
    players = [make_bot(name) for name in bots]
    game = Game(edition, len(bots), seed, dice=dice)
    game.record[0]["bots"] = list(bots)
    rngs = [np.random.default_rng([game.seed, s]) for s in range(len(bots))]
    watchers = [q for q, bot in enumerate(players) if hasattr(bot, "observe")]
    while not game.finished:
        p = game.to_move
        for q in watchers:  # a bot that keeps a memory of the game sees every turn (its own view)
            if q != p:
                players[q].observe(game.view(q), q)
        game.apply(players[p].choose(game.view(p), p, rngs[p]))
    return game.record


class Schedule:
    """Game ``index`` of a run: the bot in each seat (:meth:`seats`), the
    game's seed (:meth:`seed_of`) and its dice source (``dice``).

    The plain schedule seats ``bots`` as given, or, with ``rotate`` (a
    tournament), by a seating of :data:`SEATINGS` (``True`` is
    ``"rotate"``: rotated by ``index`` places; see :func:`seat_entries`),
    and seeds game ``index`` with :func:`game_seed` ``(seed, index)``.  Other runs (paired duels,
    :mod:`advisor.simulate.duel`) derive from it and play through the same
    machinery (:func:`play_schedule`, :func:`schedule_to_file`)."""

    #: What to change when a partial file is of another run (resume's message).
    bots_hint = "--bots (or simulate against tournament)"

    def __init__(self, bots: Sequence[str], seed: int = 0, rotate: "bool | str" = False, dice: str = "game"):
        self.bots = list(bots)
        self.seed = seed
        #: ``None`` (seats as listed) or a seating of :data:`SEATINGS`.
        self.seating = seating_mode(rotate)
        self.dice = dice

    @property
    def players(self) -> int:
        return len(self.bots)

    def names(self) -> list[str]:
        """Every bot of the run, once each."""
        return list(dict.fromkeys(self.bots))

    def seats(self, index: int) -> list[str]:
        return seating(self.bots, index, self.seating)

    def seated_by(self, index: int, found) -> str | None:
        """The other seating of :data:`SEATINGS` that seats ``found`` in
        game ``index`` (a partial file of this run under another
        seating: resume's message), or ``None``."""
        if self.seating is None or not isinstance(found, list):
            return None
        for other in SEATINGS:
            if other != self.seating and found == seating(self.bots, index, other):
                return other
        return None

    def seed_of(self, index: int) -> int:
        return game_seed(self.seed, index)


def _check(schedule: Schedule, edition: "str | Edition", games: int, processes: int | None = None) -> None:
    if is_cards_edition(edition):
        known = CARDS_BOTS
        problem = None
        try:
            CardsSetup(players=schedule.players)
        except AdvisorError as exc:
            problem = str(exc)
        what = "Camel Up Cards bot"
    else:
        known = BOTS
        problem = get_edition(edition).players_problem(schedule.players)
        what = "bot"
    if problem:
        raise AdvisorError(f"{problem} (one bot per seat)")
    for name in schedule.names():
        if name not in known:
            raise AdvisorError(f"unknown {what} {name!r} (bots: {', '.join(known)})")
    if schedule.dice not in DICE_MODES:
        raise AdvisorError(f"dice must be one of {', '.join(DICE_MODES)}, not {schedule.dice!r:.40}")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise AdvisorError(f"games must be a whole number >= 1, not {games!r}")
    if processes is not None and (isinstance(processes, bool) or not isinstance(processes, int)
                                  or not 1 <= processes <= 256):
        raise AdvisorError(f"processes must be 1..256 (or None: one per core), not {processes!r}")


def _one_thread():
    """Worker set-up: the processes share the cores, so each runs its kernels
    on one thread (results never depend on the thread count)."""
    import numba

    numba.set_num_threads(1)


def _worker_init():
    """Worker set-up: Ctrl-C is the parent's to handle (it stops the pool
    and says what was kept; workers would each print a traceback), nothing
    from a worker once the parent is gone (:mod:`advisor._tools.workers`), and one
    thread per worker."""
    worker_init()
    _one_thread()


def _job(args):
    bots, edition, seed, dice = args
    return play_game(bots, edition, seed, dice)


def _jobs_on_a_worker(jobs):
    """A task of the Dask engine: a few games, played in order on one
    thread of the worker."""
    _one_thread()
    return [_job(job) for job in jobs]


def seating_mode(rotate) -> str | None:
    """``rotate`` (of :class:`Schedule`, :func:`simulate`, ...) as a seating:
    ``None`` for ``False`` (seats as listed), ``"rotate"`` for ``True``, or
    the seating of :data:`SEATINGS` named."""
    if rotate is None or rotate is False or rotate is True:
        return "rotate" if rotate else None
    if isinstance(rotate, str) and rotate in SEATINGS:
        return rotate
    raise AdvisorError(f"seating must be one of {', '.join(SEATINGS)} (rotate=True: rotate; False: seats as "
                       f"listed), not {rotate!r:.40}")


def _nth_permutation(items: list, k: int) -> list:
    """Permutation ``k`` of ``items`` in :func:`itertools.permutations` order."""
    items, out = list(items), []
    for left in range(len(items), 0, -1):
        q, k = divmod(k, math.factorial(left - 1))
        out.append(items.pop(q))
    return out


def seat_entries(players: int, index: int, rotate: "bool | str" = "rotate") -> list[int]:
    """Which entry of ``bots`` sits in each seat of game ``index`` (the one
    place for the rule; an entry is an index into ``bots``, so a name listed
    twice is two entries).

    ``"rotate"`` (or ``True``): seat ``s`` holds entry ``(s + index) mod n``
    (``n`` players): every bot plays every seat equally often, always after
    the same bot.  ``"orders"``: game ``index`` takes cyclic order ``k =
    (index // n) mod (n - 1)!`` (entry 0, then permutation ``k`` of entries
    ``1 .. n - 1`` in :func:`itertools.permutations` order) and rotates it
    by ``index mod n`` places as ``"rotate"`` does; every ``n`` games are
    seat-balanced, and every ``n!`` games (from game 0) put each bot in each
    seat and right after each other bot equally often.  Its first ``n``
    games are ``"rotate"``'s, and for ``n <= 2`` all are.  ``False`` (or
    ``None``): the seats as listed."""
    mode = seating_mode(rotate)
    order = list(range(players))
    if mode is None:
        return order
    if mode == "orders" and players > 2:
        k = (index // players) % math.factorial(players - 1)
        order = [0, *_nth_permutation(order[1:], k)]
    return [order[(s + index) % players] for s in range(players)]


def seating(bots: Sequence[str], index: int, rotate: "bool | str") -> list[str]:
    """The bot in each seat of game ``index``: as listed, or with a
    tournament's seating (``True`` or ``"rotate"``: rotated by ``index``
    places; ``"orders"``: see :func:`seat_entries`)."""
    return [bots[entry] for entry in seat_entries(len(bots), index, rotate)]


def _compile_for_workers(bots: Sequence[str], cards: bool = False) -> None:
    """Worker processes would each compile the kernels on their own, out of
    sight: when the cache lacks what the games need, compile it here first
    (a compile notice, if one is active, shows it)."""
    cold = warm.cold_groups(warm.needs("simulate", bots=bots, cards=cards, race=False))
    if cold:
        warm.warmup(groups=cold)


ENGINES = ("local", "dask")


def _check_engine(engine: str, scheduler: str | None, processes: int | None) -> None:
    if engine not in ENGINES:
        raise AdvisorError(f"engine must be 'local' or 'dask', not {engine!r:.40}")
    if engine == "dask":
        if not scheduler:
            raise AdvisorError("the dask engine needs a scheduler address (--scheduler tcp://HOST:8786)")
        if processes is not None:
            raise AdvisorError("processes apply to the local engine only (the Dask cluster has its workers)")
    elif scheduler:
        raise AdvisorError("a scheduler address applies to the dask engine only (--engine dask)")


def simulate(bots: Sequence[str], games: int, *, edition: "str | Edition" = "second", seed: int = 0,
             processes: int | None = None, rotate: "bool | str" = False, progress: bool | None = None,
             start: int = 0, dice: str = "game", engine: str = "local",
             scheduler: str | None = None) -> Iterator[list[dict]]:
    """Yield the records of games ``start .. games - 1``, in order, as they
    finish.  ``rotate``: seat the bots rotated by the game's index
    (tournaments), ``True`` or ``"rotate"``; ``"orders"``: rotated through
    every cyclic order of the bots (:func:`seat_entries`).  ``dice``: the games' dice source (:mod:`advisor.rules.dice`).
    ``progress``: a progress bar on stderr (default: when stderr is a
    terminal).  ``engine``: ``"local"`` (``processes`` worker processes,
    default one per core; 1: in this process) or ``"dask"`` (the Dask
    cluster at ``scheduler``, e.g. ``tcp://10.0.0.5:8786``); the games are
    the same either way.  Memory stays flat in ``games``: games are handed
    out a few at a time."""
    return play_schedule(Schedule(bots, seed, rotate, dice), games, edition=edition, processes=processes,
                         progress=progress, start=start, engine=engine, scheduler=scheduler)


def play_schedule(schedule: Schedule, games: int, *, edition: "str | Edition" = "second",
                  processes: int | None = None, progress: bool | None = None, start: int = 0,
                  engine: str = "local", scheduler: str | None = None) -> Iterator[list[dict]]:
    """Yield the records of games ``start .. games - 1`` of ``schedule``, in
    order (see :func:`simulate` for the other arguments)."""
    _check(schedule, edition, games, processes)
    _check_engine(engine, scheduler, processes)
    if isinstance(start, bool) or not isinstance(start, int) or not 0 <= start <= games:
        raise AdvisorError(f"start must be a game index 0..{games}, not {start!r}")
    return _play(schedule, games, edition, processes, progress, start, engine, scheduler)


def _play(schedule, games, edition, processes, progress, start, engine, scheduler) -> Iterator[list[dict]]:
    """The records, an iterator; the Dask cluster, if any, is reached at
    once (an unreachable scheduler is refused before any file is opened)."""
    client = None
    if engine == "dask":
        client = connect(scheduler)
    return _Run(_played(schedule, games, edition, processes, progress, start, client), client)


class _Run:
    """The records of a run as they come; :meth:`close` stops the workers
    and lets the cluster go, whether or not the run was started."""

    def __init__(self, records: Iterator[list[dict]], client):
        self.records, self.client = records, client

    def __iter__(self):
        return self

    def __next__(self) -> list[dict]:
        return next(self.records)

    def close(self) -> None:
        self.records.close()
        if self.client is not None:
            self.client.close()


def _played(schedule, games, edition, processes, progress, start, client) -> Iterator[list[dict]]:
    jobs = ((schedule.seats(i), edition, schedule.seed_of(i), schedule.dice) for i in range(start, games))
    if progress is None:
        progress = sys.stderr.isatty()
    from tqdm import tqdm

    bar = tqdm(total=games, initial=start, unit="game", disable=not progress, file=sys.stderr)
    try:
        if client is not None:  # games 4 to a task on the cluster, in game order
            source = ordered_tasks(client, _jobs_on_a_worker, jobs, per_task=4)
        elif processes == 1 or games - start <= 1:
            source = (_job(job) for job in jobs)
        else:
            source = _on_processes(jobs, processes, schedule.names(), is_cards_edition(edition))
        for record in source:
            bar.update()
            yield record
    finally:
        bar.close()
        if client is not None:
            client.close()


def _on_processes(jobs, processes: int | None, names: list[str], cards: bool) -> Iterator[list[dict]]:
    import os
    from collections import deque

    _compile_for_workers(names, cards)
    workers = processes or os.cpu_count() or 1
    window = 4 * workers  # games in flight: enough to keep every worker busy
    with spawn_pool(processes, _worker_init) as pool:
        pending: deque = deque()
        for job in jobs:
            pending.append(pool.apply_async(_job, (job,)))
            if len(pending) >= window:
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


class Standings:
    """A tournament table kept as running sums (memory flat in the number
    of games): feed it each game's index and end line with :meth:`add`.
    ``seating``: the run's (:func:`seat_entries`), which says which entry
    of ``bots`` sat in each seat of each game."""

    def __init__(self, bots: Sequence[str], seating: "bool | str" = "rotate"):
        self.bots = list(bots)
        self.seating = seating_mode(seating)
        n = len(self.bots)
        self.games = 0
        self.wins = np.zeros(n)
        self.money = [0] * n  # exact integer sums
        self.money_sq = [0] * n

    def add(self, index: int, end: dict) -> None:
        for seat, entry in enumerate(seat_entries(len(self.bots), index, self.seating)):
            m = end["money"][seat]
            self.money[entry] += m
            self.money_sq[entry] += m * m
            if seat in end["winners"]:
                self.wins[entry] += 1 / len(end["winners"])
        self.games += 1

    def frame(self, **attrs):
        """One row per entry of ``bots``: games, wins (a shared first place
        counts as a fraction), win rate with its 95% Wilson interval,
        average money with its 95% interval (NaN from a single game)."""
        import pandas as pd

        games = self.games
        rows = []
        for k, name in enumerate(self.bots):
            rate = self.wins[k] / games
            lo, hi = wilson(rate, games)
            mean = self.money[k] / games
            if games > 1:
                var = (self.money_sq[k] - self.money[k] ** 2 / games) / (games - 1)
                half = Z95 * math.sqrt(max(var, 0.0)) / math.sqrt(games)
            else:
                half = float("nan")
            rows.append({"bot": name, "games": games, "wins": self.wins[k], "win_rate": rate, "win_lo": lo,
                         "win_hi": hi, "money": mean, "money_lo": mean - half, "money_hi": mean + half})
        frame = pd.DataFrame(rows)
        frame.attrs.update(players=len(self.bots), games=games, **attrs)
        return frame


def tournament(bots: Sequence[str], games: int, *, edition: "str | Edition" = "second", seed: int = 0,
               processes: int | None = None, progress: bool | None = None, records: list | None = None,
               engine: str = "local", scheduler: str | None = None, seating: str = "rotate"):
    """Seat-rotated games between ``bots``; a pandas DataFrame with one row
    per entry of ``bots`` (see :meth:`Standings.frame`).  ``records``: a
    list to collect the game records into.  ``engine``, ``scheduler``: as
    for :func:`simulate`.  ``seating``: ``"rotate"`` (the bots' listed
    order rotated) or ``"orders"`` (every cyclic order, rotated; see
    :func:`seat_entries`)."""
    if seating_mode(seating) is None:
        raise AdvisorError(f"seating must be one of {', '.join(SEATINGS)}, not {seating!r:.40}")
    table = Standings(bots, seating)
    for i, record in enumerate(simulate(bots, games, edition=edition, seed=seed, processes=processes,
                                        rotate=seating, progress=progress, engine=engine, scheduler=scheduler)):
        if records is not None:
            records.append(record)
        table.add(i, record[-1])
    return table.frame(edition=edition, seed=seed)


# --------------------------------------------------------------------------
# Runs written to a file: streamed, resumable, whole or not at all
# --------------------------------------------------------------------------


def simulate_to_file(bots: Sequence[str], games: int, path, *, edition: "str | Edition" = "second", seed: int = 0,
                     processes: int | None = None, rotate: "bool | str" = False, resume: bool = False,
                     progress: bool | None = None, on_game=None, dice: str = "game", engine: str = "local",
                     scheduler: str | None = None, overwrite: bool = False) -> int:
    """Play games ``0 .. games - 1`` (as :func:`simulate`) into the JSON
    lines file ``path``, each game written as soon as it finishes into
    ``path.part``, renamed to ``path`` when the run is complete.

    ``resume``: keep the complete games of an interrupted run's partial file
    (checked to be games of this very run: edition, seats, seeds; seats by
    bot name, so games that seat the same names under another ``rotate``
    are this run's games) and play the rest; the result equals an uninterrupted run.  Without ``resume`` a
    partial file is never overwritten.  An existing ``path`` is replaced
    only with ``overwrite`` (or by the resumed run that was started on it);
    while the run lasts ``path`` is claimed (:func:`advisor._tools.files.claim`):
    another run on it is refused.  Ctrl-C raises
    :class:`~advisor.errors.Interrupted` saying how many games were kept.
    ``on_game(index, end_line)`` is called for every game, kept ones
    included, in order.  Returns the number of games in ``path``."""
    return schedule_to_file(Schedule(bots, seed, rotate, dice), games, path, edition=edition, processes=processes,
                            resume=resume, progress=progress, on_game=on_game, engine=engine, scheduler=scheduler,
                            overwrite=overwrite)


def schedule_to_file(schedule: Schedule, games: int, path, *, edition: "str | Edition" = "second",
                     processes: int | None = None, resume: bool = False, progress: bool | None = None,
                     on_game=None, engine: str = "local", scheduler: str | None = None,
                     overwrite: bool = False) -> int:
    """:func:`simulate_to_file` for the games of ``schedule``.  Besides,
    ``on_game`` may end the run: when it returns a true value the games so
    far are the run, and ``path`` is complete with them (a sequential test
    that has decided); the number of games in ``path`` is returned."""
    check_output(path, suffixes=(".jsonl",), what="game records")
    with claim(path, "game records"):
        return _schedule_to_file(schedule, games, path, edition, processes, resume, progress, on_game, engine,
                                 scheduler, overwrite)


def _schedule_to_file(schedule, games, path, edition, processes, resume, progress, on_game, engine, scheduler,
                      overwrite) -> int:
    import os

    check_output(path, suffixes=(".jsonl",), what="game records")
    _check(schedule, edition, games, processes)
    _check_engine(engine, scheduler, processes)
    part = partial_path(path)
    typed = os.fspath(path) + ".part"  # the partial file as the user would spell it
    shown = typed if os.path.realpath(typed) == str(part) else str(part)
    check_output(part, what="partial file")  # its name, too, must be one the system takes
    kept, stopped = 0, False
    if part.exists():
        if not resume:
            raise AdvisorError(f"{shown} holds the games of a run that did not finish (no run is writing it "
                               "now): add --resume to continue it, or delete it to start again")
    if not overwrite and not (resume and part.exists()) and file_kind(path) == "file":
        raise AdvisorError(f"game records {path} exist: {OVERWRITE_HINT}, or choose another file")
    if part.exists():
        kept, stopped = _kept_games(part, shown, schedule, games, edition, on_game)
    if stopped:  # the run had decided before it was interrupted
        commit(part, path)
        return kept
    records = _play(schedule, games, edition, processes, progress, kept, engine, scheduler)
    try:
        fh = open(part, "ab")
    except OSError as exc:
        records.close()
        raise AdvisorError(f"cannot write {shown}: {exc.strerror}") from None
    done = kept
    try:
        with fh:
            try:
                for i, record in enumerate(records, kept):
                    fh.write("".join(dumps(entry) + "\n" for entry in record).encode("utf-8"))
                    fh.flush()  # a game is on disk as soon as it is played
                    done = i + 1
                    if on_game is not None and on_game(i, record[-1]):
                        break
            finally:
                records.close()  # stops the workers when the run ends early
    except KeyboardInterrupt:
        complete = _kept_games(part, shown, schedule, games, edition, None)[0]
        if not complete:
            discard(part)
            raise Interrupted(f"no game of {games:,} was complete; nothing kept") from None
        raise Interrupted(f"{complete:,} of {games:,} games kept in {shown}; run the same command "
                          "with --resume to continue") from None
    except OSError as exc:  # e.g. the disk is full
        raise AdvisorError(f"cannot write {shown}: {exc.strerror or exc} ({done:,} of {games:,} games kept; "
                           "free some space and run the same command with --resume)") from None
    commit(part, path)
    return done


def _kept_games(part, shown: str, schedule: Schedule, games: int, edition: str, on_game) -> tuple[int, bool]:
    """The complete games at the start of the partial file ``part``, checked
    to be games ``0, 1, ...`` of this run, and whether ``on_game`` ended the
    run at the last of them; the file is cut after the last one (an
    unfinished game or a line cut short by a crash goes: its game is played
    again, identically)."""
    count = 0
    end_offset = 0
    offset = 0
    open_game = False
    stopped = False
    with open(part, "rb") as fh:
        for n, line in enumerate(fh, 1):
            offset += len(line)
            if not line.endswith(b"\n"):
                break  # cut short
            try:
                entry = loads(line, f"{shown}:{n}")
            except AdvisorError:
                break
            if not isinstance(entry, dict):
                break
            kind = entry.get("type")
            if kind == "setup":
                if count >= games:
                    raise AdvisorError(f"{shown} holds more than the {games:,} games of this run "
                                       "(another --games?): delete it to start again")
                _check_setup(shown, entry, count, schedule, edition)
                open_game = True
            elif kind == "end" and open_game:
                stopped = bool(on_game is not None and on_game(count, entry))
                count += 1
                end_offset = offset
                open_game = False
                if stopped:
                    break
            elif not open_game:
                break
    with open(part, "r+b") as fh:
        fh.truncate(end_offset)
    return count, stopped


def _check_setup(shown: str, entry: dict, index: int, schedule: Schedule, edition: str) -> None:
    """Refuse to resume from a partial file written by another run."""
    if is_cards_edition(edition):  # a Cards record names its game, not an edition
        expected = {"game": CARDS, "dice": None if schedule.dice == "game" else schedule.dice}
    else:
        ed = get_edition(edition)
        expected = {"edition": ed.name, "rules": ed.rules_json(),
                    "dice": None if schedule.dice == "game" else schedule.dice}
    expected.update({"players": schedule.players, "bots": schedule.seats(index), "seed": schedule.seed_of(index)})
    hint = {"game": "--edition", "edition": "--edition", "rules": "--rules", "players": "--players",
            "bots": schedule.bots_hint, "seed": "--seed", "dice": "--dice"}
    for key, value in expected.items():
        if entry.get(key) != value:
            why = f"another {hint[key]}?"
            other = schedule.seated_by(index, entry.get(key)) if key == "bots" else None
            if other is not None:
                why = f"its games are seated by --seating {other}, this run's by --seating {schedule.seating}"
            raise AdvisorError(f"{shown} is from another run: game {index} has {key} {entry.get(key)!r:.60}, "
                               f"this run's would have {value!r} ({why}); delete it to start again")

