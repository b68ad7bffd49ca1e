"""The Camel Up Cards tournament figures (``benchmarks/cards_tournament_figures.py``)
and the spread of the legs to come (``benchmarks/fit_cards_spread.py``), on
hand-made records: setup lines naming the bots, actions with the money, leg
deals and end lines."""

from __future__ import annotations

import importlib.util
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]


def _load(name: str):
    spec = importlib.util.spec_from_file_location(name, ROOT / "benchmarks" / f"{name}.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _game(bots, winners, legs):
    """A record: ``legs`` is the money after each leg (the last: the end)."""
    record = [{"type": "setup", "bots": bots}, {"type": "deal", "leg": 1}]
    for leg, money in enumerate(legs, 1):
        if leg > 1:
            record.append({"type": "deal", "leg": leg})
        record.append({"type": "action", "player": 0, "action": "reveal", "money": money})
    record.append({"type": "end", "money": legs[-1], "winners": winners})
    return record


def test_the_seat_order_between_two_bots_by_hand():
    figures = _load("cards_tournament_figures")
    records = [
        _game(["a", "b", "h", "r"], [0], [[9, 5, 1, 1]]),  # b 1 seat after a: a wins
        _game(["b", "h", "r", "a"], [0], [[9, 5, 1, 1]]),  # b 1 seat after a (seat 3 -> 0): b wins
        _game(["a", "h", "b", "r"], [0, 2], [[9, 5, 9, 1]]),  # 2 seats: a shared first place
        _game(["h", "a", "r", "b"], [1], [[1, 9, 1, 5]]),  # 2 seats: a wins
        _game(["b", "a", "h", "r"], [0], [[9, 5, 1, 1]]),  # 3 seats (a right after b): b wins
    ]
    gaps = figures.by_gap(records, "a", "b")
    assert [(g["gap"], g["games"], g["a"], g["b"]) for g in gaps] == [(1, 2, 0.5, 0.5), (2, 2, 0.75, 0.25),
                                                                      (3, 1, 0.0, 1.0)]
    lo, hi = figures.wilson(1, 2)
    assert gaps[0]["a_lo"] == pytest.approx(lo) and gaps[0]["a_hi"] == pytest.approx(hi)
    table = {row["bot"]: row for row in figures.table(records)}
    assert table["a"]["wins"] == 2.5 and table["b"]["wins"] == 2.5 and table["h"]["wins"] == 0


def test_the_spread_of_the_legs_to_come_by_hand():
    """a - b after leg 1, after leg 2 and at the end: 0, 4, 10 and 2, 0, -4:
    after leg 1 the changes are 10 and -6 (mean 2, sd 11.31...); after leg
    2, 6 and -4 (mean 1, sd 7.07...)."""
    spread = _load("fit_cards_spread")
    records = [_game(["a", "b"], [0], [[3, 3], [7, 3], [15, 5]]),
               _game(["b", "a"], [0], [[3, 5], [4, 4], [9, 5]])]
    rows = spread.spreads(records, ("a", "b"))
    assert [(r["leg"], r["legs"]) for r in rows] == [(1, 2), (2, 2)]
    assert rows[0]["mean"] == 2 and rows[0]["sd"] == pytest.approx((2 * 8 ** 2) ** 0.5)
    assert rows[1]["mean"] == 1 and rows[1]["sd"] == pytest.approx((2 * 5 ** 2) ** 0.5)
    with pytest.raises(ValueError, match="must each sit once"):
        spread.spreads([_game(["a", "a"], [0], [[3, 3]])], ("a", "b"))


@pytest.mark.parametrize("script, extra", [("cards_tournament_figures", ["-o", "out.json"]),
                                           ("fit_cards_spread", [])])
def test_a_missing_records_file_is_one_line_and_exit_2(tmp_path, script, extra):
    run = subprocess.run([sys.executable, str(ROOT / "benchmarks" / f"{script}.py"), "missing.jsonl", *extra],
                         cwd=tmp_path, capture_output=True, text=True)
    assert run.returncode == 2 and run.stdout == ""
    assert len(run.stderr.strip().splitlines()) == 1 and "missing.jsonl" in run.stderr
    assert not (tmp_path / "out.json").exists()
