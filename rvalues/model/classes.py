"""R's explicit and implicit class of a value, and the invariants of classed values
(which Python class a value gets is :func:`rvalues.model.build.python_class`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any

import numpy as np

from rvalues.errors import RValueError
from rvalues.model.na import NA_INTEGER
from rvalues.model.strings import shorten

if TYPE_CHECKING:
    from rvalues.model.base import RValue

_IMPLICIT = {
    "logical": "logical",
    "integer": "integer",
    "double": "numeric",
    "complex": "complex",
    "character": "character",
    "raw": "raw",
    "list": "list",
    "NULL": "NULL",
}


def explicit_class(attributes: Mapping[str, RValue]) -> tuple[str, ...]:
    """R's ``oldClass(x)``: the class attribute, or an empty tuple."""
    cls = attributes.get("class")
    return () if cls is None else tuple(cls.data.tolist())


def r_class(value: RValue) -> tuple[str, ...]:
    """R's ``class(x)``: the class attribute, else the implicit class (R 4.x).

    >>> from rvalues import matrix, Double
    >>> r_class(matrix([1, 2, 3, 4], nrow=2)), r_class(Double([1.5]))
    (('matrix', 'array'), ('numeric',))
    """
    return explicit_class(value.attributes) or implicit_class(value)


def implicit_class(value: RValue) -> tuple[str, ...]:
    """R's ``class(unclass(x))``: the class a value has without its class attribute.

    >>> from rvalues import Double
    >>> implicit_class(Double([1.5]).with_attributes({"class": "myclass"}))
    ('numeric',)
    """
    dim = value.attributes.get("dim")
    if dim is not None:
        return ("matrix", "array") if len(dim.data) == 2 else ("array",)
    return (_IMPLICIT[value.r_type],)


def check_class_invariants(r_type: str, data: Any, attributes: Mapping[str, RValue]) -> None:
    """Refuse what R refuses for classed values (factors must be integer codes with levels)."""
    classes = explicit_class(attributes)
    if "factor" in classes:
        if r_type != "integer":
            raise RValueError(f'adding class "factor" to an invalid object (a {r_type} vector)')
        levels = attributes.get("levels")
        if levels is not None:
            codes = np.asarray(data)
            valid = codes != NA_INTEGER
            if valid.any() and (codes[valid].min() < 1 or codes[valid].max() > len(levels.data)):
                raise RValueError(
                    f"factor codes must lie in 1..{len(levels.data)} (the number of levels) or be NA"
                )
    if "data.frame" in classes and r_type == "list":
        _check_data_frame(data, attributes)


def _check_data_frame(columns: tuple[Any, ...], attributes: Mapping[str, RValue]) -> None:
    # late: frames imports classes: a cycle
    from rvalues.model.frames import column_length, row_count

    row_names = attributes.get("row.names")
    if row_names is None:
        return
    n = row_count(row_names)
    for i, column in enumerate(columns):
        length = column_length(column)
        if length != n:
            names = attributes.get("names")
            label = names.data[i] if names is not None and i < len(names.data) else str(i + 1)
            raise RValueError(
                f"data frame column {shorten(label)} has {length} rows but the row names say {n}"
            )
