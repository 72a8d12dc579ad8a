"""Encoder for data frames (jsonlite's asJSON method for data.frame): rows, columns or values.

Each column is encoded once to an array of tokens (one per row); rows are then assembled for all
rows at once, omitting NA cells in rows mode.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

import numpy as np

from rvalues.json.atomic import Prefixed
from rvalues.json.context import Ctx
from rvalues.json.lists import encode_list, object_keys
from rvalues.json.options import JsonliteError
from rvalues.json.pretty import ObjectRows, array_rows, collapse

_DIGITS = re.compile(r"[0-9]+")


def encode_frame(x: Any, ctx: Ctx) -> Any:
    """A data frame in rows, columns or values layout, with jsonlite's row-name rule."""
    from rvalues.model.frames import expanded_row_names, row_count
    from rvalues.model.vectors import Integer

    names_attr = x.attributes.get("names")
    names: list[str | None] | None = None if names_attr is None else names_attr.data.tolist()
    columns = list(x.data)
    row_names = x.attributes.get("row.names")
    nrow = 0 if row_names is None else row_count(row_names)
    has_names = (0 if names is None else len(names)) == len(columns)
    if row_names is None:
        row_names = Integer._wrap(np.array([], dtype=np.int32))
    if _wants_row_names(ctx.rownames, row_names) and has_names:
        shown = expanded_row_names(row_names)
        names = list(names or [])
        if "_row" in names:
            columns[names.index("_row")] = shown
        else:
            # `[[<-.data.frame` makes the names unique when it appends a column
            names = _make_unique_names([*names, "_row"])
            columns.append(shown)
    return encode_frame_columns(names, columns, nrow, ctx, has_names=has_names)


def _make_unique_names(names: list[str | None]) -> list[str | None]:
    from rvalues.model.names import make_unique

    present = [n for n in names if n is not None]
    fixed = iter(make_unique(present))
    return [None if n is None else next(fixed) for n in names]


def _wants_row_names(rownames: bool | None, row_names: Any) -> bool:
    if rownames is not None:
        return rownames
    if row_names.r_type != "character":
        return False
    return not all(v is not None and _DIGITS.fullmatch(v) for v in row_names.data.tolist())


def _prepare(column: Any, ctx: Ctx) -> Any:
    """Per-column conversions jsonlite makes before encoding the rows."""
    from rvalues.model.lists import List

    if isinstance(column, List) and not column.inherits("data.frame"):
        if column.attributes.get("names") is not None:
            column = column.with_attributes({"names": None})
        if column.inherits("POSIXlt"):
            from rvalues.json.classed import posixlt_seconds

            seconds, tzone = posixlt_seconds(column)
            return _posixct(seconds, tzone)
    return column


def _posixct(seconds: np.ndarray, tzone: str | None) -> Any:
    from rvalues.model.vectors import Character, Double

    attrs: dict[str, Any] = {"class": Character._wrap(np.array(["POSIXct", "POSIXt"], dtype=object))}
    if tzone is not None:
        attrs["tzone"] = Character._wrap(np.array([tzone], dtype=object))
    return Double._wrap(seconds, attrs)


def _row_cells(column: Any, ctx: Ctx) -> Any:
    """Raw columns become hex strings; with complex="list", complex columns nested frames."""
    from rvalues.json.atomic import hex_strings
    from rvalues.model.vectors import Character, Double

    if column.r_type == "raw":
        kept = {k: v for k, v in column.attributes.items() if k in ("names", "dim", "dimnames")}
        return Character._wrap(hex_strings(column.data), kept)
    if ctx.complex == "list" and column.r_type == "complex":
        from rvalues.model.frames import automatic_row_names
        from rvalues.model.lists import List

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
                Double._wrap(np.ascontiguousarray(part[j * n : (j + 1) * n]))
                for part in (real, imag)
                for j in range(k)
            )
            names = [f"{p}.{label}" for p in ("real", "imaginary") for label in labels]
        else:
            n = len(column.data)
            parts = (Double._wrap(real), Double._wrap(imag))
            names = ["real", "imaginary"]
        return List._wrap(
            parts,
            {
                "names": Character._wrap(np.array(names, dtype=object)),
                "class": Character._wrap(np.array(["data.frame"], dtype=object)),
                "row.names": automatic_row_names(n),
            },
        )
    return column


def encode_frame_columns(
    names: Sequence[str | None] | None,
    columns: Sequence[Any],
    nrow: int,
    ctx: Ctx,
    has_names: bool | None = None,
) -> Any:
    """The data-frame method from its columns on (``x`` already has its ``_row`` column)."""
    from rvalues.json.dispatch import encode

    if has_names is None:
        has_names = names is not None and len(names) == len(columns)
    columns = [_prepare(c, ctx) for c in columns]
    na = ctx.na
    if ctx.dataframe == "columns":
        child = ctx.but(is_df=True, oldna=None, collapse=True, keep_vec_names=False)
        return encode_list(columns, names, child)
    oldna = None if na is None or na == "NA" else na
    if ctx.dataframe == "rows" and has_names:
        na = "NA" if na is None else na
    if not nrow:
        return collapse([], inner=False, indent=ctx.indent) if ctx.collapse else np.array([], dtype=object)
    columns = [_row_cells(c, ctx) for c in columns]
    keys = object_keys(names) if names is not None else []
    cell_ctx = ctx.but(collapse=False, na=na, oldna=oldna, indent=ctx.plus(ctx.indent), keep_vec_names=False)
    as_objects = ctx.dataframe == "rows" and len(keys) == len(columns)
    rows = ObjectRows(nrow, ctx.plus(ctx.indent)) if as_objects else None
    cells = []
    for j, column in enumerate(columns):
        lead = rows.lead(keys[j]) if rows is not None else None
        out = encode(column, cell_ctx if lead is None else cell_ctx.but(prefix=lead))
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
    pieces = rows.finish() if rows is not None else array_rows(cells, nrow, ctx.indent)
    if ctx.collapse:
        return pieces.text(ctx.indent)
    return pieces.rows()
