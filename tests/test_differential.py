"""Differential tests: the numba kernels against the slow reference in
``naive.py`` (an independent implementation of docs/rules.md (board games)).

Every comparison is exact: rank counts, tile landing counts, the number of
sequences in which the race ends, and the total number of sequences.

The reference's counts of the 320 random positions are frozen in
``golden/differential.json`` (``golden/make_differential.py`` writes it):
the kernels are compared with all of them in milliseconds, and
``test_golden_counts_are_the_references`` re-derives a sample of them from
the reference in every run (all of them with ``CAMELUP_FULL_REFERENCE=1``).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path

import numpy as np
import pytest

import advisor
from advisor import Position, Tile, leg_odds, leg_odds_many, parse_position, step
from advisor.rules.editions import get_edition

try:  # tests/ as a plain directory (pytest's default) or as a package
    from . import naive
    from .reference_cache import full_reference
except ImportError:  # pragma: no cover - depends on how pytest imports
    import naive
    from reference_cache import full_reference


# ------------------------------------------------------------------ helpers
def landing_dict(array) -> dict[int, int]:
    return {int(s): int(n) for s, n in enumerate(array) if n}


def assert_same_as_naive(position: Position, odds=None) -> None:
    odds = leg_odds(position) if odds is None else odds
    ref = naive.naive_leg_counts(str(position))
    where = f"position {position}"
    assert ref["total"] == naive.expected_total(str(position)), where
    assert odds.total == ref["total"], where
    assert odds.counts.tolist() == ref["counts"], where
    assert odds.ended_count == ref["ended"], where
    assert landing_dict(odds.landing_counts) == ref["landings"], where
    # every row and every column of the rank matrix sums to the total
    assert (odds.counts.sum(axis=0) == odds.total).all(), where
    assert (odds.counts.sum(axis=1) == odds.total).all(), where


def random_position(rng: np.random.Generator, edition: str) -> Position:
    """A random valid position of ``edition``: random stacks (crazy camels
    anywhere in them, often clustered near space 1 or 16), random legal tiles
    and a small random pyramid (mostly 2..4 dice)."""
    ed = get_edition(edition)
    camels = list(ed.camels)
    rng.shuffle(camels)
    mode = int(rng.integers(5))
    if mode == 0:  # anywhere
        pool = list(range(1, 17))
    elif mode == 1:  # near the start: crazy camels may carry camels below 1
        pool = list(range(1, 6))
    elif mode == 2:  # near the finish
        pool = list(range(11, 17))
    elif mode == 3:  # both ends
        pool = [1, 2, 3, 14, 15, 16]
    else:  # a band somewhere
        lo = int(rng.integers(1, 12))
        pool = list(range(lo, lo + 6))
    nstacks = int(rng.integers(1, min(len(camels), len(pool)) + 1))
    spaces = [int(s) for s in rng.choice(pool, size=nstacks, replace=False)]
    stacks: dict[int, str] = {s: "" for s in spaces}
    for j, camel in enumerate(camels):
        s = spaces[j] if j < nstacks else spaces[int(rng.integers(nstacks))]
        stacks[s] += camel  # bottom to top in the shuffled order

    # tiles: not space 1, not on camels, not adjacent to each other
    free = [s for s in range(2, 17) if s not in stacks]
    # prefer free spaces close to the camels so that tiles get hit
    rng.shuffle(free)
    free.sort(key=lambda s: min(abs(s - c) for c in stacks) + float(rng.random()) * 3)
    want = int(rng.choice([0, 1, 2, 3, 4], p=[0.15, 0.25, 0.3, 0.2, 0.1]))
    owners = [int(o) for o in rng.permutation(ed.max_players)]
    tiles: list[Tile] = []
    for s in free:
        if len(tiles) == want:
            break
        if any(abs(t.space - s) <= 1 for t in tiles):
            continue
        sign = "+" if rng.random() < 0.5 else "-"
        owner = owners.pop() if rng.random() < 0.6 else None
        tiles.append(Tile(s, sign, owner))

    # pyramid
    if ed.crazy:
        k = int(rng.choice([2, 3, 4, 5], p=[0.3, 0.35, 0.3, 0.05]))
        with_grey = rng.random() < 0.75
        racing = list(rng.choice(list(ed.racing), size=k - with_grey, replace=False))
        dice = "".join(racing) + ("x" if with_grey else "")
    else:
        k = int(rng.choice([1, 2, 3, 4, 5], p=[0.1, 0.3, 0.3, 0.25, 0.05]))
        dice = "".join(rng.choice(list(ed.racing), size=k, replace=False))
    return Position(edition=edition, stacks=stacks, tiles=tuple(tiles), dice=dice)


def random_positions(seed: int, n: int, edition: str) -> list[Position]:
    rng = np.random.default_rng(seed)
    return [random_position(rng, edition) for _ in range(n)]


# ------------------------------------------------------- named positions
NAMED = {
    # w carries B,G; k carries nothing: every grey roll moves w (rule 1) and
    # takes B, G backward across space 1 (race over, ranked 0/-1/-2)
    "crazy_carries_across_start": "1:wBG 2:R 3:P 4:Y 9:k +6 dice:BGRx",
    # k carries B, w carries G: both carry, not on each other -> the colour
    "both_crazy_carry": "2:wB 4:kG 5:R 6:PY +8 dice:BGx",
    # k directly on w, neither carries a racing camel: k moves (rule 2)
    "crazy_on_crazy_on_racing": "3:BGwk 6:R 7:PY -5 dice:Bx",
    # w directly on k, both carry Y: rule 2, w moves with Y
    "crazy_on_crazy_both_carry": "2:B 4:G 10:kwY 12:RP -8 +6 dice:BGYx",
    # w carries R and k; k carries nothing: w moves (rule 1)
    "crazy_carries_crazy": "10:wRk 2:BGP 3:Y +12 dice:BYx",
    # k directly on w, both carry R: rule 2, k moves with R
    "crazy_on_crazy_carrying": "10:wkR 2:BGP 3:Y -8 dice:GPx",
    # tiles hit by racing and crazy units
    "tiles_racing_and_crazy": "2:BG 3:R 5:P 9:Y 12:w 14:k +4 -7 +10 dice:BRYx",
    # boo back onto the stack the unit came from (racing: G from 4 to 5 and
    # back under B; crazy: k with R from 10 to 9 and back under P)
    "boo_under_origin_stack": "4:BG -5 10:PkR -9 12:Y 14:w dice:BGRx",
    # racing units finishing past 16 mid-leg, cheering tile on 15
    "finish_mid_leg": "13:B 14:GR 16:PY +15 3:w 6:k dice:BGRx",
    # two-die pyramids (one roll left)
    "two_dice_with_grey": "15:BG 16:R 2:P 1:Yw 12:k dice:Yx",
    "two_dice_racing": "1:B 2:G 3:PR 4:Y 15:wk +6 dice:BG",
    # first edition with oases and mirages
    "first_oasis_mirage_start": "first 1:B 2:GO 4:YW +3 -6 +8",
    "first_mid_leg_finish": "first 12:B 13:GO 15:YW -14 +16 dice:GOW",
    # k carries B, w, G; w carries G: colour decides; racing camels below 1
    "below_one_ranking": "1:kBwG 2:R 3:PY +5 dice:BGx",
    # crazy unit on a cheering tile on 2 goes on to 1, on top
    "crazy_cheer_to_one": "1:GP 3:wB +2 6:R 7:Y 9:k dice:BGx",
    # racing unit on a booing tile on 2 goes back to 1, under
    "racing_boo_to_one": "1:BG -2 3:R 5:PY 10:wk dice:BGx",
    # a racing camel carries crazy and racing camels; crazy unit hits -7
    "racing_carries_crazy": "5:RwB 6:G 8:P 9:Y 11:k -7 +13 dice:GRx",
    # full leg starts
    "second_full_leg": "1:B 2:YG 3:PR 14:w 15:k +5 -8",
    "first_full_leg": "first 1:BO 2:G 3:YW +6 -9",
}


@pytest.mark.parametrize("name", list(NAMED))
def test_named_position_matches_naive(name):
    assert_same_as_naive(parse_position(NAMED[name]))


def test_full_legs_are_full():
    second = parse_position(NAMED["second_full_leg"])
    first = parse_position(NAMED["first_full_leg"])
    assert second.is_leg_start and len(second.dice) == 6
    assert first.is_leg_start and len(first.dice) == 5
    assert leg_odds(second).total == 6 * 5 * 4 * 3 * 2 * 6**5
    assert leg_odds(first).total == 5 * 4 * 3 * 2 * 1 * 6**5


# ----------------------------------------------------- random positions
SECOND_SEEDS = range(200)
FIRST_SEEDS = range(120)
#: edition -> (base of the generator's seed, seeds)
RANDOM_SETS = {"second": (1000, SECOND_SEEDS), "first": (5000, FIRST_SEEDS)}
GOLDEN_PATH = Path(__file__).resolve().parent / "golden" / "differential.json"
#: every REFERENCE_STEP-th random position is re-derived from the reference in each run
REFERENCE_STEP = 8


def random_position_of(edition: str, seed: int) -> Position:
    base, _ = RANDOM_SETS[edition]
    (position,) = random_positions(base + seed, 1, edition)
    return position


def reference_counts(position: Position) -> dict:
    """The reference's counts of ``position``, as frozen in the golden file."""
    ref = naive.naive_leg_counts(str(position))
    return {"position": str(position), "total": ref["total"], "counts": ref["counts"], "ended": ref["ended"],
            "landings": {str(s): n for s, n in sorted(ref["landings"].items())}}


_GOLDEN: dict = {}


def golden(edition: str, seed: int) -> dict:
    if not _GOLDEN:
        _GOLDEN.update(json.loads(GOLDEN_PATH.read_text()))
    return _GOLDEN[edition][str(seed)]


def assert_same_as_golden(position: Position, ref: dict) -> None:
    """The kernels' counts of ``position`` are the reference's frozen ones."""
    where = f"position {position}"
    assert ref["position"] == str(position), where  # the generator still draws the frozen position
    assert ref["total"] == naive.expected_total(str(position)), where
    odds = leg_odds(position)
    assert odds.total == ref["total"], where
    assert odds.counts.tolist() == ref["counts"], where
    assert odds.ended_count == ref["ended"], where
    assert landing_dict(odds.landing_counts) == {int(s): n for s, n in ref["landings"].items()}, where
    assert (odds.counts.sum(axis=0) == odds.total).all(), where
    assert (odds.counts.sum(axis=1) == odds.total).all(), where


@pytest.mark.parametrize("seed", SECOND_SEEDS)
def test_random_second_matches_naive(seed):
    assert_same_as_golden(random_position_of("second", seed), golden("second", seed))


@pytest.mark.parametrize("seed", FIRST_SEEDS)
def test_random_first_matches_naive(seed):
    assert_same_as_golden(random_position_of("first", seed), golden("first", seed))


def reference_sample() -> list[tuple[str, int]]:
    """The random positions re-derived in this run: every
    :data:`REFERENCE_STEP`-th of each edition (all of them when
    ``CAMELUP_FULL_REFERENCE=1``)."""
    step = 1 if full_reference() else REFERENCE_STEP
    return [(edition, seed) for edition, (_, seeds) in RANDOM_SETS.items() for seed in seeds[::step]]


def first_difference(sample) -> tuple[str, int] | None:
    """The first position of ``sample`` whose reference counts are not the
    frozen ones (``None``: all agree)."""
    for edition, seed in sample:
        if reference_counts(random_position_of(edition, seed)) != golden(edition, seed):
            return edition, seed
    return None


@pytest.mark.reference
def test_golden_counts_are_the_references():
    """The frozen counts are what the slow reference computes today (a
    sample of them; ``CAMELUP_FULL_REFERENCE=1``: all)."""
    sample = reference_sample()
    assert len(sample) >= 40
    assert first_difference(sample) is None


@pytest.mark.reference
@pytest.mark.parametrize("bias", ["tiles ignored", "a crazy camel carrying a racing camel not preferred"])
def test_the_reference_sample_catches_a_planted_bias(monkeypatch, bias):
    """A reference (or a golden file) that drifted from the rules the way a
    real bug would, on the same share of positions, is caught by the sample
    alone, as by all 320 positions: each planted bias changes the counts of
    many random positions, so some sampled position differs."""
    sample = reference_sample()
    assert first_difference(sample[:3]) is None  # unbiased, they agree
    if bias == "tiles ignored":
        monkeypatch.setattr(naive, "tiles_of", lambda pos: {})
    else:
        monkeypatch.setattr(naive, "carries_racing", lambda board, crazy: False)
    assert first_difference(sample) is not None


def test_random_positions_cover_the_tricky_cases():
    """The generator really produces the situations the tests are meant to
    exercise (so a silent generator change can't hollow them out)."""
    positions = [random_positions(1000 + s, 1, "second")[0] for s in SECOND_SEEDS]
    ended = landed = crazy_carry = crazy_on_crazy = 0
    for p in positions:
        odds = leg_odds(p)
        ended += odds.ended_count > 0
        landed += odds.landing_counts.sum() > 0
        board = naive.board_of(str(p))
        crazy_carry += any(naive.carries_racing(board, c) for c in "wk")
        (sw, hw), (sk, hk) = naive.locate(board, "w"), naive.locate(board, "k")
        crazy_on_crazy += sw == sk and abs(hw - hk) == 1
    assert ended >= 30
    assert landed >= 60
    assert crazy_carry >= 60
    assert crazy_on_crazy >= 10


# ------------------------------------------------------------------ step
def _step_cases(position: Position):
    for die in position.rules.dice:
        for value in (1, 2, 3):
            if die == "x":
                for colour in ("white", "black"):
                    yield die, value, colour
            else:
                yield die, value, None


STEP_POSITIONS = (
    [parse_position(s) for s in NAMED.values()]
    + random_positions(77, 120, "second")
    + random_positions(78, 60, "first")
)


@pytest.mark.parametrize("index", range(len(STEP_POSITIONS)))
def test_step_matches_naive_step(index):
    position = STEP_POSITIONS[index]
    for die, value, colour in _step_cases(position):
        got = step(position, die, value, colour)
        want = naive.naive_step(str(position), die, value, colour)
        assert tuple(got) == want, (str(position), die, value, colour)


# Hand-checked single rolls, straight from docs/rules.md: these pin the reference
# itself (and the engine) to the rules text.
RULE_EXAMPLES = [
    # racing unit: G (on B) rolls 1 onto the booing tile on 5, back to 4 UNDER B
    ("4:BG -5 10:PkR 12:Y 14:w", "G", 1, None, ((4, "GB"), (10, "PkR"), (12, "Y"), (14, "w")), "G", 5, False),
    # B carries G onto -5 and back to 4, where nobody is left: stays BG
    ("4:BG -5 10:PkR 12:Y 14:w", "B", 1, None, ((4, "BG"), (10, "PkR"), (12, "Y"), (14, "w")), "B", 5, False),
    # crazy unit k (carrying R) rolls 1 onto the booing tile on 9: forward
    # to 10 (mirrored), UNDER P which stayed there
    ("4:BG -9 10:PkR 12:Y 14:w", "x", 1, "white", ((4, "BG"), (10, "kRP"), (12, "Y"), (14, "w")), "k", 9, False),
    # crazy unit w carrying B rolls 1 onto the cheering tile on 2: on to 1, on top
    ("1:GP 3:wB +2 6:R 7:Y 9:k", "x", 1, "black", ((1, "GPwB"), (6, "R"), (7, "Y"), (9, "k")), "w", 2, False),
    # ... rolls 3: below space 1, the race ends
    ("1:GP 3:wB +2 6:R 7:Y 9:k", "x", 3, "black", ((0, "wB"), (1, "GP"), (6, "R"), (7, "Y"), (9, "k")), "w", None, True),
    # rule 2: k directly on w, both carry R: k moves with R whatever the colour
    ("2:BGP 3:Y 10:wkR", "x", 2, "white", ((2, "BGP"), (3, "Y"), (8, "kR"), (10, "w")), "k", None, False),
    # rule 1: only w carries a racing camel (R): w moves with R and k
    ("2:BGP 3:Y 10:wRk", "x", 1, "black", ((2, "BGP"), (3, "Y"), (9, "wRk")), "w", None, False),
    # rule 3: neither carries, not on each other: the colour
    ("2:BGP 3:Y 10:Rw 12:k", "x", 1, "black", ((2, "BGP"), (3, "Y"), (10, "Rw"), (11, "k")), "k", None, False),
    # both carry, not on each other: the colour
    ("2:wB 4:kG 5:R 6:PY", "x", 1, "white", ((1, "wB"), (4, "kG"), (5, "R"), (6, "PY")), "w", None, False),
    # a racing unit carries the crazy camels above it forward
    ("5:RwB 6:G 8:P 9:Y 11:k", "R", 3, None, ((6, "G"), (8, "PRwB"), (9, "Y"), (11, "k")), "R", None, False),
    # past the finish
    ("13:B 14:GR 16:PY 3:w 6:k", "P", 2, None, ((3, "w"), (6, "k"), (13, "B"), (14, "GR"), (18, "PY")), "P", None, True),
    # cheering tile on 15 sends G, R to 16 on top of P, Y (not over)
    ("13:B 14:GR 16:PY 3:w 6:k +15", "G", 1, None, ((3, "w"), (6, "k"), (13, "B"), (16, "PYGR")), "G", 15, False),
    # first edition mirage on 16: W (on Y) goes back to 15 UNDER Y
    ("first 12:B 13:GO 15:YW -16", "W", 1, None, ((12, "B"), (13, "GO"), (15, "WY")), "W", 16, False),
]


@pytest.mark.parametrize("example", RULE_EXAMPLES, ids=[f"{e[0]}|{e[1]}{e[2]}{e[3] or ''}" for e in RULE_EXAMPLES])
def test_rule_examples(example):
    text, die, value, colour, stacks, moved, landed, over = example
    position = parse_position(text)
    assert naive.naive_step(str(position), die, value, colour) == (stacks, moved, landed, over)
    assert tuple(step(position, die, value, colour)) == (stacks, moved, landed, over)


def test_ranking_below_one_and_past_the_finish():
    stacks = ((-1, "kB"), (0, "wGR"), (5, "P"), (17, "Y"))
    assert naive.ranking(stacks) == ["Y", "P", "R", "G", "B"]
    assert naive.race_over_board(stacks)
    assert not naive.race_over_board(((1, "BGPRYwk"),))


# ---------------------------------------------------------- leg_odds_many
def test_leg_odds_many_equals_leg_odds():
    positions: list = []
    for seed in range(4):
        positions += random_positions(9000 + seed, 20, "second")
        positions += random_positions(9100 + seed, 10, "first")
    positions += [parse_position(s) for s in NAMED.values()]
    positions.append(str(positions[0]))  # board strings are accepted too
    batch = leg_odds_many(positions)
    assert len(batch) == len(positions)
    for p, many in zip(positions, batch):
        one = leg_odds(p)
        assert str(many.position) == str(one.position)
        assert many.total == one.total, str(p)
        assert many.counts.tolist() == one.counts.tolist(), str(p)
        assert many.ended_count == one.ended_count, str(p)
        assert landing_dict(many.landing_counts) == landing_dict(one.landing_counts), str(p)


def test_leg_odds_many_empty():
    assert leg_odds_many([]) == []


# ------------------------------------------------------- collected end boards
COLLECT_POSITIONS = (
    [parse_position(s) for s in NAMED.values()]
    + random_positions(4242, 30, "second")
    + random_positions(4343, 15, "first")
)


@pytest.mark.parametrize("index", range(len(COLLECT_POSITIONS)))
def test_enumerate_leg_collect(index):
    from advisor.rules.encode import encode, unpack_board
    from advisor.kernels.board.leg import enumerate_leg

    position = COLLECT_POSITIONS[index]
    ed = position.rules
    enc = encode(position)
    counts = np.zeros((5, 5), np.int64)
    landings = np.zeros(enc.tiles.size, np.int64)
    ended, boards, weights = enumerate_leg(
        enc.board, enc.dice, enc.rolls, enc.tiles, True, counts, landings
    )
    where = str(position)
    total = naive.expected_total(str(position))
    assert int(weights.sum()) == total, where
    assert (weights > 0).all(), where
    assert len(set(boards.tolist())) == len(boards), where  # distinct end states

    # ranks recomputed from the end boards reproduce the rank counts
    recomputed = np.zeros((5, 5), np.int64)
    ends: Counter = Counter()
    ended_from_boards = 0
    for board, weight in zip(boards.tolist(), weights.tolist()):
        stacks = unpack_board(board, ed)
        assert sorted("".join(c for _, c in stacks)) == sorted(ed.camels), where
        for rank, camel in enumerate(naive.ranking(stacks)):
            recomputed[ed.racing.index(camel), rank] += weight
        if naive.race_over_board(stacks):
            ended_from_boards += weight
        ends[stacks] += weight
    assert recomputed.tolist() == counts.tolist(), where
    assert ended_from_boards == ended, where

    # and everything equals the reference, end states included
    ref = naive.naive_leg_counts(str(position), collect=True)
    assert counts.tolist() == ref["counts"], where
    assert int(ended) == ref["ended"], where
    assert landing_dict(landings) == ref["landings"], where
    assert dict(ends) == dict(ref["ends"]), where

    # collect=True does not change the counts of collect=False
    odds = leg_odds(position)
    assert odds.counts.tolist() == counts.tolist(), where
    assert odds.ended_count == int(ended), where


def test_naive_is_independent():
    """The reference imports nothing but the standard library, holds its own
    edition tables (which agree with the package's) and refuses package
    objects, so no package code or data can leak into it."""
    import ast
    import pathlib

    tree = ast.parse(pathlib.Path(naive.__file__).read_text())
    imported = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            imported |= {a.name for a in node.names}
        elif isinstance(node, ast.ImportFrom):
            imported.add(node.module or "")
    assert imported <= {"__future__", "itertools", "collections", "typing"}, imported
    position = parse_position("1:B 2:YG 3:PR 14:w 15:k")
    for call in (naive.naive_leg_counts, naive.board_of, naive.tiles_of, naive.expected_total):
        with pytest.raises(TypeError):
            call(position)
    with pytest.raises(TypeError):
        naive.naive_step(position, "B", 1)
    # its tables are its own, and say what the package says
    from advisor.rules.editions import EDITIONS, TRACK_LENGTH

    assert naive.TRACK == TRACK_LENGTH
    assert set(naive.EDITIONS) == set(EDITIONS)
    for name, ed in EDITIONS.items():
        mine = naive.EDITIONS[name]
        assert (mine.racing, mine.crazy, mine.dice, mine.dice_left) == (ed.racing, ed.crazy, ed.dice, ed.dice_left)
