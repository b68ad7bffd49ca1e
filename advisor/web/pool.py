"""Worker processes for the web server: the computation never runs on the
event loop.

Three lanes, each a process pool:

* ``fast``: leg odds, the advice valued from the leg alone (milliseconds
  each), sized to the cores;
* ``slow``: race odds, the full advice, odds curves (up to seconds), sized
  to the cores;
* ``game``: the moves of a game, replays and loads (and the Camel Up Cards
  bots that answer a move), half as many workers (at least one): a game
  move never waits behind analysis.

A slow request therefore never holds up a fast one: the fast lane's workers
are never busy with slow work, and the operating system shares the cores
between the processes.  Workers are started with ``spawn`` (never ``fork``:
the server's own process holds numba's thread pool) and load every kernel
from numba's cache when they start, so the first request is as fast as the
others.

Cancellation: awaiting :meth:`Lanes.run` and being cancelled (the client
went away) cancels the task if no worker has taken it yet; a task already
running finishes in its worker and its result is dropped.
"""

from __future__ import annotations

import asyncio
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from ..errors import AdvisorError

__all__ = ["Lanes", "LaneStats", "Busy", "TaskError"]

#: Tasks waiting in one lane, per worker, before the server answers 503.
QUEUE_PER_WORKER = 32


class Busy(Exception):
    """Too many tasks are waiting: the server answers 503."""


class TaskError(AdvisorError):
    """A user error raised in a worker (message and token carried over)."""

    def __init__(self, message: str, token: str | None = None):
        super().__init__(message)
        self.token = token


@dataclass
class LaneStats:
    """Counters of one lane (the tests and ``/api/health`` read them)."""

    submitted: int = 0
    completed: int = 0
    cancelled: int = 0  # cancelled before a worker took them
    dropped: int = 0  # the client left while a worker computed them
    waiting: int = 0  # submitted and not finished
    by_task: dict = field(default_factory=dict)


def _watch_parent(parent: int) -> None:
    """End this worker when the server's process is gone (even killed: a
    worker holds its task queue's pipe open, so it would wait forever)."""
    import time

    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)


def _init_worker(threads: int | None, warm: bool) -> None:
    """Worker set-up: a watch on the server's process, the thread count,
    then every kernel loaded (or compiled)."""
    import threading

    threading.Thread(target=_watch_parent, args=(os.getppid(),), daemon=True, name="watch-server").start()
    if threads is not None:
        os.environ["NUMBA_NUM_THREADS"] = str(threads)
    if warm:
        from .warm import warm_worker

        warm_worker()


def _call(task: str, kwargs: dict) -> dict:
    from .work import run

    return run(task, kwargs)


class Lanes:
    """The fast and the slow lane.  ``workers``: processes per lane
    (default: the number of cores); ``warm``: load the kernels in every
    worker at start-up."""

    def __init__(self, workers: int | None = None, *, warm: bool = True):
        self.workers = workers or os.cpu_count() or 1
        self.game_workers = max(1, self.workers // 2)
        ctx = multiprocessing.get_context("spawn")
        # fast work is serial: one numba thread per fast worker
        self.pools = {
            "fast": ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_init_worker,
                                        initargs=(1, warm)),
            "slow": ProcessPoolExecutor(self.workers, mp_context=ctx, initializer=_init_worker,
                                        initargs=(None, warm)),
            "game": ProcessPoolExecutor(self.game_workers, mp_context=ctx, initializer=_init_worker,
                                        initargs=(None, warm)),
        }
        self.stats = {lane: LaneStats() for lane in self.pools}

    async def start(self) -> None:
        """Start every worker and wait until each has loaded the kernels."""
        loop = asyncio.get_running_loop()
        # submitting as many tasks as workers at once starts every process
        pending = [loop.run_in_executor(pool, _call, "sleep", {"seconds": 0.2})
                   for pool in self.pools.values() for _ in range(pool._max_workers)]
        await asyncio.gather(*pending)

    def shutdown(self) -> None:
        for pool in self.pools.values():
            pool.shutdown(wait=False, cancel_futures=True)

    async def run(self, lane: str, task: str, **kwargs) -> dict:
        """Run ``task`` in ``lane`` and return its result; a user error in
        the worker raises :class:`TaskError`."""
        stats = self.stats[lane]
        if stats.waiting >= QUEUE_PER_WORKER * self.workers:
            raise Busy(f"the server is busy ({stats.waiting} computations waiting); try again shortly")
        future = self.pools[lane].submit(_call, task, kwargs)
        stats.submitted += 1
        stats.waiting += 1
        stats.by_task[task] = stats.by_task.get(task, 0) + 1
        try:
            result = await asyncio.wrap_future(future)
        except asyncio.CancelledError:
            if future.cancel():
                stats.cancelled += 1
            else:
                stats.dropped += 1
            raise
        finally:
            stats.waiting -= 1
        stats.completed += 1
        if "error" in result:
            raise TaskError(result["error"], result.get("token"))
        return result["ok"]
