"""The benchmarks' pure-Python sides run against tests/naive.py as it is
now: the benchmarks are not run by the suite, and a change of the
reference's functions once broke bench_race.py's ratio unseen."""

import random
import sys
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "benchmarks"))


def test_bench_race_plays_its_reference_races_to_a_winner():
    import bench_race
    from advisor import setup_position

    pos = setup_position("second", np.random.default_rng(1))
    winners = [bench_race.naive_race(pos, random.Random(seed)) for seed in range(40)]
    assert set(winners) <= set(pos.rules.racing)
    assert len(set(winners)) >= 3  # random races: not one camel every time
