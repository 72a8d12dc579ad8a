"""Accessors of R values for the printers: class, dim, dimnames, names, row names, zone, units.

They read attributes directly, so printing works for any value of the model whatever its
Python class.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rvalues.format.real_text import as_character_double
from rvalues.format.timezones import tzone_of
from rvalues.model.build import build
from rvalues.model.classes import explicit_class
from rvalues.na import NA_INTEGER


def classes(x: Any) -> tuple[str, ...]:
    """The class attribute (R's ``oldClass``), or an empty tuple."""
    return explicit_class(x.attributes)


def strings(x: Any) -> list[str | None] | None:
    """A character (or other atomic) attribute as a list of str (None for NA); NULL as None."""
    if x is None or x.r_type == "NULL":
        return None
    if x.r_type == "character":
        return list(x.data.tolist())
    if x.r_type == "double":
        return list(as_character_double(x.data).tolist())
    if x.r_type in ("integer", "logical"):
        pairs = zip(x.data.tolist(), (x.data == NA_INTEGER).tolist(), strict=True)
        if x.r_type == "logical":
            return [None if m else ("TRUE" if v else "FALSE") for v, m in pairs]
        return [None if m else str(v) for v, m in pairs]
    return [str(v) for v in x.tolist()]


def dimnames(x: Any) -> tuple[list[list[str | None] | None] | None, list[str | None] | None]:
    """The dimnames as lists of labels (None for a NULL component), and their names (or None)."""
    dn = x.attributes.get("dimnames")
    if dn is None:
        return None, None
    parts = [strings(part) for part in dn.data]
    names = dn.attributes.get("names")
    return parts, (None if names is None else strings(names))


def row_names(x: Any) -> list[str]:
    """A data frame's row names as R's ``row.names(x)`` gives them (compact forms expanded)."""
    rn = x.attributes.get("row.names")
    if rn is None:
        return []
    data = rn.data
    if rn.r_type == "integer" and len(data) == 2 and data[0] == NA_INTEGER:
        return [str(i) for i in range(1, abs(int(data[1])) + 1)]
    labels = strings(rn) or []
    return ["NA" if v is None else v for v in labels]


def row_count(x: Any) -> int:
    """The number of rows of a data frame."""
    rn = x.attributes.get("row.names")
    if rn is None:
        return len(x.data[0]) if len(x.data) else 0
    data = rn.data
    if rn.r_type == "integer" and len(data) == 2 and data[0] == NA_INTEGER:
        return abs(int(data[1]))
    return len(data)


def bare(x: Any, keep: tuple[str, ...] = ()) -> Any:
    """The same payload with only the attributes named in ``keep`` (no validation: for printing)."""
    return build(x.r_type, x.data, {k: v for k, v in x.attributes.items() if k in keep})


def with_class(x: Any, new_classes: tuple[str, ...]) -> Any:
    """The value with its class attribute replaced (removed when empty), other attributes kept."""
    attributes = dict(x.attributes)
    if new_classes:
        attributes["class"] = character(new_classes)
    else:
        attributes.pop("class", None)
    return build(x.r_type, x.data, attributes)


def character(values: Sequence[str | None], attributes: dict[str, Any] | None = None) -> Any:
    """A character vector for printing (no validation)."""
    return build("character", np.array(values, dtype=object), attributes)


def rows_head(x: Any, k: int) -> Any:
    """The first ``k`` elements (or rows, for a matrix or data frame) of a value, for printing only.

    Per-element attributes (names, row names, dimnames) are cut to match; others are kept.
    """
    attributes = dict(x.attributes)
    if "data.frame" in classes(x):
        columns = tuple(rows_head(column, k) for column in x.data)
        labels = row_names(x)[:k]
        attributes["row.names"] = character(labels)
        return build("list", columns, attributes)
    dim = attributes.get("dim")
    if dim is not None and len(dim.data) == 2:
        nrow, ncol = (int(v) for v in dim.data.tolist())
        data = np.concatenate([x.data[j * nrow : j * nrow + k] for j in range(ncol)]) if ncol else x.data[:0]
        attributes["dim"] = build("integer", np.array([k, ncol], dtype=np.int32))
        dn = attributes.get("dimnames")
        if dn is not None and dn.data and dn.data[0].r_type != "NULL":
            first = dn.data[0]
            parts = (build(first.r_type, first.data[:k], first.attributes), *dn.data[1:])
            attributes["dimnames"] = build("list", parts, dn.attributes)
        return build(x.r_type, data, attributes)
    names = attributes.get("names")
    if names is not None:
        attributes["names"] = build(names.r_type, names.data[:k], names.attributes)
    if x.r_type == "list":
        return build("list", tuple(x.data[:k]), attributes)
    return build(x.r_type, x.data[:k], attributes)


def tzone(x: Any) -> str:
    """The ``tzone`` attribute's first element, or ``""`` (the local zone)."""
    return tzone_of(x.attributes) or ""


def difftime_units(x: Any) -> str:
    """The ``units`` attribute's first element (``NA`` when it has none, as ``paste`` shows it)."""
    units = strings(x.attributes.get("units"))
    return units[0] if units and units[0] is not None else "NA"
