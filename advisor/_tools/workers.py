"""Worker processes that stop quietly.

The parent of a process pool (``simulate``, ``duel``, ``review``,
``serve``) says in one line what a stop did; its workers say nothing:

* :func:`worker_init` (a pool's initializer): Ctrl-C, which the terminal
  sends to every process of the group, is left to the parent; once the
  parent is gone (``kill -9``) the worker writes nothing more to stderr (no
  BrokenPipeError traceback while it hands back a result nobody reads) and
  ends itself.
* :func:`held_interrupts` (the parent, while it starts a pool's
  processes): Ctrl-C is held back from the new processes until
  :func:`worker_init` has set them to leave it to the parent (a worker
  still importing when Ctrl-C came would print a KeyboardInterrupt
  traceback), and from the parent until the pool stands (a pool half
  started when Ctrl-C came could not be stopped cleanly); the parent's
  Ctrl-C is raised as soon as the pool is up, nothing is lost.
* :func:`spawn_pool`: a pool of spawned workers started with both of
  these (``simulate``, ``duel``, ``tournament``, ``review``).
* :func:`quiet_tracker` (the parent, before it starts a pool): the
  resource tracker that multiprocessing starts beside the parent would
  warn about "leaked semaphore objects" after a ``kill -9`` of the parent;
  those semaphores are the pool's own and the tracker removes them anyway.
"""

from __future__ import annotations

import multiprocessing
import os
import signal
import sys
import threading
import time
from contextlib import contextmanager
from multiprocessing import resource_tracker

__all__ = ["worker_init", "held_interrupts", "spawn_pool", "quiet_tracker", "TRACKER_WARNINGS"]

#: Ctrl-C can be held back (blocked) where the platform has signal masks.
_CAN_HOLD = hasattr(signal, "pthread_sigmask")

#: The warning filter handed to the resource tracker (see :func:`quiet_tracker`).
TRACKER_WARNINGS = "ignore::UserWarning:multiprocessing.resource_tracker"


class _WhileParentLives:
    """A text stream that passes writes on while the parent process lives."""

    def __init__(self, stream, parent: int):
        self._stream = stream
        self._parent = parent

    def write(self, text):
        if os.getppid() != self._parent:
            return len(text)
        try:
            return self._stream.write(text)
        except (BrokenPipeError, OSError):
            return len(text)

    def flush(self):
        if os.getppid() == self._parent:
            try:
                self._stream.flush()
            except (BrokenPipeError, OSError):
                pass

    def __getattr__(self, name):
        return getattr(self._stream, name)


def _watch(parent: int, interval: float) -> None:
    while os.getppid() == parent:
        time.sleep(interval)
    try:  # nothing more from this worker, whatever is under way
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, 2)
    except OSError:
        pass
    os._exit(0)


def worker_init(interval: float = 0.25) -> None:
    """Set a pool worker up to stop quietly (see the module docstring)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)  # a Ctrl-C held back since the start is dropped here
    if _CAN_HOLD:
        signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGINT})
    parent = os.getppid()
    sys.stderr = _WhileParentLives(sys.stderr, parent)
    threading.Thread(target=_watch, args=(parent, interval), daemon=True, name="watch-parent").start()


@contextmanager
def held_interrupts():
    """Hold Ctrl-C back while a pool's processes start (see the module
    docstring).  A process started inside begins with Ctrl-C blocked (the
    signal mask of the starting thread passes to a new process, and to the
    threads the pool starts here).  The parent's own Ctrl-C (which another
    of its threads, numba's for one, may take) is noted and raised when the
    block ends."""
    before = signal.pthread_sigmask(signal.SIG_BLOCK, {signal.SIGINT}) if _CAN_HOLD else None
    main = threading.current_thread() is threading.main_thread()
    noted = []
    handler = signal.signal(signal.SIGINT, lambda *_: noted.append(True)) if main else None
    try:
        yield
    finally:
        if main:
            signal.signal(signal.SIGINT, handler)
        if before is not None:
            signal.pthread_sigmask(signal.SIG_SETMASK, before)
        if noted:
            if callable(handler):
                handler(signal.SIGINT, None)
            elif handler != signal.SIG_IGN:
                raise KeyboardInterrupt


def spawn_pool(processes: int | None, initializer) -> "multiprocessing.pool.Pool":
    """A pool of ``processes`` spawned workers (``initializer`` calls
    :func:`worker_init`), started quietly: the resource tracker told to keep
    quiet, Ctrl-C held back while the workers start; a Ctrl-C that came
    meanwhile ends the pool before it is raised."""
    quiet_tracker()
    # the tracker starts with the pool's first lock unless it runs already;
    # starting it unblocks Ctrl-C in the starting thread (multiprocessing
    # blocks, then unblocks, the signals it keeps from the tracker), which
    # inside held_interrupts let Ctrl-C reach the workers spawned after it
    # while they were still importing: start it first, outside
    resource_tracker.ensure_running()
    pool = None
    try:
        with held_interrupts():
            pool = multiprocessing.get_context("spawn").Pool(processes, initializer=initializer)
    except BaseException:
        if pool is not None:
            pool.terminate()
        raise
    return pool


def quiet_tracker() -> None:
    """Keep the resource tracker, started with the first pool, from
    warning about the pool's semaphores after the parent was killed (it
    takes the parent's warning options)."""
    if TRACKER_WARNINGS not in sys.warnoptions:
        sys.warnoptions.append(TRACKER_WARNINGS)
