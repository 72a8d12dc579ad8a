"""Every unsupported input raises RValueError naming the column, the dtype and what to do instead."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

from rvalues import RValueError, as_r


def _frame(**columns: Any) -> pd.DataFrame:
    return pd.DataFrame(columns)


# (input, words the message must contain: where, dtype, remedy)
CASES: dict[str, tuple[Callable[[], Any], list[str]]] = {
    "period": (
        lambda: _frame(p=pd.period_range("2020-01", periods=2, freq="M")),
        ["column 'p'", "period[M]", "to_timestamp()"],
    ),
    "interval": (lambda: _frame(iv=pd.interval_range(0, 2)), ["column 'iv'", "interval", ".astype(str)"]),
    "sparse": (lambda: _frame(sp=pd.arrays.SparseArray([0, 1, 0])), ["column 'sp'", "Sparse", "to_dense()"]),
    "arrow_map": (  # lists are list columns now (from_arrow's table); a map has no R equivalent
        lambda: _frame(
            am=pd.Series(
                [[("a", 1)], [("b", 2)]],
                dtype=pd.ArrowDtype(__import__("pyarrow").map_(__import__("pyarrow").string(), "int64")),
            )
        ),
        ["column 'am'", "map<string, int64>", "cast it"],
    ),
    "multiindex_rows": (
        lambda: pd.DataFrame({"a": [1, 2]}, index=pd.MultiIndex.from_tuples([("x", 1), ("y", 2)])),
        ["MultiIndex", "reset_index()"],
    ),
    "duplicate_index": (
        lambda: pd.DataFrame({"a": [1, 2]}, index=["x", "x"]),
        ["duplicate row.names: x", "unique"],
    ),
    "missing_index": (
        lambda: pd.DataFrame({"a": [1, 2]}, index=["x", None]),
        ["missing values", "reset_index()"],
    ),
    "timedelta_index": (
        lambda: pd.DataFrame({"a": [1, 2]}, index=pd.to_timedelta(["1s", "2s"])),
        ["timedelta64", ".astype(str)"],
    ),
    "duplicates_as_r_strings": (
        lambda: pd.DataFrame({"a": [1, 2]}, index=[0.1, 0.1 + 1e-17 * 2]),
        ["duplicate row.names: 0.1"],
    ),
    "generic_datetime64": (
        lambda: np.array([1, 2]).view("datetime64"),
        ["datetime64 without a unit", "unit"],
    ),
    "timedelta_months": (lambda: np.array([1, 2], dtype="timedelta64[M]"), ["timedelta64[M]", "days"]),
    "void": (lambda: np.zeros(2, dtype="V4"), ["V4", "convert it"]),
    "subarray_field": (
        lambda: np.zeros(2, dtype=[("m", "f8", (2,))]),
        ["field 'm'", "(2,)", "scalar fields"],
    ),
    "structured_2d": (lambda: np.zeros((2, 2), dtype=[("a", "i4")]), ["2 dimensions", "ravel()"]),
    "bad_utf8": (lambda: np.array([b"\xff"]), ["|S1", "UTF-8", "decode"]),
    "surrogate": (lambda: _frame(s=pd.Series(["\ud800"], dtype=object)), ["column 's'", "surrogate"]),
    "categories_clash": (
        lambda: _frame(c=pd.Categorical([1, "1"])),
        ["column 'c' categories", "object", ".astype(str)"],
    ),
    "object_element": (
        lambda: _frame(o=pd.Series([1, object()], dtype=object)),
        ["column 'o'", "element 1", "object", "register_converter"],
    ),
    "bad_zone": (lambda: pd.Series(pd.to_datetime(["2020-01-01"]).tz_localize("dateutil/Europe/Paris")), []),
    "python_object": (lambda: object(), ["builtins.object", "register_converter"]),
    "dict_keys": (lambda: {1: 2}, ["dict keys must be str", "from_pairs"]),
    "series_multiindex": (
        lambda: pd.Series([1, 2], index=pd.MultiIndex.from_tuples([("a", 1), ("b", 2)])),
        ["MultiIndex", "reset_index()"],
    ),
}


@pytest.mark.parametrize("case", sorted(CASES))
def test_unsupported_input_is_explained(case: str) -> None:
    build, words = CASES[case]
    try:
        obj = build()
    except AttributeError as err:  # pandas 2 with some dateutil versions cannot build the input
        pytest.skip(f"this pandas cannot build the {case} input: {err}")
    if case == "bad_zone":  # dateutil zones resolve to their IANA name: supported
        assert as_r(obj).attributes["tzone"].data.tolist() == ["Europe/Paris"]
        return
    with pytest.raises(RValueError) as info:
        as_r(obj)
    message = str(info.value)
    for word in words:
        assert word in message, (word, message)


def test_rvalue_error_is_a_value_error() -> None:
    with pytest.raises(ValueError):
        as_r(pd.DataFrame({"p": pd.period_range("2020", periods=1, freq="Y")}))
