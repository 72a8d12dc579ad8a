"""``from_numpy()``: numpy arrays (and masked and structured arrays) as R vectors, arrays and data frames.

Rules (every conversion is one vectorized pass, or one copy):

- bool -> logical; int8..uint64 -> integer when every value lies in R's range
  [-2147483647, 2147483647] (INT32_MIN is R's NA), else double with an
  :class:`IntegerOverflowWarning` (and a :class:`PrecisionWarning` where a value past 2**53 was rounded).
  Native int32 is copied as it is.
- float16/32/64 -> double: NaN stays NaN, a float64 carrying R's NA bit pattern is NA; float64 is
  copied as it is; long double is rounded with a :class:`PrecisionWarning` where inexact.
- complex64/128 -> complex; ``U``/``T`` (StringDType, its ``na_object`` -> NA) -> character;
  ``S`` -> character decoded as UTF-8; ``O`` -> inferred (:mod:`rvalues.convert.objects`).
- datetime64[Y|M|W|D] -> Date; finer units -> POSIXct with tzone "UTC"; timedelta64 -> difftime in
  "secs"; NaT -> NA.
- A masked array's masked elements are NA. A structured array is a data frame (one column a field).
- 0-d -> length 1; 1-d -> plain vector; n-d -> the values in column-major order with ``dim``.
- Results never share memory with the input: writable input is copied once (values are immutable).

>>> import numpy as np
>>> from_numpy(np.array([[1, 2, 3], [4, 5, 6]], dtype=np.int32)).data.tolist()
[1, 4, 2, 5, 3, 6]
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import numpy as np

from rvalues.convert.objects import from_objects
from rvalues.convert.origins import remember
from rvalues.convert.typed import read_typed
from rvalues.errors import RValueError, shorten
from rvalues.model.base import RValue
from rvalues.model.build import build, labels
from rvalues.model.elements import INT_MAX
from rvalues.model.frames import automatic_row_names
from rvalues.model.vectors import Character

_FRAME_CLASS = Character(["data.frame"])


def from_numpy(obj: Any, *, where: str = "array") -> RValue:
    """Convert a numpy array, masked array, structured array or numpy scalar to an R value.

    ``where`` names the value in error messages (pandas passes ``"column 'x'"``).

    >>> import numpy as np
    >>> from_numpy(np.array([1.5, np.nan])).data.tolist()
    [1.5, nan]
    """
    mask: np.ndarray | None = None
    if isinstance(obj, np.ma.MaskedArray):
        mask = np.ma.getmaskarray(obj)
        a = np.ma.getdata(obj)
    else:
        try:
            a = np.asarray(obj)
        except (ValueError, TypeError, RecursionError) as err:
            raise RValueError(
                f"{where}: numpy cannot make an array of {shorten(obj)} ({str(err)[:120]}); "
                "pass a numpy array, or use as_r() for Python containers"
            ) from None
    if a.dtype.names is not None:
        if a.ndim > 1:
            raise RValueError(
                f"{where}: a structured array with {a.ndim} dimensions cannot become a data frame; "
                "pass a 1-d structured array (e.g. a.ravel())"
            )
        return remember(_structured(a.reshape(-1), mask, where), dtype=a.dtype, shape=a.shape)
    shape = a.shape
    if a.ndim >= 2:
        flat = a.ravel(order="F")
        flat_mask = None if mask is None else mask.ravel(order="F")
    else:
        flat = a.reshape(-1)
        flat_mask = None if mask is None else mask.reshape(-1)
    value = convert_flat(flat, flat_mask, where)
    if a.ndim >= 2:
        if any(extent > INT_MAX for extent in shape):
            raise RValueError(f"{where}: an extent of shape {shape} exceeds R's limit of {INT_MAX}")
        dim = build("integer", np.array(shape, dtype=np.int32))
        value = build(value.r_type, value.data, {"dim": dim, **value.attributes})
    return remember(value, dtype=_native_dtype(a.dtype), shape=shape)


def _native_dtype(dtype: np.dtype) -> np.dtype:
    """The dtype a round trip gives back: the same, in native byte order."""
    return dtype if dtype.names is not None or dtype.kind in "OT" else dtype.newbyteorder("=")


def convert_flat(flat: np.ndarray, mask: np.ndarray | None, where: str) -> RValue:
    """A 1-d array (``mask``: True where missing, or None) as a plain R vector."""
    if flat.dtype.kind == "O":
        return from_objects(flat, mask, where)
    return read_typed(flat, mask, where)


def make_frame(names: Sequence[str | None], columns: Sequence[RValue], row_names: RValue) -> RValue:
    """A data frame from already converted, equally long columns (no checks, no copies)."""
    try:
        name_vector = labels(names)
    except RValueError as err:
        raise RValueError(f"column names: {err}") from None
    return build(
        "list", tuple(columns), {"names": name_vector, "class": _FRAME_CLASS, "row.names": row_names}
    )


def _structured(a: np.ndarray, mask: np.ndarray | None, where: str) -> RValue:
    names = list(a.dtype.names or ())
    columns = []
    for name in names:
        field = a[name]
        field_mask = None if mask is None else mask[name]
        label = f"{where} field {shorten(name)}"
        if field.ndim > 1:
            raise RValueError(
                f"{label}: a sub-array field of shape {field.shape[1:]} cannot be a data-frame column; "
                "split it into scalar fields"
            )
        if field.dtype.names is not None:
            columns.append(_structured(field, field_mask, label))
        else:
            masked = field if field_mask is None else np.ma.MaskedArray(field, mask=field_mask)
            columns.append(from_numpy(masked, where=label))
    return make_frame(names, columns, automatic_row_names(len(a)))
