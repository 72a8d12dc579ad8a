"""``matrix()`` and ``array()``: values in column-major order with a ``dim`` attribute."""

from __future__ import annotations

import math
import warnings
from typing import Any

import numpy as np

from rvalues.construct.classed import as_vector
from rvalues.errors import RValueError
from rvalues.model.coerce import na_of
from rvalues.model.elements import read_only
from rvalues.model.lists import NULL
from rvalues.model.vectors import Integer


def _plain(value: Any) -> Any:
    """What R's ``as.vector`` makes of classed data: factors become their labels."""
    if value.inherits("factor"):
        from rvalues.model.vectors import Character

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
    value = _plain(as_vector(values, "matrix"))
    if value.inherits("data.frame"):
        raise RValueError("matrix(): use a vector or a list, not a data frame")
    n = len(value)
    if nrow is None and ncol is None:
        nrow, ncol = n, 1
    elif nrow is None:
        assert ncol is not None
        nrow = math.ceil(n / ncol) if ncol else 0
    elif ncol is None:
        ncol = math.ceil(n / nrow) if nrow else 0
    for label, extent in (("nrow", nrow), ("ncol", ncol)):
        if extent < 0:
            raise RValueError(f"invalid '{label}' value (< 0): {extent}")
    total = nrow * ncol
    if n > 1 and total % n != 0 and n % max(nrow, 1) != 0 and n % max(ncol, 1) != 0:
        warnings.warn(
            f"data length [{n}] is not a sub-multiple or multiple of the number of rows [{nrow}]",
            stacklevel=2,
        )
    elif n > total and total > 0:
        warnings.warn(f"data length differs from size of matrix: [{n} != {nrow} x {ncol}]", stacklevel=2)
    filled = _fill(value, total)
    if byrow:
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
    value = _plain(as_vector(values, "array"))
    if dim is None:
        extents = [len(value)]
    elif isinstance(dim, (int, np.integer)):
        extents = [int(dim)]
    else:
        extents = [int(d) for d in (dim.data if hasattr(dim, "data") else dim)]
    if any(d < 0 for d in extents):
        raise RValueError(f"'dim' cannot contain negative values: {extents}")
    total = int(np.prod(extents)) if extents else 0
    return _with_dim(value, _fill(value, total), extents, dimnames)


def _with_dim(value: Any, filled: Any, extents: list[int], dimnames: Any) -> Any:
    from rvalues.model.build import build

    payload = filled if value.r_type == "list" else read_only(np.asarray(filled, dtype=value.data.dtype))

    plain = build(value.r_type, payload, {})
    changes: dict[str, Any] = {"dim": Integer(extents)}
    if dimnames is not None:
        changes["dimnames"] = dimnames
    return plain.with_attributes(changes)
