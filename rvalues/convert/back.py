"""The way back: ``to_numpy(x)`` and ``to_pandas(x)``.

Values that came from numpy or pandas remember (:mod:`rvalues.convert.origins`: on the value
object itself, never as an R attribute) the dtype, index and column labels they came from, so a
round trip gives back the same dtypes wherever R could hold the values (``Int64`` stays
``Int64``, ``category`` keeps its categories, ``datetime64[ns, tz]`` its unit and zone, object
columns their Python objects). Values born in R -- or changed since, since every change makes a
new value -- get these defaults:

==========  ==========================================  =============================================
R value     ``to_numpy``                                ``to_pandas``
==========  ==========================================  =============================================
logical     bool (``np.ma`` masked array where NA)      ``bool``, or ``boolean`` where NA
integer     int32 (masked where NA)                     ``int32``, or ``Int32`` where NA
double      float64, NA kept as R's NA bit pattern      ``float64`` (same bits: NA and NaN both read
                                                        as missing in pandas, ``from_pandas`` tells
                                                        them apart again)
complex     complex128 (NA bits kept)                   ``complex128``
character   object array of str, None for NA            pandas 3: ``str``; pandas 2: object
raw         uint8                                       ``uint8``
factor      object array of the labels                  ``Categorical`` (levels, ordered kept)
Date        datetime64[D] (NaT for NA)                  datetime64[s] (from an object column of
                                                        ``datetime.date``: that column, None for NA)
POSIXct     datetime64[us] (naive, UTC)                 datetime64[us, tzone] (no tzone: the local zone)
difftime    timedelta64[us]                             timedelta64[us]
list        object array of Python values               object column (``to_python`` of each element)
data.frame  structured array (masked where NA)          DataFrame (automatic row names: RangeIndex;
                                                        character: Index of str; integer: Index)
==========  ==========================================  =============================================

Times go through a double of seconds, which holds about a microsecond: finer digits are lost.
Arrays returned without a copy are read-only views of the value's storage (``.copy()`` to write).

>>> import numpy as np
>>> from rvalues.convert import from_numpy
>>> to_numpy(from_numpy(np.array([1, 2], dtype=np.int16))).dtype
dtype('int16')
"""

from __future__ import annotations

import datetime as dt
from functools import lru_cache
from typing import TYPE_CHECKING, Any, cast

import numpy as np

from rvalues.convert.origins import origin_of
from rvalues.errors import RValueError, shorten
from rvalues.format.timezones import local_zone_name, tzone_of, zone
from rvalues.lazy import import_pandas
from rvalues.model.base import RValue
from rvalues.model.classes import explicit_class
from rvalues.model.frames import is_compact, row_count
from rvalues.na import NA_INTEGER, real_is_na

if TYPE_CHECKING:
    from rvalues.model.vectors import Vector


_UNIT_SECONDS = {"secs": 1.0, "mins": 60.0, "hours": 3600.0, "days": 86400.0, "weeks": 604800.0}


def _seconds_to(values: np.ndarray, kind: str, unit: str) -> np.ndarray:
    """Float seconds (NaN/NA -> NaT) to datetime64/timedelta64 of ``unit``.

    Seconds are first rounded to microseconds (about what a double of seconds since 1970 holds),
    so units finer than ``us`` get whole microseconds.
    """
    with np.errstate(invalid="ignore"):
        missing = np.isnan(values)
        clean = np.where(missing, 0.0, values)
    per = np.timedelta64(1, "s") / np.timedelta64(1, unit)  # type: ignore[call-overload]  # unit: str
    if per > 1e6:
        ints = np.round(clean * 1e6).astype(np.int64) * round(per / 1e6)
    else:
        ints = np.round(clean * per).astype(np.int64)
    ints[missing] = np.iinfo(np.int64).min
    return ints.view(f"{kind}8[{unit}]")


def _flat_numpy(x: RValue) -> Any:
    """The elements of an atomic vector or a list as one 1-d numpy array."""
    with np.errstate(invalid="ignore"):  # R's NA is a signalling NaN
        return _flat_numpy_of(x)


def _python_objects(x: RValue) -> np.ndarray:
    """An object array of the elements as Python values (NA as None)."""
    out = np.empty(len(x.data), dtype=object)
    out[:] = x.tolist()
    return out


def _flat_numpy_of(x: RValue) -> Any:
    origin = dict(origin_of(x))
    if not isinstance(origin.get("dtype"), np.dtype):
        origin.pop("dtype", None)  # pandas extension dtypes are restored by to_pandas
    classes = explicit_class(x.attributes)
    data = x.data
    if x.r_type == "list":
        out = np.empty(len(data), dtype=object)
        out[:] = [to_python(v) for v in data]
        return out
    if "factor" in classes:
        levels = np.array([*x.attributes["levels"].data.tolist(), None], dtype=object)
        codes = np.where(data == NA_INTEGER, len(levels), data) - 1
        return levels[codes]
    if "Date" in classes:
        dtype = origin.get("dtype")
        out = _seconds_to(np.asarray(data) * 86400.0, "M", "s").astype("datetime64[D]")
        if dtype is not None and dtype.kind == "O":  # datetime.date objects (pandas 3's read_parquet)
            return out.astype(object)  # NaT -> None
        return out.astype(dtype) if dtype is not None and dtype.kind == "M" else out
    if "POSIXct" in classes or "difftime" in classes:
        kind = "M" if "POSIXct" in classes else "m"
        seconds = np.asarray(data)
        if kind == "m":
            units = x.attributes.get("units")
            seconds = seconds * _UNIT_SECONDS.get(units.data[0] if units is not None else "secs", 1.0)
        dtype = origin.get("dtype")
        unit = np.datetime_data(dtype)[0] if dtype is not None and dtype.kind == kind else "us"
        return _seconds_to(seconds, kind, unit)
    dtype = origin.get("dtype")
    if isinstance(dtype, np.dtype) and dtype.kind == "O":
        return _python_objects(x)
    if x.r_type in ("logical", "integer"):
        na = data == NA_INTEGER
        target = (
            dtype
            if dtype is not None and dtype.kind in "biu"
            else (np.bool_ if x.r_type == "logical" else np.int32)
        )
        values = data.astype(target) if target != data.dtype else data
        if na.any():
            return np.ma.MaskedArray(np.where(na, 0, values).astype(target), mask=na)
        return values
    if x.r_type == "double":
        if dtype is not None and dtype.kind in "iu":  # an int64 column that needed doubles
            with np.errstate(invalid="ignore"):
                exact = np.isfinite(data).all() and (data.astype(dtype).astype(np.float64) == data).all()
            return data.astype(dtype) if exact else data
        if dtype is not None and dtype.kind == "f" and dtype != data.dtype:
            return data.astype(dtype)
        return data
    if x.r_type == "complex":
        return data.astype(dtype) if dtype is not None and dtype.kind == "c" else data
    if x.r_type == "character":
        if dtype is not None and dtype.kind == "U" and not cast("Vector", x).na_mask().any():
            return data.astype(dtype)
        return data
    return data


def to_numpy(x: RValue) -> Any:
    """An R value as a numpy array (see the module's table); arrays keep their ``dim``.

    >>> from rvalues import Integer
    >>> to_numpy(Integer([1, None])).mask.tolist()
    [False, True]
    """
    if not isinstance(x, RValue):
        raise RValueError(f"to_numpy: expected an R value, not {type(x).__name__}")
    if x.r_type == "NULL":
        return np.array([], dtype=object)
    if "data.frame" in explicit_class(x.attributes):
        return _frame_to_records(x)
    flat = _flat_numpy(x)
    dim = x.dim
    if dim is not None and len(dim) >= 1 and (len(dim) > 1 or origin_of(x).get("shape") is not None):
        return flat.reshape(dim, order="F")
    shape = origin_of(x).get("shape")
    if shape is not None and len(shape) == 0:
        return flat.reshape(())
    return flat


def _frame_to_records(x: RValue) -> np.ndarray:
    names = [str(n) for n in x.attributes["names"].data.tolist()]
    columns = [to_numpy(c) for c in x.data]
    n = _nrow(x)
    fields = []
    for name, col in zip(names, columns):
        fields.append((name, col.dtype if col.ndim == 1 else (col.dtype, col.shape[1:])))
    out = np.empty(n, dtype=fields)
    for name, col in zip(names, columns):
        out[name] = np.ma.getdata(col) if isinstance(col, np.ma.MaskedArray) else col
    if any(isinstance(col, np.ma.MaskedArray) for col in columns):
        mask = np.zeros(n, dtype=[(name, bool) for name in names])
        for name, col in zip(names, columns):
            mask[name] = np.ma.getmaskarray(col) if isinstance(col, np.ma.MaskedArray) else False
        return np.ma.MaskedArray(out, mask=mask)
    return out


def _nrow(x: RValue) -> int:
    return row_count(x.attributes["row.names"])


def to_python(x: RValue) -> Any:
    """An R value as plain Python: NULL -> None, a length-1 vector -> its element, other vectors ->
    lists, named lists -> dicts, data frames -> DataFrames; Date -> date, POSIXct -> aware datetime
    in its zone, difftime -> timedelta, factor -> its labels (NA -> None).

    >>> from rvalues import r_list
    >>> to_python(r_list(a=1, b="x"))
    {'a': 1, 'b': 'x'}
    """
    if x.r_type == "NULL":
        return None
    classes = explicit_class(x.attributes)
    if x.r_type == "list" and "data.frame" not in classes:
        items = [to_python(v) for v in x.data]
        names = x.names
        if names is not None:
            return dict(zip(names.data.tolist(), items))
        return items
    if "data.frame" in classes:
        return to_pandas(x)
    if "Date" in classes or "POSIXct" in classes:
        items = _dates_as_python(x)
    elif "difftime" in classes:
        units = x.attributes.get("units")
        scale = _UNIT_SECONDS.get(units.data[0] if units is not None else "secs", 1.0)
        items = [None if v is None else dt.timedelta(seconds=v * scale) for v in x.tolist()]
    elif "factor" in classes:
        items = _flat_numpy(x).tolist()
    else:
        items = x.tolist()
    if len(items) == 1 and not (set(x.attributes) - {"class", "tzone", "units", "levels"}):
        return items[0]
    return items


def _dates_as_python(x: RValue) -> list[Any]:
    data = np.asarray(x.data)
    na = np.isnan(data)
    out: list[Any] = []
    if "Date" in explicit_class(x.attributes):
        epoch = dt.date(1970, 1, 1)
        for v, missing in zip(data.tolist(), na.tolist()):
            out.append(None if missing else epoch + dt.timedelta(days=int(np.floor(v))))
        return out
    tz = zone(tzone_of(x.attributes))
    for v, missing in zip(data.tolist(), na.tolist()):
        out.append(None if missing else dt.datetime.fromtimestamp(v, dt.UTC).astimezone(tz))
    return out


# -- pandas -------------------------------------------------------------------------------------


def _codes(x: RValue) -> np.ndarray:
    """A factor's 0-based codes, -1 for NA (what ``pd.Categorical.from_codes`` takes)."""
    na = x.data == NA_INTEGER
    codes = x.data.astype(np.int64) - 1
    codes[na] = -1
    return codes


def _nullable(x: RValue, pd: Any) -> Any:
    """A logical or integer vector with NA as pandas' ``boolean`` / ``Int32``."""
    na = x.data == NA_INTEGER
    values = np.where(na, 0, x.data)
    if x.r_type == "logical":
        return pd.arrays.BooleanArray(values.astype(np.bool_), na)
    return pd.arrays.IntegerArray(values.astype(np.int32), na)


def _series_values(x: RValue, pd: Any) -> Any:
    """The array a pandas Series of this R vector holds (see the module's table)."""
    dtype = origin_of(x).get("dtype")
    if dtype is not None and not isinstance(dtype, np.dtype):
        restored = _restore_extension(x, dtype, pd)
        if restored is not None:
            return restored
        try:
            return pd.array(_default_values(x, pd)).astype(dtype)
        except (TypeError, ValueError):
            pass
    if isinstance(dtype, np.dtype):
        return _flat_numpy(x)  # recorded numpy dtype (object columns: Python objects)
    return _default_values(x, pd)


def _default_values(x: RValue, pd: Any) -> Any:
    classes = explicit_class(x.attributes)
    if "factor" in classes:
        levels = x.attributes["levels"].data.tolist()
        return pd.Categorical.from_codes(_codes(x), categories=levels, ordered="ordered" in classes)
    if "POSIXct" in classes:
        tz = tzone_of(x.attributes) or local_zone_name()
        return pd.DatetimeIndex(_flat_numpy(x)).tz_localize("UTC").tz_convert(tz).array
    if "Date" in classes:
        return _flat_numpy(x).astype("datetime64[s]")
    if x.r_type in ("logical", "integer") and (x.data == NA_INTEGER).any():
        return _nullable(x, pd)
    if x.r_type == "double" and real_is_na(x.data).any() and origin_of(x).get("dtype") is not None:
        na = real_is_na(x.data)  # an extension dtype is recorded: pass NA on as pd.NA
        return pd.arrays.FloatingArray(np.where(na, 0.0, x.data), na)
    if x.r_type == "character" and _str_default(pd.__version__):
        return pd.array(x.data, dtype="str")
    if x.r_type == "character":
        return x.data.copy()
    return _flat_numpy(x)


def _masked_dtypes(pd: Any) -> tuple[Any, ...]:
    """pandas' nullable (masked) numeric and boolean dtypes."""
    names = ["BooleanDtype", "Float32Dtype", "Float64Dtype"] + [
        f"{sign}Int{bits}Dtype" for sign in ("", "U") for bits in (8, 16, 32, 64)
    ]
    return tuple(getattr(pd, name) for name in names)


@lru_cache(maxsize=4)
def _str_default(version: str) -> bool:
    """Whether pandas infers its ``str`` dtype for strings (pandas 3's default)."""
    pd = import_pandas()

    return bool(pd.Series(["a"]).dtype != object)


def _restore_extension(x: RValue, dtype: Any, pd: Any) -> Any:
    """The recorded nullable / string / tz-aware / categorical / arrow dtype's array, or None."""
    classes = explicit_class(x.attributes)
    if isinstance(dtype, pd.CategoricalDtype):
        return pd.Categorical.from_codes(_codes(x), dtype=dtype) if "factor" in classes else None
    if isinstance(dtype, pd.DatetimeTZDtype):
        if "POSIXct" not in classes:
            return None
        values = _seconds_to(np.asarray(x.data), "M", dtype.unit)
        return pd.DatetimeIndex(values).tz_localize("UTC").tz_convert(dtype.tz).array
    if isinstance(dtype, pd.StringDtype):
        return pd.array(x.data, dtype=dtype) if x.r_type == "character" else None
    if x.r_type in ("logical", "integer", "double") and not classes and isinstance(dtype, _masked_dtypes(pd)):
        na = x.data == NA_INTEGER if x.r_type != "double" else real_is_na(x.data)
        with np.errstate(invalid="ignore"):
            values = np.where(na, 0, x.data).astype(dtype.numpy_dtype)
        return dtype.construct_array_type()(values, na)
    return None


def to_pandas(x: RValue) -> Any:
    """An R value as pandas: a data frame as a DataFrame, a vector as a Series (names as index).

    >>> from rvalues import data_frame
    >>> to_pandas(data_frame(a=[1, 2], b=["x", None])).dtypes.tolist()[0]
    dtype('int32')
    """
    pd = import_pandas()

    if not isinstance(x, RValue):
        raise RValueError(f"to_pandas: expected an R value, not {type(x).__name__}")
    origin = origin_of(x)
    if "data.frame" in explicit_class(x.attributes):
        return _frame(x, pd, origin)
    if x.r_type == "NULL":
        return pd.Series([], dtype=object)
    if x.r_type == "list":
        values = _flat_numpy(x)
    else:
        values = _series_values(x, pd)
    kind = origin.get("kind")
    if kind == "index":
        return pd.Index(values, name=origin.get("name"), dtype=_object_or_none(values))
    names = x.names
    index = origin.get("index")
    if index is None and names is not None:
        index = pd.Index(names.data.tolist())
    return pd.Series(values, index=index, name=origin.get("name"), dtype=_object_or_none(values))


def _object_or_none(values: Any) -> Any:
    """``object`` for object arrays (so pandas 3 does not infer ``str`` from them), else None."""
    return object if isinstance(values, np.ndarray) and values.dtype == object else None


def _frame(x: RValue, pd: Any, origin: dict[str, Any]) -> Any:
    names = x.attributes["names"].data.tolist()
    arrays = []
    for name, col in zip(names, x.data):
        if "data.frame" in explicit_class(col.attributes) or col.attributes.get("dim") is not None:
            raise RValueError(
                f"to_pandas: column {shorten(name)} is a data frame or a matrix, "
                "which a pandas column cannot hold; "
                "split it into columns first"
            )
        arrays.append(_flat_numpy(col) if col.r_type == "list" else _series_values(col, pd))
    index = _index_of(x, pd, origin)
    frame = pd.DataFrame(
        {i: pd.Series(a, index=index, dtype=_object_or_none(a), copy=False) for i, a in enumerate(arrays)},
        index=index,
        copy=False,
    )
    columns = origin.get("columns")
    frame.columns = columns if columns is not None and len(columns) == len(names) else pd.Index(names)
    return frame


def _index_of(x: RValue, pd: Any, origin: dict[str, Any]) -> Any:
    row_names = x.attributes.get("row.names")
    recorded = origin.get("index")
    if recorded is not None:
        return recorded
    n = _nrow(x)
    if row_names is None or (is_compact(row_names) and row_names.data[1] < 0) or len(row_names) == 0:
        return pd.RangeIndex(n)
    if is_compact(row_names):
        return pd.Index(np.arange(1, n + 1, dtype=np.int32))
    if row_names.r_type == "character":
        return pd.Index(row_names.data.tolist(), dtype=object)
    return pd.Index(row_names.data)
