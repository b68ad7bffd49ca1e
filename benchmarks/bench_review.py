"""Game review: one game on one core, and a file of games on every core.

    python benchmarks/bench_review.py [--games N] [--records FILE] [--precision P] [--no-cold]

Prints:

* cold start (unless ``--no-cold``): the review of the 60-turn game in a
  fresh process, empty numba cache (compile) and cached kernels (load);
* warm, one process on one thread: the review of a 4-player game of about
  60 turns (EV-greedy and heuristic bots, seeds searched from 0 and
  printed) at the ``camelup best`` default precision 0.002, with the
  details of every decision (the default for one game) and without;
* a file of N games (``--records``, or N games simulated here between
  advisor, rival, heuristic and random bots, seed 14) reviewed on every
  core through :func:`advisor.reviews.review.review_records` at ``--precision``
  (default 0.002), start-up included: seconds, games per second, seconds
  per decision.

The load average is printed first: on a shared machine every figure slows
with it, so the CPU time (one thread: the time on an idle core) is
printed beside the wall time.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from _common import ROOT, print_cold, timed  # noqa: E402

sys.path.insert(0, str(ROOT))


def sixty_turn_game():
    from advisor.simulate.games import game_seed, play_game

    for i in range(200):
        record = play_game(["advisor", "heuristic", "advisor", "heuristic"], "second", game_seed(60, i))
        if 58 <= record[-1]["turns"] <= 62:
            return i, record
    raise RuntimeError("no game of about 60 turns in 200 seeds")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--records", help="a file of game records to review instead of simulating")
    parser.add_argument("--precision", type=float, default=0.002)
    parser.add_argument("--no-cold", action="store_true")
    args = parser.parse_args()
    print(f"load average at start: {os.getloadavg()[0]:.2f} on {os.cpu_count()} cores")

    from advisor._tools.jsonio import dumps
    from advisor.reviews.review import review_records

    index, record = sixty_turn_game()
    turns = record[-1]["turns"]
    print(f"\nthe game: advisor,heuristic,advisor,heuristic, game_seed(60, {index}), {turns} turns")
    if not args.no_cold:
        with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as fh:
            fh.writelines(dumps(e) + "\n" for e in record)
        print_cold(timed(f"from advisor.game import read_records\nfrom advisor.reviews.review import review\n"
                         f"review(read_records({fh.name!r})[0])"), f"review of the {turns}-turn game")
        os.unlink(fh.name)

    print(f"\nwarm (kernels cached and loaded, a fresh process each: no figure of this game memoized), "
          f"one thread, precision 0.002:")
    with tempfile.NamedTemporaryFile("w", suffix=".jsonl", delete=False) as fh:
        fh.writelines(dumps(e) + "\n" for e in record)
    for details in (True, False):
        snippet = (f"import time, numba\nnumba.set_num_threads(1)\n"
                   f"from advisor.game import read_records\nfrom advisor.reviews.review import review\n"
                   f"from advisor.simulate.games import play_game\n"
                   f"review(play_game(['heuristic'] * 4, 'second', 1)[:12])  # loads the kernels\n"
                   f"record = read_records({fh.name!r})[0]\n"
                   f"t0, c0 = time.perf_counter(), time.process_time()\nreview(record, details={details})\n"
                   f"print(time.process_time() - c0, time.perf_counter() - t0)\n")
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        out = subprocess.run([sys.executable, "-c", snippet], env=env, check=True, capture_output=True, text=True)
        cpu, took = map(float, out.stdout.split()[-2:])
        print(f"  {turns}-turn game, details {'on ' if details else 'off'}   {took:7.2f} s wall, {cpu:6.2f} s CPU "
              f"({1000 * cpu / turns:.0f} ms CPU per decision)")
    os.unlink(fh.name)

    with tempfile.TemporaryDirectory() as tmp:
        path = args.records
        if path is None:
            from advisor.simulate.games import simulate_to_file

            path = str(Path(tmp) / "games.jsonl")
            start = time.perf_counter()
            simulate_to_file(["advisor", "rival", "heuristic", "random"], args.games, path, seed=14)
            print(f"\n{args.games} games simulated in {time.perf_counter() - start:.1f} s")
        start, cpu = time.perf_counter(), os.times()
        games = decisions = 0
        for done in review_records(path, precision=args.precision, details=False, progress=sys.stderr.isatty()):
            games += 1
            decisions += 0 if done.review is None else len(done.review.decisions)
        took = time.perf_counter() - start
        end = os.times()
        cpu = (end.user + end.children_user + end.system + end.children_system
               - cpu.user - cpu.children_user - cpu.system - cpu.children_system)
    print(f"CPU time of this process and its workers: {cpu:.1f} s ({cpu / max(games, 1):.2f} s per game)")
    print(f"\n{games} games ({decisions:,} decisions) reviewed on every core ({os.cpu_count()}), precision "
          f"{args.precision}, details off, start-up included: {took:.1f} s = {games / took:.2f} games/s, "
          f"{1000 * took / max(decisions, 1):.1f} ms per decision")
    print(f"load average at the end: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
