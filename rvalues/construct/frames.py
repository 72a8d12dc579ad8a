"""``data_frame()``: R's ``data.frame()`` with its recycling, names and row names."""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import numpy as np

from rvalues.construct.classed import as_vector, r_flag
from rvalues.errors import RValueError, shorten
from rvalues.model.base import RValue
from rvalues.model.build import build
from rvalues.model.classes import explicit_class
from rvalues.model.coerce import as_type
from rvalues.model.frames import automatic_row_names, column_length, is_compact, row_count
from rvalues.model.lists import NULL, List, _pairs
from rvalues.model.names import make_names, make_unique
from rvalues.model.strings import clip
from rvalues.model.vectors import Character, Integer, Vector

_DATA_FRAME_CLASS = Character(["data.frame"])


def data_frame(*, row_names: Any = None, check_names: bool = True, **columns: Any) -> Any:
    """R's ``data.frame(...)`` (``stringsAsFactors = FALSE``), columns as keyword arguments.

    Python sequences are combined with ``c()``; shorter columns are recycled when their
    length divides the longest (length-1 columns always are), otherwise R's error is raised.
    Row names come from ``row_names=``, else from the first named vector, else automatic.

    >>> data_frame(x=[1, 2, 3], y="a")
      x y
    1 1 a
    2 2 a
    3 3 a
    """
    return data_frame_from_pairs(list(columns.items()), row_names=row_names, check_names=check_names)


def data_frame_from_pairs(
    columns: Iterable[tuple[str, Any]], *, row_names: Any = None, check_names: bool = True
) -> Any:
    """:func:`data_frame` with columns given as ``(name, value)`` pairs (any names, repeats allowed)."""
    names: list[str] = []
    values: list[RValue] = []
    found_row_names: RValue | None = None
    for name, raw in _pairs(columns, "data_frame_from_pairs"):
        if not isinstance(name, str):
            raise TypeError(
                f"data_frame: a column name must be a str, not {type(name).__name__} ({shorten(name)})"
            )
        value = _column(raw, name)
        if value is NULL:
            continue
        if found_row_names is None:
            found_row_names = _row_names_of(value)
        for sub_name, sub_value in _split(name, value):
            names.append(sub_name)
            values.append(sub_value)
    lengths = [column_length(v) for v in values]
    explicit = None if row_names is None else _explicit_row_names(row_names)
    n = max(lengths) if lengths else (0 if explicit is None else row_count(explicit))
    if lengths and any((length == 0 and n > 0) or (length and n % length) for length in lengths):
        shown = ", ".join(str(v) for v in dict.fromkeys(lengths))
        raise RValueError(f"arguments imply differing number of rows: {shown}")
    values = [_recycle(v, n) for v in values]
    if explicit is not None:
        if row_count(explicit) != n:
            raise RValueError("row names supplied are of the wrong length")
        final_row_names = explicit
    elif found_row_names is not None and row_count(found_row_names) == n:
        final_row_names = found_row_names
    else:
        final_row_names = automatic_row_names(n)
    if r_flag(check_names, "check.names"):
        names = make_unique(make_names(names))
    name_vector = build("character", np.array(names, dtype=object))

    if not values:
        if explicit is not None and not is_compact(explicit) and isinstance(explicit, Integer):
            final_row_names = build("integer", np.array([-(2**31), n], dtype=np.int32))
        attributes = {"names": name_vector, "row.names": final_row_names, "class": _DATA_FRAME_CLASS}
    else:
        attributes = {"names": name_vector, "class": _DATA_FRAME_CLASS, "row.names": final_row_names}
    return build("list", tuple(values), attributes)


def _column(raw: Any, name: str) -> RValue:
    if raw is None:
        return NULL
    try:
        return as_vector(raw, name)
    except RValueError as err:
        raise RValueError(f"data_frame: column {shorten(name)}: {err}") from None


def _row_names_of(value: RValue) -> RValue | None:
    if value.inherits("data.frame"):
        row_names = value.attributes.get("row.names")
        if row_names is not None and not (is_compact(row_names) and row_names.data[1] < 0):
            return row_names
        return None
    if isinstance(value, Vector) and value.names is not None and value.attributes.get("dim") is None:
        names = value.names
        if not names.na_mask().any() and len(set(names.data.tolist())) == len(names):
            return names.without_attributes()
    return None


def _split(name: str, value: RValue) -> list[tuple[str, RValue]]:
    """One argument's columns: data frames, plain lists and matrices are spliced as R does."""
    if value.inherits("AsIs"):
        return [(name, value)]
    if value.inherits("data.frame") or (value.r_type == "list" and value.attributes.get("dim") is None):
        inner = (
            value.names.data.tolist() if value.names is not None else [str(i + 1) for i in range(len(value))]
        )
        return [(f"{name}.{sub}", column) for sub, column in zip(inner, value.data)]
    dim = value.attributes.get("dim")
    if dim is not None and not set(explicit_class(value.attributes)) <= {"matrix", "array"}:
        # as.data.frame of a classed array (factor, Date ...) is one column of all its elements;
        # R leaves the dim on it, which nothing downstream reads, so it goes here
        return [(name, value.with_attributes({"names": None, "dim": None, "dimnames": None}))]
    if dim is not None and len(dim) == 2:
        nrow, ncol = (int(v) for v in dim.data)
        dimnames = value.attributes.get("dimnames")
        colnames = None
        if dimnames is not None and dimnames.data[1] is not NULL:
            colnames = dimnames.data[1].data.tolist()
        out = []
        for j in range(ncol):
            label = colnames[j] if colnames else str(j + 1)
            column = build(value.r_type, value.data[j * nrow : (j + 1) * nrow])
            out.append((f"{name}.{label}", column))
        return out
    return [(name, _strip_names(value))]


def _strip_names(value: RValue) -> RValue:
    if value.names is None:
        return value
    return value.with_attributes({"names": None})


def _recycle(value: RValue, n: int) -> RValue:
    length = column_length(value)
    if length == n or value.inherits("data.frame") or value.attributes.get("dim") is not None:
        return value
    times = n // length if length else 0
    if value.r_type == "list":
        return build("list", tuple(value.data) * times, value.attributes)
    return build(value.r_type, np.tile(value.data, times), value.attributes)


def _explicit_row_names(row_names: Any) -> RValue:
    value = as_vector(row_names, "row_names").without_attributes()
    if value.r_type == "double":  # R's data.frame(): as.character(row.names), 1.5 -> "1.5"
        value = as_type(value, "character")
    if value.r_type not in ("integer", "character"):
        raise RValueError(f"row_names must be character or integer, not {value.r_type}")
    if value.na_mask().any():
        raise RValueError("missing values in 'row.names' are not allowed")
    seen: set[Any] = set()
    for v in value.data.tolist():
        if v in seen:
            raise RValueError(f"duplicate row.names: {clip(str(v))}")
        seen.add(v)
    return value


def r_list(*values: Any, **named: Any) -> List:
    """R's ``list(...)``: positional elements, then named ones; Python values convert with ``as_r``.

    >>> r_list(1, b="x").names
    [1] ""  "b"
    """
    elements = List([*values, *named.values()])
    if not named:
        return elements
    names = [""] * len(values) + list(named)
    return elements.with_attributes({"names": Character(names)})  # type: ignore[no-any-return]
