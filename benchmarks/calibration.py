"""Calibration of the chance of winning (:mod:`advisor.valuation.winchance`) on
held-out self-play games, against two baselines.

    python benchmarks/calibration.py [--games 8] [--seed 36000] [--every 2] [--cache DIR]

The held-out games are played by the line-ups of ``benchmarks/win_data.py``
seated in reverse order, from seeds ``seed + i`` (the fit uses 26000 +
i: no game is shared); both editions, 3 to 6 players.  At every
``--every``-th turn the player to move is the advised player: the model's
chance for them is compared with their share of the win (``1/k`` for a
first place shared by ``k``).

Printed per edition and player count and over all: Brier score, log loss
and calibration error (mean ``|predicted - observed|`` over the deciles of
the predictions) of

* ``model``: the shipped model (``advisor/data/win_model.json``);
* ``money rank``: the win rate of the player's rank by money (ties: the
  mean of the ranks they span) at that number of players, counted on the
  fit games (``benchmarks/fit_win_model.py``'s cache; the held-out games if
  they are missing, which flatters it);
* ``margin logistic``: the ``margin`` bot's chance of winning,
  ``1 / (1 + exp(-(a + b D)))`` at the margin ``D`` of expected wealth over
  the best other player and the legs left
  (:data:`advisor.valuation.standing.LOGISTIC`);

and the model's reliability table (predicted against observed, by
tenths).  Cold and warm timings of the model on one position.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import win_data  # noqa: E402


def brier(p, y) -> float:
    return float(((p - y) ** 2).mean())


def log_loss(p, y) -> float:
    p = np.clip(p, 1e-9, 1 - 1e-9)
    return float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())


def calibration_error(p, y, bins: int = 10) -> float:
    """Mean over the deciles of ``p`` (equal counts) of ``|mean p - mean y|``."""
    order = np.argsort(p, kind="stable")
    parts = np.array_split(order, bins)
    return float(np.mean([abs(p[i].mean() - y[i].mean()) for i in parts if len(i)]))


def reliability(p, y) -> list[tuple[float, float, float, int]]:
    edges = np.linspace(0, 1, 11)
    rows = []
    for lo, hi in zip(edges[:-1], edges[1:]):
        sel = (p >= lo) & ((p < hi) | (hi == 1))
        if sel.any():
            rows.append((lo, float(p[sel].mean()), float(y[sel].mean()), int(sel.sum())))
    return rows


def money_ranks(money: np.ndarray, n: np.ndarray) -> np.ndarray:
    """Per row and player, the rank by money (0 the richest; ties the mean
    of the ranks they span); NaN past the players."""
    out = np.full(money.shape, np.nan)
    for r in range(len(money)):
        m = money[r, :n[r]]
        above = (m[None, :] > m[:, None]).sum(axis=1)
        level = (m[None, :] == m[:, None]).sum(axis=1) - 1
        out[r, :n[r]] = above + level / 2
    return out


def rank_table(data: np.ndarray) -> dict:
    """``{(n, rank): win rate}`` over every player of every position."""
    _, n, _, _, _, money, share = win_data.split(data)
    ranks = money_ranks(money, n)
    table = {}
    for players in np.unique(n):
        rows = n == players
        r, s = ranks[rows, :players].ravel(), share[rows, :players].ravel()
        for value in np.unique(r):
            table[(int(players), float(value))] = float(s[r == value].mean())
    return table


def rank_baseline(table: dict, n, player, money) -> np.ndarray:
    ranks = money_ranks(money, n)
    rows = np.arange(len(n))
    mine = ranks[rows, player]
    return np.array([table.get((int(k), float(v)), 1 / k) for k, v in zip(n, mine)])


def logistic_baseline(edition, n, player, legs, wealth) -> np.ndarray:
    from advisor.valuation.standing import LOGISTIC, logistic

    out = np.empty(len(n))
    for i in range(len(n)):
        w = wealth[i, :n[i]]
        others = np.delete(w, player[i])
        a, b = logistic(legs[i], LOGISTIC[win_data.EDITIONS[edition[i]]])
        out[i] = 1 / (1 + np.exp(-(a + b * (w[player[i]] - others.max()))))
    return out


def model_chance(edition, n, player, legs, wealth) -> np.ndarray:
    from advisor.valuation.winchance import load

    model = load()
    out = np.empty(len(n))
    for i in range(len(n)):
        out[i] = model.of(win_data.EDITIONS[edition[i]], wealth[i, :n[i]], legs[i], int(player[i]))[player[i]]
    return out


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=8, help="held-out games per line-up and edition (default 8)")
    parser.add_argument("--seed", type=int, default=36000, help="seed of the first held-out run (default 36000)")
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--fit-games", type=int, default=12, help="the fit's games per run (the rank baseline)")
    parser.add_argument("--fit-seed", type=int, default=26000)
    parser.add_argument("--cache", default=str(Path.home() / ".cache" / "camelup-win"))
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args(argv)
    if args.seed <= args.fit_seed < args.seed + 8 or args.fit_seed <= args.seed < args.fit_seed + 8:
        parser.error("--seed must not share runs with the fit's seeds")
    cache = Path(args.cache)
    paths = win_data.play_runs(args.games, args.seed, cache, reverse=True, processes=args.processes)
    data = win_data.table(paths, args.every)
    fit_paths = [cache / f"{e}-{'-'.join(b)}-s{args.fit_seed + i}-g{args.fit_games}.jsonl"
                 for i, (e, b) in enumerate(win_data.configs())]
    if all(p.exists() for p in fit_paths):
        table = rank_table(win_data.table(fit_paths, args.every))
        note = "fit games"
    else:
        table = rank_table(data)
        note = "the held-out games themselves (fit games missing)"
    edition, n, player, legs, wealth, money, share = win_data.split(data)
    y = share[np.arange(len(n)), player]
    t = time.perf_counter()
    predictions = {"model": model_chance(edition, n, player, legs, wealth)}
    per_position = (time.perf_counter() - t) / len(n)
    predictions["money rank"] = rank_baseline(table, n, player, money)
    predictions["margin logistic"] = logistic_baseline(edition, n, player, legs, wealth)
    from advisor.valuation.winchance import load

    print(f"held-out: {len(n)} positions of {args.games} games per run, runs seeded {args.seed}..{args.seed + 7} "
          f"(line-ups reversed); model version {load().version}; money-rank rates from {note}")
    groups = [("all", np.ones(len(n), bool))]
    for e in range(len(win_data.EDITIONS)):
        for k in sorted(set(n.tolist())):
            groups.append((f"{win_data.EDITIONS[e]} {k}p", (edition == e) & (n == k)))
    head = "  ".join(f"{name + ' Brier/logloss/cal.err':>38}" for name in predictions)
    print(f"{'group':<12} {'positions':>9}  {head}")
    for label, sel in groups:
        if not sel.any():
            continue
        cells = []
        for p in predictions.values():
            cells.append(f"{brier(p[sel], y[sel]):.4f} / {log_loss(p[sel], y[sel]):.4f} / "
                         f"{100 * calibration_error(p[sel], y[sel]):5.2f} pt")
        print(f"{label:<12} {int(sel.sum()):>9}  " + "  ".join(f"{c:>38}" for c in cells))
    print("\nreliability of the model (all positions): predicted tenth, mean predicted, observed, positions")
    for lo, mp, ob, count in reliability(predictions["model"], y):
        print(f"  {lo:.1f}-{lo + 0.1:.1f}  {100 * mp:5.1f}%  {100 * ob:5.1f}%  {count:6d}")
    from advisor.valuation.winchance import WinModel

    fresh = WinModel(load().data)
    for label in ("cold", "warm"):
        t0 = time.perf_counter()
        fresh.of("second", [12.0, 9.5, 14.0, 11.0], 3.0, 0)
        print(f"model, one position ({label}): {1e3 * (time.perf_counter() - t0):.2f} ms")
    print(f"model over the held-out positions: {1e3 * per_position:.2f} ms per position")
    return 0


if __name__ == "__main__":
    sys.exit(main())
