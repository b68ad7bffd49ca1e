"""Imports stand at the top of a module.  An import of an ``advisor``
module inside a function is there only for a reason:

* the imported module loads a heavy library (:data:`HEAVY`: numba, pandas,
  matplotlib, ...) that the importing module does not load at its top, so
  the importer stays light (``import advisor`` and ``camelup --help`` load
  none of them), or
* the line says why it stays, in a comment ``# lazy: ...`` (start-up time
  measured some other way) or ``# import cycle: ...``, or
* the module declares, once at its top, ``LAZY_IMPORTS = "why"``: a front
  end (one module per command of ``camelup``) loads a command's engine only
  when the command runs, so ``camelup --help`` stays fast.  The claim is
  checked (:func:`test_declared_lazy_imports_keep_something_out`): the
  module's in-function imports must keep modules out of its import, and
  none of them may import a module its top loads anyway.

Which library a module loads is measured, not guessed: one fresh
subprocess imports each module in a forked child of its own
(:func:`weights`)."""

from __future__ import annotations

import ast
import functools
import json
import os
import re
import subprocess
import sys

import pytest

from test_layers import ROOT, _modules, _node_imports, _package

#: Libraries that make a module heavy to import (start-up time).
HEAVY = ("numba", "llvmlite", "scipy", "pandas", "pyarrow", "matplotlib", "dask", "distributed", "starlette",
         "uvicorn", "anyio", "tqdm", "segno", "IPython", "nbformat", "playwright")

#: A comment on the import's line that says why it stays in the function.
REASON = re.compile(r"#\s*(lazy|import cycle):\s*\S")

#: The module-level constant by which a module says why its imports stay in
#: its functions (a non-empty text).
LAZY = "LAZY_IMPORTS"

#: How many ``advisor`` modules a ``LAZY_IMPORTS`` module's in-function
#: imports must keep out of its own import at least.
KEPT_OUT_MIN = 5

#: Run in a fresh interpreter: ``advisor`` once (light, by its promise), then
#: every module named on the command line in a forked child of its own;
#: prints ``{module: [heavy libraries it loads]}``.  A module loaded by a
#: light one is light too, so most modules need no child of their own.
_MEASURE = r"""
import importlib, json, os, sys

heavy = set(sys.argv[1].split(","))
import advisor

def loaded():
    return sorted({m.partition(".")[0] for m in sys.modules} & heavy)

assert not loaded(), f"import advisor loads {loaded()}"
weights = {}
for name in sys.argv[2:]:
    if name in weights:
        continue
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        try:
            importlib.import_module(name)
            out = {"heavy": loaded(), "loaded": [m for m in sys.modules if m.split(".")[0] == "advisor"]}
        except BaseException as exc:
            out = {"error": f"{type(exc).__name__}: {exc}"}
        with os.fdopen(write, "w") as fh:
            fh.write(json.dumps(out))
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as fh:
        out = json.loads(fh.read())
    os.waitpid(pid, 0)
    if "error" in out:
        raise SystemExit(f"import {name} failed: {out['error']}")
    weights[name] = out["heavy"]
    if not out["heavy"]:
        weights.update({m: [] for m in out["loaded"] if m not in weights})
print(json.dumps(weights))
"""


def in_function_imports(name: str, source: str, package: str, modules) -> list[tuple[int, str, str]]:
    """``(line, module imported, the statement's text)`` of every import of an
    ``advisor`` module inside a function (nested ones too) of the module
    ``name`` whose text is ``source``."""
    lines = source.splitlines()
    found = []

    def visit(node: ast.AST, inside: bool) -> None:
        for child in ast.iter_child_nodes(node):
            if inside and isinstance(child, (ast.Import, ast.ImportFrom)):
                text = "\n".join(lines[child.lineno - 1:child.end_lineno])
                for target in dict.fromkeys(m for m, _ in _node_imports(child, package, modules)):
                    if target != name:
                        found.append((child.lineno, target, text))
            visit(child, inside or isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)))

    visit(ast.parse(source), False)
    return found


def declares_lazy(source: str) -> bool:
    """Whether the module text ``source`` assigns a non-empty text to
    :data:`LAZY` at its top level."""
    for node in ast.parse(source).body:
        targets = {ast.Assign: lambda: node.targets, ast.AnnAssign: lambda: [node.target]}.get(type(node), list)()
        if any(isinstance(t, ast.Name) and t.id == LAZY for t in targets):
            value = node.value
            return isinstance(value, ast.Constant) and isinstance(value.value, str) and bool(value.value.strip())
    return False


def offenders(name: str, source: str, package: str, modules, weights: dict[str, list[str]]) -> list[tuple[int, str]]:
    """``(line, module imported)`` of the in-function imports of module
    ``name`` that break the rule (module text): the module declares no
    :data:`LAZY`, the imported module loads no heavy library that ``name``
    does not load itself, and the line gives no reason."""
    if declares_lazy(source):
        return []
    out = []
    for line, target, text in in_function_imports(name, source, package, modules):
        lighter = set(weights[target]) - set(weights.get(name, []))
        if not lighter and not REASON.search(text):
            out.append((line, target))
    return out


def measure(names) -> dict[str, list[str]]:
    """``{module: [heavy libraries that importing it loads]}`` for the
    modules ``names`` (and the light modules they load), in one fresh
    subprocess."""
    env = {**os.environ, "PYTHONPATH": str(ROOT.parent) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    proc = subprocess.run([sys.executable, "-c", _MEASURE, ",".join(HEAVY), *names], capture_output=True,
                          text=True, env=env, cwd=ROOT.parent, timeout=600)
    assert proc.returncode == 0, proc.stderr
    return json.loads(proc.stdout)


@functools.lru_cache(maxsize=None)
def weights() -> dict[str, list[str]]:
    """The heavy libraries each module imported inside a function of
    ``advisor`` (and each module doing so) loads, measured once a session."""
    modules = _modules()
    names = set()
    for name, path in modules.items():
        imports = in_function_imports(name, path.read_text(encoding="utf-8"), _package(name, path), modules)
        names.update({target for _, target, _ in imports} | ({name} if imports else set()))
    return measure(sorted(names))


def _all_offenders() -> dict[str, list[str]]:
    """``importer -> imported`` of every offending import in the package,
    with its offending lines (``importer:line``)."""
    modules = _modules()
    found: dict[str, list[str]] = {}
    for name, path in sorted(modules.items()):
        for line, target in offenders(name, path.read_text(encoding="utf-8"), _package(name, path), modules,
                                      weights()):
            found.setdefault(f"{name} -> {target}", []).append(f"{name}:{line} imports {target}")
    return found


SYNTHETIC = '''
from advisor.errors import AdvisorError


def light():
    from advisor.odds.exact import leg_odds
    return leg_odds


def heavy():
    from advisor.kernels.rng import derive
    return derive


def said():
    from advisor.odds.exact import RANK_LABELS  # lazy: the CLI loads this module at start-up
    from ..rules import encode  # import cycle: encode imports this module back
    return RANK_LABELS, encode


class Holder:
    def method(self):
        def inner():
            from ..odds import exact
            return exact
        return inner
'''


def test_the_checker_finds_a_planted_offender():
    """A light module imported inside a function, nested or by a relative
    import, is caught; a heavy one, or one whose line says why, is not."""
    modules = {"advisor.errors": 0, "advisor.odds.exact": 0, "advisor.kernels.rng": 0, "advisor.rules.encode": 0,
               "advisor.valuation.planted": 0}
    weights_ = {"advisor.odds.exact": [], "advisor.kernels.rng": ["numba"], "advisor.rules.encode": []}
    found = offenders("advisor.valuation.planted", SYNTHETIC, "advisor.valuation", modules, weights_)
    assert found == [(6, "advisor.odds.exact"), (24, "advisor.odds.exact")]
    # a heavy module imported inside a module that loads the same library itself: no reason left
    weights_["advisor.valuation.planted"] = ["numba"]
    found = offenders("advisor.valuation.planted", SYNTHETIC, "advisor.valuation", modules, weights_)
    assert found == [(6, "advisor.odds.exact"), (11, "advisor.kernels.rng"), (24, "advisor.odds.exact")]


@pytest.mark.processes
def test_the_weights_are_measured():
    measured = measure(["advisor.kernels.rng", "advisor.odds.exact", "advisor.errors"])
    assert "numba" in measured["advisor.kernels.rng"] and measured["advisor.errors"] == []
    assert measured["advisor.odds.exact"] == []  # its kernels load numba on first use only


@pytest.mark.processes
def test_imports_inside_functions_have_a_reason():
    found = _all_offenders()
    assert not found, ("imports inside a function that load no heavy library the module does not load itself: move "
                       "them to the top of the module, or say why they stay (# lazy: ... / # import cycle: ...)\n"
                       + "\n".join(sum(found.values(), [])))


#: Run in a fresh interpreter: for each ``[module, [targets]]`` of the JSON
#: list ``sys.argv[1]``, a forked child imports the module, then the targets;
#: prints ``{module: [[advisor modules after the module], [after the targets]]}``.
_KEPT_OUT = r"""
import importlib, json, os, sys

def loaded():
    return sorted(m for m in sys.modules if m.split(".")[0] == "advisor")

out = {}
for name, targets in json.loads(sys.argv[1]):
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(read)
        importlib.import_module(name)
        top = loaded()
        for target in targets:
            importlib.import_module(target)
        with os.fdopen(write, "w") as fh:
            fh.write(json.dumps([top, loaded()]))
        os._exit(0)
    os.close(write)
    with os.fdopen(read) as fh:
        text = fh.read()
    os.waitpid(pid, 0)
    if not text:
        raise SystemExit(f"import {name} or of its targets failed")
    out[name] = json.loads(text)
print(json.dumps(out))
"""


def lazy_problems(name: str, top: set[str], after: set[str], imports: list[tuple[int, str]]) -> list[str]:
    """What is wrong with the :data:`LAZY` claim of module ``name``: ``top``
    is the set of ``advisor`` modules that importing it loads, ``after`` the
    set once its in-function ``imports`` (``(line, module)``) are loaded
    too."""
    problems = []
    kept_out = after - top
    if len(kept_out) < KEPT_OUT_MIN:
        problems.append(f"{name}: {LAZY} declared but nothing is kept out: its imports inside functions add "
                        f"{len(kept_out)} module(s) to its import (fewer than {KEPT_OUT_MIN}): move them to the top")
    for line, target in imports:
        if target in top:
            problems.append(f"{name}:{line} imports {target} inside a function, but the module's import loads it "
                            f"anyway: import it at the top")
    return problems


def test_the_lazy_claim_is_checked():
    """A declared module whose in-function imports keep (almost) nothing out,
    or that imports inside a function what its top loads anyway, is caught."""
    assert declares_lazy('"""Doc."""\nLAZY_IMPORTS = "the engine loads when a command runs"\n')
    assert declares_lazy('LAZY_IMPORTS: str = "why"\n')
    assert not declares_lazy('LAZY_IMPORTS = ""\n') and not declares_lazy('def f():\n    LAZY_IMPORTS = "x"\n')
    top = {"advisor", "advisor.cli.x", "advisor.errors"}
    engine = {f"advisor.engine.m{i}" for i in range(KEPT_OUT_MIN)}
    assert lazy_problems("advisor.cli.x", top, top | engine, [(9, "advisor.engine.m0")]) == []
    few = lazy_problems("advisor.cli.x", top, top | {"advisor.engine.m0"}, [(9, "advisor.engine.m0")])
    assert len(few) == 1 and "LAZY_IMPORTS declared but nothing is kept out" in few[0]
    again = lazy_problems("advisor.cli.x", top, top | engine, [(9, "advisor.engine.m0"), (12, "advisor.errors")])
    assert again == ["advisor.cli.x:12 imports advisor.errors inside a function, but the module's import loads it "
                     "anyway: import it at the top"]


@pytest.mark.processes
def test_declared_lazy_imports_keep_something_out():
    """Each module that declares :data:`LAZY` really keeps modules out of
    its import by importing inside its functions (measured in a fresh
    process), and imports there nothing that its top loads anyway."""
    modules = _modules()
    declared = {}
    for name, path in sorted(modules.items()):
        source = path.read_text(encoding="utf-8")
        if declares_lazy(source):
            declared[name] = [(line, target) for line, target, _ in
                              in_function_imports(name, source, _package(name, path), modules)]
    assert "advisor.cli.analysis" in declared  # the command line's handlers load their engine when they run
    env = {**os.environ, "PYTHONPATH": str(ROOT.parent) + os.pathsep + os.environ.get("PYTHONPATH", "")}
    argument = json.dumps([[name, sorted({t for _, t in imports})] for name, imports in declared.items()])
    proc = subprocess.run([sys.executable, "-c", _KEPT_OUT, argument], capture_output=True, text=True, env=env,
                          cwd=ROOT.parent, timeout=600)
    assert proc.returncode == 0, proc.stderr
    measured = json.loads(proc.stdout)
    problems = sum((lazy_problems(name, set(measured[name][0]), set(measured[name][1]), imports)
                    for name, imports in declared.items()), [])
    assert not problems, "\n".join(problems)
