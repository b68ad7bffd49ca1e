"""Compile time of each kernel group from an empty cache, and the kernel
specializations each group compiles.

    python benchmarks/bench_compile.py [--groups leg,race] [--write]

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
DATA = ROOT / "advisor" / "data" / "compile_seconds.json"

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
    args = parser.parse_args(argv)
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
        record = {
            "about": "Seconds each kernel group adds when the groups compile in order from an empty cache in "
                     "one process (benchmarks/bench_compile.py --write). cpu_s: processor seconds of the "
                     "compilation; wall_s and load: the clock and the 1-minute load average (before, after) "
                     "during the measurement, on a machine with `cores` cores.",
            "measured": time.strftime("%Y-%m-%d %H:%M UTC", time.gmtime()),
            "cores": cores,
            "import_cpu_s": round(imports["import_cpu_s"], 2),
            "groups": {name: {"cpu_s": round(m["cpu_s"], 2), "wall_s": round(m["wall_s"], 2),
                              "load": [round(m["load_before"], 2), round(m["load_after"], 2)],
                              "specializations": sum(len(v) for v in m["signatures"].values())}
                       for name, m in figures.items()},
        }
        tmp = DATA.with_suffix(".json.tmp")
        tmp.write_text(json.dumps(record, indent=1) + "\n")
        tmp.replace(DATA)
        print(f"wrote {DATA.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
