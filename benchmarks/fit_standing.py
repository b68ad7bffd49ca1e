"""Fit the chance of winning against the margin of expected wealth
(:data:`advisor.valuation.standing.LOGISTIC`), on recorded games.

    python benchmarks/fit_standing.py GAMES.jsonl [--games N] [--every K] [--bot rival] [--out points.npz]

Every game of ``GAMES.jsonl`` whose seats are all ``--bot`` (default
``rival``; e.g. the ``rival`` games of a duel's records, or ``camelup
simulate --bots rival,rival,rival,rival --dice leg``) is replayed; at every
``K``-th turn (default 3) the player to move values its own view, with the
face-down cards inferred from the views it was shown
(:class:`advisor.bots.inference.SeenCards`, as :class:`advisor.bots.policies.MarginBot`
sees them): its margin of expected wealth over the best other player
(:func:`advisor.valuation.standing.margin`), the margin in money, the expected legs
left (race odds), and whether it won the game (``1/k`` for a first place
shared by ``k``).  Then, per band of legs left, the logistic
``P(win) = 1 / (1 + exp(-(a + b D)))`` by maximum likelihood (Newton), for
the margin of wealth and the margin of money, with the log loss of each,
and the rows of ``LOGISTIC`` it suggests.
"""

from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

BANDS = ((0.0, 1.25), (1.25, 1.75), (1.75, 2.5), (2.5, 3.5), (3.5, 5.0), (5.0, 99.0))


def records(path, bot, limit):
    record = []
    n = 0
    with open(path, encoding="utf-8") as fh:
        for line in fh:
            entry = json.loads(line)
            if entry["type"] == "setup":
                record = [entry]
            else:
                record.append(entry)
                if entry["type"] == "end":
                    if all(b == bot for b in record[0].get("bots", [])):
                        yield record
                        n += 1
                        if n >= limit:
                            return


def points(record, every):
    from advisor.game import Replay
    from advisor.bots.inference import SeenCards
    from advisor.valuation.standing import legs_left, margin
    from advisor.valuation.fast import fast_values

    setup = record[0]
    seen = [SeenCards() for _ in range(setup["players"])]
    end = record[-1]
    out = []
    for step in Replay(record):  # each action line, the game before it
        game, p = step.game, step.player
        for q in range(setup["players"]):  # every player sees every turn, as the bots of a game do
            if q != p:
                seen[q].observe(game.view(q), q)
        view = seen[p].update(game.view(p), p)
        if step.turn % every == 0:
            ctx = fast_values(view, p).context
            d_wealth, _ = margin(ctx, True)
            d_money, _ = margin(ctx, False)
            won = 1 / len(end["winners"]) if p in end["winners"] else 0.0
            out.append((d_wealth, d_money, legs_left(ctx.race()), won))
    return out


def fit_logistic(x, y, iterations=50):
    """``(a, b)`` maximising the likelihood of ``y`` (in [0, 1]) under
    ``1 / (1 + exp(-(a + b x)))``, and the mean log loss."""
    X = np.column_stack([np.ones_like(x), x])
    beta = np.zeros(2)
    for _ in range(iterations):
        p = 1 / (1 + np.exp(-(X @ beta)))
        grad = X.T @ (y - p)
        hess = -(X * (p * (1 - p))[:, None]).T @ X
        step = np.linalg.solve(hess, grad)
        beta -= step
        if np.abs(step).max() < 1e-10:
            break
    p = np.clip(1 / (1 + np.exp(-(X @ beta))), 1e-12, 1 - 1e-12)
    loss = float(-(y * np.log(p) + (1 - y) * np.log(1 - p)).mean())
    return beta, loss


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("games")
    parser.add_argument("--games", dest="limit", type=int, default=400)
    parser.add_argument("--every", type=int, default=3)
    parser.add_argument("--bot", default="rival")
    parser.add_argument("--out", help="save the points (npz) to refit without replaying")
    parser.add_argument("--points", help="read saved points instead of replaying")
    args = parser.parse_args()
    if args.points:
        data = np.load(args.points)["points"]
    else:
        from tqdm import tqdm

        rows = []
        for record in tqdm(records(args.games, args.bot, args.limit), total=args.limit, desc="games"):
            rows += points(record, args.every)
        data = np.array(rows)
        if args.out:
            np.savez(args.out, points=data)
    print(f"{len(data)} points")
    for lo, hi in BANDS:
        sel = (data[:, 2] >= lo) & (data[:, 2] < hi)
        if sel.sum() < 50:
            continue
        mean_legs = data[sel, 2].mean()
        (a_w, b_w), loss_w = fit_logistic(data[sel, 0], data[sel, 3])
        (a_m, b_m), loss_m = fit_logistic(data[sel, 1], data[sel, 3])
        print(f"legs {lo:.2f}-{hi:.2f} (mean {mean_legs:.2f}, {sel.sum()} points): wealth a {a_w:+.3f} b {b_w:.3f} "
              f"loss {loss_w:.4f}; money a {a_m:+.3f} b {b_m:.3f} loss {loss_m:.4f}")


if __name__ == "__main__":
    main()
