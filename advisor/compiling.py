"""The compile notice: what a command says on stderr while numba compiles
its kernels (the first run after an install), with the measured estimate
of :mod:`advisor.warm`, and how long it took."""

from __future__ import annotations

import sys
import threading
import time
from typing import Iterable

from advisor import warm
from advisor.kernels import _watch

__all__ = ["CompileNotice"]


def _rounded(seconds: float) -> int:
    """Seconds as said: to 5 s, or to 1 s below 10 s."""
    return max(1, round(seconds)) if seconds < 10 else 5 * round(seconds / 5)


class CompileNotice:
    """While active (``with CompileNotice(...):``), says on ``stream`` when
    numba compiles kernels: a spinner with the seconds elapsed on a
    terminal, one line otherwise; and at the end how long it took.  Nothing
    is printed when nothing compiles.  ``forms``: the measured command
    forms of the work (:func:`advisor.warm.forms`), for the time estimate; ``groups``:
    the kernel groups it needs, for the estimate when ``forms`` is None or
    names a form never measured."""

    FRAMES = "|/-\\"

    def __init__(self, groups: Iterable[str] = (), stream=None, prog: str = "camelup",
                 forms: Iterable[str] | None = None):
        self.groups = tuple(groups)
        self.forms = None if forms is None else tuple(forms)
        self.stream = stream if stream is not None else sys.stderr
        self.prog = prog
        self.depth = 0
        self.compiled = 0.0  # seconds spent compiling, finished spans
        self.since: float | None = None  # start of the current span
        self.seconds: float | None = None  # the estimate when known beforehand (a split compile's)
        self.message: str | None = None
        self.lock = threading.Lock()  # guards the state and the spinner's line
        self.wake = threading.Event()
        self.done = False
        self.shown = False  # the spinner's line is on the terminal
        self.thread: threading.Thread | None = None
        # while ``background`` (a game's rehearsal, camelup play, runs), the
        # compilations in threads other than the owner's are not shown (the
        # players are typing): counted
        self.owner: threading.Thread | None = None
        self.background = False
        self.behind = 0.0  # seconds compiling in other threads, finished spans
        self.behind_since: dict[int, tuple[int, float]] = {}  # thread id -> (depth, start)
        try:
            self.tty = self.stream.isatty()
        except (AttributeError, ValueError):
            self.tty = False

    # -------------------------------------------------- watcher interface
    def started(self, name: str) -> None:
        if self._elsewhere(+1):
            return
        with self.lock:
            self.depth += 1
            if self.depth > 1:
                return
            self.since = time.perf_counter()
            first = self.message is None
            if first:
                self.message = self._message()
        if first and not self.tty:
            self._write(f"{self.prog}: {self.message} ...\n")
        if self.tty:
            if self.thread is None:
                self.thread = threading.Thread(target=self._spin, daemon=True)
                self.thread.start()
            self.wake.set()

    def finished(self, name: str) -> None:
        if self._elsewhere(-1):
            return
        with self.lock:
            self.depth = max(0, self.depth - 1)
            if self.depth == 0 and self.since is not None:
                self.compiled += time.perf_counter() - self.since
                self.since = None
                self._erase()  # at once: the command's own output may follow

    def _elsewhere(self, step: int) -> bool:
        """Count a compilation's start (+1) or end (-1) in a thread other
        than the one that entered the notice; False in that thread."""
        current = threading.current_thread()
        if not self.background or current is self.owner:
            return False
        with self.lock:
            depth, since = self.behind_since.get(current.ident, (0, time.perf_counter()))
            depth = max(0, depth + step)
            if depth:
                self.behind_since[current.ident] = (depth, since)
            else:
                self.behind_since.pop(current.ident, None)
                self.behind += time.perf_counter() - since
        return True

    def estimate(self) -> float:
        """Seconds the work's kernels take to compile from this cache (0 when
        unknown)."""
        try:
            seconds = self._cpu_seconds()
            return seconds / warm.cpu_share() if seconds else 0.0
        except Exception:  # noqa: BLE001 - the estimate is a nicety
            return 0.0

    def say(self, message: str) -> None:
        """One line on the notice's stream."""
        self._write(f"{self.prog}: {message}\n")

    def wait_for(self, thread: threading.Thread, message: str) -> None:
        """Wait until ``thread`` (compiling in the background) ends, saying
        ``message`` as a compilation is said (the spinner on a terminal)."""
        if not thread.is_alive():
            return
        with self.lock:
            self.message = message
        if not self.tty:
            self._write(f"{self.prog}: {message} ...\n")
        start = time.perf_counter()
        self.started("waiting")
        try:
            thread.join()
        finally:
            self.finished("waiting")
            with self.lock:  # the wait is the other thread's compilation, counted there
                self.compiled -= time.perf_counter() - start

    # -------------------------------------------------- context manager
    def __enter__(self) -> "CompileNotice":
        self.owner = threading.current_thread()
        _watch.add(self)
        return self

    def __exit__(self, *exc) -> None:
        _watch.remove(self)
        with self.lock:
            if self.since is not None:  # a compile interrupted by an exception
                self.compiled += time.perf_counter() - self.since
                self.since = None
            self.depth = 0
            self.done = True
            self._erase()
            now = time.perf_counter()
            behind = self.behind + sum(now - since for _, since in self.behind_since.values())
            # the background work (camelup play's rehearsal) still under way: the command ends before
            # it, and what it had yet to compile is compiled by the next run, not loaded
            unfinished = self.background
        self.wake.set()
        if self.thread is not None:
            self.thread.join()
        if exc[0] is not None or not (self.message is not None or behind >= 0.5 or unfinished):
            return
        background = f" ({behind:.0f} s of it in the background)" if behind >= 0.5 else ""
        total = self.compiled + behind
        if unfinished and total < 0.5:
            self._write(f"{self.prog}: the command ended while the kernels compiled in the background; the next "
                        "run compiles them\n")
        elif unfinished:
            self._write(f"{self.prog}: kernels compiled in {total:.0f} s{background}, not all: "
                        "the command ended while the rest compiled in the background; the next run compiles it\n")
        else:
            self._write(f"{self.prog}: kernels compiled in {total:.0f} s{background}; later runs "
                        "load them from the cache\n")

    # -------------------------------------------------- output
    def _message(self) -> str:
        seconds = self.seconds if self.seconds is not None else self.estimate()
        about = f", about {_rounded(seconds)} s" if seconds else ""
        return f"compiling kernels (first run only{about})"

    def _cpu_seconds(self) -> float:
        """Processor seconds the work compiles: its forms' cold kernels,
        else its cold groups."""
        if self.forms is not None:
            seconds = warm.form_seconds(self.forms)
            if seconds is not None:
                return seconds
        return warm._group_seconds(warm.cold_groups(self.groups) if self.groups else [])

    def _write(self, text: str) -> None:
        try:
            self.stream.write(text)
            self.stream.flush()
        except (OSError, ValueError):  # a closed or broken stream: the notice is a nicety
            pass

    def _erase(self) -> None:
        """Erase the spinner's line (the caller holds the lock)."""
        if self.shown:
            self._write("\r\x1b[K")
            self.shown = False

    def _spin(self) -> None:
        """The terminal spinner: drawn while a compilation runs, erased as
        soon as it ends (the command's own output goes there)."""
        frame = 0
        while True:
            with self.lock:
                if self.done:
                    return
                active = self.depth > 0
                if active:
                    elapsed = self.compiled + time.perf_counter() - self.since
                    self._write(f"\r{self.FRAMES[frame % 4]} {self.message}: {elapsed:.0f} s ")
                    self.shown = True
                    frame += 1
            if active:
                time.sleep(0.2)
            else:
                self.wake.wait(0.5)
                self.wake.clear()
