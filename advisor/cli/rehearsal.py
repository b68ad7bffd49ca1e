"""A first run of ``camelup play``: the kernels the table needs compiled in
a background copy of the game while the first human reads the table
(:class:`Rehearsal`, started by :class:`advisor.cli.table.Table`)."""

from __future__ import annotations

import copy
import threading
import time
from typing import Sequence

__all__ = ["Rehearsal", "rehearse"]


class Rehearsal:
    """A first run's kernels compiled while the players read the table and
    type (``camelup play`` with a cold cache): a copy of the game is played
    on in a background thread, every seat a bot (a human's seat the random
    bot), until each bot has chosen a turn and the first human's advice
    (``best``) was computed once, so the kernels the table needs next are
    compiled, into the cache, before they are asked for.  Its results are
    thrown away: the game itself never sees them (the bots draw from the
    game's own record).  :meth:`wait` is called before the table computes
    anything: the game's own kernels never run beside it (numba's parallel
    kernels are not to be started from two threads at once)."""

    def __init__(self, engine, seats: Sequence[str], notice=None):
        self.notice = notice
        self.estimate = notice.estimate() if notice is not None else 0.0
        self.start = time.perf_counter()
        self.error: BaseException | None = None
        record = copy.deepcopy(engine.record)
        if notice is not None:
            about = f", about {max(1, round(self.estimate))} s" if self.estimate >= 1 else ""
            notice.say(f"compiling kernels in the background while you read the table (first run only{about})")
            notice.background = True  # its compilations counted, not shown
        self.thread = threading.Thread(target=self._run, args=(engine, record, list(seats)), daemon=True,
                                       name="camelup-rehearsal")
        self.thread.start()

    def _run(self, engine, record: list[dict], seats: list[str]) -> None:
        try:
            rehearse(engine.replay(record), seats)
        except Exception as exc:  # noqa: BLE001 - a nicety: what it missed compiles when first asked for
            self.error = exc
        finally:
            if self.notice is not None:
                self.notice.background = False

    @property
    def running(self) -> bool:
        return self.thread.is_alive()

    def wait(self) -> None:
        """Return once the rehearsal is over (at once when it is)."""
        if not self.thread.is_alive():
            return
        left = max(0.0, self.estimate - (time.perf_counter() - self.start))
        about = f", about {max(1, round(left))} s more" if left >= 1 else ""
        message = f"finishing the kernels compiling in the background (first run only{about})"
        if self.notice is not None:
            self.notice.wait_for(self.thread, message)
        else:
            self.thread.join()


def rehearse(engine, seats: Sequence[str], limit: int | None = None) -> None:
    """Play ``engine``'s game on (it is changed: give a copy) with a bot in
    every seat (``"human"``: the random bot) until each bot seat has chosen
    a turn and the first human seat's advice was computed at its turn, or
    the game ends, or ``limit`` turns (default: three rounds)."""
    bots = {i: engine.make_bot(name) for i, name in enumerate(seats) if name != "human"}
    humans = [i for i, name in enumerate(seats) if name == "human"]
    stand_in = engine.make_bot("random")
    decided: set[int] = set()
    advised = not humans
    for _ in range(limit if limit is not None else 3 * len(seats)):
        if engine.finished or (advised and decided >= set(bots)):
            return
        p = engine.to_move
        if engine.in_turns:
            if p in bots:
                decided.add(p)
            elif p == humans[0] and not advised:
                engine.command(p, "best")
                advised = True
        for action in engine.bot_actions(p, bots.get(p, stand_in)):
            engine.apply(str(action))
