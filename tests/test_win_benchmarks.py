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


def test_rank_rates_count_every_player_of_every_position():
    money = np.array([[5.0, 9.0, 1.0], [9.0, 5.0, 1.0]])
    share = np.array([[0.0, 1.0, 0.0], [0.0, 1.0, 0.0]])
    table = calibration.rank_rates(np.array([3, 3]), money, share)
    assert table == {(3, 0.0): 0.5, (3, 1.0): 0.5, (3, 2.0): 0.0}


def test_the_game_bootstrap_resamples_whole_games():
    # two games: all of game 0's positions score 0, all of game 1's 1
    games = np.array([0, 0, 0, 1, 1, 1])
    value = np.array([0.0, 0.0, 0.0, 1.0, 1.0, 1.0])
    lo, hi = calibration.game_bootstrap(games, lambda i: value[i].mean(), reps=400, seed=1)
    assert (lo, hi) == (0.0, 1.0)  # a resample holds whole games: 0, 1/2 or 1
    one = calibration.game_bootstrap(np.zeros(6, int), lambda i: value[i].mean(), reps=50)
    assert one == (0.5, 0.5)  # one game: every resample is the same


def test_the_noise_floor_shrinks_with_the_size_and_a_calibrated_predictor_is_near_it():
    rng = np.random.default_rng(3)
    small, large = rng.uniform(0.05, 0.6, 300), rng.uniform(0.05, 0.6, 30000)
    assert calibration.noise_floor(large, reps=20) < calibration.noise_floor(small, reps=20) / 5
    y = (rng.random(large.size) < large).astype(float)
    assert calibration.calibration_error(large, y) < 3 * calibration.noise_floor(large, reps=20)
    assert calibration.calibration_error(np.clip(large + 0.1, 0, 1), y) > 0.08  # 10 points too high


def test_the_money_margin_baseline():
    money = np.array([[10.0, 10.0, 4.0, np.nan, np.nan, np.nan], [3.0, 13.0, 4.0, 8.0, np.nan, np.nan]])
    p = calibration.money_margin_baseline(np.array([3, 4]), np.array([0, 3]), np.array([1, 5]), money)
    assert p[0] == pytest.approx(0.5)
    from advisor.cards.endgame import spread_for
    from math import erf, sqrt
    assert p[1] == pytest.approx(0.5 * (1 + erf(-5 / spread_for(5) / sqrt(2))))


def test_the_csv_holds_every_position(tmp_path):
    section = (np.array(["cards", "cards"]), np.array([3, 4]), np.array([7, 8]), np.array([1.0, 0.5]),
               {"model": np.array([0.25, 0.5]), "money rank": np.array([0.3, 0.2])}, "head")
    path = tmp_path / "c.csv"
    calibration.write_csv(path, [section])
    lines = path.read_text().splitlines()
    assert lines[0] == "edition,players,game,outcome,model,money_rank,margin_logistic,money_margin"
    assert lines[1:] == ["cards,3,7,1,0.25,0.3,,", "cards,4,8,0.5,0.5,0.2,,"]
