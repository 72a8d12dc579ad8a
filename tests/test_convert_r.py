"""numpy / pandas / Python values converted by rvalues, checked against the same data built in R.

The R side is ``tests/r/convert_cases.R`` (vendored output: ``tests/data/convert-r.json``); each case
here builds the Python object of the same id. Compared: ``rvalues.describe()`` of the conversion with
R's ``rdesc()``, and ``rvalues.to_json()`` with ``jsonlite::toJSON`` where ``to_json`` exists.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import json
import os
import shutil
import subprocess
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import attrs
import numpy as np
import pandas as pd
import pytest

import rvalues
from rvalues.convert import ConversionWarning, IntegerOverflowWarning, PrecisionWarning, as_r
from rvalues.na import NA_REAL

HERE = Path(__file__).parent
VENDORED = HERE / "data" / "convert-r.json"
SCRIPT = HERE / "r" / "convert_cases.R"
NY = "America/New_York"


def _na_float() -> np.ndarray:
    return np.array([1.0, NA_REAL, np.nan])


def _stringdtype() -> np.ndarray:
    from numpy.dtypes import StringDType

    return np.array(["a", None, "b"], dtype=StringDType(na_object=None))


def _readonly() -> np.ndarray:
    a = np.array([1.0, 2.0])
    a.flags.writeable = False
    return a


@dataclasses.dataclass
class Item:
    name: str
    size: float
    tags: list[str]


@attrs.define
class Point:
    x: int
    y: Any


def _lists() -> np.ndarray:
    out = np.empty(2, dtype=object)
    out[0] = [1, 2]
    out[1] = {"a": 2}
    return out


def _multiindex() -> pd.DataFrame:
    df = pd.DataFrame([[1, 2.5, "q"]], columns=pd.MultiIndex.from_tuples([("a", "x"), ("a", "y"), ("b", "")]))
    return df


def _nyc(*stamps: str | None) -> pd.Series:
    return pd.Series(pd.to_datetime(list(stamps)).tz_localize(NY))


def _nan_strings(values: list[str | None]) -> pd.Series:
    """A column of pandas 3's default string dtype (NaN for missing) where pandas has it (2.3 on)."""
    try:
        dtype = pd.StringDtype(na_value=np.nan)
    except TypeError:  # pandas 2.2: object strings stand in
        return pd.Series(values)
    return pd.Series(values, dtype=dtype)


CASES: dict[str, Callable[[], Any]] = {
    "np_bool": lambda: np.array([True, False, True]),
    "np_int8": lambda: np.array([1, -2, 3], dtype=np.int8),
    "np_int16": lambda: np.array([1, -2, 3], dtype=np.int16),
    "np_int32": lambda: np.array([1, -2, 3], dtype=np.int32),
    "np_int64": lambda: np.array([1, -2, 3], dtype=np.int64),
    "np_uint8": lambda: np.array([1, 2, 255], dtype=np.uint8),
    "np_uint16": lambda: np.array([1, 2, 65535], dtype=np.uint16),
    "np_uint32": lambda: np.array([1, 2, 3], dtype=np.uint32),
    "np_uint64": lambda: np.array([1, 2, 3], dtype=np.uint64),
    "np_int64_big": lambda: np.array([2**31, 1], dtype=np.int64),
    "np_int32_min": lambda: np.array([-(2**31), 0], dtype=np.int32),
    "np_uint64_max": lambda: np.array([2**64 - 1], dtype=np.uint64),
    "np_float16": lambda: np.array([1.5, np.nan, np.inf, -0.0], dtype=np.float16),
    "np_float32": lambda: np.array([1.5, np.nan, -np.inf, 0.25], dtype=np.float32),
    "np_float64": lambda: np.array([1.5, np.nan, np.inf, -0.0, 1e-300]),
    "np_float64_na": _na_float,
    "np_complex64": lambda: np.array([1 + 2j, complex(0, -1)], dtype=np.complex64),
    "np_complex128": lambda: np.array([1.5 + 2j, complex(0, -1)]),
    "np_str": lambda: np.array(["a", "\u00e9", ""]),
    "np_bytes": lambda: np.array([b"ab", b"c"]),
    "np_stringdtype": _stringdtype,
    "np_object_str": lambda: np.array(["a", None, np.nan], dtype=object),
    "np_object_int": lambda: np.array([1, None, 3], dtype=object),
    "np_object_float": lambda: np.array([1.5, np.nan, None], dtype=object),
    "np_object_bool": lambda: np.array([True, None], dtype=object),
    "np_object_none": lambda: np.array([None, None], dtype=object),
    "np_object_mixed": lambda: np.array([1, "a", None], dtype=object),
    "np_object_lists": lambda: _lists(),
    "np_object_dates": lambda: np.array([dt.date(2020, 1, 2), None], dtype=object),
    "np_datetime_D": lambda: np.array(["2020-01-02", "NaT", "1969-12-31"], dtype="datetime64[D]"),
    "np_datetime_M": lambda: np.array(["2020-01", "2020-02"], dtype="datetime64[M]"),
    "np_datetime_s": lambda: np.array(["2020-01-02T03:04:05", "NaT"], dtype="datetime64[s]"),
    "np_datetime_ms": lambda: np.array(["2020-01-02T03:04:05.250", "NaT"], dtype="datetime64[ms]"),
    "np_datetime_us": lambda: np.array(["2020-01-02T03:04:05", "NaT", "1960-06-01"], dtype="datetime64[us]"),
    "np_datetime_ns": lambda: np.array(["2020-01-02T03:04:05", "NaT"], dtype="datetime64[ns]"),
    "np_timedelta_s": lambda: np.array([90000, "NaT", -1500], dtype="timedelta64[ms]"),
    "np_matrix": lambda: np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32),
    "np_matrix_str": lambda: np.array([["a", "b"], ["c", "d"]]),
    "np_array3d": lambda: np.arange(24, dtype=np.int32).reshape(2, 3, 4),
    "np_fortran": lambda: np.asfortranarray(np.array([[1.5, 3.5], [2.5, 4.5]])),
    "np_strided": lambda: np.arange(10)[::2],
    "np_bigendian": lambda: np.array([1.5, 2], dtype=">f8"),
    "np_bigendian_int": lambda: np.array([1, 258], dtype=">i4"),
    "np_masked_int": lambda: np.ma.MaskedArray([1, 2, 3], mask=[False, True, False]),
    "np_masked_float": lambda: np.ma.MaskedArray([1.5, 2.0, np.nan], mask=[False, True, False]),
    "np_masked_str": lambda: np.ma.MaskedArray(["a", "b"], mask=[False, True]),
    "np_masked_bool": lambda: np.ma.MaskedArray([True, False], mask=[True, False]),
    "np_masked_complex": lambda: np.ma.MaskedArray([1 - 1j, 2j], mask=[False, True]),
    "np_masked_datetime": lambda: np.ma.MaskedArray(
        np.array(["2020-01-02T03:04:05", "2020-01-03"], dtype="datetime64[s]"), mask=[False, True]
    ),
    "np_masked_structured": lambda: np.ma.MaskedArray(
        np.array([(1, "x"), (2, "y")], dtype=[("a", "i4"), ("b", "U1")]),
        mask=np.array([(False, True), (True, False)], dtype=[("a", bool), ("b", bool)]),
    ),
    "np_datetime_h": lambda: np.array(["2020-01-02T05"], dtype="datetime64[h]"),
    "np_structured": lambda: np.array(
        [(1, 2.5, "x"), (3, 4.5, "y")], dtype=[("a", "i4"), ("b", "f8"), ("c", "U1")]
    ),
    "np_empty_float": lambda: np.array([], dtype=np.float64),
    "np_empty_int": lambda: np.array([], dtype=np.int64),
    "np_empty_str": lambda: np.array([], dtype=str),
    "np_empty_object": lambda: np.array([], dtype=object),
    "np_0d": lambda: np.array(3.5),
    "np_readonly": _readonly,
    "pd_numpy_frame": lambda: pd.DataFrame(
        {"i": [1, 2], "f": [0.5, np.nan], "b": [True, False], "i32": np.array([7, -7], dtype=np.int32)}
    ),
    "pd_nullable_int": lambda: pd.DataFrame(
        {
            "i8": pd.array([1, None], dtype="Int8"),
            "i16": pd.array([-2, None], dtype="Int16"),
            "i32": pd.array([3, None], dtype="Int32"),
            "i64": pd.array([4, None], dtype="Int64"),
            "u8": pd.array([5, None], dtype="UInt8"),
            "u16": pd.array([6, None], dtype="UInt16"),
            "u32": pd.array([7, None], dtype="UInt32"),
            "u64": pd.array([8, None], dtype="UInt64"),
        }
    ),
    "pd_nullable_int64_big": lambda: pd.DataFrame({"x": pd.array([3_000_000_000, None], dtype="Int64")}),
    "pd_nullable_float": lambda: pd.DataFrame(
        {"f32": pd.array([1.5, None], dtype="Float32"), "f64": pd.array([None, 2.25], dtype="Float64")}
    ),
    "pd_uint64_big": lambda: pd.DataFrame({"x": pd.array([2**32 - 1, None], dtype="UInt64")}),
    "pd_int64_extremes": lambda: pd.DataFrame({"x": np.array([-(2**63) + 1, 2**63 - 1], dtype=np.int64)}),
    "pd_category_empty": lambda: pd.DataFrame({"f": pd.Categorical([], categories=["a", "b"])}),
    "pd_boolean": lambda: pd.DataFrame({"b": pd.array([True, None, False], dtype="boolean")}),
    "pd_strings": lambda: pd.DataFrame(
        {
            "python": pd.array(["a", None], dtype="string[python]"),
            "pyarrow": pd.array(["b", None], dtype="string[pyarrow]"),
            "default": _nan_strings(["c", None]),
        }
    ),
    "pd_category": lambda: pd.DataFrame(
        {
            "u": pd.Categorical(["b", None, "a"], categories=["b", "a", "zz"]),
            "o": pd.Categorical(["lo", "hi", None], categories=["lo", "hi"], ordered=True),
            "i": pd.Categorical([3, 1, None], categories=[1, 2, 3]),
            "f": pd.Categorical([0.5, 1e5, 0.5]),
        }
    ),
    "pd_datetime_naive": lambda: pd.DataFrame(
        {
            "ns": pd.Series(pd.to_datetime(["2020-01-02 03:04:05", None])).astype("datetime64[ns]"),
            "us": pd.Series(pd.to_datetime(["2021-06-01 12:00:00", None])).astype("datetime64[us]"),
            "ms": pd.Series(pd.to_datetime(["1999-12-31 23:59:59", None])).astype("datetime64[ms]"),
            "s": pd.Series(pd.to_datetime(["2000-01-01", None])).astype("datetime64[s]"),
        }
    ),
    "pd_datetime_tz": lambda: pd.DataFrame(
        {
            "ny": _nyc("2020-03-08 01:30:00", "2020-03-08 03:30:00", None),
            "u": pd.Series(pd.to_datetime(["2020-01-01 00:00", "2020-07-01 12:00", None])).dt.tz_localize(
                "UTC"
            ),
            "off": pd.Series(pd.to_datetime(["2020-01-01 12:00", "2020-07-01 12:00", None])).dt.tz_localize(
                dt.timezone(dt.timedelta(hours=2))
            ),
        }
    ),
    "pd_timedelta": lambda: pd.DataFrame({"d": pd.to_timedelta(["1 day", None])}),
    "pd_object_cols": lambda: pd.DataFrame(
        {
            "s": pd.Series(["a", None, np.nan], dtype=object),
            "i": pd.Series([1, None, 3], dtype=object),
            "f": pd.Series([1.5, None, 2.0], dtype=object),
            "b": pd.Series([True, None, False], dtype=object),
            "d": pd.Series([dt.date(2020, 1, 2), None, dt.date(2020, 1, 3)], dtype=object),
        }
    ),
    "pd_object_nan": lambda: pd.DataFrame(  # in an object column NaN is pandas' missing marker: NA
        {
            "n": pd.Series([1, np.nan, 3], dtype=object),
            "f": pd.Series([1.5, np.nan, pd.NA], dtype=object),
            "b": pd.Series([True, np.nan, False], dtype=object),
            "s": pd.Series(["a", np.nan, "c"], dtype=object),
            "z": pd.Series([1 + 2j, np.nan, 3], dtype=object),
        }
    ),
    "pd_object_mixed": lambda: pd.DataFrame(
        {
            "k": np.array([1, 2, 3], dtype=np.int32),
            "m": pd.Series([1, "a", None], dtype=object),
            "l": pd.Series([[1], {"a": 2}, None], dtype=object),
        }
    ),
    "pd_index_str": lambda: pd.DataFrame({"a": [1, 2]}, index=["x", "y"]),
    "pd_index_int": lambda: pd.DataFrame({"a": [1, 2]}, index=[10, 20]),
    "pd_index_range1": lambda: pd.DataFrame({"a": [1, 2]}, index=pd.RangeIndex(1, 3)),
    "pd_index_float": lambda: pd.DataFrame({"a": [1, 2]}, index=[1.5, 2.5]),
    "pd_index_date": lambda: pd.DataFrame({"a": [1, 2]}, index=pd.to_datetime(["2020-01-01", "2020-01-02"])),
    "pd_index_datetime": lambda: pd.DataFrame(
        {"a": [1, 2]},
        index=pd.to_datetime(["2020-01-01 00:00:00", "2020-01-02 10:00:05.5"], format="ISO8601"),
    ),
    "pd_index_midnight": lambda: pd.DataFrame(
        {"a": [1, 2]}, index=pd.to_datetime(["2020-01-01", "2020-01-02"]).tz_localize(NY)
    ),
    "pd_category_datetime": lambda: pd.Series(
        pd.Categorical(pd.to_datetime(["2020-01-02 03:04:05", "2020-01-01", None], format="ISO8601"))
    ),
    "pd_series_datetime_index": lambda: pd.Series([1, 2], index=pd.to_datetime(["2020-01-01", "2020-01-02"])),
    "pd_empty": lambda: pd.DataFrame(),
    "pd_zero_rows": lambda: pd.DataFrame(
        {
            "a": pd.Series([], dtype="int64"),
            "b": pd.Series([], dtype=object),
            "c": pd.Series([], dtype="string"),
        }
    ),
    "pd_multiindex_cols": _multiindex,
    "pd_duplicate_cols": lambda: pd.DataFrame([[1, 2]], columns=["a", "a"]),
    "pd_int_labels": lambda: pd.DataFrame({0: [1], 1: ["x"]}),
    "pd_series": lambda: pd.Series([1.5, 2.0], name="s"),
    "pd_series_named": lambda: pd.Series([1.5, 2.0], index=["a", "b"]),
    "pd_series_int_index": lambda: pd.Series([1, 2], index=[10, 20]),
    "pd_series_category": lambda: pd.Series(["x", "y", "x"], dtype="category"),
    "pd_index": lambda: pd.Index(["a", "b"]),
    "pd_range_index": lambda: pd.RangeIndex(3),
    "pd_arrow_int": lambda: pd.DataFrame(
        {
            "x": pd.array([1, None], dtype="int64[pyarrow]"),
            "b": pd.array([True, None], dtype="bool[pyarrow]"),
            "f": pd.array([0.5, None], dtype="double[pyarrow]"),
        }
    ),
    "py_dict_nested": lambda: {"a": 1, "b": [True, None], "c": {"d": "x"}},
    "py_dataclass": lambda: Item("p", 2.5, ["a", "b"]),
    "py_attrs": lambda: Point(1, None),
    "py_decimal": lambda: decimal.Decimal("1.25"),
    "py_timedelta": lambda: dt.timedelta(seconds=90, milliseconds=500),
    "py_datetime_aware": lambda: dt.datetime(2020, 6, 1, 12, tzinfo=ZoneInfo(NY)),
    "py_datetime_offset": lambda: dt.datetime(2020, 6, 1, 12, tzinfo=dt.timezone(dt.timedelta(hours=2))),
    "py_datetime_naive": lambda: dt.datetime(2020, 6, 1, 12),
    "py_date": lambda: dt.date(2020, 6, 1),
}


#: cases whose conversion warns (by design), and the warning category
WARNS = {
    "np_int64_big": IntegerOverflowWarning,
    "np_int32_min": IntegerOverflowWarning,
    "np_uint64_max": PrecisionWarning,
    "pd_nullable_int64_big": IntegerOverflowWarning,
    "pd_uint64_big": IntegerOverflowWarning,
    "pd_int64_extremes": PrecisionWarning,
}


def _convert(case: str) -> rvalues.RValue:
    if case == "np_stringdtype" and not hasattr(getattr(np, "dtypes", None), "StringDType"):
        pytest.skip("numpy < 2 has no StringDType")
    obj = CASES[case]()
    if case in WARNS:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            value = as_r(obj)
        assert any(issubclass(w.category, WARNS[case]) for w in caught), caught
        assert all(issubclass(w.category, ConversionWarning) for w in caught), caught
        return value
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return as_r(obj)


def _load(path: Path) -> dict[str, dict[str, Any]]:
    return {entry["id"]: entry for entry in json.loads(path.read_text())}


R_CASES = _load(VENDORED)


def test_every_case_has_both_sides() -> None:
    assert set(CASES) == set(R_CASES)


pytestmark = pytest.mark.usefixtures("utc")


@pytest.mark.parametrize("case", sorted(CASES))
def test_describe_matches_r(case: str) -> None:
    assert rvalues.describe(_convert(case)) == R_CASES[case]["value"]


@pytest.mark.parametrize("case", sorted(CASES))
@pytest.mark.parametrize("options", ["json", "json_digits_na"])
def test_to_json_matches_jsonlite(case: str, options: str) -> None:
    to_json = rvalues.to_json
    expected = R_CASES[case][options]
    kwargs = {"digits": None} if options == "json_digits_na" else {}
    value = _convert(case)
    if "error" in expected:  # jsonlite refuses it (difftime; complex with digits = NA): so must to_json
        with pytest.raises(Exception) as info:
            to_json(value, **kwargs)
        assert expected["error"] in str(info.value)
        return
    assert to_json(value, **kwargs) == expected["json"]


@pytest.mark.r
@pytest.mark.skipif(shutil.which("Rscript") is None, reason="Rscript is not installed")
def test_vendored_r_output_is_current(tmp_path: Path) -> None:
    out = tmp_path / "convert-r.json"
    subprocess.run(
        ["Rscript", str(SCRIPT), str(out)], check=True, env={**os.environ, "TZ": "UTC"}, timeout=300
    )
    assert _load(out) == R_CASES
