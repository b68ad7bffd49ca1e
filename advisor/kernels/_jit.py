"""The project's one ``njit``: every kernel is compiled with these flags.

``cache=True`` so later processes load the machine code from disk; no
``fastmath`` (results are integer counts and must be exact).
"""

from __future__ import annotations

import numba

__all__ = ["njit"]

_FLAGS = {"cache": True, "nogil": True}


def njit(*args, **kwargs):
    """``numba.njit`` with the project's flags; use bare or with options."""
    options = {**_FLAGS, **kwargs}
    if args and callable(args[0]) and len(args) == 1 and not kwargs:
        return numba.njit(**options)(args[0])
    return numba.njit(*args, **options)
