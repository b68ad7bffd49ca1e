"""Open-addressing hash tables of int64 keys for the kernels.

A table of ``2 << bits`` int64 interleaves keys and values (``[2*i]`` key,
``[2*i+1]`` value) so that a probe touches one cache line; key 0 marks an
empty slot, so keys must never be 0.  :func:`slot` is the multiplicative
(Fibonacci) hash: the top ``bits`` bits of ``key * MULT``.
"""

from __future__ import annotations

import numpy as np

from advisor.kernels._jit import njit

__all__ = ["MULT", "slot", "find", "rehash", "grow"]

#: The multiplier of :func:`slot` (2**64 over the golden ratio, odd).
MULT = np.uint64(0x9E3779B97F4A7C15)


@njit
def grow(a, rows):
    out = np.empty((rows,) + a.shape[1:], a.dtype)
    out[: a.shape[0]] = a
    return out


@njit(inline="always")
def slot(key, bits):
    return np.int64((np.uint64(key) * MULT) >> np.uint64(64 - bits))


@njit
def find(table, bits, key):
    """Slot of ``key`` (> 0) in an open-addressing table of (key, value)."""
    mask = (1 << bits) - 1
    h = slot(key, bits)
    while table[2 * h] != 0 and table[2 * h] != key:
        h = (h + 1) & mask
    return h


@njit
def rehash(table, bits):
    bigger = np.zeros(2 << bits, np.int64)
    for i in range(0, table.size, 2):
        if table[i] != 0:
            h = find(bigger, bits, table[i])
            bigger[2 * h] = table[i]
            bigger[2 * h + 1] = table[i + 1]
    return bigger


