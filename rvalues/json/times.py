"""R's ``format()`` of Date and POSIXct values, vectorized: civil dates from day counts,
wall-clock fields in the value's zone, years unpadded as R's strftime prints them.

>>> format_date(np.array([18262.75, -0.5])).tolist()
['2020-01-01', '1969-12-31']
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

import numpy as np

from rvalues.model.na import real_is_na
from rvalues.model.timezones import zone

_TWO = np.array([f"{i:02d}" for i in range(100)])


def civil_from_days(days: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """(year, month, day) for int64 days since 1970-01-01 (proleptic Gregorian)."""
    z = days + 719468
    era = np.floor_divide(z, 146097)
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    y = yoe + era * 400
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = np.where(mp < 10, mp + 3, mp - 9)
    return y + (m <= 2), m, d


# R's broken-down time holds the year in a C int: days outside this range format as NA, and
# years past 2^31 - 1 print wrapped around
_DAY_MIN, _DAY_MAX = -784352321506, 784352270736


def _ymd(days: np.ndarray) -> np.ndarray:
    y, m, d = civil_from_days(days)
    y = (y + 2**31) % 2**32 - 2**31
    return np.strings.add(
        np.strings.add(np.strings.add(y.astype(str), "-"), _TWO[m]), np.strings.add("-", _TWO[d])
    )


def _non_finite(values: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Where values are not finite: NA -> None, else R's text ("Inf", "-Inf", "NaN")."""
    bad = ~np.isfinite(values)
    if bad.any():
        sub = values[bad]
        text = np.where(np.isnan(sub), "NaN", np.where(sub > 0, "Inf", "-Inf")).astype(object)
        text[real_is_na(sub)] = None
        out[bad] = text
    return ~bad


def _in_range(days: np.ndarray) -> np.ndarray:
    """Days R can break down (its tm_year is a C int)."""
    return (days >= _DAY_MIN) & (days <= _DAY_MAX)


def format_date(days: np.ndarray) -> np.ndarray:
    """``format(<Date>)``: "%Y-%m-%d" of the floored day; NA as None, non-finite as R's text.

    As R's ``as.POSIXlt.Date``: when any day lies beyond +-2^31, the whole vector is formatted
    as the date-times ``days * 86400`` in UTC instead (fractions then show as times).
    """
    out = np.empty(len(days), dtype=object)
    ok = _non_finite(days, out)
    if ok.any():
        vals = days[ok]
        if (np.abs(vals) > 2147483647).any():
            out[ok] = format_posixct(vals * 86400, "UTC", "string")
        else:
            out[ok] = _ymd(np.floor(vals).astype(np.int64)).astype(object)
    return out


_CYCLE = 146097 * 86400  # 400 Gregorian years: the calendar, weekdays included, repeats
_LOW, _HIGH = -62135596800 + 2 * 86400, 253402300799 - 2 * 86400  # what datetime can hold


def _offsets(seconds: np.ndarray, tzone: str | None) -> np.ndarray:
    """UTC offsets (seconds) of each instant in the zone R would display it in."""
    tz = zone(tzone)
    if getattr(tz, "key", None) == "UTC":
        return np.zeros(len(seconds), dtype=np.int64)
    uniq, inverse = np.unique(seconds, return_inverse=True)
    # beyond datetime's years the zone's rules are constant (LMT) or its yearly POSIX rule
    shifted = np.where(uniq < _LOW, uniq + ((_LOW - uniq) // _CYCLE + 1) * _CYCLE, uniq)
    shifted = np.where(shifted > _HIGH, shifted - ((shifted - _HIGH) // _CYCLE + 1) * _CYCLE, shifted)
    epoch = datetime(1970, 1, 1, tzinfo=timezone.utc)
    offs = np.array(
        [
            int((epoch + timedelta(seconds=int(s))).astimezone(tz).utcoffset().total_seconds())  # type: ignore[union-attr]
            for s in shifted.tolist()
        ],
        dtype=np.int64,
    )
    return offs[inverse]


def local_fields(seconds: np.ndarray, tzone: str | None) -> tuple[np.ndarray, np.ndarray]:
    """(days, second of day) of the wall clock for whole seconds since the epoch."""
    local = seconds + _offsets(seconds, tzone)
    return np.floor_divide(local, 86400), np.mod(local, 86400)


def format_posixct(seconds: np.ndarray, tzone: str | None, style: str = "string") -> np.ndarray:
    """``format(<POSIXct>)`` (style "string": the time is dropped when every element is at
    midnight) or ``format(x, "%Y-%m-%dT%H:%M:%S")`` (style "ISO8601"); seconds truncated."""
    out = np.empty(len(seconds), dtype=object)
    ok = _non_finite(seconds, out)
    if not ok.any():
        return out
    vals = seconds[ok]
    whole = np.floor(vals)
    valid = _in_range(np.floor(whole / 86400))
    if not valid.all():
        sub = np.empty(len(vals), dtype=object)
        sub[valid] = _clock(vals[valid], whole[valid], tzone, style, force_time=True)
        sub[~valid] = None
        out[ok] = sub
        return out
    out[ok] = _clock(vals, whole, tzone, style)
    return out


def _clock(
    vals: np.ndarray, whole: np.ndarray, tzone: str | None, style: str, force_time: bool = False
) -> np.ndarray:
    days, sod = local_fields(whole.astype(np.int64), tzone)
    date = _ymd(days)
    if style == "string" and not force_time and ((sod == 0) & (vals == whole)).all():
        return date.astype(object)
    sep = "T" if style == "ISO8601" else " "
    # R's seconds field is tm_sec + (x - floor(x)) in doubles, printed truncated: a fraction
    # within an ulp of 1 shows the next second (even second 60)
    sec = np.floor((sod % 60) + (vals - whole)).astype(np.int64)
    hms = np.strings.add(
        np.strings.add(np.strings.add(_TWO[sod // 3600], ":"), _TWO[(sod // 60) % 60]),
        np.strings.add(":", _TWO[sec]),
    )
    return np.strings.add(np.strings.add(date, sep), hms).astype(object)


def epoch_ms(seconds: np.ndarray) -> np.ndarray:
    """``floor(unclass(x) * 1000)``."""
    return np.floor(seconds * 1000)
