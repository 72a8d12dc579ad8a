"""``I()`` (base R's AsIs) and ``unbox()`` (jsonlite's scalar marker)."""

from __future__ import annotations

from typing import Any

from rvalues.convert import as_r
from rvalues.errors import RValueError
from rvalues.model.base import RValue
from rvalues.model.classes import explicit_class, r_class
from rvalues.model.frames import row_count
from rvalues.model.lists import NULL
from rvalues.model.vectors import Character, Vector


def _as_value(x: Any) -> RValue:
    if isinstance(x, RValue):
        return x
    return as_r(x)


def I(x: Any) -> Any:  # noqa: E743 - R's name
    """R's ``I(x)``: prepend class ``AsIs`` (once). jsonlite never unboxes an ``I()`` scalar.

    >>> I(1).attributes["class"]
    [1] "AsIs"
    """
    value = _as_value(x)
    if value is NULL:
        raise RValueError("I(NULL): attempt to set an attribute on NULL; use an empty list instead")
    classes = ["AsIs", *[c for c in explicit_class(value.attributes) if c != "AsIs"]]
    return value.with_attributes({"class": Character(classes)})


def unbox(x: Any) -> Any:
    """jsonlite's ``unbox(x)``: mark a length-1 atomic vector or a one-row data frame as a scalar.

    >>> from rvalues import c
    >>> unbox(1.0).attributes["class"]
    [1] "scalar"  "numeric"
    >>> unbox(c(1, 2))
    Traceback (most recent call last):
    ...
    rvalues.errors.RValueError: Tried to unbox a vector of length 2
    """
    value = _as_value(x)
    if value is NULL:
        return NULL
    if value.inherits("data.frame"):
        rows = row_count(value.attributes["row.names"]) if "row.names" in value.attributes else 0
        if rows != 1:
            raise RValueError(f"Tried to unbox dataframe with {rows} rows.")
        return _as_scalar(value)
    if len(value) == 1 and value.inherits("POSIXt"):
        return _as_scalar(value)
    dim = value.attributes.get("dim")
    if not isinstance(value, Vector) or (dim is not None and len(dim) > 1):
        raise RValueError("Only atomic vectors of length 1 or data frames with 1 row can be unboxed.")
    if len(value) != 1:
        raise RValueError(f"Tried to unbox a vector of length {len(value)}")
    return _as_scalar(value)


def _as_scalar(value: RValue) -> Any:
    return value.with_attributes({"class": Character(["scalar", *r_class(value)])})
