"""The floors of the package: every import of ``advisor/`` (at the top of a
module or inside a function alike) points to the same floor or a lower one,
the import graph has no circle, and no module imports a private name
(``_x``) of another.  docs/architecture.md describes the floors."""

from __future__ import annotations

import ast
from pathlib import Path

import advisor

ROOT = Path(advisor.__file__).resolve().parent

#: Floor of every module, lowest first (a package's ``__init__`` is the
#: package's own name).
FLOORS = [
    # 0: plain tools with no game knowledge
    ["advisor._version", "advisor.data", "advisor.errors", "advisor._tools", "advisor._tools.*"],
    # 1: the Numba kernels
    ["advisor.kernels", "advisor.kernels.*"],
    # 2: the rules core: editions, positions, scoring, actions, the game state, one roll, one turn; Cards rules
    ["advisor.rules", "advisor.rules.*", "advisor.notation", "advisor.cards.position", "advisor.cards.actions",
     "advisor.cards.game", "advisor.cards.chance"],
    # 3: odds
    ["advisor.odds", "advisor.odds.*", "advisor.cards.odds"],
    # 4: the value of every action
    ["advisor.valuation", "advisor.valuation.*", "advisor.cards", "advisor.cards.advice", "advisor.cards.fast",
     "advisor.cards.rival", "advisor.cards.endgame", "advisor.cards.best"],
    # 5: whole games and bots
    ["advisor.game", "advisor.bots", "advisor.bots.*", "advisor.cards.record", "advisor.cards.bots",
     "advisor.cards.steps"],
    # 6: many games and positions: simulations, duels, batch analysis, reviews; compiling the kernels ahead
    ["advisor.simulate", "advisor.simulate.*", "advisor.batch", "advisor.batch.*", "advisor.reviews",
     "advisor.reviews.*", "advisor.warm", "advisor.compiling"],
    # 7: pictures and reports
    ["advisor.present", "advisor.present.*", "advisor.plotting"],
    # 8: one reader of user input (which input a text is, and the input read) for the front ends
    ["advisor.inputs"],
    # 9: front ends and the public API
    ["advisor", "advisor.cli", "advisor.cli.*", "advisor.web", "advisor.web.*"],
]


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = ("advisor",) + path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _package(name: str, path: Path) -> str:
    """The package that relative imports in module ``name`` start from."""
    return name if path.name == "__init__.py" else name.rpartition(".")[0]


def _node_imports(node: ast.Import | ast.ImportFrom, package: str, modules: dict) -> list[tuple[str, str]]:
    """``(module imported, name imported)`` of one import statement (name
    ``""`` for a module itself), modules of ``advisor`` only."""
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = package.split(".")[: len(package.split(".")) - node.level + 1]
            source = ".".join(base + ([node.module] if node.module else []))
        else:
            source = node.module or ""
        out = []
        for alias in node.names:
            sub = f"{source}.{alias.name}"
            out.append((sub, "") if sub in modules else (source, alias.name))
    else:
        out = [(alias.name, "") for alias in node.names]
    return [(m, n) for m, n in out if m in modules]


def _imports(name: str, path: Path, modules: dict) -> list[tuple[str, str]]:
    """``(module imported, name imported)`` of every import in ``path``."""
    package = _package(name, path)
    return [pair for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
            if isinstance(node, (ast.Import, ast.ImportFrom)) for pair in _node_imports(node, package, modules)]


def _floor(name: str) -> int:
    for k, names in enumerate(FLOORS):
        for pattern in names:
            if name == pattern or (pattern.endswith(".*") and name.startswith(pattern[:-1])):
                return k
    raise AssertionError(f"{name} has no floor in tests/test_layers.py: give it one")


def _graph() -> dict[str, set[str]]:
    modules = _modules()
    return {name: {m for m, _ in _imports(name, path, modules) if m != name} for name, path in modules.items()}


def test_every_module_has_a_floor():
    for name in _modules():
        _floor(name)


def test_imports_point_down_only():
    upward = [f"{a} (floor {_floor(a)}) imports {b} (floor {_floor(b)})"
              for a, targets in _graph().items() for b in targets if _floor(b) > _floor(a)]
    assert not upward, "\n".join(sorted(upward))


def test_no_import_circle():
    graph = _graph()
    state: dict[str, int] = {}  # 1: on the path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for nxt in sorted(graph[node]):
            if state.get(nxt) == 1:
                return path[path.index(nxt):] + [nxt]
            if nxt not in state:
                found = visit(nxt)
                if found:
                    return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state:
            circle = visit(node)
            assert circle is None, "import circle: " + " -> ".join(circle)


def test_no_private_name_imported_across_modules():
    modules = _modules()
    private = [f"{name} imports {name_!r} from {source}" for name, path in modules.items()
               for source, name_ in _imports(name, path, modules)
               if name_.startswith("_") and not name_.startswith("__") and source != name]
    assert not private, "\n".join(private)


def test_the_rules_folder_is_one_floor():
    """``advisor/rules/`` is the rules floor as a whole: each of its modules
    is on the rules floor and imports only the rules folder itself and the
    floors below (tools and kernels): no odds, plotting, valuation or games."""
    graph = _graph()
    rules = [name for name in graph if name == "advisor.rules" or name.startswith("advisor.rules.")]
    assert len(rules) >= 11
    floor = _floor("advisor.rules")
    for name in rules:
        assert _floor(name) == floor, name
        outside = {b for b in graph[name] if b != "advisor.rules" and not b.startswith("advisor.rules.")}
        assert all(_floor(b) < floor for b in outside), f"{name} imports {sorted(outside)}"


def test_every_folder_is_one_floor():
    """The folders show the layers: every module of a sub-package of
    ``advisor`` stands on its package's floor (``advisor/cards/``, the
    Camel Up Cards slice, spans the floors from its rules up to its bots)."""
    modules = _modules()
    for name in modules:
        parts = name.split(".")
        if len(parts) < 3 or parts[1] in ("cards",):
            continue
        package = ".".join(parts[:2])
        assert _floor(name) == _floor(package), f"{name} is not on the floor of {package}"


def test_the_rules_draw_nothing_and_know_no_advisor():
    """The rules floor imports no plotting, odds, valuation or games (a
    position shows as a picture through the hook plotting registers)."""
    graph = _graph()
    for name in graph:
        if name.startswith("advisor.rules"):
            assert all(_floor(b) <= _floor("advisor.rules") for b in graph[name]), name
    from advisor import parse_position
    from advisor.rules.position import DISPLAY_HOOKS

    assert "svg" in DISPLAY_HOOKS  # registered by ``import advisor``
    assert hasattr(parse_position(advisor.EXAMPLE_POSITION), "_repr_svg_")


def test_game_engine_imports_no_valuation():
    graph = _graph()
    for name in ("advisor.game", "advisor.rules.turn", "advisor.rules.actions", "advisor.reviews.scoresheet"):
        assert not {"advisor.valuation.engine", "advisor.odds.montecarlo", "advisor.odds.exact"} & graph[name], name


#: The house's size limits (docs/architecture.md): lines of a module, lines of a function.
MODULE_LINES, FUNCTION_LINES = 800, 100


def oversized(source: str, name: str) -> list[str]:
    """What in ``source`` (module ``name``) is over the size limits."""
    found = []
    lines = source.count("\n") + (not source.endswith("\n"))
    if lines > MODULE_LINES:
        found.append(f"{name}: {lines} lines (at most {MODULE_LINES})")
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            length = node.end_lineno - node.lineno + 1
            if length > FUNCTION_LINES:
                found.append(f"{name}:{node.lineno} {node.name}: {length} lines (at most {FUNCTION_LINES})")
    return found


def test_no_module_over_800_lines_and_no_function_over_100():
    found = [hit for path in sorted(ROOT.rglob("*.py"))
             for hit in oversized(path.read_text(encoding="utf-8"), str(path.relative_to(ROOT)))]
    assert not found, "\n".join(found)


def test_the_size_check_finds_a_long_function_and_a_long_module():
    long_function = "def f():\n" + "    x = 1\n" * 100
    assert oversized(long_function, "m") == ["m:1 f: 101 lines (at most 100)"]
    assert oversized("x = 1\n" * 801, "m") == ["m: 801 lines (at most 800)"]
    assert oversized("def f():\n" + "    x = 1\n" * 99, "m") == []
