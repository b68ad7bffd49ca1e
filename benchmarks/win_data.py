"""Labelled positions for the chance-of-winning model
(:mod:`advisor.valuation.winchance`): self-play games of mixed line-ups, and at every
``K``-th turn the standing of every player as the player to move sees it.

Used by ``benchmarks/fit_win_model.py`` (the fit games) and
``benchmarks/calibration.py`` (held-out games: other seeds, the line-ups'
seats reversed).  A run of games is kept in a JSON lines file of game
records (``camelup simulate``'s format) in ``--cache`` so that a refit
replays them instead of playing them again; the same seed plays the same
games.

A position is one row of :data:`COLUMNS`: the edition (0 second, 1
first), the number of players, the advised player (the one to move), the
expected legs left (race odds, this one included), every player's
expected wealth (:func:`advisor.valuation.standing.wealth`: money plus what their
bets already placed are expected to pay; NaN past the players) and money,
and each player's share of the win (``1/k`` for a first place shared by
``k``).
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

MAX_PLAYERS = 8
EDITIONS = ("second", "first")

#: The mixed line-ups per number of players (seat order of the fit games;
#: the held-out games seat them reversed).
LINEUPS = {
    3: ("margin", "rival", "heuristic"),
    4: ("margin", "rival", "advisor", "heuristic"),
    5: ("margin", "rival", "advisor", "heuristic", "rival"),
    6: ("margin", "rival", "advisor", "heuristic", "rival", "advisor"),
}


def configs(reverse: bool = False):
    """``(edition, bots)`` of every run: both editions, 3 to 6 players."""
    for edition in EDITIONS:
        for bots in LINEUPS.values():
            yield edition, tuple(reversed(bots)) if reverse else bots


def play_runs(games: int, seed: int, cache: Path, reverse: bool = False, processes: int = 1) -> list[Path]:
    """Play (or find in ``cache``) ``games`` games of every :func:`configs`
    run, run ``i`` seeded ``seed + i``; returns the record files."""
    from advisor.simulate.games import simulate_to_file

    cache.mkdir(parents=True, exist_ok=True)
    paths = []
    for i, (edition, bots) in enumerate(configs(reverse)):
        path = cache / f"{edition}-{'-'.join(bots)}-s{seed + i}-g{games}.jsonl"
        if not path.exists():
            simulate_to_file(list(bots), games, path, edition=edition, seed=seed + i, processes=processes,
                             progress=False)
        paths.append(path)
    return paths


def records(path):
    record = []
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            entry = json.loads(line)
            if entry["type"] == "setup":
                record = [entry]
            else:
                record.append(entry)
                if entry["type"] == "end":
                    yield record


COLUMNS = 4 + 3 * MAX_PLAYERS


def positions(record, every: int = 3) -> list[np.ndarray]:
    """The rows (:data:`COLUMNS` values) of one game record: every
    ``every``-th turn, the player to move's view (face-down cards inferred
    from what it was shown, as the ``margin`` bot sees them)."""
    from advisor.game import Replay
    from advisor.bots.inference import SeenCards
    from advisor.valuation.standing import legs_left, standings
    from advisor.valuation.fast import fast_values

    setup = record[0]
    n = setup["players"]
    seen = [SeenCards() for _ in range(n)]
    end = record[-1]
    share = np.zeros(MAX_PLAYERS)
    for w in end["winners"]:
        share[w] = 1 / len(end["winners"])
    edition = EDITIONS.index(setup["edition"])
    out = []
    for step in Replay(record):  # each action line, the game before it
        game, p = step.game, step.player
        for q in range(n):
            if q != p:
                seen[q].observe(game.view(q), q)
        view = seen[p].update(game.view(p), p)
        if step.turn % every == 0:
            ctx = fast_values(view, p).context
            row = np.full(COLUMNS, np.nan)
            row[:4] = edition, n, p, legs_left(ctx.race())
            row[4:4 + n] = standings(ctx, True)
            row[4 + MAX_PLAYERS:4 + MAX_PLAYERS + n] = standings(ctx, False)
            row[4 + 2 * MAX_PLAYERS:] = share
            out.append(row)
    return out


def _saved(path, every: int) -> Path:
    """Where :func:`file_table` keeps the positions of ``path``."""
    path = Path(path)
    return path.with_name(f"{path.stem}.e{every}.npy")


def file_table(path, every: int = 3) -> np.ndarray:
    """Every position of the games of one record file, kept beside it
    (``PATH.eK.npy``) once computed."""
    saved = _saved(path, every)
    if saved.exists():
        return np.load(saved)
    rows = []
    for record in records(path):
        rows += positions(record, every)
    data = np.array(rows).reshape(-1, COLUMNS)
    tmp = saved.with_name(saved.stem + ".part.npy")
    np.save(tmp, data)
    tmp.replace(saved)
    return data


def table(paths, every: int = 3, processes: int = 1) -> np.ndarray:
    """Every position of the games in ``paths`` (one row each); the files
    not yet tabled are tabled on ``processes`` processes at once (one file
    each; the rows are the same)."""
    paths = list(paths)
    todo = [path for path in paths if not _saved(path, every).exists()]
    if processes > 1 and len(todo) > 1:
        from functools import partial

        from advisor._tools.workers import spawn_pool, worker_init

        with spawn_pool(min(processes, len(todo)), worker_init) as pool:
            pool.map(partial(file_table, every=every), todo, chunksize=1)
    return np.concatenate([file_table(path, every) for path in paths])


def split(data: np.ndarray):
    """``(edition, n, player, legs, wealth[:, 8], money[:, 8], share[:, 8])``."""
    m = MAX_PLAYERS
    return (data[:, 0].astype(int), data[:, 1].astype(int), data[:, 2].astype(int), data[:, 3],
            data[:, 4:4 + m], data[:, 4 + m:4 + 2 * m], data[:, 4 + 2 * m:])
