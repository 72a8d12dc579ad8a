"""``matrix()`` and ``array()``: values in column-major order with a ``dim`` attribute."""

from __future__ import annotations

import math
import os
import warnings
from collections.abc import Iterable
from typing import Any

import numpy as np

from rvalues.construct.classed import as_vector, r_flag
from rvalues.errors import RValueError, shorten
from rvalues.model.base import RValue
from rvalues.model.build import build
from rvalues.model.coerce import na_of
from rvalues.model.elements import INT_MAX, read_only
from rvalues.model.lists import NULL
from rvalues.model.vectors import Character, Integer


def _vector_of(values: Any, what: str) -> Any:
    value = as_vector(values, what)
    if value.r_type == "NULL":
        raise RValueError(f"{what}(): 'data' must be of a vector type, was 'NULL'")
    return value


def _plain(value: Any) -> Any:
    """What R's ``as.vector`` makes of classed data: factors become their labels."""
    if value.inherits("factor"):
        return Character(value.labels())
    return value


def _fill(value: Any, n: int) -> Any:
    """``value``'s payload recycled (or NA-filled when empty) to ``n`` elements."""
    data = value.data
    if value.r_type == "list":
        items = list(data) or [NULL]
        return tuple((items * (n // len(items) + 1))[:n])
    if len(data) == 0:
        return np.full(n, na_of(value.r_type), dtype=data.dtype)
    return np.resize(data, n)


def _memory_bytes() -> int:
    """The machine's physical memory: no R value can be larger."""
    try:
        return os.sysconf("SC_PHYS_PAGES") * os.sysconf("SC_PAGE_SIZE")
    except (ValueError, OSError, AttributeError):
        return 2**63 - 1


def check_allocation(n: int, itemsize: int) -> None:
    """Refuse, before allocating, a vector larger than the machine's memory (R's allocation error)."""
    size = n * itemsize
    if size > _memory_bytes():
        raise RValueError(f"cannot allocate vector of size {size / 2**30:.1f} Gb ({n} elements)")


def extent(value: Any, label: str) -> int:
    """One extent (``nrow``, ``ncol`` or an element of ``dim``) as R's ``as.integer`` reads it.

    >>> extent(2.7, "nrow")
    2
    """
    if isinstance(value, RValue):
        if value.r_type not in ("logical", "integer", "double") or len(value) == 0:
            raise RValueError(f"non-numeric matrix extent for {label!r}: {shorten(value)}")
        value = value.tolist()[0]
    if value is None:
        raise RValueError(f"invalid '{label}' value (too large or NA)")
    if not isinstance(value, (int, float, np.integer, np.floating)):
        raise TypeError(f"'{label}' must be a number, not {type(value).__name__} ({shorten(value)})")
    if isinstance(value, (float, np.floating)) and not math.isfinite(value):
        raise RValueError(f"invalid '{label}' value (too large or NA): {value}")
    number = int(value)
    if number > INT_MAX:
        raise RValueError(f"invalid '{label}' value (too large or NA): {number} exceeds {INT_MAX}")
    if number < 0:
        raise RValueError(f"invalid '{label}' value (< 0): {number}")
    return number


def matrix(
    values: Any = (None,),
    nrow: int | None = None,
    ncol: int | None = None,
    byrow: bool = False,
    dimnames: Any = None,
) -> Any:
    """R's ``matrix(data, nrow, ncol, byrow, dimnames)``.

    >>> matrix([1, 2, 3, 4, 5, 6], nrow=2).dim
    (2, 3)
    """
    value = _plain(_vector_of(values, "matrix"))
    if value.inherits("data.frame"):
        raise RValueError("matrix(): use a vector or a list, not a data frame")
    n = len(value)
    nrow = None if nrow is None else extent(nrow, "nrow")
    ncol = None if ncol is None else extent(ncol, "ncol")
    if nrow is None and ncol is None:
        nrow, ncol = n, 1
    elif nrow is None:
        assert ncol is not None
        nrow = math.ceil(n / ncol) if ncol else 0
    elif ncol is None:
        ncol = math.ceil(n / nrow) if nrow else 0
    total = nrow * ncol
    check_allocation(total, value.data.dtype.itemsize if value.r_type != "list" else 8)
    if n > 1 and total % n != 0 and n % max(nrow, 1) != 0 and n % max(ncol, 1) != 0:
        warnings.warn(
            f"data length [{n}] is not a sub-multiple or multiple of the number of rows [{nrow}]",
            stacklevel=2,
        )
    elif n > total and total > 0:
        warnings.warn(f"data length differs from size of matrix: [{n} != {nrow} x {ncol}]", stacklevel=2)
    filled = _fill(value, total)
    if r_flag(byrow, "byrow"):
        if value.r_type == "list":
            filled = tuple(filled[i * ncol + j] for j in range(ncol) for i in range(nrow))
        else:
            filled = np.asarray(filled).reshape(nrow, ncol).T.ravel()
    return _with_dim(value, filled, [nrow, ncol], dimnames)


def array(values: Any = (None,), dim: Any = None, dimnames: Any = None) -> Any:
    """R's ``array(data, dim, dimnames)``; ``dim`` defaults to the length (a 1-d array).

    >>> array(list(range(1, 25)), dim=(2, 3, 4)).dim
    (2, 3, 4)
    """
    value = _plain(_vector_of(values, "array"))
    if dim is None:
        extents = [len(value)]
    elif isinstance(dim, (int, float, np.integer, np.floating)):
        extents = [extent(dim, "dim")]
    else:
        if isinstance(dim, (str, bytes)) or not isinstance(dim, (RValue, Iterable)):
            raise TypeError(f"'dim' must be a sequence of extents, not {type(dim).__name__} ({shorten(dim)})")
        extents = [extent(d, "dim") for d in (dim.tolist() if isinstance(dim, RValue) else dim)]
    if not extents:
        raise RValueError("'dims' cannot be of length 0")
    total = math.prod(extents)
    check_allocation(total, value.data.dtype.itemsize if value.r_type != "list" else 8)
    return _with_dim(value, _fill(value, total), extents, dimnames)


def _with_dim(value: Any, filled: Any, extents: list[int], dimnames: Any) -> Any:
    payload = filled if value.r_type == "list" else read_only(np.asarray(filled, dtype=value.data.dtype))

    plain = build(value.r_type, payload, {})
    changes: dict[str, Any] = {"dim": Integer(extents)}
    if dimnames is not None:
        changes["dimnames"] = dimnames
    return plain.with_attributes(changes)
