"""R vectors as Date and POSIXct: what ``as.Date`` and ``as.POSIXct`` make of a vector.

:func:`rvalues.construct.classed.as_date` and ``as_posixct`` turn their argument into a vector
first (with ``c()``); ``c()``'s methods for Date and POSIXct (:mod:`rvalues.construct.dispatch`)
convert R values they are handed directly here. ``origin``, where given, is a function returning
the origin in days (seconds), called only for numbers, as R reads it only then.

>>> from rvalues import Character
>>> date_from_vector(Character(["2020-01-02", None]), None).data.tolist()[0]
18263.0
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

import numpy as np

from rvalues.errors import RValueError, shorten
from rvalues.format.timezones import zone
from rvalues.model.build import build
from rvalues.model.coerce import as_type
from rvalues.model.dates import DATE_CLASS, POSIXCT_CLASS, posixct
from rvalues.model.vectors import Character
from rvalues.na import NA_REAL, real_is_na

_EPOCH = dt.date(1970, 1, 1)


def date_from_vector(x: Any, origin: Callable[[], float] | None) -> Any:
    """``as.Date(x)`` of an R vector: Dates kept, POSIXct floored to days, strings parsed."""
    if x.inherits("Date"):
        return build(x.r_type, x.data, {"class": DATE_CLASS})
    if x.inherits("POSIXct"):
        days = np.floor(x.data / 86400.0)
        days[real_is_na(x.data)] = NA_REAL
        return build("double", days, {"class": DATE_CLASS})
    if x.r_type == "character":
        days = _parse_dates(x.data.tolist())
    elif x.r_type == "logical" and x.na_mask().all():
        days = np.full(len(x), NA_REAL)
    elif x.r_type in ("integer", "double", "logical"):
        if origin is None:
            raise RValueError("'origin' must be supplied")
        base = origin()
        with np.errstate(invalid="ignore"):  # R's NA is a signalling NaN: it stays NA, quietly
            days = as_type(x, "double").data + base
    else:
        raise RValueError(f"do not know how to convert {x.r_type} to class \u201cDate\u201d")
    return build("double", days, {"class": DATE_CLASS})


def posixct_from_vector(x: Any, tz: str | None, origin: Callable[[], float] | None) -> Any:
    """``as.POSIXct(x, tz)`` of an R vector: POSIXct kept (``tz`` replaces its zone), Dates at
    midnight UTC, strings read as wall-clock times in ``tz`` (None: the process zone)."""
    tz_name = "" if tz is None else tz
    zone_info = zone(tz_name)
    if x.inherits("POSIXct"):
        keep = x.attributes.get("tzone")
        attributes = {"class": POSIXCT_CLASS}
        if tz is not None:
            attributes["tzone"] = Character([tz])
        elif keep is not None:
            attributes["tzone"] = keep
        return build(x.r_type, x.data, attributes)
    if x.inherits("Date"):
        secs = x.data * 86400.0
        return posixct(secs, "UTC" if tz is None else tz_name)
    if x.r_type == "character":
        secs = np.array(
            [NA_REAL if s is None else _parse_datetime(s, zone_info) for s in x.data.tolist()],
            dtype=np.float64,
        )
    elif x.r_type == "logical" and x.na_mask().all():
        secs = np.full(len(x), NA_REAL)
    elif x.r_type in ("integer", "double"):
        if origin is None:
            raise RValueError("'origin' must be supplied")
        base = origin()
        with np.errstate(invalid="ignore"):  # R's NA is a signalling NaN: it stays NA, quietly
            secs = as_type(x, "double").data + base
        attributes = {"tzone": Character([tz_name]), "class": POSIXCT_CLASS}
        return build("double", secs, attributes)
    else:
        raise RValueError(f"do not know how to convert {x.r_type} to class \u201cPOSIXct\u201d")
    return posixct(secs, tz_name)


_DATE_PATTERNS = {sep: re.compile(rf"^\s*(\d{{1,4}}){sep}(\d{{1,2}}){sep}(\d{{1,2}})") for sep in "-/"}


def _parse_date(text: str, sep: str) -> float | None:
    """Days since the epoch of a "%Y-%m-%d" (or "/") date, None where it is no valid date."""
    match = _DATE_PATTERNS[sep].match(text)
    if not match:
        return None
    year, month, day = (int(g) for g in match.groups())
    try:
        return float(_days(year, month, day))
    except ValueError:
        return None


def _parse_dates(texts: list[str | None]) -> np.ndarray:
    """R's ``as.Date.character``: the first non-NA string picks the format ("%Y-%m-%d", else
    "%Y/%m/%d") and must be a valid date in it (else R's error); later misfits are NA."""
    first = next((t for t in texts if t is not None), None)
    if first is None:
        return np.full(len(texts), NA_REAL)
    sep = next((sep for sep in "-/" if _parse_date(first, sep) is not None), None)
    if sep is None:
        raise RValueError(f"character string is not in a standard unambiguous format: {shorten(first)}")
    days = [None if t is None else _parse_date(t, sep) for t in texts]
    return np.array([NA_REAL if d is None else d for d in days], dtype=np.float64)


def _days(year: int, month: int, day: int) -> int:
    if 1 <= year <= 9999:
        return (dt.date(year, month, day) - _EPOCH).days
    dt.date(2000, month, day)  # validates month and day
    return int(np.datetime64(f"{year:+05d}-{month:02d}-{day:02d}", "D").astype(np.int64))


_DATETIME_PATTERN = re.compile(
    r"^\s*(-?\d+)[-/](\d{1,2})[-/](\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}(?:\.\d*)?))?)?\s*$"
)


def _parse_datetime(text: str, zone_info: Any) -> float:
    match = _DATETIME_PATTERN.match(text)
    if not match:
        raise RValueError(f"character string is not in a standard unambiguous format: {shorten(text)}")
    year, month, day, hour, minute, second = match.groups()
    whole = float(second) if second else 0.0
    try:
        stamp = dt.datetime(
            int(year), int(month), int(day), int(hour or 0), int(minute or 0), int(whole), tzinfo=zone_info
        )
    except ValueError:  # no format R tries reads an impossible date, so R refuses the whole vector
        raise RValueError(
            f"character string is not in a standard unambiguous format: {shorten(text)}"
        ) from None
    return stamp.timestamp() + (whole - int(whole))
