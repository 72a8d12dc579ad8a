"""``factor()``, ``as_date()`` and ``as_posixct()``: R's constructors for classed vectors."""

from __future__ import annotations

import datetime as dt
from typing import Any

import numpy as np

from rvalues.construct.collate import collation_key
from rvalues.construct.datetimes import date_from_vector, posixct_from_vector
from rvalues.construct.dispatch import c
from rvalues.convert import as_r
from rvalues.errors import RValueError, shorten
from rvalues.format.timezones import zone
from rvalues.model.base import RValue
from rvalues.model.build import build
from rvalues.model.coerce import as_type
from rvalues.model.dates import python_dates, python_datetimes
from rvalues.model.vectors import Character, Integer, Vector
from rvalues.na import NA_INTEGER

_FACTOR_CLASS = Character(["factor"])
_ORDERED_CLASS = Character(["ordered", "factor"])


def as_vector(values: Any, what: str) -> Any:
    """What a constructor's ``values`` argument stands for: an R value, or ``c(*values)``."""
    if isinstance(values, RValue):
        return values
    if isinstance(values, np.ndarray) or type(values).__module__.startswith("pandas"):
        return as_r(values)
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        return c(values)
    return c(*values)


def factor(values: Any = (), levels: Any = None, ordered: bool = False) -> Any:
    """R's ``factor(x, levels, ordered)``.

    Without ``levels``, the levels are the sorted unique non-NA values (numbers sort as
    numbers, strings as R sorts them); values not among the levels become NA.

    >>> factor(["b", "a", None, "b"])
    [1] b    a    <NA> b
    Levels: a b
    """
    ordered = r_flag(ordered, "ordered")
    x = as_vector(values, "factor")
    names = x.names
    if x.inherits("factor"):
        old_levels = x.attributes["levels"].data
        x = build(
            "character",
            np.array([None if c is None else old_levels[c - 1] for c in Integer.tolist(x)], dtype=object),
        )
        if levels is None:
            present = set(x.data.tolist())
            levels = [lv for lv in old_levels.tolist() if lv in present]
    if not isinstance(x, Vector):
        raise RValueError(f"factor: expected an atomic vector, not {x.r_type}")
    x = x.without_attributes()
    if levels is None:
        level_values = _sorted_unique(x)
    else:
        level_values = as_type(as_vector(levels, "levels").without_attributes(), "character").data.tolist()
        seen: set[Any] = set()
        for i, level in enumerate(level_values):
            if level in seen:
                raise RValueError(f"factor level [{i + 1}] is duplicated")
            seen.add(level)
    labels = as_type(x, "character").data.tolist()
    position = {level: i + 1 for i, level in enumerate(level_values) if level is not None}
    codes = np.fromiter(
        (position.get(v, NA_INTEGER) if v is not None else NA_INTEGER for v in labels),
        dtype=np.int32,
        count=len(labels),
    )
    attributes: dict[str, RValue] = {}
    if names is not None:
        attributes["names"] = names
    attributes["levels"] = build("character", np.array(level_values, dtype=object))
    attributes["class"] = _ORDERED_CLASS if ordered else _FACTOR_CLASS
    return build("integer", codes, attributes)


_TRUE_TEXT = frozenset({"TRUE", "true", "T", "True"})
_FALSE_TEXT = frozenset({"FALSE", "false", "F", "False"})


def r_flag(value: Any, name: str) -> bool:
    """A TRUE/FALSE argument read as R's ``if (x)`` reads it: numbers (nonzero is TRUE) and
    "TRUE"/"false"-like strings; NA, longer vectors and other strings are R's errors.

    >>> r_flag("TRUE", "ordered"), r_flag(0, "ordered")
    (True, False)
    """
    if isinstance(value, RValue):
        if not isinstance(value, Vector) or len(value) != 1:
            raise RValueError(f"'{name}' must be TRUE or FALSE, not {shorten(value)}")
        value = value.tolist()[0]
    if value is None or (isinstance(value, (float, np.floating)) and value != value):
        raise RValueError(f"'{name}': missing value where TRUE/FALSE needed")
    if isinstance(value, (bool, np.bool_, int, np.integer, float, np.floating)):
        return bool(value)
    if isinstance(value, str):
        if value in _TRUE_TEXT or value in _FALSE_TEXT:
            return value in _TRUE_TEXT
        raise RValueError(f"'{name}' ({shorten(value)}): argument is not interpretable as logical")
    raise TypeError(f"'{name}' must be True or False, not {type(value).__name__} ({shorten(value)})")


def _sorted_unique(x: Vector) -> list[str]:
    present = x.data[~x.na_mask()]
    if x.r_type == "character":
        unique = sorted(set(present.tolist()), key=collation_key)
        return unique
    unique_values = np.unique(present)
    as_vec = build(x.r_type, unique_values)
    return as_type(as_vec, "character").data.tolist()  # type: ignore[no-any-return]


def _listed(values: Any) -> Any:
    """A scalar argument as a one-element list; sequences, arrays and R values as they are."""
    if isinstance(values, (RValue, np.ndarray)) or type(values).__module__.startswith("pandas"):
        return values
    if isinstance(values, (str, bytes)) or not hasattr(values, "__iter__"):
        return [values]
    return values


def as_date(values: Any = (), origin: Any = None) -> Any:
    """R's ``as.Date(x)``: from "YYYY-MM-DD" strings, ``datetime.date``, Dates or POSIXct.

    Numbers need an ``origin`` (R 4.2.2: "'origin' must be supplied").

    >>> as_date(["2020-01-02", None]).data.tolist()[0]
    18263.0
    """
    values = _listed(values)
    if not isinstance(values, (RValue, np.ndarray)):
        values = list(values)
        if all(v is None or isinstance(v, dt.date) for v in values):
            return python_dates(values)
    days = None if origin is None else lambda: _one(as_date(origin), "origin")
    return date_from_vector(as_vector(values, "as_date"), days)


def _one(value: Any, name: str) -> float:
    if len(value) != 1:
        raise RValueError(f"'{name}' must be one date, not {len(value)}")
    return float(value.data[0])


def as_posixct(values: Any = (), tz: str | None = None, origin: Any = None) -> Any:
    """R's ``as.POSIXct(x, tz)``: strings and naive datetimes are wall-clock times in ``tz``.

    ``tz=None`` is R's ``tz = ""``: the process's zone, recorded as ``tzone = ""``.
    Aware datetimes keep their instant. Numbers need an ``origin`` as in R 4.2.2.

    >>> as_posixct("2020-01-02 03:04:05", tz="UTC").data.tolist()
    [1577934245.0]
    """
    tz_name = "" if tz is None else tz
    zone_info = zone(tz_name)
    values = _listed(values)
    if not isinstance(values, (RValue, np.ndarray)):
        values = list(values)
        if all(v is None or isinstance(v, dt.date) for v in values):
            return python_datetimes(values, tz_name, zone_info)
    secs = None if origin is None else lambda: _one(as_posixct(origin, tz="UTC"), "origin")
    return posixct_from_vector(as_vector(values, "as_posixct"), tz, secs)
