"""Calibration of the chance of winning the advice shows, on held-out
self-play games, against two baselines.

    python benchmarks/calibration.py [--edition board|cards|all] [--games 8] [--seed 36000] [--every 2]
        [--cards-games 6] [--cards-seed 56000] [--cards-every 2] [--bootstrap 200] [--csv PATH] [--cache DIR]

Board editions (:mod:`advisor.valuation.winchance`): the held-out games are
played by the line-ups of ``benchmarks/win_data.py`` seated in reverse
order, from seeds ``seed + i`` (the fit uses 26000 + i: no game is
shared); both editions, 3 to 6 players.  At every ``--every``-th turn the
player to move is the advised player: the model's chance for them is
compared with their share of the win (``1/k`` for a first place shared by
``k``).  Predictors:

* ``model``: the shipped model (``advisor/data/win_model.json``);
* ``money rank``: the win rate of the player's rank by money (ties: the
  mean of the ranks they span) at that number of players, counted on the
  fit games (``benchmarks/fit_win_model.py``'s cache; the held-out games if
  they are missing, which flatters it);
* ``margin logistic``: the ``margin`` bot's chance of winning,
  ``1 / (1 + exp(-(a + b D)))`` at the margin ``D`` of expected wealth over
  the best other player and the legs left
  (:data:`advisor.valuation.standing.LOGISTIC`).

Camel Up Cards (:mod:`advisor.cards.endgame`, ``benchmarks/cards_win_data.py``):
``--cards-games`` games of each mixed line-up of Cards bots (3 to 6
players, seats rotated), run ``r`` seeded ``--cards-seed + r`` (the
spread was measured on seed 1616's games); at every ``--cards-every``-th
turn start the player to move's chance as the advice shows it
(``cards_best``'s ``win_now``: for a race that goes on, the chance that the
player's money ends the largest, every player's moved by the normal
change of the legs to come).  Predictors: ``model``; ``money rank`` (as above, each game's rates
counted on the games of the other half, by the parity of their index:
never on the game itself); ``money margin``: ``Phi((money - most of the
others' money) / spread)``, the model without the leg in play and the bets
held.

Printed per edition and player count and over all: positions and games,
then per predictor the Brier score, log loss and calibration error (mean
``|predicted - observed|`` over the deciles of the predictions) with a 95%
interval from ``--bootstrap`` resamples of the games (the positions of a
game are not independent), and the noise floor: the mean calibration error
of a perfectly calibrated predictor with the model's predictions at this
size (outcomes drawn from them); a calibration error near the floor is
all the size can measure.  Then the model's Brier score less each
baseline's, with its interval, and the model's reliability table
(predicted against observed, by tenths).  ``--csv PATH`` writes every
position (edition, players, game, outcome and each predictor's chance;
``notebooks/calibration.ipynb`` draws it).  Board editions: cold and warm
timings of the model on one position.
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


def rank_rates(n, money, share) -> dict:
    """``{(n, rank): win rate}`` over every player of every position
    (``money`` and ``share``: one column per player, NaN past them)."""
    ranks = money_ranks(money, n)
    table = {}
    for players in np.unique(n):
        rows = n == players
        r, s = ranks[rows, :players].ravel(), share[rows, :players].ravel()
        for value in np.unique(r):
            table[(int(players), float(value))] = float(s[r == value].mean())
    return table


def rank_table(data: np.ndarray) -> dict:
    """:func:`rank_rates` of :mod:`win_data` positions."""
    _, n, _, _, _, money, share = win_data.split(data)
    return rank_rates(n, money, share)


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


def game_bootstrap(games, stat, reps: int = 200, seed: int = 0, level: float = 0.95) -> tuple[float, float]:
    """The ``level`` percentile interval of ``stat(indices)`` over ``reps``
    resamples of the games (``games``: each position's game; a resample
    draws as many games as there are, with replacement, and takes all
    their positions)."""
    _, inverse = np.unique(games, return_inverse=True)
    order = np.argsort(inverse, kind="stable")
    starts = np.searchsorted(inverse[order], np.arange(inverse.max() + 2))
    members = [order[starts[g]:starts[g + 1]] for g in range(len(starts) - 1)]
    rng = np.random.default_rng(seed)
    values = [stat(np.concatenate([members[g] for g in rng.integers(len(members), size=len(members))]))
              for _ in range(reps)]
    lo, hi = np.quantile(values, [(1 - level) / 2, (1 + level) / 2])
    return float(lo), float(hi)


def noise_floor(p, reps: int = 200, seed: int = 0) -> float:
    """The mean :func:`calibration_error` of outcomes drawn from ``p`` itself
    (independent positions): what a perfectly calibrated predictor scores
    at this size, from the noise of the observed rates alone."""
    rng = np.random.default_rng(seed)
    return float(np.mean([calibration_error(p, (rng.random(len(p)) < p).astype(float)) for _ in range(reps)]))


def game_index(paths, every: int) -> np.ndarray:
    """The game of each position of :func:`win_data.table` ``(paths,
    every)`` (a number unique over the files): a game's positions are its
    action lines of turn ``0, every, 2 every, ...``."""
    out, key = [], 0
    for path in paths:
        for record in win_data.records(path):
            actions = sum(1 for line in record if line.get("type") == "action")
            out += [key] * (-(-actions // every))
            key += 1
    return np.array(out)


def normal_cdf(z) -> np.ndarray:
    from math import erf, sqrt

    return np.array([0.5 * (1 + erf(v / sqrt(2))) for v in np.atleast_1d(z)])


def money_margin_baseline(n, player, leg, money) -> np.ndarray:
    """Camel Up Cards: ``Phi((money - most of the others') / spread_for(leg))``."""
    from advisor.cards.endgame import spread_for

    rows = np.arange(len(n))
    others = money.copy()
    others[rows, player] = -np.inf
    margin = money[rows, player] - np.nanmax(others, axis=1)
    return normal_cdf(margin / np.array([spread_for(int(g)) for g in leg]))


def board_section(args, cache: Path):
    """``(label, players, games, outcome, {predictor: chances}, note)`` of
    the board editions' held-out positions."""
    paths = win_data.play_runs(args.games, args.seed, cache, reverse=True, processes=args.processes)
    data = win_data.table(paths, args.every, args.processes)
    games = game_index(paths, args.every)
    if len(games) != len(data):
        raise SystemExit(f"calibration: {len(games)} positions counted in the records, {len(data)} in the tables")
    fit_paths = [cache / f"{e}-{'-'.join(b)}-s{args.fit_seed + i}-g{args.fit_games}.jsonl"
                 for i, (e, b) in enumerate(win_data.configs())]
    if all(p.exists() for p in fit_paths):
        table = rank_table(win_data.table(fit_paths, args.every, args.processes))
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

    labels = np.array([win_data.EDITIONS[e] for e in edition])
    head = (f"board editions, held-out: {len(n)} positions of {args.games} games per run "
            f"({len(np.unique(games))} games), runs seeded {args.seed}..{args.seed + 7} (line-ups reversed), "
            f"one turn in {args.every}; model version {load().version}; money-rank rates from {note}; "
            f"model {1e3 * per_position:.2f} ms per position")
    return labels, n, games, y, predictions, head


def cards_section(args, cache: Path):
    """:func:`board_section`'s tuple for Camel Up Cards."""
    import cards_win_data as cwd

    t = time.perf_counter()
    data = cwd.play_runs(args.cards_games, args.cards_seed, cache, args.cards_every, processes=args.processes)
    games, n, player, bot, leg, model, money, share = cwd.split(data)
    rows = np.arange(len(n))
    y = share[rows, player]
    rank = np.empty(len(n))
    for half in (0, 1):  # each game's rates from the other half of the games
        mine = (data[:, 1].astype(int) % 2) == half
        table = rank_rates(n[~mine], money[~mine], share[~mine])
        rank[mine] = rank_baseline(table, n[mine], player[mine], money[mine])
    predictions = {"model": model, "money rank": rank, "money margin": money_margin_baseline(n, player, leg, money)}
    head = (f"Camel Up Cards, held-out: {len(n)} positions of {args.cards_games} games per line-up "
            f"({len(np.unique(games))} games; {', '.join('-'.join(b) for b in cwd.LINEUPS.values())}; seats "
            f"rotated), runs seeded {args.cards_seed}..{args.cards_seed + 3}, one turn start in {args.cards_every}; "
            f"money-rank rates cross-fitted by halves of the games; {time.perf_counter() - t:.0f} s")
    return np.full(len(n), "cards"), n, games, y, predictions, head


def report(labels, n, games, y, predictions, head, reps: int, out=sys.stdout) -> None:
    """The section's table (module docstring)."""
    print(head, file=out)
    groups = [("all", np.ones(len(n), bool))]
    for label in dict.fromkeys(labels.tolist()):
        for k in sorted(set(n.tolist())):
            groups.append((f"{label} {k}p", (labels == label) & (n == k)))
    names = list(predictions)
    cells = "  ".join(f"{name + ': Brier / log loss / cal. err. [95%]':>44}" for name in names)
    print(f"{'group':<12} {'positions':>9} {'games':>5}  {cells}  {'floor':>5}", file=out)
    for label, sel in groups:
        if not sel.any():
            continue
        idx = np.flatnonzero(sel)
        cells = []
        for name in names:
            p = predictions[name][idx]
            lo, hi = game_bootstrap(games[idx], lambda i: calibration_error(p[i], y[idx][i]), reps)
            cells.append(f"{brier(p, y[idx]):.4f} / {log_loss(p, y[idx]):.4f} / "
                         f"{100 * calibration_error(p, y[idx]):4.1f} [{100 * lo:4.1f}-{100 * hi:4.1f}]")
        floor = noise_floor(predictions["model"][idx], reps)
        print(f"{label:<12} {len(idx):>9} {len(np.unique(games[idx])):>5}  "
              + "  ".join(f"{c:>44}" for c in cells) + f"  {100 * floor:5.1f}", file=out)
    print("model's Brier score less each baseline's (negative: the model is better), 95% interval over games", file=out)
    for label, sel in groups:
        if not sel.any():
            continue
        idx = np.flatnonzero(sel)
        yy, model = y[idx], predictions["model"][idx]
        parts = []
        for name in names[1:]:
            base = predictions[name][idx]
            diff = brier(model, yy) - brier(base, yy)
            lo, hi = game_bootstrap(games[idx], lambda i: brier(model[i], yy[i]) - brier(base[i], yy[i]), reps)
            parts.append(f"{name} {diff:+.4f} [{lo:+.4f} {hi:+.4f}]")
        print(f"  {label:<12} " + "  ".join(parts), file=out)
    print("reliability of the model (all positions): predicted tenth, mean predicted, observed, positions", file=out)
    for lo, mp, ob, count in reliability(predictions["model"], y):
        print(f"  {lo:.1f}-{lo + 0.1:.1f}  {100 * mp:5.1f}%  {100 * ob:5.1f}%  {count:6d}", file=out)


CSV_PREDICTORS = ("model", "money rank", "margin logistic", "money margin")


def write_csv(path, sections) -> None:
    """Every position of ``sections`` (:func:`board_section`'s tuples):
    edition, players, game, outcome and each predictor's chance (empty
    where the edition has not that predictor; a path ending ``.gz``
    is written compressed)."""
    import csv
    import gzip

    opener = gzip.open if str(path).endswith(".gz") else open
    with opener(path, "wt", newline="", encoding="utf-8") as fh:
        out = csv.writer(fh)
        out.writerow(["edition", "players", "game", "outcome"] + [c.replace(" ", "_") for c in CSV_PREDICTORS])
        for labels, n, games, y, predictions, _ in sections:
            for i in range(len(n)):
                cells = [f"{predictions[c][i]:.6g}" if c in predictions else "" for c in CSV_PREDICTORS]
                out.writerow([labels[i], int(n[i]), int(games[i]), f"{y[i]:.4f}".rstrip("0").rstrip("."), *cells])


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--edition", choices=("board", "cards", "all"), default="board",
                        help="board: both board editions (default); cards: Camel Up Cards; all: both")
    parser.add_argument("--games", type=int, default=8, help="held-out games per line-up and edition (default 8)")
    parser.add_argument("--seed", type=int, default=36000, help="seed of the first held-out run (default 36000)")
    parser.add_argument("--every", type=int, default=2)
    parser.add_argument("--fit-games", type=int, default=12, help="the fit's games per run (the rank baseline)")
    parser.add_argument("--fit-seed", type=int, default=26000)
    parser.add_argument("--cards-games", type=int, default=6, help="Camel Up Cards games per line-up (default 6)")
    parser.add_argument("--cards-seed", type=int, default=56000, help="seed of the first Cards run (default 56000)")
    parser.add_argument("--cards-every", type=int, default=2, help="every K-th turn start (default 2)")
    parser.add_argument("--bootstrap", type=int, default=200, help="resamples of the games for the intervals")
    parser.add_argument("--csv", help="write every position's outcome and chances to this CSV file")
    parser.add_argument("--cache", default=str(Path.home() / ".cache" / "camelup-win"))
    parser.add_argument("--processes", type=int, default=1)
    args = parser.parse_args(argv)
    if args.seed <= args.fit_seed < args.seed + 8 or args.fit_seed <= args.seed < args.fit_seed + 8:
        parser.error("--seed must not share runs with the fit's seeds")
    if args.cards_seed <= 1616 < args.cards_seed + 4:
        parser.error("--cards-seed must not share runs with the Cards spread's games (seed 1616)")
    cache = Path(args.cache)
    sections = []
    if args.edition in ("board", "all"):
        sections.append(board_section(args, cache))
        report(*sections[-1], args.bootstrap)
    if args.edition in ("cards", "all"):
        sections.append(cards_section(args, cache / "cards"))
        print()
        report(*sections[-1], args.bootstrap)
    if args.csv:
        write_csv(args.csv, sections)
        print(f"\nwrote {sum(len(s[1]) for s in sections)} positions to {args.csv}")
    if args.edition in ("board", "all"):
        from advisor.valuation.winchance import WinModel, load

        fresh = WinModel(load().data)
        for label in ("cold", "warm"):
            t0 = time.perf_counter()
            fresh.of("second", [12.0, 9.5, 14.0, 11.0], 3.0, 0)
            print(f"model, one position ({label}): {1e3 * (time.perf_counter() - t0):.2f} ms")
    return 0


if __name__ == "__main__":
    sys.exit(main())
