"""Compile time of each kernel group, and of each command form, from an
empty cache, and the kernel specializations each compiles.

    python benchmarks/bench_compile.py [--groups leg,race] [--write]
    python benchmarks/bench_compile.py --forms all [--write]
    python benchmarks/bench_compile.py --alone [--groups leg,race] [--write]

The groups of :data:`advisor.warm.GROUPS` are compiled in their order, as
``camelup warmup`` does, in one fresh process with an empty kernel cache
(``CAMELUP_CACHE_DIR`` a new temporary folder, or ``--cache``): each
group's figure is what it adds to the groups before it (a kernel two groups
share is compiled once, by the first), so a command's first run costs the
sum over the groups it needs.  For each group it prints the seconds of
processor time (the compilation runs on one core, so this hardly depends on
how busy the machine is), the wall-clock seconds, the load average
(``os.getloadavg``) before and after, and every kernel specialization
(signature) the group compiled.

``--write`` stores the figures in ``advisor/data/compile_seconds.json``,
which the compile notice (``compiling kernels (first run only, about N s)``)
and the page's readiness read: the estimate is the processor seconds of the
cold groups, stretched by the machine's load at the time (see
:func:`advisor.warm.estimate`).

``--forms`` measures the command forms of :func:`advisor.warm.forms`
instead (``all``, or names of :data:`FORMS`): each runs its command
(:data:`FORMS`: the ``camelup`` arguments and input) in a fresh process of
its own with an empty cache, and records the processor seconds of the
compilation, each kernel's own share of them (numba compiles a kernel's
callees inside its compilation: their seconds are charged to them, not to
the caller), and the specializations compiled.  With ``--write`` they are
stored under ``commands`` in the same file (the groups' figures are kept,
and a group measurement keeps the forms'); the compile notice announces a
command's estimate from them (:func:`advisor.warm.form_seconds`).  ``--alone`` measures
each group compiled alone (a fresh process and an empty cache each), stored
under ``groups_alone``: what one half of a split compile costs
(:func:`advisor.warm.half_seconds`).  The measurements, in a fresh checkout
on a quiet machine, re-measure every figure the notice and the page use::

    python benchmarks/bench_compile.py --write && python benchmarks/bench_compile.py --forms all --write
    python benchmarks/bench_compile.py --alone --write
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))  # this checkout's package, as the measuring process uses
sys.path.insert(0, str(ROOT / "benchmarks"))
from bench_start import COMMANDS as START_COMMANDS, POSITION  # noqa: E402 - the commands bench_start times
DATA = ROOT / "advisor" / "data" / "compile_seconds.json"
CARDS_POSITION = "cards 0:BG 2:OW 3:Y deck:4 known:B1G2 hand:O1"
RECORDS = str(ROOT / "tests" / "golden" / "outputs" / "simulate_bots.games.jsonl")
#: the positions of the batch forms ({out}/positions.txt): both board editions
BOARDS = (POSITION, "first 3:BG 4:O 6:YW +5 -8 dice:BOW legtiles:B2", "16:BGPRY 8:wk dice:Bx")


def _game(bots: str, edition: str = "second") -> list[str]:
    """One game of four ``bots`` (played in this process: one game)."""
    return ["simulate", "--edition", edition, "--bots", ",".join([bots] * 4), "--games", "1", "--seed", "1",
            "-o", "{out}/games.jsonl"]


def _opening(bot: str) -> tuple[list[str], str]:
    """A game at the table, a human and two ``bot`` seats, that player 1
    starts, left at the human's first prompt."""
    return ["play", "--seats", f"human,{bot},{bot}", "--seed", "3"], "quit\n"


#: The command forms of :func:`advisor.warm.forms`: the ``camelup``
#: arguments (``{out}``: an empty folder for the files it writes) and the
#: standard input of the run that measures each.
FORMS: dict[str, tuple[list[str], str]] = {
    "odds": (["odds", "--seed", "1", POSITION], ""),
    "odds-leg": (["odds", "--leg-only", POSITION], ""),
    "odds-samples": (["odds", "--samples", "1000", "--seed", "1", POSITION], ""),
    "best": (["best", "--seed", "1", POSITION], ""),
    "show": (["show", "-o", "{out}/board.svg", POSITION], ""),
    "chart": (["chart", "-o", "{out}/chart.svg", RECORDS], ""),
    "review": (["review", "--game", "0", RECORDS], ""),
    "batch": (["batch", "-o", "{out}/legs.csv", "{out}/positions.txt"], ""),
    "batch-race": (["batch", "--race", "--seed", "1", "-o", "{out}/race.csv", "{out}/positions.txt"], ""),
    "batch-advice": (["batch", "--advice", "--seed", "1", "-o", "{out}/advice.csv", "{out}/positions.txt"], ""),
    "game-random": (_game("random"), ""),
    "game-heuristic": (_game("heuristic"), ""),
    "game-valuing": (_game("rival"), ""),
    "cards-odds": (["odds", "--seed", "1", CARDS_POSITION], ""),
    "cards-odds-leg": (["odds", "--leg-only", CARDS_POSITION], ""),
    "cards-best": (["best", "--seed", "1", CARDS_POSITION], ""),
    "cards-show": (["show", "-o", "{out}/cards.svg", CARDS_POSITION], ""),
    "cards-game-random": (_game("random", "cards"), ""),
    "cards-game-heuristic": (_game("heuristic", "cards"), ""),
    "cards-game-valuing": (_game("greedy", "cards"), ""),
    # whole games at the table, the check of the union of a game's forms
    # (tests/test_compile_estimates.py); Camel Up Cards: bench_start's game
    "play": (["play", "--seats", "human,advisor,heuristic,random", "--seed", "1"], "odds\nbest\nquit\n"),
    "cards-play": START_COMMANDS["cards"],
    # the bots' turns before the first human's at the table, per family of
    # bot (two of them; with --seed 3 player 1 starts): what compiles before
    # the table shows, the player leaving at once
    "opening-valuing": _opening("rival"),
    "opening-heuristic": _opening("heuristic"),
    "opening-random": _opening("random"),
    # the checks of the union of several bots' forms (tests/test_compile_estimates.py): a game of
    # mixed bots, and the default seats at the table (player 1 starts: three bots move first)
    "game-mixed": (["simulate", "--bots", "rival,heuristic,random,random", "--games", "1", "--seed", "1",
                    "-o", "{out}/games.jsonl"], ""),
    "opening-mixed": (["play", "--seats", "human,rival,heuristic,random", "--seed", "1"], "quit\n"),
}

#: The forms measured in the command's own thread only: a game at the table
#: compiles in the background (its rehearsal) after the point measured.
MAIN_THREAD = {"opening-valuing", "opening-heuristic", "opening-random", "opening-mixed"}

_CHILD = """
import json, os, sys, time
w0, c0 = time.perf_counter(), time.process_time()
import numba  # the import is part of every cold start, not of a group: timed apart
from advisor import warm
from advisor.kernels._jit import dispatcher_of
w1, c1 = time.perf_counter(), time.process_time()
print(json.dumps({"import_cpu_s": c1 - c0, "import_wall_s": w1 - w0}), flush=True)
seen = set()
for name in sys.argv[1:]:
    load0 = os.getloadavg()[0]
    w1, c1 = time.perf_counter(), time.process_time()
    warm._BY_NAME[name].run()
    w2, c2 = time.perf_counter(), time.process_time()
    new = {}
    for kname, kernel in warm.kernels().items():
        for sig in dispatcher_of(kernel).signatures:
            if (kname, str(sig)) not in seen:
                seen.add((kname, str(sig)))
                new.setdefault(kname, []).append(str(sig))
    print(json.dumps({"group": name, "cpu_s": c2 - c1, "wall_s": w2 - w1, "load_before": load0,
                      "load_after": os.getloadavg()[0], "signatures": new}), flush=True)
"""


_FORM_CHILD = """
import contextlib, json, os, sys, threading, time
from advisor.kernels import _watch
PREFIX = "advisor.kernels."
OWN = os.environ.get("BENCH_MAIN_THREAD") == "1"  # the command's own thread only (MAIN_THREAD)

class Meter:
    # each kernel's own processor seconds: a compilation inside another's is charged to itself
    def __init__(self):
        self.stack, self.seconds, self.mark, self.wall, self.since = [], {}, 0.0, 0.0, 0.0
    def charge(self):
        now = time.process_time()
        if self.stack:
            self.seconds[self.stack[-1]] = self.seconds.get(self.stack[-1], 0.0) + now - self.mark
        self.mark = now
    def started(self, name):
        if OWN and threading.current_thread() is not threading.main_thread():
            return
        self.charge()
        if not self.stack:
            self.since = time.perf_counter()
        self.stack.append(name[len(PREFIX):] if name.startswith(PREFIX) else name)
    def finished(self, name):
        if OWN and threading.current_thread() is not threading.main_thread():
            return
        self.charge()
        self.stack.pop()
        if not self.stack:
            self.wall += time.perf_counter() - self.since

meter = Meter()
_watch.add(meter)
from advisor import warm
warm.split_plan = lambda *args, **kwargs: None  # one process: the figure is what the command compiles itself
from advisor.cli import main
load0 = os.getloadavg()[0]
with open(os.devnull, "w") as null, contextlib.redirect_stdout(null):
    code = main(sys.argv[2:])
from advisor.kernels._jit import dispatcher_of
compiled = sum(len(dispatcher_of(k).signatures) for k in warm.kernels().values())
with open(sys.argv[1], "w") as out:
    json.dump({"code": code, "cpu_s": sum(meter.seconds.values()), "wall_s": meter.wall, "load_before": load0,
               "load_after": os.getloadavg()[0], "kernels": meter.seconds, "specializations": compiled}, out)
"""


def measure_form(name: str) -> dict:
    """Run the command form ``name`` of :data:`FORMS` in a fresh process
    with an empty cache; its compile figures."""
    argv, stdin = FORMS[name]
    with tempfile.TemporaryDirectory() as tmp:
        cache, out = os.path.join(tmp, "cache"), os.path.join(tmp, "out")
        os.makedirs(out)
        Path(out, "positions.txt").write_text("\n".join(BOARDS) + "\n")
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env.update(CAMELUP_CACHE_DIR=cache, PYTHONPATH=str(ROOT), BENCH_MAIN_THREAD=str(int(name in MAIN_THREAD)))
        result = os.path.join(tmp, "result.json")
        args = [a.replace("{out}", out) for a in argv]
        proc = subprocess.run([sys.executable, "-c", _FORM_CHILD, result, *args], input=stdin, text=True, env=env,
                              cwd=out, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        if proc.returncode or not os.path.exists(result):
            return {"failed": f"exit status {proc.returncode}: {proc.stderr[-2000:]}"}
        with open(result) as f:
            figures = json.load(f)
    if figures["code"]:
        return {"failed": f"camelup {' '.join(argv)} exited {figures['code']}"}
    return figures


def measure(names: list[str], cache: str | None):
    """Yield the import figures, then each group's, compiled in this order
    in one fresh process (``cache``: an empty folder to fill, default a
    temporary one)."""
    with tempfile.TemporaryDirectory() as tmp:
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env.update(CAMELUP_CACHE_DIR=cache or tmp, PYTHONPATH=str(ROOT))
        proc = subprocess.Popen([sys.executable, "-c", _CHILD, *names], env=env, stdout=subprocess.PIPE, text=True,
                                cwd=tmp)
        for line in proc.stdout:
            yield json.loads(line)
        if proc.wait():
            raise SystemExit(f"the measuring process failed (exit status {proc.returncode})")


def main(argv=None) -> int:
    from advisor.warm import GROUPS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", help="comma-separated group names (default: all)")
    parser.add_argument("--write", action="store_true", help=f"store the figures in {DATA.relative_to(ROOT)}")
    parser.add_argument("--cache", help="an empty folder to compile into (default: a temporary one)")
    parser.add_argument("--forms", help="measure these command forms instead of the groups: comma-separated "
                        "names, or all")
    parser.add_argument("--jobs", type=int, default=1, help="forms measured at once (default 1)")
    parser.add_argument("--alone", action="store_true",
                        help="each group compiled alone, in a fresh process with an empty cache of its own (what "
                             "one half of a split compile costs; --groups a+b,c: a and b together); stored under "
                             "groups_alone")
    args = parser.parse_args(argv)
    if args.forms:
        return _forms_main(args)
    if args.alone:
        return _alone_main(args)
    names = args.groups.split(",") if args.groups else [g.name for g in GROUPS]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"cold compile of the kernel groups in order (one process, empty cache), {cores} cores, "
          f"{platform.processor() or platform.machine()}")
    print(f"{'group':<12} {'cpu s':>7} {'wall s':>7} {'load':>11}  specializations compiled")
    figures = {}
    stream = measure(names, args.cache)
    imports = next(stream)
    for m in stream:
        name = m["group"]
        figures[name] = m
        count = sum(len(v) for v in m["signatures"].values())
        print(f"{name:<12} {m['cpu_s']:7.1f} {m['wall_s']:7.1f} {m['load_before']:5.1f}-{m['load_after']:<5.1f}"
              f"  {count} in {len(m['signatures'])} kernels", flush=True)
        for kernel, sigs in sorted(m["signatures"].items()):
            for sig in sigs:
                print(f"    {kernel}{sig}")
    total = sum(m["cpu_s"] for m in figures.values())
    print(f"total {total:.1f} s cpu; numba + advisor import {imports['import_cpu_s']:.1f} s cpu")
    if args.write:
        record = {**_stored(),
            "about": "Seconds each kernel group adds when the groups compile in order from an empty cache in "
                     "one process (benchmarks/bench_compile.py --write). cpu_s: processor seconds of the "
                     "compilation; wall_s and load: the clock and the 1-minute load average (before, after) "
                     "during the measurement, on a machine with `cores` cores.",
            "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "cores": cores,
            "import_cpu_s": round(imports["import_cpu_s"], 2),
            "groups": {name: {**_timings(m),
                              "specializations": sum(len(v) for v in m["signatures"].values())}
                       for name, m in figures.items()},
        }
        _store(record)
    return 0


def _covers(name: str, signatures: dict) -> list[str]:
    """The other groups whose every kernel the group ``name`` compiled
    alone: in a half with it, they cost nothing more."""
    from advisor.warm import GROUPS

    own = name.split("+")
    return [g.name for g in GROUPS if g.name not in own and all(k in signatures for k in g.kernels)]


def _alone_main(args) -> int:
    """Each group alone from an empty cache: the figure a split compile's
    half costs (a group compiled alone compiles the callees it shares with
    the groups before it too: more than its figure in order)."""
    from advisor.warm import GROUPS

    names = args.groups.split(",") if args.groups else [g.name for g in GROUPS]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"cold compile of each kernel group alone (a fresh process and an empty cache each), {cores} cores")
    print(f"{'group':<12} {'cpu s':>7} {'wall s':>7} {'load':>11}  specializations compiled")
    figures = {}
    for name in names:  # a name "a+b": those groups together, in one process (a half of a split)
        stream = measure(name.split("+"), None)
        next(stream)  # the import, timed apart as in the groups' figures
        parts = list(stream)
        m = {"cpu_s": sum(p["cpu_s"] for p in parts), "wall_s": sum(p["wall_s"] for p in parts),
             "load_before": parts[0]["load_before"], "load_after": parts[-1]["load_after"],
             "signatures": {k: v for p in parts for k, v in p["signatures"].items()}}
        figures[name] = m
        count = sum(len(v) for v in m["signatures"].values())
        covers = _covers(name, m["signatures"])
        print(f"{name:<12} {m['cpu_s']:7.1f} {m['wall_s']:7.1f} {m['load_before']:5.1f}-{m['load_after']:<5.1f}"
              f"  {count} in {len(m['signatures'])} kernels" + (f"; covers {', '.join(covers)}" if covers else ""),
              flush=True)
    if args.write:
        stored = _stored()
        alone = dict(stored.get("groups_alone", {}))
        alone.update({name: {**_timings(m),
                             "covers": _covers(name, m["signatures"]),
                             "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()), "cores": cores}
                      for name, m in figures.items()})
        _store({**stored, "groups_alone_about": "Seconds each kernel group takes compiled alone, in a fresh "
                "process with an empty cache (benchmarks/bench_compile.py --alone --write): what one half of a "
                "split compile costs (advisor.warm.half_seconds).", "groups_alone": alone})
    return 0


def _timings(m: dict) -> dict:
    """A measurement's figures as stored: processor and wall seconds, the
    load average before and after."""
    return {"cpu_s": round(m["cpu_s"], 2), "wall_s": round(m["wall_s"], 2),
            "load": [round(m["load_before"], 2), round(m["load_after"], 2)]}


def _stored() -> dict:
    try:
        return json.loads(DATA.read_text())
    except (OSError, ValueError):
        return {}


def _store(record: dict) -> None:
    tmp = DATA.with_suffix(".json.tmp")
    tmp.write_text(json.dumps(record, indent=1) + "\n")
    tmp.replace(DATA)
    print(f"wrote {DATA.relative_to(ROOT)}")


def _forms_main(args) -> int:
    from concurrent.futures import ThreadPoolExecutor

    names = list(FORMS) if args.forms == "all" else args.forms.split(",")
    unknown = [n for n in names if n not in FORMS]
    if unknown:
        raise SystemExit(f"unknown form(s): {', '.join(unknown)} (forms: {', '.join(FORMS)})")
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"cold compile of each command form (a fresh process and empty cache each, {args.jobs} at once), "
          f"{cores} cores")
    print(f"{'form':<22} {'cpu s':>7} {'wall s':>7} {'load':>11}  specializations  slowest kernels")
    failed = []
    with ThreadPoolExecutor(max(1, args.jobs)) as pool:
        for name, m in zip(names, pool.map(measure_form, names)):
            if "failed" in m:
                failed.append(name)
                print(f"{name:<22} failed: {m['failed']}", flush=True)
                continue
            slowest = sorted(m["kernels"].items(), key=lambda kv: -kv[1])[:3]
            print(f"{name:<22} {m['cpu_s']:7.1f} {m['wall_s']:7.1f} {m['load_before']:5.1f}-{m['load_after']:<5.1f}"
                  f"  {m['specializations']:>15}  " + ", ".join(f"{k} {v:.1f}" for k, v in slowest), flush=True)
            if args.write:  # form by form: an interrupted measurement keeps what it measured
                _store_forms({name: m}, args.jobs)
    return 1 if failed else 0


def _store_forms(measured: dict, jobs: int) -> None:
    """Add the figures of the forms ``measured`` to the data file."""
    record = _stored()
    record["commands_about"] = (
        "Per command form (advisor.warm.forms; the command run: benchmarks/bench_compile.py FORMS), one run "
        "from an empty cache in a fresh process (benchmarks/bench_compile.py --forms all --write): cpu_s, "
        "wall_s and load as for the groups; kernels: the processor seconds of each kernel's own compilation "
        "(the compilations of the kernels it calls charged to them); jobs: the forms measured at once.")
    record["commands"] = {**record.get("commands", {}), **{
        name: {**_timings(m),
               "specializations": m["specializations"], "jobs": max(1, jobs),
               "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
               "kernels": {k: round(v, 3) for k, v in sorted(m["kernels"].items())}}
        for name, m in measured.items()}}
    _store(record)

if __name__ == "__main__":
    sys.exit(main())
