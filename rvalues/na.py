"""R's missing-value encodings, as numpy bit patterns, and the integer range they bound.

The lowest layer with ``rvalues.errors``: the number formatting (``rvalues.format``) and the
value model both read it.

R stores logical and integer NA as INT32_MIN, and double NA (``NA_real_``) as a NaN
whose low 32-bit word is 1954. Every other NaN is an ordinary ``NaN``. R tests only
the low word (``R_IsNA``), so a quieted NA (``0x7FF80000000007A2``) is still NA.
"""

from __future__ import annotations

import struct

import numpy as np

NA_INTEGER = np.int32(-(2**31))
"""Logical and integer NA: INT32_MIN."""

INT_MAX = 2**31 - 1
"""The largest R integer (R's ``.Machine$integer.max``); INT32_MIN is NA, so -INT_MAX is the least."""

NA_REAL_BITS = np.uint64(0x7FF00000000007A2)
NA_REAL = np.array([NA_REAL_BITS], dtype=np.uint64).view(np.float64)[0]
"""Double NA: R's ``NA_real_`` (``R_ValueOfNA``)."""

_LOW_WORD = np.uint64(0xFFFFFFFF)
_NA_LOW_WORD = np.uint64(1954)


# R: src/main/arithmetic.c R_IsNA
def real_is_na(values: np.ndarray) -> np.ndarray:
    """Where a float64 array holds R's NA (not NaN): ``is.na(x) & !is.nan(x)``.

    >>> real_is_na(np.array([1.0, NA_REAL, float("nan")]))
    array([False,  True, False])
    """
    values = np.asarray(values, dtype=np.float64)
    bits = values.view(np.uint64)
    return np.isnan(values) & ((bits & _LOW_WORD) == _NA_LOW_WORD)


# R: src/main/arithmetic.c R_IsNaN
def real_is_nan(values: np.ndarray) -> np.ndarray:
    """Where a float64 array holds a NaN that is not R's NA (``is.nan``)."""
    values = np.asarray(values, dtype=np.float64)
    bits = values.view(np.uint64)
    return np.isnan(values) & ((bits & _LOW_WORD) != _NA_LOW_WORD)


_DOUBLE = struct.Struct("<d")
_LOW = struct.Struct("<I")  # the low word of a little-endian double
_NA_LOW = int(_NA_LOW_WORD)


# R: src/main/arithmetic.c R_IsNA
def is_na_float(value: float) -> bool:
    """Whether one Python float is R's NA (a NaN whose low word is 1954), without numpy.

    >>> is_na_float(float(NA_REAL)), is_na_float(float("nan")), is_na_float(1954.0)
    (True, False, False)
    """
    return value != value and _LOW.unpack_from(_DOUBLE.pack(value))[0] == _NA_LOW
