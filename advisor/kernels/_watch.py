"""Who wants to know when a kernel compiles (this module imports no numba).

:mod:`advisor.kernels._jit` tells the watchers registered here each time
numba starts and ends compiling a function, which happens only when the
on-disk cache lacks its machine code.  The command line registers a watcher
before any kernel is imported, so the user hears about a cold cache the
moment compilation starts, and a command that fails on bad input (before
any kernel loads) costs no numba import.
"""

from __future__ import annotations

from typing import Protocol

__all__ = ["Watcher", "add", "remove", "started", "finished"]


class Watcher(Protocol):
    def started(self, name: str) -> None: ...

    def finished(self, name: str) -> None: ...


_watchers: list[Watcher] = []


def add(watcher: Watcher) -> None:
    _watchers.append(watcher)


def remove(watcher: Watcher) -> None:
    if watcher in _watchers:
        _watchers.remove(watcher)


def started(name: str) -> None:
    """Numba starts compiling the function ``name`` (module.qualname)."""
    for watcher in list(_watchers):
        watcher.started(name)


def finished(name: str) -> None:
    """Numba finished (or failed) compiling ``name``."""
    for watcher in list(_watchers):
        watcher.finished(name)
