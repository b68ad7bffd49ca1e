"""Rewrite the slow references' frozen results (``tests/golden/references.json``).

    python tests/golden/make_references.py          # the stale and missing entries
    python tests/golden/make_references.py --all    # every entry

The test modules declare their slow reference computations and the
arguments to freeze (``tests/reference_cache.py``); this script computes
them by the references alone (minutes), records each one's time (the
cheapest are re-derived in every test run) and drops entries no test
declares any more.  Run it after a deliberate change of a reference, of the
rules it stands on, or of the positions a test compares.
"""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE.parent))

from reference_cache import GOLDEN_PATH, decode, dumps, encode, expected_keys, golden, load_all  # noqa: E402


def compute(frozen, args) -> dict:
    """The golden entry of ``frozen(*args)``, computed live."""
    start = time.perf_counter()
    result = encode(frozen.live(*args))
    seconds = time.perf_counter() - start
    if dumps(encode(decode(result))) != dumps(result):
        raise SystemExit(f"{frozen.key(args)}: the result does not survive the golden file")
    return {"function": frozen.name, "args": encode(list(args)), "source": frozen.source(),
            "seconds": round(seconds, 3), "result": result}


def write(entries: dict) -> None:
    lines = [f"{json.dumps(key)}: {dumps(entries[key])}" for key in sorted(entries)]
    text = ('{"about": "results of the slow references, frozen; written by python tests/golden/make_references.py",\n'
            '"entries": {\n' + ",\n".join(lines) + "\n}}\n")
    tmp = GOLDEN_PATH.with_suffix(".tmp")
    tmp.write_text(text)
    tmp.replace(GOLDEN_PATH)


def main(argv: list[str]) -> int:
    if argv not in ([], ["--all"]):
        print("usage: python tests/golden/make_references.py [--all]", file=sys.stderr)
        return 2
    old = golden()
    entries = {}
    for key, (frozen, args) in expected_keys(load_all()).items():
        if argv or key not in old or old[key]["source"] != frozen.source():
            print(f"computing {key}", file=sys.stderr, flush=True)
            entries[key] = compute(frozen, args)
        else:
            entries[key] = old[key]
    write(entries)
    print(f"wrote {len(entries)} entries to {GOLDEN_PATH}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
