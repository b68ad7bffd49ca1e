"""The joint distribution of the final race order and the landings on one
tile (enumerate_joint) against the naive reference."""

from collections import Counter

import numpy as np
import pytest

from advisor import parse_position, random_position
from advisor.rules.encode import encode
from advisor.kernels.board.leg import enumerate_joint, enumerate_leg
from advisor.kernels.ranks import RANK_CODES, rank_codes
from naive import naive_leg_counts

NAMED = [
    "1:B 2:YG 3:PR 14:w 15:k +4@0 -7@1 dice:GPRx",
    "3:B 4:YG 5:PR 9:w 11:k -6@0 dice:BGYx",          # boo tile right ahead of a stack
    "1:B 2:YG 3:PR 8:w 10:k +9@0 dice:GPx",            # crazy camel on the cheering tile
    "first 2:B 3:YG 4:OW +6@0 +9@1 dice:BGOY",
    "13:BG 14:PR 15:Y 10:w 12:k +16@0 dice:BGPx",      # cheering on 16: races end
]


def kernel_joint(pos, track):
    enc = encode(pos)
    orders = np.zeros((RANK_CODES, enc.rolls + 1), np.int64)
    landings = np.zeros(enc.tiles.size, np.int64)
    enumerate_joint(enc.board, enc.dice, enc.rolls, enc.tiles, False, track, orders, landings,
                    np.zeros(enc.tiles.size, np.int64))
    ranks = rank_codes()
    racing = pos.rules.racing
    out = Counter()
    for code, n in zip(*np.nonzero(orders)):
        order = tuple(sorted(racing, key=lambda c: ranks[code, racing.index(c)]))
        out[(order, int(n))] += int(orders[code, n])
    return out, landings


def check(pos, track):
    got, landings = kernel_joint(pos, track)
    assert got == naive_leg_counts(str(pos), track=track)["joint"]
    assert sum(n * w for (_, n), w in got.items()) == landings[track]


@pytest.mark.parametrize("text", NAMED)
def test_named(text):
    pos = parse_position(text)
    for tile in pos.tiles:
        check(pos, tile.space)


def test_random():
    rng = np.random.default_rng(17)
    for i in range(60):
        pos = random_position("first" if i % 3 == 0 else "second", rng, dice=int(rng.integers(2, 5)), tiles=2)
        if pos.tiles:
            check(pos, pos.tiles[i % len(pos.tiles)].space)


def test_untracked_matches_enumerate_leg():
    pos = parse_position(NAMED[0])
    enc = encode(pos)
    orders = np.zeros((RANK_CODES, 1), np.int64)
    enumerate_joint(enc.board, enc.dice, enc.rolls, enc.tiles, False, 0, orders,
                    np.zeros(enc.tiles.size, np.int64), np.zeros(enc.tiles.size, np.int64))
    ranks = np.zeros((5, 5), np.int64)
    enumerate_leg(enc.board, enc.dice, enc.rolls, enc.tiles, False, ranks, np.zeros(enc.tiles.size, np.int64))
    table = rank_codes()
    derived = np.zeros((5, 5), np.int64)
    for code in np.nonzero(orders[:, 0])[0]:
        derived[np.arange(5), table[code]] += orders[code, 0]
    np.testing.assert_array_equal(derived, ranks)
    assert (table[np.nonzero(orders[:, 0])[0]] >= 0).all()


def test_rank_codes_cover_every_order_once():
    table = rank_codes()
    valid = table[table[:, 0] >= 0]
    assert len(valid) == 120 and len({tuple(r) for r in valid}) == 120


def test_reached_spaces_are_where_moves_end():
    """A tile on a space no move ends on changes nothing: every other space
    of the track gets no landing when a tile is put there."""
    rng = np.random.default_rng(23)
    for _ in range(25):
        pos = random_position("second", rng, dice=3)
        enc = encode(pos)
        reached = np.zeros(enc.tiles.size, np.int64)
        enumerate_joint(enc.board, enc.dice, enc.rolls, enc.tiles, False, 0,
                        np.zeros((RANK_CODES, 1), np.int64), np.zeros(enc.tiles.size, np.int64), reached)
        occupied = {s for s, _ in pos.stacks}
        for space in range(2, 17):
            if space in occupied:
                continue
            from advisor import Tile
            from dataclasses import replace

            with_tile = replace(pos, tiles=(Tile(space, "+", 0),))
            landings = naive_leg_counts(str(with_tile))["landings"].get(space, 0)
            assert (landings > 0) == bool(reached[space]), (str(pos), space)
