"""The golden command outputs: every case of ``tests/golden/cases.py`` run
through :func:`advisor.cli.command.main`, its stdout and the files it writes
compared byte for byte with ``tests/golden/outputs/`` (apart from the
``schema`` key of JSON outputs).  A line of JSON that differs only in the
last bits of its floats (relative difference at most 1e-12) counts as the
same: NumPy sums and products take a different path on processors with
wider vector instructions (AVX-512), which changes the rounding of the
last bit or two, not the behaviour.  A CSV file's line likewise counts as
the same when its cells are, the numbers with a decimal point or an
exponent on both sides compared within the same tolerance (the chances of
winning in ``camelup batch --advice`` are NumPy sums and products too).

A difference is a change of behaviour.  If it is meant, regenerate the
outputs with ``python tests/golden/make_outputs.py NAME`` and say why in the
commit.
"""

from __future__ import annotations

import difflib
import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).resolve().parent / "golden"))

from cases import CASES, OUTPUTS, outputs, without_schema  # noqa: E402

#: Floats of JSON output lines compare equal within this relative difference.
FLOAT_TOLERANCE = 1e-12


def _same_json(a, b) -> bool:
    """Whether two parsed JSON values are equal, floats within
    :data:`FLOAT_TOLERANCE` (relative); every other value exactly."""
    if isinstance(a, float) and isinstance(b, float):
        return a == b or abs(a - b) <= FLOAT_TOLERANCE * max(abs(a), abs(b))
    if isinstance(a, dict) and isinstance(b, dict):
        return a.keys() == b.keys() and all(_same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(_same_json(x, y) for x, y in zip(a, b))
    return type(a) is type(b) and a == b


def _decimal(cell: str) -> float | None:
    """A CSV cell's number when it has a decimal point or an exponent."""
    if not any(c in cell for c in ".eE"):
        return None
    try:
        return float(cell)
    except ValueError:
        return None


def _same_csv_line(a: str, b: str) -> bool:
    """Whether two CSV lines hold the same cells, numbers with a decimal
    point or exponent equal within :data:`FLOAT_TOLERANCE` (relative)."""
    import csv

    x, y = next(csv.reader([a]), []), next(csv.reader([b]), [])
    if len(x) != len(y):
        return False
    for p, q in zip(x, y):
        if p == q:
            continue
        u, v = _decimal(p), _decimal(q)
        if u is None or v is None or not _same_json(u, v):
            return False
    return True


def same_output(want: str, got: str, csv: bool = False) -> bool:
    """Byte for byte, or line by line with JSON lines equal by
    :func:`_same_json` (``csv``: CSV lines by :func:`_same_csv_line`)."""
    if want == got:
        return True
    import json

    w, g = want.splitlines(), got.splitlines()
    if len(w) != len(g):
        return False
    for x, y in zip(w, g):
        if x == y:
            continue
        if csv:
            if not _same_csv_line(x, y):
                return False
            continue
        try:
            if not _same_json(json.loads(x), json.loads(y)):
                return False
        except ValueError:
            return False
    return True


def test_every_output_file_belongs_to_a_case():
    names = {name for name, _, _ in CASES}
    stray = [p.name for p in OUTPUTS.iterdir() if p.name.split(".")[0] not in names]
    assert not stray, f"outputs of no case: {stray}"


@pytest.mark.parametrize("name, argv, files", CASES, ids=[c[0] for c in CASES])
def test_output_unchanged(name, argv, files, tmp_path):
    for file, text in outputs(name, argv, files, tmp_path).items():
        want = without_schema((OUTPUTS / file).read_text(encoding="utf-8"))
        got = without_schema(text)
        if not same_output(want, got, csv=file.endswith(".csv")):
            diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "golden", "now", n=1))
            pytest.fail(f"{file} differs from the golden output:\n{diff[:4000]}")


def test_float_tolerance_is_the_last_bits_only():
    assert same_output('{"ev": 0.1, "n": 3}\n', '{"ev": 0.10000000000000002, "n": 3}\n')
    assert not same_output('{"ev": 0.1, "n": 3}\n', '{"ev": 0.1000001, "n": 3}\n')
    assert not same_output('{"ev": 0.1, "n": 3}\n', '{"ev": 0.1, "n": 4}\n')
    assert not same_output('{"ev": 1}\n', '{"ev": 1.0}\n')  # an int is not a float
    assert not same_output("ev 0.1\n", "ev 0.10000000000000002\n")  # text stays byte for byte
    assert not same_output('{"a": 1}\n', '{"a": 1}\n{"b": 2}\n')
    # CSV files: decimal cells within the tolerance, every other cell exactly
    assert same_output("a,0.1,x\n", "a,0.10000000000000002,x\n", csv=True)
    assert not same_output("a,0.1,x\n", "a,0.10000000000000002,x\n")
    assert not same_output("a,0.1,x\n", "a,0.1000001,x\n", csv=True)
    assert not same_output("a,1,x\n", "a,1.0,x\n", csv=True)
    assert not same_output("a,0.1,x\n", "b,0.1,x\n", csv=True)
    assert not same_output("a,0.1\n", "a,0.1,\n", csv=True)


def test_schema_is_stripped_only_as_a_key():
    assert without_schema('{"schema": 1, "position": "1:B"}') == '{"position": "1:B"}'
    assert without_schema('{"type": "setup", "schema": 1}') == '{"type": "setup"}'
    assert without_schema('{"position": "schema"}') == '{"position": "schema"}'
