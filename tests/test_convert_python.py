"""as_r for Python values: Decimal, timedelta, attrs classes and dataclasses, datetimes, nesting."""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
from zoneinfo import ZoneInfo

import attrs
import numpy as np
import pandas as pd

from rvalues import describe
from rvalues.convert import as_r, to_python


@attrs.frozen
class Inner:
    values: list[int]
    when: dt.date


@dataclasses.dataclass
class Outer:
    name: str
    inner: Inner
    array: np.ndarray
    frame: pd.DataFrame


def test_nested_attrs_dataclass_numpy_pandas() -> None:
    obj = Outer("o", Inner([1, 2], dt.date(2020, 1, 2)), np.array([1.5]), pd.DataFrame({"a": [1]}))
    value = as_r(obj)
    assert value.names.data.tolist() == ["name", "inner", "array", "frame"]
    inner = value.data[1]
    assert inner.names.data.tolist() == ["values", "when"]
    assert inner.data[1].r_class == ("Date",)
    assert value.data[2].data.tolist() == [1.5]
    assert value.data[3].r_class == ("data.frame",)


def test_decimal_becomes_the_nearest_double() -> None:
    assert describe(as_r(decimal.Decimal("0.1")))["values"] == ["0.10000000000000001"]
    assert describe(as_r(decimal.Decimal("NaN")))["values"] == ["NaN"]
    assert describe(as_r(decimal.Decimal("-Infinity")))["values"] == ["-Inf"]
    objects = np.array([decimal.Decimal("1.5"), None], dtype=object)
    assert describe(as_r(objects))["values"] == ["1.5", "NA"]


def test_timedelta_is_difftime_in_seconds() -> None:
    value = as_r(dt.timedelta(minutes=2))
    assert value.data.tolist() == [120.0]
    assert value.attributes["units"].data.tolist() == ["secs"]


def test_datetimes_aware_fixed_and_naive() -> None:
    aware = as_r(dt.datetime(2020, 6, 1, 12, tzinfo=ZoneInfo("Europe/Paris")))
    assert aware.attributes["tzone"].data.tolist() == ["Europe/Paris"]
    fixed = as_r(dt.datetime(2020, 6, 1, 12, tzinfo=dt.timezone(dt.timedelta(hours=-3))))
    assert fixed.attributes["tzone"].data.tolist() == ["UTC"]
    assert fixed.data.tolist() == [dt.datetime(2020, 6, 1, 15, tzinfo=dt.UTC).timestamp()]
    naive = as_r(dt.datetime(2020, 6, 1, 12))
    assert naive.data.tolist() == [1591012800.0]  # naive is UTC
    assert naive.attributes["tzone"].data.tolist() == ["UTC"]


def test_object_datetimes_with_zones() -> None:
    paris = ZoneInfo("Europe/Paris")
    same = np.array([dt.datetime(2020, 1, 1, tzinfo=paris), None], dtype=object)
    assert as_r(same).attributes["tzone"].data.tolist() == ["Europe/Paris"]
    mixed = np.array([dt.datetime(2020, 1, 1, tzinfo=paris), dt.datetime(2020, 1, 1, tzinfo=dt.UTC)])
    assert as_r(mixed).attributes["tzone"].data.tolist() == ["UTC"]
    naive_and_aware = np.array([dt.datetime(2020, 1, 1, tzinfo=paris), dt.datetime(2020, 1, 1)])
    assert as_r(naive_and_aware).r_type == "list"


def test_pandas_timestamp_scalars() -> None:
    stamp = pd.Timestamp("2020-01-02 03:04:05", tz="America/New_York")
    assert as_r(stamp).attributes["tzone"].data.tolist() == ["America/New_York"]
    assert as_r(pd.NaT).r_type == "logical"


def test_to_python_is_the_inverse_for_plain_values() -> None:
    obj = {"a": 1, "b": [True, None, "x"], "c": {"d": 2.5}}
    assert to_python(as_r(obj)) == obj
