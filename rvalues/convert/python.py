"""``as_r()`` for Python's own values: scalars, containers, dates and date-times."""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping
from typing import Any

import numpy as np

from rvalues.errors import RValueError
from rvalues.model.base import RValue
from rvalues.model.lists import NULL, List
from rvalues.model.vectors import Character, Complex, Double, Integer, Logical, Raw

INT_MAX = 2**31 - 1

_EXTRA_CONVERTERS: list[tuple[Callable[[Any], bool], Callable[[Any], RValue]]] = []


def register_converter(predicate: Callable[[Any], bool], convert: Callable[[Any], RValue]) -> None:
    """Teach :func:`as_r` a new kind of Python object (checked before the built-in kinds)."""
    _EXTRA_CONVERTERS.insert(0, (predicate, convert))


def as_r(obj: Any) -> RValue:
    """Convert a Python, numpy or pandas object to the R value it stands for.

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
    if isinstance(obj, RValue):
        return obj
    for predicate, convert in _EXTRA_CONVERTERS:
        if predicate(obj):
            return convert(obj)
    if obj is None:
        return NULL
    if isinstance(obj, (bool, np.bool_)):
        return Logical([bool(obj)])
    if isinstance(obj, (int, np.integer)):
        value = int(obj)
        return Integer([value]) if -INT_MAX <= value <= INT_MAX else Double([float(value)])
    if isinstance(obj, (float, np.floating)):
        return Double([float(obj)])
    if isinstance(obj, (complex, np.complexfloating)):
        return Complex([complex(obj)])
    if isinstance(obj, str):
        return Character([obj])
    if isinstance(obj, (bytes, bytearray, memoryview)):
        return Raw(bytes(obj))
    if isinstance(obj, dt.datetime):
        return _datetime(obj)
    if isinstance(obj, dt.date):
        from rvalues.construct.classed import as_date

        return as_date([obj])  # type: ignore[no-any-return]
    if isinstance(obj, Mapping):
        return _mapping(obj)
    if isinstance(obj, (list, tuple)):
        return List._wrap(tuple(_element(v, i) for i, v in enumerate(obj)))
    raise RValueError(
        f"as_r: cannot convert {type(obj).__module__}.{type(obj).__qualname__} ({obj!r:.80}) to an R value; "
        "expected None, bool, int, float, complex, str, bytes, date, datetime, list, tuple, dict, "
        "a numpy array, a pandas object or an R value"
    )


def _element(value: Any, position: int | str) -> RValue:
    try:
        return as_r(value)
    except RValueError as err:
        raise RValueError(f"element {position!r}: {err}") from None


def _mapping(obj: Mapping[Any, Any]) -> RValue:
    keys = list(obj.keys())
    for key in keys:
        if not isinstance(key, str):
            raise RValueError(
                f"as_r: dict keys must be str to become R names, not {type(key).__name__} ({key!r}); "
                "use List.from_pairs() for other names"
            )
    values = tuple(_element(obj[k], k) for k in keys)
    return List._wrap(values, {"names": Character(keys)})


def _datetime(obj: dt.datetime) -> RValue:
    from rvalues.construct.classed import as_posixct

    if obj.tzinfo is None:
        return as_posixct([obj], tz="UTC")  # type: ignore[no-any-return]
    key = getattr(obj.tzinfo, "key", None) or getattr(obj.tzinfo, "zone", None)
    if key is None and obj.utcoffset() == dt.timedelta(0):
        key = "UTC"
    if key is None:
        return as_posixct([obj.astimezone(dt.timezone.utc)], tz="UTC")  # type: ignore[no-any-return]
    return as_posixct([obj], tz=key)  # type: ignore[no-any-return]
