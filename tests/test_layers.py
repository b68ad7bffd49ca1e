"""The floors of the package: every import of ``advisor/`` (at the top of a
module or inside a function alike) points to the same floor or a lower one,
the import graph has no circle, and no module imports a private name
(``_x``) of another.  README.md, Architecture, describes the floors."""

from __future__ import annotations

import ast
from pathlib import Path

import advisor

ROOT = Path(advisor.__file__).resolve().parent

#: Floor of every module, lowest first (a package's ``__init__`` is the
#: package's own name).
FLOORS = [
    # 0: plain tools and the kernels
    ["advisor._version", "advisor.data", "advisor.errors", "advisor.tokens", "advisor.cluster", "advisor.jsonio", "advisor.jsonout", "advisor.files",
     "advisor.sampling", "advisor.kernels", "advisor.kernels.*"],
    # 1: the rules as data (editions, positions, scoring, the actions as values), notation, encoding, one roll
    ["advisor.rules", "advisor.rules.editions", "advisor.rules.boardtext", "advisor.rules.position",
     "advisor.rules.setup", "advisor.rules.scoring", "advisor.rules.actions", "advisor.notation", "advisor.encode",
     "advisor.moves", "advisor.cards.position"],
    # 2: odds
    ["advisor.exact", "advisor.montecarlo", "advisor.cards.odds", "advisor.levels"],
    # 3: the game state
    ["advisor.state"],
    # 4: the rules core of a turn on a game state: legality, apply, scoring of a turn
    ["advisor.turns", "advisor.cards.actions", "advisor.cards.game", "advisor.cards.chance"],
    # 5: valuation
    ["advisor.overall", "advisor.valuation", "advisor.portfolio", "advisor.standing", "advisor.winchance", "advisor.ev", "advisor.fastev", "advisor.cards.advice", "advisor.cards",
     "advisor.cards.fast", "advisor.cards.rival", "advisor.cards.endgame",
     "advisor.explain"],
    # 6: whole games and bots; compiling the kernels ahead (warm-up)
    ["advisor.dice", "advisor.game", "advisor.inference", "advisor.bots", "advisor.scoresheet", "advisor.warm",
     "advisor.cards.record", "advisor.cards.bots", "advisor.cards.steps"],
    # 7: many positions, recorded games, tournaments
    ["advisor.batchio", "advisor.batch", "advisor.distributed", "advisor.simulate", "advisor.duel",
     "advisor.gamereview"],
    # 8: pictures and reports
    ["advisor.plotting", "advisor.report"],
    # 9: front ends and the public API
    ["advisor", "advisor.cli", "advisor.review_cli", "advisor.duel_cli", "advisor.bot_cli", "advisor.play", "advisor.cards.play",
     "advisor.web", "advisor.web.*"],
]


def _modules() -> dict[str, Path]:
    out = {}
    for path in ROOT.rglob("*.py"):
        parts = ("advisor",) + path.relative_to(ROOT).with_suffix("").parts
        if parts[-1] == "__init__":
            parts = parts[:-1]
        out[".".join(parts)] = path
    return out


def _imports(name: str, path: Path, modules: dict) -> list[tuple[str, str]]:
    """``(module imported, name imported)`` of every import in ``path``."""
    package = name if path.name == "__init__.py" else name.rpartition(".")[0]
    out = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if isinstance(node, ast.ImportFrom):
            if node.level:
                base = package.split(".")[: len(package.split(".")) - node.level + 1]
                source = ".".join(base + ([node.module] if node.module else []))
            else:
                source = node.module or ""
            for alias in node.names:
                sub = f"{source}.{alias.name}"
                out.append((sub, "") if sub in modules else (source, alias.name))
        elif isinstance(node, ast.Import):
            out += [(alias.name, "") for alias in node.names]
    return [(m, n) for m, n in out if m in modules]


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
    is on floor 1 and imports only the rules folder itself and floor 0 (no
    encoding, game state, odds, plotting, valuation or games; what needs
    them stands outside the folder, on its own floor: ``advisor.moves``
    beside the encoding, ``advisor.turns`` above the game state)."""
    graph = _graph()
    rules = [name for name in graph if name == "advisor.rules" or name.startswith("advisor.rules.")]
    assert len(rules) >= 6
    for name in rules:
        assert _floor(name) == 1, name
        outside = {b for b in graph[name] if b != "advisor.rules" and not b.startswith("advisor.rules.")}
        assert all(_floor(b) == 0 for b in outside), f"{name} imports {sorted(outside)}"


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
    for name in ("advisor.game", "advisor.turns", "advisor.rules.actions", "advisor.scoresheet"):
        assert not {"advisor.valuation", "advisor.ev", "advisor.fastev", "advisor.montecarlo", "advisor.exact"} & graph[name], name


def test_the_former_valuation_modules_serve_users_only():
    """``advisor.ev`` and ``advisor.fastev`` re-export the one valuation
    under their former names for users; the package itself imports
    ``advisor.valuation`` (so the former names can go without a change
    inside)."""
    graph = _graph()
    users = sorted(name for name, targets in graph.items()
                   if {"advisor.ev", "advisor.fastev"} & targets and name not in ("advisor.ev", "advisor.fastev"))
    assert not users, users
