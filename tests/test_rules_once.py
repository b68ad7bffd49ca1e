"""Each payout written once: no module of the package outside the rules
(``advisor/rules/``, and Camel Up Cards' rules in ``advisor/cards/game.py``
and ``advisor/cards/position.py``) holds a copy of a payout table, of the
overall cards' ladder or of the money floor.  Code that needs one reads it
from the rules (the edition record, ``advisor.rules.scoring``,
``advisor.cards.game``), so a rule variant changes it everywhere at once.

The tables looked for are taken from the rules themselves, so the check
follows them; :func:`copies` is tested on planted copies below."""

from __future__ import annotations

import ast
import pathlib

import pytest

import advisor
from advisor.cards.game import LOSER_PAY, MID_PAY, WINNER_PAY, floor_money
from advisor.cards.position import LEG_STACK as CARDS_LEG_STACK
from advisor.rules.editions import EDITIONS

ROOT = pathlib.Path(advisor.__file__).parent

#: Where the rules live: the only modules that may write the tables down.
RULE_MODULES = ("rules/", "cards/game.py", "cards/position.py")

#: The calls that floor a value: ``max(money, 0)``, ``np.maximum(0, money)``, ``np.clip(money, 0, None)``.
FLOORING = ("max", "maximum", "fmax", "clip")

#: Names that say a value is money.
MONEY_WORDS = ("money", "coin", "cash", "wealth")


def ladders() -> set[tuple[int, ...]]:
    """Every overall ladder and every prefix of it of three or more rungs
    (``8, 5, 3, 2, 1`` then ``8, 5, 3, 2`` and ``8, 5, 3``)."""
    out = set()
    for ed in EDITIONS.values():
        ladder = ed.pile_payouts + (ed.pile_rest,)
        out |= {ladder[:k] for k in range(3, len(ladder) + 1)}
    return out


def tables() -> set[tuple[int, ...]]:
    """The payout tables of every game: leg tile stacks, the overall ladder,
    Camel Up Cards' midfield and overall cards and its leg-winner cards."""
    out = {ed.leg_stack for ed in EDITIONS.values()} | ladders()
    return out | {MID_PAY, WINNER_PAY, LOSER_PAY, CARDS_LEG_STACK}


def floors() -> set[int]:
    """The money floor of every game (the board games' and Camel Up Cards')."""
    return {ed.money_floor for ed in EDITIONS.values() if ed.money_floor is not None} | {floor_money(-100)}


def _number(node: ast.AST) -> int | None:
    if isinstance(node, ast.Constant) and type(node.value) is int:
        return node.value
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        inner = _number(node.operand)
        return None if inner is None else -inner
    return None


def _money(node: ast.AST) -> bool:
    names = [n.id for n in ast.walk(node) if isinstance(n, ast.Name)]
    names += [n.attr for n in ast.walk(node) if isinstance(n, ast.Attribute)]
    return any(word in name.lower() for name in names for word in MONEY_WORDS)


def copies(source: str, table_set: set[tuple[int, ...]], floor_set: set[int]) -> list[str]:
    """``line: what`` for each copy of a rule in the Python ``source``: a
    tuple or list literal equal to one of ``table_set``, or a call flooring
    money at one of ``floor_set`` (``max(money, 0)``, ``np.maximum(0, coins)``)."""
    found = []
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.Tuple, ast.List)) and len(node.elts) >= 3:
            values = tuple(_number(e) for e in node.elts)
            if None not in values and values in table_set:
                found.append(f"{node.lineno}: payout table {values}")
        elif isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name in FLOORING and len(node.args) >= 2:
                consts = [_number(a) for a in node.args]
                if any(c in floor_set for c in consts if c is not None) and \
                        any(c is None and _money(a) for c, a in zip(consts, node.args)):
                    found.append(f"{node.lineno}: money floor {ast.unparse(node)}")
    return found


def test_no_rule_is_copied_outside_the_rules():
    table_set, floor_set = tables(), floors()
    found = []
    for path in sorted(ROOT.rglob("*.py")):
        rel = path.relative_to(ROOT).as_posix()
        if rel.startswith(RULE_MODULES):
            continue
        found += [f"advisor/{rel}:{hit}" for hit in copies(path.read_text(encoding="utf-8"), table_set, floor_set)]
    assert not found, "a rule copied outside the rules (read it from the rules instead):\n" + "\n".join(found)


def test_the_rules_hold_the_tables_looked_for():
    """The tables come from the rules: each is written down in a rule module
    (so the scan looks for what is really there)."""
    table_set, floor_set = tables(), floors()
    assert {(5, 3, 2, 2), (5, 3, 2), (8, 5, 3, 2, 1), (8, 5, 3)} <= table_set and floor_set == {0, 1}
    held = set()
    for path in ROOT.joinpath("rules").glob("*.py"):
        held |= {hit.split(": ", 1)[1] for hit in copies(path.read_text(encoding="utf-8"), table_set, floor_set)}
    assert "payout table (5, 3, 2, 2)" in held and "payout table (8, 5, 3, 2)" in held


@pytest.mark.parametrize("planted", [
    "STACK = (5, 3, 2, 2)",
    "ladder = [8, 5, 3, 2, 1]",
    "top = (8, 5, 3)",
    "pays = np.array([7, 3, -1, -1, -1])",
    "mid = (-1, 1, 2, 1, -1)",
    "money = max(money + pay, 0)",
    "coins = np.maximum(0, coins - 1)",
    "cards_money = max(1, state.money)",
    "m = np.clip(money, 0, None)",
])
def test_the_scan_finds_a_planted_copy(planted):
    source = f"import numpy as np\n\n\ndef f(money, coins, state, pay):\n    {planted}\n"
    assert copies(source, tables(), floors()) != []


@pytest.mark.parametrize("innocent", [
    "players = max(0, args.players - 1)",
    "k = max(k, 1)",
    "stack = (5, 3)",
    "best = max(p.money for p in players)",
    "money = floor_money(money + pay)",
    "sizes = (8, 5, 2)",
])
def test_the_scan_passes_what_is_no_copy(innocent):
    source = f"def f(args, k, players, money, pay):\n    {innocent}\n"
    assert copies(source, tables(), floors()) == []
