"""JSON in and out, the strict way.

* :func:`dumps`: every ``--json`` output and every JSON line the package
  writes goes through it: strict JSON (``allow_nan=False``), where a figure
  that does not exist (NaN, e.g. an interval from one game) or an infinite
  one is ``null``; numpy scalars and arrays become plain numbers and lists.
* :func:`loads`: JSON read from a user's file, bounded: at most
  :data:`MAX_BYTES` of text and :data:`MAX_DEPTH` levels of nesting (deeper
  input would exhaust Python's recursion, larger input the memory), with an
  :class:`~advisor.errors.AdvisorError` that names what was read.
"""

from __future__ import annotations

import json
import math
from typing import Any

from advisor.errors import AdvisorError

__all__ = ["dumps", "clean", "loads", "decode_text", "check_depth", "MAX_BYTES", "MAX_DEPTH", "SCHEMA", "no_duplicates", "DuplicateKey"]

#: The version of the layout of every JSON output: ``odds --json``, ``best
#: --json`` (also served by the web API) and the setup line of a game record
#: carry it as ``"schema"``.  Raised when a key changes meaning or goes;
#: adding a key does not change it.
SCHEMA = 1

MAX_BYTES = 1_000_000
"""The largest JSON text read as one document (a game state is about 1 kB)."""

MAX_DEPTH = 32
"""The deepest nesting read (a game state nests 3 levels)."""


def clean(obj: Any) -> Any:
    """``obj`` with NaN / infinite floats as ``None``, numpy scalars and
    arrays as Python numbers and lists, tuples as lists, keys as strings."""
    if isinstance(obj, float):
        return obj if math.isfinite(obj) else None
    if obj is None or isinstance(obj, (str, bool, int)):
        return obj
    if isinstance(obj, dict):
        return {str(k): clean(v) for k, v in obj.items()}
    if isinstance(obj, (list, tuple)):
        return [clean(v) for v in obj]
    tolist = getattr(obj, "tolist", None)  # numpy scalars and arrays
    if tolist is not None:
        return clean(tolist())
    if type(obj).__name__ in ("NAType", "NaTType"):  # pandas' missing values
        return None
    if not hasattr(obj, "__float__"):
        raise TypeError(f"{type(obj).__name__} is not JSON data")
    return clean(float(obj))  # e.g. Fraction, Decimal


def dumps(obj: Any, **kwargs) -> str:
    """Strict JSON text of ``obj`` (see :func:`clean`)."""
    return json.dumps(clean(obj), allow_nan=False, **kwargs)


def check_depth(obj: Any, what: str, limit: int = MAX_DEPTH) -> None:
    """Raise unless ``obj`` (decoded JSON) nests at most ``limit`` levels of
    objects and lists (``[]`` is one level, ``[[1]]`` two)."""
    level, depth = [obj], 0
    while True:
        inner: list = []
        containers = 0
        for item in level:
            if isinstance(item, dict):
                containers += 1
                inner.extend(item.values())
            elif isinstance(item, (list, tuple)):
                containers += 1
                inner.extend(item)
        if not containers:
            return
        depth += 1
        if depth > limit:
            raise AdvisorError(f"{what}: JSON nested more than {limit} levels deep")
        level = inner


_BOMS_16 = (b"\xff\xfe", b"\xfe\xff")


def decode_text(data: bytes, what: str) -> str:
    """``data`` read from ``what`` as text: UTF-8, a leading byte order
    mark (as Windows editors write) dropped; UTF-16 (a UTF-16 byte order
    mark, or the NUL bytes of UTF-16 text) is refused by name, as is any
    other text that is not UTF-8."""
    if data.startswith(_BOMS_16) or (b"\x00" in data[:200] and data[:200].count(b"\x00") * 4 >= len(data[:200])):
        raise AdvisorError(f"{what}: not UTF-8 text (it is UTF-16: save it as UTF-8)")
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise AdvisorError(f"{what}: not UTF-8 text") from None


class DuplicateKey(ValueError):
    """A JSON object gave this key twice (raised by :func:`no_duplicates`)."""


def no_duplicates(pairs: list) -> dict:
    """``object_pairs_hook`` for :func:`json.loads`: the object, or
    :class:`DuplicateKey` when a key is given twice."""
    out = {}
    for key, value in pairs:
        if key in out:
            raise DuplicateKey(key)
        out[key] = value
    return out


def loads(text: str | bytes, what: str | None = None, *, max_bytes: int = MAX_BYTES, max_depth: int = MAX_DEPTH) -> Any:
    """Decode JSON ``text`` read from ``what`` (a file name, a line); raises
    :class:`AdvisorError` naming ``what`` if it is too large, too deep, not
    UTF-8 (UTF-16 is named as such; a UTF-8 byte order mark is accepted),
    not JSON, or an object that gives one key twice (JSON readers disagree
    on which value counts: none is taken)."""
    what = "JSON text" if what is None else what
    if len(text) > max_bytes:
        raise AdvisorError(f"{what}: larger than {max_bytes:,} bytes")
    if isinstance(text, bytes):
        text = decode_text(text, what)
    elif text.startswith("\ufeff"):
        text = text[1:]
    try:
        obj = json.loads(text, object_pairs_hook=no_duplicates)
    except DuplicateKey as exc:
        raise AdvisorError(f"{what}: the key {str(exc)!r:.60} is given twice (give each key once)") from None
    except RecursionError:
        raise AdvisorError(f"{what}: JSON nested more than {max_depth} levels deep") from None
    except json.JSONDecodeError as exc:
        raise AdvisorError(f"{what}: not valid JSON ({exc})") from None
    except ValueError as exc:  # e.g. a number of more than 4,300 digits
        raise AdvisorError(f"{what}: not valid JSON ({exc})") from None
    check_depth(obj, what, max_depth)
    return obj
