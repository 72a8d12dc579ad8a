"""``from_arrow()``: Arrow data (pyarrow, polars, DuckDB, ...) as R data frames and vectors.

Accepted: pyarrow ``Table``, ``RecordBatch``, ``RecordBatchReader``, ``Array``, ``ChunkedArray`` and
``Scalar``, and any object with the Arrow PyCapsule interface (``__arrow_c_stream__`` or
``__arrow_c_array__``: polars DataFrame and Series, DuckDB relations, ...), read through pyarrow
without a copy. A table (or a stream of structs) is a data frame with automatic row names; an array
is a vector. Arrow's validity bitmap is R's NA; a NaN stays NaN. Types:

=============================================  ====================================================
Arrow                                          R
=============================================  ====================================================
int8, int16, int32, uint8, uint16              integer
int64, uint32, uint64                          integer when every value fits, else double (warning)
float16, float32, float64, decimal             double (decimals: the nearest double)
bool                                           logical
string, large_string, string_view              character
dictionary                                     factor (the dictionary's order; ordered -> ordered)
date32, date64                                 Date
timestamp[unit, tz]                            POSIXct, tzone the zone (naive, fixed offset: "UTC")
duration                                       difftime in seconds
null                                           logical NA
struct                                         a data frame column (fields as columns)
list (also large, fixed-size and views)       a list column (a null list: NULL)
=============================================  ====================================================

Anything else (map, union, interval, binary, time, ...) is an :class:`RValueError` naming the column
and its Arrow type. pyarrow is imported only when Arrow data arrives.

>>> import pyarrow as pa
>>> from_arrow(pa.table({"x": [1.5, None]})).names.data.tolist()
['x']
"""

from __future__ import annotations

from typing import Any

from rvalues.convert.arrow_columns import column, combined, pyarrow, struct_frame
from rvalues.convert.numpy import make_frame
from rvalues.convert.origins import remember
from rvalues.errors import RValueError
from rvalues.model.base import RValue
from rvalues.model.frames import automatic_row_names
from rvalues.model.strings import shorten

_CAPSULES = ("__arrow_c_stream__", "__arrow_c_array__")


def is_arrow(obj: Any) -> bool:
    """Whether ``obj`` is Arrow data: a pyarrow object, or one with the Arrow PyCapsule interface.

    Decided from the type alone, so pyarrow is never imported to ask.

    >>> is_arrow([1, 2])
    False
    """
    kind = type(obj)
    module = getattr(kind, "__module__", None)
    return (isinstance(module, str) and module.startswith("pyarrow.")) or any(
        hasattr(kind, name) for name in _CAPSULES
    )


def from_arrow(obj: Any, *, where: str = "Arrow array") -> RValue:
    """Convert Arrow data (see the module's table) to an R data frame or vector.

    >>> import pyarrow as pa
    >>> from_arrow(pa.array([1, None], pa.int64())).data.tolist()
    [1, -2147483648]
    """
    pa = pyarrow()
    if isinstance(obj, pa.RecordBatchReader):
        obj = obj.read_all()
    if isinstance(obj, pa.RecordBatch):
        obj = pa.Table.from_batches([obj])
    if isinstance(obj, pa.Table):
        return _table(obj)
    if isinstance(obj, pa.Scalar):
        obj = pa.array([obj], type=obj.type)
    if isinstance(obj, pa.ChunkedArray):
        array = combined(obj)
    elif isinstance(obj, pa.Array):
        array = obj
    elif hasattr(obj, "__arrow_c_stream__"):
        chunked = pa.chunked_array(obj)
        if pa.types.is_struct(chunked.type):  # a stream of record batches: a table
            batches = [pa.RecordBatch.from_struct_array(chunk) for chunk in chunked.chunks]
            return _table(pa.Table.from_batches(batches, schema=pa.schema(list(chunked.type))))
        array = combined(chunked)
    elif hasattr(obj, "__arrow_c_array__"):
        array = pa.array(obj)
    else:
        raise RValueError(
            f"from_arrow: cannot convert {type(obj).__module__}.{type(obj).__qualname__} "
            f"({shorten(obj)}); expected a pyarrow Table, RecordBatch, RecordBatchReader, Array, "
            "ChunkedArray or Scalar, or an object with __arrow_c_stream__ / __arrow_c_array__"
        )
    if pa.types.is_struct(array.type):
        return remember(struct_frame(array, where), arrow_type=array.type)
    return remember(column(array, where), arrow_type=array.type)


def _table(table: Any) -> RValue:
    """A table as a data frame: each column concatenated once and converted by its type."""
    names = table.column_names
    columns = [
        column(combined(chunked), f"column {shorten(name)}")
        for name, chunked in zip(names, table.columns, strict=True)
    ]
    frame = make_frame(names, columns, automatic_row_names(table.num_rows))
    return remember(frame, arrow_schema=table.schema)
