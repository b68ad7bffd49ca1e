"""Exact leg odds against hand-worked golden values (tests/golden/leg_golden.json).

Each entry's "why" field shows the enumeration done on paper.  On a
mismatch the test prints, for every first roll, what follows from it (the
final order if the leg or race ends there, else the counts of the rest of
the leg), so the faulty branch can be found quickly.
"""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

from advisor import Position, leg_odds, parse_position, step

GOLDEN = json.loads((Path(__file__).parent / "golden" / "leg_golden.json").read_text())["positions"]


def _order(stacks, racing):
    """Racing camels leading first: higher space first, then higher in the stack."""
    out = []
    for _, camels in sorted(stacks, reverse=True):
        out += [c for c in reversed(camels) if c in racing]
    return "".join(out)


def _faces(die):
    if die == "x":
        return [(v, colour, 1) for colour in ("white", "black") for v in (1, 2, 3)]
    return [(v, None, 2) for v in (1, 2, 3)]


def breakdown(position: Position) -> str:
    """What every first roll of ``position`` leads to (a debugging aid)."""
    ed = position.rules
    lines = [f"position {position}: breakdown by first roll"]
    for die in position.dice:
        rest = position.dice.replace(die, "")
        for value, colour, weight in _faces(die):
            r = step(position, die, value, colour)
            label = f"  {die}{value}{'' if colour is None else ' ' + colour} (x{weight}):"
            if r.race_over or len(rest) < ed.min_pyramid:
                why = "race over" if r.race_over else "leg over"
                lines.append(f"{label} {why}, order {_order(r.stacks, ed.racing)}, stacks {r.stacks}")
                continue
            after = Position(edition=ed.name, stacks=r.stacks, tiles=position.tiles, dice=rest,
                             legtiles=position.legtiles)
            sub = leg_odds(after)
            lines.append(f"{label} -> {after} (moved {r.moved}, landed {r.landed}); "
                         f"rest of leg: total {sub.total}, counts rows {''.join(sub.camels)}:")
            lines += ["      " + " ".join(f"{int(n):6d}" for n in row) for row in sub.counts]
    return "\n".join(lines)


def test_golden_file_is_consistent():
    """The hand-worked tables themselves: every row and every rank column sums
    to 1, and every position string is canonical."""
    assert 8 <= len(GOLDEN)
    for entry in GOLDEN:
        p = parse_position(entry["position"])
        assert str(p) == entry["position"]
        table = {c: [Fraction(x) for x in entry["rank"][c]] for c in p.racing}
        assert set(entry["rank"]) == set(p.racing)
        for c in p.racing:
            assert sum(table[c]) == 1, (entry["name"], c)
        for k in range(5):
            assert sum(table[c][k] for c in p.racing) == 1, (entry["name"], k)
        assert entry["why"]


@pytest.mark.parametrize("entry", GOLDEN, ids=[e["name"] for e in GOLDEN])
def test_leg_odds_match_hand_worked(entry):
    p = parse_position(entry["position"])
    odds = leg_odds(p)
    mismatches = []
    if odds.total != entry["total"]:
        mismatches.append(f"total: expected {entry['total']}, got {odds.total}")
    for camel in p.racing:
        for k in range(1, 6):
            want = Fraction(entry["rank"][camel][k - 1])
            got = odds.fraction(camel, k)
            if got != want:
                mismatches.append(f"{camel} rank {k}: expected {want}, got {got}")
    if "race_ends" in entry:
        got = Fraction(odds.ended_count, odds.total)
        if got != Fraction(entry["race_ends"]):
            mismatches.append(f"race_ends: expected {entry['race_ends']}, got {got}")
    for space, want in entry.get("landings", {}).items():
        got = Fraction(int(odds.landing_counts[int(space)]), odds.total)
        if got != Fraction(want):
            mismatches.append(f"landings on {space}: expected {want}, got {got}")
    if mismatches:
        print(f"{entry['name']}: {entry['position']}")
        print("why:", entry["why"])
        print("counts (rows " + "".join(odds.camels) + f", total {odds.total}):")
        print(odds.counts)
        print(breakdown(p))
    assert not mismatches, "\n".join(mismatches)


@pytest.mark.parametrize("entry", GOLDEN, ids=[e["name"] for e in GOLDEN])
def test_float_views_agree_with_fractions(entry):
    p = parse_position(entry["position"])
    odds = leg_odds(p)
    for i, camel in enumerate(p.racing):
        for k in range(1, 6):
            want = float(Fraction(entry["rank"][camel][k - 1]))
            assert odds.probability(camel, k) == pytest.approx(want)
            assert odds.rank[i, k - 1] == pytest.approx(want)
    if "race_ends" in entry:
        assert odds.race_ends == pytest.approx(float(Fraction(entry["race_ends"])))
    for space, want in entry.get("landings", {}).items():
        assert odds.expected_landings()[int(space)] == pytest.approx(float(Fraction(want)))


def test_breakdown_runs():
    """The debugging aid itself works on every golden position."""
    for entry in GOLDEN:
        text = breakdown(parse_position(entry["position"]))
        assert entry["position"] in text
