"""Encoder for data frames (jsonlite's asJSON method for data.frame): rows, columns or values.

Each column is encoded once to an array of tokens (one per row); rows are then assembled for all
rows at once, omitting NA cells in rows mode.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from rvalues.errors import RValueError
from rvalues.json.atomic import hex_strings
from rvalues.json.collapse import (
    ObjectRows,
    RowPieces,
    RowTexts,
    array_rows,
    collapse,
    row_delimiters,
    small_array_rows,
    small_object_rows,
)
from rvalues.json.context import Ctx, Prefixed
from rvalues.json.frame_text import frame_text, rows_of
from rvalues.json.lists import encode_list, object_keys
from rvalues.json.options import JsonliteError
from rvalues.json.posixlt import posixlt_seconds
from rvalues.model.build import build
from rvalues.model.classed import Date, Factor, POSIXct
from rvalues.model.classes import explicit_class
from rvalues.model.elements import INT_MAX
from rvalues.model.frames import automatic_row_names, expanded_row_names, row_count
from rvalues.model.lists import List
from rvalues.model.names import make_unique
from rvalues.model.strings import clip
from rvalues.model.vectors import Character, Double, Integer, Logical

_DIGITS = re.compile(r"[0-9]+")


def encode_frame(x: Any, ctx: Ctx, escaped: bool = False) -> Any:
    """A data frame in rows, columns or values layout, with jsonlite's row-name rule; ``escaped``:
    the compiled writer may return the text as a JSON string's inside (see :func:`frame_text`)."""
    names_attr = x.attributes.get("names")
    names: list[str | None] | None = None if names_attr is None else names_attr.data.tolist()
    columns = list(x.data)
    row_names = x.attributes.get("row.names")
    nrow = 0 if row_names is None else row_count(row_names)
    has_names = (0 if names is None else len(names)) == len(columns)
    if row_names is None:
        row_names = build("integer", np.array([], dtype=np.int32))
    if _wants_row_names(ctx.rownames, row_names) and has_names:
        shown = expanded_row_names(row_names)
        names = list(names or [])
        if "_row" in names:
            columns[names.index("_row")] = shown
        else:
            # `[[<-.data.frame` makes the names unique when it appends a column
            names = _make_unique_names([*names, "_row"])
            columns.append(shown)
    return encode_frame_columns(names, columns, nrow, ctx, has_names=has_names, escaped=escaped)


def _make_unique_names(names: list[str | None]) -> list[str | None]:
    present = [n for n in names if n is not None]
    fixed = iter(make_unique(present))
    return [None if n is None else next(fixed) for n in names]


def _wants_row_names(rownames: bool | None, row_names: Any) -> bool:
    if rownames is not None:
        return rownames
    if row_names.r_type != "character":
        return False
    return not all(v is not None and _DIGITS.fullmatch(v) for v in row_names.data.tolist())


_READY = frozenset({Logical, Integer, Double, Character, Factor, Date, POSIXct})
"""Column classes that :func:`_prepare` and :func:`_row_cells` leave as they are (neither a list,
nor raw, nor complex): the common columns skip both calls."""


def _prepare(column: Any, ctx: Ctx) -> Any:
    """Per-column conversions jsonlite makes before encoding the rows."""
    if isinstance(column, List) and not column.inherits("data.frame"):
        # POSIXlt columns become POSIXct first (they need their field names)
        if column.inherits("POSIXlt"):
            seconds, tzone = posixlt_seconds(column)
            return _posixct(seconds, tzone)
        if column.attributes.get("names") is not None:
            column = column.with_attributes({"names": None})
    return column


def _posixct(seconds: np.ndarray, tzone: str | None) -> Any:
    attrs: dict[str, Any] = {"class": build("character", np.array(["POSIXct", "POSIXt"], dtype=object))}
    if tzone is not None:
        attrs["tzone"] = build("character", np.array([tzone], dtype=object))
    return build("double", seconds, attrs)


def _row_cells(column: Any, ctx: Ctx) -> Any:
    """Raw columns become hex strings; with complex="list", complex columns nested frames."""
    if column.r_type == "raw":
        kept = {k: v for k, v in column.attributes.items() if k in ("names", "dim", "dimnames")}
        return build("character", hex_strings(column.data), kept)
    if ctx.complex == "list" and column.r_type == "complex":
        dim = column.dim
        real, imag = np.ascontiguousarray(column.data.real), np.ascontiguousarray(column.data.imag)
        if dim is not None and len(dim) == 2:
            # data.frame(real = Re(m), imaginary = Im(m)) splits matrices into columns
            n, k = dim
            dimnames = column.attributes.get("dimnames")
            labels = [str(j + 1) for j in range(k)]
            if dimnames is not None and dimnames.data[1].r_type == "character":
                labels = dimnames.data[1].data.tolist()
            parts = tuple(
                build("double", np.ascontiguousarray(part[j * n : (j + 1) * n]))
                for part in (real, imag)
                for j in range(k)
            )
            names = [f"{p}.{label}" for p in ("real", "imaginary") for label in labels]
        else:
            n = len(column.data)
            parts = (build("double", real), build("double", imag))
            names = ["real", "imaginary"]
            row_names = _names_as_row_names(column.attributes.get("names"), n)
        return build(
            "list",
            parts,
            {
                "names": build("character", np.array(names, dtype=object)),
                "class": build("character", np.array(["data.frame"], dtype=object)),
                "row.names": automatic_row_names(n) if dim is not None else row_names,
            },
        )
    return column


def _names_as_row_names(names: Any, n: int) -> Any:
    """The row names ``data.frame(real = Re(x), imaginary = Im(x))`` takes from ``names(x)``:
    none when they are duplicated or all empty; an NA among them is R's error."""
    values = [] if names is None else names.data.tolist()
    if not n or not values or len(set(values)) < n or all(v == "" for v in values):
        return automatic_row_names(n)
    if None in values:
        raise JsonliteError("row names contain missing values")
    return names


def encode_frame_columns(
    names: Sequence[str | None] | None,
    columns: Sequence[Any],
    nrow: int,
    ctx: Ctx,
    has_names: bool | None = None,
    escaped: bool = False,
) -> Any:
    """The data-frame method from its columns on (``x`` already has its ``_row`` column); with
    ``escaped``, the rows the compiled writer writes come as the bytes of a JSON string's inside."""
    if has_names is None:
        has_names = names is not None and len(names) == len(columns)
    columns = [c if type(c) in _READY else _prepare(c, ctx) for c in columns]
    na = ctx.na
    if ctx.dataframe == "columns":
        child = ctx.but(is_df=True, oldna=None, collapse=True, keep_vec_names=False)
        try:
            return encode_list(columns, names, child)
        except RValueError as err:
            failed = next((j for j, c in enumerate(columns) if _fails(c, child)), None)
            if failed is not None and has_names and names is not None:
                _note_column(err, object_keys(names, ctx.no_dots)[failed], failed)
            raise
    oldna = None if na is None or na == "NA" else na
    if ctx.dataframe == "rows" and has_names:
        na = "NA" if na is None else na
    if not nrow:
        return collapse([], inner=False, indent=ctx.indent) if ctx.collapse else np.array([], dtype=object)
    keys = object_keys(names, ctx.no_dots) if names is not None else []
    cell_ctx = ctx.but(collapse=False, na=na, oldna=oldna, indent=ctx.plus(ctx.indent), keep_vec_names=False)
    if ctx.collapse:
        ready = [c if type(c) in _READY else _row_cells(c, ctx) for c in columns]
        text = frame_text(keys, ready, nrow, ctx, cell_ctx, _sliceable, escaped)
        if text is not None:
            return text
    if ctx.collapse and nrow > CHUNK_ROWS and all(_sliceable(c) for c in columns):
        return _chunked_text(keys, columns, nrow, ctx, cell_ctx)
    pieces = _row_pieces(keys, columns, nrow, ctx, cell_ctx)
    if ctx.collapse:
        return pieces.text(ctx.indent)
    return pieces.rows()


CHUNK_ROWS = 131072
"""Frames with more rows are written this many rows at a time, so that only one chunk's tokens
are alive at once (the text of the finished chunks is all that accumulates)."""

_ROW_WISE_CLASSES = frozenset({"factor", "ordered", "Date"})
_ROW_WISE_TYPES = frozenset({"logical", "integer", "double", "character", "raw"})


def _sliceable(column: Any) -> bool:
    """Whether a column's cells are encoded one by one, so that encoding it in pieces of rows gives
    the same tokens (POSIXct and complex formats are chosen for a whole column: not these)."""
    if column.r_type not in _ROW_WISE_TYPES or "dim" in column.attributes:
        return False
    classes = explicit_class(column.attributes)
    if not classes:
        return True
    if not set(classes) <= _ROW_WISE_CLASSES:
        return False
    return not (column.inherits("Date") and (np.abs(column.data) > INT_MAX).any())


def _chunked_text(keys: list[str], columns: Sequence[Any], nrow: int, ctx: Ctx, cell_ctx: Ctx) -> str:
    """The collapsed rows, CHUNK_ROWS at a time."""
    bodies = []
    for start in range(0, nrow, CHUNK_ROWS):
        stop = min(nrow, start + CHUNK_ROWS)
        part = [rows_of(c, start, stop) for c in columns]
        bodies.append(_row_pieces(keys, part, stop - start, ctx, cell_ctx).body(ctx.indent))
    opening, sep, closing = row_delimiters(ctx.indent)
    return opening + sep.join(bodies) + closing


SMALL_ROWS = 16
"""Frames up to this many rows are assembled row by row in plain Python."""


def _small_rows(
    keys: list[str], columns: Sequence[Any], nrow: int, ctx: Ctx, cell_ctx: Ctx, as_objects: bool
) -> RowTexts:
    cells = []
    cell_ctx = cell_ctx.but(list_tokens=True)
    for j, column in enumerate(columns):
        try:
            out = ctx.encode(column, cell_ctx)
        except RValueError as err:
            _note_column(err, keys[j] if as_objects else None, j)
            raise
        tokens = [out] if isinstance(out, str) or out is None else out if type(out) is list else out.tolist()
        if len(tokens) != nrow:
            raise JsonliteError(
                f"values must be length {nrow},\n but FUN(X[[{j + 1}]]) result is length {len(tokens)}"
            )
        cells.append(tokens)
    if as_objects:
        return small_object_rows(keys, cells, nrow, ctx.plus(ctx.indent))
    return small_array_rows(cells, nrow, ctx.indent)


def _row_pieces(
    keys: list[str], columns: Sequence[Any], nrow: int, ctx: Ctx, cell_ctx: Ctx
) -> RowPieces | RowTexts:
    """Every row's pieces: objects (rows layout, named columns) or arrays."""
    columns = [c if type(c) in _READY else _row_cells(c, ctx) for c in columns]
    as_objects = ctx.dataframe == "rows" and len(keys) == len(columns)
    if nrow <= SMALL_ROWS:
        return _small_rows(keys, columns, nrow, ctx, cell_ctx, as_objects)
    rows = ObjectRows(nrow, ctx.plus(ctx.indent)) if as_objects else None
    cells = []
    for j, column in enumerate(columns):
        lead = rows.lead(keys[j]) if rows is not None else None
        try:
            out = ctx.encode(column, cell_ctx if lead is None else cell_ctx.but(prefix=lead))
        except RValueError as err:
            _note_column(err, keys[j] if as_objects else None, j)
            raise
        prefixed = isinstance(out, Prefixed)
        if prefixed:
            out = out.tokens
        out = np.array([out], dtype=object) if isinstance(out, str) or out is None else out
        if len(out) != nrow:
            raise JsonliteError(
                f"values must be length {nrow},\n but FUN(X[[{j + 1}]]) result is length {len(out)}"
            )
        if rows is not None:
            rows.add(keys[j], out, prefixed)
        else:
            cells.append(out)
    return rows.finish() if rows is not None else array_rows(cells, nrow, ctx.indent)


def _note_column(err: RValueError, key: str | None, j: int) -> None:
    """Say which column failed, in a note: the message itself stays jsonlite's."""
    label = f"column {j + 1}" if key is None else f"column {clip(key)} (column {j + 1})"
    err.add_note(f"while writing data frame {label}")


def _fails(column: Any, ctx: Ctx) -> bool:
    try:
        ctx.encode(column, ctx)
    except RValueError:
        return True
    return False
