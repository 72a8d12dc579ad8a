"""Frames with declared rows: a returned frame checked and built with the declared column types, and
the R class every scalar field is kept in.

>>> import dataclasses, pandas as pd
>>> @dataclasses.dataclass
... class Row:
...     n: int
>>> from mcplite.tools.annotations import read
>>> from typing import Annotated
>>> from mcplite.tools.markers import Rows
>>> frame_value(read(Annotated[pd.DataFrame, Rows(Row)]), pd.DataFrame({"n": [1.0, 2.5]}), "counts")
Traceback (most recent call last):
...
mcplite.tools.frames.Misfit: counts[1].n is float (2.5), expected an integer (column 'n' of Row rows)

A double jsonlite writes beyond a double's range is a misfit too, one that says what to do.

jsonlite writes a double with at most 15 significant digits, so the few doubles nearest the
largest one round up past it: ``.Machine$double.xmax`` (1.7976931348623157e308) is written
``1.79769313486232e+308``, which reads back as infinity. A typed tool's schema says "a number"
there, and no client can hold the value, so the typed path refuses it, naming the field:

>>> import numpy as np
>>> first_beyond(np.array([1.5, float("inf"), -1.7976931348623157e308]))
2
>>> first_beyond(np.array([1.79769313486231e308, float("nan")])) is None
True
>>> print(beyond_range(1.7976931348623157e308))  # doctest: +ELLIPSIS
a number jsonlite writes within a double's range: it writes this one as 1.79769313486232e+308, ...
"""

from __future__ import annotations

import math
import sys
import typing
from collections.abc import Callable
from typing import Any

import numpy as np

import rvalues as rv
from mcplite.protocol.checks import shown
from mcplite.tools.annotations import Shape, read, record_fields, type_name
from mcplite.tools.markers import frame_library, is_frame_class, loaded_class
from mcplite.tools.output_schema import r_class_of
from rvalues.model.coerce import as_type
from rvalues.model.elements import INT_MAX

MISSING = object()
"""The value of a field or column that is not there."""
EXTRA = object()
"""The value of a column that should not be there."""


class Misfit(ValueError):
    """A value that does not fit its declared type: where (``groups[3].mean``), what, what was expected."""

    def __init__(self, path: str, value: Any, expected: str) -> None:
        self.path, self.value, self.expected = path, value, expected
        what = "missing" if value is MISSING else "present" if value is EXTRA else shown(value)
        super().__init__(f"{path or 'the value'} is {what}, expected {expected}")

    def noting(self, note: str) -> Misfit:
        """The same misfit (of the same class) with ``note`` after what was expected.

        >>> print(Misfit("[0].n", 2.5, "an integer").noting("(column 'n' of Row rows)"))
        [0].n is float (2.5), expected an integer (column 'n' of Row rows)
        """
        return type(self)(self.path, self.value, f"{self.expected} {note}")


class OutOfRange(Misfit):
    """A double jsonlite writes beyond a double's range: no declared type holds it, so a union
    reports this misfit rather than "expected a number or null"."""


def join(path: str, step: str | int) -> str:
    """``path`` one step down: ``groups`` + 3 -> ``groups[3]``, then + ``mean`` -> ``groups[3].mean``."""
    if isinstance(step, int):
        return f"{path}[{step}]"
    return f"{path}.{step}" if path else step


def check_range(x: rv.Vector, where: Callable[[int], str]) -> None:
    """A :class:`Misfit` at (``where(i)``) the first double of ``x`` that jsonlite writes beyond a
    double's range (``1.79769313486232e+308``, infinity when read back).

    >>> check_range(rv.Double([1.0, 1.7976931348623157e308]), lambda i: f"x[{i}]")  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    mcplite.tools.frames.OutOfRange: x[1] is float (1.7976931348623157e+308), expected a number jsonlite ...
    """
    values = np.asarray(x.data, dtype=float)
    row = first_beyond(values)
    if row is not None:
        value = float(values[row])
        raise OutOfRange(where(row), value, beyond_range(value))


def _all_na(x: rv.Vector) -> bool:
    return type(x) is rv.Logical and bool(np.all(x.na_mask()))


def _na_vector(r_class: str, n: int) -> rv.Vector:
    empty: dict[str, Any] = {
        "logical": rv.Logical,
        "integer": rv.Integer,
        "double": rv.Double,
        "character": rv.Character,
        "Date": rv.Date,
        "POSIXct": rv.POSIXct,
    }
    if r_class == "factor":
        return rv.factor(rv.Character([None] * n))  # type: ignore[no-any-return]
    return empty[r_class]([None] * n)  # type: ignore[no-any-return]


def as_class(x: rv.Vector, r_class: str) -> rv.Vector | None:
    """``x`` as a vector of ``r_class`` without names (an integer vector for a double, whole doubles for
    an integer, a factor's labels for a character vector, all-NA logical for any class), else None.

    >>> as_class(rv.Double([2.0, None]), "integer")
    [1]  2 NA
    >>> as_class(rv.Double([2.5]), "integer") is None
    True
    """
    kind = type(x)
    if _all_na(x) or len(x) == 0:
        return _na_vector(r_class, len(x))
    if r_class == "logical":
        return x.without_attributes() if kind is rv.Logical else None
    if r_class in ("integer", "double") and kind in (rv.Integer, rv.Double):
        if r_class == "integer" and kind is rv.Double and len(_not_integer(x)):
            return None
        return as_type(x, r_class)  # type: ignore[no-any-return]
    if r_class == "character" and kind in (rv.Character, rv.Factor):
        return as_type(x, "character") if kind is rv.Character else _labels(x)
    if r_class == "factor" and kind in (rv.Character, rv.Factor):
        return x if kind is rv.Factor else rv.factor(as_type(x, "character"))
    if r_class in ("Date", "POSIXct") and kind.__name__ == r_class:
        keep = {key: item for key, item in x.attributes.items() if key in ("class", "tzone")}
        return x.without_attributes().with_attributes(keep)  # type: ignore[no-any-return]
    return None


def _not_integer(x: rv.Vector) -> np.ndarray:
    """The positions of a double vector's values that are no 32-bit integer (NA is one)."""
    values = np.asarray(x.data, dtype=float)
    with np.errstate(invalid="ignore"):
        whole = (values == np.round(values)) & (np.abs(values) <= INT_MAX)
        ok = rv.Double.na_only_mask(x) | whole  # type: ignore[arg-type]
    return np.flatnonzero(~ok)


def _labels(x: rv.Vector) -> rv.Vector:
    # code 0 stands for NA, so a factor without levels (all NA) indexes only the None in front
    levels = np.concatenate([[None], np.asarray(x.attributes["levels"].data, dtype=object)])
    codes = np.asarray(x.data)
    return rv.Character(levels[np.where(x.na_mask(), 0, codes)])


def _first_misfit(column: rv.Vector, r_class: str) -> int:
    """The first row whose value cannot be ``r_class`` (0 when the whole column cannot)."""
    if type(column) is rv.Double and r_class == "integer":
        bad = _not_integer(column)
        return int(bad[0]) if len(bad) else 0
    present = np.flatnonzero(~column.na_mask())
    return int(present[0]) if len(present) else 0


def as_frame(value: Any, shape: Shape, path: str) -> rv.RValue:
    """A pandas, polars, Arrow, DuckDB or R data frame (anything ``rv.as_r`` makes one of) as an R
    data frame; a polars ``LazyFrame`` is a query, not rows, and is not run here."""
    if isinstance(value, rv.DataFrame):
        return value
    if is_lazy_frame(value):
        raise Misfit(
            path, value, f"{shape.expected()}: a polars LazyFrame is a query; call `.collect()` on it"
        )
    if isinstance(value, rv.RValue) or is_frame_class(type(value)) or hasattr(value, "__arrow_c_stream__"):
        try:
            x = rv.as_r(value)
        except (rv.RValueError, TypeError, ValueError) as err:
            raise Misfit(path, value, f"{shape.expected()}; {err}") from None
        if isinstance(x, rv.DataFrame):
            return x
    raise Misfit(path, value, f"a data frame: {shape.expected()}")


def is_lazy_frame(value: Any) -> bool:
    """Whether ``value`` is a polars ``LazyFrame`` (a query whose rows ``.collect()`` computes).

    >>> import polars as pl
    >>> is_lazy_frame(pl.DataFrame({"n": [1]}).lazy()), is_lazy_frame(pl.DataFrame({"n": [1]}))
    (True, False)
    """
    lazy = loaded_class("polars", "LazyFrame")
    return lazy is not None and isinstance(value, lazy)


def as_declared(frame: rv.RValue, annotation: Any) -> Any:
    """An R data frame as the frame class ``annotation`` names (the first frame class of a union
    that is not ``rv.DataFrame``; an ``rv.DataFrame`` when there is none).

    >>> import pyarrow as pa
    >>> as_declared(rv.data_frame(n=rv.Integer([1, 2])), pa.Table | None).column("n").to_pylist()
    [1, 2]
    """
    frames = typing.get_args(annotation) or (annotation,)
    library = next((frame_library(f) for f in frames if frame_library(f) not in (None, "rvalues")), None)
    if library is None:
        return frame
    if library == "pandas":
        return rv.to_pandas(frame)
    table = rv.to_arrow(frame)
    if library == "polars":
        return sys.modules["polars"].from_arrow(table)
    if library == "duckdb":
        return sys.modules["duckdb"].from_arrow(table)
    return table


def frame_value(shape: Shape, value: Any, path: str) -> rv.RValue:
    """The frame with exactly the declared columns, each of its declared class, in the declared order."""
    x = as_frame(value, shape, path)
    names = x.names.tolist() if x.names is not None else []
    fields = record_fields(shape.item)
    declared = [name for name, _, _ in fields]
    extra = [name for name in names if name not in declared]
    if extra:
        raise Misfit(
            join(f"{path}[*]", extra[0]),
            EXTRA,
            f"no column {extra[0]!r} ({type_name(shape.item)} has none)",
        )
    twice = next((name for index, name in enumerate(names) if name in names[:index]), None)
    if twice is not None:  # a row holds each field once: which column would be meant is unknown
        where = join(f"{path}[*]", twice)
        raise Misfit(where, EXTRA, f"one column {twice!r}, not {names.count(twice)} of that name")
    columns = dict(zip(names, x.data, strict=True))
    pairs = []
    for name, annotation, _ in fields:
        cell = cell_shape(read(annotation))
        where = join(f"{path}[*]", name)
        if name not in columns:
            raise Misfit(where, MISSING, f"a column of {cell.expected()}")
        try:
            pairs.append((name, fit_column(cell, columns[name], path, name)))
        except Misfit as misfit:
            raise misfit.noting(
                f"(column {name!r} of {type_name(shape.item)} rows){_hint(misfit, cell)}"
            ) from None
    # the declared names as they are (`_a`, `a b`, `if`): jsonlite keeps a frame's names, R's
    # make.names would write `X_a`, `a.b`, `if.` where the schema says `_a`, `a b`, `if`
    return rv.data_frame_from_pairs(pairs, check_names=False)


def _hint(misfit: Misfit, cell: Shape) -> str:
    """What to do about a misfit users often meet: NaN in an integer column is what pandas makes of an
    int column with a missing value (float64)."""
    value = misfit.value
    if cell.annotation is int and isinstance(value, float) and value != value:
        return (
            "; an integer column with missing values is float64 (NaN) in pandas: make it pandas' "
            'nullable Int64 (`df[column].astype("Int64")`), whose missing values are NA'
        )
    return ""


def cell_shape(shape: Shape) -> Shape:
    """A column's declared type without ``| None`` (NA is a frame's missing value)."""
    if shape.kind == "union":
        arms = [read(arg) for arg in shape.args if read(arg).kind != "null"]
        if len(arms) == 1:
            return arms[0]
    return shape


def fit_column(cell: Shape, column: Any, path: str, name: str) -> rv.Vector:
    """One column as its declared class (a ``Literal`` or an enum of strings: a factor with those
    levels); a value that does not fit is a :class:`Misfit` naming its row."""
    r_class, levels = r_class_of(cell)
    if isinstance(column, rv.List):  # a column of mixed Python objects: each must be one value that fits
        column = _combined(column, cell, r_class, path, name)
    fitted = (
        as_class(column, "character" if r_class == "factor" else r_class)
        if isinstance(column, rv.Vector)
        else None
    )
    if fitted is None:
        row = _first_misfit(column, r_class) if isinstance(column, rv.Vector) else 0
        raise Misfit(join(join(path, row), name), _element(column, row), cell.expected())
    if r_class == "double":
        check_range(fitted, lambda row: join(join(path, row), name))
    if levels is None:
        return fitted
    values = np.asarray(fitted.data, dtype=object)
    outside = np.flatnonzero(~fitted.na_mask() & ~np.isin(values, np.asarray(levels, dtype=object)))
    if len(outside):
        row = int(outside[0])
        raise Misfit(join(join(path, row), name), _element(column, row), cell.expected())
    if r_class != "factor":
        return fitted
    return rv.factor(fitted, levels=list(levels))  # type: ignore[no-any-return]


def _combined(column: rv.RValue, cell: Shape, r_class: str, path: str, name: str) -> rv.RValue:
    """A list column as one vector of ``r_class``, or a :class:`Misfit` at its first element that is not
    one value of that class (an error path: element by element)."""
    target = "character" if r_class == "factor" else r_class
    fitted = []
    for row, element in enumerate(column.data):  # type: ignore[attr-defined]
        one = as_class(element, target) if isinstance(element, rv.Vector) and len(element) == 1 else None
        if one is None:
            single = isinstance(element, rv.Vector) and len(element) == 1
            raise Misfit(
                join(join(path, row), name), element.tolist()[0] if single else element, cell.expected()
            )
        fitted.append(one)
    return rv.c(*fitted) if fitted else _na_vector(target, 0)


def _element(column: Any, row: int) -> Any:
    try:
        return column.tolist()[row]
    except (AttributeError, IndexError):
        return column


def _written_as_infinity() -> float:
    """The least double whose 15 significant digits (jsonlite's text) read back as infinity."""
    x = float("1.797693134862315e308")  # halfway between the two largest 15-digit numbers
    while math.isfinite(float(f"{x:.15g}")):
        x = math.nextafter(x, math.inf)
    while not math.isfinite(float(f"{math.nextafter(x, 0.0):.15g}")):
        x = math.nextafter(x, 0.0)
    return x


WRITTEN_AS_INFINITY = _written_as_infinity()
"""From this magnitude up (to the largest double), jsonlite's text of a double reads back as infinity."""


def first_beyond(values: np.ndarray) -> int | None:
    """The position of the first finite double jsonlite writes beyond a double's range, or None."""
    with np.errstate(invalid="ignore"):
        beyond = np.abs(values) >= WRITTEN_AS_INFINITY
    if not beyond.any():
        return None
    found = np.flatnonzero(beyond & np.isfinite(values))
    return int(found[0]) if len(found) else None


def beyond_range(value: float) -> str:
    """What a :class:`~mcplite.tools.frames.Misfit` expected instead of ``value``, and what to do."""
    return (
        f"a number jsonlite writes within a double's range: it writes this one as {value:.15g}, "
        "which reads back as infinity (round it to 14 significant digits, clip it to "
        "+/-1.79769313486231e+308, or make it Inf; see docs/typed-tools.md)"
    )
