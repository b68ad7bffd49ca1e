"""The golden command outputs: every case of ``tests/golden/cases.py`` run
through :func:`advisor.cli.main`, its stdout and the files it writes
compared byte for byte with ``tests/golden/outputs/`` (apart from the
``schema`` key of JSON outputs).

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


def test_every_output_file_belongs_to_a_case():
    names = {name for name, _, _ in CASES}
    stray = [p.name for p in OUTPUTS.iterdir() if p.name.split(".")[0] not in names]
    assert not stray, f"outputs of no case: {stray}"


@pytest.mark.parametrize("name, argv, files", CASES, ids=[c[0] for c in CASES])
def test_output_unchanged(name, argv, files, tmp_path):
    for file, text in outputs(name, argv, files, tmp_path).items():
        want = without_schema((OUTPUTS / file).read_text(encoding="utf-8"))
        got = without_schema(text)
        if got != want:
            diff = "".join(difflib.unified_diff(want.splitlines(True), got.splitlines(True), "golden", "now", n=1))
            pytest.fail(f"{file} differs from the golden output:\n{diff[:4000]}")


def test_schema_is_stripped_only_as_a_key():
    assert without_schema('{"schema": 1, "position": "1:B"}') == '{"position": "1:B"}'
    assert without_schema('{"type": "setup", "schema": 1}') == '{"type": "setup"}'
    assert without_schema('{"position": "schema"}') == '{"position": "schema"}'
