"""The "first run only, about N s" estimates come from measured compile
times (advisor/data/compile_seconds.json, written by
benchmarks/bench_compile.py), stretched by how busy the machine is."""

from __future__ import annotations

import json
from importlib import resources

from advisor import warm


def test_every_group_has_a_measured_compile_time_with_its_load():
    data = json.loads(resources.files("advisor.data").joinpath("compile_seconds.json").read_text())
    assert data["cores"] >= 1 and data["measured"]
    for group in warm.GROUPS:
        figures = data["groups"][group.name]
        assert figures["cpu_s"] > 0 and figures["wall_s"] >= figures["cpu_s"] * 0.8
        assert len(figures["load"]) == 2  # the load average before and after the measurement
        assert group.seconds == figures["cpu_s"]  # the estimate reads the measurement, not a guess


def test_the_estimate_is_the_measured_seconds_over_the_share_of_a_core():
    names = ("leg", "race")
    cpu = sum(warm._BY_NAME[n].seconds for n in names)
    assert warm.estimate(names, share=1.0) == cpu
    assert warm.estimate(names, share=0.25) == cpu * 4
    assert warm.estimate((), share=0.25) == 0.0


def test_the_share_of_a_core_is_a_fraction(monkeypatch):
    import os

    monkeypatch.setattr(os, "getloadavg", lambda: (0.0, 0.0, 0.0))
    assert warm.cpu_share() == 1.0  # an idle machine: no probe
    monkeypatch.setattr(os, "getloadavg", lambda: (1000.0, 0.0, 0.0))
    assert 0.02 <= warm.cpu_share(probe=0.05) <= 1.0
