"""Setting attributes with R's rules: coercion of the special ones and their validity checks."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import numpy as np

from rvalues.errors import RValueError, shorten
from rvalues.model.base import RValue
from rvalues.model.bindings import BOUND
from rvalues.model.classes import explicit_class
from rvalues.model.coerce import as_type
from rvalues.model.elements import read_only
from rvalues.model.frames import column_length, row_count
from rvalues.model.lists import NULL, List
from rvalues.model.strings import check_text
from rvalues.model.vectors import Character, Integer, Vector
from rvalues.na import NA_INTEGER


def merge_attributes(value: RValue, changes: Mapping[str, Any]) -> dict[str, RValue]:
    """The attributes of ``value`` after ``changes``, in R's order.

    An existing attribute keeps its place when replaced, a new one is appended, and one set
    to ``None`` or ``NULL`` is removed (as ``attr(x, name) <- NULL`` does).
    """
    merged = dict(value.attributes)
    for name, new in changes.items():
        if not isinstance(name, str) or not name:
            raise RValueError(f"attribute names must be non-empty strings, not {shorten(name)}")
        check_text(name, "an attribute name")
        if new is None or new is NULL:
            merged.pop(name, None)
            continue
        merged[name] = coerce_attribute(value, name, new, merged)
    _check_consistency(value, merged)
    return merged


def _to_r(new: Any) -> RValue:
    if isinstance(new, RValue):
        return new
    if isinstance(new, (list, tuple)) and all(not isinstance(v, (list, tuple, dict)) for v in new):
        return BOUND.c(*new) if new else BOUND.as_r([])  # type: ignore[no-any-return]
    return BOUND.as_r(new)  # type: ignore[no-any-return]


def coerce_attribute(value: RValue, name: str, new: Any, merged: Mapping[str, RValue]) -> RValue:
    """Coerce and check one attribute as R's ``attr<-`` does."""
    r_new = _to_r(new)
    n = len(value.data)
    if name == "names":
        if not isinstance(r_new, Vector) and not isinstance(r_new, List):
            raise RValueError(f"'names' must be a character vector, not {r_new.r_type}")
        names = as_type(r_new.without_attributes(), "character")
        if len(names) > n:
            raise RValueError(f"'names' attribute [{len(names)}] must be the same length as the vector [{n}]")
        if len(names) < n:
            padded = np.full(n, None, dtype=object)
            padded[: len(names)] = names.data
            names = Character._wrap(read_only(padded))
        return names
    if name == "dim":
        if not isinstance(r_new, Vector) or r_new.r_type not in ("logical", "integer", "double"):
            raise RValueError(f"'dim' must be a numeric vector of extents, not {r_new.r_type}")
        dim = as_type(r_new.without_attributes(), "integer")
        extents = dim.data
        if len(extents) == 0:
            raise RValueError("length-0 dimension vector is invalid")
        if (extents == NA_INTEGER).any():
            raise RValueError("the dims contain missing or negative values")
        if (extents < 0).any():
            raise RValueError("the dims contain negative values")
        product = int(np.prod(extents.astype(np.int64)))
        if product != n:
            raise RValueError(f"dims [product {product}] do not match the length of object [{n}]")
        return dim
    if name == "dimnames":
        return _dimnames(r_new, merged)
    if name in ("class", "levels", "tzone"):
        if not isinstance(r_new, Vector):
            raise RValueError(f"'{name}' must be a character vector, not {r_new.r_type}")
        if name == "class":
            if r_new.r_type != "character" or r_new.na_mask().any():
                raise RValueError(f"attempt to set invalid 'class' attribute: {shorten(r_new.tolist())}")
            return r_new.without_attributes()
        return r_new
    if name == "row.names":
        return _row_names(r_new)
    return r_new


def _dimnames(r_new: RValue, merged: Mapping[str, RValue]) -> RValue:
    dim = merged.get("dim")
    if dim is None:
        raise RValueError("'dimnames' applied to non-array")
    if not isinstance(r_new, List):
        raise RValueError(f"'dimnames' must be a list, not {r_new.r_type}")
    extents = dim.data.tolist()
    if len(r_new) != len(extents):
        raise RValueError(f"length of 'dimnames' [{len(r_new)}] must match that of 'dims' [{len(extents)}]")
    parts = []
    for k, (part, extent) in enumerate(zip(r_new.data, extents)):
        if part is NULL:
            parts.append(NULL)
            continue
        names = as_type(part.without_attributes(), "character")
        if len(names) != extent:
            raise RValueError(f"length of 'dimnames' [{k + 1}] not equal to array extent")
        parts.append(names)
    out = List._wrap(tuple(parts))
    if r_new.names is not None:
        out = out.with_attributes({"names": r_new.names})
    return out


def _row_names(r_new: RValue) -> RValue:
    if r_new.r_type not in ("integer", "character"):
        raise RValueError(f"row names must be 'character' or 'integer', not '{r_new.r_type}'")
    r_new = r_new.without_attributes()
    if isinstance(r_new, Integer):
        values = r_new.data
        n = len(values)
        compact = n == 2 and values[0] == NA_INTEGER
        if not compact and n > 2 and np.array_equal(values, np.arange(1, n + 1)):
            # attr(x, "row.names") <- 1:n stores R's compact form c(NA, n) once that is shorter
            return Integer._wrap(read_only(np.array([NA_INTEGER, n], dtype=np.int32)))
    return r_new


def _check_consistency(value: RValue, merged: dict[str, RValue]) -> None:
    if "dimnames" in merged and "dim" not in merged:
        del merged["dimnames"]
    check_class_invariants(value.r_type, value.data, merged)


def check_class_invariants(r_type: str, data: Any, attributes: Mapping[str, RValue]) -> None:
    """Refuse what R refuses for classed values (factors must be integer codes with levels)."""
    classes = explicit_class(attributes)
    if "factor" in classes:
        if r_type != "integer":
            raise RValueError(f'adding class "factor" to an invalid object (a {r_type} vector)')
        levels = attributes.get("levels")
        if levels is not None:
            codes = np.asarray(data)
            valid = codes != NA_INTEGER
            if valid.any() and (codes[valid].min() < 1 or codes[valid].max() > len(levels.data)):
                raise RValueError(
                    f"factor codes must lie in 1..{len(levels.data)} (the number of levels) or be NA"
                )
    if "data.frame" in classes and r_type == "list":
        _check_data_frame(data, attributes)


def _check_data_frame(columns: tuple[Any, ...], attributes: Mapping[str, RValue]) -> None:
    row_names = attributes.get("row.names")
    if row_names is None:
        return
    n = row_count(row_names)
    for i, column in enumerate(columns):
        length = column_length(column)
        if length != n:
            names = attributes.get("names")
            label = names.data[i] if names is not None and i < len(names.data) else str(i + 1)
            raise RValueError(
                f"data frame column {shorten(label)} has {length} rows but the row names say {n}"
            )
