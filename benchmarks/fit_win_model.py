"""Fit the chance-of-winning model (:mod:`advisor.valuation.winchance`) and write
``advisor/data/win_model.json``, from one command:

    python benchmarks/fit_win_model.py [--games 12] [--seed 26000] [--every 2] [--cache DIR] [--out PATH]

Plays ``--games`` self-play games of every mixed line-up of
``benchmarks/win_data.py`` (both editions, 3 to 6 players; run ``i``
seeded ``seed + i``; kept in ``--cache`` so a refit replays nothing), takes
every ``--every``-th turn's standing of every player as the player to move
sees it, and fits per edition the parameters ``s0, s1, g, tau`` by maximum
likelihood: the mean over positions of ``-sum_p y_p log P_p``, ``y_p`` the
player's share of the win (``1/k`` for a first place shared by ``k``),
``P_p`` the model's chance; coordinate descent by golden-section search
within bounds, from a fixed start (no randomness: the same games give the
same parameters).  Prints cold and warm timings of the model's inference.
"""

from __future__ import annotations

import argparse
import json
import os
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

import win_data  # noqa: E402

VERSION = 1
#: (name, low, high, start) of each parameter
BOUNDS = (("s0", 0.2, 25.0, 4.0), ("s1", 0.0, 12.0, 2.0), ("g", -1.5, 1.5, 0.0), ("tau", -3.0, 8.0, 1.0))


def model_chances(params: dict, n, player, legs, wealth) -> np.ndarray:
    """Every player's chance at each position (rows of :func:`win_data.split`)."""
    from advisor.valuation.winchance import chances

    means = wealth.copy()
    rows = np.arange(len(means))
    means[rows, player] += params["tau"]
    spread = (params["s0"] + params["s1"] * legs) * (n / 4.0) ** params["g"]
    out = np.empty_like(means)
    for lo in range(0, len(means), 4000):
        out[lo:lo + 4000] = chances(means[lo:lo + 4000], spread[lo:lo + 4000, None])
    return out


def log_loss(prob: np.ndarray, share: np.ndarray) -> float:
    """Mean over positions of ``-sum_p y_p log P_p``."""
    share = np.nan_to_num(share)
    return float(-(share * np.log(np.clip(prob, 1e-12, 1))).sum(axis=1).mean())


def _golden(f, lo, hi, iterations=22):
    g = (np.sqrt(5) - 1) / 2
    a, b = lo, hi
    c, d = b - g * (b - a), a + g * (b - a)
    fc, fd = f(c), f(d)
    for _ in range(iterations):
        if fc < fd:
            b, d, fd = d, c, fc
            c = b - g * (b - a)
            fc = f(c)
        else:
            a, c, fc = c, d, fd
            d = a + g * (b - a)
            fd = f(d)
    return (a + b) / 2


def fit(data: np.ndarray, rounds: int = 4) -> tuple[dict, float]:
    """The maximum-likelihood parameters of one edition's positions, and
    their mean log loss."""
    _, n, player, legs, wealth, _, share = win_data.split(data)
    width = int(n.max())
    wealth, share = wealth[:, :width], share[:, :width]
    params = {name: start for name, _, _, start in BOUNDS}

    def loss(p):
        return log_loss(model_chances(p, n, player, legs, wealth), share)

    for _ in range(rounds):
        for name, lo, hi, _ in BOUNDS:
            params[name] = float(_golden(lambda v, name=name: loss({**params, name: v}), lo, hi))
    return {k: round(v, 4) for k, v in params.items()}, loss(params)


def write_json(path: Path, payload: dict) -> None:
    """Write beside, then rename (an existing file is replaced: this script's
    purpose)."""
    path = Path(path)
    tmp = path.with_name(path.name + ".part")
    tmp.write_text(json.dumps(payload, indent=2) + "\n", encoding="utf-8")
    os.replace(tmp, path)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--games", type=int, default=12, help="games per line-up and edition (default 12)")
    parser.add_argument("--seed", type=int, default=26000, help="seed of the first run (default 26000)")
    parser.add_argument("--every", type=int, default=2, help="every K-th turn is a position (default 2)")
    parser.add_argument("--cache", default=str(Path.home() / ".cache" / "camelup-win"),
                        help="folder of the game records and positions (default ~/.cache/camelup-win)")
    parser.add_argument("--processes", type=int, default=1)
    parser.add_argument("--out", default=str(Path(__file__).resolve().parents[1] / "advisor" / "data" /
                                             "win_model.json"))
    args = parser.parse_args(argv)
    cache = Path(args.cache)
    paths = win_data.play_runs(args.games, args.seed, cache, processes=args.processes)
    data = win_data.table(paths, args.every, args.processes)
    editions, out = {}, {}
    for i, name in enumerate(win_data.EDITIONS):
        sel = data[data[:, 0] == i]
        t = time.perf_counter()
        params, loss = fit(sel)
        editions[name] = params
        out[name] = {"positions": int(len(sel)), "log_loss": round(loss, 5)}
        print(f"{name}: {len(sel)} positions, {params}, log loss {loss:.4f} "
              f"(fitted in {time.perf_counter() - t:.1f} s)")
    payload = {
        "version": VERSION,
        "model": "final wealth of each player normal: mean expected wealth (+tau for the player to move), "
                 "spread (s0 + s1 * legs left) * (players / 4) ** g; P(win) = P(largest)",
        "editions": editions,
        "fit": {"command": "python benchmarks/fit_win_model.py " + " ".join(
                    f"--{k} {v}" for k, v in (("games", args.games), ("seed", args.seed), ("every", args.every))),
                "seed": args.seed, "games_per_run": args.games, "every": args.every,
                "lineups": {str(n): list(b) for n, b in win_data.LINEUPS.items()}, **out},
    }
    write_json(Path(args.out), payload)
    print(f"wrote {args.out}")
    from advisor.valuation.winchance import WinModel

    model = WinModel(payload)
    wealth = np.array([12.0, 9.5, 14.0, 11.0])
    for label in ("cold", "warm"):
        t = time.perf_counter()
        model.of("second", wealth, 3.0, 0)
        print(f"inference ({label}): {1e3 * (time.perf_counter() - t):.2f} ms per position (4 players)")
    return 0


if __name__ == "__main__":
    sys.exit(main())
