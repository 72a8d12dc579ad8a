"""R's coercion between atomic types (``as.vector(x, mode)``), as ``c()`` applies it.

Order: raw < logical < integer < double < complex < character < list. Each function keeps
NA typed as R does: logical or integer NA becomes NA_real_, NA_complex_ (both parts NA) or
NA_character_; double NA becomes ``complex(NA_real_, 0)`` (R 4.2.2) or NA_character_.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rvalues.errors import RValueError
from rvalues.format.complex_text import as_character_complex
from rvalues.format.real_text import as_character_double
from rvalues.model.elements import read_only
from rvalues.model.lists import List
from rvalues.model.vectors import ATOMIC_TYPES
from rvalues.na import NA_INTEGER, NA_REAL, real_is_na

TYPE_ORDER = ("NULL", "raw", "logical", "integer", "double", "complex", "character", "list")
"""R's hierarchy for ``c()`` and ``unlist()``."""


def highest_type(types: list[str]) -> str:
    """The type ``c()`` gives for arguments of these types."""
    return max(types, key=TYPE_ORDER.index, default="NULL")


def as_type(x: Any, r_type: str) -> Any:
    """``as.vector(x, r_type)`` for an atomic vector or a list, without attributes.

    >>> from rvalues import Integer
    >>> as_type(Integer([1, None]), "character")
    [1] "1" NA
    """
    if x.r_type == r_type:
        return x.without_attributes()
    if r_type == "list":
        return _as_list(x)
    if x.r_type == "list":
        return _list_as_atomic(x, r_type)
    if x.r_type == "NULL":
        return ATOMIC_TYPES[r_type]._wrap(read_only(np.array([], dtype=_DTYPES[r_type])))
    data = _CONVERT[(x.r_type, r_type)](x.data)
    return ATOMIC_TYPES[r_type]._wrap(read_only(data))


_DTYPES = {
    "logical": np.int32,
    "integer": np.int32,
    "double": np.float64,
    "complex": np.complex128,
    "character": object,
    "raw": np.uint8,
}


def _int_na(values: np.ndarray) -> np.ndarray:
    return values == NA_INTEGER


def int_to_double(values: np.ndarray) -> np.ndarray:
    out = values.astype(np.float64)
    out[_int_na(values)] = NA_REAL
    return out


def int_to_complex(values: np.ndarray) -> np.ndarray:
    out = values.astype(np.complex128)
    na = _int_na(values)
    out.real[na] = NA_REAL
    out.imag[na] = NA_REAL
    return out


def double_to_complex(values: np.ndarray) -> np.ndarray:
    out = np.empty(len(values), dtype=np.complex128)
    out.real = values
    out.imag = 0.0
    return out


# R: src/main/coerce.c StringFromLogical
def logical_to_character(values: np.ndarray) -> np.ndarray:
    out = np.where(values == 1, "TRUE", "FALSE").astype(object)
    out[_int_na(values)] = None
    return out


# R: src/main/coerce.c StringFromInteger
def integer_to_character(values: np.ndarray) -> np.ndarray:
    out = values.astype(str).astype(object)
    out[_int_na(values)] = None
    return out


def double_to_character(values: np.ndarray) -> np.ndarray:
    return as_character_double(values)


def complex_to_character(values: np.ndarray) -> np.ndarray:
    return as_character_complex(values)


_HEX = np.array([f"{i:02x}" for i in range(256)], dtype=object)


def raw_to_character(values: np.ndarray) -> np.ndarray:
    return _HEX[values]


def to_logical_from_number(values: np.ndarray) -> np.ndarray:
    out = (values != 0).astype(np.int32)
    out[np.isnan(values)] = NA_INTEGER
    return out


# R: src/main/coerce.c IntegerFromReal
def double_to_integer(values: np.ndarray) -> np.ndarray:
    out = np.full(len(values), NA_INTEGER, dtype=np.int32)
    ok = np.isfinite(values) & (np.abs(values) < 2**31)
    out[ok] = np.trunc(values[ok]).astype(np.int32)
    if (~ok & ~np.isnan(values)).any():
        raise RValueError("NAs introduced by coercion to integer range")
    return out


_CONVERT = {
    ("raw", "logical"): lambda v: (v != 0).astype(np.int32),
    ("raw", "integer"): lambda v: v.astype(np.int32),
    ("raw", "double"): lambda v: v.astype(np.float64),
    ("raw", "complex"): lambda v: v.astype(np.complex128),
    ("raw", "character"): raw_to_character,
    ("logical", "integer"): lambda v: v.copy(),
    ("logical", "double"): int_to_double,
    ("logical", "complex"): int_to_complex,
    ("logical", "character"): logical_to_character,
    ("integer", "logical"): lambda v: np.where(_int_na(v), NA_INTEGER, (v != 0)).astype(np.int32),
    ("integer", "double"): int_to_double,
    ("integer", "complex"): int_to_complex,
    ("integer", "character"): integer_to_character,
    ("double", "logical"): to_logical_from_number,
    ("double", "integer"): double_to_integer,
    ("double", "complex"): double_to_complex,
    ("double", "character"): double_to_character,
    ("complex", "character"): complex_to_character,
}


def _as_list(x: Any) -> Any:
    if x.r_type == "NULL":
        return List._wrap(())
    cls = ATOMIC_TYPES[x.r_type]
    data = x.data
    elements = tuple(cls._wrap(read_only(data[i : i + 1])) for i in range(len(data)))
    out = List._wrap(elements)
    if x.names is not None:
        out = List._wrap(elements, {"names": x.names})
    return out


def _list_as_atomic(x: Any, r_type: str) -> Any:
    parts = []
    for i, element in enumerate(x.data):
        if element.r_type == "list" or element.r_type == "NULL" or len(element) != 1:
            raise RValueError(
                f"(list) object cannot be coerced to type '{r_type}': element {i + 1} is "
                f"{'a list' if element.r_type == 'list' else f'of length {len(element)}'}"
            )
        parts.append(as_type(element, r_type).data)
    data = np.concatenate(parts) if parts else np.array([], dtype=_DTYPES[r_type])
    return ATOMIC_TYPES[r_type]._wrap(read_only(data.astype(_DTYPES[r_type])))


def na_of(r_type: str) -> Any:
    """The storage value of NA for an atomic type."""
    return {
        "logical": NA_INTEGER,
        "integer": NA_INTEGER,
        "double": NA_REAL,
        "complex": complex(NA_REAL, NA_REAL),
        "character": None,
    }[r_type]


__all__ = ["TYPE_ORDER", "as_type", "highest_type", "na_of", "real_is_na"]
