"""The JSON jsonlite's ``print.scalar`` shows after ``[x]`` for an unboxed atomic value.

It is ``asJSON(x, collapse = FALSE)`` with asJSON's own defaults (``digits = 5``; NA as ``null``
for logicals and numbers, ``"NA"`` for strings). The JSON module's encoder is used when it is
importable; otherwise a small local encoder covers the common cases.

>>> import numpy as np
>>> from rvalues.model.vectors import Logical
>>> scalar_json(Logical._wrap(np.array([1], dtype=np.int32)))
'true'
"""

from __future__ import annotations

import json
from typing import Any

import numpy as np

from rvalues.model.na import NA_INTEGER, real_is_na


def scalar_json(x: Any) -> str:
    """The JSON text of a length-1 atomic value (several values are joined with commas)."""
    try:
        from rvalues.json import to_json
    except ImportError:
        return local_scalar_json(x)
    return str(to_json(x, auto_unbox=True, digits=5))


def local_scalar_json(x: Any) -> str:
    """The fallback encoder: jsonlite's rules for the common cases only."""
    from rvalues.printing.values import classes

    cls = classes(x)
    if "factor" in cls or "Date" in cls or "POSIXct" in cls:
        from rvalues.printing.frame import format_column_strings

        texts = format_column_strings(x)
        return ",".join("null" if t is None else json.dumps(t, ensure_ascii=False) for t in texts)
    return ",".join(_element_json(x, i) for i in range(len(x.data)))


def _element_json(x: Any, i: int) -> str:
    r_type = x.r_type
    value = x.data[i]
    if r_type == "logical":
        return "null" if value == NA_INTEGER else ("true" if value else "false")
    if r_type == "integer":
        return '"NA"' if value == NA_INTEGER else str(int(value))
    if r_type == "double":
        one = x.data[i : i + 1]
        if real_is_na(one)[0]:
            return '"NA"'
        if np.isnan(one[0]):
            return '"NaN"'
        if np.isinf(one[0]):
            return '"Inf"' if one[0] > 0 else '"-Inf"'
        return _number(float(one[0]))
    if r_type == "character":
        return "null" if value is None else json.dumps(value, ensure_ascii=False)
    if r_type == "raw":
        return json.dumps(f"{value:02x}")
    if r_type == "complex":
        from rvalues.format.complex import format_complex

        return json.dumps(str(format_complex(x.data[i : i + 1], 5)[0]))
    return "null"


def _number(v: float) -> str:
    """jsonlite's number text at ``digits = 5``: up to 5 decimals, trailing zeros dropped;
    very large or small magnitudes as R writes them (``1e+20``, ``1e-10``)."""
    if v == int(v) and abs(v) < 1e15:
        return str(int(v))
    if abs(v) >= 1e15 or abs(v) < 1e-5:
        from rvalues.format.real import as_character_double

        return str(as_character_double(np.array([v]))[0])
    return f"{v:.5f}".rstrip("0").rstrip(".")
