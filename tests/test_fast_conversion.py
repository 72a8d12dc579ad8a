"""Few-element conversion paths (plain Python) give the same R values as the numpy paths."""

from __future__ import annotations

import datetime as dt
import warnings
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rvalues as rv
from rvalues import _speedups
from rvalues.convert import objects as objects_convert
from rvalues.convert import pandas as pandas_convert
from rvalues.convert import typed as typed_convert
from rvalues.json import factor_cells
from rvalues.model.elements import INT_MAX

_UNITS = ["s", "ms", "us", "ns"]
_BOUNDS = [0, 1, -1, INT_MAX, -INT_MAX, INT_MAX + 1, -INT_MAX - 1, 2**53 + 1, -(2**62)]


def _bits(value: Any) -> Any:
    """What must agree: the R type, the exact bits of the data, and the attributes."""
    if value.r_type in ("list", "NULL"):
        return (value.r_type, [_bits(e) for e in value.data], _attributes(value))
    data = value.data.tolist() if value.r_type == "character" else value.data.tobytes()
    return (type(value).__name__, value.r_type, data, _attributes(value))


def _attributes(value: Any) -> dict[str, Any]:
    return {k: _bits(v) for k, v in value.attributes.items()}


def _convert(obj: Any) -> Any:
    try:
        with warnings.catch_warnings(record=True) as caught:
            warnings.simplefilter("always")
            return _bits(rv.as_r(obj)), [str(w.message) for w in caught]
    except rv.RValueError as err:
        return f"error: {err}"


def _same_both_ways(obj: Any) -> None:
    """The few-element paths (compiled, and plain Python without the extension) and numpy's agree."""
    few = _convert(obj)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_speedups, "core", None)
        assert _convert(obj) == few
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(typed_convert, "FEW", -1)
        patch.setattr(pandas_convert, "FEW", -1)
        patch.setattr(objects_convert, "_FEW", -1)
        assert _convert(obj) == few


def _masked(values: list[Any], missing: list[bool]) -> list[Any]:
    return [None if m else v for v, m in zip(values, missing, strict=True)]


@st.composite
def _frames(draw: st.DrawFn) -> pd.DataFrame:
    n = draw(st.integers(0, 6))
    unit = draw(st.sampled_from(_UNITS))
    ticks = draw(st.lists(st.integers(-(2**62), 2**62), min_size=n, max_size=n))
    missing = draw(st.lists(st.booleans(), min_size=n, max_size=n))
    stamps = np.array(ticks, dtype=np.int64).view(f"datetime64[{unit}]")
    stamps[np.array(missing, dtype=bool)] = np.datetime64("NaT", unit)
    ints = draw(st.lists(st.sampled_from(_BOUNDS) | st.integers(-(2**40), 2**40), min_size=n, max_size=n))
    codes = draw(st.lists(st.integers(-1, 2), min_size=n, max_size=n))
    zone = draw(st.sampled_from(["UTC", "Europe/Paris", "America/New_York"]))
    columns: dict[str, Any] = {
        "t": stamps,
        "d": (stamps - stamps[0]) if n else stamps.astype(f"timedelta64[{unit}]"),
        "i": np.array(ints, dtype=np.int64),
        "i32": np.clip(np.array(ints, dtype=np.int64), -(2**31), 2**31 - 1).astype(np.int32),
        "f": pd.Categorical.from_codes(codes, ["lo", "mid", "hi"], ordered=draw(st.booleans())),
        "I": pd.array(_masked(ints, missing), dtype="Int64"),
        "I8": pd.array(_masked([i % 100 for i in ints], missing), dtype="Int8"),
        "U": pd.array(_masked([abs(i) for i in ints], missing), dtype="UInt64"),
        "B": pd.array(_masked([i % 2 == 0 for i in ints], missing), dtype="boolean"),
        "b": np.array([i % 3 == 0 for i in ints], dtype=bool),
    }
    if unit == "ns":
        columns["z"] = pd.DatetimeIndex(stamps).tz_localize("UTC").tz_convert(zone)
    return pd.DataFrame(columns)


@settings(max_examples=200, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(frame=_frames())
def test_a_few_rows_convert_as_the_numpy_path_does(frame: pd.DataFrame) -> None:
    """Integers' range, date-time and duration seconds, zoned instants and factor codes, with NaT,
    NA codes, int64's extremes and every unit: the same bits, the same warnings, the same errors."""
    _same_both_ways(frame)
    for name in frame.columns:
        _same_both_ways(frame[name].to_numpy())


_ELEMENTS = [
    None,
    pd.NA,
    pd.NaT,
    float("nan"),
    np.float64("nan"),
    np.datetime64("NaT", "s"),
    np.datetime64("2020-01-01T10:00:00"),
    Decimal("NaN"),
    Decimal("sNaN"),
    Decimal("1.5"),
    1.5,
    np.float32(2.5),
    3,
    np.int16(-4),
    2**70,
    True,
    np.bool_(False),
    "a",
    1j,
    dt.date(2020, 1, 1),
    dt.date(1, 1, 1),
    dt.datetime(2021, 6, 1, 0, 0, 30),
    dt.datetime(2021, 6, 1, tzinfo=dt.UTC),
    dt.timedelta(days=1, seconds=1),
    [1, 2],
]


@settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(
    elements=st.lists(st.sampled_from(_ELEMENTS), max_size=8),
    masked=st.lists(st.booleans(), min_size=8, max_size=8),
)
def test_a_few_objects_are_classified_as_the_numpy_path_does(elements: list[Any], masked: list[bool]) -> None:
    """Missing markers, NaNs of every kind (a signalling Decimal too), masks and mixes of kinds:
    the same R value, warnings and errors from the element-by-element path."""
    flat = np.empty(len(elements), dtype=object)
    flat[:] = elements
    _same_both_ways(flat)
    _same_both_ways(pd.Series(flat, dtype=object))
    mask = np.array(masked[: len(elements)], dtype=bool)
    few = objects_convert._few_missing(flat, mask)
    many = objects_convert._missing(flat, mask) if len(flat) else few
    assert few[0].tolist() == many[0].tolist() and few[1] == many[1]


@pytest.mark.parametrize("unit", _UNITS)
def test_sub_second_digits_are_kept_the_same_way(unit: str) -> None:
    ticks = np.array([1, -1, 999_999_999, -999_999_999, 1_577_872_800_123_456_789 // 10**9], dtype=np.int64)
    _same_both_ways(ticks.view(f"datetime64[{unit}]"))
    _same_both_ways(ticks.view(f"timedelta64[{unit}]"))


def test_factor_tokens_of_a_few_codes_are_the_array_paths(monkeypatch: pytest.MonkeyPatch) -> None:
    codes = [1, rv.NA_integer_.data[0], 2, 0, 3]
    factor = rv.Integer._wrap(
        np.array(codes, dtype=np.int32),
        {"levels": rv.Character(["a", None, "</c>"]), "class": rv.Character(["factor"])},
    )
    few = [rv.to_json(factor), rv.to_json(factor, na="string"), rv.to_json(rv.data_frame(f=factor))]
    monkeypatch.setattr(factor_cells, "FEW_CODES", -1)
    assert [rv.to_json(factor), rv.to_json(factor, na="string"), rv.to_json(rv.data_frame(f=factor))] == few


def test_zoned_columns_keep_their_zone_name_when_zones_compare_equal() -> None:
    """The zone attribute is made once per dtype: dateutil's zones of two names compare equal,
    and each column still gets the name it was given (the zones a zone cache must not merge)."""
    dateutil_tz = pytest.importorskip("dateutil.tz")
    eastern, new_york = dateutil_tz.gettz("US/Eastern"), dateutil_tz.gettz("America/New_York")
    if eastern is None or new_york is None or eastern != new_york:
        pytest.skip("this system's dateutil zones do not compare equal")
    instants = pd.to_datetime(["2020-01-01 10:00:00"]).tz_localize("UTC")
    for _ in range(2):  # the second round reads the cache
        frame = pd.DataFrame({"a": instants.tz_convert(eastern), "b": instants.tz_convert(new_york)})
        value = rv.as_r(frame)
        zones = [column.attributes["tzone"].data.tolist() for column in value.data]
        assert zones == [["US/Eastern"], ["America/New_York"]]


class _Nowhere(dt.tzinfo):
    """A zone whose IANA name R does not know."""

    key = "Nowhere/Atlantis"

    def utcoffset(self, when: dt.datetime | None) -> dt.timedelta:
        return dt.timedelta(0)

    def dst(self, when: dt.datetime | None) -> dt.timedelta:
        return dt.timedelta(0)

    def tzname(self, when: dt.datetime | None) -> str:
        return "ATL"


def test_an_unknown_zone_is_refused_on_every_call_with_the_column_named() -> None:
    frame = pd.DataFrame({"when": pd.to_datetime(["2020-01-01"]).tz_localize(_Nowhere())})
    for _ in range(2):  # failures are not cached: each call says which column
        with pytest.raises(rv.RValueError, match=r"column 'when'.*Nowhere/Atlantis"):
            rv.as_r(frame)


def _block_frames() -> list[pd.DataFrame]:
    """Frames whose columns sit in blocks of every layout: consolidated 2-d numeric blocks, 2-d
    date-time blocks, 1-d extension blocks, repeated labels, and columns inserted out of order."""
    mixed = pd.DataFrame(
        {
            "a": [1, 2, 3],
            "b": [1.5, None, 2.5],
            "c": pd.array(["x", None, "z"], dtype="string"),
            "d": [4, 5, 6],
            "e": pd.to_datetime(["2020-01-01", None, "2021-01-01"]).tz_localize("Europe/Paris"),
            "f": pd.Categorical(["u", "v", "u"]),
            "g": pd.array([1, None, 3], dtype="Int64"),
            "h": pd.to_datetime(["2020-01-01", None, "2021-01-01"]).tz_localize("Europe/Paris"),
            "naive": pd.to_datetime(["2020-01-01 10:00", None, "2021-01-01 00:00"]),
            "wait": pd.to_timedelta([1, None, 3], unit="s"),
            "naive2": pd.to_datetime(["2020-01-02", "2020-01-03", None]).astype("datetime64[s]"),
            "wait2": pd.to_timedelta([4, 5, None], unit="s"),
        }
    )
    mixed.insert(1, "late", [7.0, 8.0, 9.0])  # a block of its own, placed before older ones
    repeated = pd.DataFrame(np.arange(12).reshape(3, 4), columns=["x", "y", "x", "y"])
    unconsolidated = pd.DataFrame({"p": [1, 2]})
    for name in "qrs":
        unconsolidated[name] = [3, 4]
    return [mixed, repeated, unconsolidated, pd.DataFrame(), pd.DataFrame(index=range(3))]


@pytest.mark.parametrize("frame", _block_frames())
def test_columns_read_from_the_blocks_are_pandas_own_columns(frame: pd.DataFrame) -> None:
    arrays = pandas_convert._column_arrays(frame)
    assert len(arrays) == frame.shape[1]
    for i, array in enumerate(arrays):
        expected = frame.iloc[:, i]
        assert array.dtype == expected.dtype
        assert pd.Series(array).equals(expected.reset_index(drop=True))


@pytest.mark.parametrize("frame", _block_frames())
def test_a_frame_without_readable_blocks_converts_the_same(
    frame: pd.DataFrame, monkeypatch: pytest.MonkeyPatch
) -> None:
    blocks = _bits(rv.as_r(frame))
    monkeypatch.setattr(pandas_convert, "_block_columns", lambda manager: None)
    assert _bits(rv.as_r(frame)) == blocks
