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
import concurrent.futures.process as _process_module
import multiprocessing
import os
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from advisor.errors import AdvisorError
from advisor._tools.workers import held_interrupts, quiet_tracker, worker_init
from advisor.web.warm import warm_worker
from advisor.web.work import run

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


def _init_worker(threads: int | None, warm: bool) -> None:
    """Worker set-up: Ctrl-C left to the server (which stops every worker
    and says so in one line), a watch on the server's process (nothing
    from a worker once it is gone: :mod:`advisor._tools.workers`), the thread
    count, then every kernel loaded (or compiled)."""
    worker_init(0.5)
    if threads is not None:
        os.environ["NUMBA_NUM_THREADS"] = str(threads)
    if warm:
        warm_worker()


def _call(task: str, kwargs: dict) -> dict:
    return run(task, kwargs)


class Lanes:
    """The fast and the slow lane.  ``workers``: processes per lane
    (default: the number of cores); ``warm``: load the kernels in every
    worker at start-up; ``readiness``: the kernels are being compiled in
    another process (:class:`advisor.web.ready.Readiness`): each task
    waits until those it needs are ready, then its worker loads them from
    the cache."""

    def __init__(self, workers: int | None = None, *, warm: bool = True, readiness=None):
        self.workers = workers or os.cpu_count() or 1

        quiet_tracker()
        # kernels compiled elsewhere (advisor.web.ready): a task waits for its own
        self.readiness = readiness
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
        with held_interrupts():
            pending = [loop.run_in_executor(pool, _call, "sleep", {"seconds": 0.2})
                       for pool in self.pools.values() for _ in range(pool._max_workers)]
        await asyncio.gather(*pending)

    def shutdown(self) -> None:
        """Stop every worker now: the queued work is cancelled and a worker
        still computing (or loading the kernels) is terminated, quietly
        (workers leave Ctrl-C to the server, so they would otherwise hold
        the server's exit until their task ends)."""
        # each pool's manager thread closes its wake-up pipe as it ends; at
        # exit, Python 3.11 wakes every such thread through that pipe, so a
        # thread still ending then met a closed pipe and printed a traceback
        # (Bad file descriptor): wait for them to end (the workers are gone).
        # The threads are taken before shutdown(), which forgets them.
        threads = []
        for pool in self.pools.values():
            threads.append(getattr(pool, "_executor_manager_thread", None))
            processes = list((getattr(pool, "_processes", None) or {}).values())
            pool.shutdown(wait=False, cancel_futures=True)
            for process in processes:
                if process.is_alive():
                    process.terminate()
        for thread in filter(None, threads):
            thread.join(timeout=10)
            if thread.is_alive():  # not ended yet: the exit must not wake it through a pipe it may be closing
                getattr(_process_module, "_threads_wakeups", {}).pop(thread, None)

    async def run(self, lane: str, task: str, **kwargs) -> dict:
        """Run ``task`` in ``lane`` and return its result; a user error in
        the worker raises :class:`TaskError`."""
        stats = self.stats[lane]
        if stats.waiting >= QUEUE_PER_WORKER * self.workers:
            raise Busy(f"the server is busy ({stats.waiting} computations waiting); try again shortly")
        if self.readiness is not None and not self.readiness.ready_for(task, kwargs):
            stats.waiting += 1  # waiting for its kernels to compile, not compiling them again
            try:
                await self.readiness.wait_for(task, kwargs)
            finally:
                stats.waiting -= 1
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
