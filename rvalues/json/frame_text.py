"""A data frame's rows as one text by the compiled writer: number, integer and logical columns are
formatted straight from their buffers, the others encoded to tokens as usual; the rows are then
written once into one buffer (no token per number, no string per row).

It writes what :func:`rvalues.json.frames._row_pieces` and ``RowPieces.text`` write, byte for byte
(the pure path is its oracle), and returns None where it does not apply (no extension, or a column
it cannot take), so the caller goes on with the pure path.

>>> from rvalues import data_frame
>>> from rvalues.json import to_json
>>> to_json(data_frame(x=[0.5 * i for i in range(20)]))[:28]
'[{"x":0},{"x":0.5},{"x":1},{'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from rvalues._speedups import writer as compiled
from rvalues.errors import RValueError
from rvalues.json.atomic import character_na_token
from rvalues.json.collapse import row_delimiters
from rvalues.json.context import Ctx
from rvalues.json.factor_cells import factor_cell
from rvalues.json.methods import builtin_method
from rvalues.json.time_cells import date_cell, posixct_cell
from rvalues.model.build import build
from rvalues.model.classed import Date, Factor, POSIXct
from rvalues.model.classes import r_class
from rvalues.model.vectors import Character, Double, Integer, Logical

CHUNK_ROWS = 131072
"""Token columns are encoded this many rows at a time, so only one chunk's tokens are alive."""

_CELL_CLASSES = {
    Double: "numeric",
    Integer: "integer",
    Logical: "logical",
    Character: "character",
    POSIXct: "POSIXct",
    Date: "Date",
    Factor: "factor",
}


def frame_text(
    keys: list[str],
    columns: Sequence[Any],
    nrow: int,
    ctx: Ctx,
    cell_ctx: Ctx,
    sliceable: Callable[[Any], bool],
    escaped: bool = False,
) -> str | bytes | None:
    """The collapsed rows (``ctx.collapse``), or None (the pure path writes them).

    ``columns`` are ready for cells (``frames._row_cells`` applied); ``sliceable(column)``: its
    tokens for a range of rows are those of the column sliced to them. ``escaped``: the text as
    the UTF-8 bytes of a JSON string's inside (``json.dumps(text, ensure_ascii=False)[1:-1]``),
    written in the same pass.
    """
    if not compiled.available():
        return None
    as_objects = ctx.dataframe == "rows" and len(keys) == len(columns)
    whole: list[Any] = []
    for column in columns:
        if len(column.data) != nrow:
            return None  # the pure path raises jsonlite's error
        cell: compiled.Cell | np.ndarray | None = _cell(column, cell_ctx)
        if cell is None and not (nrow > CHUNK_ROWS and sliceable(column)):
            try:
                cell = _tokens(column, cell_ctx, nrow)
            except RValueError:
                return None  # the pure path raises it again, with a note naming the column
            if cell is None:
                return None
        whole.append(cell)
    opening, sep, closing = row_delimiters(ctx.indent)
    layout = (opening, sep, closing, *_fields(ctx, as_objects))

    def chunk(start: int, stop: int) -> list[Any]:
        cells = [_rows(c, column, start, stop, cell_ctx) for c, column in zip(whole, columns)]
        if any(c is None for c in cells):
            raise _Declined
        return cells

    named = keys if as_objects else None
    try:
        if nrow <= CHUNK_ROWS:  # one chunk: every column is a cell column or its tokens already
            return compiled.rows_text(whole, named, nrow, layout, 0, escaped)
        return compiled.rows_text(chunk, named, nrow, layout, CHUNK_ROWS, escaped)
    except (_Declined, UnicodeEncodeError, RValueError):
        return None  # the pure path raises the error (a lone surrogate's; a column's, with its note)


class _Declined(Exception):
    """A chunk's column cannot be written by the compiled writer (the pure path takes the frame)."""


def _fields(ctx: Ctx, as_objects: bool) -> tuple[str, str, str, str]:
    """(first field's lead, next field's lead, colon, object close); arrays: ("", separator, "", "")."""
    if not as_objects:
        return "", ("," if ctx.indent is None else ", "), "", ""
    indent = ctx.plus(ctx.indent)
    if indent is None:
        return "", ",", ":", "}"
    pad = "\n" + " " * (indent + 2)
    return pad, "," + pad, ": ", "\n" + " " * indent + "}"


def _cell(column: Any, ctx: Ctx) -> compiled.Cell | None:
    """A column the built-in encoders would take (numbers, integers, logicals, strings, dates,
    date-times, factors) as a cell column (None: encode it to tokens)."""
    kind = _CELL_CLASSES.get(type(column))
    if kind is None:
        return None
    attributes = column.attributes
    if attributes:  # its class decides (a user's method, a Date, a matrix)
        if "dim" in attributes:
            return None
        cls = r_class(column)[0]
        if not builtin_method(cls):
            return None
        if kind == "POSIXct":
            return posixct_cell(column, ctx) if cls == "POSIXct" else None
        if kind == "Date":
            return date_cell(column, ctx) if cls == "Date" else None
        if kind == "factor":
            return factor_cell(column, ctx) if cls in ("factor", "ordered") else None
        if "class" in attributes:
            return None
    elif not builtin_method(kind):  # no attributes: the implicit class is the kind
        return None
    data = column.data
    if kind == "character":
        return compiled.string_cells(data, character_na_token(ctx))
    if kind == "logical":
        return compiled.logical_cells(data, ctx.na or "null")
    if kind == "integer":
        return compiled.int_cells(data, ctx.na or "string")
    return compiled.number_cells(data, ctx.precision, ctx.na or "string", ctx.use_signif, ctx.always_decimal)


def _tokens(column: Any, ctx: Ctx, nrow: int) -> np.ndarray | None:
    out = ctx.encode(column, ctx)
    out = np.array([out], dtype=object) if isinstance(out, str) or out is None else out
    return out if isinstance(out, np.ndarray) and out.dtype == object and len(out) == nrow else None


def _rows(cell: Any, column: Any, start: int, stop: int, ctx: Ctx) -> Any:
    """Rows start..stop of a cell column (a column still to encode: encoded for them)."""
    if isinstance(cell, tuple) and cell[0] == "c":
        kind, others, pieces = cell
        return (kind, others[start:stop], [(labels, codes[start:stop]) for labels, codes in pieces])  # type: ignore[index, union-attr]
    if isinstance(cell, tuple) and cell[0] == "T":
        return (cell[0], *(a if a is None else a[start:stop] for a in cell[1:5]), cell[5])  # type: ignore[index]
    if isinstance(cell, tuple):
        return (cell[0], cell[1][start:stop], *cell[2:])  # type: ignore[index]
    if isinstance(cell, np.ndarray):
        return cell[start:stop]
    return _tokens(rows_of(column, start, stop), ctx, stop - start)


def rows_of(column: Any, start: int, stop: int) -> Any:
    """Rows start..stop of a data frame's column (its names too)."""
    attributes = dict(column.attributes)
    names = attributes.get("names")
    if names is not None:
        attributes["names"] = build("character", names.data[start:stop])
    return build(column.r_type, column.data[start:stop], attributes)
