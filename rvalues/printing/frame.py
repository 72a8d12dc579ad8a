"""R's ``print.data.frame``: each column formatted (``format.data.frame``), then printed as a
character matrix, unquoted and right-aligned, with the row names on the left.

>>> from rvalues.model.build import build
>>> format_column_strings(build("double", np.array([1.5, 10.0])))
[' 1.5', '10.0']
"""

from __future__ import annotations

from typing import Any, cast

import numpy as np

import rvalues.printing.options as options
from rvalues.format.complex_text import as_character_complex, encode_complex, format_complex_info
from rvalues.format.datetime import format_date, format_posixct
from rvalues.format.real_text import as_character_double, encode_real, format_real_info
from rvalues.model.build import build
from rvalues.na import NA_INTEGER
from rvalues.printing.accessors import (
    classes,
    difftime_units,
    row_count,
    row_names,
    rows_head,
    strings,
    tzone,
)
from rvalues.printing.atomic import encode_atomic
from rvalues.printing.matrix import print_matrix
from rvalues.printing.vector import print_vector


def print_data_frame(x: Any, row_labels: list[str] | None = None) -> list[str]:
    """The lines R prints for a data frame (``row_labels`` replaces the row names)."""
    n = row_count(x)
    ncol = len(x.data)
    if ncol == 0:
        return [f"data frame with 0 columns and {n} row{'' if n == 1 else 's'}"]
    names = strings(x.attributes.get("names")) or [""] * ncol
    if n == 0:
        header = print_vector("character", np.array(names, dtype=object), quote=False)
        return [*header, "<0 rows> (or 0-length row.names)"]
    n0 = options.MAX_PRINT // ncol
    omitted = n - n0 if n0 < n else 0
    shown = n - omitted
    columns: list[list[str | None]] = []
    labels: list[str | None] = []
    for name, column in zip(names, x.data, strict=True):
        formatted, sub_names = format_column(_head(column, shown) if omitted else column, shown)
        if sub_names is None:
            columns.append(formatted[0])
            labels.append(name)
        else:
            for sub, values in zip(sub_names, formatted, strict=True):
                columns.append(values)
                labels.append(f"{name}.{sub}" if name else sub)
    cells = np.array([v for col in columns for v in col], dtype=object)
    rows = row_labels if row_labels is not None else row_names(x)[:shown]
    lines = print_matrix(
        "character", cells, shown, len(columns), rows, labels, None, None, quote=False, right=True
    )
    if omitted:
        lines.append(f""" [ reached 'max' / getOption("max.print") -- omitted {omitted} rows ]""")
    return lines


def _head(column: Any, k: int) -> Any:
    """The first ``k`` rows of a column (``x[seq_len(k), , drop = FALSE]``), attributes kept."""
    return rows_head(column, k)


def format_column(column: Any, n: int) -> tuple[list[list[str | None]], list[str] | None]:
    """``format()`` of one column: its strings (None where R keeps NA), and sub-column names
    for matrix and data-frame columns (None for an ordinary column)."""
    cls = classes(column)
    if "data.frame" in cls:
        sub_names = strings(column.attributes.get("names")) or []
        out = []
        for sub in column.data:
            values, _ = format_column(sub, n)
            out.append(values[0])
        return out, [s or "" for s in sub_names]
    dim = column.attributes.get("dim")
    if dim is not None and len(dim.data) == 2 and column.r_type != "list":
        nrow, ncol = (int(v) for v in dim.data.tolist())
        texts = format_column_strings(column)
        parts = [texts[j * nrow : (j + 1) * nrow] for j in range(ncol)]
        dn = column.attributes.get("dimnames")
        col_names = strings(dn.data[1]) if dn is not None else None
        return parts, [c or "" for c in col_names] if col_names else [str(j + 1) for j in range(ncol)]
    return [format_column_strings(column)], None


def format_column_strings(column: Any) -> list[str | None]:
    """R's ``format(column, na.encode = FALSE, justify = "none")`` for one data-frame column."""
    cls = classes(column)
    r_type = column.r_type
    data = column.data
    if "factor" in cls:
        levels = strings(column.attributes.get("levels")) or []
        table = np.array([*levels, None], dtype=object)
        valid = (data != NA_INTEGER) & (data >= 1) & (data <= len(levels))
        return table[np.where(valid, data - 1, len(levels))].tolist()
    if "Date" in cls:
        return format_date(data).tolist()
    if "POSIXct" in cls:
        return format_posixct(data, tzone(column)).tolist()
    if "difftime" in cls:
        # format.difftime: paste(format(unclass(x)), units(x))
        units = difftime_units(column)
        amounts = format_column_strings(build(r_type, data))
        return [f"{'NA' if t is None else t} {units}" for t in amounts]
    if r_type == "character":
        return list(data.tolist())
    if r_type == "list":
        return _format_asis_list(column)
    if r_type == "double":
        return encode_real(data, format_real_info(data)).tolist()
    if r_type == "complex":
        return encode_complex(data, format_complex_info(data)).tolist()
    if r_type == "raw":
        return [f"{v:02x}" for v in data.tolist()]
    texts, _ = encode_atomic(r_type, data)
    return cast("list[str | None]", texts)  # a fresh list: no one holds it as list[str]


def _format_asis_list(column: Any) -> list[str | None]:
    """``format.AsIs`` of a list column: ``toString(element, width = 12)``, right-justified."""
    texts = []
    for item in column.data:
        pieces = _as_character(item)
        text = ", ".join("NA" if p is None else p for p in pieces)
        if len(text) > 12:
            text = text[:8] + "...."
        texts.append(text)
    width = max((len(t) for t in texts), default=0)
    return [t.rjust(width) for t in texts]


def _as_character(item: Any) -> list[str | None]:
    r_type = item.r_type
    if r_type == "double":
        return list(as_character_double(item.data).tolist())
    if r_type == "complex":
        return list(as_character_complex(item.data).tolist())
    if r_type == "NULL":
        return []
    if r_type == "list":
        return [", ".join(str(p) for p in _as_character(v)) for v in item.data]
    if r_type == "raw":
        return [f"{v:02x}" for v in item.data.tolist()]
    return strings(item) or []
