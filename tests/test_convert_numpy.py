"""numpy and pandas conversion details: zero copies, warnings, NA versus NaN, layouts."""

from __future__ import annotations

import subprocess
import sys
import warnings

import numpy as np
import pandas as pd
import pytest

from rvalues import NA_real_, describe
from rvalues.convert import (
    ConversionWarning,
    IntegerOverflowWarning,
    PrecisionWarning,
    as_r,
    from_numpy,
    from_pandas,
    to_numpy,
)
from rvalues.na import NA_REAL, real_is_na


@pytest.mark.parametrize("dtype", [np.float64, np.int32, np.complex128])
def test_numeric_arrays_are_copied_once_into_owned_read_only_memory(dtype: type) -> None:
    a = np.arange(5).astype(dtype)
    value = from_numpy(a)
    assert not np.shares_memory(value.data, a)  # the caller can go on writing to `a`
    assert not value.data.flags.writeable
    assert a.flags.writeable  # the caller's array is untouched


def test_pandas_numeric_columns_are_copied_out_of_the_frame() -> None:
    df = pd.DataFrame({"f": np.linspace(0, 1, 5), "i": np.arange(5, dtype=np.int32)})
    value = from_pandas(df)
    assert not np.shares_memory(value.data[0].data, df["f"].to_numpy())
    assert not np.shares_memory(value.data[1].data, df["i"].to_numpy())
    df.loc[0, "f"] = 99.0
    assert value.data[0].data[0] == 0.0


def test_read_only_non_contiguous_and_big_endian_inputs() -> None:
    a = np.arange(12, dtype=">f8").reshape(3, 4)[:, ::2]
    a.flags.writeable = False
    value = from_numpy(a)
    assert value.dim == (3, 2)
    assert value.data.tolist() == [0.0, 4.0, 8.0, 2.0, 6.0, 10.0]


def test_nan_stays_nan_and_r_na_bits_are_na() -> None:
    value = from_numpy(np.array([np.nan, NA_REAL]))
    assert describe(value)["values"] == ["NaN", "NA"]
    assert describe(from_pandas(pd.Series([np.nan, 1.0])))["values"] == ["NaN", "1"]


def test_nullable_float_keeps_unmasked_nan_apart_from_na() -> None:
    array = pd.arrays.FloatingArray(np.array([np.nan, 0.0, 1.5]), np.array([False, True, False]))
    assert describe(from_pandas(pd.Series(array)))["values"] == ["NaN", "NA", "1.5"]


def test_overflow_warnings_have_their_own_category_and_can_be_silenced() -> None:
    big = np.array([2**31, 2**53 + 1], dtype=np.int64)
    with pytest.warns(IntegerOverflowWarning, match="converted to double"):
        from_numpy(big[:1])
    with pytest.warns(ConversionWarning) as caught:
        from_numpy(big)
    assert [w.category for w in caught] == [IntegerOverflowWarning, PrecisionWarning]
    assert "rounded" in str(caught[1].message)
    assert issubclass(IntegerOverflowWarning, ConversionWarning)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        warnings.simplefilter("ignore", ConversionWarning)
        assert from_numpy(big).r_type == "double"


def test_warning_points_at_the_caller() -> None:
    with pytest.warns(IntegerOverflowWarning) as caught:
        as_r(pd.DataFrame({"x": [2**40]}))
    assert caught[0].filename == __file__
    assert "column 'x'" in str(caught[0].message)


def test_int64_that_fits_becomes_integer() -> None:
    assert from_numpy(np.array([1, -(2**31) + 1, 2**31 - 1])).r_type == "integer"
    assert from_pandas(pd.Series([1, None], dtype="Int64")).r_type == "integer"


def test_masked_value_of_an_overflowing_int_is_ignored() -> None:
    masked = np.ma.MaskedArray(np.array([1, 2**40]), mask=[False, True])
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert describe(from_numpy(masked))["values"] == [1, None]


def test_column_major_order_matches_r_indexing() -> None:
    a = np.arange(6).reshape(2, 3)
    value = from_numpy(a)
    nrow = value.dim[0]
    for i in range(2):
        for j in range(3):
            assert value.data[i + nrow * j] == a[i, j]  # R's x[i + 1, j + 1]
    assert (to_numpy(value) == a).all()


def test_zero_length_and_zero_d() -> None:
    assert from_numpy(np.zeros((0, 3))).dim == (0, 3)
    assert len(from_numpy(np.array(1.5))) == 1
    assert from_numpy(np.float32(2.5)).data.tolist() == [2.5]


def test_datetime64_units() -> None:
    value = from_numpy(np.array(["2020-01-02T03:04:05.123456789"], dtype="datetime64[ns]"))
    assert value.r_class == ("POSIXct", "POSIXt")
    assert abs(value.data[0] - 1577934245.123456789) < 1e-6
    assert from_numpy(np.array([2600], dtype="datetime64[W]")).r_class == ("Date",)
    assert from_numpy(np.array([3], dtype="timedelta64[h]")).data.tolist() == [10800.0]


def test_categorical_levels_are_r_strings() -> None:
    value = from_pandas(pd.Series(pd.Categorical([True, False])))
    assert value.attributes["levels"].data.tolist() == ["FALSE", "TRUE"]
    value = from_pandas(pd.Series(pd.Categorical(pd.to_datetime(["2020-01-02"]).date)))
    assert value.attributes["levels"].data.tolist() == ["2020-01-02"]


def test_series_index_and_range_index() -> None:
    assert from_pandas(pd.Series([1, 2], index=["a", "b"])).names.data.tolist() == ["a", "b"]
    assert from_pandas(pd.RangeIndex(2, 5)).data.tolist() == [2, 3, 4]
    assert as_r(pd.NA).r_type == "logical"


def test_importing_rvalues_does_not_import_pandas() -> None:
    code = "import sys, rvalues, numpy; rvalues.as_r(numpy.arange(3)); print('pandas' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


def test_na_constant_is_still_na() -> None:
    assert real_is_na(np.asarray(NA_real_.data)).all()
