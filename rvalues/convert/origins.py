"""Where a converted value came from: the dtype, index or column labels ``from_numpy`` and
``from_pandas`` saw, kept for the way back (:mod:`rvalues.convert.back`).

Kept on the value object itself (a slot of :class:`~rvalues.model.base.RValue`), never as an R
attribute: a value made or changed in R has no origin, since every change makes a new value.

>>> from rvalues import c
>>> x = remember(c(1, 2), dtype="int16")
>>> origin_of(x), origin_of(c(1, 2))
({'dtype': 'int16'}, {})
"""

from __future__ import annotations

from typing import Any

from rvalues.model.base import RValue
from rvalues.model.lists import NULL

__all__ = ["origin_of", "remember"]


def remember(value: RValue, **origin: Any) -> RValue:
    """Record where ``value`` came from (a dtype, an index ...) for the way back; returns ``value``."""
    if value is not NULL:  # the one NULL is everyone's: it remembers nothing
        object.__setattr__(value, "_origin", origin)
    return value


def origin_of(value: RValue) -> dict[str, Any]:
    """What :func:`remember` recorded for this very object (an empty dict for values born in R)."""
    return getattr(value, "_origin", None) or {}
