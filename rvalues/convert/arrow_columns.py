"""One Arrow array (a column) as an R vector: the type table of :func:`rvalues.convert.arrow.from_arrow`.

Every conversion reads Arrow's buffers (:mod:`rvalues.convert.arrow_buffers`): int32 and float64
without nulls are shared read-only; with nulls, and for dates, timestamps and dictionary codes, one
compiled pass writes R's storage with R's NA; other numbers take one vectorized numpy pass, strings
come from Arrow's own buffers.

>>> import pyarrow as pa
>>> column(pa.array([1, None, 3], pa.int32()), "x").data.tolist()
[1, -2147483648, 3]
"""

from __future__ import annotations

import functools
import re
from typing import Any

import numpy as np

import rvalues.convert.arrow_buffers as buffers
from rvalues._speedups import writer as compiled
from rvalues.convert.arrow_buffers import compute, pyarrow
from rvalues.convert.numpy import convert_flat, make_frame
from rvalues.convert.typed import (
    integers,
    posixct_from_seconds,
    posixct_from_ticks,
    ticks_per_second,
    timedeltas,
)
from rvalues.errors import RValueError
from rvalues.format.timezones import zone
from rvalues.model.base import RValue
from rvalues.model.build import SHARED_LABELS, build, labels
from rvalues.model.coerce import as_type
from rvalues.model.frames import automatic_row_names
from rvalues.model.lists import NULL
from rvalues.model.storage import freeze
from rvalues.model.strings import shorten
from rvalues.model.vectors import Character
from rvalues.na import NA_INTEGER, NA_REAL

_DATE_CLASS = Character(["Date"])
_FACTOR = Character(["factor"])
_ORDERED = Character(["ordered", "factor"])
_MS_PER_DAY = 86_400_000
_EXACT = 2**53
_EXACT_POWER = 22
"""10**22 is the largest power of ten a double holds exactly."""
_CHECK_BYTES_FROM = 1000
"""From this many strings on, Arrow's bytes are searched for NUL instead of the Python strings."""
_DISTINCT_FROM = 65_536
"""From this many strings on, a sample decides whether each distinct string is made only once."""
_SAMPLE = 4096
_OFFSET = re.compile(r"^[+-]\d\d:?\d\d$")


def combined(chunked: Any) -> Any:
    """A ChunkedArray as one Array: concatenated once (dictionaries unified first), or its only chunk."""
    if chunked.num_chunks == 1:
        return chunked.chunk(0)
    if pyarrow().types.is_dictionary(chunked.type):
        chunked = chunked.unify_dictionaries()
    return chunked.combine_chunks()


def column(array: Any, where: str) -> RValue:
    """One Arrow array as the R vector of the type table; ``where`` names it in errors."""
    types = pyarrow().types
    kind = array.type
    if types.is_integer(kind):
        return _integers(array, where)
    if types.is_floating(kind):
        if types.is_float64(kind):  # NaN stays NaN, null -> NA
            return build("double", buffers.filled(array))
        return convert_flat(buffers.values(array), buffers.missing(array), where)  # NaN stays NaN, null -> NA
    if types.is_boolean(kind):
        return _logicals(array)
    if types.is_string(kind) or types.is_large_string(kind) or types.is_string_view(kind):
        return _strings(array, where)
    if types.is_dictionary(kind):
        return _factor(array, where)
    if types.is_date32(kind) or types.is_date64(kind):
        return _dates(array)
    if types.is_timestamp(kind):
        tzone = _tzone(kind.tz, where)
        secs = buffers.compiled_fill(array, compiled.ARROW_TICKS, ticks_per_second(kind.unit, 1)[1])
        if secs is not None:
            return posixct_from_seconds(secs, tzone)
        missing = buffers.missing(array)
        present = np.zeros(len(array), dtype=bool) if missing is None else missing
        return posixct_from_ticks(buffers.values(array), present, kind.unit, 1, tzone)
    if types.is_duration(kind):
        return timedeltas(
            buffers.values(array).view(f"timedelta64[{kind.unit}]"), buffers.missing(array), where
        )
    if types.is_decimal(kind):
        return build("double", _decimals(array))
    if types.is_null(kind):
        return build("logical", np.full(len(array), NA_INTEGER, dtype=np.int32))
    if types.is_struct(kind):
        return struct_frame(array, where)
    if types.is_list(kind) or types.is_large_list(kind) or types.is_fixed_size_list(kind):
        return _list_column(array, where)
    if _is_list_view(kind):  # read by offsets and sizes: pyarrow's cast of a view to a list can be invalid
        return _list_column(array, where)
    raise RValueError(
        f"{where}: Arrow type {kind} has no R equivalent; cast it first (e.g. to string, or a map "
        "to a list of structs with .cast(), or select fields), or drop the column"
    )


def _integers(array: Any, where: str) -> RValue:
    """Integers by numpy's rule; int32 where no value is R's NA bit pattern: Arrow's buffer shared
    (without nulls) or filled by Arrow."""
    values = buffers.values(array)
    if values.dtype == np.int32 and len(values):
        if array.null_count and (filled := buffers.compiled_fill(array, compiled.ARROW_INT32)) is not None:
            return build("integer", filled)
        if values.min() != NA_INTEGER:
            return build("integer", buffers.filled(array))
        if array.null_count:  # R's NA under nulls (as to_arrow leaves it) is no value
            filled = buffers.filled(array)
            if np.count_nonzero(filled == NA_INTEGER) == array.null_count:
                return build("integer", filled)
    return integers(values, buffers.missing(array), where)


def _logicals(array: Any) -> RValue:
    """A bool array as logical: Arrow's value bits unpacked by numpy, then NA where null."""
    buffer = array.buffers()[1]
    if buffer is None or not len(array):
        return build("logical", np.zeros(len(array), dtype=np.int32))
    start = array.offset
    bits = np.unpackbits(np.frombuffer(buffer, dtype=np.uint8), count=start + len(array), bitorder="little")
    out = bits[start:].astype(np.int32)
    missing = buffers.missing(array)
    if missing is not None:
        out[missing] = NA_INTEGER
    return build("logical", out)


def _strings(array: Any, where: str) -> RValue:
    """string / large_string / string_view as character: Python strings made from Arrow's buffers in
    one compiled pass that also looks for NUL (else made by Arrow, NUL checked in Arrow's bytes):
    Arrow strings are valid UTF-8, so NUL is all R refuses."""
    checkable = True
    if pyarrow().types.is_string_view(array.type):
        try:
            array = array.cast(pyarrow().large_string())
        except pyarrow().ArrowNotImplementedError:  # pyarrow 17 cannot: its strings are checked in Python
            checkable = False
    try:
        made = compiled.arrow_strings(array)  # None for a string_view pyarrow 17 cannot cast
        if made is not None:
            return build("character", freeze(made[0], checked=not made[1]))  # a NUL: freeze names it
        out = _python_strings(array)
        checked = checkable and len(out) >= _CHECK_BYTES_FROM and not has_nul(array)
        return build("character", freeze(out, checked=checked))
    except ValueError as err:  # RValueError, or invalid UTF-8
        raise RValueError(f"{where}: {err}") from None


def _python_strings(array: Any) -> np.ndarray:
    """The strings as an object array, null -> None. Where a long array repeats a few strings (as a
    sample of it says), each distinct string is made once and numpy repeats it (about 2x faster).

    >>> import pyarrow as pa
    >>> _python_strings(pa.array(["a", None, "a"])).tolist()
    ['a', None, 'a']
    """
    if len(array) < _DISTINCT_FROM or not _repeats_few(array):
        return array.to_numpy(zero_copy_only=False)  # type: ignore[no-any-return]
    encoded = compute().dictionary_encode(array)  # null stays null in the indices
    words = encoded.dictionary.to_numpy(zero_copy_only=False)
    with_none = np.empty(len(words) + 1, dtype=object)  # null -> the last entry, None
    with_none[:-1] = words
    codes = compute().fill_null(encoded.indices, len(words)).to_numpy()
    return with_none[codes]  # type: ignore[no-any-return]


def _repeats_few(array: Any) -> bool:
    """Whether an evenly spread sample of a long string array holds few distinct strings."""
    at = np.linspace(0, len(array) - 1, _SAMPLE, dtype=np.int64)
    distinct = compute().count_distinct(array.take(at), mode="all").as_py()
    return bool(distinct <= _SAMPLE // 16)


def has_nul(array: Any) -> bool:
    """Whether a zero byte lies in the UTF-8 bytes of a string or large_string array (one numpy pass)."""
    _, offsets, data = array.buffers()[:3]
    if data is None or not len(array):
        return False
    wide = np.int64 if pyarrow().types.is_large_string(array.type) else np.int32
    bounds = np.frombuffer(offsets, dtype=wide)[[array.offset, array.offset + len(array)]]
    return not np.frombuffer(data, dtype=np.uint8)[bounds[0] : bounds[1]].all()


def _factor(array: Any, where: str) -> RValue:
    """A dictionary array as a factor: the dictionary's order is the levels' order, ``ordered`` kept."""
    dictionary = array.dictionary
    kind = _ORDERED if array.type.ordered else _FACTOR
    if not dictionary.null_count:  # codes + 1, nulls as NA: two passes of Arrow's
        kernels, pa = compute(), pyarrow()
        if (
            array.indices.type == pa.int32()
            and (codes := buffers.compiled_fill(array.indices, compiled.ARROW_CODES)) is not None
        ):
            return build("integer", codes, {"levels": _levels(dictionary, where), "class": kind})
        # values under nulls may be anything; indices past int32 cannot index a dictionary
        indices = kernels.cast(array.indices, pa.int32(), safe=False)
        codes = buffers.filled(kernels.add(indices, pa.scalar(1, pa.int32())))
        return build("integer", codes, {"levels": _levels(dictionary, where), "class": kind})
    # a null level: its codes are NA, the later levels move down one
    codes = buffers.values(array.indices)
    if codes.dtype.kind == "u" and codes.dtype.itemsize >= 4:  # uint32 (polars) and wider: past int32
        codes = codes.astype(np.int64)
    missing = buffers.missing(array)
    absent = dictionary.is_null().to_numpy(zero_copy_only=False)
    at = np.clip(codes, 0, len(absent) - 1)  # codes under nulls may point anywhere
    missing = absent[at] if missing is None else (missing | absent[at])
    out = (codes - np.cumsum(absent)[at]).astype(np.int32)
    out += 1
    out[missing] = NA_INTEGER
    return build("integer", out, {"levels": _levels(dictionary.drop_null(), where), "class": kind})


def _levels(dictionary: Any, where: str) -> RValue:
    types = pyarrow().types
    kind = dictionary.type
    if not (types.is_string(kind) or types.is_large_string(kind) or types.is_string_view(kind)):
        if not types.is_integer(kind):
            raise RValueError(
                f"{where}: a dictionary of {kind} has no R factor equivalent (levels are strings); "
                "cast the dictionary's values to string first"
            )
    values = column(dictionary, f"{where} dictionary")
    levels = values if isinstance(values, Character) else as_type(values, "character")
    texts = levels.data.tolist()
    if len(set(texts)) != len(texts):
        raise RValueError(f"{where}: the dictionary {shorten(texts)} repeats a level; R's levels are unique")
    return labels(texts) if len(texts) <= SHARED_LABELS else levels


def _dates(array: Any) -> RValue:
    """date32 (days) and date64 (milliseconds) as Date: days as doubles, computed by Arrow."""
    kernels, pa = compute(), pyarrow()
    wide = pa.types.is_date64(array.type)
    if not wide and (days := buffers.compiled_fill(array, compiled.ARROW_DAYS)) is not None:
        return build("double", days, {"class": _DATE_CLASS})
    days = kernels.cast(array.view(pa.int64() if wide else pa.int32()), pa.float64())
    if wide:
        days = kernels.divide(days, pa.scalar(float(_MS_PER_DAY)))
    return build("double", buffers.filled(days), {"class": _DATE_CLASS})


@functools.lru_cache(maxsize=64)
def _tzone(tz: str | None, where: str) -> RValue:
    """The ``tzone`` of a timestamp type: its zone as spelled; naive and fixed offsets: "UTC"."""
    if tz is None or _OFFSET.match(tz):
        return labels(["UTC"])
    try:
        zone(tz)
    except RValueError:
        raise RValueError(f"{where}: time zone {shorten(tz)} is not an IANA zone R knows") from None
    return labels([tz])


def _decimals(array: Any) -> np.ndarray:
    """Decimals as the nearest doubles; null -> NA.

    Where every unscaled integer is below 2**53 (and the scale at most 22) it and the power of ten are
    exact doubles, so one division gives the nearest double; otherwise Python's Decimal rounds."""
    kind = array.type
    missing = buffers.missing(array)
    unscaled = _unscaled(array)
    present = unscaled if missing is None else unscaled[~missing]
    if abs(kind.scale) <= _EXACT_POWER and (not len(present) or np.abs(present).max() <= _EXACT):
        scale = float(10 ** abs(kind.scale))
        out = unscaled.astype(np.float64)
        out = out / scale if kind.scale >= 0 else out * scale
    else:
        out = np.array([0.0 if v is None else float(v) for v in array.to_pylist()], dtype=np.float64)
    if missing is not None:
        out[missing] = NA_REAL
    return out


def _unscaled(array: Any) -> np.ndarray:
    """The decimals' unscaled integers as int64, with values past int64 (and nulls) as int64's maximum."""
    width = array.type.byte_width
    if width <= 8:
        return buffers.values_of_width(array, np.dtype(f"int{width * 8}")).astype(np.int64)
    words = buffers.values_of_width(array, np.dtype(f"V{width}")).view(np.int64).reshape(-1, width // 8)
    low = words[:, 0]
    fits = (words[:, 1:] == (low >> 63)[:, None]).all(axis=1)  # the high words only extend the sign
    return np.where(fits, low, np.iinfo(np.int64).max)


def struct_frame(array: Any, where: str) -> RValue:
    """A struct array as a data frame, one column a field (a null struct: NA in every field)."""
    kind = array.type
    names = [kind.field(i).name for i in range(kind.num_fields)]
    fields = array.flatten()  # the fields with the struct's own nulls applied
    columns = [column(f, f"{where} field {shorten(n)}") for n, f in zip(names, fields, strict=True)]
    return make_frame(names, columns, automatic_row_names(len(array)))


def _is_list_view(kind: Any) -> bool:
    """Whether an Arrow type is a list view or a large list view (False where pyarrow has no views).

    >>> import pyarrow as pa
    >>> _is_list_view(pa.list_view(pa.int8())), _is_list_view(pa.list_(pa.int8()))
    (True, False)
    """
    types = pyarrow().types
    views = (getattr(types, "is_list_view", None), getattr(types, "is_large_list_view", None))
    return any(test is not None and test(kind) for test in views)


def _list_column(array: Any, where: str) -> RValue:
    """A list array as a list column: each element a slice of the child converted once (null: NULL).

    Only the stretch of the child the elements reach is converted; list views may reach it in any
    order and overlap, which slicing the converted child takes as it comes."""
    starts, stops = _element_bounds(array)
    missing = buffers.missing(array)
    null = np.zeros(len(array), dtype=bool) if missing is None else missing
    reached = ~null & (stops > starts)
    first, last = (int(starts[reached].min()), int(stops[reached].max())) if reached.any() else (0, 0)
    child = array.values
    if first < 0 or last > len(child):
        raise RValueError(
            f"{where}: the elements reach items {first} to {last - 1} of a child of {len(child)} items; "
            "expected offsets and sizes within the child (an invalid array: .validate(full=True) says where)"
        )
    inner = column(child.slice(first, last - first), f"{where} elements")
    starts = np.where(reached, starts - first, 0).tolist()
    stops = np.where(reached, stops - first, 0).tolist()
    items = tuple(
        NULL if gone else slice_value(inner, a, b)
        for a, b, gone in zip(starts, stops, null.tolist(), strict=True)
    )
    return build("list", items)


def _element_bounds(array: Any) -> tuple[np.ndarray, np.ndarray]:
    """Where each element of a list array starts and stops in its child (``.values``), as int64.

    Read from Arrow's buffers: the offsets (and a list view's sizes) of the array's own slice."""
    types = pyarrow().types
    kind = array.type
    if not len(array):
        return np.zeros(0, dtype=np.int64), np.zeros(0, dtype=np.int64)
    if types.is_fixed_size_list(kind):
        starts = np.arange(array.offset, array.offset + len(array), dtype=np.int64) * kind.list_size
        return starts, starts + kind.list_size
    view = _is_list_view(kind)
    large = types.is_large_list(kind) or (view and types.is_large_list_view(kind))
    width = np.dtype(np.int64 if large else np.int32)
    buffers, at = array.buffers(), array.offset * width.itemsize
    if view:
        starts = np.frombuffer(buffers[1], dtype=width, count=len(array), offset=at).astype(np.int64)
        return starts, starts + np.frombuffer(buffers[2], dtype=width, count=len(array), offset=at)
    offsets = np.frombuffer(buffers[1], dtype=width, count=len(array) + 1, offset=at).astype(np.int64)
    return offsets[:-1], offsets[1:]


def slice_value(value: RValue, start: int, stop: int) -> RValue:
    """Elements ``start:stop`` of a vector, list or data frame, with its attributes (names dropped)."""
    attributes = dict(value.attributes)
    if "row.names" in attributes:  # a data frame: slice each column
        columns = tuple(slice_value(c, start, stop) for c in value.data)
        attributes["row.names"] = automatic_row_names(stop - start)
        return build("list", columns, attributes)  # type: ignore[no-any-return]
    attributes.pop("names", None)
    return build(value.r_type, value.data[start:stop], attributes)  # type: ignore[no-any-return]
