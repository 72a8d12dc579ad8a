"""Values own read-only memory: no conversion aliases its input, and the lock cannot be lifted."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from strategies import values

import rvalues as rv
from rvalues.model.build import build, labels
from rvalues.model.storage import is_locked


def assert_locked(value: Any) -> None:
    """Every array in ``value`` (and its attributes) refuses to become writable, itself or via its base."""
    if value.r_type == "list":
        for element in value.data:
            assert_locked(element)
    elif value.r_type != "NULL":
        data = value.data
        assert not data.flags.writeable
        with pytest.raises(ValueError):
            data.flags.writeable = True
        with pytest.raises(ValueError):
            data[:1].flags.writeable = True
        base = data.base
        if isinstance(base, np.ndarray):
            with pytest.raises(ValueError):
                base.flags.writeable = True
        else:
            assert not hasattr(base, "flags") or (isinstance(base, memoryview) and base.readonly)
    for attribute in value.attributes.values():
        assert_locked(attribute)


@pytest.mark.parametrize(
    "name", ["NA", "NA_integer_", "NA_real_", "NA_character_", "NA_complex_", "TRUE", "FALSE"]
)
def test_the_shared_constants_are_locked(name: str) -> None:
    constant = getattr(rv, name)
    before = constant.data.tobytes() if name != "NA_character_" else constant.data.tolist()
    assert_locked(constant)
    after = constant.data.tobytes() if name != "NA_character_" else constant.data.tolist()
    assert before == after


@settings(max_examples=60, derandomize=True, deadline=None)
@given(values())
def test_generated_values_are_locked(description: dict[str, Any]) -> None:
    assert_locked(rv.from_description(description))


_DTYPES = st.sampled_from(
    ["bool", "int8", "int32", "int64", "uint16", "float32", "float64", "complex128", ">f8", "<U3",
     "datetime64[s]",
     "datetime64[D]", "timedelta64[ms]"]
)  # fmt: skip


@settings(max_examples=80, derandomize=True, deadline=None)
@given(hnp.arrays(_DTYPES, hnp.array_shapes(max_dims=2, max_side=5)), st.booleans())
def test_numpy_conversions_never_alias_their_input(array: np.ndarray, strided: bool) -> None:
    if strided and array.ndim == 1:
        array = array[::2]
    with np.errstate(all="ignore"), warnings.catch_warnings():
        warnings.simplefilter("ignore", rv.ConversionWarning)
        try:
            value = rv.from_numpy(array)
        except rv.RValueError:
            return
        before = rv.from_numpy(array.copy())
    assert not np.shares_memory(value.data, array)
    array[...] = np.zeros_like(array)  # a write to the input after the conversion
    assert rv.identical(value, before)
    assert_locked(value)


@pytest.mark.parametrize(
    "dtype", ["int32", "float64", "complex128", "Float64", "Int32", "string", "category"]
)
def test_pandas_conversions_never_alias_the_frame(dtype: str) -> None:
    raw = [1, 2, 3] if dtype not in ("string", "category") else ["a", "b", "c"]
    frame = pd.DataFrame({"x": pd.Series(raw, dtype=dtype)})
    value = rv.from_pandas(frame)
    frozen_hash = hash(value)
    table = {value: "kept"}
    column = frame["x"].to_numpy()
    assert not np.shares_memory(value.data[0].data, column)
    frame.loc[0, "x"] = frame.loc[2, "x"]
    assert value.data[0].tolist()[0] in (1, "a", 1.0, 1 + 0j) or value.inherits("data.frame")
    assert hash(value) == frozen_hash and table[value] == "kept"
    assert_locked(value)


def test_writes_through_a_to_numpy_view_do_not_show() -> None:
    frame = pd.DataFrame({"x": np.arange(4.0)})
    value = rv.from_pandas(frame)
    view = frame["x"].to_numpy()
    if not view.flags.writeable:  # pandas 3 hands out read-only views; pandas 2 writable ones
        view = view.view()
        view.flags.writeable = True
    view[0] = 99.0
    assert value.data[0].data[0] == 0.0


@pytest.mark.parametrize(
    "make",
    [
        lambda a: rv.as_r(a),
        lambda a: rv.Double(a),
        lambda a: rv.c(a),
        lambda a: rv.matrix(a, nrow=2),
        lambda a: rv.data_frame(x=a),
        lambda a: rv.as_r(pd.Series(a)),
        lambda a: rv.as_r(np.ma.masked_array(a, mask=[False] * len(a))),
    ],
)
def test_user_arrays_stay_writable_and_unshared(make: Any) -> None:
    a = np.arange(4.0)
    value = make(a)
    assert a.flags.writeable  # rvalues never locks the caller's own array
    a[:] = -1.0
    column = value.data[0] if value.r_type == "list" else value
    assert column.data.tolist() == [0.0, 1.0, 2.0, 3.0]


def test_locked_data_handed_back_is_not_copied_again() -> None:
    value = rv.Double([1.5, 2.5])
    again = rv.from_numpy(value.data)
    assert np.shares_memory(again.data, value.data)


@pytest.mark.parametrize("n", [3, 1000, 100_000])
@pytest.mark.parametrize("dtype", ["int32", "float64", "complex128", "object"])
def test_small_and_large_storage_is_locked_alike(n: int, dtype: str) -> None:
    """Small arrays are locked as a copy (numbers in bytes), large ones in place: both refuse."""
    r_type = {"int32": "integer", "float64": "double", "complex128": "complex", "object": "character"}[dtype]
    data = (
        np.arange(n).astype(dtype)
        if dtype != "object"
        else np.array([str(i) for i in range(n)], dtype=object)
    )
    assert not is_locked(data)
    value = build(r_type, data)
    assert is_locked(value.data) and is_locked(value.data[1:])
    assert_locked(value)
    assert value.data.tolist() == data.tolist()


def test_equal_labels_share_one_vector_and_are_checked() -> None:
    assert labels(["id", "x"]) is labels(("id", "x"))
    assert labels(["id", None]).data.tolist() == ["id", None]
    with pytest.raises(rv.RValueError, match="nul"):
        labels(["a\x00b"])
    with pytest.raises(rv.RValueError, match="column names"):
        rv.as_r(pd.DataFrame({"a\x00b": [1]}))
