"""The split compile: kernel groups compiled in two processes at once,
each in a cache folder of its own, merged into one cache
(:mod:`advisor._tools.numbacache`, :func:`advisor.warm.split_compile`)."""

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from advisor import compiling, warm
from advisor._tools.numbacache import compile_halves, merge_cache
from helpers import as_a_terminal_job, ended

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
ENV = {**os.environ, "PYTHONPATH": ROOT + os.pathsep + os.environ.get("PYTHONPATH", "")}


_TWICE = """
import json, sys
sys.path.insert(0, sys.argv[1])
from twice import twice
results = [twice(eval(arg)) for arg in sys.argv[2:]]
print(json.dumps({"results": [repr(r) for r in results], "hits": sum(twice.stats.cache_hits.values()),
                  "misses": sum(twice.stats.cache_misses.values())}))
"""


def test_merging_two_numba_caches_keeps_every_signature_of_both(tmp_path):
    """Two caches that both compiled one function, with other signatures:
    each numbers its data files from 1, so the merge renumbers."""
    source = tmp_path / "src"
    source.mkdir()
    (source / "twice.py").write_text("from numba import njit\n\n\n@njit(cache=True)\ndef twice(x):\n"
                                     "    return 2 * x\n")

    def call(cache, *args):
        env = {**os.environ, "NUMBA_CACHE_DIR": str(tmp_path / cache)}
        out = subprocess.run([sys.executable, "-c", _TWICE, str(source), *args], env=env, capture_output=True,
                             text=True, check=True, timeout=300).stdout
        return json.loads(out)

    assert call("a", "1")["misses"] == 1  # int64 in a's file 1
    assert call("b", "1.5", "1")["misses"] == 2  # float64 in b's file 1, int64 in its file 2
    shared = tmp_path / "shared"
    merge_cache(tmp_path / "a", shared)
    merge_cache(tmp_path / "b", shared)
    merge_cache(tmp_path / "b", shared)  # twice: nothing new
    files = sorted(p.name for p in shared.rglob("*") if p.is_file() and p.name != ".merge.lock")
    assert [f.rsplit(".", 2)[-2:] for f in files] == [["1", "nbc"], ["2", "nbc"], [f"py{sys.version_info[0]}{sys.version_info[1]}",
                                                                                    "nbi"]]
    loaded = call("shared", "1", "1.5")
    assert loaded == {"results": ["2", "3.0"], "hits": 2, "misses": 0}


def _measured(monkeypatch, seconds: dict) -> None:
    figures = {"groups": {name: {"cpu_s": s} for name, s in seconds.items()}}
    monkeypatch.setattr(warm, "compile_figures", lambda: figures)


def test_a_half_counts_the_groups_its_groups_build_on(monkeypatch):
    """A group's figure is what it adds to those before it: alone it
    compiles their callees too (board and Camel Up Cards apart)."""
    _measured(monkeypatch, {"moves": 10, "leg": 5, "cards_legs": 12, "cards_races": 3})
    assert warm.half_seconds(["leg"]) == 15
    assert warm.half_seconds(["moves"]) == 10
    assert warm.half_seconds(["leg", "cards_races"]) == 30


def test_a_half_measured_alone_counts_its_groups_alone_and_a_covered_group_adds_nothing(monkeypatch):
    """Groups measured alone (bench_compile.py --alone): a half costs the
    smaller of the two bounds; a group whose kernels another of the half
    compiles alone (``covers``) adds nothing.  The advice: the race
    compiled alone compiles the leg's kernels too, the joint outcomes need
    no race, so race | joint splits it."""
    figures = {"groups": {"moves": {"cpu_s": 3}, "leg": {"cpu_s": 10}, "race": {"cpu_s": 16}, "joint": {"cpu_s": 13}},
               "groups_alone": {"moves": {"cpu_s": 4, "covers": []},
                                "leg": {"cpu_s": 11, "covers": ["moves"]},
                                "race": {"cpu_s": 25, "covers": ["moves", "leg"]},
                                "joint": {"cpu_s": 19, "covers": []}}}
    monkeypatch.setattr(warm, "compile_figures", lambda: figures)
    assert warm.half_seconds(["joint"]) == 19  # alone, not the 42 of every group up to it
    assert warm.half_seconds(["leg", "race"]) == 25  # the leg covered by the race alone
    assert warm.half_seconds(["moves", "joint"]) == 23  # alone, both counted
    assert warm.half_seconds(["race"]) == 25  # alone (25) above the groups up to it (29): the smaller
    assert warm.halves(["leg", "joint", "race"]) == [["leg", "race"], ["joint"]]
    figures["groups_alone"]["leg+joint"] = {"cpu_s": 21, "covers": ["moves"]}  # this half measured as such
    assert warm.half_seconds(["joint", "leg"]) == 21
    figures["groups_alone"].pop("joint")  # a group never measured alone: the groups up to it
    assert warm.half_seconds(["joint"]) == 42


def test_the_halves_are_the_most_even_split(monkeypatch):
    _measured(monkeypatch, {"moves": 10, "leg": 5, "cards_legs": 12, "cards_races": 3})
    assert warm.halves(["cards_races", "moves", "leg", "cards_legs"]) == [["moves", "leg"],
                                                                          ["cards_legs", "cards_races"]]
    assert warm.halves(["cards_legs", "moves"]) == [["moves"], ["cards_legs"]]  # in GROUPS order
    assert warm.halves(["leg"]) == [["leg"]]


def test_a_split_is_planned_only_where_two_processes_are_sooner(monkeypatch):
    _measured(monkeypatch, {"moves": 10, "leg": 10, "race": 10, "cards_legs": 20, "cards_races": 5})
    monkeypatch.setattr(warm, "cold_groups", lambda names: list(names))
    monkeypatch.setattr(warm, "usable_cores", lambda: 2)
    monkeypatch.setattr(warm, "free_cores", lambda: 1.7)
    both = ["moves", "leg", "cards_legs", "cards_races"]
    assert warm.split_plan(both) == [["moves", "leg"], ["cards_legs", "cards_races"]]
    assert warm.split_plan(["leg", "race"]) is None  # race alone compiles leg's callees too: no shorter
    assert warm.split_plan(["moves"]) is None  # one group
    monkeypatch.setattr(warm, "free_cores", lambda: 0.5)  # a busy machine
    assert warm.split_plan(both) is None
    monkeypatch.setattr(warm, "usable_cores", lambda: 1)
    monkeypatch.setattr(warm, "free_cores", lambda: 1.0)
    assert warm.split_plan(both) is None


def test_the_idle_cores_are_the_idle_share_of_the_last_quarter_second_not_the_load_average(monkeypatch):
    """BUG: the 1-minute load average still counted a command that had just
    ended, so `camelup odds` then `camelup best` never split best's
    compile (33 s single against 28 s split).  The idle share over the
    probe decides."""
    import os

    times = iter([(100, 400), (100 + 45, 400 + 100)])  # (idle, total) ticks: 45 of the next 100 idle
    monkeypatch.setattr(warm, "_cpu_times", lambda: next(times))
    monkeypatch.setattr(os, "cpu_count", lambda: 4)
    monkeypatch.setattr(warm, "usable_cores", lambda: 2)
    monkeypatch.setattr(os, "getloadavg", lambda: (3.5, 0.0, 0.0))  # a minute ago, busy
    assert warm.free_cores(probe=0.0) == pytest.approx(1.8)  # 45% of 4 cores idle
    times = iter([(0, 0), (90, 100)])
    assert warm.free_cores(probe=0.0) == 2.0  # at most the usable cores
    monkeypatch.setattr(warm, "_cpu_times", lambda: None)  # no counters: the load average
    assert warm.free_cores(probe=0.0) == pytest.approx(-1.5)


def test_each_half_gets_half_the_idle_cores_at_most_one(monkeypatch):
    """BUG: the share came from the 1-minute load average: right after
    `camelup odds`, best's split announced 45 s and compiled in 23 s."""
    for free, share in ((2.0, 1.0), (3.5, 1.0), (1.2, 0.6), (0.0, 0.05)):
        monkeypatch.setattr(warm, "free_cores", lambda free=free: free)
        assert warm.split_share() == pytest.approx(share)


def test_the_idle_cores_are_probed_only_when_a_split_is_due(monkeypatch):
    _measured(monkeypatch, {"moves": 10, "leg": 10, "race": 10, "cards_legs": 20, "cards_races": 5})
    monkeypatch.setattr(warm, "usable_cores", lambda: 2)
    monkeypatch.setattr(warm, "free_cores", lambda: pytest.fail("probed on a warm start"))
    monkeypatch.setattr(warm, "cold_groups", lambda names: [])  # everything cached
    assert warm.split_plan(["moves", "leg", "cards_legs", "cards_races"]) is None


def test_the_split_estimate_is_the_longer_half_over_each_halfs_share(monkeypatch):
    _measured(monkeypatch, {"moves": 10, "leg": 7})
    assert warm.split_estimate([["moves"], ["leg"]], share=0.5) == pytest.approx((17 + warm._HALF_START) / 0.5)


_FAKE_HALF = """
import os, sys, time
from advisor._tools.workers import worker_init
worker_init()
if sys.argv[1] == "fail":
    sys.stderr.write("boom\\n")
    sys.exit(3)
if sys.argv[1] == "sleep":
    time.sleep(120)
folder = os.path.join(os.environ["CAMELUP_CACHE_DIR"], "kernels")
os.makedirs(folder)
print(folder)
"""


def test_a_half_that_fails_is_reported_and_the_other_kept(tmp_path):
    folders, failed = compile_halves([["ok"], ["fail"]], tmp_path, _FAKE_HALF)
    assert folders == [tmp_path / "half0" / "kernels"]
    assert failed == ["fail: exit 3 boom"]


def test_a_split_compile_whose_halves_failed_costs_time_only(monkeypatch):
    """Nothing merged, no error: the command compiles what it calls."""
    monkeypatch.setattr(warm, "compile_halves", lambda parts, folder, script: ([], ["leg: exit 1", "race: exit 1"]))
    report = warm.split_compile(warm.halves(["leg", "race"]))
    assert report["halves"] == [["leg"], ["race"]] and len(report["failed"]) == 2


_INTERRUPTED = """
import sys, tempfile
from pathlib import Path
from advisor._tools.numbacache import compile_halves
try:
    compile_halves([["sleep"], ["sleep"]], Path(tempfile.mkdtemp()), sys.argv[1])
except KeyboardInterrupt:
    print("interrupted", file=sys.stderr)
    sys.exit(130)
"""


@pytest.mark.processes
def test_ctrl_c_during_the_split_compile_stops_the_halves_quietly():
    """Ctrl-C to the whole process group once both halves run: the parent's
    one line, nothing from the halves, and no half left running."""
    from test_quiet import _children

    proc = subprocess.Popen([sys.executable, "-c", _INTERRUPTED, _FAKE_HALF], stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True, start_new_session=True, env=ENV,
                            preexec_fn=as_a_terminal_job)
    deadline = time.time() + 120
    while time.time() < deadline and len(_children(proc.pid)) < 2 and proc.poll() is None:
        time.sleep(0.01)
    halves = _children(proc.pid)
    time.sleep(1.0)  # the halves are past their start
    os.killpg(proc.pid, signal.SIGINT)
    _, stderr = ended(proc)
    assert proc.returncode == 130, stderr
    assert stderr.strip().splitlines() == ["interrupted"]
    assert len(halves) == 2 and not any(Path(f"/proc/{pid}").exists() for pid in halves)


def test_a_split_compile_announces_its_own_estimate(monkeypatch):
    import io

    _measured(monkeypatch, {"leg": 30, "race": 40})
    monkeypatch.setattr(warm, "split_plan", lambda groups, forms: [["leg"], ["race"]])
    monkeypatch.setattr(warm, "compile_halves", lambda parts, folder, script: ([], []))
    monkeypatch.setattr(warm, "split_share", lambda: 0.5)
    stream = io.StringIO()
    with compiling.CompileNotice(("leg", "race"), stream=stream, forms=("odds",)) as notice:
        report = warm.compile_first(notice)
    assert report["halves"] == [["leg"], ["race"]]
    expected = compiling._rounded((warm.half_seconds(["race"]) + warm._HALF_START) / 0.5)
    assert stream.getvalue().splitlines()[0] == f"camelup: compiling kernels (first run only, about {expected} s) ..."


def test_a_command_whose_groups_never_split_does_not_look_at_the_cache(monkeypatch):
    _measured(monkeypatch, {"moves": 10, "leg": 10, "race": 10})
    monkeypatch.setattr(warm, "usable_cores", lambda: 2)
    monkeypatch.setattr(warm, "free_cores", lambda: 2.0)
    monkeypatch.setattr(warm, "cold_groups", lambda names: pytest.fail("the cache was looked at"))
    assert warm.split_plan(["leg", "race"]) is None
