"""R's ``format()`` of Date and POSIXct values (the default formats print uses).

Dates are days since 1970-01-01 (fractions are floored); date-times are seconds since the epoch,
shown in their ``tzone`` (``""``: the process's zone), with ``"%Y-%m-%d"`` when every time of day is
midnight, else ``"%Y-%m-%d %H:%M:%S"`` (seconds truncated). ``usetz`` appends the zone's
abbreviation, as ``print`` does. As in R 4.2.2, years are not zero-padded (``"99-01-01"``), and
non-finite values show as ``"Inf"``, ``"-Inf"``, ``"NaN"`` (NA is None).

>>> format_date(np.array([18263.0, np.inf])).tolist()
['2020-01-02', 'Inf']
>>> format_posixct(np.array([1577934245.0]), "America/New_York", usetz=True).tolist()
['2020-01-01 22:04:05 EST']
"""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import numpy as np

from rvalues.model.na import real_is_na

_EPOCH = dt.datetime(1970, 1, 1, tzinfo=dt.timezone.utc)
_UTC_NAMES = frozenset({"UTC", "GMT", "Etc/UTC", "Etc/GMT", "Etc/UCT", "UCT", "Etc/Universal", "Zulu"})
_CYCLE_DAYS = 146097
"""Days in 400 Gregorian years: the calendar (and the week) repeats after it."""
_CYCLE_SECONDS = _CYCLE_DAYS * 86400


def civil_from_days(days: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Proleptic Gregorian (year, month, day) of day numbers since 1970-01-01, vectorized.

    >>> [a.tolist() for a in civil_from_days(np.array([0, -1, 18263]))]
    [[1970, 1969, 2020], [1, 12, 1], [1, 31, 2]]
    """
    z = np.asarray(days, dtype=np.int64) + 719468
    era = np.floor_divide(z, _CYCLE_DAYS)
    doe = z - era * _CYCLE_DAYS
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    day = doy - (153 * mp + 2) // 5 + 1
    month = np.where(mp < 10, mp + 3, mp - 9)
    year = yoe + era * 400 + (month <= 2)
    return year, month, day


def _ymd(year: np.ndarray, month: np.ndarray, day: np.ndarray) -> list[str]:
    return [
        f"{y}-{m:02d}-{d:02d}" for y, m, d in zip(year.tolist(), month.tolist(), day.tolist(), strict=True)
    ]


def _non_finite(x: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Fill the non-finite elements of ``out``: NA stays None, the rest as R writes them."""
    bad = ~np.isfinite(x)
    if bad.any():
        na = real_is_na(x)
        out[bad & ~na & np.isnan(x)] = "NaN"
        out[np.isposinf(x)] = "Inf"
        out[np.isneginf(x)] = "-Inf"
    return np.isfinite(x)


def format_date(days: np.ndarray) -> np.ndarray:
    """R's ``format.Date``: ``"%Y-%m-%d"`` of each day number; NA as None."""
    x = np.asarray(days, dtype=np.float64)
    out = np.full(len(x), None, dtype=object)
    ok = _non_finite(x, out)
    if ok.any():
        out[ok] = _ymd(*civil_from_days(np.floor(x[ok]).astype(np.int64)))
    return out


def _zone(tz: str) -> dt.tzinfo | None:
    """The zone for R's ``tz`` argument; ``""`` is the process's local zone (None)."""
    if tz == "":
        return None
    try:
        return ZoneInfo(tz)
    except (ZoneInfoNotFoundError, ValueError):
        return dt.timezone.utc


def _local(seconds: int, zone: dt.tzinfo | None) -> tuple[int, dt.datetime]:
    """The local time of ``seconds`` in ``zone``, and the number of 400-year cycles it was shifted
    by to fit Python's years 1..9999 (the calendar repeats; zone rules before year 401 or after
    9600 are taken as those of the shifted instant)."""
    shift = 0
    day = seconds // 86400
    if day < -719162 + 366:  # before year 2
        shift = -((-719162 + 366 - day) // _CYCLE_DAYS + 1)
    elif day > 2932896 - 366 * 2:  # after year 9997
        shift = (day - (2932896 - 366 * 2)) // _CYCLE_DAYS + 1
    moment = _EPOCH + dt.timedelta(seconds=seconds - shift * _CYCLE_SECONDS)
    return shift, moment.astimezone() if zone is None else moment.astimezone(zone)


def format_posixct(seconds: np.ndarray, tz: str = "", usetz: bool = False) -> np.ndarray:
    """R's ``format.POSIXct(x, usetz = usetz)`` in zone ``tz``; NA as None."""
    x = np.asarray(seconds, dtype=np.float64)
    out = np.full(len(x), None, dtype=object)
    ok = _non_finite(x, out)
    if not ok.any():
        return out
    whole = np.floor(x[ok])
    fraction = x[ok] - whole
    if tz in _UTC_NAMES:
        secs = whole.astype(np.int64)
        days = np.floor_divide(secs, 86400)
        sod = secs - days * 86400
        year, month, day = civil_from_days(days)
        hms = zip((sod // 3600).tolist(), (sod // 60 % 60).tolist(), (sod % 60).tolist(), strict=True)
        dates = _ymd(year, month, day)
        parts = [f"{d} {h:02d}:{m:02d}:{s:02d}" for d, (h, m, s) in zip(dates, hms, strict=True)]
        midnight_only = bool((sod == 0).all() and (fraction == 0).all())
        abbrevs = ["GMT" if tz == "GMT" else "UTC"] * len(parts)
    else:
        zone = _zone(tz)
        locals_ = [_local(int(s), zone) for s in whole.tolist()]
        midnight_only = all(
            d.hour == 0 and d.minute == 0 and d.second == 0 and f == 0
            for (_, d), f in zip(locals_, fraction.tolist(), strict=True)
        )
        parts = [
            f"{d.year + 400 * k}-{d.month:02d}-{d.day:02d} {d.hour:02d}:{d.minute:02d}:{d.second:02d}"
            for k, d in locals_
        ]
        abbrevs = [d.tzname() or "" for _, d in locals_]
    if midnight_only:
        parts = [p[: p.rindex(" ")] for p in parts]
    if usetz:
        parts = [f"{p} {a}" if a else p for p, a in zip(parts, abbrevs, strict=True)]
    out[ok] = parts
    return out
