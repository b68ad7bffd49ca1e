"""The one rank-code definition (advisor/kernels/ranks.py), used by the board
games and Camel Up Cards alike."""

from __future__ import annotations

import ast
import itertools
import pathlib

import numpy as np

import advisor
from advisor.kernels.board import track as board_kernels
from advisor.kernels.cards import track as cards_kernels
from advisor.kernels import ranks
from advisor.kernels.ranks import RANK_CODES, add_rank_codes, code_of_ranks, codes_of, rank_codes, ranks_of_code


def test_table_is_every_race_order_once():
    table = rank_codes()
    assert table.shape == (RANK_CODES, 5) and table.dtype == np.int64
    assert not table.flags.writeable
    orders = table[table[:, 0] >= 0]
    assert len(orders) == 120
    assert {tuple(r) for r in orders.tolist()} == set(itertools.permutations(range(5)))
    assert (table[table[:, 0] < 0] == -1).all()


def test_encoding_and_decoding_are_inverse():
    for perm in itertools.permutations(range(5)):
        # the definition in words: r0 + 5 r1 + 25 r2 + 125 r3
        code = perm[0] + 5 * perm[1] + 25 * perm[2] + 125 * perm[3]
        assert code_of_ranks(*perm[:4]) == code
        assert tuple(ranks_of_code(code)) == perm
        assert rank_codes()[code].tolist() == list(perm)
    table = rank_codes()
    valid = np.nonzero(table[:, 0] >= 0)[0]
    assert codes_of(table[valid]).tolist() == valid.tolist()


def test_add_rank_codes_expands_counts():
    rng = np.random.default_rng(3)
    table = rank_codes()
    valid = np.nonzero(table[:, 0] >= 0)[0]
    counts = np.zeros(RANK_CODES, np.int64)
    counts[valid] = rng.integers(0, 1000, size=valid.size)
    got = np.zeros((5, 5), np.int64)
    add_rank_codes(counts, got)
    want = np.zeros((5, 5), np.int64)
    for code in valid:
        for camel in range(5):
            want[camel, table[code, camel]] += counts[code]
    assert got.tolist() == want.tolist()


def test_both_games_code_race_orders_alike():
    """A board-game board and a Camel Up Cards state with the same race
    order give the same code."""
    from advisor import parse_position
    from advisor.rules.encode import encode

    enc = encode(parse_position("1:B 2:YG 3:PR 14:w 15:k"))
    # order, leading first: R P G Y B -> ranks B 4, G 2, P 1, R 0, Y 3
    assert rank_codes()[board_kernels.rank_code(enc.board)].tolist() == [4, 2, 1, 0, 3]
    sp = np.array([1, 2, 3, 3, 2], np.int64)  # B G O W Y
    ht = np.array([0, 0, 0, 1, 1], np.int64)
    # order: W O Y G B -> ranks B 4, G 3, O 1, W 0, Y 2
    assert rank_codes()[cards_kernels.rank_code(sp, ht)].tolist() == [4, 3, 1, 0, 2]
    assert cards_kernels.CODES == RANK_CODES


def test_no_other_module_decodes_rank_codes():
    """The decoding (``code // 125`` and friends) is written in ranks.py only."""
    root = pathlib.Path(advisor.__file__).parent
    offenders = []
    for path in root.rglob("*.py"):
        if path == pathlib.Path(ranks.__file__):
            continue
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.BinOp) and isinstance(node.op, (ast.FloorDiv, ast.Mult)) and any(
                    isinstance(side, ast.Constant) and side.value in (25, 125, 625) for side in (node.left, node.right)):
                offenders.append(f"{path.relative_to(root)}:{node.lineno}")
            if isinstance(node, ast.Assign) and isinstance(node.value, ast.Constant) and node.value.value == 625:
                offenders.append(f"{path.relative_to(root)}:{node.lineno}")
    assert not offenders, offenders
