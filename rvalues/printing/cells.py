"""The cells of a list with a ``dim``: R prints each element as a short summary.

Length-1 atomic elements show their value (strings quoted, cut at 100 bytes with
``[truncated]``), other elements their type and length (``numeric,3``, ``list,2``, ``NULL``),
factors, dates and times of length 1 their formatted value.

>>> import numpy as np
>>> from rvalues.model.build import build
>>> cell_summary(build("double", np.array([1.0, 2.0]))), cell_summary(build("double", np.array([1.5])))
('numeric,2', '1.5')
"""

from __future__ import annotations

from typing import Any

from rvalues.format.complex_text import encode_complex, format_complex_info
from rvalues.format.real_text import encode_real, format_real_info
from rvalues.na import NA_INTEGER
from rvalues.printing.accessors import classes
from rvalues.printing.atomic import format_integer_width, format_logical_width
from rvalues.printing.frame import format_column_strings


def cell_summary(item: Any) -> str:
    """How one element of a list with dim shows in its cell (R's ``PrintGenericVector``)."""
    r_type = item.r_type
    n = len(item.data) if r_type != "NULL" else 0
    if classes(item):
        return _classed_cell_summary(item, n)
    if r_type == "NULL":
        return "NULL"
    if r_type in ("list",):
        return f"list,{n}"
    if r_type == "raw":
        return f"raw,{n}"
    if n != 1:
        label = {"double": "numeric"}.get(r_type, r_type)
        return f"{label},{n}"
    data = item.data
    if r_type == "logical":
        return _logical_word(int(data[0]), format_logical_width(data))
    if r_type == "integer":
        w = format_integer_width(data)
        return ("NA" if data[0] == NA_INTEGER else str(int(data[0]))).rjust(w)
    if r_type == "double":
        return str(encode_real(data, format_real_info(data))[0])
    if r_type == "complex":
        return str(encode_complex(data, format_complex_info(data))[0])
    value = "NA" if data[0] is None else data[0]
    if len(value.encode("utf-8")) < 100:
        return f'"{value}"'
    return '"' + _truncate_utf8(value, 99) + '" [truncated]'


def _truncate_utf8(text: str, limit: int) -> str:
    """The longest prefix of ``text`` whose UTF-8 encoding fits ``limit`` bytes."""
    return text.encode("utf-8")[:limit].decode("utf-8", errors="ignore")


def _classed_cell_summary(item: Any, n: int) -> str:
    """A classed cell: its ``format()`` when that is one short string, else ``class,length``."""
    cls = classes(item)
    if n == 1 and any(c in cls for c in ("factor", "Date", "POSIXct")):
        text = format_column_strings(item)[0]
        text = "NA" if text is None else text
        if len(text.encode("utf-8")) < 100:
            return text
    return f"{cls[0]},{n}"


def _logical_word(v: int, w: int) -> str:
    word = "NA" if v == NA_INTEGER else ("TRUE" if v else "FALSE")
    return word.rjust(w)
