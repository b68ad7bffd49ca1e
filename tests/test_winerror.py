"""The standard error of the chance of winning from the sampling of the race
odds (advisor.valuation.winerror; best_moves's win_se and win_now_se)."""

from __future__ import annotations

import json
from statistics import NormalDist

import numpy as np
import pytest

from advisor.cli import main
from advisor.valuation.engine import best_moves
from advisor.valuation.winchance import chance_gradient, chances, load

EXAMPLE = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"
#: The race must end in this leg: every figure exact.
ENDS_NOW = "16:BGPRY 8:wk dice:Bx"
#: 64 races per replicate, 32 replicates: precision 0.05 is met in the first round.
COARSE = 0.05


def _chi2_quantile(q: float, df: int) -> float:
    """Wilson-Hilferty: the chi-square quantile (relative error below 1e-3 at df 29)."""
    z = NormalDist().inv_cdf(q)
    return df * (1 - 2 / (9 * df) + z * np.sqrt(2 / (9 * df))) ** 3


def test_the_gradient_is_the_models_own():
    means = np.array([[10.0, 12.0, 8.0, 11.0], [14.0, 9.0, 8.5, 11.0]])
    spreads = np.array([[4.0, 4.5, 3.0, 4.0], [6.0, 5.0, 5.0, 2.0]])
    h = 1e-5
    for p in (0, 2):
        total, d_mean, d_spread = chance_gradient(means, spreads, p)
        assert np.allclose(total, chances(means, spreads)[:, p])
        for q in range(4):
            e = np.zeros(4)
            e[q] = h
            fd_mean = (chances(means + e, spreads)[:, p] - chances(means - e, spreads)[:, p]) / (2 * h)
            fd_spread = (chances(means, spreads + e)[:, p] - chances(means, spreads - e)[:, p]) / (2 * h)
            assert np.allclose(d_mean[:, q], fd_mean, atol=1e-6)
            assert np.allclose(d_spread[:, q], fd_spread, atol=1e-6)


def test_the_models_derivatives_by_wealth_variance_and_legs():
    model = load()
    wealth = np.array([[10.0, 12.0, 8.0, 11.0], [14.0, 12.0, 8.0, 11.0]])
    extra = np.array([[3.0, 0, 0, 0], [-2.0, 0, 0, 0]])
    legs, h = 2.3, 1e-5

    def f(w, x, L):
        return model.of("second", w, L, 1, x)[:, 0]

    chance, d_w, d_x, d_l = model.of_gradient("second", wealth, legs, 1, 0, extra)
    assert np.allclose(chance, f(wealth, extra, legs))
    for q in range(4):
        e = np.zeros(4)
        e[q] = h
        assert np.allclose(d_w[:, q], (f(wealth + e, extra, legs) - f(wealth - e, extra, legs)) / (2 * h), atol=1e-6)
    e = np.zeros(4)
    e[0] = h
    assert np.allclose(d_x, (f(wealth, extra + e, legs) - f(wealth, extra - e, legs)) / (2 * h), atol=1e-6)
    assert np.allclose(d_l, (f(wealth, extra, legs + h) - f(wealth, extra, legs - h)) / (2 * h), atol=1e-6)


def test_an_exact_position_has_no_sampling_error():
    frame = best_moves(ENDS_NOW, seed=4, precision=COARSE, denial=False)
    assert frame.attrs["race_samples"] == 0
    assert (frame["win_se"] == 0).all() and frame.attrs["win_now_se"] == 0


def test_the_exact_parts_carry_none_and_the_sampled_some():
    frame = best_moves(EXAMPLE, seed=3, precision=COARSE, denial=False).set_index("action")
    assert frame.attrs["race_samples"] > 0
    cards = frame[frame["kind"].isin(["winner", "loser"])]
    assert (cards["win_se"] > 1e-4).all()
    # the leg tiles' EVs are exact: their error is the spread's and the others' wealth's alone, far smaller
    assert frame.loc["leg:R", "win_se"] < 0.2 * cards["win_se"].min()
    assert "win_se" not in best_moves(EXAMPLE, seed=3, precision=COARSE, objective="ev").columns


@pytest.mark.slow
def test_the_error_matches_the_spread_over_seeds():
    """30 seeds at 2,048 races: the chance's standard deviation over the
    seeds against the mean reported standard error.  With the reported error
    right, (n - 1) s^2 / se^2 is chi-square with n - 1 degrees of freedom:
    the ratio s / se lies between the 0.05% and 99.95% quantiles' roots."""
    seeds = range(30)
    frames = [best_moves(EXAMPLE, seed=s, precision=COARSE, denial=False).set_index("action") for s in seeds]
    assert {f.attrs["race_samples"] for f in frames} == {2048}
    df = len(frames) - 1
    low, high = (np.sqrt(_chi2_quantile(q, df) / df) for q in (0.0005, 0.9995))
    assert 0.55 < low < 0.65 and 1.4 < high < 1.5
    for action in ("loser:B", "winner:R"):
        win = np.array([f.loc[action, "win"] for f in frames])
        se = np.mean([f.loc[action, "win_se"] for f in frames])
        assert low < win.std(ddof=1) / se < high, action


def test_the_error_shrinks_like_one_over_the_root_of_the_races():
    def scaled(precision):
        out = []
        for seed in range(4):
            frame = best_moves(EXAMPLE, seed=seed, precision=precision, denial=False).set_index("action")
            out.append((frame.loc["loser:B", "win_se"], frame.attrs["race_samples"]))
        return np.mean([se for se, _ in out]), np.mean([n for _, n in out])

    se_few, few = scaled(COARSE)
    se_many, many = scaled(COARSE / 4)
    assert many > 3 * few
    assert 0.75 < (se_many * np.sqrt(many)) / (se_few * np.sqrt(few)) < 1.33


def test_cli_text_and_json_carry_it(capsys):
    assert main(["best", EXAMPLE, "--seed", "2", "--precision", str(COARSE), "--threads", "1", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["win_now_se"] >= 0
    for move in out["moves"]:
        assert move["win_se"] >= 0
    assert main(["best", EXAMPLE, "--seed", "2", "--precision", str(COARSE), "--threads", "1"]) == 0
    text = capsys.readouterr().out
    top = next(m for m in out["moves"] if m["action"] == out["moves"][0]["action"])
    assert f"{top['action']:<10} {100 * top['win']:5.1f}% {100 * top['win_se']:5.2f} " in text
    assert "not the model's own error" in text and "benchmarks/calibration.py" in text
    head = next(line for line in text.splitlines() if line.startswith("action "))
    assert head.index("details") + len("details") <= 80  # the figures fit 80 columns; the details run on
    assert main(["best", EXAMPLE, "--seed", "2", "--precision", str(COARSE), "--objective", "ev", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert "win_now_se" not in out and "win_se" not in out["moves"][0]
