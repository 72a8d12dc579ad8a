"""Row names and row counts of data frames, in R's internal forms."""

from __future__ import annotations

import functools
from typing import Any

import numpy as np

from rvalues.model.classes import explicit_class
from rvalues.model.elements import read_only
from rvalues.model.vectors import Integer
from rvalues.na import NA_INTEGER


def is_compact(row_names: Any) -> bool:
    """Whether row names are R's compact form ``c(NA_integer_, n)`` (n < 0: automatic)."""
    data = row_names.data
    return row_names.r_type == "integer" and len(data) == 2 and data[0] == NA_INTEGER


def row_count(row_names: Any) -> int:
    """The number of rows the ``row.names`` attribute stands for."""
    if is_compact(row_names):
        return abs(int(row_names.data[1]))
    return len(row_names.data)


@functools.lru_cache(maxsize=1024)
def automatic_row_names(n: int) -> Any:
    """R's automatic row names for n rows: ``c(NA_integer_, -n)`` (``integer(0)`` for none).

    Values are immutable, so frames of the same length share one (small frames make many).
    """
    if n == 0:
        return Integer._wrap(read_only(np.array([], dtype=np.int32)))
    return Integer._wrap(read_only(np.array([NA_INTEGER, -n], dtype=np.int32)))


def expanded_row_names(row_names: Any) -> Any:
    """What R's ``attr(x, "row.names")`` shows: compact forms expanded to ``1:n``."""
    if is_compact(row_names):
        n = row_count(row_names)
        return Integer._wrap(read_only(np.arange(1, n + 1, dtype=np.int32)))
    return row_names


def column_length(column: Any) -> int:
    """The number of rows a data-frame column fills (matrix columns: their row count)."""
    attributes = column.attributes
    if column.r_type == "list" and "data.frame" in explicit_class(attributes):
        row_names = attributes.get("row.names")
        return (
            len(column.data[0])
            if row_names is None and column.data
            else (row_count(row_names) if row_names is not None else 0)
        )
    dim = attributes.get("dim")
    if dim is not None:
        return int(dim.data[0])
    return len(column.data)
