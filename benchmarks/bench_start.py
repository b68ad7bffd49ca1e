"""Start to first answer, cold (empty kernel cache) and warm, and the memory
of each process.

    python benchmarks/bench_start.py [--only odds,best,cards,serve] [--warm-only] [--runs N]

For each command, first in a fresh empty kernel cache (``CAMELUP_CACHE_DIR``
a new temporary folder: what a first run after ``pip install`` pays), then
again with the cache it left (a later run: the median of ``--runs`` runs,
default 5, with the fastest and slowest; serve once):

* ``odds``: ``camelup odds --seed 1 POSITION`` to its exit;
* ``best``: ``camelup best --seed 1 POSITION`` to its exit;
* ``cards``: ``camelup play --edition cards`` on the README's input (deck
  building, reveal, ``best``, quit) to its exit;
* ``serve``: ``camelup serve --port 0`` (one worker per core per lane) to
  the first answer of ``POST /api/odds`` (leg odds), then to
  ``GET /api/status`` saying everything is ready.

Each figure comes with the load average before and after (the machine may
be shared), the compile estimate the command announced against the time it
compiled (``compiling kernels (first run only, about N s)`` against
``kernels compiled in M s``; for serve the leg odds' estimate in
``/api/status`` against the time they took), and the peak memory (RSS) of
the command's process, or for serve the RSS of the server's process and of
each of its children after the first answer and once everything is ready.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
POSITION = "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx"
CARDS_INPUT = "B1\nO1\nW1 W1\nleg:Y\nreveal\nbest\nquit\n"
COMMANDS = {
    "odds": (["odds", "--seed", "1", POSITION], ""),
    "best": (["best", "--seed", "1", POSITION], ""),
    "cards": (["play", "--edition", "cards", "--seats", "human,greedy,heuristic,random", "--seed", "1"], CARDS_INPUT),
}


def load() -> float:
    return os.getloadavg()[0]


def env_for(cache: str) -> dict:
    env = {k: v for k, v in os.environ.items() if k != "NUMBA_CACHE_DIR"}
    env.update(CAMELUP_CACHE_DIR=cache, PYTHONPATH=str(ROOT))
    return env


def _estimate(stderr: str) -> tuple[float | None, float | None]:
    about = re.search(r"first run only, about (\d+) s", stderr)
    took = re.search(r"kernels compiled in (\d+) s", stderr)
    return (float(about.group(1)) if about else None), (float(took.group(1)) if took else None)


def run_command(name: str, cache: str) -> dict:
    argv, stdin = COMMANDS[name]
    before = load()
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "advisor.cli", *argv], stdin=subprocess.PIPE,
                            stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, env=env_for(cache),
                            cwd=cache)
    proc.stdin.write(stdin)
    proc.stdin.close()
    stderr = proc.stderr.read()
    _, status, usage = os.wait4(proc.pid, 0)  # this child's own peak RSS
    proc.returncode = os.waitstatus_to_exitcode(status)
    seconds = time.perf_counter() - start
    about, took = _estimate(stderr)
    return {"seconds": seconds, "load": (before, load()), "about": about, "compiled": took, "code": proc.returncode,
            "peak_rss_mb": usage.ru_maxrss / 1024}


def _median(results: list[dict]) -> dict:
    """The run of median time among ``results`` (an odd count: the middle
    one), with the count, fastest and slowest times, and the load before the
    first and after the last."""
    ranked = sorted(results, key=lambda r: r["seconds"])
    out = dict(ranked[(len(ranked) - 1) // 2])
    out.update(runs=len(ranked), fastest=ranked[0]["seconds"], slowest=ranked[-1]["seconds"],
               load=(results[0]["load"][0], results[-1]["load"][1]))
    return out


def _rss(pid: int) -> float:
    try:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return 0.0


def _children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(c) for c in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def _memory(pid: int) -> dict:
    kids = _children(pid)
    return {"server_mb": round(_rss(pid), 1), "children_mb": [round(_rss(k), 1) for k in kids]}


def _get(url: str) -> dict:
    with urllib.request.urlopen(url, timeout=60) as res:
        return json.loads(res.read())


def run_serve(cache: str) -> dict:
    before = load()
    start = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "advisor.cli", "serve", "--port", "0"], stdout=subprocess.PIPE,
                            stderr=subprocess.DEVNULL, text=True, env=env_for(cache), cwd=cache)
    try:
        url = None
        for line in proc.stdout:
            found = re.search(r"ready at (http://\S+)", line)
            if found:
                url = found.group(1)
                break
        page = time.perf_counter() - start
        status = _get(url + "api/status")
        leg_about = status["preparing"].get("leg", 0.0)
        body = json.dumps({"board": POSITION, "leg_only": True}).encode()
        req = urllib.request.Request(url + "api/odds", data=body, headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(req, timeout=1200) as res:
            res.read()
        first = time.perf_counter() - start
        at_first = _memory(proc.pid)
        while not _get(url + "api/status")["ready"]:
            time.sleep(1)
        everything = time.perf_counter() - start
        return {"page": page, "seconds": first, "all_ready": everything, "load": (before, load()),
                "about": leg_about or None, "compiled": first - page if leg_about else None,
                "memory_first": at_first, "memory_ready": _memory(proc.pid)}
    finally:
        proc.terminate()
        proc.wait(30)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--only", help="comma-separated: odds,best,cards,serve (default: all)")
    parser.add_argument("--warm-only", action="store_true", help="skip the cold runs (one warm-up first)")
    parser.add_argument("--runs", type=int, default=5, help="warm runs of each command but serve (median; default 5)")
    args = parser.parse_args(argv)
    names = args.only.split(",") if args.only else ["odds", "best", "cards", "serve"]
    print(f"start to first answer; {os.cpu_count()} cores; load = 1-minute load average before-after")
    for name in names:
        with tempfile.TemporaryDirectory() as cache:
            runs = ["warm"] if args.warm_only else ["cold", "warm"]
            if args.warm_only:
                subprocess.run([sys.executable, "-m", "advisor.cli", "warmup"], env=env_for(cache), cwd=cache,
                               check=True, capture_output=True)
            for kind in runs:
                if name == "serve":
                    r = run_serve(cache)
                elif kind == "warm":
                    r = _median([run_command(name, cache) for _ in range(max(1, args.runs))])
                else:
                    r = run_command(name, cache)
                line = f"{name:<6} {kind:<5} {r['seconds']:7.2f} s  load {r['load'][0]:5.1f}-{r['load'][1]:<5.1f}"
                if r.get("runs", 1) > 1:
                    line += f"  median of {r['runs']} (fastest {r['fastest']:.2f} s, slowest {r['slowest']:.2f} s)"
                if r.get("about") and r.get("compiled"):
                    line += (f"  estimate {r['about']:.0f} s vs {r['compiled']:.0f} s compiling "
                             f"({100 * (r['about'] / r['compiled'] - 1):+.0f}%)")
                if name == "serve":
                    line += (f"  page {r['page']:.1f} s, everything ready {r['all_ready']:.1f} s; RSS at first "
                             f"answer {r['memory_first']}, when ready {r['memory_ready']}")
                else:
                    line += f"  peak RSS {r['peak_rss_mb']:.0f} MB (exit {r['code']})"
                print(line, flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
