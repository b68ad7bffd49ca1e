"""Where the compiled kernels are kept (this module imports no numba).

Numba writes a kernel's machine code beside its source by default, that is
inside the installed package: a read-only install could not cache at all,
and a folder left behind there after ``pip uninstall`` outlives the package.
The kernels are therefore cached in the user's cache folder, one folder per
package version and machine::

    $XDG_CACHE_HOME/camelup-advisor/<version>-<machine>/     (~/.cache when XDG_CACHE_HOME is unset)

``CAMELUP_CACHE_DIR`` replaces ``$XDG_CACHE_HOME/camelup-advisor`` (an
empty folder there measures a first run); a ``NUMBA_CACHE_DIR`` set by the
user replaces ``$XDG_CACHE_HOME``.  Inside, the machine code lies in a
folder named after a digest of the kernels' sources and the numba version
(see :mod:`advisor.kernels._jit`).
"""

from __future__ import annotations

import os
import platform
import sys
from pathlib import Path

from advisor._version import __version__

__all__ = ["machine_tag", "cache_root", "describe"]


def machine_tag() -> str:
    """The machine part of the cache folder's name: operating system,
    processor architecture and Python version (numba's index also keys each
    kernel on the processor model)."""
    machine = (platform.machine() or "unknown").lower()
    return f"{sys.platform}-{machine}-py{sys.version_info[0]}{sys.version_info[1]}"


def _user_cache() -> Path:
    if os.environ.get("NUMBA_CACHE_DIR"):
        return Path(os.environ["NUMBA_CACHE_DIR"]).expanduser()
    if os.environ.get("XDG_CACHE_HOME"):
        return Path(os.environ["XDG_CACHE_HOME"]).expanduser()
    if sys.platform == "win32" and os.environ.get("LOCALAPPDATA"):
        return Path(os.environ["LOCALAPPDATA"])
    if sys.platform == "darwin":
        return Path.home() / "Library" / "Caches"
    return Path.home() / ".cache"


def cache_root() -> Path:
    """The folder of this version's kernels on this machine."""
    base = os.environ.get("CAMELUP_CACHE_DIR")
    root = Path(base).expanduser() if base else _user_cache() / "camelup-advisor"
    return root / f"{__version__}-{machine_tag()}"


def describe() -> str:
    """One sentence for ``camelup warmup --help``."""
    return (f"Compiled kernels are kept in {cache_root()} (per version and machine; CAMELUP_CACHE_DIR or "
            "NUMBA_CACHE_DIR moves them, removing the folder compiles afresh).")
