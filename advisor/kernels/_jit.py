"""The project's one ``njit``: every kernel is compiled with these flags.

``cache=True`` so later processes load the machine code from disk; no
``fastmath`` (results are integer counts and must be exact).

Numba keys a cached function on its own source file only, so a kernel whose
callee in another file changed would load stale machine code.  The kernels
are therefore cached in a directory named after a digest of every kernel
source file (and the numba version): any edit to any kernel compiles
everything afresh.  The directory lies in the user's cache folder, per
package version and machine (:mod:`advisor.kernels._where`), never inside
the installed package; if it cannot be written, numba falls back to its
usual cache locations.

**Threads by work size.**  A parallel kernel (``parallel=True``) must say how
much work a call is: ``work(*args)`` returns ``(seconds, tasks)``, the
estimated seconds of the call on one thread and the number of independent
pieces its parallel loop has.  Each call then runs on one thread per
:data:`THREAD_SECONDS` of work (at least one, at most the caller's thread
count and ``tasks``).  Waking other threads costs little on an idle machine,
but the many small calls of a game (a race-odds estimate of a few thousand
races, about a millisecond) were several times slower on all threads than on
one: the threads spin between calls and wait for each other on a busy
machine.  Large calls (race odds to +-0.2 points, a batch of positions)
still use every core.  Results never depend on the thread count.
The environment variable ``CAMELUP_THREAD_SECONDS`` overrides the amount of
work per thread (``0``: every call on every thread, as before calls were
sized; for measurements and tests).

:func:`is_cached` tells whether a kernel's machine code is in the on-disk
cache and :func:`cached_signatures` which specializations it holds; every
compilation (a cache miss) is reported to the watchers of
:mod:`advisor.kernels._watch`.

**One specialization per argument type.**  Numba compiles a kernel once per
combination of argument types, and a constant that one kernel passes to
another is typed as a literal (``Literal[int](0)``, ``Literal[bool](True)``),
so ``f(x, 0)`` in one caller and ``f(x, n)`` in another compile ``f`` twice.
A counter started at ``0`` compiles its callee for the literal too, while
numba is still working out the counter's type.  Kernels therefore pass
constants to other kernels as run-time values (``np.int64(0)``,
``np.bool_(False)``, a module constant made ``np.int64``) and start such
counters at ``np.int64(0)``; a parallel loop's index (unsigned inside the
loop's compiled body) is passed on as ``np.int64(i)``.  The results are the
same: only the number of machine codes changes.  ``tests/test_specializations.py``
lists every kernel's specializations after the warm-up and fails on a literal
one or on a second one no command needs.
"""

from __future__ import annotations

import copy
import functools
import hashlib
import os
from pathlib import Path

import numba
from numba.core import event

from advisor.kernels import _watch
from advisor.kernels._where import cache_root

__all__ = ["njit", "PARALLEL", "CACHE_DIR", "THREAD_SECONDS", "SizedKernel", "is_cached", "cached_signatures", "dispatcher_of"]

_FLAGS = {"cache": True, "nogil": True}
#: What ``parallel=True`` turns on: the explicit ``prange`` loops only.
#: Numba's default also turns array expressions, ``np.zeros``/``np.full``,
#: slice assignments, in-place operators and reductions of a parallel
#: kernel's own body into parallel loops, each compiled as a gufunc of its
#: own with the kernel's callees linked in again: ``race_sample``'s four
#: (two ``np.zeros``, two ``+=`` of its chunks' counts) cost 3.5 of its 11
#: s of compilation, for arrays of a few hundred entries.  The same
#: statements run serially give the same results.
PARALLEL = {"prange": True, "comprehension": False, "reduction": False, "inplace_binop": False, "setitem": False,
            "numpy": False, "stencil": False, "fusion": False}


def _thread_seconds(default: float = 0.01) -> float:
    try:
        value = float(os.environ.get("CAMELUP_THREAD_SECONDS", default))
    except ValueError:
        return default
    return value if value >= 0 else default


#: One thread per this much work (seconds on one thread) in a parallel call;
#: 0: every call on every thread.
THREAD_SECONDS = _thread_seconds()


def _cache_dir() -> str:
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256(numba.__version__.encode())
    for source in sorted(here.glob("*.py")):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    return os.path.join(str(cache_root()), f"kernels-{digest.hexdigest()[:16]}")


CACHE_DIR = _cache_dir()


class SizedKernel:
    """A parallel kernel that runs each call on as many threads as its work
    pays for (see the module docstring).  Call it as the kernel itself;
    ``dispatcher`` is the numba dispatcher (a kernel calling another kernel
    calls the dispatcher)."""

    def __init__(self, dispatcher, work):
        self.dispatcher = dispatcher
        self.work = work
        functools.update_wrapper(self, dispatcher.py_func)

    def threads(self, *args) -> int:
        """Threads a call with ``args`` runs on."""
        seconds, tasks = self.work(*args)
        wanted = int(seconds / THREAD_SECONDS) if THREAD_SECONDS > 0 else tasks
        return max(1, min(numba.get_num_threads(), int(tasks), wanted))

    def __call__(self, *args):
        limit = numba.get_num_threads()  # the caller's limit (thread-local)
        n = self.threads(*args)
        if n == limit:
            return self.dispatcher(*args)
        numba.set_num_threads(n)
        try:
            return self.dispatcher(*args)
        finally:
            numba.set_num_threads(limit)

    def __getattr__(self, name):
        if name == "dispatcher":  # not set yet (copy, unpickling)
            raise AttributeError(name)
        return getattr(self.dispatcher, name)

    def __reduce__(self):  # by reference, as a function is
        return _kernel, (self.__module__, self.__qualname__)

    def __repr__(self) -> str:
        return f"<SizedKernel {self.dispatcher.py_func.__module__}.{self.__qualname__}>"


def _kernel(module: str, qualname: str):
    import importlib

    return getattr(importlib.import_module(module), qualname)


def _compile(fn, options):
    work = options.pop("work", None)
    if options.get("parallel") and work is None:
        raise TypeError(f"parallel kernel {fn.__qualname__} needs work=: how much work a call is")
    if work is not None and not options.get("parallel"):
        raise TypeError(f"work= applies to parallel kernels only ({fn.__qualname__})")
    if options.get("parallel") is True:
        options["parallel"] = dict(PARALLEL)
    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = CACHE_DIR  # read when the dispatcher sets up its cache
    try:
        dispatcher = numba.njit(**options)(fn)
    finally:
        numba.config.CACHE_DIR = saved
    return SizedKernel(dispatcher, work) if work is not None else dispatcher


def njit(*args, **kwargs):
    """``numba.njit`` with the project's flags; use bare or with options.
    A parallel kernel also takes ``work=`` (see the module docstring)."""
    options = {**_FLAGS, **kwargs}
    if args and callable(args[0]) and len(args) == 1 and not kwargs:
        return _compile(args[0], options)
    if args:
        raise TypeError("njit takes keyword options only")
    return lambda fn: _compile(fn, dict(options))


def dispatcher_of(kernel):
    """The numba dispatcher behind a kernel (itself, or a SizedKernel's)."""
    return kernel.dispatcher if isinstance(kernel, SizedKernel) else kernel


def is_cached(kernel) -> bool | None:
    """Whether the on-disk cache holds machine code of ``kernel`` compiled
    from its current source for this machine (so calling it compiles
    nothing); ``None`` when numba's cache cannot be inspected."""
    signatures = cached_signatures(kernel)
    return None if signatures is None else bool(signatures)


def cached_signatures(kernel, folder: str | os.PathLike | None = None) -> list[tuple] | None:
    """The specializations of ``kernel`` (each a tuple of numba argument
    types) whose machine code, compiled from its current source for this
    machine, the on-disk cache holds: every one numba compiled, including
    those compiled because another kernel calls it (which the dispatcher of
    a process that loaded its callers from the cache never lists).
    ``folder``: read another kernel cache laid out as :data:`CACHE_DIR`
    (a copy, or the cache of another process); ``None`` when numba's cache
    cannot be inspected."""
    dispatcher = dispatcher_of(kernel)
    try:
        cache = dispatcher._cache
        wanted = cache._index_key(None, dispatcher.targetctx.codegen())[1:]
        index_file = cache._cache_file
        if folder is not None:
            index_file = copy.copy(index_file)
            index_file._index_path = os.path.join(os.fspath(folder),
                                                  os.path.relpath(index_file._index_path, CACHE_DIR))
        index = index_file._load_index()  # {} when stale (source changed)
    except Exception:  # noqa: BLE001 - numba's cache internals differ: unknown
        return None
    return [tuple(getattr(key[0], "args", key[0])) for key in index if tuple(key[1:]) == wanted]


class _CompileListener(event.Listener):
    """Forwards numba's compile events to :mod:`advisor.kernels._watch`."""

    @staticmethod
    def _name(ev) -> str:
        fn = ev.data["dispatcher"].py_func
        return f"{fn.__module__}.{fn.__qualname__}"

    def on_start(self, ev):
        _watch.started(self._name(ev))

    def on_end(self, ev):
        _watch.finished(self._name(ev))


event.register("numba:compile", _CompileListener())
