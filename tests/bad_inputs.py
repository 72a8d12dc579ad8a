"""Hypothesis strategies for what a careless or hostile caller hands rvalues' constructors."""

from __future__ import annotations

import datetime as dt
import decimal
import enum
import warnings
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
from hypothesis import strategies as st

import rvalues as rv


class Colour(enum.Enum):
    RED = 1


class Mode(str, enum.Enum):
    FAST = "fast"


class Point(NamedTuple):
    x: int
    label: str


def _generic_nat(make: Any, *args: Any, **kwargs: Any) -> Any:
    """NaT without a unit (numpy 2.5 deprecates making one, but arrays of it still arrive)."""
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)
        return make(*args, **kwargs)


_ODD_STRINGS = st.sampled_from(
    [
        "",
        "a\x00b",
        "\ud800",
        "x\udfffy",
        "NA",
        "2020-13-45",
        "2020-02-30",
        "TRUE",
        "yes",
        "1e400",
        "é",
        "a" * 5000,
    ]
)
_ODD_NUMBERS = st.sampled_from(
    [0, -1, 1.5, -0.0, 2**31 - 1, 2**31, -(2**31), 2**53 + 1, 2**64, 10**400, -(10**400),
     float("nan"), float("inf"), float("-inf"), 1e308, 5e-324, True, False, decimal.Decimal("NaN"),
     decimal.Decimal("1e500"), 1 + 2j, complex("nan+1j"), np.int64(2**62), np.float32(1.5),
     np.uint64(2**64 - 1),
     np.longdouble(1.1)]
)  # fmt: skip
_NUMPY = st.sampled_from(
    [
        np.array([]),
        np.array([1, 2, 3], dtype=np.int64)[::2],
        np.array([[1, 2], [3, 4]], dtype=np.int32),
        np.zeros((2, 0, 3)),
        np.array(["a", "b\x00"]),
        np.array([b"\xff"], dtype="S1"),
        np.array([None, 1, "a"], dtype=object),
        np.array([10**400], dtype=object),
        _generic_nat(np.array, ["NaT"], dtype="datetime64"),
        np.array([1], dtype="datetime64[as]"),
        np.array([1], dtype="timedelta64[M]"),
        np.array([(1, 2.0)], dtype=[("a", "i4"), ("b", "f8")]),
        np.array([(1, 2.0)], dtype=[("a", "i4"), ("b", "f8")])[0],
        np.ma.masked_array([1, 2], mask=[True, False]),
        np.array([1 + 2j], dtype=np.complex64),
        np.array([np.void(b"ab")]),
        np.float64(np.nan),
        _generic_nat(np.datetime64, "NaT"),
    ]
)
_PANDAS = st.sampled_from(
    [
        pd.DataFrame({"a\x00": [1]}),
        pd.DataFrame({"x": [1, 2]}, index=[1, 1]),
        pd.Series(["\ud800"], dtype="string[python]"),
        pd.Series(["a\x00"], dtype="string[pyarrow]"),
        pd.Series([pd.Timedelta(1, "s")]),
        pd.Series(pd.period_range("2020", periods=2, freq="M")),
        pd.Index([1.5, None]),
        pd.MultiIndex.from_tuples([(1, 2)]),
        pd.NA,
        pd.NaT,
        pd.Timestamp("2020-01-01", tz="Europe/Paris"),
    ]
)
_OBJECTS = st.sampled_from(
    [None, object(), print, {1, 2}, frozenset(), {1: "a"}, {"a": object()}, Colour.RED, Mode.FAST,
     Point(1, "a"),
     dt.date(2020, 1, 1), dt.datetime(1, 1, 1), dt.timedelta(days=-1), b"\x00\xff", bytearray(b"ab"),
     range(3),
     iter([1, 2]), slice(1), type, ..., NotImplemented, rv.NULL, rv.NA, rv.r_list(a=1), rv.data_frame(x=[1]),
     rv.factor(["a"]), rv.c(1.5, 2), rv.Character(["a", None]), rv.Raw(b"x")]
)  # fmt: skip


def _nested(depth: int) -> Any:
    out: Any = 1
    for _ in range(depth):
        out = [out]
    return out


_DEEP = st.sampled_from([_nested(150), _nested(5000), {"a": _nested(200)}])

scalars = st.one_of(_ODD_STRINGS, _ODD_NUMBERS, _OBJECTS)
"""One odd Python value."""

bad_inputs = st.one_of(
    scalars,
    _NUMPY,
    _PANDAS,
    _DEEP,
    st.lists(scalars, max_size=4),
    st.tuples(scalars, scalars),
    st.dictionaries(st.sampled_from(["a", "", "\x00", "\ud800"]), scalars, max_size=3),
)
"""Anything a caller might pass as a constructor's values or an argument."""
