"""The web server (`camelup serve`) under load, on loopback.

    python benchmarks/bench_web.py [--clients 20] [--requests 1000] [--cold]

Starts `camelup serve --port 0` as a process (one worker per core in each
lane), then:

* start-up: seconds until the server says it is ready (kernels loaded from
  the cache; `--cold` also measures it with an empty numba cache, i.e.
  compiling every kernel);
* the first request after start-up and warm single-request figures: leg
  odds plus the advice valued from the leg alone at 6-dice leg starts (the
  first two lines of /api/analyse; target p95 < 100 ms), and the full
  advice with overall cards on the piles streamed (time to the last line,
  against `best_moves` in this process on the same states: the CLI's
  figure);
* leg odds alone under `--clients` concurrent clients (p50/p95), and the
  page-vs-API latency of Camel Up Cards moves (`--cards-turns` moves of a
  human against margin, greedy and shark bots): each move sent alone (the
  API), then sent as the page sends it, while the page's own requests for
  the position before the move (its analysis stream and a batch of curve
  boards) are in flight and are dropped at the move (target: within 0.3 s);
* a bounded load run: `--clients` concurrent clients send `--requests`
  mixed requests (leg odds, quick advice at leg starts, full advice, bad
  input) as fast as answers come: throughput, p50/p95/p99 latency per kind,
  errors (only the intended 400s are allowed), and the memory (RSS) of the
  server and its workers before and after.

Only 127.0.0.1 is contacted; the run stops after `--max-seconds` at most.
"""

from __future__ import annotations

import argparse
import http.client
import json
import os
import re
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT  # noqa: E402

sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402


# --------------------------------------------------------------------------
# The server
# --------------------------------------------------------------------------


def start_server(env_extra: dict | None = None) -> tuple[subprocess.Popen, int, float]:
    env = {**os.environ, "PYTHONPATH": str(ROOT), "PYTHONUNBUFFERED": "1", **(env_extra or {})}
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "advisor.cli", "serve", "--port", "0"], cwd=ROOT, env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    for line in proc.stdout:
        m = re.search(r"ready at http://127\.0\.0\.1:(\d+)/", line)
        if m:
            return proc, int(m.group(1)), time.perf_counter() - t0
    raise SystemExit("the server did not start:\n" + proc.stderr.read())


def stop_server(proc: subprocess.Popen) -> None:
    proc.terminate()
    proc.communicate(timeout=60)


def rss_mb(pid: int) -> tuple[float, float]:
    """Resident memory (MB) of the server process and of its workers."""
    def rss(p: int) -> float:
        try:
            text = Path(f"/proc/{p}/status").read_text()
        except OSError:
            return 0.0
        m = re.search(r"VmRSS:\s+(\d+) kB", text)
        return int(m.group(1)) / 1024 if m else 0.0

    children = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                fields = (entry / "stat").read_text().rsplit(")", 1)[1].split()
            except OSError:
                continue
            if int(fields[1]) == pid:
                children.append(int(entry.name))
    return rss(pid), sum(rss(c) for c in children)


# --------------------------------------------------------------------------
# Requests
# --------------------------------------------------------------------------


class Client:
    """One keep-alive connection to the server."""

    def __init__(self, port: int):
        self.port = port
        self.conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)

    def post(self, path: str, body: dict, until: str | None = None) -> tuple[int, float, dict | None]:
        """Status, seconds and the answer; for /api/analyse the seconds until
        the line of stage ``until`` (the stream is read to its end).  A
        keep-alive connection the server closed while idle is opened again
        (once, before any answer)."""
        data = json.dumps(body).encode()
        for attempt in (0, 1):
            t0 = time.perf_counter()
            try:
                self.conn.request("POST", path, data, {"Content-Type": "application/json"})
                response = self.conn.getresponse()
            except (ConnectionError, http.client.RemoteDisconnected) as exc:
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
                if attempt:
                    return 0, time.perf_counter() - t0, {"error": str(exc)}
                continue
            try:
                if until is None:
                    raw = response.read()
                    return response.status, time.perf_counter() - t0, json.loads(raw)
                seconds = None
                last = None
                for line in response:
                    if line.strip():
                        last = json.loads(line)
                        if last["stage"] == until and seconds is None:
                            seconds = time.perf_counter() - t0
                        if last["stage"] == "error":
                            return 500, time.perf_counter() - t0, last
                return response.status, seconds if seconds is not None else time.perf_counter() - t0, last
            except (OSError, http.client.HTTPException, ValueError) as exc:
                self.conn.close()
                self.conn = http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)
                return 0, time.perf_counter() - t0, {"error": str(exc)}
        raise AssertionError("unreachable")


def leg_starts(n: int, seed: int) -> list[str]:
    from advisor import setup_position

    rng = np.random.default_rng(seed)
    return [str(setup_position("second", rng)) for _ in range(n)]


def cards_states(boards: list[str]) -> list[dict]:
    """bench_advice.py's 'cards on the piles' case: the player holds leg
    tiles and has overall cards on both piles."""
    return [{"board": b + " legtiles:B322,G322",
             "players": [{"leg_tiles": ["B5", "G5"], "overall_cards": "GPR"}, {}, {}, {}],
             "winner_pile": [{"player": 1}, {"player": 0, "colour": "B"}],
             "loser_pile": [{"player": 0, "colour": "Y"}]} for b in boards]


def pct(values: list[float], q: float) -> float:
    return float(np.percentile(values, q)) if values else float("nan")


def ms(x: float) -> str:
    return f"{1000 * x:8.1f}"


# --------------------------------------------------------------------------
# The run
# --------------------------------------------------------------------------


def single_figures(port: int, boards: list[str], full: list[dict]) -> None:
    client = Client(port)
    quick = []
    for i, b in enumerate(boards):
        status, seconds, last = client.post("/api/analyse", {"board": b, "race": False, "seed": i},
                                            until="advice_leg")
        assert status == 200 and last["stage"] == "done", last
        quick.append(seconds)
    leg = []
    for b in boards:
        status, seconds, _ = client.post("/api/odds", {"board": b, "leg_only": True})
        assert status == 200
        leg.append(seconds)
    print(f"\nWarm, one request at a time, {len(boards)} 6-dice leg starts (wall time on loopback):")
    print(f"  leg odds (/api/odds, leg_only)               p50 {ms(pct(leg, 50))} ms   p95 {ms(pct(leg, 95))} ms")
    print(f"  leg odds + advice from the leg (/api/analyse, "
          f"first two lines)  p50 {ms(pct(quick, 50))} ms   p95 {ms(pct(quick, 95))} ms"
          f"   target p95 < 100 ms: {'met' if pct(quick, 95) < 0.1 else 'MISSED'}")

    from advisor import GameState, best_moves

    served, local = [], []
    for i, st in enumerate(full):
        status, seconds, last = client.post("/api/analyse", {"state": st, "seed": i}, until="advice")
        assert status == 200 and last["stage"] == "done", last
        served.append(seconds)
        t0 = time.perf_counter()
        best_moves(GameState.from_json(st), seed=i)
        local.append(time.perf_counter() - t0)
    print(f"  full advice, overall cards on the piles ({len(full)} states), streamed to the last stage:"
          f" median {statistics.median(served):.2f} s (max {max(served):.2f});"
          f" best_moves in one process (the CLI): median {statistics.median(local):.2f} s (max {max(local):.2f})")


def load_run(port: int, clients: int, total: int, boards: list[str], max_seconds: float, seed: int) -> None:
    rng = np.random.default_rng(seed)
    kinds = rng.choice(["leg odds", "quick advice", "full advice", "bad input"], size=total, p=[0.35, 0.35, 0.1, 0.2])
    jobs = list(enumerate(kinds))
    lock = threading.Lock()
    results: dict[str, list[float]] = {k: [] for k in ("leg odds", "quick advice", "full advice", "bad input")}
    errors: list[str] = []
    deadline = time.perf_counter() + max_seconds

    def worker() -> None:
        client = Client(port)
        while True:
            with lock:
                if not jobs or time.perf_counter() > deadline:
                    return
                i, kind = jobs.pop()
            board = boards[i % len(boards)]
            if kind == "leg odds":
                status, seconds, body = client.post("/api/odds", {"board": board, "leg_only": True})
                ok = status == 200
            elif kind == "quick advice":
                status, seconds, body = client.post("/api/analyse", {"board": board, "race": False, "seed": i},
                                                    until="advice_leg")
                ok = status == 200 and body["stage"] == "done"
            elif kind == "full advice":
                status, seconds, body = client.post("/api/best", {"board": board, "seed": i})
                ok = status == 200 and "moves" in body
            else:
                status, seconds, body = client.post("/api/odds", {"board": board + " +1"})  # no tile on space 1
                ok = status == 400 and "error" in body
            with lock:
                results[kind].append(seconds)
                if not ok:
                    errors.append(f"{kind}: {status} {str(body)[:120]}")

    threads = [threading.Thread(target=worker) for _ in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    done = sum(len(v) for v in results.values())
    print(f"\nLoad: {clients} concurrent clients, {done} of {total} mixed requests in {wall:.1f} s: "
          f"{done / wall:.1f} requests/s; errors: {len(errors)} (the intended 400s of bad input not counted)")
    print(f"  {'kind':<14}{'count':>6}{'p50 ms':>10}{'p95 ms':>10}{'p99 ms':>10}")
    for kind, values in results.items():
        print(f"  {kind:<14}{len(values):>6}{ms(pct(values, 50)):>10}{ms(pct(values, 95)):>10}{ms(pct(values, 99)):>10}")
    for e in errors[:10]:
        print("  error:", e)


def leg_odds_under_load(port: int, clients: int, boards: list[str], per_client: int) -> None:
    """``clients`` concurrent clients, each sending ``per_client`` leg-odds
    requests one after the other."""
    times: list[float] = []
    lock = threading.Lock()

    def worker(k: int) -> None:
        client = Client(port)
        for i in range(per_client):
            status, seconds, _ = client.post("/api/odds", {"board": boards[(k * per_client + i) % len(boards)],
                                                          "leg_only": True})
            assert status == 200, status
            with lock:
                times.append(seconds)

    threads = [threading.Thread(target=worker, args=(k,)) for k in range(clients)]
    t0 = time.perf_counter()
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    wall = time.perf_counter() - t0
    print(f"\nLeg odds alone, {clients} concurrent clients x {per_client} requests ({len(times)} in {wall:.1f} s): "
          f"p50 {ms(pct(times, 50))} ms   p95 {ms(pct(times, 95))} ms")


def _cards_move(view: dict) -> str:
    """The human's move: their deck build (hand, show, deck, discard in the
    order dealt), else the reveal, else the first legal action."""
    if view.get("build"):
        b = view["build"]
        cards = [b["dealt"][i:i + 2] for i in range(0, len(b["dealt"]), 2)]
        hand, shown = cards[:1], cards[1:1 + b["shown"]]
        down = cards[1 + b["shown"]:1 + b["shown"] + b["down"]]
        rest = cards[1 + b["shown"] + b["down"]:]
        return "build:" + "/".join("".join(part) for part in (hand, shown, down, rest))
    legal = view["legal"]
    return "reveal" if "reveal" in legal else legal[0]


def _page_requests(port: int, view: dict) -> list[threading.Thread]:
    """What the page has in flight while its user decides: the analysis of
    the position shown and a batch of the curve's boards.  Each is read to
    its end or until its connection is closed by :func:`cards_action_latency`
    (the page aborts them when the move is sent)."""
    conns: list[http.client.HTTPConnection] = []

    def fire(path: str, body: dict) -> threading.Thread:
        conn = http.client.HTTPConnection("127.0.0.1", port, timeout=120)
        conns.append(conn)

        def go() -> None:
            try:
                conn.request("POST", path, json.dumps(body).encode(), {"Content-Type": "application/json"})
                conn.getresponse().read()
            except (OSError, http.client.HTTPException, AttributeError):
                pass

        t = threading.Thread(target=go, daemon=True)
        t.start()
        return t

    threads = []
    if view.get("position"):
        threads.append(fire("/api/analyse", {"board": view["position"], "step": view.get("step") or "turn",
                                             "seed": "1"}))
    boards = view.get("curve_boards") or []
    if boards:
        threads.append(fire("/api/curve", {"boards": boards[-6:]}))
    threads.append(conns)  # type: ignore[arg-type]
    return threads


def cards_action_latency(port: int, turns: int, seed: int) -> None:
    """Camel Up Cards moves: the API alone against the page's pattern."""
    seats = ["human", "margin", "greedy", "shark"]
    figures: dict[str, list[float]] = {"api": [], "page": []}
    for how in ("api", "page"):
        client = Client(port)
        status, _, view = client.post("/api/game/new", {"edition": "cards", "players": 4, "seats": seats,
                                                        "seed": str(seed)})
        assert status == 200, view
        for _ in range(turns):
            if view.get("finished"):
                break
            action = _cards_move(view)
            inflight = _page_requests(port, view) if how == "page" else []
            if inflight:
                time.sleep(0.3)  # the user reads the advice a moment
                for conn in inflight.pop():  # the page aborts them as the move is sent
                    if conn.sock is not None:
                        conn.sock.shutdown(2)
                    conn.close()
            status, seconds, view = client.post("/api/game/act", {"record": view["record"], "action": action})
            assert status == 200, view
            figures[how].append(seconds)
            for t in inflight:
                t.join(30)
    api, page = figures["api"], figures["page"]
    gap = pct(page, 50) - pct(api, 50)
    print(f"\nCamel Up Cards moves against margin, greedy and shark bots (the bots' answers included), "
          f"{len(api)} moves each:")
    print(f"  through the API alone        p50 {ms(pct(api, 50))} ms   p95 {ms(pct(api, 95))} ms")
    print(f"  as the page sends them       p50 {ms(pct(page, 50))} ms   p95 {ms(pct(page, 95))} ms"
          f"   page - API at p50 {1000 * gap:.0f} ms (target within 300 ms: {'met' if gap <= 0.3 else 'MISSED'})")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--clients", type=int, default=20)
    parser.add_argument("--requests", type=int, default=1000, help="requests of the load run (0: no load run)")
    parser.add_argument("--max-seconds", type=float, default=600)
    parser.add_argument("--seed", type=int, default=2026)
    parser.add_argument("--cold", action="store_true", help="also start once with an empty numba cache")
    parser.add_argument("--cards-turns", type=int, default=12, help="Camel Up Cards moves timed each way (0: none)")
    parser.add_argument("--leg-requests", type=int, default=25, help="leg-odds requests per client (0: none)")
    args = parser.parse_args()
    import numba

    print(f"camelup-advisor web benchmark: numba {numba.__version__}, {os.cpu_count()} cores, seed {args.seed}; "
          f"load average before the run {os.getloadavg()[0]:.1f} (other work on the machine slows every figure)")
    if args.cold:
        with tempfile.TemporaryDirectory() as cache:
            proc, _, seconds = start_server({"NUMBA_CACHE_DIR": cache})
            stop_server(proc)
        print(f"Start-up with an empty numba cache (every kernel compiled): {seconds:.1f} s")
    proc, port, seconds = start_server()
    try:
        print(f"Start-up with the kernels cached, until 'ready': {seconds:.1f} s")
        main_mb, workers_mb = rss_mb(proc.pid)
        boards = leg_starts(200, args.seed)
        first = Client(port).post("/api/analyse", {"board": boards[0], "race": False, "seed": 0}, until="advice_leg")[1]
        print(f"First request after start-up (leg odds + advice from the leg): {1000 * first:.1f} ms")
        full = cards_states(leg_starts(5, args.seed + 1))
        single_figures(port, boards, full)
        if args.leg_requests:
            leg_odds_under_load(port, args.clients, boards, args.leg_requests)
        if args.cards_turns:
            cards_action_latency(port, args.cards_turns, args.seed)
        before = rss_mb(proc.pid)
        if args.requests:
            load_run(port, args.clients, args.requests, boards, args.max_seconds, args.seed)
        after = rss_mb(proc.pid)
        print(f"\nLoad average at the end {os.getloadavg()[0]:.1f}")
        print(f"Memory (RSS): at start-up server {main_mb:.0f} MB + workers {workers_mb:.0f} MB; "
              f"before the load run {before[0]:.0f} + {before[1]:.0f} MB; after it {after[0]:.0f} + {after[1]:.0f} MB")
    finally:
        stop_server(proc)


if __name__ == "__main__":
    main()
