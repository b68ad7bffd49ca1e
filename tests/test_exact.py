"""LegOdds and leg_odds: invariants, conversions, batch = single."""

from fractions import Fraction

import numpy as np
import pytest

from advisor import Position, leg_odds, leg_odds_many, parse_position, random_position, setup_position
from advisor.odds.exact import RANK_LABELS

EXAMPLE = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"


def positions(n=40, seed=11):
    rng = np.random.default_rng(seed)
    out = []
    for i in range(n):
        edition = "second" if i % 2 else "first"
        out.append(random_position(edition, rng, dice=int(rng.integers(2, 5)), tiles=int(rng.integers(0, 3))))
    return out


@pytest.mark.parametrize("pos", positions(), ids=str)
def test_rows_and_columns_sum_to_one(pos):
    odds = leg_odds(pos)
    assert (odds.counts.sum(axis=1) == odds.total).all()
    assert (odds.counts.sum(axis=0) == odds.total).all()
    np.testing.assert_allclose(odds.rank.sum(axis=0), 1.0)
    np.testing.assert_allclose(odds.rank.sum(axis=1), 1.0)


def test_total_is_the_number_of_equally_likely_sequences():
    # 4 dice left in second: 3 rolls; 4*3*2 orders, 6 faces each
    odds = leg_odds("1:B 2:YG 3:PR 14:w 15:k dice:BGPx")
    assert odds.total == 4 * 3 * 2 * 6**3
    # first edition leg start: 5 rolls of 5 dice
    odds = leg_odds("first 1:B 2:YG 3:OW")
    assert odds.total == 120 * 6**5


def test_relabelling_colours_permutes_rows():
    rng = np.random.default_rng(5)
    for _ in range(20):
        pos = random_position("second", rng, dice=4, tiles=1)
        perm = dict(zip("BGPRY", rng.permutation(list("BGPRY"))))
        swap = lambda letters: "".join(perm.get(c, c) for c in letters)  # noqa: E731
        relabelled = Position(
            "second", {s: swap(c) for s, c in pos.stacks}, pos.tiles, swap(pos.dice)
        )
        a, b = leg_odds(pos), leg_odds(relabelled)
        for camel in "BGPRY":
            np.testing.assert_array_equal(a.counts[a.camels.index(camel)], b.counts[b.camels.index(perm[camel])])


def test_accepts_strings_and_positions():
    assert np.array_equal(leg_odds(EXAMPLE).counts, leg_odds(parse_position(EXAMPLE)).counts)


def test_probability_fraction_and_frame():
    odds = leg_odds(EXAMPLE)
    assert odds.exact and odds.samples == 0 and odds.seed is None
    assert odds.fraction("R", 1) == Fraction(int(odds.counts[3, 0]), odds.total)
    assert odds.probability("R", 1) == pytest.approx(float(odds.fraction("R", 1)))
    assert odds.probability("B", 5) == 1.0
    frame = odds.to_frame()
    assert list(frame.columns) == list(RANK_LABELS)
    assert list(frame.index) == list("BGPRY")
    assert frame.attrs["position"] == EXAMPLE
    assert frame.loc["R", "1st"] == pytest.approx(odds.probability("R", 1))
    d = odds.to_dict()
    assert set(d) == set("BGPRY") and all(len(v["rank"]) == 5 for v in d.values())
    assert odds.order()[0] == "R"
    with pytest.raises(KeyError):
        odds.probability("w")
    with pytest.raises(KeyError):
        odds.probability("R", 6)
    assert "LegOdds exact" in repr(odds)
    assert not odds.stderr.any()


def test_expected_landings_match_hand_count():
    # Only B moves onto the +3 tile: B at 1, die B shows 2 with probability
    # 1/3; in a 2-die pyramid B is rolled with probability 1/2.
    odds = leg_odds("1:B 5:G 7:P 9:R 11:Y 14:w 16:k +3 dice:Bx")
    assert odds.expected_landings() == {3: pytest.approx(1 / 6)}


def test_batch_equals_single():
    items = positions(30, seed=3) + [setup_position("second", 1), setup_position("first", 2)]
    many = leg_odds_many(items)
    for pos, got in zip(items, many):
        one = leg_odds(pos)
        assert got.position == pos
        np.testing.assert_array_equal(got.counts, one.counts)
        np.testing.assert_array_equal(got.landing_counts, one.landing_counts)
        assert got.ended_count == one.ended_count and got.total == one.total


def test_bad_input_is_a_position_error():
    from advisor import PositionError

    with pytest.raises(PositionError):
        leg_odds("1:B 2:YG")
    with pytest.raises(PositionError):
        leg_odds(42)


def test_a_camel_that_cannot_be_caught_wins_the_leg():
    # R is 10 spaces ahead with one roll left: nobody can catch it
    odds = leg_odds("1:B 2:G 3:P 13:R 4:Y 6:w 7:k dice:BG")
    assert odds.probability("R", 1) == 1.0


def test_position_is_immutable():
    pos = parse_position(EXAMPLE)
    with pytest.raises(AttributeError):
        pos.dice = "BG"
    assert isinstance(pos, Position)
