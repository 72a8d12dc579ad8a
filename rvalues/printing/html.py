"""An HTML table for a data frame (``_repr_html_`` in notebooks): row names, column types, escaped.

Cells are the strings R's ``format.data.frame`` gives (NA as ``<NA>`` where print shows it), and a
second header row names each column's type the way tibble abbreviates them (``<int>``, ``<dbl>``,
``<chr>``, ``<fct>``, ``<date>``, ...).

>>> import numpy as np
>>> from rvalues.model.build import build
>>> df = build("list", (build("integer", np.array([1, 2], dtype=np.int32)),), {
...     "names": build("character", np.array(["x"], dtype=object)),
...     "class": build("character", np.array(["data.frame"], dtype=object)),
...     "row.names": build("integer", np.array([-(2**31), -2], dtype=np.int32))})
>>> "<td>1</td>" in format_html(df)
True
"""

from __future__ import annotations

from html import escape
from typing import Any

from rvalues.printing.accessors import classes, row_count, row_names, strings
from rvalues.printing.frame import format_column

MAX_ROWS = 60
"""Rows shown before the table is cut (the first and last halves are kept)."""

_TYPE_ABBREVIATIONS = {
    "logical": "lgl",
    "integer": "int",
    "double": "dbl",
    "complex": "cpl",
    "character": "chr",
    "raw": "raw",
    "list": "list",
}


def column_type(column: Any) -> str:
    """A column's type as tibble shows it: ``int``, ``dbl``, ``chr``, ``fct``, ``ord``, ``date``, ``dttm``."""
    cls = classes(column)
    if "ordered" in cls:
        return "ord"
    if "factor" in cls:
        return "fct"
    if "Date" in cls:
        return "date"
    if "POSIXct" in cls:
        return "dttm"
    if "data.frame" in cls:
        return "df"
    if "dim" in column.attributes and column.r_type != "list":
        return _TYPE_ABBREVIATIONS[column.r_type] + "[,]"
    return _TYPE_ABBREVIATIONS.get(column.r_type, column.r_type)


def format_html(df: Any, max_rows: int = MAX_ROWS) -> str:
    """An HTML ``<table>`` of a data frame, with a caption giving its dimensions."""
    n = row_count(df)
    names = strings(df.attributes.get("names")) or []
    labels: list[str] = []
    types: list[str] = []
    columns: list[list[str | None]] = []
    for name, column in zip(names, df.data, strict=True):
        values, sub_names = format_column(column, n)
        kind = column_type(column)
        if sub_names is None:
            labels.append("" if name is None else name)
            types.append(kind)
            columns.append(values[0])
        else:
            for sub, part in zip(sub_names, values, strict=True):
                labels.append(f"{name}.{sub}")
                types.append(kind)
                columns.append(part)
    rows = row_names(df)
    shown = list(range(n))
    cut = n > max_rows
    if cut:
        half = max_rows // 2
        shown = [*range(half), -1, *range(n - half, n)]
    out = [
        '<table class="rvalues-data-frame">',
        f"<caption>A data.frame: {n} &times; {len(columns)}</caption>",
        "<thead>",
        "<tr><th></th>" + "".join(f"<th>{escape(label)}</th>" for label in labels) + "</tr>",
        "<tr><th></th>" + "".join(f"<th>&lt;{escape(t)}&gt;</th>" for t in types) + "</tr>",
        "</thead>",
        "<tbody>",
    ]
    for i in shown:
        if i < 0:
            out.append(f'<tr><th>&vellip;</th><td colspan="{len(columns)}">&vellip;</td></tr>')
            continue
        cells = "".join(f"<td>{_cell(col[i])}</td>" for col in columns)
        out.append(f"<tr><th>{escape(rows[i])}</th>{cells}</tr>")
    out += ["</tbody>", "</table>"]
    return "\n".join(out)


def _cell(value: str | None) -> str:
    if value is None:
        return '<span class="na">&lt;NA&gt;</span>'
    return escape(value.strip())
