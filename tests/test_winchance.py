"""The chance of winning the game (advisor.valuation.winchance) and the advice ranked
by it (best_moves objective="win", camelup best --objective)."""

from __future__ import annotations

import json
import math

import numpy as np
import pytest

from advisor import best_moves
from advisor.errors import AdvisorError
from advisor.valuation.winchance import WinModel, _phi, chances, load

EXAMPLE = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"


def test_phi_matches_the_error_function():
    x = np.linspace(-7, 7, 281)
    want = np.array([0.5 * math.erfc(-v / math.sqrt(2)) for v in x])
    assert np.abs(_phi(x) - want).max() < 1e-7


def test_level_players_share_the_win_evenly():
    for n in range(2, 9):
        p = chances(np.full(n, 7.0), 3.0)
        assert p == pytest.approx(np.full(n, 1 / n), abs=1e-6)


def test_chances_match_a_simulation_of_the_model():
    """The quadrature against sampling the same normals (another method)."""
    rng = np.random.default_rng(5)
    means, spreads = np.array([3.0, 0.0, 1.0, -2.0]), np.array([2.0, 2.5, 1.0, 4.0])
    draws = means + spreads * rng.standard_normal((400_000, 4))
    observed = np.bincount(draws.argmax(axis=1), minlength=4) / len(draws)
    assert chances(means, spreads) == pytest.approx(observed, abs=3e-3)


def test_absent_players_get_nothing_and_rows_sum_to_one():
    means = np.array([[3.0, 0.0, np.nan, 1.0], [0.0, 1.0, 2.0, np.nan]])
    p = chances(means, 2.0)
    assert p[0, 2] == 0 and p[1, 3] == 0
    assert p.sum(axis=1) == pytest.approx([1, 1], abs=1e-9)
    assert p[0] == pytest.approx(chances(np.array([3.0, 0.0, 1.0]), 2.0)[[0, 1, 1, 2]] * [1, 1, 0, 1], abs=1e-9)


def test_more_wealth_and_less_spread_when_ahead_help():
    model = WinModel({"version": 1, "editions": {"second": {"s0": 2.0, "s1": 1.5, "g": 0.0, "tau": 0.0}}})
    base = model.of("second", [10.0, 8.0, 8.0, 8.0], 2.0, None)[0]
    assert model.of("second", [11.0, 8.0, 8.0, 8.0], 2.0, None)[0] > base
    ahead = model.of("second", [16.0, 8.0, 8.0, 8.0], 2.0, None)[0]
    ahead_risky = model.of("second", [16.0, 8.0, 8.0, 8.0], 2.0, None, extra_var=np.array([9.0, 0, 0, 0]))[0]
    assert ahead > 0.5 and ahead_risky < ahead  # a clear lead is kept by not gambling
    behind = model.of("second", [5.0, 8.0, 8.0, 8.0], 2.0, None)[0]
    behind_risky = model.of("second", [5.0, 8.0, 8.0, 8.0], 2.0, None, extra_var=np.array([9.0, 0, 0, 0]))[0]
    assert behind_risky > behind  # a deficit is made up only by gambling


def test_the_shipped_parameters_are_fitted_and_sane():
    model = load()
    assert model.version >= 1
    fit = model.data["fit"]
    assert fit["command"].startswith("python benchmarks/fit_win_model.py")
    for edition in ("second", "first"):
        assert fit[edition]["positions"] > 0
        for n in range(2, 9):
            spread = model.spread(edition, np.array([0.5, 1, 3, 8]), n)
            assert (spread > 0).all() and (np.diff(spread) >= 0).all()


def test_best_ranks_by_the_chance_of_winning():
    frame = best_moves(EXAMPLE, precision=0.05, seed=1)
    assert frame.attrs["objective"] == "win"
    win = frame["win"].to_numpy()
    assert ((win > 0) & (win < 1)).all()
    assert (np.diff(np.round(win / 1e-3)) <= 0).all()
    assert 0 < frame.attrs["win_now"] < 1
    ev = best_moves(EXAMPLE, precision=0.05, seed=1, objective="ev")
    assert ev.attrs["objective"] == "ev" and "win" not in ev.columns
    assert sorted(ev["action"]) == sorted(frame["action"])
    # the same EVs, only the order differs
    assert ev.set_index("action")["ev"].to_dict() == pytest.approx(frame.set_index("action")["ev"].to_dict())


def test_a_level_table_prefers_variance_at_equal_ev():
    """Level with three others at a bare board: of two actions of about
    the same EV, the riskier has the higher chance (the model's convexity
    below an even chance), so the ranking is not the EV's."""
    frame = best_moves(EXAMPLE, precision=0.05, seed=1).set_index("action")
    assert frame.loc["winner:Y", "ev"] < frame.loc["tile:+12", "ev"]
    assert frame.loc["winner:Y", "win"] > frame.loc["tile:+12", "win"]


@pytest.mark.parametrize("board, players", [(EXAMPLE, 3), (EXAMPLE, 8), ("first 1:BG 2:OW 3:Y", 2),
                                                   ("first 1:BG 2:OW 3:Y", 5)])
def test_every_player_count_and_edition(board, players):
    from advisor.rules.state import GameState

    frame = best_moves(GameState.from_board(board, players=players), precision=0.05, seed=2)
    assert frame.attrs["objective"] == "win" and frame["win"].between(0, 1).all()


def test_an_unknown_objective_is_one_clear_error():
    with pytest.raises(AdvisorError, match="objective must be one of win, ev"):
        best_moves(EXAMPLE, objective="coins")


def test_cli_objective_and_json(capsys):
    from advisor.cli.command import main

    assert main(["best", EXAMPLE, "--json", "--seed", "1", "--precision", "0.05", "--threads", "1"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["objective"] == "win" and 0 < out["win_now"] < 1 and "win" in out["moves"][0]
    assert main(["best", EXAMPLE, "--seed", "1", "--precision", "0.05", "--threads", "1"]) == 0
    text = capsys.readouterr().out
    assert "Your chance of winning:" in text and " now, " in text
    assert main(["best", EXAMPLE, "--objective", "coins"]) == 2
    captured = capsys.readouterr()
    assert captured.out == "" and "--objective" in captured.err and len(captured.err.strip().splitlines()) == 1


def test_a_rule_variant_reads_its_editions_parameters():
    """The Camel Up Cup's overall ladder 8/5/3/1 without a money floor:
    the advice under the variant has its chance of winning from the second
    edition's parameters (at a bare board the first card on a pile pays 8
    under both ladders: the same figures)."""
    from advisor.rules.editions import parse_rules_text, rules_from_json

    cup = rules_from_json("second", parse_rules_text("name=cup money_floor=none pile_payouts=8,5,3,1"))
    frame = best_moves(EXAMPLE, precision=0.05, seed=1, rules=cup).set_index("action")
    plain = best_moves(EXAMPLE, precision=0.05, seed=1).set_index("action")
    assert frame.attrs["objective"] == "win" and frame["win"].between(0, 1).all()
    assert "cup rules" in frame.attrs["position"] or cup.variant == "cup"
    assert frame.attrs["win_now"] == pytest.approx(plain.attrs["win_now"])
    assert frame.loc["winner:R", "win"] == pytest.approx(plain.loc["winner:R", "win"])
