"""Doubles jsonlite writes beyond a double's range: a typed value holding one is a misfit that says
what to do.

jsonlite writes a double with at most 15 significant digits, so the few doubles nearest the
largest one round up past it: ``.Machine$double.xmax`` (1.7976931348623157e308) is written
``1.79769313486232e+308``, which reads back as infinity. A typed tool's schema says "a number"
there, and no client can hold the value, so the typed path refuses it, naming the field:

>>> import numpy as np
>>> first_beyond(np.array([1.5, float("inf"), -1.7976931348623157e308]))
2
>>> first_beyond(np.array([1.79769313486231e308, float("nan")])) is None
True
>>> print(beyond_range(1.7976931348623157e308))  # doctest: +ELLIPSIS
a number jsonlite writes within a double's range: it writes this one as 1.79769313486232e+308, ...
"""

from __future__ import annotations

import math

import numpy as np


def _written_as_infinity() -> float:
    """The least double whose 15 significant digits (jsonlite's text) read back as infinity."""
    x = float("1.797693134862315e308")  # halfway between the two largest 15-digit numbers
    while math.isfinite(float(f"{x:.15g}")):
        x = math.nextafter(x, math.inf)
    while not math.isfinite(float(f"{math.nextafter(x, 0.0):.15g}")):
        x = math.nextafter(x, 0.0)
    return x


WRITTEN_AS_INFINITY = _written_as_infinity()
"""From this magnitude up (to the largest double), jsonlite's text of a double reads back as infinity."""


def first_beyond(values: np.ndarray) -> int | None:
    """The position of the first finite double jsonlite writes beyond a double's range, or None."""
    with np.errstate(invalid="ignore"):
        beyond = np.abs(values) >= WRITTEN_AS_INFINITY
    if not beyond.any():
        return None
    found = np.flatnonzero(beyond & np.isfinite(values))
    return int(found[0]) if len(found) else None


def beyond_range(value: float) -> str:
    """What a :class:`~mcplite.tools.frames.Misfit` expected instead of ``value``, and what to do."""
    return (
        f"a number jsonlite writes within a double's range: it writes this one as {value:.15g}, "
        "which reads back as infinity (round it to 14 significant digits, clip it to "
        "+/-1.79769313486231e+308, or make it Inf; see docs/typed-tools.md)"
    )
