"""Intervals on proportions: Wilson, honest at small counts, in one
helper (advisor._tools.intervals) behind every printed interval."""

import math

import numpy as np
import pytest

from advisor.cli.command import main
from advisor.simulate.duel import DuelSchedule, DuelTally
from advisor.cli.duel import format_duel
from advisor._tools.intervals import FLOOR, clip, too_few, wilson, wilson_half


def test_wilson_never_collapses_nor_leaves_0_1():
    lo, hi = wilson(1.0, 1)
    assert math.isclose(lo, 0.2065, abs_tol=1e-4) and hi == 1.0  # one success: 21%..100%, not 100% +- 0
    lo, hi = wilson(np.array([0.0, 0.5, 1.0]), 32)
    assert lo[0] == 0.0 and hi[0] > 0.1 and lo[2] < 0.9 and hi[2] == 1.0
    assert np.all(wilson_half(np.linspace(0, 1, 11), 5) > 0.2)
    # large counts: the normal interval's width
    lo, hi = wilson(0.5, 100_000)
    assert math.isclose(hi - 0.5, 1.96 * math.sqrt(0.25 / 100_000), rel_tol=1e-3)


def test_clip_and_floor():
    assert clip(-1.48, 0.48, -1, 1) == (-1, 0.48)
    assert too_few(FLOOR, "pairs") == "" and "too few" in too_few(2, "pairs")


def test_sampled_leg_odds_from_one_leg_are_not_certain(capsys):
    """BUG: `odds --samples 1` printed 'sampled from 1 legs (+-0.00 pp at 95%)'."""
    assert main(["odds", "--seed", "1", "--samples", "1", "--leg-only", "1:B 2:YG 3:PR 14:w 15:k"]) == 0
    out = capsys.readouterr().out
    assert "+-0.00" not in out and "sampled from 1 leg (" in out
    assert "+-79.35 pp" in out and "Warning: only 1 leg: too few" in out


def _tally(pairs):
    """A duel of ``pairs`` pairs: A wins its first game, B every other one."""
    sched = DuelSchedule("random", "heuristic", ["random"] * 3, 1)
    tally = DuelTally(sched)
    for p in range(pairs):
        seat = sched.seat_of(p)
        others = [s for s in range(4) if s != seat]
        tally.add(2 * p, {"winners": [seat] if p == 0 else [others[0]], "money": [10, 10, 10, 10]})
        tally.add(2 * p + 1, {"winners": [others[0]] if p == 0 else [seat], "money": [10, 10, 10, 10]})
    return tally


def test_duel_interval_stays_within_what_a_difference_can_be():
    """BUG: a duel of 2 pairs printed '-148.0 to +48.0 points'."""
    frame = _tally(2).frame()
    win = frame.loc["win_rate"]
    assert -1 <= win["diff_lo"] <= win["diff"] <= win["diff_hi"] <= 1
    text = format_duel(frame, "cards")
    assert "-100.0 to" in text and "Warning: only 2 pairs: too few" in text
    assert "Warning" not in format_duel(_tally(FLOOR).frame(), "cards")


@pytest.mark.parametrize("games,warned", [(1, True), (FLOOR, False)])
def test_tournament_table_intervals_come_from_wilson(games, warned):
    from advisor.simulate.games import Standings

    table = Standings(["a", "b", "c", "d"])
    for i in range(games):
        table.add(i, {"winners": [0], "money": [20, 10, 10, 10]})
    frame = table.frame()
    lo, hi = wilson(frame.loc[0, "win_rate"], games)
    assert frame.loc[0, "win_lo"] == lo and frame.loc[0, "win_hi"] == hi and hi <= 1
    assert bool(too_few(games, "games")) is warned


def test_normal_half_widths_kept_where_they_hold_and_widened_where_not():
    from advisor._tools.intervals import honest_half

    # a stratified estimate narrower than the binomial one is kept where n p >= 5 on both sides
    assert honest_half(0.01, 0.3, 2000) == 0.01
    # no win in 32 races: not +- 0
    assert honest_half(0.0, 0.0, 32) == pytest.approx(wilson(0.0, 32)[1])
    assert honest_half(0.0, 1.0, 32) == pytest.approx(1 - wilson(1.0, 32)[0])
