"""The test session itself (tests/conftest.py): on an xdist worker the
kernels come warm from the session's one warm-up, each worker runs on one
numba thread (thread-count tests on every thread), and every marker the
tests use is registered."""

from __future__ import annotations

import ast
import json
import os
import re
import subprocess
import sys
from pathlib import Path

import numba
import pytest

ROOT = Path(__file__).resolve().parents[1]
ON_WORKER = os.environ.get("PYTEST_XDIST_WORKER") is not None


@pytest.mark.skipif(not ON_WORKER, reason="without xdist the kernels compile on first use")
def test_a_worker_loads_warm_kernels_from_a_cache_of_its_own():
    from advisor import leg_odds
    from advisor.kernels import _jit, _watch

    assert Path(_jit.CACHE_DIR).is_relative_to(Path(os.environ["NUMBA_CACHE_DIR"]))
    assert os.environ["PYTEST_XDIST_WORKER"] in os.environ["NUMBA_CACHE_DIR"]
    compiled = []

    class Recorder:
        def started(self, name):
            compiled.append(name)

        def finished(self, name):
            pass

    recorder = Recorder()
    _watch.add(recorder)
    try:
        leg_odds("1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx")  # a fresh signature load, not a compilation
    finally:
        _watch.remove(recorder)
    assert compiled == []


@pytest.fixture(scope="module")
def cache_at_module_setup():
    """The worker's kernel cache as a module fixture finds it (module and
    session fixtures are set up before a test's own fixtures)."""
    from advisor.kernels import _jit

    return sorted(p.name for p in Path(_jit.CACHE_DIR).rglob("*.nbi"))


@pytest.mark.skipif(not ON_WORKER, reason="without xdist the kernels compile on first use")
def test_module_fixtures_find_the_kernels_warm(cache_at_module_setup):
    """A module fixture that plays games or starts ``camelup serve`` loads
    the kernels rather than compiling them in an empty cache."""
    from advisor import warm

    found = set(cache_at_module_setup)
    # numba names a cache file by the kernel's file and name: board.leg.enumerate_leg -> leg.enumerate_leg-NN...
    stems = [".".join(kernel.split(".")[-2:]) for group in warm.GROUPS for kernel in group.kernels]
    assert found and stems and all(any(name.startswith(stem + "-") for name in found) for stem in stems)


@pytest.mark.skipif(not ON_WORKER, reason="without xdist the thread count is numba's own")
def test_a_worker_runs_on_one_numba_thread():
    assert numba.get_num_threads() == 1


def test_thread_count_tests_run_on_every_thread(every_thread):
    assert numba.get_num_threads() == numba.config.NUMBA_NUM_THREADS


def test_the_tests_import_the_package_of_this_checkout():
    import advisor

    assert Path(advisor.__file__).resolve().parent == ROOT / "advisor"
    assert str(ROOT / "tests") in sys.path


def test_every_marker_used_is_registered(pytestconfig):
    registered = {re.split(r"[:(]", line, maxsplit=1)[0].strip() for line in pytestconfig.getini("markers")}
    builtin = {"parametrize", "skipif", "skip", "xfail", "usefixtures", "filterwarnings", "xdist_group"}
    used = set()
    for path in (ROOT / "tests").glob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            # pytest.mark.NAME
            if (isinstance(node, ast.Attribute) and isinstance(node.value, ast.Attribute)
                    and node.value.attr == "mark" and isinstance(node.value.value, ast.Name)
                    and node.value.value.id == "pytest"):
                used.add((node.attr, path.name))
    unregistered = sorted((name, file) for name, file in used if name not in registered | builtin)
    assert unregistered == []
    # and those conftest.py gives from fixtures and groups
    import conftest

    assert set(conftest.FIXTURE_MARKS.values()) | set(conftest.GROUPS) | set(conftest.EARLY) | {conftest.FIRST} \
        <= registered


@pytest.mark.skipif(not ON_WORKER, reason="without xdist there is no session warm-up")
def test_the_session_warmup_split_over_the_cores_left_nothing_to_compile():
    import conftest

    from advisor import warm

    report = conftest._warm_report()
    assert report["ok"], report.get("error")
    assert isinstance(report["from_empty"], bool)
    if len(report["cold"]) >= 2 and warm.usable_cores() >= 2:
        first, second = report["halves"]
        assert first and second and sorted(first + second) == sorted(report["cold"])
        assert report["compiled_after_merge"] == []  # the merged halves cached every group
    if report["from_empty"]:
        assert report["unwarmed"] == []


def test_a_half_that_did_not_cache_its_groups_is_compiled_after_the_merge(monkeypatch, tmp_path):
    import conftest

    from advisor import warm

    cold = iter([["moves", "leg"], ["leg"]])  # before the halves; after the merge
    compiled = []
    monkeypatch.setattr(warm, "cold_groups", lambda: next(cold))
    monkeypatch.setattr(warm, "warmup", lambda groups: compiled.append(groups))
    monkeypatch.setattr(warm, "unwarmed", list)
    monkeypatch.setattr(warm, "usable_cores", lambda: 2)
    monkeypatch.setattr(warm, "compile_halves", lambda halves, folder, script: ([], ["moves: exit 1", "leg: exit 1"]))
    report = conftest._warm(tmp_path)  # both halves failed
    assert report["halves"] == [["moves"], ["leg"]] and report["compiled_after_merge"] == ["leg"]
    assert compiled == [["leg"]]
