"""``rv.to_pandas(rv.as_r(df))`` gives back a column of ``datetime.date`` objects as such (what pandas 3's
``read_parquet`` makes of a date32 column), as docs/pandas.md says dtypes come back."""

from __future__ import annotations

import datetime
from pathlib import Path

import pandas as pd
import pytest

import rvalues as rv


def test_a_column_of_date_objects_comes_back_as_date_objects() -> None:
    frame = pd.DataFrame({"day": [datetime.date(2024, 2, 29), None, datetime.date(1969, 12, 31)]})
    back = rv.to_pandas(rv.as_r(frame))
    assert back["day"].dtype == object
    assert back["day"].tolist() == frame["day"].tolist()
    pd.testing.assert_frame_equal(back, frame)
    series = rv.to_pandas(rv.as_r(frame["day"]))
    pd.testing.assert_series_equal(series, frame["day"])


def test_read_parquets_date_column_round_trips(tmp_path: Path) -> None:
    pa = pytest.importorskip("pyarrow")
    parquet = pytest.importorskip("pyarrow.parquet")
    table = pa.table(
        {
            "day": pa.array([datetime.date(2024, 1, 1), None], pa.date32()),
            "at": pa.array([datetime.datetime(2024, 1, 1, 12), None], pa.timestamp("s")),
        }
    )
    path = tmp_path / "days.parquet"
    parquet.write_table(table, path)
    frame = pd.read_parquet(path)
    back = rv.to_pandas(rv.as_r(frame))
    assert back.dtypes.tolist() == frame.dtypes.tolist()
    pd.testing.assert_frame_equal(back, frame)


def test_a_date_born_in_r_is_still_datetime64() -> None:
    day = rv.as_r(datetime.date(2024, 1, 1))
    assert str(rv.to_pandas(rv.data_frame(day=day))["day"].dtype) == "datetime64[s]"
