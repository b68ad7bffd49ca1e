"""A file of recorded games reviewed on every core or on a Dask cluster:
reading the games of a JSON-lines file one at a time (:func:`read_games`,
:func:`count_games`), one game's review that turns a bad record into an
error (:func:`review_one`), and the runners (:func:`review_records`: worker
processes or Dask tasks, results in file order).  One game's review is
:func:`advisor.reviews.review.review`; that module gives these names too.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Iterator

import advisor.reviews.review as one_game
from advisor.errors import AdvisorError
from advisor.game import RecordError
from advisor.reviews.review import Review, is_cards_setup

__all__ = ["Reviewed", "read_games", "count_games", "review_one", "review_records"]


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
    from advisor.cards.record import is_cards_file, iter_cards_records
    from advisor.game import iter_records

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
                    return is_cards_setup(entry)
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
        return Reviewed(index, line, one_game.review(record, game_index=index, **options))
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

    from advisor._tools.workers import worker_init

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
    those of :func:`advisor.reviews.review.review`.  ``progress``: a bar on stderr (default: when
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
            from advisor.cards.record import is_cards_file

            source = _on_processes(jobs, processes, is_cards_file(path))
        for result in source:
            bar.update()
            yield result
    finally:
        bar.close()


def _on_processes(jobs, processes: int | None, cards: bool = False) -> Iterator[Reviewed]:
    import multiprocessing as mp
    import os
    from collections import deque

    from advisor.warm import cold_groups, needs, warmup

    cold = cold_groups(needs("review", cards=cards))
    if cold:  # compile once here, not in every worker
        warmup(groups=cold)
    from advisor._tools.workers import quiet_tracker

    quiet_tracker()
    workers = processes or os.cpu_count() or 1
    with mp.get_context("spawn").Pool(workers, initializer=_worker_init) as pool:
        pending: deque = deque()
        for job in jobs:
            pending.append(pool.apply_async(review_one, job))
            if len(pending) >= 4 * workers:  # a few games in flight per worker: memory stays flat
                yield pending.popleft().get()
        while pending:
            yield pending.popleft().get()


def _on_dask(jobs, scheduler: str | None, per_task: int = 4) -> Iterator[Reviewed]:
    """Games in tasks of ``per_task`` on the cluster, results in file order."""
    from advisor._tools.cluster import connect, ordered_tasks

    if not scheduler:
        raise AdvisorError("the dask engine needs a scheduler address (--scheduler tcp://HOST:8786)")
    client = connect(scheduler)
    try:
        yield from ordered_tasks(client, _review_many, jobs, per_task)
    finally:
        client.close()
