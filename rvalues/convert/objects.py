"""Object arrays (numpy ``O``, pandas ``object`` columns): infer the one R type their elements share.

Missing elements are ``None``, ``pd.NA``, ``pd.NaT``, ``NaT`` and a float (or Decimal) NaN: in an
object column they are all pandas' missing-value markers, so each is NA whatever the other elements
are (``[1, nan]`` is ``c(1L, NA)``, like ``[True, nan]`` and ``["a", nan]``). A NaN that must stay
NaN belongs in a float column. With the missing elements left out, the elements' kinds decide:

==========================================  ===============================================
elements                                    R value
==========================================  ===============================================
none (empty or all missing)                 logical NA
str                                         character
bool                                        logical
int                                         integer (double when some do not fit, warned)
float / Decimal, optionally with int        double
complex, optionally with int / float        complex
datetime.date                               Date
datetime.datetime, all naive                POSIXct, tzone "UTC" (naive is UTC)
datetime.datetime, all aware                POSIXct, tzone the zone they share, else "UTC"
datetime.timedelta                          difftime in seconds
anything else, or a mix of kinds            list (each element converted by ``as_r``)
==========================================  ===============================================

Each step is a C-level pass (``np.frompyfunc``, ``astype``); only list columns convert element by element.

>>> import numpy as np
>>> from_objects(np.array(["a", None], dtype=object), None, "array").data.tolist()
['a', None]
"""

from __future__ import annotations

import datetime as dt
import decimal
import sys
from typing import Any

import numpy as np

from rvalues._speedups import writer as compiled
from rvalues.convert.notices import IntegerOverflowWarning, PrecisionWarning, warn
from rvalues.convert.registry import converters_registered, has_converter
from rvalues.convert.typed import datetimes, difftime_seconds, few_values, integers, read_typed, timedeltas
from rvalues.errors import RValueError
from rvalues.format.timezones import tzone_name
from rvalues.model.base import RValue
from rvalues.model.bindings import BOUND
from rvalues.model.build import build
from rvalues.model.elements import read_only
from rvalues.model.storage import few_locked
from rvalues.model.vectors import Character
from rvalues.na import NA_INTEGER, NA_REAL

KIND_NAMES = tuple("missing bool str numpy-time int float complex datetime date timedelta other".split())
"""The kinds of elements; a kind's code is its index here (an element's kind is stored as a uint8)."""
_CODES = {name: code for code, name in enumerate(KIND_NAMES)}
_MISSING, _FLOAT, _NUMPY_TIME = _CODES["missing"], _CODES["float"], _CODES["numpy-time"]
_BIT = np.uint16(1)  # the kinds seen, as the bits 1 << code (there are fewer than 16 kinds)
_KIND_CACHE: dict[type, int] = {}
_EPOCH_ORDINAL = dt.date(1970, 1, 1).toordinal()
_DATE_CLASS = Character(["Date"])
_US_DAYS = np.iinfo(np.int64).max // 86_400_000_000  # the days timedelta64[us] can count
_days_of = np.frompyfunc(lambda v: v.days, 1, 1)
_seconds_of = np.frompyfunc(dt.timedelta.total_seconds, 1, 1)


def _kind_of_type(t: type) -> int:
    """The code of the kind of the elements of type ``t`` (cached).

    >>> KIND_NAMES[_kind_of_type(bool)], KIND_NAMES[_kind_of_type(type(None))]
    ('bool', 'missing')
    """
    code = _KIND_CACHE.get(t)
    if code is not None:
        return code
    if t.__name__ in ("NAType", "NaTType") or issubclass(t, type(None)):
        kind = "missing"
    elif issubclass(t, (bool, np.bool_)):
        kind = "bool"
    elif issubclass(t, str):
        kind = "str"
    elif issubclass(t, (np.datetime64, np.timedelta64)):  # before int: timedelta64 is an np.integer
        kind = "numpy-time"
    elif issubclass(t, (int, np.integer)):
        kind = "int"
    elif issubclass(t, (float, np.floating, decimal.Decimal)):
        kind = "float"
    elif issubclass(t, (complex, np.complexfloating)):
        kind = "complex"
    elif issubclass(t, dt.datetime):
        kind = "datetime"
    elif issubclass(t, dt.date):
        kind = "date"
    elif issubclass(t, dt.timedelta):
        kind = "timedelta"
    else:
        kind = "other"
    code = _KIND_CACHE[t] = _CODES[kind]
    return code


def _kind_of(value: Any) -> int:
    code = _KIND_CACHE.get(type(value))
    return _kind_of_type(type(value)) if code is None else code


_type_of = np.frompyfunc(type, 1, 1)
_kind_each = np.frompyfunc(_kind_of, 1, 1)


def _kinds(flat: np.ndarray) -> np.ndarray:
    """Every element's kind code (a uint8 array; the names are :data:`KIND_NAMES`)."""
    fast = compiled.object_kinds(flat, _KIND_CACHE, _kind_of_type)
    return fast if fast is not None else _kind_each(flat).astype(np.uint8)


def _is_nan(value: Any) -> bool:
    try:
        return bool(value != value)
    except ArithmeticError:  # Decimal("sNaN")
        return True
    except (TypeError, ValueError):
        return False


_nan_of = np.frompyfunc(_is_nan, 1, 1)


def from_objects(flat: np.ndarray, mask: np.ndarray | None, where: str) -> RValue:
    """A 1-d object array as the R vector its elements agree on (or a list)."""
    if converters_registered() and any(map(has_converter, flat.tolist())):
        return _as_list(flat, np.zeros(len(flat), dtype=bool) if mask is None else mask, where)
    hard, kinds = _few_missing(flat, mask) if len(flat) <= _FEW else _missing(flat, mask)
    return _by_kinds(flat, hard, kinds, where)


_NANISH = frozenset({"float", "numpy-time"})


def _missing(flat: np.ndarray, mask: np.ndarray | None) -> tuple[np.ndarray, set[str]]:
    """Which elements are missing (masked, a missing marker, or a NaN), and the kinds of the others."""
    codes = _kinds(flat)
    hard = codes == _MISSING
    nanish = (codes == _FLOAT) | (codes == _NUMPY_TIME)
    if mask is not None:
        hard |= mask
        nanish &= ~mask
    if nanish.any():
        with np.errstate(invalid="ignore"):  # numpy 2.5 reports the FP flag NaN comparisons raise
            hard[nanish] = _nan_of(flat[nanish]).astype(bool)
    codes[hard] = _MISSING
    seen = int(np.bitwise_or.reduce(np.left_shift(_BIT, codes, dtype=np.uint16)))
    return hard, {name for code, name in enumerate(KIND_NAMES) if code != _MISSING and seen >> code & 1}


_FEW = 16
"""Object arrays up to this long are classified in plain Python (numpy's per-call cost would dominate)."""


def _few_missing(flat: np.ndarray, mask: np.ndarray | None) -> tuple[np.ndarray, set[str]]:
    """:func:`_missing` of a few elements, one by one (one pass, then the NaN test where a float or
    a numpy time is not already missing)."""
    values, masked = few_values(flat, mask)
    hard: list[bool] = []
    kinds: list[str] = []
    nanish: list[int] = []
    for i, (value, missing) in enumerate(zip(values, masked, strict=True)):
        code = _KIND_CACHE.get(type(value))
        kind = KIND_NAMES[_kind_of_type(type(value)) if code is None else code]
        if not missing and kind in _NANISH:
            nanish.append(i)
        hard.append(missing or kind == "missing")
        kinds.append(kind)
    if nanish:
        with np.errstate(invalid="ignore"):
            for i in nanish:
                hard[i] = _is_nan(values[i])
    return np.array(hard, dtype=bool), {k for k, h in zip(kinds, hard, strict=True) if not h}


def _filled(flat: np.ndarray, hard: np.ndarray, fill: Any) -> np.ndarray:
    if not hard.any():
        return flat
    out = flat.copy()
    out[hard] = fill
    return out


_REAL_KINDS = frozenset({"int", "float"})
_COMPLEX_KINDS = frozenset({"int", "float", "complex"})


def _by_kinds(flat: np.ndarray, hard: np.ndarray, kinds: set[str], where: str) -> RValue:
    n = len(flat)
    only = next(iter(kinds)) if len(kinds) == 1 else None
    if not kinds:
        return build("logical", np.full(n, NA_INTEGER, dtype=np.int32))
    if only == "str":
        out = flat.copy()
        out[hard] = None
        if any(t is not str for t in set(_type_of(out[~hard]).tolist())):
            out[~hard] = np.frompyfunc(str.__str__, 1, 1)(out[~hard])  # str Enum: its value
        try:
            data = read_only(out)  # locking checks the strings (NUL, lone surrogates)
        except RValueError as err:
            raise RValueError(f"{where}: {err}") from None
        return build("character", data)
    if only == "bool":
        out = _filled(flat, hard, False).astype(np.int32)
        out[hard] = NA_INTEGER
        return build("logical", out)
    if only == "int":
        return _ints(flat, hard, where)
    if kinds <= _REAL_KINDS:
        out = _filled(flat, hard, 0.0).astype(np.float64)
        out[hard] = NA_REAL
        return build("double", out)
    if kinds <= _COMPLEX_KINDS:
        out = _filled(flat, hard, 0j).astype(np.complex128)
        out.real[hard] = NA_REAL
        out.imag[hard] = NA_REAL
        return build("complex", out)
    if only == "date":
        return _dates(flat, hard)
    if only == "datetime":
        return _datetimes(flat, hard, where)
    if only == "timedelta":
        return _timedeltas(flat, hard, where)
    if only == "numpy-time":
        present = np.array(flat[~hard].tolist())
        if present.dtype.kind in "mM":
            full = np.full(n, np.array("NaT").astype(present.dtype))
            full[~hard] = present
            return read_typed(full, hard, where)
    return _as_list(flat, hard, where)


def _ints(flat: np.ndarray, hard: np.ndarray, where: str) -> RValue:
    filled = _filled(flat, hard, 0)
    try:
        ints = filled.astype(np.int64)
    except OverflowError:
        try:
            ints = filled.astype(np.uint64)
        except OverflowError:
            try:
                out = filled.astype(np.float64)
            except OverflowError:
                raise RValueError(
                    f"{where}: an int lies beyond the largest double (about 1.8e308), so R cannot hold it"
                ) from None
            warn(
                f"{where}: integers beyond 64 bits do not fit R's integer range; converted to double",
                IntegerOverflowWarning,
            )
            if (out.astype(object) != filled).any():  # Python compares int and float exactly
                warn(f"{where}: integers beyond 64 bits were rounded to the nearest double", PrecisionWarning)
            out[hard] = NA_REAL
            return build("double", out)
    return integers(ints, hard if hard.any() else None, where)


def _timedeltas(flat: np.ndarray, hard: np.ndarray, where: str) -> RValue:
    """``datetime.timedelta`` elements as difftime seconds; those beyond timedelta64[us] (about
    292,000 years, where numpy's cast wraps around silently) through ``total_seconds``."""
    present = flat[~hard]
    days = _days_of(present).astype(np.int64) if len(present) else np.zeros(0, dtype=np.int64)
    if not len(days) or np.abs(days).max() < _US_DAYS:
        return timedeltas(_filled(flat, hard, None).astype("timedelta64[us]"), hard, where)
    seconds = np.full(len(flat), NA_REAL)
    seconds[~hard] = _seconds_of(present).astype(np.float64)
    return difftime_seconds(seconds)


def _dates(flat: np.ndarray, hard: np.ndarray) -> RValue:
    """``datetime.date`` elements as a Date: day numbers from their ordinals (no per-element parse)."""
    if len(flat) <= _FEW:
        pairs = zip(flat.tolist(), hard.tolist(), strict=True)
        few = [NA_REAL if missing else value.toordinal() - _EPOCH_ORDINAL for value, missing in pairs]
        return build("double", few_locked(few, "d"), {"class": _DATE_CLASS})
    days = compiled.date_days(flat, hard)
    if days is not None:
        days[hard] = NA_REAL
        return build("double", days, {"class": _DATE_CLASS})
    present = flat[~hard].tolist()
    days = np.full(len(flat), NA_REAL)
    ordinals = np.fromiter(map(dt.date.toordinal, present), dtype=np.int64, count=len(present))
    days[~hard] = ordinals - _EPOCH_ORDINAL
    return build("double", days, {"class": _DATE_CLASS})


def _datetimes(flat: np.ndarray, hard: np.ndarray, where: str) -> RValue:
    present = flat[~hard]
    aware = np.frompyfunc(lambda v: v.tzinfo is not None, 1, 1)(present).astype(bool)
    if not aware.any():
        stamps = _filled(flat, hard, None).astype("datetime64[us]")
        return datetimes(stamps, hard, where)
    if not aware.all():
        return _as_list(flat, hard, where)
    zones = {id(tz): tz for tz in np.frompyfunc(lambda v: v.tzinfo, 1, 1)(present).tolist()}
    names = {tzone_name(tz, where) for tz in zones.values()}
    secs = _filled(flat, hard, None)
    out = np.frompyfunc(lambda v: np.nan if v is None else v.timestamp(), 1, 1)(secs).astype(np.float64)
    out[hard] = NA_REAL
    tzone = Character([names.pop() if len(names) == 1 else "UTC"])
    return build("double", out, {"class": Character(["POSIXct", "POSIXt"]), "tzone": tzone})


def _as_list(flat: np.ndarray, hard: np.ndarray, where: str) -> RValue:
    items = []
    pd = sys.modules.get("pandas")
    for i, value in enumerate(flat.tolist()):
        if pd is not None and (value is pd.NA or value is pd.NaT):
            items.append(build("logical", np.array([NA_INTEGER], dtype=np.int32)))
            continue
        try:
            items.append(BOUND.as_r(value))
        except RValueError as err:
            raise RValueError(f"{where}: element {i}: {err}") from None
    return build("list", tuple(items))
