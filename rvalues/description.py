"""An R value's rdesc: the exact, language-neutral description of it that the R side also writes.

``{"type": typeof, "values": [...], "attributes": {name: rdesc}}``, with doubles as
``"%.17g"`` strings (or ``"NA"``, ``"NaN"``, ``"Inf"``, ``"-Inf"``), NA as null, complex
values as ``[re, im]`` pairs (null where either part is NA or NaN, as R's ``is.na``), and data
frames' row names in R's internal form. The R twin is ``tests/r/rdesc.R``.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rvalues.errors import RValueError, shorten
from rvalues.model.base import RValue
from rvalues.model.build import build
from rvalues.model.elements import read_only
from rvalues.model.lists import NULL
from rvalues.na import NA_INTEGER, NA_REAL, real_is_na, real_is_nan

_SPECIAL = {"NA": NA_REAL, "NaN": float("nan"), "Inf": float("inf"), "-Inf": float("-inf")}


def describe(x: RValue) -> dict[str, Any]:
    """The rdesc of an R value (a JSON-ready dict).

    >>> from rvalues import c, NA_real_
    >>> describe(c(1.5, NA_real_))
    {'type': 'double', 'values': ['1.5', 'NA']}
    """
    if x.r_type == "NULL":
        return {"type": "NULL"}
    out: dict[str, Any] = {"type": x.r_type, "values": _describe_values(x)}
    if x.attributes:
        out["attributes"] = {name: describe(value) for name, value in x.attributes.items()}
    return out


def _doubles(values: np.ndarray) -> list[str]:
    out = ["%.17g" % v for v in values.tolist()]
    for i in np.flatnonzero(real_is_na(values)).tolist():
        out[i] = "NA"
    for i in np.flatnonzero(real_is_nan(values)).tolist():
        out[i] = "NaN"
    for i in np.flatnonzero(np.isinf(values)).tolist():
        out[i] = "Inf" if values[i] > 0 else "-Inf"
    return out


def _describe_values(x: RValue) -> list[Any]:
    data = x.data
    if x.r_type in ("logical", "integer"):
        return [None if v == NA_INTEGER else (bool(v) if x.r_type == "logical" else v) for v in data.tolist()]
    if x.r_type == "double":
        return _doubles(data)
    if x.r_type == "complex":
        na = np.isnan(data.real) | np.isnan(data.imag)
        pairs = [list(p) for p in zip(_doubles(data.real), _doubles(data.imag))]
        return [None if missing else pair for pair, missing in zip(pairs, na.tolist())]
    if x.r_type == "character":
        return list(data.tolist())
    if x.r_type == "raw":
        return [int(v) for v in data.tolist()]
    if x.r_type == "list":
        return [describe(v) for v in data]
    raise RValueError(f"describe: unsupported type {x.r_type}")


def _parse_double(text: str) -> float:
    return _SPECIAL[text] if text in _SPECIAL else float(text)


def from_description(d: dict[str, Any]) -> RValue:
    """Build the R value an rdesc describes, exactly (attributes in their order, no coercion).

    A description whose values R could not hold (text where an integer belongs, an integer beyond
    R's range) is an :class:`RValueError`.

    >>> from_description({"type": "integer", "values": [1, None]})
    [1]  1 NA
    >>> from_description({"type": "integer", "values": ["1.5"]})  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    rvalues.errors.RValueError: from_description: not a value R could hold: ...
    """
    try:
        return _from_description(d)
    except RValueError:
        raise
    except (TypeError, ValueError, KeyError, OverflowError, AttributeError) as err:
        raise RValueError(f"from_description: not a value R could hold: {shorten(d)} ({err})") from None


def _from_description(d: dict[str, Any]) -> RValue:
    r_type = d["type"]
    values = d.get("values", [])
    if r_type == "NULL":
        return NULL
    data: Any
    if r_type == "logical":
        data = np.array([NA_INTEGER if v is None else int(v) for v in values], dtype=np.int32)
    elif r_type == "integer":
        data = np.array([NA_INTEGER if v is None else v for v in values], dtype=np.int32)
    elif r_type == "double":
        data = np.array([_parse_double(v) for v in values], dtype=np.float64)
    elif r_type == "complex":
        pairs = [
            (NA_REAL, NA_REAL) if v is None else (_parse_double(v[0]), _parse_double(v[1])) for v in values
        ]
        data = np.empty(len(pairs), dtype=np.complex128)
        data.real = [re for re, _ in pairs]  # set part by part, so NA_real_'s bits survive
        data.imag = [im for _, im in pairs]
    elif r_type == "character":
        data = np.array(list(values), dtype=object) if values else np.array([], dtype=object)
    elif r_type == "raw":
        data = np.array(values, dtype=np.uint8)
    elif r_type == "list":
        data = tuple(_from_description(v) for v in values)
    else:
        raise RValueError(f"from_description: unsupported type {shorten(r_type)}")
    if r_type != "list":
        data = read_only(data)
    attributes = {name: _from_description(a) for name, a in (d.get("attributes") or {}).items()}
    # as built, not checked again: structure() lets R hold values its constructors would refuse
    return build(r_type, data, attributes)  # type: ignore[no-any-return]
