"""Sampled leg odds agree with exact enumeration; seeds reproduce results
whatever the thread count."""

import os
import subprocess
import sys

import numpy as np
import pytest

from advisor import AdvisorError, leg_odds, random_position, sample_leg_odds

POSITIONS = [
    "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx",
    "1:B 2:YG 3:PR 14:w 15:k",
    "first 1:B 2:YG 3:OW -5 +9",
    "14:PBk 15:w 16:RGY +10 dice:PYRx",
    "1:wBG 2:k 4:R 6:P 8:Y dice:BGx",
]


@pytest.mark.parametrize("text", POSITIONS)
def test_sampled_within_four_standard_errors(text):
    exact = leg_odds(text)
    sampled = sample_leg_odds(text, samples=60_000, seed=7)
    assert sampled.total == 60_000 and not sampled.exact
    p = exact.rank
    se = np.sqrt(p * (1 - p) / sampled.total)
    diff = np.abs(sampled.rank - p)
    assert (diff <= 4 * se + 1e-12).all(), (diff / np.maximum(se, 1e-12)).max()
    # landings and race end probability too
    n = sampled.total
    for space, mean in exact.expected_landings().items():
        # landings per leg are at most 5: a generous variance bound
        assert abs(sampled.expected_landings()[space] - mean) <= 4 * np.sqrt(5 * mean / n) + 1e-12
    q = exact.race_ends
    assert abs(sampled.race_ends - q) <= 4 * np.sqrt(q * (1 - q) / n) + 1e-12


@pytest.mark.slow
def test_random_positions_sampled_vs_exact():
    rng = np.random.default_rng(99)
    for _ in range(20):
        pos = random_position("second", rng, tiles=2)
        exact = leg_odds(pos)
        sampled = sample_leg_odds(pos, samples=20_000, seed=int(rng.integers(1 << 30)))
        se = np.sqrt(exact.rank * (1 - exact.rank) / sampled.total)
        assert (np.abs(sampled.rank - exact.rank) <= 4 * se + 1e-12).all()


def test_same_seed_same_answer_different_seed_different_answer():
    a = sample_leg_odds(POSITIONS[1], samples=30_000, seed=123)
    b = sample_leg_odds(POSITIONS[1], samples=30_000, seed=123)
    c = sample_leg_odds(POSITIONS[1], samples=30_000, seed=124)
    np.testing.assert_array_equal(a.counts, b.counts)
    assert not np.array_equal(a.counts, c.counts)
    assert a.seed == 123


def test_seed_is_drawn_and_reported_when_missing():
    a = sample_leg_odds(POSITIONS[0], samples=1000)
    b = sample_leg_odds(POSITIONS[0], samples=1000, seed=a.seed)
    np.testing.assert_array_equal(a.counts, b.counts)


_SCRIPT = """
import numba, sys
numba.set_num_threads(int(sys.argv[1]))
from advisor import sample_leg_odds
r = sample_leg_odds("1:B 2:YG 3:PR 14:w 15:k", samples=50_000, seed=42)
print(r.counts.tolist(), r.landing_counts.tolist(), r.ended_count)
"""


def test_thread_count_does_not_change_the_result():
    env = {**os.environ, "CAMELUP_THREAD_SECONDS": "0"}  # every call on every thread, however small
    outs = {
        subprocess.run([sys.executable, "-c", _SCRIPT, str(t)], capture_output=True, text=True, check=True,
                       env=env).stdout
        for t in (1, 2)
    }
    assert len(outs) == 1


def test_leg_odds_with_samples_delegates():
    r = leg_odds(POSITIONS[0], samples=5000, seed=1)
    assert r.samples == 5000 and r.seed == 1


@pytest.mark.parametrize("samples", [0, -5, 2.5, "10", True])
def test_bad_sample_counts(samples):
    with pytest.raises(AdvisorError):
        sample_leg_odds(POSITIONS[0], samples=samples, seed=1)


@pytest.mark.parametrize("seed", [-1, 2**63, 1.5, "x"])
def test_bad_seeds(seed):
    with pytest.raises(AdvisorError):
        sample_leg_odds(POSITIONS[0], samples=10, seed=seed)
