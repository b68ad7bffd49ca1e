"""advisor._tools.jsonio: strict JSON out (NaN -> null), bounded JSON in."""

import json
import math
from fractions import Fraction

import numpy as np
import pytest

from advisor.errors import AdvisorError
from advisor._tools.jsonio import MAX_DEPTH, check_depth, clean, dumps, loads


def strict(text):
    """Parse as strict JSON: NaN / Infinity literals are refused."""
    def refuse(name):
        raise AssertionError(f"{name} in JSON output")
    return json.loads(text, parse_constant=refuse)


def test_nan_and_infinity_become_null():
    data = {"a": float("nan"), "b": [1.5, float("inf"), -float("inf")], "c": np.float64("nan"),
            "d": (np.float32(0.5), np.int64(3)), "e": np.array([1.0, np.nan])}
    out = strict(dumps(data))
    assert out == {"a": None, "b": [1.5, None, None], "c": None, "d": [0.5, 3], "e": [1.0, None]}


def test_plain_values_are_unchanged():
    data = {"x": [1, 2.25, "s", True, None, {"y": -0.0}]}
    assert strict(dumps(data)) == json.loads(json.dumps(data))
    assert dumps(Fraction(1, 4)) == "0.25"


def test_pandas_missing_values_are_null():
    import pandas as pd

    assert clean([pd.NA, pd.NaT, np.nan]) == [None, None, None]


def test_unknown_objects_are_refused():
    with pytest.raises(TypeError):
        dumps({"x": object()})


@pytest.mark.parametrize("text,fragment", [
    ("[" * 100_000 + "]" * 100_000, "nested more than"),
    ("[" * (MAX_DEPTH + 1) + "]" * (MAX_DEPTH + 1), "nested more than"),
    ("1" * 5000, "not valid JSON"),
    ("{", "not valid JSON"),
    (b"\xff\xfe{}", "not UTF-8"),
    ("0" + " " * 1_000_000, "larger than"),
])
def test_loads_is_bounded_and_names_the_source(text, fragment):
    with pytest.raises(AdvisorError) as info:
        loads(text, "f.json:3")
    assert fragment in str(info.value) and str(info.value).startswith("f.json:3: ")


def test_loads_reads_json_within_bounds():
    deep = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    assert loads(deep, "x") is not None
    assert loads(b'{"a": [1, NaN]}', "x")["a"][0] == 1
    assert math.isnan(loads('{"a": [1, NaN]}', "x")["a"][1])


def test_check_depth_counts_levels():
    check_depth({"a": [{"b": 1}]}, "x", limit=3)
    with pytest.raises(AdvisorError):
        check_depth({"a": [{"b": [1]}]}, "x", limit=3)
