"""``to_arrow(x)``: R values as Arrow data, the inverse of :func:`rvalues.convert.arrow.from_arrow`.

A data frame becomes a ``pyarrow.Table`` (row names are not kept), a vector a ``pyarrow.Array``;
polars (``pl.from_arrow``) and DuckDB (``duckdb.arrow``) read both without a copy. NA becomes
null; a NaN stays NaN.

=============  ================================================================================
R              Arrow
=============  ================================================================================
logical        bool
integer        int32
double         float64
character      string
raw            uint8
factor         dictionary<int32, string> (ordered kept)
Date           date32
POSIXct        timestamp[us, tzone] (no tzone: the process's zone)
difftime       duration[us]
list           list<the elements' common type> (NULL: a null list)
data.frame     a struct column inside a data frame, a Table at the top
=============  ================================================================================

A value that :func:`from_arrow` made, and that has not been changed since (every change makes a new
value), gets its Arrow types back (int64 stays int64, string_view stays string_view).

>>> from rvalues.construct import data_frame
>>> to_arrow(data_frame(x=[1, None])).column("x").to_pylist()
[1, None]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rvalues.convert.arrow_buffers import pyarrow
from rvalues.convert.origins import origin_of
from rvalues.errors import RValueError
from rvalues.format.timezones import local_zone_name, tzone_of
from rvalues.model.base import RValue
from rvalues.model.classes import explicit_class
from rvalues.model.frames import row_count
from rvalues.model.lists import NULL
from rvalues.model.strings import shorten
from rvalues.na import NA_INTEGER, real_is_na

_SECONDS = {"secs": 1, "mins": 60, "hours": 3600, "days": 86400, "weeks": 604800}


def to_arrow(x: RValue) -> Any:
    """An R data frame as a ``pyarrow.Table``, an R vector or list as a ``pyarrow.Array``.

    >>> from rvalues.construct import c
    >>> to_arrow(c(1.5, None)).type
    DataType(double)
    """
    if not isinstance(x, RValue):
        raise RValueError(f"to_arrow: expected an R value (rvalues.as_r() makes one), not {shorten(x)}")
    origin = origin_of(x)
    if "data.frame" in explicit_class(x.attributes):
        return _table(x, origin.get("arrow_schema"))
    return _cast(array(x, "value"), origin.get("arrow_type"))


def _table(frame: RValue, schema: Any) -> Any:
    pa = pyarrow()
    names = _names(frame)
    columns = [array(col, f"column {shorten(name)}") for name, col in zip(names, frame.data, strict=True)]
    if schema is not None and schema.names == names:
        columns = [_cast(col, field.type) for col, field in zip(columns, schema, strict=True)]
    if not columns:  # no columns, but the rows stay counted
        return pa.table({"_": pa.nulls(row_count(frame.attributes["row.names"]))}).drop_columns(["_"])
    return pa.Table.from_arrays(columns, names=names)


def _cast(values: Any, kind: Any) -> Any:
    """``values`` as the Arrow type it came from, where Arrow can cast it back; else as it is."""
    if kind is None or values.type == kind:
        return values
    pa = pyarrow()
    if pa.types.is_null(kind) and values.null_count == len(values):
        return pa.nulls(len(values))
    if pa.types.is_list_view(kind) or pa.types.is_large_list_view(kind):  # Arrow cannot cast to views
        return _views(values, kind)
    names = [field.name for field in kind] if pa.types.is_struct(kind) else None  # no .names in pyarrow 17
    if names is not None and pa.types.is_struct(values.type) and [f.name for f in values.type] == names:
        fields = [_cast(values.field(i), field.type) for i, field in enumerate(kind)]  # views inside too
        same = all(f.type == field.type for f, field in zip(fields, kind, strict=True))
        given = {"fields": list(kind)} if same else {"names": names}
        return pa.StructArray.from_arrays(fields, mask=values.is_null(), **given)
    try:
        return values.cast(kind)
    except pa.ArrowNotImplementedError:
        if pa.types.is_string_view(kind):  # pyarrow 17 casts no string to string_view; it builds them
            return pa.array(values.to_numpy(zero_copy_only=False), kind)
        return values
    except pa.ArrowInvalid:
        return values


def _views(values: Any, kind: Any) -> Any:
    """A list array (of offset 0, as :func:`_list` makes) as the list view type ``kind``, its child
    cast to the view's child type (a view in a view too) where Arrow can."""
    pa = pyarrow()
    child = _cast(values.values, kind.value_type)
    offsets = values.offsets.to_numpy().astype(np.int64)
    width = pa.int32() if pa.types.is_list_view(kind) else pa.int64()
    views = pa.ListViewArray if pa.types.is_list_view(kind) else pa.LargeListViewArray
    starts, sizes = pa.array(offsets[:-1], width), pa.array(np.diff(offsets), width)
    given = kind if child.type == kind.value_type else None
    return views.from_arrays(starts, sizes, child, type=given, mask=values.is_null())


def array(x: RValue, where: str) -> Any:
    """One R vector, list or data frame (a struct) as a ``pyarrow.Array``."""
    pa = pyarrow()
    classes = explicit_class(x.attributes)
    if "dim" in x.attributes:
        raise RValueError(f"{where}: a matrix or array has no Arrow equivalent; make it a data frame first")
    if "data.frame" in classes:
        names = _names(x)
        fields = [array(col, f"{where} column {shorten(n)}") for n, col in zip(names, x.data, strict=True)]
        if not fields:
            return pa.array([{}] * row_count(x.attributes["row.names"]), pa.struct([]))
        return pa.StructArray.from_arrays(fields, names=names)
    r_type = x.r_type
    if r_type == "list":
        return _list(x, where)
    data = x.data
    if "factor" in classes:
        levels = x.attributes["levels"].data
        codes = pa.array(data - 1, type=pa.int32(), mask=data == NA_INTEGER)
        dictionary = pa.array(levels, type=pa.string())
        return pa.DictionaryArray.from_arrays(codes, dictionary, ordered="ordered" in classes)
    if "Date" in classes:
        days = np.floor(np.nan_to_num(data)).astype(np.int32)
        return pa.array(days, type=pa.date32(), mask=np.isnan(data))
    if "POSIXct" in classes:
        zone = tzone_of(x.attributes) or local_zone_name()
        return pa.array(_micros(data, 1), type=pa.timestamp("us", tz=zone), mask=np.isnan(data))
    if "difftime" in classes:
        unit = x.attributes["units"].data[0]
        return pa.array(_micros(data, _SECONDS[unit]), type=pa.duration("us"), mask=np.isnan(data))
    if r_type == "logical":
        return pa.array(data == 1, type=pa.bool_(), mask=data == NA_INTEGER)
    if r_type == "integer":
        return pa.array(data, type=pa.int32(), mask=data == NA_INTEGER)
    if r_type == "double":
        return pa.array(data, type=pa.float64(), mask=real_is_na(data))  # NaN stays a value
    if r_type == "character":
        return pa.array(data, type=pa.string())  # None is null
    if r_type == "raw":
        return pa.array(data, type=pa.uint8())
    raise RValueError(f"{where}: R {r_type} vectors have no Arrow equivalent; convert them first")


def _micros(seconds: np.ndarray, per_unit: int) -> np.ndarray:
    """Seconds (of ``per_unit``) as whole microseconds; NA and NaN as 0 (masked by the caller)."""
    return np.round(np.nan_to_num(seconds) * (per_unit * 1_000_000)).astype(np.int64)


def _list(x: RValue, where: str) -> Any:
    """A list as a list array: its elements must share one Arrow type (NULL is a null list)."""
    pa = pyarrow()
    elements = x.data
    present = [e for e in elements if e is not NULL]
    parts = [array(e, f"{where} element {i + 1}") for i, e in enumerate(present)]
    kinds = {p.type for p in parts if len(p)}  # an empty element takes the others' type
    if len(kinds) > 1:
        raise RValueError(
            f"{where}: a list column's elements must share one Arrow type, not {sorted(map(str, kinds))}"
        )
    if len(kinds) == 1:
        (kind,) = kinds
        parts = [p if len(p) else pa.array([], kind) for p in parts]
    values = pa.concat_arrays(parts) if parts else pa.array([], pa.null())
    lengths = np.array([0 if e is NULL else _length(e) for e in elements], dtype=np.int32)
    offsets = np.concatenate([[0], np.cumsum(lengths)]).astype(np.int32)
    nulls = np.array([e is NULL for e in elements], dtype=bool)
    return pa.ListArray.from_arrays(pa.array(offsets), values, mask=pa.array(nulls))


def _length(x: RValue) -> int:
    """A vector's length, a data frame's row count."""
    if "row.names" in x.attributes:
        return row_count(x.attributes["row.names"])
    return len(x.data)


def _names(frame: RValue) -> list[str]:
    """A data frame's column names (NA as "NA", as R prints it)."""
    names = frame.names
    return [] if names is None else ["NA" if n is None else n for n in names.data.tolist()]
