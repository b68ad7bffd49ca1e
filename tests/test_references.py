"""The slow references' frozen results (``tests/golden/references.json``,
``tests/reference_cache.py``): current for today's sources, re-derived from
the references (a sample in every run, all with
``CAMELUP_FULL_REFERENCE=1``), and the mechanism itself on a toy reference.
"""

from __future__ import annotations

import json
from collections import Counter
from fractions import Fraction

import naive
import naive_cards
import numpy as np
import pytest
import reference_cache as rc

from advisor.cards.position import parse_cards

TOY_STEP = 3
#: references that are former numba kernels (tests/dfs_cards.py, tests/pairs_cards.py), not naive modules
FORMER_KERNELS = {"test_cards_rules.depth_first_leg", "test_cards_rules.former_merged_leg"}
#: a race whose outcome no drift changes: B carries G over the line or onto O Y W, G wins either way
SURE_RACE = 'test_race.naive_race["first 15:BG 16:OYW dice:B"]'


def test_reference_golden_files_are_current():
    """Every declared reference result is in the golden file, written from
    the sources the reference stands on today, and nothing else is."""
    wrong = rc.problems(rc.load_all(), rc.golden())
    assert not wrong, (f"{len(wrong)} frozen reference results are stale, missing or unused; rewrite them with "
                       f"`{rc.MAKE_COMMAND}`:\n" + "\n".join(wrong[:20]))


def differences(keys) -> list[str]:
    """The keys whose reference computed now differs from the golden file
    (or fails one of its own checks)."""
    wanted, entries = rc.expected_keys(rc.load_all()), rc.golden()
    out = []
    for key in keys:
        frozen, args = wanted[key]
        try:
            same = rc.dumps(rc.encode(frozen.live(*args))) == rc.dumps(entries[key]["result"])
        except AssertionError:
            same = False
        if not same:
            out.append(key)
    return out


@pytest.mark.reference
def test_frozen_references_are_the_references():
    """The frozen results are what the references compute today: the
    cheapest of each reference and a few more (all of them with
    ``CAMELUP_FULL_REFERENCE=1``)."""
    registry, entries = rc.load_all(), rc.golden()
    keys = rc.sample(registry, entries)
    covered = {key.split("[")[0] for key in keys}
    assert len(covered) >= len(registry) - 2  # all but the slowest references are re-derived
    assert sum(entries[key]["seconds"] for key in keys) <= rc.SAMPLE_SECONDS + rc.PER_REFERENCE_SECONDS
    assert differences(keys) == []


@pytest.mark.reference
def test_the_sample_catches_a_drifted_reference(monkeypatch):
    """A reference that drifted from the rules (every move one space only,
    or the ranking read backwards, in both naive modules) is caught on the
    sampled entry of every reference the sample exercises, by one drift or
    the other (but the former kernels, which move camels by the package's
    rules)."""
    registry = rc.load_all()
    cheapest = {}
    for key in rc.sample(registry, rc.golden()):
        if key.split("[")[0] not in FORMER_KERNELS:
            cheapest.setdefault(key.split("[")[0], key)
    assert len(cheapest) >= 5
    move, cards_move, ranking, cards_ranking = naive.move, naive_cards.move, naive.ranking, naive_cards.ranking
    caught = set()
    with monkeypatch.context() as drift:
        drift.setattr(naive, "move", lambda board, camel, distance, *rest: move(board, camel, 1, *rest))
        drift.setattr(naive_cards, "move", lambda board, camel, dist: cards_move(board, camel, 1))
        caught |= set(differences(cheapest.values()))
    with monkeypatch.context() as drift:
        drift.setattr(naive, "ranking", lambda stacks: ranking(stacks)[::-1])
        drift.setattr(naive_cards, "ranking", lambda board: cards_ranking(board)[::-1])
        caught |= set(differences(cheapest.values()))
    assert set(cheapest.values()) - caught <= {SURE_RACE}


# ---------------------------------------------------------------- the mechanism
def test_results_round_trip_exactly():
    value = {
        "floats": [0.1 + 0.2, 1 / 3, -0.0, 1e-300, float("inf")],
        "array": np.array([[0.0, 1 / 3], [2.5e-17, 0.0]]),
        "counts": np.arange(24, dtype=np.int64).reshape(2, 3, 4) * 10**15,
        "fraction": Fraction(-7, 3),
        "tuple": (1, "B1", None, True),
        (("B", 1), True): Counter({"Y": 2}),
        "__looks_tagged": [Fraction(1, 2)],
    }
    data = rc.encode(value)
    back = rc.decode(json.loads(rc.dumps(data)))
    assert rc.dumps(rc.encode(back)) == rc.dumps(data)
    assert back["floats"][:4] == value["floats"][:4] and back["floats"][4] == float("inf")
    assert back["array"].dtype == np.float64 and np.array_equal(back["array"], value["array"])
    assert back["counts"].dtype == np.int64 and np.array_equal(back["counts"], value["counts"])
    assert back["fraction"] == Fraction(-7, 3) and back["tuple"] == (1, "B1", None, True)
    assert back[(("B", 1), True)] == {"Y": 2} and back["__looks_tagged"] == [Fraction(1, 2)]
    with pytest.raises(TypeError, match="cannot freeze a set"):
        rc.encode({1, 2})


def toy_reference(text: str, length: int) -> dict:
    """A small reference: the ranking of a Camel Up Cards board, stepped."""
    board = naive_cards.parse_board(text, length)
    board, _ = naive_cards.move(board, parse_cards(f"cards {text}").stacks[0][1][0], TOY_STEP)
    return {"order": naive_cards.ranking(board), "step": Fraction(TOY_STEP, length)}


@pytest.fixture
def toy(monkeypatch):
    """The toy reference, frozen, with a golden file of its own."""
    frozen = rc.Frozen(toy_reference)
    frozen.freeze([("1:B 2:G 3:O 4:W 5:Y", 16), ("0:BG 2:OWY", 16)])
    entries = {frozen.key(args): {"function": frozen.name, "args": rc.encode(list(args)), "source": frozen.source(),
                                  "seconds": seconds, "result": rc.encode(frozen.live(*args))}
               for args, seconds in zip(frozen.cases, (0.5, 0.25))}
    monkeypatch.setattr(rc, "golden", lambda: entries)
    return frozen, entries


def test_a_current_entry_is_returned_without_the_reference(toy, monkeypatch):
    frozen, entries = toy
    args = frozen.cases[0]
    entries[frozen.key(args)]["result"] = rc.encode({"order": ["planted"], "step": Fraction(1)})
    assert frozen(*args) == {"order": ["planted"], "step": Fraction(1)}
    monkeypatch.setattr(frozen, "func", None)  # not called
    assert frozen(*args)["order"] == ["planted"]


def test_a_stale_or_missing_entry_is_computed_live(toy):
    frozen, entries = toy
    args = frozen.cases[0]
    entries[frozen.key(args)]["result"] = rc.encode({"order": ["planted"], "step": Fraction(1)})
    entries[frozen.key(args)]["source"] = "0" * 64  # written from other sources
    assert frozen(*args) == toy_reference(*args) != {"order": ["planted"], "step": Fraction(1)}
    assert frozen("1:B 2:G 3:O 4:W 5:Y", 12) == toy_reference("1:B 2:G 3:O 4:W 5:Y", 12)  # never frozen


def test_the_sources_cover_what_the_reference_reads(monkeypatch):
    files, texts = set(), {}
    rc.dependencies(toy_reference, files, texts)
    assert {rc._label(p) for p in files} == {"advisor/cards/position.py", "tests/naive_cards.py"}
    assert set(texts) == {"test_references.toy_reference", "test_references.TOY_STEP"}
    before = rc.Frozen(toy_reference).source()
    assert rc.Frozen(toy_reference).source() == before
    monkeypatch.setattr(f"{__name__}.TOY_STEP", 2)  # a constant the reference reads
    assert rc.Frozen(toy_reference).source() != before
    monkeypatch.undo()
    monkeypatch.setattr(rc, "TESTS", rc.TESTS / "golden")  # other naive*.py files (none there)
    assert rc.Frozen(toy_reference).source() != before


def test_problems_name_stale_missing_and_unused_entries(toy):
    frozen, entries = toy
    registry = {frozen.name: frozen}
    assert rc.problems(registry, entries) == []
    first, second = (frozen.key(args) for args in frozen.cases)
    entries[first]["source"] = "0" * 64
    entries["test_references.gone[1]"] = entries.pop(second)
    assert rc.problems(registry, entries) == [f"stale: {first}", f"missing: {second}",
                                              "unused: test_references.gone[1]"]


def test_the_sample_takes_the_cheapest_of_each_reference_within_its_time(toy, monkeypatch):
    frozen, entries = toy
    registry = {frozen.name: frozen}
    first, second = (frozen.key(args) for args in frozen.cases)
    monkeypatch.delenv("CAMELUP_FULL_REFERENCE", raising=False)
    assert rc.sample(registry, entries, seconds=0.0) == [second]  # the cheapest, whatever the total
    assert rc.sample(registry, entries, seconds=0.75) == [second, first]
    assert rc.sample(registry, entries, seconds=0.7) == [second]
    assert rc.sample(registry, entries, seconds=0.0, each=0.2) == []  # no entry of it is cheap enough
    assert rc.sample(registry, entries, seconds=0.5, each=0.2) == [second]
    monkeypatch.setenv("CAMELUP_FULL_REFERENCE", "1")
    assert rc.sample(registry, entries, seconds=0.0) == [first, second]
    entries[first]["source"] = "0" * 64  # a stale entry is not re-derived (its tests compute it live)
    assert rc.sample(registry, entries) == [second]
