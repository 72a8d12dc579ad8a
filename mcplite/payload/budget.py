"""Rows of what a tool returned: how many a value has and the value cut to some of them, of the
same kind, so that its head is written exactly as jsonlite writes those rows.

A value has rows when it is a data frame (R, pandas, Arrow, polars, DuckDB), a vector without
``dim`` (R, numpy, pandas, Arrow), or a list without names (R ``list()``, a Python list or tuple);
anything else (a named list, a record, a string) has none and is never cut.

>>> import rvalues as rv
>>> frame = rv.data_frame(x=[1.5, 2.5, 3.5])
>>> row_total(frame), row_total({"x": 1}), row_total("text")
(3, None, None)
>>> rows_between(frame, 1, 3)
    x
1 2.5
2 3.5
"""

from __future__ import annotations

import enum
from typing import Any

from rvalues import RValue
from rvalues.model.build import build
from rvalues.model.classes import r_class
from rvalues.model.frames import automatic_row_names, expanded_row_names, is_compact, row_count
from rvalues.model.lists import List
from rvalues.model.vectors import Vector


class Inherit(enum.Enum):
    """``@server.tool(result_budget=...)``'s default: the server's ``result_budget``."""

    SERVER = "the server's result_budget"

    def __repr__(self) -> str:
        return "SERVER_BUDGET"


SERVER_BUDGET = Inherit.SERVER

DEFAULT_RESULT_BUDGET = 50_000
"""Bytes of one ``tools/call`` response line, envelope included. Claude Code refuses a tool result
of more than 25,000 tokens; JSON of numbers tokenizes at about 2 to 4 bytes a token, so 50,000 bytes
stays under that limit even at 2 bytes a token."""

DEFAULT_MAX_RESULT_BYTES = 4 * 2**20
"""Bytes of one ``tools/call`` response line that no result may pass, cut or not."""


def _module(value: Any) -> str:
    return type(value).__module__.partition(".")[0]


def row_total(value: Any) -> int | None:
    """How many rows ``value`` has, or None when it is not something that is cut by rows.

    >>> row_total([1, 2]), row_total((1,)), row_total(3)
    (2, 1, None)
    """
    if isinstance(value, RValue):
        return _r_rows(value)
    if isinstance(value, list) or (isinstance(value, tuple) and not hasattr(type(value), "_fields")):
        return len(value)
    module = _module(value)
    if module == "pandas" and type(value).__name__ in ("DataFrame", "Series"):
        return len(value)
    if module == "numpy" and getattr(value, "ndim", None) == 1:
        return len(value)
    if module == "pyarrow" and type(value).__name__ in ("Table", "RecordBatch", "Array", "ChunkedArray"):
        return len(value)
    if (
        module == "pyarrow"
        and hasattr(value, "type")
        and hasattr(value, "slice")
        and hasattr(value, "__len__")
    ):
        return len(value)  # the typed arrays (Int64Array, StringArray, ...)
    if module == "polars" and type(value).__name__ in ("DataFrame", "Series"):
        return int(value.height if type(value).__name__ == "DataFrame" else len(value))
    return None


def rows_between(value: Any, start: int, stop: int) -> Any:
    """Rows ``start`` to ``stop`` (0-based, ``stop`` excluded) of a value that has rows, of its kind.

    >>> rows_between([1, 2, 3], 0, 2)
    [1, 2]
    """
    if isinstance(value, RValue):
        return _r_rows_between(value, start, stop)
    if isinstance(value, (list, tuple)):
        return value[start:stop]
    module = _module(value)
    if module == "pandas":
        return value.iloc[start:stop]
    if module == "numpy":
        return value[start:stop]
    if module in ("pyarrow", "polars"):
        return value.slice(start, stop - start)
    raise TypeError(f"rows_between: {type(value).__qualname__} has no rows to cut")


def storable(value: Any) -> Any:
    """The value as a result store keeps it: a DuckDB relation is run once, into an Arrow table
    (a relation is a query, tied to its connection); anything else as it is."""
    if _module(value) == "duckdb" and hasattr(value, "arrow"):
        table = value.arrow()
        return table.read_all() if hasattr(table, "read_all") else table
    return value


def _is_frame(x: RValue) -> bool:
    return r_class(x)[-1:] == ("data.frame",) and isinstance(x, List)


def _r_rows(x: RValue) -> int | None:
    if _is_frame(x):
        row_names = x.attributes.get("row.names")
        if row_names is None or not all(_column_cuttable(column) for column in x.data):
            return None
        return row_count(row_names)
    if "dim" in x.attributes:
        return None
    if isinstance(x, Vector):
        return len(x)
    if isinstance(x, List) and "names" not in x.attributes and r_class(x) == ("list",):
        return len(x)
    return None


def _column_cuttable(column: RValue) -> bool:
    if "dim" in column.attributes:
        return False
    if _is_frame(column):
        return all(_column_cuttable(inner) for inner in column.data)
    return isinstance(column, (Vector, List))


def _r_rows_between(x: RValue, start: int, stop: int) -> RValue:
    attributes = dict(x.attributes)
    names = attributes.get("names")
    if _is_frame(x):
        row_names = attributes["row.names"]
        automatic = is_compact(row_names) and int(row_names.data[1]) < 0
        attributes["row.names"] = (
            automatic_row_names(max(0, min(stop, row_count(row_names)) - start))
            if automatic
            else _r_rows_between(expanded_row_names(row_names), start, stop)
        )
        columns = tuple(_r_rows_between(column, start, stop) for column in x.data)
        return build("list", columns, attributes)
    if names is not None:
        attributes["names"] = build("character", names.data[start:stop])
    return build(x.r_type, x.data[start:stop], attributes)
