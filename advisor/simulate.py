"""Many games: simulations and seat-rotated tournaments, on every core.

Game ``i`` of a run with seed ``S`` is seeded from ``(S, i)`` and the bot in
seat ``s`` draws from its own stream ``(game seed, s)``, so a run gives the
same games whatever the number of processes.  In a tournament, game ``i``
rotates the seats by ``i`` places, so every bot plays every seat equally
often and seat order cannot bias the result.
"""

from __future__ import annotations

import math
import sys
from typing import Iterator, Sequence

import numpy as np

from .errors import AdvisorError

__all__ = ["play_game", "simulate", "tournament", "game_seed"]


def game_seed(seed: int, index: int) -> int:
    """The seed of game ``index`` of a run seeded ``seed``."""
    return int(np.random.SeedSequence([seed, index]).generate_state(1, np.uint64)[0] >> np.uint64(1))


def play_game(bots: Sequence[str], edition: str = "second", seed: int = 0) -> list[dict]:
    """Play one game, bot ``bots[s]`` in seat ``s``; returns its record."""
    from .bots import make_bot
    from .game import Game

    players = [make_bot(name) for name in bots]
    game = Game(edition, len(bots), seed)
    game.record[0]["bots"] = list(bots)
    rngs = [np.random.default_rng([game.seed, s]) for s in range(len(bots))]
    while not game.finished:
        p = game.to_move
        game.apply(players[p].choose(game.view(p), p, rngs[p]))
    return game.record


def _check(bots: Sequence[str], edition: str, games: int) -> None:
    from .bots import BOTS
    from .rules.editions import get_edition

    ed = get_edition(edition)
    problem = ed.players_problem(len(bots))
    if problem:
        raise AdvisorError(f"{problem} (one bot per seat)")
    for name in bots:
        if name not in BOTS:
            raise AdvisorError(f"unknown bot {name!r} (bots: {', '.join(BOTS)})")
    if isinstance(games, bool) or not isinstance(games, int) or games < 1:
        raise AdvisorError(f"games must be a whole number >= 1, not {games!r}")


def _one_thread():
    """Worker set-up: the processes share the cores, so each runs its kernels
    on one thread (results never depend on the thread count)."""
    import numba

    numba.set_num_threads(1)


def _job(args):
    bots, edition, seed = args
    return play_game(bots, edition, seed)


def simulate(bots: Sequence[str], games: int, *, edition: str = "second", seed: int = 0,
             processes: int | None = None, rotate: bool = False, progress: bool | None = None
             ) -> Iterator[list[dict]]:
    """Yield the records of ``games`` games, in order.  ``rotate``: seat
    the bots rotated by the game's index (tournaments).  ``progress``: a
    progress bar on stderr (default: when stderr is a terminal)."""
    _check(bots, edition, games)
    n = len(bots)
    jobs = [
        ([bots[(s + i) % n] for s in range(n)] if rotate else list(bots), edition, game_seed(seed, i))
        for i in range(games)
    ]
    if progress is None:
        progress = sys.stderr.isatty()
    from tqdm import tqdm

    bar = tqdm(total=games, unit="game", disable=not progress, file=sys.stderr)
    try:
        if processes == 1 or games == 1:
            for job in jobs:
                yield _job(job)
                bar.update()
            return
        import multiprocessing as mp

        with mp.get_context("spawn").Pool(processes, initializer=_one_thread) as pool:
            for record in pool.imap(_job, jobs, chunksize=max(1, min(16, games // (8 * (processes or 2)) or 1))):
                yield record
                bar.update()
    finally:
        bar.close()


def tournament(bots: Sequence[str], games: int, *, edition: str = "second", seed: int = 0,
               processes: int | None = None, progress: bool | None = None, records: list | None = None):
    """Seat-rotated games between ``bots``; a pandas DataFrame with one row
    per entry of ``bots``: games, wins (a shared first place counts as a
    fraction), win rate with its 95% Wilson interval, average money with its
    95% interval.  ``records``: a list to collect the game records into."""
    import pandas as pd

    n = len(bots)
    wins = np.zeros(n)
    money: list[list[int]] = [[] for _ in range(n)]
    for i, record in enumerate(simulate(bots, games, edition=edition, seed=seed, processes=processes,
                                        rotate=True, progress=progress)):
        if records is not None:
            records.append(record)
        end = record[-1]
        for seat in range(n):
            entry = (seat + i) % n  # which entry of ``bots`` sat here
            money[entry].append(end["money"][seat])
            if seat in end["winners"]:
                wins[entry] += 1 / len(end["winners"])
    rows = []
    for k, name in enumerate(bots):
        rate = wins[k] / games
        lo, hi = _wilson(rate, games)
        m = np.array(money[k], float)
        half = 1.96 * m.std(ddof=1) / math.sqrt(games) if games > 1 else float("nan")
        rows.append({"bot": name, "games": games, "wins": wins[k], "win_rate": rate, "win_lo": lo, "win_hi": hi,
                     "money": m.mean(), "money_lo": m.mean() - half, "money_hi": m.mean() + half})
    frame = pd.DataFrame(rows)
    frame.attrs.update(edition=edition, seed=seed, players=n, games=games)
    return frame


def _wilson(p: float, n: int, z: float = 1.96) -> tuple[float, float]:
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)
