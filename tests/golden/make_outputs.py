"""Regenerate the golden command outputs (``tests/golden/outputs/``).

    python tests/golden/make_outputs.py [NAME ...]

Run it only on purpose: when an output is meant to change.  The outputs are
the contract ``tests/test_golden_outputs.py`` holds every change to, byte
for byte (apart from the ``schema`` key).  With names, only those cases are
written.
"""

from __future__ import annotations

import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from cases import CASES, OUTPUTS, outputs  # noqa: E402


def main(names: list[str]) -> None:
    unknown = set(names) - {name for name, _, _ in CASES}
    if unknown:
        sys.exit(f"unknown case(s): {', '.join(sorted(unknown))}")
    OUTPUTS.mkdir(exist_ok=True)
    for name, argv, files in CASES:
        if names and name not in names:
            continue
        with tempfile.TemporaryDirectory() as out:
            for file, text in outputs(name, argv, files, Path(out)).items():
                (OUTPUTS / file).write_text(text, encoding="utf-8")
                print(f"wrote {file} ({len(text):,} characters)")


if __name__ == "__main__":
    main(sys.argv[1:])
