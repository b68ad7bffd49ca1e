"""What the server has ready, and what it still prepares.

On its first start after an install the server has nothing compiled.  It
serves the page at once and compiles the kernels in one process of its own
(:mod:`advisor.web.prepare`), in :data:`ORDER`: the exact leg odds first
(the page's first answer), then race odds and advice, the board game's
moves and bots (game mode), then Camel Up Cards and its bots.  A request
whose kernels are not ready yet waits for them (:meth:`Readiness.wait_for`)
instead of compiling them a second time in a worker; ``GET /api/status``
and the page say which parts are still being prepared and about how long
each will take, from the measured compile times
(:func:`advisor.warm.estimate`).  These are the groups' figures, not a
command's (:func:`advisor.warm.forms`): the preparer runs each group's
warm-up whole, every specialization of its kernels, which is what those
figures measure.  On a warm start the preparer finds every group in the
cache and ends within seconds.

This module imports no numba: the server's process runs no kernel.
"""

from __future__ import annotations

import asyncio
import io
import json
import os
import sys
import time
from pathlib import Path

from advisor import warm
from advisor.cards.record import is_cards_lines, is_cards_record

__all__ = ["ORDER", "TASK_GROUPS", "PARTS", "Readiness", "groups_for"]

#: The kernel groups in the order they are prepared (the board groups in the
#: order of :data:`advisor.warm.GROUPS`, whose compile times are each what a
#: group adds to those before it).
ORDER = ("leg", "race", "joint", "moves", "bots", "cards_legs", "cards_races", "cards_bots", "sampler", "levels",
         "batch")

_BOARD_GAME = ("moves", "leg", "joint", "race", "bots")
_CARDS = ("cards_legs", "cards_races")
_CARDS_GAME = _CARDS + ("cards_bots",)
_GAMES = _BOARD_GAME + _CARDS_GAME
_GAME_TASKS = ("game_new", "game_replay", "game_act", "game_load")
#: how long the preparer is given to end when the server stops, before it is killed
STOP_SECONDS = 5.0

#: The groups each worker task needs (a task not named here needs none).
TASK_GROUPS: dict[str, tuple[str, ...]] = {
    "leg": ("leg",),
    "race": ("leg", "race"),
    "advice": ("leg", "joint", "race"),
    "curve": ("leg", "race"),
    "cards_leg": ("cards_legs",),
    "cards_race": _CARDS,
    "cards_advice": _CARDS,
    "cards_curve": _CARDS,
    # a game's task needs its own game's only (groups_for)
    **{task: _GAMES for task in _GAME_TASKS},
}


def _cards_game(task: str, kwargs: dict) -> bool:
    """Whether the game task ``task`` (called with ``kwargs``) plays Camel
    Up Cards (else a board game): the new game's edition, the record's
    setup line, the loaded file's first line."""
    if task == "game_new":
        return kwargs.get("edition") == "cards"
    if task == "game_load":
        return is_cards_lines(io.StringIO(kwargs.get("text") or ""))
    return is_cards_record(kwargs.get("record"))


def groups_for(task: str, kwargs: dict | None = None) -> tuple[str, ...]:
    """The groups a worker task needs: :data:`TASK_GROUPS`, less the race
    odds for advice valued without them (the page's second stage), and a
    game's task only its own game's (a board game never waits for Camel Up
    Cards to compile, nor Camel Up Cards for the board game's bots)."""
    if task == "advice" and kwargs is not None and not kwargs.get("race", True):
        return ("leg", "joint")
    if task in _GAME_TASKS and kwargs is not None:
        return _CARDS_GAME if _cards_game(task, kwargs) else _BOARD_GAME
    return TASK_GROUPS.get(task, ())


#: The parts of the page, as the page names them, and the groups each needs.
PARTS: dict[str, tuple[str, ...]] = {
    "leg": ("leg",),
    "advice": ("leg", "joint", "race"),
    "race": ("leg", "race"),
    "curve": ("leg", "race"),
    "cards": _CARDS,
    "game": _BOARD_GAME,
    "cards_game": _CARDS_GAME,
}


class Readiness:
    """The state of each kernel group (``checking`` the cache, ``waiting``,
    ``compiling``, ``ready``)
    while the preparer runs.  ``order``: the groups, in preparing order;
    ``share``: the share of a core a compilation gets (default: measured at
    :meth:`start`, :func:`advisor.warm.cpu_share`)."""

    def __init__(self, order: tuple[str, ...] = ORDER, *, share: float | None = None,
                 command: list[str] | None = None):
        self.order = tuple(order)
        # the preparer's command line (tests give a stand-in)
        self.command = command or [sys.executable, "-m", "advisor.web.prepare", *self.order]
        # "checking" until the preparer has looked in the cache (a warm start
        # compiles nothing: no estimate is said before that is known)
        self.state = {name: "checking" for name in self.order}
        self.since: dict[str, float] = {}
        self.took: dict[str, float] = {}
        self.share = share
        self.events: dict[str, asyncio.Event] = {}
        self.proc: asyncio.subprocess.Process | None = None
        self.reader: asyncio.Task | None = None
        self.failed: str | None = None
        self.listeners: list = []  # called with (group, state, seconds) on every change

    # ---------------------------------------------------------------- life
    async def start(self) -> None:
        """Start the preparer (in the running event loop)."""
        if self.share is None:
            self.share = warm.cpu_share()
        self.bind()
        root = str(Path(__file__).resolve().parents[2])
        env = {**os.environ, "PYTHONPATH": os.pathsep.join(p for p in (root, os.environ.get("PYTHONPATH")) if p)}
        self.proc = await asyncio.create_subprocess_exec(*self.command, stdout=asyncio.subprocess.PIPE, env=env)
        self.reader = asyncio.ensure_future(self._read())

    def bind(self) -> None:
        """Make the events tasks wait on (in the running event loop)."""
        for name in self.order:
            self.events.setdefault(name, asyncio.Event())
            if self.state[name] == "ready":
                self.events[name].set()

    async def _read(self) -> None:
        assert self.proc is not None and self.proc.stdout is not None
        async for line in self.proc.stdout:
            try:
                self.update(**json.loads(line))
            except (ValueError, TypeError):
                continue
        code = await self.proc.wait()
        if not self.all_ready():  # the preparer died: workers compile what they need themselves
            self.failed = f"the kernel preparer ended (exit status {code})"
            for name in self.order:
                if self.state[name] != "ready":
                    self.update(group=name, state="ready", seconds=None)

    async def stop(self) -> None:
        """End the preparer and wait for it, in the running event loop (a
        process left to the garbage collector after the loop has closed
        prints a traceback on the way out)."""
        if self.reader is not None:
            self.reader.cancel()
            try:
                await self.reader
            except BaseException:  # cancelled, or the preparer's pipe broke: it is ending either way
                pass
        if self.proc is not None:
            if self.proc.returncode is None:
                try:
                    self.proc.terminate()
                except ProcessLookupError:
                    pass
            try:
                await asyncio.wait_for(self.proc.wait(), STOP_SECONDS)
            except asyncio.TimeoutError:
                self.proc.kill()
                await self.proc.wait()

    # --------------------------------------------------------------- state
    def update(self, group: str, state: str, seconds: float | None = None) -> None:
        if group not in self.state:
            return
        self.state[group] = state
        if state in ("compiling", "ready"):  # the preparer went past the groups before this one
            for name in self.order:
                if name == group:
                    break
                if self.state[name] == "checking":
                    self.state[name] = "ready"
        if self.state.get(group) != "ready" and state == "compiling":
            for name in self.order[self.order.index(group) + 1:]:
                if self.state[name] == "checking":
                    self.state[name] = "waiting"
        if state == "compiling":
            self.since[group] = time.monotonic()
        elif state == "ready":
            if seconds is not None:
                self.took[group] = float(seconds)
            event = self.events.get(group)
            if event is not None:
                event.set()
        for listener in list(self.listeners):
            listener(group, state, seconds)

    def all_ready(self) -> bool:
        return all(state == "ready" for state in self.state.values())

    def ready_for(self, task: str, kwargs: dict | None = None) -> bool:
        return all(self.state.get(g, "ready") == "ready" for g in groups_for(task, kwargs))

    async def wait_for(self, task: str, kwargs: dict | None = None) -> None:
        """Return once the kernels ``task`` (called with ``kwargs``) needs
        are compiled."""
        for name in groups_for(task, kwargs):
            event = self.events.get(name)
            if event is not None and self.state.get(name) != "ready":
                await event.wait()

    def _left(self) -> dict[str, float | None]:
        """Seconds until each group is ready (0 when it is; None while the
        cache is being checked)."""
        share = self.share or 1.0
        now = time.monotonic()
        left, clock = {}, 0.0
        for name in self.order:
            if self.state[name] == "ready":
                left[name] = 0.0
                continue
            if self.state[name] == "checking":
                left[name] = None
                continue
            total = warm.estimate((name,), share=share)
            if self.state[name] == "compiling":
                total = max(1.0, total - (now - self.since.get(name, now)))
            clock += total
            left[name] = clock
        return left

    def status(self) -> dict:
        """What ``GET /api/status`` answers: ``ready`` (every part), each
        group's state and seconds left, and each part of the page still
        being prepared with its seconds left."""
        left = self._left()
        def rounded(x):
            return None if x is None else round(x, 1)

        groups = [{"name": name, "title": warm._BY_NAME[name].title, "state": self.state[name],
                   "seconds_left": rounded(left[name])} for name in self.order]
        parts = {}
        for part, needs in PARTS.items():
            values = [left.get(g, 0.0) for g in needs]
            parts[part] = None if None in values else round(max(values, default=0.0), 1)
        out = {"ready": self.all_ready(), "groups": groups,
               "preparing": {part: s for part, s in parts.items() if s is None or s > 0}}
        if self.failed:
            out["note"] = self.failed
        return out
