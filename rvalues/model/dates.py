"""Dates and date-times from Python's ``datetime`` objects, as R's ``as.Date`` and ``as.POSIXct`` read them.

Both the converters (``as_r(datetime.date(...))``) and the constructors (``as_date``,
``as_posixct``) build on these, so they live below both.

>>> import datetime as dt
>>> python_dates([dt.date(2020, 1, 2), None]).data.tolist()[0]
18263.0
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Sequence
from typing import Any

import numpy as np

from rvalues.format.timezones import zone
from rvalues.model.classed import Date, POSIXct
from rvalues.model.elements import read_only
from rvalues.model.vectors import Character
from rvalues.na import NA_REAL

DATE_CLASS = Character(["Date"])
POSIXCT_CLASS = Character(["POSIXct", "POSIXt"])
_EPOCH = dt.date(1970, 1, 1)


def python_dates(values: Sequence[dt.date | None]) -> Date:
    """A Date of ``datetime.date`` values (aware datetimes count in UTC), None as NA."""
    days = np.array([NA_REAL if v is None else date_days(v) for v in values], dtype=np.float64)
    return Date._wrap(read_only(days), {"class": DATE_CLASS})


def python_datetimes(values: Sequence[dt.date | None], tz_name: str, zone_info: Any = None) -> POSIXct:
    """A POSIXct in ``tz_name`` ("" is the process zone) of dates and datetimes; naive ones are
    wall-clock times there, aware ones keep their instant.

    >>> python_datetimes([dt.datetime(2020, 1, 2, 3, 4, 5)], "UTC").data.tolist()
    [1577934245.0]
    """
    where = zone(tz_name) if zone_info is None else zone_info
    seconds = [NA_REAL if v is None else datetime_seconds(v, where) for v in values]
    return posixct(np.array(seconds, dtype=np.float64), tz_name)


def posixct(secs: np.ndarray, tz_name: str) -> POSIXct:
    """A POSIXct of seconds since the epoch, with ``tzone`` ``tz_name``."""
    return POSIXct._wrap(read_only(secs), {"class": POSIXCT_CLASS, "tzone": Character([tz_name])})


def date_days(value: dt.date) -> float:
    """Days since 1970-01-01 of a date (an aware datetime's date in UTC)."""
    if isinstance(value, dt.datetime):
        if value.tzinfo is not None:
            value = value.astimezone(dt.UTC)
        value = value.date()
    return float((value - _EPOCH).days)


def datetime_seconds(value: dt.date, zone_info: Any) -> float:
    """Seconds since the epoch of a date or datetime; naive ones read in ``zone_info``."""
    if not isinstance(value, dt.datetime):
        value = dt.datetime(value.year, value.month, value.day)
    if value.tzinfo is None:
        value = value.replace(tzinfo=zone_info)
    return value.timestamp()
