"""Round trips numpy/pandas -> rvalues -> numpy/pandas keep dtypes, values and missingness."""

from __future__ import annotations

import pickle
import warnings
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from hypothesis.extra import numpy as hnp
from hypothesis.extra import pandas as hpd

import rvalues as rv
from rvalues.convert import ConversionWarning, from_numpy, from_pandas, to_numpy, to_pandas
from rvalues.convert.origins import origin_of, remember

FAST = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])

NUMPY_DTYPES = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint16",
    "uint32",
    "uint64",
    "float16",
    "float32",
    "float64",
    "complex64",
    "complex128",
    "U3",
    "datetime64[D]",
    "datetime64[s]",
    "datetime64[ms]",
    "datetime64[us]",
    "timedelta64[s]",
    "timedelta64[ms]",
    "timedelta64[us]",
]


def _elements(dtype: np.dtype) -> st.SearchStrategy[Any] | None:
    if dtype.kind in "iu":
        info = np.iinfo(dtype)
        # R's integer range (beyond it values become doubles; see test_integers_beyond_int32)
        return st.integers(max(int(info.min), -(2**31) + 1), min(int(info.max), 2**31 - 1))
    if dtype.kind in "mM":
        unit = np.datetime_data(dtype)[0]
        span = {"D": 200_000, "s": 2**33, "ms": 2**43, "us": 2**52}[unit]
        return st.integers(-span, span).map(lambda v: np.array(v).astype(dtype))
    if dtype.kind == "U":
        return st.text(alphabet=st.characters(blacklist_categories=["Cs", "Cc"]), max_size=3).filter(
            lambda s: not s.endswith("\x00")
        )
    return None


def _same(a: np.ndarray, b: np.ndarray) -> None:
    assert b.dtype == a.dtype
    assert b.shape == a.shape
    if a.dtype.kind in "fc":
        np.testing.assert_array_equal(a, b)  # NaN == NaN here
    else:
        assert np.array_equal(a, b, equal_nan=a.dtype.kind in "mM")


@FAST
@given(data=st.data())
def test_numpy_round_trip(data: st.DataObject) -> None:
    dtype = np.dtype(data.draw(st.sampled_from(NUMPY_DTYPES)))
    shape = data.draw(hnp.array_shapes(min_dims=1, max_dims=3, min_side=0, max_side=4))
    a = data.draw(hnp.arrays(dtype, shape, elements=_elements(dtype)))
    if data.draw(st.booleans()):
        a = a.astype(a.dtype.newbyteorder(">")) if a.dtype.kind not in "bUmM" and a.dtype.itemsize > 1 else a
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        value = from_numpy(a)
    _same(a.astype(a.dtype.newbyteorder("=")) if a.dtype.kind not in "U" else a, to_numpy(value))


@FAST
@given(data=st.data())
def test_masked_round_trip(data: st.DataObject) -> None:
    dtype = np.dtype(data.draw(st.sampled_from(["bool", "int16", "int32", "int64", "float64"])))
    n = data.draw(st.integers(0, 6))
    a = data.draw(hnp.arrays(dtype, n, elements=_elements(dtype)))
    mask = data.draw(hnp.arrays(np.bool_, n))
    back = to_numpy(from_numpy(np.ma.MaskedArray(a, mask=mask)))
    if dtype.kind == "f":
        from rvalues.na import real_is_na

        assert (real_is_na(back) == mask).all()
        np.testing.assert_array_equal(back[~mask], a[~mask])
    else:
        assert (np.ma.getmaskarray(back) == mask).all()
        assert (np.ma.getdata(back)[~mask] == a[~mask]).all()
        assert back.dtype == dtype


# -- pandas --------------------------------------------------------------------------------------


def _nullable(kind: str, values: st.SearchStrategy[Any]) -> st.SearchStrategy[list[Any]]:
    return st.lists(st.one_of(st.none(), values))


_TEXT = st.text(alphabet="abcxyz\u00e9", max_size=3)
_INT32 = st.integers(-(2**31) + 1, 2**31 - 1)


def _column(dtype: str, n: int) -> st.SearchStrategy[Any]:
    """A pandas column of ``dtype`` with ``n`` rows (None where missing, for dtypes with NA)."""
    if dtype in ("Int8", "Int16", "Int32", "Int64", "UInt8", "UInt16", "UInt32", "UInt64"):
        numpy_dtype = np.dtype(dtype.lower())
        info = np.iinfo(numpy_dtype)
        ints = st.integers(max(int(info.min), -(2**31) + 1), min(int(info.max), 2**31 - 1))
        return st.lists(st.one_of(st.none(), ints), min_size=n, max_size=n).map(
            lambda v: pd.array(v, dtype=dtype)
        )
    if dtype in ("Float32", "Float64"):
        floats = st.floats(width=32 if dtype == "Float32" else 64, allow_nan=False)
        return st.lists(st.one_of(st.none(), floats), min_size=n, max_size=n).map(
            lambda v: pd.array(v, dtype=dtype)
        )
    if dtype == "boolean":
        return st.lists(st.one_of(st.none(), st.booleans()), min_size=n, max_size=n).map(
            lambda v: pd.array(v, dtype=dtype)
        )
    if dtype in ("string[python]", "string[pyarrow]", "str"):
        return st.lists(st.one_of(st.none(), _TEXT), min_size=n, max_size=n).map(
            lambda v: pd.Series(v, dtype=dtype).array
        )
    if dtype in ("category", "ordered"):
        levels = st.sampled_from(["lo", "mid", "hi"])
        return st.lists(st.one_of(st.none(), levels), min_size=n, max_size=n).map(
            lambda v: pd.Categorical(v, categories=["lo", "mid", "hi", "unused"], ordered=dtype == "ordered")
        )
    if dtype.startswith("datetime64"):
        stamps = st.integers(-(2**40), 2**40).map(lambda s: pd.Timestamp(s * 1000, unit="us"))
        return st.lists(st.one_of(st.none(), stamps), min_size=n, max_size=n).map(
            lambda v: (
                pd.Series(pd.DatetimeIndex(v)).astype(dtype).array
                if "," not in dtype
                else pd.Series(pd.DatetimeIndex(v).tz_localize("UTC")).astype(dtype).array
            )
        )
    if dtype == "timedelta64[ns]":
        return st.lists(st.one_of(st.none(), st.integers(-(2**40), 2**40)), min_size=n, max_size=n).map(
            lambda v: pd.array([None if x is None else pd.Timedelta(x, unit="us") for x in v], dtype=dtype)
        )
    if dtype == "object":
        return st.lists(st.one_of(st.none(), _TEXT), min_size=n, max_size=n).map(_objects)
    if dtype == "object-mixed":  # ints, strings and bools together: a list column
        scalars = st.one_of(st.none(), st.integers(-1000, 1000), _TEXT, st.booleans())
        return st.lists(scalars, min_size=n, max_size=n).map(_objects)
    numpy_dtype = np.dtype(dtype)
    return hnp.arrays(numpy_dtype, n, elements=_elements(numpy_dtype))


PANDAS_DTYPES = [
    "bool",
    "int8",
    "int16",
    "int32",
    "int64",
    "uint8",
    "uint32",
    "float32",
    "float64",
    "Int8",
    "Int16",
    "Int32",
    "Int64",
    "UInt8",
    "UInt16",
    "UInt32",
    "UInt64",
    "Float32",
    "Float64",
    "boolean",
    "string[python]",
    "string[pyarrow]",
    "str",
    "category",
    "ordered",
    "object",
    "object-mixed",
    "datetime64[ns]",
    "datetime64[us]",
    "datetime64[ms]",
    "datetime64[s]",
    "datetime64[ns, America/New_York]",
    "datetime64[us, UTC]",
    "timedelta64[ns]",
]


def _objects(values: list[Any]) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    out[:] = values
    return out


@st.composite
def frames(draw: st.DrawFn) -> pd.DataFrame:
    n = draw(st.integers(0, 6))
    dtypes = draw(st.lists(st.sampled_from(PANDAS_DTYPES), min_size=0, max_size=5))
    columns = {f"c{i}_{d}": draw(_column(d, n)) for i, d in enumerate(dtypes)}
    index_kind = draw(st.sampled_from(["range", "str", "int"]))
    if index_kind == "str":
        index: pd.Index = pd.Index(draw(st.lists(_TEXT, min_size=n, max_size=n, unique=True)), dtype=object)
    elif index_kind == "int":
        index = pd.Index(draw(st.lists(_INT32, min_size=n, max_size=n, unique=True)), dtype="int64")
    else:
        index = pd.RangeIndex(n)
    return pd.DataFrame(columns, index=index)


@FAST
@given(df=frames())
def test_pandas_round_trip(df: pd.DataFrame) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("error", ConversionWarning)
        value = from_pandas(df)
    pd.testing.assert_frame_equal(to_pandas(value), df, check_exact=True)


@FAST
@given(data=st.data())
def test_series_round_trip(data: st.DataObject) -> None:
    dtype = data.draw(st.sampled_from(PANDAS_DTYPES))
    n = data.draw(st.integers(0, 5))
    series = pd.Series(data.draw(_column(dtype, n)), name=data.draw(st.sampled_from([None, "x"])))
    pd.testing.assert_series_equal(to_pandas(from_pandas(series)), series, check_exact=True)


def test_r_born_defaults() -> None:
    from rvalues import as_date, data_frame, factor

    df = to_pandas(
        data_frame(
            i=[1, None],
            b=[True, None],
            d=[1.5, None],
            s=["x", None],
            f=factor(["a", None]),
            day=as_date(["2020-01-02", None]),
        )
    )
    assert isinstance(df.index, pd.RangeIndex)
    assert str(df["i"].dtype) == "Int32"
    assert str(df["b"].dtype) == "boolean"
    assert df["d"].dtype == np.float64 and np.isnan(df["d"].iloc[1])
    assert df["s"].isna().tolist() == [False, True]
    assert isinstance(df["f"].dtype, pd.CategoricalDtype)
    assert df["day"].dtype == np.dtype("datetime64[s]")
    assert df["day"].isna().tolist() == [False, True]


@pytest.mark.parametrize("tz", ["UTC", "America/New_York"])
def test_posixct_back_with_zone(tz: str) -> None:
    from rvalues import as_posixct

    s = to_pandas(as_posixct(["2020-06-01 12:00:00", None], tz=tz))
    assert str(s.dtype) == f"datetime64[us, {tz}]"
    assert s.iloc[0] == pd.Timestamp("2020-06-01 12:00:00", tz=tz)
    assert s.isna().tolist() == [False, True]


@FAST
@given(
    df=hpd.data_frames(
        columns=[
            hpd.column("i64", dtype=np.int64, elements=_INT32),
            hpd.column("i16", dtype=np.int16),
            hpd.column("f64", dtype=np.float64),
            hpd.column("f32", dtype=np.float32),
            hpd.column("b", dtype=bool),
            hpd.column("u8", dtype=np.uint8),
            hpd.column("c", dtype=np.complex128, elements=st.complex_numbers(allow_nan=False)),
        ],
        index=hpd.range_indexes(max_size=8),
    )
)
def test_hypothesis_pandas_frames_round_trip(df: pd.DataFrame) -> None:
    pd.testing.assert_frame_equal(to_pandas(from_pandas(df)), df, check_exact=True)


@FAST
@given(
    series=hpd.series(
        elements=st.one_of(st.none(), _TEXT), dtype=object, index=hpd.indexes(elements=_TEXT, unique=True)
    )
)
def test_hypothesis_pandas_object_series_round_trip(series: pd.Series) -> None:
    pd.testing.assert_series_equal(to_pandas(from_pandas(series)), series, check_exact=True)


def test_an_origin_belongs_to_the_converted_object_only() -> None:
    """The dtype is kept on the converted value itself: an equal value, a changed copy, a pickled
    copy and the shared NULL have none, so they come back with R's defaults."""
    converted = from_numpy(np.array([1, 2], dtype=np.int16))
    assert to_numpy(converted).dtype == np.int16
    for other in (
        rv.Integer([1, 2]),
        converted.with_attributes({"names": ["a", "b"]}).without_attributes(),
        pickle.loads(pickle.dumps(converted)),
    ):
        assert other == converted and origin_of(other) == {}
        assert to_numpy(other).dtype == np.int32
    assert remember(rv.NULL, dtype=np.dtype("int16")) is rv.NULL and origin_of(rv.NULL) == {}
    frame = from_pandas(pd.DataFrame({"x": pd.array([1, None], dtype="Int64")}))
    assert str(to_pandas(frame.data[0]).dtype) == "Int64"  # a column keeps its own origin
