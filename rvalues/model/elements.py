"""Turning Python elements into R storage arrays, one atomic type at a time.

Each ``*_storage`` function takes what a user hands a constructor (a numpy array, or an
iterable of Python scalars, ``None`` and NA constants) and returns a new numpy array in R's
encoding, or raises :class:`RValueError` naming the element and the rule it breaks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

import numpy as np

from rvalues.errors import RValueError, shorten
from rvalues.model.base import RValue
from rvalues.model.storage import freeze
from rvalues.model.strings import check_strings, check_unicode_array
from rvalues.na import INT_MAX, NA_INTEGER, NA_REAL

_DOUBLE_MAX = float(np.finfo(np.float64).max)


def read_only(array: np.ndarray) -> np.ndarray:
    """Lock an array rvalues has just made as a value's storage (see :func:`rvalues.model.storage.freeze`)."""
    return freeze(array)


def is_na_element(value: Any) -> bool:
    """``None`` or a length-1 R vector holding NA: what every constructor takes as NA."""
    if value is None:
        return True
    if _is_vector(value) and len(value) == 1:
        return bool(value.na_mask()[0])  # type: ignore[attr-defined]
    return False


def scalar_of(value: Any) -> Any:
    """Unwrap a length-1 R vector into its Python element; anything else is returned as it is."""
    if _is_vector(value) and len(value) == 1:
        return value.tolist()[0]
    return value


_ATOMIC = frozenset({"logical", "integer", "double", "complex", "character", "raw"})


def _is_vector(value: Any) -> bool:
    """``isinstance(value, Vector)``, from the R type (vectors import this module)."""
    return isinstance(value, RValue) and value.r_type in _ATOMIC


def _as_list(values: Any, what: str) -> list[Any]:
    if isinstance(values, (str, bytes)) or not isinstance(values, Iterable):
        values = [values]
    return list(values)


def _convert_each(values: Any, what: str, convert: Callable[[Any], Any], na: Any, dtype: Any) -> np.ndarray:
    items = _as_list(values, what)
    out = np.empty(len(items), dtype=dtype)
    for i, item in enumerate(items):
        if is_na_element(item):
            out[i] = na
            continue
        try:
            out[i] = convert(scalar_of(item))
        except RValueError as err:
            raise RValueError(f"{what}: element {i} ({shorten(item)}) {err}") from None
    return out


def _logical(item: Any) -> int:
    if isinstance(item, (bool, np.bool_)):
        return int(item)
    raise RValueError("is not a logical (True, False, None or NA)")


def logical_storage(values: Any) -> np.ndarray:
    """Storage for a logical vector: int32 with 0, 1 and INT32_MIN for NA."""
    if isinstance(values, np.ndarray) and values.dtype == np.bool_:
        return values.ravel().astype(np.int32)
    return _convert_each(values, "Logical", _logical, NA_INTEGER, np.int32)


def _integer(item: Any) -> int:
    if isinstance(item, (bool, np.bool_)):
        return int(item)
    if isinstance(item, (int, np.integer)):
        value = int(item)
    elif isinstance(item, (float, np.floating)):
        if not np.isfinite(item) or float(item) != int(item):
            raise RValueError("is not a whole number; an Integer holds whole numbers, None or NA")
        value = int(item)
    else:
        raise RValueError("is not an integer (an int, None or NA)")
    if not -INT_MAX <= value <= INT_MAX:
        raise RValueError(
            f"is outside R's integer range [-{INT_MAX}, {INT_MAX}] (-2147483648 is R's NA); use a Double"
        )
    return value


def integer_storage(values: Any) -> np.ndarray:
    """Storage for an integer vector: int32 with INT32_MIN for NA."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "iub" and values.dtype.itemsize <= 8:
        flat = values.ravel()
        if flat.dtype.kind == "b":
            return flat.astype(np.int32)
        if flat.size and (flat.min() < -INT_MAX or flat.max() > INT_MAX):
            bad = int(np.flatnonzero((flat < -INT_MAX) | (flat > INT_MAX))[0])
            raise RValueError(
                f"Integer: element {bad} ({flat[bad]}) is outside R's integer range "
                f"[-{INT_MAX}, {INT_MAX}] (-2147483648 is R's NA); use a Double"
            )
        return flat.astype(np.int32)
    return _convert_each(values, "Integer", _integer, NA_INTEGER, np.int32)


def _double(item: Any) -> float:
    if isinstance(item, int) and not isinstance(item, bool) and abs(item) > _DOUBLE_MAX:
        raise RValueError("lies beyond the largest double (about 1.8e308); R cannot hold it")
    if isinstance(item, (bool, np.bool_, int, np.integer, float, np.floating)):
        return float(item)
    raise RValueError("is not a number (a float, an int, None or NA)")


def double_storage(values: Any) -> np.ndarray:
    """Storage for a double vector: float64, NA as R's NA_real_ bit pattern, NaN kept as NaN."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "biuf":
        return values.ravel().astype(np.float64)
    return _convert_each(values, "Double", _double, NA_REAL, np.float64)


def _complex(item: Any) -> complex:
    if isinstance(item, int) and not isinstance(item, bool) and abs(item) > _DOUBLE_MAX:
        raise RValueError("lies beyond the largest double (about 1.8e308); R cannot hold it")
    if isinstance(item, (bool, np.bool_, int, np.integer, float, np.floating, complex, np.complexfloating)):
        return complex(item)
    raise RValueError("is not a number (a complex, a float, an int, None or NA)")


NA_COMPLEX = complex(NA_REAL, NA_REAL)


def complex_storage(values: Any) -> np.ndarray:
    """Storage for a complex vector: complex128, NA as NA_real_ in both parts (R's NA_complex_)."""
    if isinstance(values, np.ndarray) and values.dtype.kind in "biufc":
        return values.ravel().astype(np.complex128)
    out = _convert_each(values, "Complex", _complex, 0j, np.complex128)
    items = _as_list(values, "Complex")
    na = np.fromiter((is_na_element(v) for v in items), dtype=bool, count=len(items))
    if na.any():
        out.real[na] = NA_REAL
        out.imag[na] = NA_REAL
    return out


def _character(item: Any) -> str:
    if isinstance(item, str):
        return str.__str__(item)  # a str subclass's own text (a str Enum's value, not its name)
    raise RValueError("is not a string (a str, None or NA)")


def character_storage(values: Any) -> np.ndarray:
    """Storage for a character vector: an object array of str, with None for NA_character_."""
    if isinstance(values, np.ndarray) and values.dtype.kind == "U":
        flat = values.ravel()
        check_unicode_array(flat)
        return freeze(flat.astype(object), checked=True)
    items = _as_list(values, "Character")
    if set(map(type, items)) <= _PLAIN_STRINGS:  # str and None only: nothing to convert one by one
        out = np.empty(len(items), dtype=object)
        out[:] = items
    else:
        out = _convert_each(items, "Character", _character, None, object)
    check_strings(out)
    return out


_PLAIN_STRINGS = frozenset({str, type(None)})


def check_encodable(strings: np.ndarray) -> None:
    """Refuse strings R cannot hold: embedded NULs, and lone surrogates (no UTF-8 encoding)."""
    check_strings(strings)


def _raw(item: Any) -> int:
    if isinstance(item, (int, np.integer)) and not isinstance(item, (bool, np.bool_)) and 0 <= item <= 255:
        return int(item)
    raise RValueError("is not a byte (an int from 0 to 255; raw vectors have no NA)")


def raw_storage(values: Any) -> np.ndarray:
    """Storage for a raw vector: uint8 (raw has no NA)."""
    if isinstance(values, (bytes, bytearray, memoryview)):
        return np.frombuffer(bytes(values), dtype=np.uint8).copy()
    if isinstance(values, np.ndarray) and values.dtype == np.uint8:
        return values.ravel().copy()
    items = _as_list(values, "Raw")
    out = np.empty(len(items), dtype=np.uint8)
    for i, item in enumerate(items):
        if item is None:
            raise RValueError(f"Raw: element {i} is None, but raw vectors have no NA")
        try:
            out[i] = _raw(scalar_of(item))
        except RValueError as err:
            raise RValueError(f"Raw: element {i} ({shorten(item)}) {err}") from None
    return out
