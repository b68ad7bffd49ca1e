"""Whole-race odds: exact paths against the naive reference, sampling
against exact, reproducibility, invariants."""

from fractions import Fraction

import numpy as np
import pytest

from advisor import AdvisorError, Position, leg_odds, race_odds, setup_position
from naive import naive_leg_counts, race_over_board, ranking
from reference_cache import reference

# Positions whose race must end within the current leg or the next one.
TWO_LEG = [
    "10:w 12:k 15:B 16:GPRY dice:Bx",          # ends now (B moves 2-3) or next leg
    "1:wB 12:k 16:GPRY dice:Bx",               # white carries B back over the line
    "first 15:BG 16:OYW dice:B",
    "first 14:B 15:G 16:OYW +13 dice:BG",      # an oasis in the current leg
]


@reference
def naive_race(text):
    """Exact final rank counts over two legs, by the naive reference alone
    (frozen in ``golden/references.json`` for ``TWO_LEG``)."""
    pos = Position.from_string(text)
    first = naive_leg_counts(text, collect=True)
    racing = pos.rules.racing
    counts = [[Fraction(0)] * 5 for _ in range(5)]
    for stacks, n in first["ends"].items():
        if race_over_board(stacks):
            order, weight = [ranking(stacks)], Fraction(n, first["total"])
            outcomes = [(ranking(stacks), weight)]
        else:
            nxt = naive_leg_counts((pos.edition, stacks, (), None), collect=True)
            assert nxt["ended"] == nxt["total"], "the race must end in the next leg"
            outcomes = [
                (ranking(s), Fraction(n, first["total"]) * Fraction(m, nxt["total"]))
                for s, m in nxt["ends"].items()
            ]
        for order, weight in outcomes:
            for k, camel in enumerate(order):
                counts[racing.index(camel)][k] += weight
    return counts


naive_race.freeze((text,) for text in TWO_LEG)


@pytest.mark.parametrize("text", TWO_LEG)
def test_exact_race_matches_naive_two_legs(text):
    race = race_odds(text, seed=1)
    assert race.exact and race.samples == 0
    expected = naive_race(text)
    for i, camel in enumerate(race.camels):
        for k in range(5):
            assert race.fraction(camel, k + 1) == expected[i][k]
    assert race.legs.sum() == pytest.approx(1.0)


def test_race_ending_in_this_leg_equals_the_leg_odds():
    text = "16:BGPRY 1:w 5:k dice:BG"
    race, leg = race_odds(text), leg_odds(text)
    assert race.exact and list(race.legs) == [1.0]
    np.testing.assert_array_equal(race.exact_counts, leg.counts)


def test_a_camel_that_cannot_be_caught_wins():
    # W moves in this leg (first edition: every die is rolled) and nobody
    # else can reach space 16 before it.
    race = race_odds("first 16:W 1:BGOY")
    assert race.exact and race.win[race.camels.index("W")] == 1.0
    assert race.fraction("W", 1) == 1


@pytest.mark.parametrize("text", TWO_LEG)
def test_sampling_agrees_with_exact(text):
    exact = race_odds(text)
    sampled = race_odds(text, method="sample", samples=64_000, seed=3)
    assert not sampled.exact and sampled.samples >= 64_000
    diff = np.abs(sampled.rank - exact.rank)
    assert (diff <= 4 * sampled.rank_se + 1e-12).all()


def test_intervals_cover_the_exact_value():
    hits = trials = 0
    for seed in range(60):
        text = TWO_LEG[3] if seed % 2 else TWO_LEG[0]
        exact = race_odds(text)
        sampled = race_odds(text, method="sample", samples=32 * 128, seed=seed)
        for i, camel in enumerate(sampled.camels):
            for what, k in (("win", 0), ("lose", -1)):
                p = exact.rank[i, k]
                if 0 < p < 1:
                    lo, hi = sampled.interval(camel, what)
                    hits += lo <= p <= hi
                    trials += 1
    # nominal 95%; far below 90% would mean the errors are underestimated
    assert trials >= 120 and hits / trials >= 0.9, hits / trials


def test_stratification_is_exact_for_states_that_end_the_race():
    # Half of this leg's end states end the race: their share carries no noise.
    sampled = race_odds(TWO_LEG[0], method="sample", samples=3200, seed=9)
    exact = race_odds(TWO_LEG[0])
    assert sampled.legs[0] == pytest.approx(exact.legs[0])


def test_invariants_and_precision_target():
    race = race_odds(setup_position("second", 4), seed=11)
    np.testing.assert_allclose(race.rank.sum(axis=0), 1.0)
    np.testing.assert_allclose(race.rank.sum(axis=1), 1.0)
    assert race.win.sum() == pytest.approx(1.0) and race.lose.sum() == pytest.approx(1.0)
    assert race.legs.sum() == pytest.approx(1.0) and race.legs[0] == 0.0
    assert race.half_width()[:, [0, -1]].max() <= 0.002
    assert race.replicates >= 32 and race.samples == race.replicates * 2048
    frame = race.to_frame()
    assert list(frame.index) == list("BGPRY") and {"win", "win_lo", "win_hi", "lose", "1st"} <= set(frame)
    d = race.to_dict()
    assert set(d["B"]) >= {"win", "lose"}
    with pytest.raises(ValueError):
        race.fraction("B")


def test_same_seed_same_answer_whatever_the_thread_count(every_thread):
    pos = setup_position("second", 8)
    a = race_odds(pos, samples=40_000, seed=21, threads=1)
    b = race_odds(pos, samples=40_000, seed=21, threads=2)
    c = race_odds(pos, samples=40_000, seed=22, threads=2)
    np.testing.assert_array_equal(a.rank, b.rank)
    np.testing.assert_array_equal(a.legs, b.legs)
    assert not np.array_equal(a.rank, c.rank)
    a = race_odds(pos, seed=5, precision=0.01)
    b = race_odds(pos, seed=5, precision=0.01, threads=1)
    np.testing.assert_array_equal(a.rank, b.rank)


def test_replicates_split_the_samples():
    race = race_odds(setup_position("second", 3), samples=6400, replicates=64, seed=2)
    assert race.replicates == 64 and race.samples == 6400


def test_first_edition_race():
    race = race_odds(setup_position("first", 2), seed=1, precision=0.005)
    assert race.camels == tuple("BGOYW")
    assert race.half_width()[:, [0, -1]].max() <= 0.005


@pytest.mark.parametrize(
    "kwargs",
    [{"precision": 0}, {"precision": 1.5}, {"precision": "x"}, {"threads": 0},
     {"method": "exact"}, {"samples": 0}, {"seed": -3}, {"replicates": 4},
     {"samples": 100, "replicates": 1}, {"samples": 100, "replicates": 101}],
)
def test_bad_arguments(kwargs):
    with pytest.raises(AdvisorError):
        race_odds("1:B 2:YG 3:PR 14:w 15:k", **kwargs)
