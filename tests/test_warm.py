"""Warm-up and the compile notice.

The main test checks a first install: a cold command (in an empty cache,
a fresh ``NUMBA_CACHE_DIR``) says on stderr that it compiles and keeps
stdout clean; after ``camelup warmup`` from an empty cache every kernel of
:mod:`advisor.kernels` is cached, and running every command (every bot,
Camel Up Cards, batch, charts, worker processes) compiles nothing and
writes nothing to the cache.  When the test session's warm-up compiled
every kernel from an empty cache (see tests/conftest.py), the test checks
a copy of that cache rather than compiling everything again; otherwise it
runs ``camelup warmup`` in its own empty cache (a few minutes on two
cores).
"""

from __future__ import annotations

import io
import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import numba
import pytest

from advisor.errors import AdvisorError

from advisor import compiling, warm
from advisor.kernels import _watch
from advisor.kernels._jit import dispatcher_of, is_cached

ROOT = Path(__file__).resolve().parents[1]

# Every command, run in one process after the warm-up; then the bots'
# valuation with every option.  Paths are relative to the working directory.
_COMMANDS = """
import io, json, sys, contextlib
from pathlib import Path
from advisor import cli
from advisor.kernels import _watch

events = []


class Recorder:
    def started(self, name):
        events.append(name)

    def finished(self, name):
        pass


_watch.add(Recorder())
Path("in.txt").write_text("1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx\\nfirst 1:B 2:YG 3:OW\\n7:B 8:GPRY 9:w 3:k\\n")
Path("state.json").write_text(json.dumps({
    "board": "12:B 13:YG 14:PR 3:w 5:k -9@1 dice:GPRx",
    "players": [{"money": 2, "overall_cards": "GPR"}, {}, {}],
    "winner_pile": [{"player": 0, "colour": "B"}], "loser_pile": [{"player": 1}, {"player": 0, "colour": "Y"}]}))
BOTS = "advisor,rival,denial,heuristic"
commands = [
    ["odds", "--seed", "1"],
    ["odds", "--json", "--seed", "1", "first 1:B 2:YG 3:OW +6 dice:BGO"],
    ["odds", "--samples", "5000", "--seed", "1", "1:B 2:YG 3:PR 14:w 15:k"],
    ["odds", "--seed", "1", "14:B 15:YG 16:PR 1:w 2:k dice:BG"],
    ["odds", "--leg-only", "--threads", "1"],
    ["best", "--seed", "1", "--chart", "ev.png"],
    ["best", "--json", "--seed", "1", "--player", "0", "state.json"],
    ["best", "--seed", "1", "first 1:B 2:YG 3:OW +6"],
    ["show", "-o", "board.png"],
    ["simulate", "--games", "2", "--processes", "1", "--bots", BOTS, "-o", "games.jsonl"],
    ["simulate", "--games", "1", "--edition", "first", "--bots", "advisor,rival,random,random", "-o", "g1.jsonl"],
    ["simulate", "--games", "3", "--processes", "2", "--bots", "rival,advisor,advisor,random", "-o", "g2.jsonl"],
    ["tournament", "--games", "2", "--processes", "1", "--bots", "advisor,heuristic,random,rival"],
    ["chart", "games.jsonl", "-o", "chart.png"],
    ["review", "g1.jsonl", "--game", "0"],
    ["review", "g2.jsonl", "--precision", "0.05", "--processes", "2"],
    ["best", "g2.jsonl", "--game", "1", "--turn", "3", "--seed", "1"],
    ["play", "--seats", "advisor,heuristic,random,rival", "--seed", "3"],
    ["batch", "in.txt", "-o", "out.csv", "--race", "--advice"],
    ["batch", "in.txt", "-o", "moves.jsonl", "--moves"],
    ["odds", "--seed", "1", "--precision", "0.02", "cards 0:BG 2:OW 3:Y deck:4 known:B1G2"],
    ["odds", "--json", "--seed", "1", "--precision", "0.02", "--others", "reveal", "cards 0:BGOWY"],
    ["odds", "--seed", "1", "cards 14:BG 15:OW 16:Y deck:2 known:Y2W1"],
    ["best", "--seed", "1", "--precision", "0.02",
     "cards 0:BG 2:OW 3:Y deck:4 known:B1G2 hand:O1 legtiles:B322 bets:B5 money:2"],
    ["best", "--json", "--seed", "1", "--precision", "0.02", "cards 0:BGOWY hand:Y2"],
]
codes = []
for argv in commands:
    with contextlib.redirect_stdout(io.StringIO()):
        codes.append(cli.main(argv))

from advisor import GameState
from advisor.valuation.engine import fast_values

for board in ("1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx", "1:B 2:YG 3:PR 16:w 15:k", "first 1:B 2:YG 3:OW"):
    for options in ({}, {"denial": True}, {"rivals": True}):
        fast_values(GameState.from_board(board), **options)
fast_values(GameState.load("state.json"), 0, rivals=True)

from advisor.kernels._jit import dispatcher_of
from advisor.warm import kernels

misses = {name: sum(dispatcher_of(k).stats.cache_misses.values()) for name, k in kernels().items()}
print(json.dumps({"codes": codes, "events": events, "misses": {k: v for k, v in misses.items() if v}}))
"""


def _cache_files(cache: Path) -> dict[str, tuple[int, int]]:
    return {str(p.relative_to(cache)): (p.stat().st_size, p.stat().st_mtime_ns)
            for p in cache.rglob("*") if p.is_file()}


@pytest.mark.cold
@pytest.mark.processes
def test_warmup_compiles_every_kernel_every_command_uses(tmp_path, session_warmup):
    cache = tmp_path / "cache"
    cache.mkdir()
    env = {key: value for key, value in os.environ.items() if key != "CAMELUP_CACHE_DIR"}
    env.update(NUMBA_CACHE_DIR=str(cache), PYTHONPATH=str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""))

    def run(*argv, check=True):
        proc = subprocess.run([sys.executable, *argv], capture_output=True, text=True, env=env, cwd=tmp_path,
                              timeout=1200)
        if check:
            assert proc.returncode == 0, proc.stderr
        return proc

    # a cold command says so on stderr; its JSON on stdout stays clean
    cold = run("-m", "advisor.cli", "odds", "--json", "--leg-only", "1:B 2:YG 3:PR 14:w 15:k")
    assert json.loads(cold.stdout)["position"] == "1:B 2:YG 3:PR 14:w 15:k"
    assert "compiling kernels (first run only" in cold.stderr and "kernels compiled in" in cold.stderr
    assert len(cold.stderr.splitlines()) == 2

    warmed = session_warmup()  # the session compiled every kernel from an empty cache: check a copy of it
    if warmed is not None:
        cache = tmp_path / "warmed"
        env["NUMBA_CACHE_DIR"] = str(cache)
        where = Path(run("-c", "from advisor.kernels._jit import CACHE_DIR; print(CACHE_DIR)").stdout.strip())
        assert where.name == warmed.name  # the same kernel sources
        shutil.copytree(warmed, where)
    out = run("-m", "advisor.cli", "warmup")
    assert "Done in" in out.stdout and out.stderr == ""
    state = run("-c", "import json; from advisor.warm import unwarmed, cold_groups; "
                      "print(json.dumps([unwarmed(), cold_groups()]))")
    assert json.loads(state.stdout) == [[], []]

    before = _cache_files(cache)
    assert any(name.endswith(".nbi") for name in before)
    result = run("-c", _COMMANDS)
    report = json.loads(result.stdout.splitlines()[-1])
    assert report["codes"] == [0] * len(report["codes"])
    assert report["events"] == [] and report["misses"] == {}
    assert "compiling" not in result.stderr
    assert _cache_files(cache) == before  # neither this process nor the workers compiled


def test_every_group_names_real_kernels_called_from_python():
    found = warm.kernels()
    named = [k for g in warm.GROUPS for k in g.kernels]
    assert len(named) == len(set(named))
    for name in named:
        assert name in found, name
    # every parallel kernel sizes its thread count by its work
    for name, kernel in found.items():
        if dispatcher_of(kernel).targetoptions.get("parallel"):
            assert hasattr(kernel, "threads"), name


def test_cache_probe_answers_for_every_kernel():
    # the probe reads numba's cache index: it must work with this numba
    for name, kernel in warm.kernels().items():
        assert is_cached(kernel) in (True, False), name


def test_numba_compilations_reach_the_watchers():
    seen = []

    class Recorder:
        def started(self, name):
            seen.append(("start", name))

        def finished(self, name):
            seen.append(("end", name))

    recorder = Recorder()
    _watch.add(recorder)
    try:
        @numba.njit
        def twice(x):
            return 2 * x

        assert twice(21) == 42
        twice(1)  # compiled already: no event
    finally:
        _watch.remove(recorder)
    assert [kind for kind, _ in seen] == ["start", "end"]
    assert seen[0][1].endswith("twice")


class _Terminal(io.StringIO):
    def isatty(self):
        return True


def test_notice_says_nothing_when_nothing_compiles():
    stream = io.StringIO()
    with compiling.CompileNotice(("leg",), stream=stream):
        pass
    assert stream.getvalue() == ""


def test_notice_without_a_terminal_is_two_lines(monkeypatch):
    monkeypatch.setattr(warm, "cold_groups", lambda names: ["leg", "race"])
    monkeypatch.setattr(warm, "cpu_share", lambda: 0.5)  # a machine twice as busy as its cores
    stream = io.StringIO()
    with compiling.CompileNotice(("leg", "race"), stream=stream) as notice:
        notice.started("advisor.kernels.board.leg.enumerate_leg")
        notice.started("advisor.kernels.board.leg.enumerate_joint")  # nested: one span
        notice.finished("advisor.kernels.board.leg.enumerate_joint")
        notice.finished("advisor.kernels.board.leg.enumerate_leg")
        notice.started("advisor.kernels.board.race.race_replicates")
        notice.finished("advisor.kernels.board.race.race_replicates")
    lines = stream.getvalue().splitlines()
    seconds = (warm._BY_NAME["leg"].seconds + warm._BY_NAME["race"].seconds) / 0.5
    assert lines[0] == f"camelup: compiling kernels (first run only, about {5 * round(seconds / 5)} s) ..."
    assert lines[1].startswith("camelup: kernels compiled in ") and len(lines) == 2


def _wait_for(condition, timeout=10.0):
    import time

    end = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < end, "timed out"
        time.sleep(0.02)


def test_notice_on_a_terminal_spins_and_clears(monkeypatch):
    monkeypatch.setattr(warm, "cold_groups", lambda names: [])
    stream = _Terminal()
    with compiling.CompileNotice(("leg",), stream=stream) as notice:
        notice.started("advisor.kernels.board.leg.enumerate_leg")
        _wait_for(lambda: stream.getvalue().count("compiling kernels") >= 2)  # it spins
        assert stream.getvalue().startswith("\r| compiling kernels (first run only): 0 s \r/ compiling")
        notice.finished("advisor.kernels.board.leg.enumerate_leg")
        _wait_for(lambda: stream.getvalue().endswith("\r\x1b[K"))  # erased once the compilation ended
    text = stream.getvalue()
    assert re.search(r"\r\x1b\[Kcamelup: kernels compiled in \d+ s; later runs load them from the cache\n$", text)


def test_notice_after_an_error_leaves_no_final_line():
    stream = io.StringIO()
    with pytest.raises(KeyboardInterrupt):
        with compiling.CompileNotice((), stream=stream) as notice:
            notice.started("advisor.kernels.board.leg.enumerate_leg")
            raise KeyboardInterrupt
    assert stream.getvalue() == "camelup: compiling kernels (first run only) ...\n"


@pytest.mark.parametrize("command,options,expected", [
    ("odds", {}, {"leg", "race"}),
    ("odds", {"race": False}, {"leg"}),
    ("odds", {"samples": True}, {"leg", "race", "sampler"}),
    ("odds", {"cards": True}, {"cards_legs", "cards_races"}),
    ("odds", {"cards": True, "race": False}, {"cards_legs"}),
    ("best", {"cards": True, "race": False}, {"cards_legs", "cards_races"}),
    ("simulate", {"bots": ["random", "random"]}, {"moves"}),
    ("simulate", {"bots": ["heuristic", "rival"]}, {"moves", "leg", "joint", "race", "bots"}),
    ("simulate", {"cards": True, "race": False, "bots": ["heuristic", "random"]}, {"cards_legs"}),
    ("simulate", {"cards": True, "race": False, "bots": ["rival", "greedy", "random"]},
     {"cards_legs", "cards_races", "cards_bots"}),
    ("batch", {"race": False}, {"batch"}),
    ("warmup", {}, {g.name for g in warm.GROUPS}),
])
def test_needs(command, options, expected):
    assert set(warm.needs(command, **options)) == expected


def test_unknown_group_is_refused():
    with pytest.raises(ValueError, match="unknown kernel group"):
        warm.warmup(groups=["nope"])


def test_simulate_compiles_for_its_workers_first_when_the_cache_is_cold(monkeypatch):
    from advisor.simulate import games as sim

    calls = []
    monkeypatch.setattr(warm, "cold_groups", lambda names: [n for n in names if n in ("bots", "moves")])
    monkeypatch.setattr(warm, "warmup", lambda groups: calls.append(sorted(groups)))
    records = list(sim.simulate(["random", "rival", "random", "random"], 2, processes=2, progress=False))
    assert len(records) == 2 and calls == [["bots", "moves"]]
    # one process: its compilations show under the notice
    list(sim.simulate(["rival"] * 4, 1, processes=1, progress=False))
    # a bad line-up is refused before anything compiles
    with pytest.raises(AdvisorError):
        list(sim.simulate(["rival", "nobody", "random", "random"], 2, processes=2, progress=False))
    with pytest.raises(AdvisorError):
        list(sim.simulate(["rival"] * 9, 2, processes=2, progress=False))
    assert calls == [["bots", "moves"]]
