"""R's ``format(<POSIXlt>, format, digits = getOption("digits.secs"))`` for any format: what
jsonlite writes with its ``time_format``, ``UTC`` and R's ``options(digits.secs)``.

The broken-down time (:class:`TimeFields`, R's POSIXlt) comes from seconds since the epoch in a
zone (:func:`posixct_fields`, ``as.POSIXlt(x, tz)``) or from a POSIXlt value's own fields. The
text is R's: ``format = ""`` picks the date alone (every time at midnight) or the time with as
many decimals of seconds as ``digits.secs`` allows and the values need; the first ``%OS`` (or
``%OSn``) is replaced by the seconds with n decimals, truncated; the rest is the C library's
``strftime`` (``%z`` and ``%Z`` from the zone's offset and abbreviation), as R calls it on Linux.
Elements are formatted one by one: the default options never come here (``format_posixct`` is
the vectorized path for them).

>>> fields = posixct_fields(np.array([1704063606.5, np.nan]), "Europe/Berlin")
>>> r_strftime(fields, "%Y-%m-%dT%H:%M:%S%z").tolist()
['2024-01-01T00:00:06+0100', 'NaN']
>>> r_strftime(fields, "", digits_secs=3).tolist()
['2024-01-01 00:00:06.5', 'NaN']
"""

from __future__ import annotations

import math
import time
from collections.abc import Sequence

import attrs
import numpy as np

from rvalues.format.datetime import (
    civil_from_days,
    days_from_civil,
    shown_seconds,
    unshown_text,
    utc_offsets,
    zone_abbreviations,
)


@attrs.frozen
class TimeFields:
    """R's broken-down times (POSIXlt) of the ``shown`` elements; the others' text is ``unshown``
    (None for NA, else "NaN", "Inf" or "-Inf"). ``mon`` counts from 0, ``year`` from 1900, ``wday``
    from Sunday, ``yday`` from 0; ``sec`` holds the fraction of the second; ``gmtoff`` is seconds
    east of UTC and ``zone`` the abbreviation."""

    shown: np.ndarray
    unshown: np.ndarray
    sec: np.ndarray
    min: np.ndarray
    hour: np.ndarray
    mday: np.ndarray
    mon: np.ndarray
    year: np.ndarray
    wday: np.ndarray
    yday: np.ndarray
    isdst: np.ndarray
    zone: Sequence[str]
    gmtoff: np.ndarray


def calendar_fields(days: np.ndarray) -> tuple[np.ndarray, ...]:
    """(mday, mon, year, wday, yday) of int64 day numbers since 1970-01-01, as R's POSIXlt counts them.

    >>> [int(a[0]) for a in calendar_fields(np.array([19723]))]
    [1, 0, 124, 1, 0]
    """
    y, m, d = civil_from_days(days)
    yday = days - days_from_civil(y, np.ones_like(m), np.ones_like(d))
    return d, m - 1, y - 1900, (days + 4) % 7, yday


def posixct_fields(seconds: np.ndarray, tzone: str | None) -> TimeFields:
    """``as.POSIXlt(x, tz)`` of seconds since the epoch (``tzone`` None or "": the process's zone)."""
    seconds = np.asarray(seconds, dtype=np.float64)
    unshown = unshown_text(seconds)
    shown, vals, whole, _ = shown_seconds(seconds)
    secs = whole.astype(np.int64)
    offsets = utc_offsets(secs, tzone)
    days, sod = np.divmod(secs + offsets, 86400)
    mday, mon, year, wday, yday = calendar_fields(days)
    return TimeFields(
        shown=shown,
        unshown=unshown,
        sec=(sod % 60) + (vals - whole),
        min=(sod // 60) % 60,
        hour=sod // 3600,
        mday=mday,
        mon=mon,
        year=year,
        wday=wday,
        yday=yday,
        isdst=np.zeros(len(secs), dtype=np.int64),
        zone=zone_abbreviations(secs, tzone).tolist() if len(secs) else [],
        gmtoff=offsets,
    )


def automatic_format(fields: TimeFields, digits_secs: int | None) -> str:
    """The format R's ``format.POSIXlt`` uses for ``format = ""``: the date alone when every time
    is midnight, else the time with the fewest decimals of seconds (up to ``digits.secs``, at most
    6) that show every value to within a microsecond.

    >>> automatic_format(posixct_fields(np.array([0.25, 1.5]), "UTC"), 3)
    '%Y-%m-%d %H:%M:%OS2'
    """
    secs = fields.sec[np.isfinite(fields.sec)]
    places = 0 if digits_secs is None else min(6, digits_secs)
    for i in range(max(places, 0)):
        if bool(np.all(np.abs(secs - np.round(secs, i)) < 1e-6)):
            places = i
            break
    times = np.concatenate([fields.sec, fields.min, fields.hour]).astype(np.float64)
    if bool(np.all(times[np.isfinite(times)] == 0)):
        return "%Y-%m-%d"
    if places == 0:
        return "%Y-%m-%d %H:%M:%S"
    return f"%Y-%m-%d %H:%M:%OS{places}"


def _with_seconds(fmt: str, sec: float, digits_secs: int | None) -> str:
    """R's handling of the first ``%OS``: ``%OSn`` (or ``%OS`` with ``digits.secs`` = n) becomes
    the seconds with n decimals (at most 6), truncated; with none, ``%S``."""
    at = fmt.find("%OS")
    if at < 0:
        return fmt
    after = fmt[at + 3 : at + 4]
    if after and "0" <= after <= "9":
        places, used = int(after), 4
    else:
        places, used = (0 if digits_secs is None else digits_secs), 3
    places = min(places, 6)
    if places <= 0:
        return fmt[:at] + "%S" + fmt[at + used :]
    scale = 10.0**places
    shown = math.floor(sec * scale) / scale
    return fmt[:at] + f"{shown:0{places + 3}.{places}f}" + fmt[at + used :]


def r_strftime(fields: TimeFields, fmt: str, digits_secs: int | None = None) -> np.ndarray:
    """``format(<POSIXlt>, fmt)`` with ``options(digits.secs = digits_secs)``: an object array of
    str, None where R gives NA.

    >>> r_strftime(posixct_fields(np.array([0.0]), "UTC"), "%H:%M %Z").tolist()
    ['00:00 UTC']
    """
    if fmt == "":
        fmt = automatic_format(fields, digits_secs)
    out = np.array(fields.unshown, dtype=object)
    texts = []
    columns = zip(
        fields.sec.tolist(),
        fields.min.tolist(),
        fields.hour.tolist(),
        fields.mday.tolist(),
        fields.mon.tolist(),
        fields.year.tolist(),
        fields.wday.tolist(),
        fields.yday.tolist(),
        fields.isdst.tolist(),
        fields.zone,
        fields.gmtoff.tolist(),
        strict=True,
    )
    for sec, minute, hour, mday, mon, year, wday, yday, isdst, zone, gmtoff in columns:
        whole = math.floor(sec)
        # Python's struct_time counts months and year days from 1 and weekdays from Monday
        tm = time.struct_time(
            (year + 1900, mon + 1, mday, hour, minute, whole, (wday + 6) % 7, yday + 1, isdst, zone, gmtoff)
        )
        texts.append(time.strftime(_with_seconds(fmt, sec, digits_secs), tm))
    out[fields.shown] = texts
    return out
