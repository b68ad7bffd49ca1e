"""Each constant in one module, no dead kernel arguments: the kernels read
every argument they take, and the Python side takes the kernels' sizes and
codes from the kernels instead of restating them."""

from __future__ import annotations

import ast
import inspect
import pathlib
import textwrap

import numpy as np

import advisor
from advisor.warm import kernels


def _unused_parameters(func) -> list[str]:
    tree = ast.parse(textwrap.dedent(inspect.getsource(func)))
    fdef = next(n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef))
    params = [a.arg for a in fdef.args.posonlyargs + fdef.args.args + fdef.args.kwonlyargs]
    used = {n.id for stmt in fdef.body for n in ast.walk(stmt) if isinstance(n, ast.Name)}
    return [p for p in params if p not in used and not p.startswith("_")]


#: Kernels allowed an argument they do not read, with the reason.  The Camel
#: Up Cards leg start takes the whole camel state (``sp``, ``ht``) like every
#: other step of that game; it is rewritten with the Cards leg enumeration.
ALLOWED_UNUSED = {"cards.track.leg_start": ["ht"]}


def test_every_kernel_reads_every_argument():
    """A kernel that ignores an argument makes every caller compute and pass
    it for nothing (the camel count once went through eight kernels that
    never read it)."""
    from advisor.kernels._jit import dispatcher_of

    found = kernels()
    assert "board.track.move_unit" in found and "board.leg.enumerate_joint" in found
    unused = {name: _unused_parameters(dispatcher_of(k).py_func) for name, k in found.items()}
    assert {name: params for name, params in unused.items() if params} == ALLOWED_UNUSED


def test_the_check_sees_an_unused_argument():
    def kernel(board, ncam, tiles):
        return board + tiles

    assert _unused_parameters(kernel) == ["ncam"]


def test_tile_arrays_are_tile_slots_long():
    from advisor.odds.exact import LegOdds
    from advisor.kernels.board.track import TILE_SLOTS
    from advisor.notation import parse_position

    odds = LegOdds(parse_position("1:BGPRY 2:wk"), tuple("BGPRY"), np.zeros((5, 5), np.int64), 1)
    assert odds.landing_counts.shape == (TILE_SLOTS,)


def test_no_module_restates_the_tile_slots():
    """``np.zeros(18)`` or ``TRACK_LENGTH + 2`` for a tile array: the size is
    :data:`advisor.kernels.board.track.TILE_SLOTS`, defined there only."""
    from advisor.kernels.board.track import TILE_SLOTS

    root = pathlib.Path(advisor.__file__).parent
    offenders = []
    for path in root.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_text())):
            if isinstance(node, ast.Call) and getattr(node.func, "attr", None) in ("zeros", "empty", "full") and \
                    node.args and isinstance(node.args[0], ast.Constant) and node.args[0].value == TILE_SLOTS:
                offenders.append(f"{path.relative_to(root)}:{node.lineno}")
            if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add) and \
                    isinstance(node.left, ast.Name) and node.left.id in ("TRACK", "TRACK_LENGTH") and \
                    isinstance(node.right, ast.Constant) and node.right.value == 2 and \
                    path.relative_to(root).as_posix() != "kernels/board/track.py":
                offenders.append(f"{path.relative_to(root)}:{node.lineno}")
    assert not offenders, offenders


def test_cards_track_codes_are_the_kernels():
    from advisor.cards.odds import kernel_state
    from advisor.cards.position import parse_cards
    from advisor.kernels.cards.track import HALF, NORMAL, SAND

    pos = parse_cards("cards track:nnsnnnh 1:BG 2:OWY")
    assert kernel_state(pos).track[:7].tolist() == [NORMAL, NORMAL, SAND, NORMAL, NORMAL, NORMAL, HALF]


def test_cards_leg_stack_is_stated_once():
    """The leg-winner card values of Camel Up Cards come from ``LEG_STACK``:
    every message and check follows it."""
    from advisor.cards.position import LEG_STACK, LEG_VALUES

    assert LEG_VALUES == "532" and tuple(sorted(set(map(int, LEG_VALUES)), reverse=True)) == (5, 3, 2)
    assert set(map(int, LEG_VALUES)) == set(LEG_STACK)
    tree = ast.parse((pathlib.Path(advisor.__file__).parent / "cards" / "position.py").read_text())
    values = set(LEG_STACK)
    stated = [node.lineno for node in ast.walk(tree)
              if isinstance(node, ast.Tuple) and len(node.elts) >= 3 and
              all(isinstance(e, ast.Constant) and e.value in values for e in node.elts)
              or isinstance(node, ast.Constant) and node.value in ("532", "5,3,2,2")]
    assert len(stated) == 1, stated  # LEG_STACK = (5, 3, 2, 2)
