"""The project's one ``njit``: every kernel is compiled with these flags.

``cache=True`` so later processes load the machine code from disk; no
``fastmath`` (results are integer counts and must be exact).

Numba keys a cached function on its own source file only, so a kernel whose
callee in another file changed would load stale machine code.  The kernels
are therefore cached in a directory named after a digest of every kernel
source file (and the numba version): any edit to any kernel compiles
everything afresh.  The directory lies under ``NUMBA_CACHE_DIR`` when that is
set, else in ``advisor/kernels/__pycache__``; if it cannot be written, numba
falls back to its usual cache locations.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import numba

__all__ = ["njit", "CACHE_DIR"]

_FLAGS = {"cache": True, "nogil": True}


def _cache_dir() -> str:
    here = Path(__file__).resolve().parent
    digest = hashlib.sha256(numba.__version__.encode())
    for source in sorted(here.glob("*.py")):
        digest.update(source.name.encode())
        digest.update(source.read_bytes())
    name = f"camelup-advisor-{digest.hexdigest()[:16]}"
    base = numba.config.CACHE_DIR or str(here / "__pycache__")
    return os.path.join(base, name)


CACHE_DIR = _cache_dir()


def _compile(fn, options):
    saved = numba.config.CACHE_DIR
    numba.config.CACHE_DIR = CACHE_DIR  # read when the dispatcher sets up its cache
    try:
        return numba.njit(**options)(fn)
    finally:
        numba.config.CACHE_DIR = saved


def njit(*args, **kwargs):
    """``numba.njit`` with the project's flags; use bare or with options."""
    options = {**_FLAGS, **kwargs}
    if args and callable(args[0]) and len(args) == 1 and not kwargs:
        return _compile(args[0], options)
    if args:
        raise TypeError("njit takes keyword options only")
    return lambda fn: _compile(fn, options)
