"""A small least-recently-used memo of pure functions that return NumPy
arrays, bounded in entries and in bytes.

A value (an array, or a tuple of arrays and plain numbers) is kept
read-only and every caller gets a copy of it, so no caller can change what
the next one reads.  The memo is safe to share between threads (one lock;
a value is computed outside it, so two threads may compute the same one).
"""

from __future__ import annotations

import threading
from collections import OrderedDict

import numpy as np

__all__ = ["ArrayMemo"]


def _frozen(value):
    """``value`` with its arrays made read-only (they are the memo's own)."""
    if isinstance(value, np.ndarray):
        value.setflags(write=False)
    elif isinstance(value, tuple):
        for part in value:
            _frozen(part)
    return value


def _copied(value):
    """A copy of a kept value for a caller (arrays copied, writable)."""
    if isinstance(value, np.ndarray):
        return value.copy()
    if isinstance(value, tuple):
        return tuple(_copied(part) for part in value)
    return value


def _nbytes(value) -> int:
    if isinstance(value, np.ndarray):
        return value.nbytes
    if isinstance(value, tuple):
        return sum(_nbytes(part) for part in value)
    return 0


class ArrayMemo:
    """At most ``entries`` values of at most ``max_bytes`` bytes of arrays in
    all (the least recently used go first; a value larger than
    ``max_bytes`` is not kept).  ``enabled``: False computes every value
    (nothing kept or read); :meth:`clear` forgets every value;
    ``hits``/``misses`` count the calls of :meth:`get`."""

    def __init__(self, entries: int, max_bytes: int):
        self.entries, self.max_bytes = entries, max_bytes
        self.enabled = True
        self.hits = self.misses = 0
        self._data: OrderedDict = OrderedDict()
        self._bytes = 0
        self._lock = threading.Lock()

    def __len__(self) -> int:
        return len(self._data)

    @property
    def nbytes(self) -> int:
        """The bytes of the arrays kept."""
        return self._bytes

    def clear(self) -> None:
        with self._lock:
            self._data.clear()
            self._bytes = 0
            self.hits = self.misses = 0

    def get(self, key, compute):
        """``compute()`` for ``key`` (hashable), from the memo when kept
        (a copy either way)."""
        if not self.enabled:
            return compute()
        with self._lock:
            if key in self._data:
                self._data.move_to_end(key)
                self.hits += 1
                return _copied(self._data[key])
            self.misses += 1
        value = _frozen(compute())
        size = _nbytes(value)
        with self._lock:
            if size <= self.max_bytes and key not in self._data:
                self._data[key] = value
                self._bytes += size
                while len(self._data) > self.entries or self._bytes > self.max_bytes:
                    _, old = self._data.popitem(last=False)
                    self._bytes -= _nbytes(old)
        return _copied(value)
