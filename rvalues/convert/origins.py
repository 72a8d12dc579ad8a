"""Where a converted value came from: the dtype, index or column labels ``from_numpy`` and
``from_pandas`` saw, kept for the way back (:mod:`rvalues.convert.back`).

Kept by object identity, weakly, never as an R attribute: a value made or changed in R has no
origin, since every change makes a new value.

>>> from rvalues import c
>>> x = remember(c(1, 2), dtype="int16")
>>> origin_of(x), origin_of(c(1, 2))
({'dtype': 'int16'}, {})
"""

from __future__ import annotations

import weakref
from typing import Any

from rvalues.model.base import RValue

__all__ = ["origin_of", "remember"]


class _Origin(weakref.ref):  # type: ignore[type-arg]
    """A weak reference to a converted value that carries where the value came from."""

    __slots__ = ("key", "origin")
    key: int
    origin: dict[str, Any]


def _forget(ref: _Origin) -> None:
    if _ORIGINS.get(ref.key) is ref:
        del _ORIGINS[ref.key]


_ORIGINS: dict[int, _Origin] = {}


def remember(value: RValue, **origin: Any) -> RValue:
    """Record where ``value`` came from (a dtype, an index ...) for the way back; returns ``value``."""
    try:
        ref = _Origin(value, _forget)
    except TypeError:  # a value without weak references (NULL): nothing to remember
        return value
    ref.key, ref.origin = id(value), origin
    _ORIGINS[ref.key] = ref
    return value


def origin_of(value: RValue) -> dict[str, Any]:
    """What :func:`remember` recorded for this very object (an empty dict for values born in R)."""
    ref = _ORIGINS.get(id(value))
    if ref is None or ref() is not value:
        return {}
    return ref.origin
