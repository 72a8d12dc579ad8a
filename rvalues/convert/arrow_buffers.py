"""Arrow's fixed-width buffers as R's storage: shared read-only where R's bits are Arrow's, else filled
with R's NA in one pass (compiled, or Arrow's kernels) into a buffer of Arrow's pool.

>>> import pyarrow as pa
>>> filled(pa.array([1.5, None])).tolist()[0]
1.5
"""

from __future__ import annotations

import functools
import importlib
from types import ModuleType
from typing import Any

import numpy as np

from rvalues._speedups import writer as compiled
from rvalues.errors import RValueError
from rvalues.lazy import import_pyarrow
from rvalues.model.storage import freeze, lock_shared
from rvalues.na import NA_INTEGER, NA_REAL

_SHARE_FROM = 4096
"""Numbers of at least this many bytes share Arrow's buffer; fewer are copied (see ``shared``)."""


@functools.cache
def pyarrow() -> ModuleType:
    """pyarrow, imported when the first Arrow value arrives (``import rvalues`` never imports it)."""
    try:
        return import_pyarrow()
    except ImportError:
        raise RValueError(
            "converting Arrow data needs pyarrow: pip install 'rvalues-mcplite[arrow]'"
        ) from None


@functools.cache
def compute() -> ModuleType:
    """pyarrow.compute, whose kernels fill nulls into a new buffer of Arrow's pool in one pass."""
    return importlib.import_module("pyarrow.compute")


def missing(array: Any) -> np.ndarray | None:
    """True where the validity bitmap says null (None when nothing is): the bitmap unpacked by numpy."""
    if not array.null_count:
        return None
    validity = array.buffers()[0]
    if validity is None:  # the null type: every element is null
        return np.ones(len(array), dtype=bool)
    start = array.offset
    bits = np.unpackbits(np.frombuffer(validity, dtype=np.uint8), count=start + len(array), bitorder="little")
    out: np.ndarray = bits[start:] == 0
    return out


def values(array: Any) -> np.ndarray:
    """The fixed-width values buffer as numpy, without a copy (values under nulls are arbitrary)."""
    kind = array.type
    numeric = pyarrow().types.is_integer(kind) or pyarrow().types.is_floating(kind)
    dtype = np.dtype(kind.to_pandas_dtype() if numeric else f"int{kind.bit_width}")  # dates, times: ints
    return values_of_width(array, dtype)


def filled(array: Any) -> np.ndarray:
    """An int32 or float64 array as locked storage, nulls as R's NA (and R's NA bit pattern kept): the
    array's own buffer without nulls, else a new one filled in one pass (compiled, or Arrow's kernel).

    >>> import pyarrow as pa
    >>> filled(pa.array([1, None, 3], pa.int32())).tolist()
    [1, -2147483648, 3]
    """
    kind = array.type
    is_double = kind == pyarrow().float64()
    if array.null_count:
        done = compiled_fill(array, compiled.ARROW_FLOAT64 if is_double else compiled.ARROW_INT32)
        if done is not None:  # None: not compiled, or an int32 that is R's NA bit pattern (kept below)
            return done
        na = NA_REAL if is_double else NA_INTEGER
        array = compute().fill_null(array, pyarrow().scalar(na, kind))
    return shared(array, np.dtype(kind.to_pandas_dtype()))


def compiled_fill(array: Any, kind: int, per: int = 0) -> np.ndarray | None:
    """R's storage of ``array`` by the compiled pass over Arrow's buffers, locked; None where it does not
    run, or where a valid int32 is R's NA bit pattern (the caller's own path tells those from nulls).
    A large result lives in a buffer of Arrow's pool, as ``fill_null``'s would: its pages are reused,
    where numpy's fresh memory is faulted in anew on every call (about half the time, at 1M rows).

    >>> import pyarrow as pa
    >>> out = compiled_fill(pa.array([1, None], pa.int32()), compiled.ARROW_INT32)
    >>> out is None or out.tolist() == [1, NA_INTEGER]
    True
    """
    if not compiled.available() or not len(array):
        return None
    dtype = np.dtype(np.int32 if kind in (compiled.ARROW_INT32, compiled.ARROW_CODES) else np.float64)
    size = len(array) * dtype.itemsize
    buffer = pyarrow().allocate_buffer(size) if size >= _SHARE_FROM else None
    out = np.empty(len(array), dtype=dtype) if buffer is None else np.frombuffer(buffer, dtype=dtype)
    clashes = compiled.arrow_fill(out, array, kind, per)
    if clashes is None or clashes:
        return None
    if buffer is None:
        return freeze(out)
    return lock_shared(np.frombuffer(memoryview(buffer).toreadonly(), dtype=dtype))


def shared(array: Any, dtype: np.dtype) -> np.ndarray:
    """The values buffer as locked storage without a copy: read-only, and keeping Arrow's buffer alive.

    >>> import pyarrow as pa
    >>> shared(pa.array([1.5, 2.5]), np.dtype(np.float64)).flags.writeable
    False
    """
    values = values_of_width(array, dtype)
    if values.nbytes < _SHARE_FROM:  # a copy: cheaper, and a short slice holds no large buffer alive
        return freeze(values)
    buffer = memoryview(array.buffers()[1]).toreadonly()  # Arrow's memory may be mutable; R's is not
    at = array.offset * dtype.itemsize
    return lock_shared(np.frombuffer(buffer, dtype=dtype, count=len(array), offset=at))


def values_of_width(array: Any, dtype: np.dtype) -> np.ndarray:
    buffer = array.buffers()[1]
    if buffer is None or not len(array):
        return np.zeros(len(array), dtype=dtype)
    return np.frombuffer(buffer, dtype=dtype, count=len(array), offset=array.offset * dtype.itemsize)
