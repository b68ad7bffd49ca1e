"""The notebooks run top to bottom (executed as a user would, in a kernel)."""

import os
from pathlib import Path

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

ROOT = Path(__file__).resolve().parents[1]
#: the notebooks' size knobs, set small for the test
SMALL = {"CAMELUP_REVIEW_GAMES": "3", "CAMELUP_CARDS_GAMES": "1"}
NOTEBOOKS = sorted((ROOT / "notebooks").glob("*.ipynb"))


def test_there_are_notebooks():
    assert {p.stem for p in NOTEBOOKS} >= {"tour", "batch_study", "game_odds", "cards", "review"}


@pytest.mark.notebook
@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.stem)
def test_notebook_runs(path, monkeypatch):
    # the kernel imports the package under test, as the tests do (not an
    # installed copy elsewhere, whose kernels would compile again: numba
    # caches by source path)
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(ROOT), *filter(None, [os.environ.get("PYTHONPATH")])]))
    # every cell runs, on fewer games than the notebooks' own (what the docs
    # render): the review notebook's simulated games and the Camel Up Cards
    # notebook's small tournament
    for name, value in SMALL.items():
        monkeypatch.setenv(name, value)
    book = nbformat.read(path, as_version=4)
    client = nbclient.NotebookClient(book, timeout=600, kernel_name="python3",
                                     resources={"metadata": {"path": str(path.parent)}})
    client.execute()
    outputs = [o for cell in book.cells if cell.cell_type == "code" for o in cell.outputs]
    assert not [o for o in outputs if o.output_type == "error"]
    assert outputs  # every notebook shows results
