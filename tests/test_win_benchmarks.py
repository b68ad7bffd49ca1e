"""benchmarks/fit_win_model.py and benchmarks/calibration.py on made-up
positions (no games played): the fit finds the parameters the outcomes
were drawn with, the scores and ranks are right on small cases."""

from __future__ import annotations

import sys
from pathlib import Path

import numpy as np
import pytest

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))

import calibration  # noqa: E402
import fit_win_model  # noqa: E402
import win_data  # noqa: E402


def _positions(params: dict, rows: int, seed: int) -> np.ndarray:
    """Positions of 3-6 players whose winners are drawn from the model
    with ``params``."""
    rng = np.random.default_rng(seed)
    m = win_data.MAX_PLAYERS
    data = np.full((rows, win_data.COLUMNS), np.nan)
    n = rng.integers(3, 7, rows)
    player = rng.integers(0, n)
    legs = rng.uniform(1, 6, rows)
    data[:, 0], data[:, 1], data[:, 2], data[:, 3] = 0, n, player, legs
    for r in range(rows):
        data[r, 4:4 + n[r]] = rng.normal(10, 4, n[r])
        data[r, 4 + m:4 + m + n[r]] = np.round(data[r, 4:4 + n[r]])
    _, n_, player_, legs_, wealth, _, _ = win_data.split(data)
    prob = fit_win_model.model_chances(params, n_, player_, legs_, wealth[:, :6])
    share = np.zeros((rows, m))
    for r in range(rows):
        share[r, rng.choice(6, p=prob[r] / prob[r].sum())] = 1
    data[:, 4 + 2 * m:] = share
    return data


def test_the_fit_recovers_the_parameters_it_was_drawn_with():
    true = {"s0": 3.0, "s1": 1.0, "g": 0.0, "tau": 1.0}
    params, loss = fit_win_model.fit(_positions(true, 2000, seed=1), rounds=2)
    assert params["s0"] + 3 * params["s1"] == pytest.approx(6.0, rel=0.2)  # the spread at 3 legs
    assert params["tau"] == pytest.approx(1.0, abs=0.6)
    assert loss > 0


def test_scores_on_small_cases():
    p, y = np.array([0.0, 1.0, 0.5, 0.5]), np.array([0.0, 1.0, 1.0, 0.0])
    assert calibration.brier(p, y) == pytest.approx(0.125)
    assert calibration.log_loss(np.full(4, 0.5), y) == pytest.approx(np.log(2))
    assert calibration.calibration_error(p, y, bins=2) == pytest.approx(0.25)


def test_money_ranks_share_ties():
    money = np.array([[5.0, 9.0, 5.0, 1.0, np.nan, np.nan, np.nan, np.nan]])
    ranks = calibration.money_ranks(money, np.array([4]))
    assert ranks[0, :4].tolist() == [1.5, 0.0, 1.5, 3.0]
