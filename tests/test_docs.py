"""The documentation (docs/) builds offline with warnings as errors, so a
broken reference, a missing page or a docstring that does not render fails
here; and the places in the code that docs/rules.md names exist.

The notebooks are rendered without running them (``CAMELUP_DOCS_EXECUTE=off``):
``tests/test_notebooks.py`` runs them; the documented build command runs
them too.  Select these tests with ``-m docs``.
"""

from __future__ import annotations

import importlib
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
DOCS = ROOT / "docs"

pytestmark = pytest.mark.docs

PAGES = ["index", "getting-started", "user-guide/index", "user-guide/odds", "user-guide/best-move",
         "user-guide/batch", "user-guide/charts", "user-guide/games", "user-guide/review", "user-guide/duels",
         "user-guide/cards", "user-guide/variants", "user-guide/dask", "reference/index", "reference/cli",
         "reference/api", "reference/web-api", "reference/openapi", "notation", "rules", "explanations/index",
         "explanations/odds", "explanations/valuation", "explanations/cards-model", "architecture", "results"]


def _sphinx():
    try:
        import myst_nb  # noqa: F401
        import pydata_sphinx_theme  # noqa: F401
        import sphinx  # noqa: F401
    except ImportError as exc:
        if os.environ.get("CI") == "true":
            pytest.fail(f"the docs need the 'docs' extra under CI: {exc}")
        pytest.skip(f"the docs need the 'docs' extra: {exc}")


def build(src: Path, out: Path) -> subprocess.CompletedProcess:
    env = dict(os.environ, CAMELUP_DOCS_EXECUTE="off", PYTHONPATH=str(ROOT))
    return subprocess.run([sys.executable, "-m", "sphinx", "-W", "--keep-going", "-q", "-b", "html",
                           "-d", str(out / "doctrees"), str(src), str(out / "html")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=600)


def test_docs_build_without_warnings(tmp_path):
    _sphinx()
    done = build(DOCS, tmp_path)
    assert done.returncode == 0, (done.stdout + done.stderr)[-4000:]
    for page in PAGES:
        assert (tmp_path / "html" / f"{page}.html").is_file(), page
    cli = (tmp_path / "html" / "reference" / "cli.html").read_text()
    from advisor.cli.parser import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command")
    for command in sub.choices:  # every subcommand's --help is on the page
        assert f"usage: camelup {command}" in cli, command


def test_a_broken_reference_fails_the_build(tmp_path):
    _sphinx()
    src = tmp_path / "src"
    shutil.copytree(DOCS, src, ignore=shutil.ignore_patterns("_build", "notebooks"), symlinks=True)
    (src / "notebooks").symlink_to(ROOT / "notebooks")
    page = src / "user-guide" / "odds.md"
    page.write_text(page.read_text() + "\nSee [the missing page](no-such-page.md).\n")
    done = build(src, tmp_path)
    assert done.returncode != 0
    assert "no-such-page" in done.stdout + done.stderr


def _missing_names(text: str) -> list[str]:
    """The ``advisor.x.y`` names in backquotes of ``text`` that neither
    import (a module) nor are found (a name in a module)."""
    missing = []
    for name in sorted(set(re.findall(r"`(advisor(?:\.\w+)+)", text))):
        parts = name.split(".")
        for k in range(len(parts), 0, -1):
            try:
                obj = importlib.import_module(".".join(parts[:k]))
                break
            except ImportError:
                continue
        try:
            for attr in parts[k:]:
                obj = getattr(obj, attr)
        except AttributeError:
            missing.append(name)
    return missing


def test_the_code_places_of_the_rules_exist():
    """Every ``advisor.x.y`` that docs/rules.md names as the place of a rule
    can be imported (a module) or looked up (a name in a module)."""
    text = (DOCS / "rules.md").read_text()
    assert len(set(re.findall(r"`(advisor(?:\.\w+)+)`", text))) > 40
    assert _missing_names(text) == []


def test_every_name_of_the_code_the_docs_give_exists():
    """BUG: the user guide named ``advisor.Game``, which the package does
    not export (``advisor.game.Game``).  Every dotted name in the pages
    resolves, so a renamed module or function shows up here."""
    pages = [p for p in DOCS.rglob("*.md") if "_build" not in p.parts]
    missing = {str(p.relative_to(DOCS)): _missing_names(p.read_text()) for p in pages}
    assert {page: names for page, names in missing.items() if names} == {}


def test_the_readme_links_point_at_files_that_exist():
    """Every relative link or picture of README.md names a file of the
    repository (the documentation pages it sends the reader to)."""
    readme = (ROOT / "README.md").read_text()
    targets = re.findall(r"\]\(([^)#\s]+)(?:#[^)]*)?\)", readme)
    local = [t for t in targets if not re.match(r"[a-z]+://", t)]
    missing = [t for t in local if not (ROOT / t).exists()]
    assert not missing


def test_the_user_guide_documents_every_command():
    """Every subcommand of camelup is explained in the getting-started page
    or the user guide (the README only lists them)."""
    from advisor.cli.parser import build_parser

    text = (DOCS / "getting-started.md").read_text() + "".join(
        p.read_text() for p in sorted((DOCS / "user-guide").glob("*.md")))
    sub = next(a for a in build_parser()._actions if a.dest == "command")
    assert [c for c in sub.choices if f"camelup {c}" not in text] == []
