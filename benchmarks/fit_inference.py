"""Fit and measure the inference of face-down overall cards
(:mod:`advisor.bots.inference`).

    python benchmarks/fit_inference.py GAMES.jsonl --fit 0:400 --test 1400:1600 [--write]

reads the games of GAMES.jsonl (simulated: every card's colour is in the
record), fits the coefficients on the games ``--fit A:B`` (by index) and
measures top-1 accuracy and log loss per pile on the held-out games
``--test C:D`` against the default model (the race odds at placement, and
the same with the distinct-colour condition).  ``--write`` stores the
coefficients in ``advisor/data/inference.json`` (written beside, then
renamed).  The figures in the documentation (docs/) come from

    python benchmarks/fit_inference.py /work/data/games2000.jsonl --fit 0:400 --test 1400:1600 --write

(games2000.jsonl: ``camelup simulate --bots advisor,rival,heuristic,random
--games 2000 --seed 14``).
"""

from __future__ import annotations

import argparse
import json
import sys
import time
from pathlib import Path

import numpy as np
from tqdm import tqdm

from advisor._tools.files import atomic_output
from advisor.game import iter_records
from advisor.bots.inference import DEFAULT_BETA, FEATURES, evaluate, fit, placements, stored_beta

OUT = Path(__file__).resolve().parent.parent / "advisor" / "data" / "inference.json"


def _span(text: str) -> range:
    a, b = text.split(":")
    return range(int(a), int(b))


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("records")
    parser.add_argument("--fit", type=_span, default=_span("0:400"))
    parser.add_argument("--test", type=_span, default=_span("1400:1600"))
    parser.add_argument("--write", action="store_true", help="store the fitted coefficients in the package")
    args = parser.parse_args(argv)
    wanted = set(args.fit) | set(args.test)
    games: dict[int, list] = {}
    racing = None
    started = time.perf_counter()
    with tqdm(total=len(wanted), desc="games", file=sys.stderr) as bar:
        for k, (_, record) in enumerate(iter_records(args.records)):
            if k in wanted:
                games[k] = placements(record)
                racing = racing or ("BGOYW" if record[0]["edition"] == "first" else "BGPRY")
                bar.update()
            if k >= max(wanted):
                break
    print(f"features of {len(games)} games: {time.perf_counter() - started:.0f} s", file=sys.stderr)
    train = [games[k] for k in args.fit if k in games]
    test = [games[k] for k in args.test if k in games]
    beta = fit(train, racing)
    print("coefficients:", ", ".join(f"{f} {b:+.3f}" for f, b in zip(FEATURES, beta)))
    report = evaluate(test, racing, {"default (race odds)": None, "default + distinct colours": DEFAULT_BETA,
                                     "inferred": beta})
    print(f"held-out games {args.test.start}..{args.test.stop - 1} ({len(test)} games); "
          f"fitted on games {args.fit.start}..{args.fit.stop - 1} ({len(train)} games)")
    print(f"{'model':<28} {'pile':<7} {'cards':>6} {'top-1':>7} {'log loss':>9}")
    for name, piles in report.items():
        for pile, r in piles.items():
            print(f"{name:<28} {pile:<7} {r['cards']:>6} {r['top1']:>7.3f} {r['log_loss']:>9.3f}")
    if args.write:
        params = {"beta": dict(zip(FEATURES, map(float, np.round(beta, 4)))),
                  "fitted_on": f"{Path(args.records).name} games {args.fit.start}..{args.fit.stop - 1}",
                  "held_out": report}
        with atomic_output(OUT, "coefficients") as tmp:
            Path(tmp).write_text(json.dumps(params, indent=1) + "\n", encoding="utf-8")
        print(f"written {OUT}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
