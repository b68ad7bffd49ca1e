"""Frozen results of the slow references (``tests/golden/references.json``).

The pure-Python references (``tests/naive*.py``, and the former kernels
``dfs_cards.py`` and ``pairs_cards.py``) take seconds to minutes a
position.  A test's reference computation is declared with
:func:`reference` and its arguments with :meth:`Frozen.freeze`::

    @reference
    def naive_codes(text): ...          # the slow computation, plain arguments
    naive_codes.freeze([(t,) for t in REFERENCE])

Calling ``naive_codes(text)`` then returns the frozen result when the golden
file holds an entry for ``(function, arguments)`` written from the sources
the reference stands on today, and computes it live otherwise (a stale value
is never trusted).  The sources are every ``tests/naive*.py``, the
function's own text and that of the test-module functions it calls, the
plain constants it reads, and every file of the package or of ``tests/`` it
names (a module, a function or class from one); ``depends`` adds more.

``tests/test_references.py`` fails when an entry is stale, missing or no
longer used (``python tests/golden/make_references.py`` rewrites them), and
re-derives a sample of the entries live in every run: the cheapest entry of
each reference and further cheap ones up to :data:`SAMPLE_SECONDS` (all of
them with ``CAMELUP_FULL_REFERENCE=1``, as for ``golden/differential.json``).

Results are stored exactly: integers as they are, floats with ``repr`` (they
round-trip bit for bit), fractions as ``"p/q"``, numpy arrays with their
dtype and shape (non-zero entries only).
"""

from __future__ import annotations

import hashlib
import importlib
import inspect
import json
import os
import sys
import types
from fractions import Fraction
from pathlib import Path

import numpy as np

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
GOLDEN_PATH = TESTS / "golden" / "references.json"
MAKE_COMMAND = "python tests/golden/make_references.py"
#: the test modules that declare frozen references (imported to list them all)
MODULES = ("test_cards_advice", "test_cards_others", "test_cards_race", "test_cards_rules", "test_perft",
           "test_race")
#: the sample re-derived in every run: the cheapest entry of each reference
#: (if it took at most PER_REFERENCE_SECONDS), then further entries, cheapest
#: first, while their recorded times stay within SAMPLE_SECONDS in all
PER_REFERENCE_SECONDS, SAMPLE_SECONDS = 5.0, 8.0

#: name -> the declared reference
REGISTRY: dict[str, Frozen] = {}


def full_reference() -> bool:
    """``CAMELUP_FULL_REFERENCE=1``: re-derive every frozen reference result."""
    return os.environ.get("CAMELUP_FULL_REFERENCE") == "1"


# ------------------------------------------------------------------ encoding
def encode(value):
    """``value`` as JSON data that :func:`decode` turns back into an equal value."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, np.ndarray):
        flat = value.ravel()
        nonzero = np.flatnonzero(flat)
        return {"__array__": str(value.dtype), "shape": list(value.shape),
                "at": nonzero.tolist(), "values": flat[nonzero].tolist()}
    if isinstance(value, np.generic):
        return encode(value.item())
    if isinstance(value, Fraction):
        return {"__fraction__": f"{value.numerator}/{value.denominator}"}
    if isinstance(value, tuple):
        return {"__tuple__": [encode(v) for v in value]}
    if isinstance(value, list):
        return [encode(v) for v in value]
    if isinstance(value, dict):
        if all(isinstance(k, str) and not k.startswith("__") for k in value):
            return {k: encode(v) for k, v in value.items()}
        return {"__items__": [[encode(k), encode(v)] for k, v in value.items()]}
    raise TypeError(f"cannot freeze a {type(value).__name__}: {value!r}")


def decode(data):
    """The value :func:`encode` wrote."""
    if isinstance(data, list):
        return [decode(v) for v in data]
    if not isinstance(data, dict):
        return data
    if "__array__" in data:
        out = np.zeros(int(np.prod(data["shape"])), data["__array__"])
        out[np.array(data["at"], np.int64)] = data["values"]
        return out.reshape(data["shape"])
    if "__fraction__" in data:
        return Fraction(data["__fraction__"])
    if "__tuple__" in data:
        return tuple(decode(v) for v in data["__tuple__"])
    if "__items__" in data:
        return {_hashable(decode(k)): decode(v) for k, v in data["__items__"]}
    return {k: decode(v) for k, v in data.items()}


def _hashable(key):
    return tuple(_hashable(k) for k in key) if isinstance(key, (list, tuple)) else key


def dumps(data) -> str:
    return json.dumps(data, sort_keys=True, separators=(",", ":"))


# ------------------------------------------------------------------ sources
def _canonical(value) -> str | None:
    """A stable text of a plain constant (``None``: not a plain value)."""
    if value is None or isinstance(value, (bool, int, float, str, bytes, Fraction)):
        return repr(value)
    if isinstance(value, (tuple, list)):
        parts = [_canonical(v) for v in value]
        return None if None in parts else f"{type(value).__name__}({','.join(parts)})"
    if isinstance(value, (set, frozenset)):
        parts = [_canonical(v) for v in value]
        return None if None in parts else f"set({','.join(sorted(parts))})"
    if isinstance(value, dict):
        parts = [(_canonical(k), _canonical(v)) for k, v in value.items()]
        if any(None in p for p in parts):
            return None
        return f"dict({','.join(sorted(f'{k}:{v}' for k, v in parts))})"
    return None


def _project_file(obj) -> Path | None:
    """The file of the package or of ``tests/`` that ``obj`` (a module, or a
    function or class from one) comes from; ``None`` for anything else."""
    if isinstance(obj, types.ModuleType):
        name = obj.__name__
    else:
        name = getattr(obj, "__module__", None)
    module = sys.modules.get(name) if isinstance(name, str) else None
    path = getattr(module, "__file__", None)
    if not path or not path.endswith(".py"):
        return None
    path = Path(path).resolve()
    return path if name.split(".")[0] == "advisor" or path.parent == TESTS else None


def _label(path: Path) -> str:
    """``advisor/...`` or ``tests/...``: the file's name wherever the package is imported from."""
    if path.parent == TESTS:
        return f"tests/{path.name}"
    parts = path.parts
    start = len(parts) - 1 - parts[::-1].index("advisor")
    return "/".join(parts[start:])


def _names(code: types.CodeType):
    yield from code.co_names
    for const in code.co_consts:
        if isinstance(const, types.CodeType):
            yield from _names(const)


def dependencies(func, files: set[Path], texts: dict[str, str]) -> None:
    """Add to ``files`` the project files ``func`` names and to ``texts`` the
    source of the test-module functions and the plain constants it reads,
    following the functions of its own module."""
    home = Path(inspect.getsourcefile(func)).resolve()
    key = f"{home.stem}.{func.__qualname__}"
    if key in texts:
        return
    texts[key] = inspect.getsource(func)
    for name in set(_names(func.__code__)):
        if name not in func.__globals__:
            continue
        value = func.__globals__[name]
        if isinstance(value, Frozen):
            value = value.func
        if isinstance(value, types.FunctionType) and Path(inspect.getsourcefile(value)).resolve() == home:
            dependencies(value, files, texts)
            continue
        path = _project_file(value)
        if path is not None and path != home:
            files.add(path)
        elif not isinstance(value, (types.ModuleType, type, types.FunctionType)):
            text = _canonical(value)
            if text is not None:
                texts[f"{home.stem}.{name}"] = text


# ------------------------------------------------------------------ the golden file
_GOLDEN: dict = {}


def golden() -> dict:
    """The golden file's entries: key -> ``{"source", "result", "seconds", ...}``."""
    if not _GOLDEN and GOLDEN_PATH.exists():
        _GOLDEN.update(json.loads(GOLDEN_PATH.read_text())["entries"])
    return _GOLDEN


class Frozen:
    """A slow reference computation whose results are frozen per arguments."""

    def __init__(self, func, depends=()):
        self.func = func
        self.name = f"{Path(inspect.getsourcefile(func)).stem}.{func.__qualname__}"
        self.depends = tuple(depends)
        self.cases: list[tuple] = []
        self._source: str | None = None
        self.__doc__ = func.__doc__
        self.__wrapped__ = func

    def freeze(self, cases) -> None:
        """Declare the argument tuples whose results the golden file holds."""
        for args in cases:
            args = tuple(args)
            if args not in self.cases:
                self.cases.append(args)

    def source(self) -> str:
        """The digest of every source the reference stands on."""
        if self._source is None:
            files = set(TESTS.glob("naive*.py")) | {ROOT / d for d in self.depends}
            texts: dict[str, str] = {}
            dependencies(self.func, files, texts)
            digest = hashlib.sha256()
            for path in sorted(files):
                digest.update(f"{_label(path)}\0".encode() + path.read_bytes() + b"\0")
            for key in sorted(texts):
                digest.update(f"{key}\0{texts[key]}\0".encode())
            self._source = digest.hexdigest()
        return self._source

    def key(self, args: tuple) -> str:
        return f"{self.name}{dumps(encode(list(args)))}"

    def entry(self, args: tuple) -> dict | None:
        """The golden file's entry of ``args`` if written from today's sources."""
        entry = golden().get(self.key(tuple(args)))
        return entry if entry is not None and entry["source"] == self.source() else None

    def live(self, *args):
        """The reference computed now."""
        return self.func(*args)

    def __call__(self, *args):
        entry = self.entry(args)
        return self.live(*args) if entry is None else decode(entry["result"])


def reference(func=None, *, depends=()):
    """Declare ``func`` a frozen reference (``depends``: further files the
    result depends on, relative to the repository)."""
    def wrap(f):
        frozen = Frozen(f, depends)
        REGISTRY[frozen.name] = frozen
        return frozen
    return wrap if func is None else wrap(func)


def load_all() -> dict[str, Frozen]:
    """Every declared reference (imports the test modules of :data:`MODULES`)."""
    if str(TESTS) not in sys.path:
        sys.path.insert(0, str(TESTS))
    for name in MODULES:
        importlib.import_module(name)
    return REGISTRY


def expected_keys(registry: dict[str, Frozen]) -> dict[str, tuple[Frozen, tuple]]:
    """key -> (reference, arguments) of every declared case."""
    return {frozen.key(args): (frozen, args) for frozen in registry.values() for args in frozen.cases}


def problems(registry: dict[str, Frozen], entries: dict) -> list[str]:
    """What is wrong with ``entries`` for the declared cases: stale, missing
    and unused entries (empty: all current)."""
    wanted = expected_keys(registry)
    out = []
    for key, (frozen, _) in wanted.items():
        if key not in entries:
            out.append(f"missing: {key}")
        elif entries[key]["source"] != frozen.source():
            out.append(f"stale: {key}")
    out += [f"unused: {key}" for key in entries if key not in wanted]
    return out


def sample(registry: dict[str, Frozen], entries: dict, seconds: float = SAMPLE_SECONDS,
           each: float = PER_REFERENCE_SECONDS) -> list[str]:
    """The keys re-derived in this run: every current entry with
    ``CAMELUP_FULL_REFERENCE=1``; else the cheapest of each reference (if
    its recorded time is at most ``each``), then the cheapest others while
    the recorded times stay within ``seconds``."""
    current = [key for key, (frozen, _) in expected_keys(registry).items()
               if key in entries and entries[key]["source"] == frozen.source()]
    if full_reference():
        return current
    by_cost = sorted(current, key=lambda k: (entries[k]["seconds"], k))
    chosen: list[str] = []
    for frozen in registry.values():
        mine = [k for k in by_cost if k.startswith(frozen.name + "[")]
        if mine and entries[mine[0]]["seconds"] <= each:
            chosen.append(mine[0])
    spent = sum(entries[k]["seconds"] for k in chosen)
    for key in by_cost:
        if key not in chosen and spent + entries[key]["seconds"] <= seconds:
            chosen.append(key)
            spent += entries[key]["seconds"]
    return chosen
