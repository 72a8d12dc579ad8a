"""POSIXlt values (a list of broken-down time fields) for the encoders: as seconds, as text, or
as the fields ``format()`` reads."""

from __future__ import annotations

from typing import Any

import numpy as np

from rvalues.format.datetime import (
    TWO_DIGITS,
    days_from_civil,
    unshown_text,
    utc_offsets,
    ymd,
    zone_abbreviations,
)
from rvalues.format.strftime import TimeFields
from rvalues.format.timezones import tzone_of


def posixlt_seconds(x: Any) -> tuple[np.ndarray, str | None]:
    """``as.POSIXct(<POSIXlt>)``: seconds since the epoch from the broken-down fields."""
    fields = dict(zip(x.keys(), x.data))

    def col(name: str) -> np.ndarray:
        return np.asarray(fields[name].data, dtype=np.float64)

    year, mon, mday = col("year") + 1900, col("mon"), col("mday")
    days = days_from_civil(year, mon + 1, mday)
    sec = col("sec")
    with np.errstate(invalid="ignore"):
        whole_sec = np.floor(sec)
        # R's as.POSIXct: mktime() of the whole seconds, then the fraction added last
        local = days * 86400 + col("hour") * 3600 + col("min") * 60 + whole_sec
        fraction = sec - whole_sec
    tzone = tzone_of(x.attributes)
    if "gmtoff" in fields:
        off = col("gmtoff")
        if not np.isnan(off).any():
            return (local - off) + fraction, tzone
    with np.errstate(invalid="ignore"):
        guess = np.where(np.isfinite(local), local, 0).astype(np.int64)
    off = utc_offsets(guess, tzone)
    off = utc_offsets(guess - off, tzone)
    return (local - off) + fraction, tzone


def posixlt_text(x: Any, style: str) -> np.ndarray:
    """``format(<POSIXlt>)`` as jsonlite writes it: "string" (the date alone at midnight) or "ISO8601"."""
    fields = dict(zip(x.keys(), x.data))
    sec = np.asarray(fields["sec"].data, dtype=np.float64)
    mins = np.asarray(fields["min"].data, dtype=np.int64)
    hour = np.asarray(fields["hour"].data, dtype=np.int64)
    year = np.asarray(fields["year"].data, dtype=np.float64) + 1900
    days = days_from_civil(
        year, np.asarray(fields["mon"].data) + 1.0, np.asarray(fields["mday"].data, dtype=np.float64)
    )
    out = np.empty(len(sec), dtype=object)
    ok = np.isfinite(sec) & np.isfinite(days)
    date = ymd(days[ok].astype(np.int64))
    if style == "string" and ((sec[ok] == 0) & (mins[ok] == 0) & (hour[ok] == 0)).all():
        out[ok] = date.astype(object)
        return out
    s = np.floor(sec[ok]).astype(np.int64)
    hms = np.strings.add(
        np.strings.add(np.strings.add(TWO_DIGITS[hour[ok]], ":"), TWO_DIGITS[mins[ok]]),
        np.strings.add(":", TWO_DIGITS[s]),
    )
    out[ok] = np.strings.add(np.strings.add(date, "T" if style == "ISO8601" else " "), hms).astype(object)
    return out


def posixlt_fields(x: Any) -> TimeFields:
    """The broken-down times of a POSIXlt value as ``format(<POSIXlt>)`` reads them: its own
    fields (``tz`` is not an argument of R's ``format.POSIXlt``, so jsonlite's ``UTC`` does not
    move them); the zone and offset from its ``zone`` and ``gmtoff`` fields, else from its tzone."""
    fields = dict(zip(x.keys(), x.data))

    def col(name: str) -> np.ndarray:
        return np.asarray(fields[name].data, dtype=np.float64)

    sec = col("sec")
    ints = {name: col(name) for name in ("min", "hour", "mday", "mon", "year", "wday", "yday", "isdst")}
    finite = np.isfinite(sec)
    for values in ints.values():
        finite &= np.isfinite(values)
    unshown = unshown_text(sec)  # a missing field other than sec is NA
    unshown[np.isfinite(sec) & ~finite] = None
    seconds, tzone = posixlt_seconds(x)
    whole = np.floor(np.where(finite, seconds, 0)).astype(np.int64)[finite]
    if "gmtoff" in fields and not np.isnan(col("gmtoff")[finite]).any():
        gmtoff = col("gmtoff")[finite].astype(np.int64)
    else:
        gmtoff = utc_offsets(whole, tzone)
    if "zone" in fields:
        zone = [z or "" for z in np.asarray(fields["zone"].data, dtype=object)[finite].tolist()]
    else:
        zone = zone_abbreviations(whole, tzone).tolist() if len(whole) else []
    shown = {name: values[finite].astype(np.int64) for name, values in ints.items()}
    return TimeFields(shown=finite, unshown=unshown, sec=sec[finite], zone=zone, gmtoff=gmtoff, **shown)
