"""The frame classes ``Rows(Row)`` may declare the rows of: ``rv.DataFrame``, and pandas', polars',
pyarrow's and DuckDB's frames, recognized without importing their libraries (an annotation naming
one has imported it; mcplite imports none of them).

>>> frame_library(rv.DataFrame), is_frame_class(list)
('rvalues', False)
"""

from __future__ import annotations

import sys
from typing import Any

import rvalues as rv


def pandas_class(name: str) -> Any:
    """``pandas.<name>`` if pandas is loaded, else None: no value or annotation can be a pandas one before
    something imports pandas, and ``import mcplite`` does not.

    >>> import pandas
    >>> pandas_class("DataFrame") is pandas.DataFrame
    True
    """
    pandas = sys.modules.get("pandas")
    return None if pandas is None else getattr(pandas, name)


FRAME_CLASSES: tuple[tuple[str, str], ...] = (
    ("pandas", "DataFrame"),
    ("polars", "DataFrame"),
    ("pyarrow", "Table"),
    ("duckdb", "DuckDBPyRelation"),
)
"""The frame classes ``Rows(Row)`` may declare the rows of, besides ``rv.DataFrame``: (module, name)."""


def loaded_class(module: str, name: str) -> Any:
    """``<module>.<name>`` if the module is loaded, else None (an annotation naming a class has
    imported its module; mcplite imports none of them).

    >>> import pyarrow
    >>> loaded_class("pyarrow", "Table") is pyarrow.Table
    True
    """
    loaded = sys.modules.get(module)
    return None if loaded is None else getattr(loaded, name, None)


def frame_library(annotation: Any) -> str | None:
    """The library of a frame class ``Rows(Row)`` may declare the rows of (``"rvalues"``, ``"pandas"``,
    ``"polars"``, ``"pyarrow"``, ``"duckdb"``), else None.

    >>> import polars
    >>> frame_library(polars.DataFrame), frame_library(rv.DataFrame), frame_library(dict)
    ('polars', 'rvalues', None)
    """
    if annotation is rv.DataFrame:
        return "rvalues"
    if annotation is None:
        return None
    return next((module for module, name in FRAME_CLASSES if annotation is loaded_class(module, name)), None)


def is_frame_class(annotation: Any) -> bool:
    """Whether ``Rows(Row)`` may declare the rows of ``annotation``: ``rv.DataFrame``, ``pd.DataFrame``,
    ``pl.DataFrame``, ``pa.Table`` or ``duckdb.DuckDBPyRelation``."""
    return frame_library(annotation) is not None
