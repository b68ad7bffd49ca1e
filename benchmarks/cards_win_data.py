"""Labelled positions for the Camel Up Cards chance of winning
(:mod:`advisor.cards.endgame`, as the Cards advice shows it: every other
player weighed): held-out games of mixed Cards bots, and at every ``K``-th turn
start the chance the advice gives the player to move.

Used by ``benchmarks/calibration.py --edition cards``.  The line-ups
(:data:`LINEUPS`) are the board games' (``benchmarks/win_data.py``) with
the Cards bots in their places: ``shark`` for ``rival``, ``greedy`` for
``advisor``; 3 to 6 players, seats rotated by one place per game.  Run ``r``
(the ``r``-th line-up, 3 players first) is seeded ``seed + r`` and its game
``i`` :func:`advisor.simulate.games.game_seed` ``(seed + r, i)``: the
Camel Up Cards spread (``benchmarks/fit_cards_spread.py``,
:data:`advisor.cards.endgame.SPREAD`) was measured on the tournament of
seed 1616, so the default seed 56000 shares no game with it.

At a turn start of player ``p`` (before the race action and any bet), the
model's chance is ``win_now`` of :func:`advisor.cards.best.cards_best`
computed from the fast valuation the bots use: the fast valuation of the
position ``p`` sees (:func:`advisor.cards.fast.turn_values`, precision
0.02) and :func:`advisor.cards.endgame.win_chances` with every player's
money and bets from the table and the spread of the leg being played
(:func:`advisor.cards.endgame.spread_for`), the turn ``reveal``.

A position is one row of :data:`COLUMNS`: the run, the game, the number of
players, the player to move, their bot (index into :data:`BOTS`), the leg,
the model's chance, every player's money (NaN past the players) and every
player's share of the win (``1/k`` for a first place shared by ``k``).
Each game's rows are kept in ``--cache`` (one ``.npy`` per game), so that a
later run with more games plays only the new ones.
"""

from __future__ import annotations

import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

MAX_PLAYERS = 6

#: The mixed line-ups per number of players (seats rotated per game).
LINEUPS = {
    3: ("margin", "shark", "heuristic"),
    4: ("margin", "shark", "greedy", "heuristic"),
    5: ("margin", "shark", "greedy", "heuristic", "shark"),
    6: ("margin", "shark", "greedy", "heuristic", "shark", "greedy"),
}

BOTS = ("margin", "shark", "greedy", "heuristic")

#: run, game, players, player, bot, leg, model, money[6], share[6]
COLUMNS = 7 + 2 * MAX_PLAYERS

#: The precision of the valuation (the margin bot's).
PRECISION = 0.02


def play_game_rows(bots, seed: int, every: int = 2, run: int = 0, game: int = 0) -> np.ndarray:
    """One game of ``bots`` (seat order) from ``seed``: the rows of every
    ``every``-th turn start (counted from the game's first)."""
    from advisor.cards.bots import make_cards_bot
    from advisor.cards.endgame import spread_for, win_chances
    from advisor.cards.fast import turn_values
    from advisor.cards.game import CardsGame, CardsSetup

    n = len(bots)
    players = [make_cards_bot(name) for name in bots]
    cards = CardsGame(CardsSetup(players=n), seed)
    cards.record[0]["bots"] = list(bots)
    rngs = [np.random.default_rng([seed, s]) for s in range(n)]
    mine = np.random.default_rng([seed, 99])  # the valuation's seeds, apart from the bots' streams
    rows, starts = [], 0
    while not cards.finished:
        s = cards.state
        p = s.current
        if s.phase == "turn" and not s.raced and not s.bet:
            if starts % every == 0:
                view = s.view(p)
                values = turn_values(view.position(p), seed=int(mine.integers(2**31)), precision=PRECISION)
                chance = win_chances(values, view, p, spread_for(s.leg))["reveal"]
                row = np.full(COLUMNS, np.nan)
                row[:7] = run, game, n, p, BOTS.index(bots[p]), s.leg, chance
                row[7:7 + n] = [q.money for q in s.players]
                rows.append(row)
            starts += 1
        cards.play(players[p].choose(s, p, rngs[p]))
    winners = cards.state.winners_of_game()
    data = np.array(rows).reshape(-1, COLUMNS)
    data[:, 7 + MAX_PLAYERS:7 + MAX_PLAYERS + n] = 0.0
    for w in winners:
        data[:, 7 + MAX_PLAYERS + w] = 1 / len(winners)
    return data


def _play_to(path: Path, seats, seed: int, every: int, run: int, game: int) -> tuple[int, float]:
    """Play one game's rows into ``path`` (written beside, then renamed);
    returns its positions and seconds."""
    t = time.perf_counter()
    data = play_game_rows(seats, seed, every, run, game)
    tmp = path.with_name(path.stem + ".part.npy")
    np.save(tmp, data)
    tmp.replace(path)
    return len(data), time.perf_counter() - t


def _play_job(job: tuple) -> tuple[int, float]:
    return _play_to(*job)


def play_runs(games: int, seed: int, cache: Path, every: int = 2, log=sys.stderr, processes: int = 1) -> np.ndarray:
    """``games`` games of every line-up (or their rows from ``cache``);
    every row of every game, games in order.  The games not in ``cache``
    are played on ``processes`` processes at once (each game from its own
    seed: the rows are the same)."""
    from advisor.simulate.games import game_seed, seating

    cache = Path(cache)
    cache.mkdir(parents=True, exist_ok=True)
    paths, todo = [], []
    for r, bots in enumerate(LINEUPS.values()):
        for i in range(games):
            seats = seating(list(bots), i, "rotate")
            path = cache / f"cards-{'-'.join(bots)}-s{seed + r}-i{i}-e{every}.npy"
            paths.append(path)
            if not path.exists():
                todo.append((f"cards {len(bots)}p game {i}", (path, seats, game_seed(seed + r, i), every, r, i)))

    def said(name, result):
        if log:
            print(f"{name}: {result[0]} positions, {result[1]:.1f} s", file=log, flush=True)

    if processes > 1 and len(todo) > 1:
        from advisor._tools.workers import spawn_pool, worker_init

        with spawn_pool(min(processes, len(todo)), worker_init) as pool:
            for (name, _), result in zip(todo, pool.imap(_play_job, [job for _, job in todo])):
                said(name, result)
    else:
        for name, job in todo:
            said(name, _play_to(*job))
    return np.concatenate([np.load(path) for path in paths])


def split(data: np.ndarray):
    """``(game key, n, player, bot, leg, model, money[:, 6], share[:, 6])``;
    the game key tells the games apart across runs."""
    m = MAX_PLAYERS
    key = (data[:, 0] * 100_000 + data[:, 1]).astype(int)
    return (key, data[:, 2].astype(int), data[:, 3].astype(int), data[:, 4].astype(int), data[:, 5].astype(int),
            data[:, 6], data[:, 7:7 + m], data[:, 7 + m:7 + 2 * m])
