"""``from_pandas()``: pandas DataFrames, Series, Index and arrays as R data frames and vectors.

Column dtypes (missing values become the NA of the column's R type):

- numpy dtypes: as :func:`rvalues.convert.numpy.from_numpy` (float NaN stays NaN);
- ``Int8``..``Int64``, ``UInt8``..``UInt64``, ``Float32``/``Float64``, ``boolean``: integer / double /
  logical, ``pd.NA`` -> NA. In ``Float64`` a masked element is NA and an unmasked NaN stays NaN (what the
  array holds; pandas 3 masks NaN on construction, so it arrives as NA);
- ``string`` (python or pyarrow storage) and pandas 3's ``str``: character, missing -> NA;
- ``category``: factor (``ordered`` kept), levels are R's ``as.character`` of the categories;
- ``datetime64[unit]``: POSIXct with tzone "UTC"; ``datetime64[unit, tz]``: POSIXct with tzone the
  zone's IANA name as spelled, as in R ("Etc/GMT" stays "Etc/GMT"; fixed offsets: "UTC");
  ``timedelta64``: difftime in seconds;
- ``object``: inferred (:mod:`rvalues.convert.objects`), mixed -> list column;
- ArrowDtype columns: strings as ``string``; every other Arrow type as
  :func:`rvalues.convert.arrow.from_arrow` reads it (null -> NA, a NaN stays NaN);
- pandas ``Timestamp`` / ``Timedelta`` scalars as a column of one (zone and sub-second digits kept);
- ``period``, ``interval``, ``sparse`` and other extension dtypes: :class:`RValueError` with a remedy.

Row names: a ``RangeIndex(0, n)`` gives R's automatic row names; a string index character row
names; an integer index integer row names (explicit, as ``data.frame(row.names = ...)`` keeps
them); a float, bool, datetime or categorical index R's ``as.character`` of it (datetimes:
"%Y-%m-%d" when all are midnight, else "%Y-%m-%d %H:%M:%S"); duplicates (after that conversion)
or missing values are an error, as in R. A Series keeps a non-default index as ``names``, the same
way; the Series' own name is dropped (R vectors have none) but restored by ``to_pandas``.

Every column is copied (or converted) into memory the value owns: writing into the DataFrame afterwards
never changes the R value.

Column labels become names with ``str()`` (None: NA). MultiIndex columns are flattened, the levels
joined with "." (``("a", "b")`` -> ``"a.b"``, empty levels dropped), as R names nested columns.

>>> import pandas as pd
>>> from_pandas(pd.DataFrame({"x": [1, 2]})).names.data.tolist()
['x']
"""

from __future__ import annotations

import functools
from collections.abc import Sequence
from typing import Any

import numpy as np
import pandas as pd

from rvalues._speedups import writer as compiled
from rvalues.convert.arrow_columns import column as arrow_column
from rvalues.convert.arrow_columns import combined, has_nul, pyarrow
from rvalues.convert.numpy import convert_flat, make_frame
from rvalues.convert.origins import remember
from rvalues.convert.typed import FEW, posixct_from_ticks
from rvalues.errors import RValueError, shorten
from rvalues.format.timezones import tzone_name, utc_abbreviation
from rvalues.model.base import RValue
from rvalues.model.build import SHARED_LABELS, build, labels
from rvalues.model.classes import explicit_class
from rvalues.model.coerce import as_type
from rvalues.model.frames import automatic_row_names
from rvalues.model.storage import few_locked, freeze, owned
from rvalues.model.vectors import Character, Integer
from rvalues.na import NA_INTEGER

_FACTOR = Character(["factor"])
_MASKED = (
    pd.BooleanDtype,
    pd.Float32Dtype,
    pd.Float64Dtype,
    pd.Int8Dtype,
    pd.Int16Dtype,
    pd.Int32Dtype,
    pd.Int64Dtype,
    pd.UInt8Dtype,
    pd.UInt16Dtype,
    pd.UInt32Dtype,
    pd.UInt64Dtype,
)
_ORDERED = Character(["ordered", "factor"])


def from_pandas(obj: Any, *, where: str | None = None) -> RValue:
    """Convert a pandas DataFrame, Series, Index, Categorical or extension array to an R value.

    >>> import pandas as pd
    >>> from_pandas(pd.Series([1, None], dtype="Int64")).data.tolist()
    [1, -2147483648]
    """
    if isinstance(obj, pd.DataFrame):
        return _frame(obj)
    if isinstance(obj, pd.Series):
        return _series(obj, where or (f"Series {shorten(obj.name)}" if obj.name is not None else "Series"))
    if isinstance(obj, pd.MultiIndex):
        raise RValueError(
            "a MultiIndex has no R equivalent as a vector; "
            "use index.to_frame() for a data frame of its levels"
        )
    if isinstance(obj, pd.Index):
        value = column(obj, where or "Index")
        return remember(value, dtype=obj.dtype, kind="index", name=obj.name)
    if isinstance(obj, (pd.Categorical, pd.api.extensions.ExtensionArray)):
        value = column(obj, where or "array")
        return remember(value, dtype=obj.dtype)
    if obj is pd.NA or obj is pd.NaT:
        return build("logical", np.array([NA_INTEGER], dtype=np.int32))
    if isinstance(obj, (pd.Timestamp, pd.Timedelta)):
        return column(pd.Index([obj]), where or type(obj).__name__)  # as a column of one
    raise RValueError(
        f"from_pandas: cannot convert {type(obj).__qualname__} ({shorten(obj)}); "
        "expected a DataFrame, Series, "
        "Index, Categorical or extension array: convert it first (e.g. str(value) for a string)"
    )


# -- columns --------------------------------------------------------------------------------------


def column(values: Any, where: str) -> RValue:
    """One pandas column (Series, Index or array) as a plain R vector (no names)."""
    dtype = values.dtype
    if isinstance(dtype, np.dtype):
        array = values.to_numpy() if not isinstance(values, np.ndarray) else values
        return convert_flat(np.asarray(array), None, where)
    read = _reader(type(dtype))
    if read is not None:
        return read(values, where)
    if isinstance(dtype, pd.SparseDtype):
        raise RValueError(
            f"{where}: sparse dtype {dtype} is not supported; convert it with .sparse.to_dense() first"
        )
    if isinstance(dtype, pd.PeriodDtype):
        raise RValueError(
            f"{where}: period dtype {dtype} has no R equivalent; convert it with .dt.to_timestamp() "
            "(-> POSIXct) or .astype(str) (-> character) first"
        )
    if isinstance(dtype, pd.IntervalDtype):
        raise RValueError(
            f"{where}: interval dtype {dtype} has no R equivalent; split it into .array.left and "
            ".array.right columns, or use .astype(str) (-> character) first"
        )
    if type(dtype).__name__ == "ArrowDtype":
        return _arrow(values, where)
    raise RValueError(
        f"{where}: pandas dtype {dtype} is not supported; convert the column to a numpy, nullable, "
        "string, category or datetime dtype first (e.g. .astype(object) for a list column)"
    )


def _masked(values: Any, where: str) -> RValue:
    """pandas' nullable arrays (Int64, boolean, Float64 ...): values and mask, read without a pass."""
    dtype = values.dtype
    array = values.array if isinstance(values, (pd.Series, pd.Index)) else values
    data = getattr(array, "_data", None)
    mask = getattr(array, "_mask", None)
    if not (isinstance(data, np.ndarray) and isinstance(mask, np.ndarray)):
        mask = np.asarray(array.isna())
        data = array.to_numpy(dtype=dtype.numpy_dtype, na_value=dtype.numpy_dtype.type(0))
    return convert_flat(data, mask, where)


def _strings(values: Any, where: str) -> RValue:
    """A string column: its elements are str or missing, so no inference is needed."""
    arrow = _arrow_strings(values)
    try:
        made = None if arrow is None else compiled.arrow_strings(arrow)
        if made is not None:  # one compiled pass over arrow's buffers, NUL looked for in it
            return build("character", freeze(made[0], checked=not made[1]))
    except ValueError as err:  # a NUL, or invalid UTF-8
        raise RValueError(f"{where}: {err}") from None
    if arrow is not None:
        out = arrow.to_numpy(zero_copy_only=False)  # missing -> None; 40x faster than pandas' to_numpy
        # arrow strings are valid UTF-8, so NUL is all to check: in arrow's bytes, unless the array is small
        checked = len(out) >= _ARROW_CHECK_FROM and not any(has_nul(chunk) for chunk in arrow.chunks)
    else:
        out = np.asarray(values.to_numpy(dtype=object, na_value=None), dtype=object)
    try:
        # arrow builds Python strings anew, so its array is ours to lock; python storage may be shared
        data = freeze(out, checked=checked) if arrow is not None else owned(out)
    except RValueError as err:
        raise RValueError(f"{where}: {err}") from None
    return build("character", data)


_ARROW_CHECK_FROM = 1000
"""From this many strings on, arrow's bytes are searched for NUL instead of the Python strings."""


def _arrow_strings(values: Any) -> Any:
    """The pyarrow array behind an arrow-backed string column, or None."""
    dtype = values.dtype
    if getattr(dtype, "storage", None) != "pyarrow" and type(dtype).__name__ != "ArrowDtype":
        return None
    array = values.array if isinstance(values, (pd.Series, pd.Index)) else values
    data = getattr(array, "_pa_array", None)
    return data if data is not None and hasattr(data, "num_chunks") else None


def _arrow(values: Any, where: str) -> RValue:
    """An ArrowDtype column: strings as the string dtypes, the rest as :func:`from_arrow` reads Arrow
    (null -> NA, a NaN stays NaN)."""
    pa = pyarrow()
    pa_type = values.dtype.pyarrow_dtype
    if pa.types.is_string(pa_type) or pa.types.is_large_string(pa_type):
        return _strings(values, where)
    array = values.array if isinstance(values, (pd.Series, pd.Index)) else values
    data = pa.array(array)  # the column's own Arrow data (by __arrow_array__), without a copy
    return arrow_column(combined(data) if isinstance(data, pa.ChunkedArray) else data, where)


def _categorical(values: Any, where: str) -> RValue:
    cat = values.array if isinstance(values, (pd.Series, pd.Index)) else values
    dtype = cat.dtype
    codes = getattr(cat, "_codes", None)  # read only: the array itself, not the locked view .codes makes
    out = _factor_codes(codes if isinstance(codes, np.ndarray) else np.asarray(cat.codes))
    levels, repeated = _levels(dtype.categories, f"{where} categories")
    if repeated:
        seen = pd.Index(levels.data.tolist())
        raise RValueError(
            f"{where}: categories {shorten(list(cat.categories))} give duplicated factor levels "
            f"{shorten(seen[seen.duplicated()].tolist())} as R strings; rename the categories first"
        )
    cls = _ORDERED if dtype.ordered else _FACTOR
    return build("integer", out, {"levels": levels, "class": cls})


def _factor_codes(codes: np.ndarray) -> np.ndarray:
    """pandas' category codes (-1 for missing) as R's factor codes (from 1, NA for missing)."""
    if len(codes) <= FEW:
        return few_locked([c + 1 if c >= 0 else NA_INTEGER for c in codes.tolist()], "i")
    out = codes.astype(np.int32) + 1
    out[codes < 0] = NA_INTEGER
    return out


_STR = frozenset({str})


def _levels(categories: pd.Index, where: str) -> tuple[Character, bool]:
    """The levels of categories, and whether two of them are the same R string: a few strings are
    shared and checked once (see :func:`rvalues.model.build.labels`)."""
    if len(categories) <= SHARED_LABELS:
        arrow = _arrow_strings(categories)
        texts = arrow.to_pylist() if arrow is not None else categories.tolist()
        if set(map(type, texts)) <= _STR:
            try:
                return _string_levels(tuple(texts))
            except RValueError as err:
                raise RValueError(f"{where}: {err}") from None
    levels = _as_character(categories, where)
    return levels, _repeats(levels.data.tolist())


@functools.lru_cache(maxsize=256)
def _string_levels(texts: tuple[str, ...]) -> tuple[Character, bool]:
    return labels(texts), _repeats(texts)


def _repeats(texts: Sequence[str | None]) -> bool:
    return len(set(texts)) != len(texts)


def _as_character(index: pd.Index, where: str) -> Character:
    """R's ``as.character`` of an index's values (levels, names, row names)."""
    value = column(index, where)
    if type(value) is Character and not value.attributes:  # strings already: the common case
        return value
    classes = explicit_class(value.attributes)
    if "Date" in classes:
        text = np.datetime_as_string(np.asarray(index, dtype="datetime64[D]"), unit="D").astype(object)
        text[np.asarray(pd.isna(index))] = None
        return build("character", text)
    if "POSIXct" in classes:
        return _datetime_text(index)
    if "factor" in classes:
        labels = np.asarray(index.astype(object).where(pd.notna(index), None), dtype=object)
        return _as_character(pd.Index(labels, dtype=object), where)
    if classes or value.r_type == "list":
        raise RValueError(
            f"{where}: values of dtype {index.dtype} have no R character form here; "
            "convert them with .astype(str) first"
        )
    return as_type(value, "character")


def _aware(values: Any, where: str) -> RValue:
    dtype = values.dtype
    array = values.array if isinstance(values, (pd.Series, pd.Index)) else values
    ticks = np.asarray(array.asi8)  # the UTC instants; NaT is int64's minimum
    try:
        tzone = _tzone_of(dtype)
    except (RValueError, TypeError):  # unknown to R, or unhashable: let the uncached call say which
        tzone = labels([tzone_name(dtype.tz, where)])
    return posixct_from_ticks(ticks, ticks == _NAT, array.unit, 1, tzone)


_READERS: dict[type, Any] = {
    pd.CategoricalDtype: _categorical,
    pd.DatetimeTZDtype: _aware,
    pd.StringDtype: _strings,
    **dict.fromkeys(_MASKED, _masked),
}
"""How each of pandas' extension dtypes is read, by class (a subclass as its nearest base here)."""


def _reader(kind: type) -> Any:
    """The reader of a dtype class (a subclass: its nearest base's), or None."""
    for cls in kind.__mro__:
        read = _READERS.get(cls)
        if read is not None:
            return read
    return None


@functools.lru_cache(maxsize=64)
def _tzone_of(dtype: pd.DatetimeTZDtype) -> Character:
    """The ``tzone`` attribute of a zoned dtype, made once per dtype. Keyed by the dtype, not its
    zone: dateutil's zones of two names compare equal, the dtypes (which hold the name) do not."""
    return labels([tzone_name(dtype.tz)])


_NAT = np.iinfo(np.int64).min


# -- Series and DataFrame -----------------------------------------------------------------------


def _is_default_index(index: pd.Index, n: int) -> bool:
    return isinstance(index, pd.RangeIndex) and index.start == 0 and index.step == 1 and len(index) == n


def _series(series: pd.Series, where: str) -> RValue:
    value = column(series, where)
    origin: dict[str, Any] = {"dtype": series.dtype, "name": series.name}
    if not _is_default_index(series.index, len(series)):
        if isinstance(series.index, pd.MultiIndex):
            raise RValueError(
                f"{where}: a MultiIndex cannot become R names; use .reset_index() or join the levels first"
            )
        names = _as_character(series.index, f"{where} index")
        value = build(value.r_type, value.data, {"names": names, **value.attributes})
        origin["index"] = series.index
    return remember(value, **origin)


def _label(label: Any) -> str | None:
    if type(label) is str:
        return label
    if isinstance(label, tuple):
        parts = [str(p) for p in label if p is not None and str(p) != ""]
        return ".".join(parts)
    if label is None or (isinstance(label, float) and label != label):
        return None
    return str(label)


def _frame(df: pd.DataFrame) -> RValue:
    index = df.index
    n = len(index)
    header = df.columns
    arrow = _arrow_strings(header)
    labels = arrow.to_pylist() if arrow is not None else header.tolist()
    names = [label if type(label) is str else _label(label) for label in labels]
    columns = []
    for i, array in enumerate(_column_arrays(df)):  # by position: labels may repeat
        value = column(array, _column_where(names[i]))
        columns.append(remember(value, dtype=array.dtype))
    if _is_default_index(index, n):
        frame = make_frame(names, columns, automatic_row_names(n))
        return remember(frame, columns=header)
    frame = make_frame(names, columns, _row_names(index, n))
    return remember(frame, columns=header, index=index)


@functools.lru_cache(maxsize=1024)
def _column_where(name: str | None) -> str:
    """How messages name a column (made once per name: a tool returns the same columns each call)."""
    return f"column {shorten(name)}"


def _column_arrays(df: pd.DataFrame) -> list[Any]:
    """The frame's columns by position, as pandas stores them (ndarray or extension array)."""
    arrays = _block_columns(getattr(df, "_mgr", None))
    if arrays is None:
        return [series for _, series in df.items()]  # about 20 us each to build
    return arrays


def _block_columns(manager: Any) -> list[Any] | None:
    """The columns a block manager holds, read in one pass as ``DataFrame._get_column_array`` reads
    one (``blocks``, ``blknos``, ``blklocs``: private, pandas 1.x to 3.x); None for another manager."""
    blocks = getattr(manager, "blocks", None)
    if not isinstance(blocks, tuple) or not hasattr(manager, "blknos"):
        return None
    arrays = []
    for number, place in zip(manager.blknos.tolist(), manager.blklocs.tolist(), strict=True):
        values = blocks[number].values  # a 2-d block holds one column per row
        if values.ndim == 2:
            if type(values) is not np.ndarray and isinstance(values.dtype, np.dtype):
                # naive date-times and durations: the numpy array behind pandas' (10x cheaper to slice)
                backing = getattr(values, "_ndarray", None)
                values = backing if isinstance(backing, np.ndarray) else values
            arrays.append(values[place])
        else:
            arrays.append(values)
    return arrays


def _row_names(index: pd.Index, n: int) -> RValue:
    """The row.names R holds for this index (integer or character; checked as R checks them)."""
    if _is_default_index(index, n) or (n == 0 and len(index) == 0):
        return automatic_row_names(n)
    where = f"index ({index.dtype})"
    if isinstance(index, pd.MultiIndex):
        raise RValueError(
            f"index: a MultiIndex ({index.nlevels} levels) cannot become R row names; "
            "use df.reset_index() to keep its levels as columns"
        )
    value = column(index, where)
    if not (isinstance(value, Integer) and "class" not in value.attributes):
        value = _as_character(index, where)
    if value.na_mask().any():
        raise RValueError(
            f"{where}: row names contain missing values; use df.reset_index() or fill the index"
        )
    seen = pd.Index(value.data, dtype=object)
    if seen.has_duplicates:
        shown = seen[seen.duplicated()].unique().tolist()[:5]
        raise RValueError(
            f"{where}: duplicate row.names: {', '.join(map(str, shown))}; R's row names must be unique: "
            "use df.reset_index() or make the index unique"
        )
    return value


def _datetime_text(index: pd.Index) -> Character:
    """R 4.2.2's ``as.character`` of POSIXct: "%Y-%m-%d" when every time is midnight, else
    "%Y-%m-%d %H:%M:%S" (fractions of a second dropped), in the value's zone (naive: UTC)."""
    stamps = pd.DatetimeIndex(index)
    if stamps.tz is not None and utc_abbreviation(tzone_name(stamps.tz)) is not None:
        stamps = stamps.tz_convert("UTC")
    present = stamps[~stamps.isna()]
    midnight = bool((present == present.normalize()).all())
    text = stamps.strftime("%Y-%m-%d" if midnight else "%Y-%m-%d %H:%M:%S")
    out = np.array(text, dtype=object)
    out[np.asarray(stamps.isna())] = None
    return build("character", out)
