"""``as_r()`` for Python's own values: scalars, containers, dates and date-times.

numpy and pandas objects are handed to :func:`rvalues.convert.numpy.from_numpy` and
:func:`rvalues.convert.pandas.from_pandas` (pandas is never imported here: an object is a pandas
one only if pandas is already loaded), Arrow data to :func:`rvalues.convert.arrow.from_arrow`.
"""

from __future__ import annotations

import dataclasses
import datetime as dt
import decimal
import enum
import sys
from collections.abc import Mapping
from typing import Any

import attrs
import numpy as np

from rvalues.convert.arrow import from_arrow, is_arrow
from rvalues.convert.notices import IntegerOverflowWarning, PrecisionWarning, warn
from rvalues.convert.numpy import from_numpy
from rvalues.convert.registry import (
    _EXTRA_CONVERTERS,
)
from rvalues.errors import RValueError, shorten
from rvalues.format.timezones import tzone_name
from rvalues.model.base import RValue
from rvalues.model.build import build
from rvalues.model.dates import python_dates, python_datetimes
from rvalues.model.elements import INT_MAX
from rvalues.model.lists import MAX_DEPTH, NULL
from rvalues.model.strings import clip
from rvalues.model.vectors import Character, Complex, Raw

_EXACT = 2**53
_DOUBLE_MAX = float(np.finfo(np.float64).max)


def as_r(obj: Any) -> RValue:
    """Convert a Python, numpy, pandas or Arrow object to the R value it stands for.

    >>> as_r({"a": 1, "b": [True, None]})
    $a
    [1] 1
    <BLANKLINE>
    $b
    $b[[1]]
    [1] TRUE
    <BLANKLINE>
    $b[[2]]
    NULL
    <BLANKLINE>
    <BLANKLINE>
    """
    return _as_r(obj, 0)


def _as_r(obj: Any, depth: int) -> RValue:
    if isinstance(obj, RValue):
        return obj
    for predicate, convert in _EXTRA_CONVERTERS:
        if predicate(obj):
            return convert(obj)
    if obj is None:
        return NULL
    if type(obj).__module__.startswith("pandas"):  # a frame, the common payload: before a dozen checks
        return from_pandas(obj)
    if isinstance(obj, (np.ndarray, np.datetime64, np.timedelta64, np.void)):
        return from_numpy(obj)
    if isinstance(obj, (bool, np.bool_)):
        return build("logical", np.array([obj], dtype=np.int32))
    if isinstance(obj, enum.Enum) and not isinstance(obj, (int, float, str)):
        return _as_r(obj.value, depth)
    if isinstance(obj, (int, np.integer)):
        value = int(obj)
        if -INT_MAX <= value <= INT_MAX:
            return build("integer", np.array([value], dtype=np.int32))
        return build("double", np.array([big_int(value, "as_r")], dtype=np.float64))
    if isinstance(obj, (float, np.floating)):
        if isinstance(obj, np.floating) and obj.dtype.itemsize > 8:
            return from_numpy(obj)
        return build("double", np.array([obj], dtype=np.float64))
    if isinstance(obj, decimal.Decimal):
        nearest = float("nan") if obj.is_nan() else float(obj)  # the nearest double; sNaN too is NaN
        return build("double", np.array([nearest], dtype=np.float64))
    if isinstance(obj, (complex, np.complexfloating)):
        return Complex([complex(obj)])
    if isinstance(obj, str):
        return build("character", np.array([str.__str__(obj)], dtype=object))
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return Raw(bytes(obj))
    if _is_pandas(obj):
        return from_pandas(obj)
    if isinstance(obj, dt.datetime):
        return _datetime(obj)
    if isinstance(obj, dt.date):
        return python_dates([obj])
    if isinstance(obj, dt.timedelta):
        return _difftime(obj.total_seconds())
    if isinstance(obj, Mapping):
        return _mapping(obj, depth + 1)
    if attrs.has(type(obj)):
        return _fields(obj, [f.name for f in attrs.fields(type(obj))], depth + 1)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return _fields(obj, [f.name for f in dataclasses.fields(obj)], depth + 1)
    named = getattr(type(obj), "_fields", None) if isinstance(obj, tuple) else None
    if isinstance(named, tuple):
        return _fields(obj, list(named), depth + 1)  # a namedtuple: a named list
    if isinstance(obj, (list, tuple)):
        return build("list", tuple(_element(v, i, depth + 1) for i, v in enumerate(obj)))
    if is_arrow(obj):  # after pandas: pandas objects speak Arrow too, but keep their index
        return from_arrow(obj)
    kind = clip(f"{type(obj).__module__}.{type(obj).__qualname__}")
    if type(obj).__qualname__ == "LazyFrame" and type(obj).__module__.startswith("polars"):
        raise RValueError(f"as_r: {kind} is a query, not data: call `.collect()` on it for its rows")
    raise RValueError(
        f"as_r: cannot convert {kind} ({shorten(obj)}) "
        "to an R value; "
        "expected None, bool, int, float, complex, Decimal, str, bytes, date, datetime, timedelta, list, "
        "tuple, dict, an attrs class or dataclass instance, a numpy array, a pandas object, Arrow data "
        "(pyarrow, polars, DuckDB) or an R value; "
        "register_converter() teaches as_r other types"
    )


def big_int(value: int, where: str) -> float:
    """A Python int outside R's integer range as the double R would hold, warning as arrays do.

    >>> import warnings
    >>> with warnings.catch_warnings():
    ...     warnings.simplefilter("ignore")
    ...     big_int(2**40, "as_r")
    1099511627776.0
    """
    if not -_DOUBLE_MAX <= value <= _DOUBLE_MAX:
        raise RValueError(
            f"{where}: the int {shorten(value, 40)} lies beyond the largest double (about 1.8e308), "
            "so R cannot hold it; pass a float (inf) or a string"
        )
    warn(
        f"{where}: the int {value} does not fit R's integer range [-{INT_MAX}, {INT_MAX}]; "
        "converted to double",
        IntegerOverflowWarning,
    )
    nearest = float(value)
    if abs(value) > _EXACT and int(nearest) != value:
        warn(
            f"{where}: the int {value} beyond 2**53 was rounded to the nearest double ({nearest!r})",
            PrecisionWarning,
        )
    return nearest


class _TooDeep(RValueError):
    """Raised once at the limit, and passed up unchanged (no "element ..." prefix per level)."""


def _element(value: Any, position: int | str, depth: int) -> RValue:
    if depth > MAX_DEPTH:
        raise _TooDeep(
            f"as_r: the value nests more than {MAX_DEPTH} levels deep (lists within lists); "
            f"R values nest at most {MAX_DEPTH} levels (see rvalues.MAX_DEPTH)"
        )
    try:
        return _as_r(value, depth)
    except _TooDeep:
        raise
    except RValueError as err:
        raise RValueError(f"element {shorten(position, 40)}: {err}") from None


def _is_pandas(obj: Any) -> bool:
    """Whether ``obj`` is a pandas object, or of a subclass of one (only when pandas is loaded)."""
    pd = sys.modules.get("pandas")
    if pd is None:
        return False
    if type(obj).__module__.startswith("pandas"):
        return True
    return isinstance(obj, (pd.DataFrame, pd.Series, pd.Index, pd.api.extensions.ExtensionArray))


def _fields(obj: Any, names: list[str], depth: int) -> RValue:
    """An attrs, dataclass or namedtuple instance as a named list of its fields, in their order."""
    values = tuple(_element(getattr(obj, name), name, depth) for name in names)
    return build("list", values, {"names": build("character", np.array(names, dtype=object))})


def _difftime(seconds: float) -> RValue:
    return build(
        "double",
        np.array([seconds], dtype=np.float64),
        {"class": Character(["difftime"]), "units": Character(["secs"])},
    )


def _mapping(obj: Mapping[Any, Any], depth: int) -> RValue:
    keys = list(obj.keys())
    for key in keys:
        if not isinstance(key, str):
            raise RValueError(
                f"as_r: dict keys must be str to become R names, not {type(key).__name__} ({shorten(key)}); "
                "use List.from_pairs() for other names"
            )
    values = tuple(_element(obj[k], k, depth) for k in keys)
    return build("list", values, {"names": Character(keys)})


def _datetime(obj: dt.datetime) -> RValue:
    return python_datetimes([obj], tzone_name(obj.tzinfo, "as_r"))


def from_pandas(obj: Any) -> RValue:
    """Convert a pandas DataFrame, Series, Index or array (see :mod:`rvalues.convert.pandas`).

    >>> import pandas as pd
    >>> from_pandas(pd.Series(["a", None])).data.tolist()
    ['a', None]
    """
    # late: rvalues.convert.pandas imports pandas, which import rvalues does not; loaded when one comes
    from rvalues.convert.pandas import from_pandas as convert

    return convert(obj)
