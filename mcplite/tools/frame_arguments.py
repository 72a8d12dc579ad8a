"""Frames in tool arguments: rows as JSON objects (what a typed tool writes) become a data frame with
the declared column types.

A parameter typed ``Annotated[pd.DataFrame, mcplite.Rows(Row)]`` (or ``rv.DataFrame``) takes an array of
row objects. An absent field, ``null`` and ``"NA"`` are NA; a double column also takes ``"NaN"``,
``"Inf"`` and ``"-Inf"``; dates are ``2024-05-01``, date-times ``2024-05-01 12:00:00`` (UTC) or RFC 3339.
A frame of more cells (rows times columns) than the server's ``max_frame_argument_cells`` (in force
through :func:`frame_cells_at_most`) is refused before any is read.

>>> import dataclasses, pandas as pd
>>> from typing import Annotated
>>> from mcplite.tools.markers import Rows
>>> @dataclasses.dataclass
... class Row:
...     g: str
...     mean: float
>>> frame = rows_to_frame(read(Annotated[rv.DataFrame, Rows(Row)]), [{"g": "a", "mean": "NaN"}, {"mean": 2}])
>>> frame
     g mean
1    a  NaN
2 <NA>    2
"""

from __future__ import annotations

import contextlib
import datetime
import math
from collections.abc import Callable, Iterator
from contextvars import ContextVar
from typing import Any

import rvalues as rv
from mcplite.tools.annotations import Shape, read, record_fields
from mcplite.tools.failures import Invalid, beyond_r_integer, mismatch, not_a_level
from mcplite.tools.frames import as_declared, cell_shape
from mcplite.tools.output_schema import object_schema, r_class_of, value_schema, with_forms
from rvalues.model.elements import INT_MAX

MAX_FRAME_CELLS = 1_000_000
"""How many cells (rows times columns) a frame argument may have by default: about 12 MiB of JSON,
read in about a second."""

_max_cells: ContextVar[int] = ContextVar("mcplite_max_frame_cells", default=MAX_FRAME_CELLS)

_NA_TEXT = "NA"
_NOT_FINITE = {"NaN": math.nan, "Inf": math.inf, "-Inf": -math.inf}


def input_cell_schema(shape: Shape) -> dict[str, Any]:
    """The input schema of one field of a row: its value, or NA as any option set writes it."""
    r_class, levels = r_class_of(cell_shape(shape))
    schema = value_schema("character" if r_class == "factor" and levels is None else r_class, levels)
    if r_class == "POSIXct":
        schema = {"type": "string"}  # jsonlite's "2024-05-01 12:00:00" or RFC 3339
    if r_class == "Date":
        schema = {"type": "string", "format": "date"}  # ISO 8601, as date.fromisoformat reads it
    forms: list[Any] = [_NA_TEXT, None] if r_class != "double" else [*_NOT_FINITE, _NA_TEXT, None]
    return with_forms(schema, forms)


def frame_input_schema(shape: Shape) -> dict[str, Any]:
    """The input schema of a frame with declared rows: an array of row objects, every field optional."""
    properties = {
        name: input_cell_schema(read(annotation)) for name, annotation, _ in record_fields(shape.item)
    }
    return {"type": "array", "items": object_schema(properties, [])}


def _number(value: Any) -> float:
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return float(value)
    if isinstance(value, str) and value in _NOT_FINITE:
        return _NOT_FINITE[value]
    raise mismatch('a number, "NaN", "Inf" or "-Inf"', value)


def _integer(value: Any) -> int:
    if isinstance(value, (int, float)) and not isinstance(value, bool) and float(value).is_integer():
        if -INT_MAX <= value <= INT_MAX:
            return int(value)
        raise beyond_r_integer(value)
    raise mismatch("an integer", value)


def _boolean(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise mismatch("a boolean", value)


def _text(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise mismatch("a string", value)


def _date(value: Any) -> datetime.date:
    try:
        return datetime.date.fromisoformat(_text(value))
    except ValueError:
        raise mismatch("a date such as '2024-05-01'", value) from None


def _date_time(value: Any) -> datetime.datetime:
    try:
        moment = datetime.datetime.fromisoformat(_text(value))
    except ValueError:
        raise mismatch("a date-time such as '2024-05-01 12:00:00'", value) from None
    return moment if moment.tzinfo is not None else moment.replace(tzinfo=datetime.UTC)


_READERS: dict[str, tuple[Callable[[Any], Any], Callable[[list[Any]], rv.RValue]]] = {
    "double": (_number, rv.Double),
    "integer": (_integer, rv.Integer),
    "logical": (_boolean, rv.Logical),
    "character": (_text, rv.Character),
    "factor": (_text, rv.Character),
    "Date": (_date, rv.Date),
    "POSIXct": (_date_time, lambda values: rv.as_posixct(values, tz="UTC")),
}


@contextlib.contextmanager
def frame_cells_at_most(limit: int) -> Iterator[None]:
    """Frame arguments read in this block have at most ``limit`` cells (the server's option).

    >>> with frame_cells_at_most(10):
    ...     _max_cells.get()
    10
    >>> _max_cells.get() == MAX_FRAME_CELLS
    True
    """
    token = _max_cells.set(limit)
    try:
        yield
    finally:
        _max_cells.reset(token)


def rows_to_frame(shape: Shape, value: Any) -> Any:
    """The frame the rows stand for: an ``rv.DataFrame``, or a pandas one when the parameter says so."""
    if not isinstance(value, list):
        raise mismatch(shape.expected(), value)
    fields = record_fields(shape.item)
    names = [name for name, _, _ in fields]
    limit = _max_cells.get()
    if len(value) * len(names) > limit:
        raise Invalid(
            f"expected at most {limit} cells (rows times columns), the server's limit "
            f"(max_frame_argument_cells), got {len(value)} rows of {len(names)} columns; "
            "send fewer rows at a time"
        )
    for i, row in enumerate(value):
        if not isinstance(row, dict):
            raise mismatch(f"a row object ({shape.item.__name__})", row).under(i)
        extra = [key for key in row if key not in names]
        if extra:
            raise Invalid(", ".join(repr(name) for name in names), kind="unexpected", path=[i, extra[0]])
    pairs = []
    for name, annotation, _ in fields:
        cell = cell_shape(read(annotation))
        r_class, levels = r_class_of(cell)
        read_one, build = _READERS[r_class]
        cells: list[Any] = []
        for i, row in enumerate(value):
            item = row.get(name)
            if item is None or item == _NA_TEXT:
                cells.append(None)
                continue
            try:
                one = read_one(item)
            except Invalid as exc:
                raise exc.under(name).under(i) from None
            if levels is not None and one not in levels:
                raise not_a_level(list(levels), item).under(name).under(i)
            cells.append(one)
        column = build(cells)
        pairs.append(
            (name, rv.factor(column, levels=list(levels)) if r_class == "factor" and levels else column)
        )
    frame = rv.data_frame_from_pairs(pairs, check_names=False)  # the declared names, as sent
    return as_declared(frame, shape.annotation)  # pandas, polars, pyarrow or DuckDB when declared
