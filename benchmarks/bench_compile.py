"""Compile time of each kernel group from an empty cache, and the kernel
specializations each group compiles.

    python benchmarks/bench_compile.py [--groups leg,race] [--write]

Each group of :data:`advisor.warm.GROUPS` is compiled in a fresh process
with an empty kernel cache (``CAMELUP_CACHE_DIR`` a new temporary folder),
alone: that is what a command needing only that group pays on its first
run.  For each group it prints the seconds of processor time (the
compilation runs on one core, so this hardly depends on how busy the
machine is), the wall-clock seconds, the load average (``os.getloadavg``)
before and after, and every signature each kernel was compiled for.

``--write`` stores the figures in ``advisor/data/compile_seconds.json``,
which the compile notice (``compiling kernels (first run only, about N s)``)
and the page's readiness read: the estimate is the processor seconds of the
cold groups, stretched by the machine's load at the time (see
:func:`advisor.warm.estimate`).
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
DATA = ROOT / "advisor" / "data" / "compile_seconds.json"

_CHILD = """
import json, os, sys, time
load0 = os.getloadavg()[0]
w0, c0 = time.perf_counter(), time.process_time()
import numba  # the import is part of every cold start, not of a group: timed apart
from advisor import warm
from advisor.kernels._jit import dispatcher_of
w1, c1 = time.perf_counter(), time.process_time()
group = warm._BY_NAME[sys.argv[1]]
group.run()
w2, c2 = time.perf_counter(), time.process_time()
sigs = {}
for name, kernel in warm.kernels().items():
    d = dispatcher_of(kernel)
    if d.signatures:
        sigs[name] = [str(s) for s in d.signatures]
print(json.dumps({"cpu_s": c2 - c1, "wall_s": w2 - w1, "import_cpu_s": c1 - c0, "import_wall_s": w1 - w0,
                  "load_before": load0, "load_after": os.getloadavg()[0], "signatures": sigs}))
"""


def measure(name: str) -> dict:
    with tempfile.TemporaryDirectory() as cache:
        env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
        env.update(CAMELUP_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
        out = subprocess.run([sys.executable, "-c", _CHILD, name], env=env, check=True, capture_output=True,
                             text=True, cwd=cache).stdout
    return json.loads(out.splitlines()[-1])


def main(argv=None) -> int:
    from advisor.warm import GROUPS

    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--groups", help="comma-separated group names (default: all)")
    parser.add_argument("--write", action="store_true", help=f"store the figures in {DATA.relative_to(ROOT)}")
    args = parser.parse_args(argv)
    names = args.groups.split(",") if args.groups else [g.name for g in GROUPS]
    cores = len(os.sched_getaffinity(0)) if hasattr(os, "sched_getaffinity") else os.cpu_count()
    print(f"cold compile per kernel group (empty cache each), {cores} cores, {platform.processor() or platform.machine()}")
    print(f"{'group':<12} {'cpu s':>7} {'wall s':>7} {'load':>11}  specializations")
    figures = {}
    for name in names:
        m = measure(name)
        figures[name] = m
        count = sum(len(v) for v in m["signatures"].values())
        print(f"{name:<12} {m['cpu_s']:7.1f} {m['wall_s']:7.1f} {m['load_before']:5.1f}-{m['load_after']:<5.1f}"
              f"  {count} in {len(m['signatures'])} kernels", flush=True)
        for kernel, sigs in sorted(m["signatures"].items()):
            for sig in sigs:
                print(f"    {kernel}{sig}")
    imports = [m["import_cpu_s"] for m in figures.values()]
    print(f"numba + advisor import: {min(imports):.1f} s cpu (min over runs)")
    if args.write:
        record = {
            "about": "Seconds to compile each kernel group from an empty cache, alone in a fresh process "
                     "(benchmarks/bench_compile.py --write). cpu_s: processor seconds of the compilation; "
                     "wall_s and load: the clock and the 1-minute load average during the measurement.",
            "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "cores": cores,
            "import_cpu_s": round(min(imports), 2),
            "groups": {name: {"cpu_s": round(m["cpu_s"], 2), "wall_s": round(m["wall_s"], 2),
                              "load": [round(m["load_before"], 2), round(m["load_after"], 2)],
                              "specializations": sum(len(v) for v in m["signatures"].values())}
                       for name, m in figures.items()},
        }
        if DATA.exists():  # keep the groups not measured this time
            old = json.loads(DATA.read_text())
            record["groups"] = {**old.get("groups", {}), **record["groups"]}
        tmp = DATA.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(record, indent=1) + "\n")
        tmp.replace(DATA)
        print(f"wrote {DATA.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
