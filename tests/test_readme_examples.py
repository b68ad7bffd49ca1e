"""The README's transcripts reproduce: every ```console block marked with
``<!-- example: NAME -->`` (optionally ``input="LINE;LINE;..."``: what is
typed at the prompts, echoed after them as a terminal shows it) is run, its
``$ camelup ...`` command by ``python -m advisor.cli``, and the output must
match the block: a line ``...`` stands for any number of lines, a line
ending in ``...`` for any line that starts with what comes before; every
other line is compared whole.  A block that drifts from its command fails
here, naming the first line that differs.

    python tests/test_readme_examples.py NAME   # print what the command gives now
"""

from __future__ import annotations

import functools
import os
import re
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MARK = re.compile(r'<!-- example: (?P<name>[\w-]+)(?: input="(?P<input>[^"]*)")? -->')
NOTICE = re.compile(r"camelup: (compiling kernels|kernels compiled).*")

_RUN = r"""
import sys

class Echo:  # what a terminal shows: the line typed after its prompt
    def __init__(self, lines):
        self.lines = lines
    def readline(self, *args):
        line = self.lines.pop(0) + "\n" if self.lines else ""
        sys.stdout.write(line)
        return line
    def isatty(self):
        return False
    def fileno(self):
        raise OSError("no file")

typed = sys.argv[1]
if typed:
    sys.stdin = Echo(typed.split(";"))
from advisor.cli import main
sys.exit(main(sys.argv[2:]))
"""


def examples() -> list[tuple[str, str | None, str, list[str]]]:
    """``(name, typed input, command, expected lines)`` of every marked block."""
    lines = README.read_text(encoding="utf-8").splitlines()
    out = []
    for k, line in enumerate(lines):
        mark = MARK.search(line)
        if not mark:
            continue
        fence = lines[k + 1]
        assert fence.strip() == "```console", f"README line {k + 2}: a marked example is a ```console block"
        indent = len(fence) - len(fence.lstrip())
        body = []
        for text in lines[k + 2:]:
            if text.strip() == "```":
                break
            body.append(text[indent:])
        assert body and body[0].startswith("$ camelup "), f"README line {k + 3}: the block starts with $ camelup"
        out.append((mark["name"], mark["input"], body[0][2:], body[1:]))
    return out


def run(command: str, typed: str | None) -> list[str]:
    """What ``command`` prints (stdout, then stderr less the compile notices)."""
    argv = shlex.split(command)[1:]
    env = {**os.environ, "PYTHONPATH": str(ROOT) + os.pathsep + os.environ.get("PYTHONPATH", ""),
           "COLUMNS": "80"}
    proc = subprocess.run([sys.executable, "-c", _RUN, typed or "", *argv], cwd=ROOT, env=env,
                          capture_output=True, text=True, timeout=1200)
    err = [NOTICE.sub("", line) for line in proc.stderr.splitlines()]
    return [line.rstrip() for line in proc.stdout.splitlines()] + [line.rstrip() for line in err if line.strip()]


def _same(expected: str, actual: str) -> bool:
    if expected.endswith("...") and expected.strip() != "...":
        return actual.startswith(expected[:-3])
    return expected.rstrip() == actual


def first_difference(expected: list[str], actual: list[str]) -> str | None:
    """``None`` if ``actual`` matches ``expected`` (see the module
    docstring), else a line saying where they part."""
    furthest = [0, 0]

    @functools.lru_cache(maxsize=None)
    def match(i: int, j: int) -> bool:
        if i > furthest[0] or (i == furthest[0] and j > furthest[1]):
            furthest[:] = [i, j]
        if i == len(expected):
            return j == len(actual)
        if expected[i].strip() == "...":
            return any(match(i + 1, k) for k in range(j, len(actual) + 1))
        return j < len(actual) and _same(expected[i], actual[j]) and match(i + 1, j + 1)

    if match(0, 0):
        return None
    i, j = furthest
    want = expected[i] if i < len(expected) else "(the end of the output)"
    got = actual[j] if j < len(actual) else "(the end of the output)"
    return f"block line {i + 2}: expected {want!r}, the command printed {got!r}"


def test_the_matcher():
    assert first_difference(["a", "...", "d"], ["a", "b", "c", "d"]) is None
    assert first_difference(["a", "b..."], ["a", "bcd"]) is None
    assert first_difference(["a", "c"], ["a", "b"]) == "block line 3: expected 'c', the command printed 'b'"
    assert first_difference(["a"], ["a", "b"]) is not None  # no "..." at the end: the output ends there
    assert first_difference(["..."], []) is None


def test_the_readme_marks_its_transcripts():
    names = [name for name, *_ in examples()]
    assert len(names) == len(set(names)) and len(names) >= 4


@pytest.mark.parametrize("name,typed,command,expected", examples(), ids=[e[0] for e in examples()])
def test_a_readme_transcript_reproduces(name, typed, command, expected):
    problem = first_difference(expected, run(command, typed))
    assert problem is None, f"README example {name} ({command}) drifted: {problem}"


if __name__ == "__main__":
    for name, typed, command, _ in examples():
        if name in sys.argv[1:]:
            print(f"$ {command}")
            print("\n".join(run(command, typed)))
