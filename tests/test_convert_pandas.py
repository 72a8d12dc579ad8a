"""pandas specifics: arrow dtypes, scalars, provenance on the way back, frames without columns."""

from __future__ import annotations

import datetime as dt
import decimal

import numpy as np
import pandas as pd
import pytest

from rvalues import data_frame, describe
from rvalues.convert import as_r, from_pandas, to_pandas

pa = pytest.importorskip("pyarrow")


def test_arrow_dates_durations_and_decimals() -> None:
    df = pd.DataFrame(
        {
            "d": pd.Series([dt.date(2020, 1, 2), None], dtype=pd.ArrowDtype(pa.date32())),
            "du": pd.Series([pd.Timedelta(1, "s"), None], dtype=pd.ArrowDtype(pa.duration("ms"))),
            "dec": pd.Series([decimal.Decimal("1.25"), None], dtype=pd.ArrowDtype(pa.decimal128(5, 2))),
        }
    )
    d, du, dec = from_pandas(df).data
    assert d.r_class == ("Date",) and describe(d)["values"] == ["18263", "NA"]
    assert du.attributes["units"].data.tolist() == ["secs"] and describe(du)["values"] == ["1", "NA"]
    assert describe(dec)["values"] == ["1.25", "NA"]


def test_timestamp_and_timedelta_scalars_keep_zone_and_digits() -> None:
    stamp = as_r(pd.Timestamp("2020-01-02 03:04:05.25", tz="Europe/Paris"))
    assert stamp.attributes["tzone"].data.tolist() == ["Europe/Paris"]
    assert stamp.data.tolist() == [1577930645.25]
    assert as_r(pd.Timedelta("1.5s")).data.tolist() == [1.5]


def test_frame_without_columns_keeps_its_rows() -> None:
    value = from_pandas(pd.DataFrame(index=["a", "b"]))
    assert value.nrow == 2 and value.ncol == 0
    assert value.row_names.data.tolist() == ["a", "b"]


def test_round_trip_restores_index_name_and_column_labels() -> None:
    df = pd.DataFrame({0: [1.5], "b": ["x"]}, index=pd.Index([7], name="key"))
    value = from_pandas(df)
    assert value.names.data.tolist() == ["0", "b"]
    pd.testing.assert_frame_equal(to_pandas(value), df)


def test_a_changed_value_gets_the_defaults() -> None:
    value = from_pandas(pd.DataFrame({"i": pd.array([1, None], dtype="Int64")}))
    column = value.data[0]
    assert str(to_pandas(column).dtype) == "Int64"
    renamed = column.with_attributes({"names": ["a", "b"]})
    assert str(to_pandas(renamed).dtype) == "Int32"
    assert to_pandas(renamed).index.tolist() == ["a", "b"]


def test_r_born_frame_with_character_row_names() -> None:
    df = to_pandas(data_frame(x=[1.5, 2.5], row_names=["r1", "r2"]))
    assert df.index.tolist() == ["r1", "r2"]
    assert df["x"].tolist() == [1.5, 2.5]


def test_list_columns_come_back_as_python_objects() -> None:
    df = pd.DataFrame({"m": pd.Series([1, "a", None, [1, 2], {"k": True}], dtype=object)})
    back = to_pandas(from_pandas(df))
    assert back["m"].tolist() == [1, "a", None, [1, 2], {"k": True}]


def test_float64_na_and_nan_survive_a_pandas_round_trip() -> None:
    from rvalues import Double
    from rvalues.na import NA_REAL

    value = Double([1.0, None, float("nan")])
    series = to_pandas(value)
    assert series.isna().tolist() == [False, True, True]
    assert describe(from_pandas(series))["values"] == ["1", "NA", "NaN"]
    assert np.isnan(NA_REAL)


def test_frames_convert_alike_without_pandas_private_column_access(monkeypatch: pytest.MonkeyPatch) -> None:
    """Columns are read through ``DataFrame._get_column_array`` where pandas has it, else per Series."""
    frame = pd.DataFrame(
        {
            "i": np.array([1, 2, 3], dtype=np.int32),
            "x": [1.5, None, 2.25],
            "s": pd.array(["a", None, "c"], dtype="string"),
            "t": pd.to_datetime(["2020-01-01 10:00", None, "2021-06-01 00:00"]).tz_localize("Europe/Paris"),
            "f": pd.Categorical(["u", "v", "u"]),
            "o": [dt.date(2020, 1, 1), None, dt.date(2021, 1, 1)],
        }
    )
    frame.columns = ["i", "x", "s", "t", "f", "i"]  # a repeated label: columns are read by position
    fast = describe(as_r(frame))
    monkeypatch.setattr(pd.DataFrame, "_get_column_array", None)
    assert describe(as_r(frame)) == fast
