"""R's ``identical()``: same type, same elements (NA apart from NaN), same attributes as a set."""

from __future__ import annotations

from typing import Any

import numpy as np

from rvalues.na import NA_REAL, real_is_na


# R: src/main/identical.c R_compute_identical
def same_value(x: Any, y: Any) -> bool:
    """Whether two R values are identical as R's ``identical(x, y)`` (default arguments) says.

    Both must be R values (:func:`rvalues.model.base.identical` checks that, for any two objects).
    Doubles compare with ``==`` except that NA equals NA, NaN equals NaN and NA differs from
    NaN; ``0`` and ``-0`` are identical. Attribute order does not matter.

    >>> from rvalues import Double, NA_real_, c
    >>> same_value(c(1, NA_real_), Double([1.0, None])), same_value(NA_real_, Double([float("nan")]))
    (True, False)
    """
    if x.r_type != y.r_type or len(x.data) != len(y.data):
        return False
    if not _same_attributes(x.attributes, y.attributes):
        return False
    if x.r_type == "list":
        return all(same_value(a, b) for a, b in zip(x.data, y.data))
    if x.r_type == "double":
        return _same_doubles(x.data, y.data)
    if x.r_type == "complex":
        return _same_doubles(x.data.real, y.data.real) and _same_doubles(x.data.imag, y.data.imag)
    if x.r_type == "character":
        return bool(x.data.tolist() == y.data.tolist())
    return bool(np.array_equal(x.data, y.data))


def _same_doubles(a: np.ndarray, b: np.ndarray) -> bool:
    na_a, na_b = real_is_na(a), real_is_na(b)
    nan_a, nan_b = np.isnan(a) & ~na_a, np.isnan(b) & ~na_b
    if not (np.array_equal(na_a, na_b) and np.array_equal(nan_a, nan_b)):
        return False
    numbers = ~np.isnan(a)
    return bool(np.array_equal(a[numbers], b[numbers]))


def _same_attributes(a: Any, b: Any) -> bool:
    if a.keys() != b.keys():
        return False
    return all(same_value(a[k], b[k]) for k in a)


def value_hash(x: Any) -> int:
    """A hash consistent with :func:`same_value` (identical values hash alike)."""
    attributes = frozenset((k, value_hash(v)) for k, v in x.attributes.items())
    if x.r_type == "list":
        payload: Any = tuple(value_hash(v) for v in x.data)
    elif x.r_type == "character":
        payload = tuple(x.data.tolist())
    elif x.r_type in ("double", "complex"):
        payload = _canonical(np.asarray(x.data)).tobytes()
    elif x.r_type == "NULL":
        payload = ()
    else:
        payload = np.asarray(x.data).tobytes()
    return hash((x.r_type, payload, attributes))


def _canonical(values: np.ndarray) -> np.ndarray:
    if values.dtype.kind == "c":
        return np.stack([_canonical(values.real), _canonical(values.imag)])
    out = values.copy()
    out[out.view(np.uint64) == np.uint64(1 << 63)] = 0.0  # -0 is identical to 0
    na = real_is_na(values)
    out[np.isnan(values)] = np.nan
    out[na] = NA_REAL
    return out
