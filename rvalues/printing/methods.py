"""The S3 print methods R has for the classes rvalues models.

``factor`` (and ``ordered``), ``Date``, ``POSIXct``, ``difftime``, ``data.frame``, ``AsIs``,
jsonlite's ``scalar`` and ``json``; a class without a method prints as ``print.default`` (showing
``attr(,"class")``).

>>> import numpy as np
>>> from rvalues.model.build import build
>>> from rvalues.printing.accessors import character
>>> f = build("integer", np.array([1, 2], dtype=np.int32), {"levels": character(["a", "b"]),
...                                                         "class": character(["factor"])})
>>> from rvalues.printing.core import print_default
>>> print("\\n".join(print_object(f, print_default)))
[1] a b
Levels: a b
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np

import rvalues.printing.options as options
from rvalues.format.datetime import format_date, format_posixct
from rvalues.format.strings import display_width, encode_string
from rvalues.model.build import build
from rvalues.na import NA_INTEGER
from rvalues.printing.accessors import (
    character,
    classes,
    difftime_units,
    rows_head,
    strings,
    tzone,
    with_class,
)
from rvalues.printing.frame import format_column_strings, print_data_frame
from rvalues.printing.scalar import scalar_json

Default = Callable[..., list[str]]
"""R's ``print.default`` (:func:`rvalues.printing.core.print_default`), which the dispatch hands to
every method: methods print their parts with it, and none imports the dispatch that imports them."""


def print_object(x: Any, default: Default) -> list[str]:
    """Print a classed value with the method of its first class that has one, else ``default``."""
    return _next_method(x, classes(x), default)


def _next_method(x: Any, rest: tuple[str, ...], default: Default) -> list[str]:
    for i, name in enumerate(rest):
        method = _METHODS.get(name)
        if method is not None:
            return method(x, rest[i + 1 :], default)
    return default(x)


def print_asis(x: Any, rest: tuple[str, ...], default: Default) -> list[str]:
    """``print.AsIs``: drop the AsIs class and print with the next method."""
    remaining = tuple(c for c in classes(x) if c != "AsIs")
    return _next_method(with_class(x, remaining), rest, default)


def print_factor(x: Any, rest: tuple[str, ...], default: Default) -> list[str]:
    """``print.factor``: the labels unquoted (``<NA>`` for NA), then the ``Levels:`` line."""
    ordered = "ordered" in classes(x)
    levels = strings(x.attributes.get("levels")) or []
    codes = x.data
    lines: list[str]
    if len(codes) == 0:
        lines = ["ordered(0)" if ordered else "factor(0)"]
    else:
        valid = (codes != NA_INTEGER) & (codes >= 1) & (codes <= len(levels))
        level_array = np.array([*levels, None], dtype=object)
        labels = level_array[np.where(valid, codes - 1, len(levels))]
        keep = {k: v for k, v in x.attributes.items() if k not in ("levels", "class")}
        lines = default(character(labels.tolist(), keep), quote=False)
    lines.append(_levels_line(levels, ordered))
    return lines


def _levels_line(levels: list[str | None], ordered: bool) -> str:
    lev = [encode_string(v) for v in levels]
    n = len(lev)
    colsep = " < " if ordered else " "
    width = options.WIDTH - (len("Levels: ") + 3 + 1 + 3)
    cumulative = np.cumsum([display_width(v) + len(colsep) for v in lev]) if n else np.array([0])
    if n <= 1 or cumulative[-1] <= width:
        maxl = n
    else:
        maxl = max(1, int(np.argmax(cumulative > width)))  # which.max(lenl > width) - 1
    drop = n > maxl
    shown = lev[: max(1, maxl - 1)] + ["..."] + ([lev[-1]] if maxl > 1 else []) if drop else lev
    return (f"{n} " if drop else "") + "Levels: " + colsep.join(shown)


def print_date(x: Any, rest: tuple[str, ...], default: Default) -> list[str]:
    """``print.Date``: the formatted dates, quoted, names kept."""
    return _print_times(x, lambda v: format_date(v.data), default)


def print_posixct(x: Any, rest: tuple[str, ...], default: Default) -> list[str]:
    """``print.POSIXct``: formatted in its time zone with the zone abbreviation."""
    return _print_times(x, lambda v: format_posixct(v.data, tzone(v), usetz=True), default)


def _print_times(x: Any, fmt: Callable[[Any], np.ndarray], default: Default) -> list[str]:
    n = len(x.data)
    if n == 0:
        return [f"{classes(x)[0]} of length 0"]
    limit = options.MAX_PRINT
    shown = rows_head(x, limit) if limit < n else x
    keep = {k: v for k, v in shown.attributes.items() if k == "names"}
    lines = default(character(fmt(shown).tolist(), keep))
    if limit < n:
        lines.append(f""" [ reached 'max' / getOption("max.print") -- omitted {n - limit} entries ]""")
    return lines


def print_difftime(x: Any, rest: tuple[str, ...], default: Default) -> list[str]:
    """``print.difftime``: one value as ``Time difference of 90 mins``; several (or an array)
    under a ``Time differences in <units>`` line, printed without the class and units."""
    units = difftime_units(x)
    plain = _without_units(with_class(x, ()))
    if "dim" in plain.attributes or len(x.data) > 1:
        return [f"Time differences in {units}", *default(plain)]
    return [f"Time difference of {''.join(t or 'NA' for t in format_column_strings(plain))} {units}"]


def _without_units(x: Any) -> Any:
    return build(x.r_type, x.data, {k: v for k, v in x.attributes.items() if k != "units"})


def print_frame(x: Any, rest: tuple[str, ...], default: Default) -> list[str]:
    """``print.data.frame``."""
    return print_data_frame(x)


def print_scalar(x: Any, rest: tuple[str, ...], default: Default) -> list[str]:
    """jsonlite's ``print.scalar``: ``[x] <json>``, or a one-row data frame with row name ``[x]``."""
    remaining = classes(x)[1:]
    inner = with_class(x, remaining)
    if "data.frame" in remaining:
        return print_data_frame(inner, row_labels=["[x]"])
    return ["[x] " + scalar_json(inner)]


def print_json(x: Any, rest: tuple[str, ...], default: Default) -> list[str]:
    """jsonlite's ``print.json``: ``cat(x, "\\n")``."""
    texts = ["NA" if s is None else s for s in (strings(x) or [])]
    return (" ".join(texts) + " ").split("\n")


_METHODS: dict[str, Callable[[Any, tuple[str, ...], Default], list[str]]] = {
    "AsIs": print_asis,
    "factor": print_factor,
    "Date": print_date,
    "POSIXct": print_posixct,
    "difftime": print_difftime,
    "data.frame": print_frame,
    "scalar": print_scalar,
    "json": print_json,
}
