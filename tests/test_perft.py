"""Perft-style golden counts: the leg enumeration's tree, level by level,
against a frozen table (``tests/golden/perft.json``).

For each position of the table (leg starts and mid-leg positions of both
editions) the table holds, per roll left in the leg, the die sequences
played, those that end the race, and the distinct states after merging
(whole, and with the crazy camels merged out once the grey die is out), and
for the whole leg the rank counts, the sequences, the races ended and the
distinct end boards.  The kernels are checked against it in milliseconds;
the table itself was written by the slow reference (``naive.py``), which the
slow test compares it with (its results frozen in
``golden/references.json``, re-derived by ``test_references.py``).

Rewrite the table (after a deliberate rules change only) with
``python tests/test_perft.py``: it is computed by the reference alone.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

import pytest

try:  # tests/ as a plain directory (pytest's default) or as a package
    from . import naive
    from .reference_cache import reference
except ImportError:  # pragma: no cover - depends on how pytest imports
    import naive
    from reference_cache import reference

TABLE_PATH = Path(__file__).parent / "golden" / "perft.json"

#: The positions of the table: leg starts and mid-leg positions of both
#: editions; races ending during the leg, crazy camels carrying racing camels
#: and standing on each other, tiles landed on, the grey die out.
BOARDS = [
    # leg starts
    "first 1:B 2:YG 3:OW",
    "first 12:BG 14:OY 15:W -13 +16",
    "11:B 12:YG 13:PR 15:k 16:w +14",
    # mid-leg
    "1:B 2:YG 3:PR 14:w 15:k +5 -8 dice:GPRx",
    "1:k 3:w 13:B 14:YG 16:PR -15 dice:BGPRx",
    "2:wB 4:kG 5:R 6:PY +8 dice:BGYx",
    "2:BGP 3:Y 10:wkR -12 dice:BRYx",
    "1:wB 12:k 16:GPRY dice:Bx",
    "3:BwG 5:kP 7:RY +9 dice:BRY",
    "first 12:B 13:GO 15:YW +10 -16 dice:BGOY",
    "first 14:B 15:G 16:OYW +13 dice:BG",
]


@reference
def reference_entry(board: str) -> dict:
    """The table's entry of ``board``, computed by the slow reference (frozen
    in ``golden/references.json`` for ``BOARDS``)."""
    ref = naive.naive_leg_counts(board, collect=True, levels=True)
    return {"board": board, "levels": ref["levels"], "counts": ref["counts"], "total": ref["total"],
            "ended": ref["ended"], "end_states": len(ref["ends"])}


reference_entry.freeze((board,) for board in BOARDS)


def load() -> list[dict]:
    return json.loads(TABLE_PATH.read_text())["positions"]


TABLE = load() if TABLE_PATH.exists() else []


def test_table_holds_every_board():
    assert [e["board"] for e in TABLE] == BOARDS


def test_table_covers_what_it_is_for():
    editions = {(e["board"].startswith("first"), "dice:" in e["board"]) for e in TABLE}
    assert editions == {(False, False), (False, True), (True, False), (True, True)}  # both editions, starts and mid-leg
    assert sum(e["ended"] > 0 for e in TABLE) >= 4  # races that end during the leg
    assert sum(any(lv["merged"] < lv["states"] for lv in e["levels"]) for e in TABLE) >= 4  # crazy camels merged
    assert any(any(lv["ended"] == lv["sequences"] for lv in e["levels"]) for e in TABLE)  # every race over
    for e in TABLE:
        assert e["total"] == naive.expected_total(e["board"])
        assert e["levels"][-1]["states"] == 0 and e["levels"][-1]["merged"] == 0
        assert all(sum(row) == e["total"] for row in e["counts"])


@pytest.mark.parametrize("entry", TABLE, ids=[e["board"] for e in TABLE])
def test_kernel_counts_equal_the_table(entry):
    from advisor.odds.levels import leg_levels

    merged = leg_levels(entry["board"])
    whole = leg_levels(entry["board"], merged=False)
    for got in (merged, whole):
        assert list(got.sequences) == [lv["sequences"] for lv in entry["levels"]]
        assert list(got.ended) == [lv["ended"] for lv in entry["levels"]]
        assert got.counts.tolist() == entry["counts"]
        assert got.total == entry["total"]
        assert got.ended_count == entry["ended"]
    assert list(merged.states) == [lv["merged"] for lv in entry["levels"]]
    assert list(whole.states) == [lv["states"] for lv in entry["levels"]]
    assert whole.end_states == entry["end_states"] and merged.end_states is None


def test_leg_levels_agrees_with_the_odds():
    from advisor import leg_odds
    from advisor.odds.levels import leg_levels

    for board in BOARDS:
        levels, odds = leg_levels(board), leg_odds(board)
        assert levels.counts.tolist() == odds.counts.tolist() and levels.total == odds.total
        assert levels.ended_count == odds.ended_count == sum(levels.ended[k] * naive.completions(
            len(odds.position.dice) - k - 1, len(levels.ended) - k - 1) for k in range(len(levels.ended)))
    table = leg_levels(BOARDS[3]).table()
    assert list(table.columns) == ["roll", "sequences", "ended", "states"]
    assert table["roll"].tolist() == [1, 2, 3]


@pytest.mark.slow
@pytest.mark.parametrize("board", BOARDS)
def test_table_is_the_reference(board):
    entry = next(e for e in TABLE if e["board"] == board)
    assert reference_entry(board) == entry


def write() -> None:
    """Write the table from the reference (the kernels are not used)."""
    entries = []
    for board in BOARDS:
        print(board, file=sys.stderr, flush=True)
        entries.append(reference_entry.live(board))
    text = json.dumps({"about": "per roll level: sequences played, races ended, distinct states (whole, and with "
                                "crazy camels merged once the grey die is out); per leg: rank counts, total, races "
                                "ended, distinct end boards.  Written by the slow reference (tests/naive.py): "
                                "python tests/test_perft.py",
                       "positions": entries}, indent=1)
    tmp = TABLE_PATH.with_suffix(".tmp")
    tmp.write_text(text + "\n")
    tmp.replace(TABLE_PATH)


if __name__ == "__main__":
    write()
