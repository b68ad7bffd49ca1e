"""Regenerate the slow reference's counts of the random positions of
``tests/test_differential.py`` (``tests/golden/differential.json``).

    python tests/golden/make_differential.py

The reference (``tests/naive.py``) enumerates every sequence of a leg in
pure Python: seconds a position.  Its counts are frozen here so that the
320 comparisons with the kernels take milliseconds;
``test_golden_counts_are_the_references`` re-derives a sample of them in
every run (all of them with ``CAMELUP_FULL_REFERENCE=1``).  Run this only
when the reference or the position generator is meant to change.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE.parents[1]))
sys.path.insert(0, str(HERE.parent))

from test_differential import GOLDEN_PATH, RANDOM_SETS, random_position_of, reference_counts  # noqa: E402


def main() -> None:
    golden = {}
    for edition, (_, seeds) in RANDOM_SETS.items():
        golden[edition] = {str(seed): reference_counts(random_position_of(edition, seed)) for seed in seeds}
        print(f"{edition}: {len(seeds)} positions")
    tmp = GOLDEN_PATH.with_suffix(".tmp")
    tmp.write_text(json.dumps(golden, indent=None, separators=(",", ":"), sort_keys=True) + "\n")
    tmp.replace(GOLDEN_PATH)
    print(f"wrote {GOLDEN_PATH}")


if __name__ == "__main__":
    main()
