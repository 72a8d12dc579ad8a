"""The markers an annotation carries, and the frames one may mark.

``Rows(Row)`` declares the rows of a data frame: ``Annotated[pd.DataFrame, Rows(Row)]`` (or
``rv.DataFrame``) is a frame whose rows are ``Row``, a dataclass, attrs class or TypedDict: one
column per field, of the field's type. jsonlite writes such a frame as an array of row objects, and
a tool parameter so typed accepts one.

>>> import dataclasses
>>> @dataclasses.dataclass
... class Point:
...     x: float
>>> Rows(Point).row.__name__
'Point'

``Examples(...)`` gives a parameter's input schema its ``examples``: ``Annotated[str,
Examples("body_mass_g")]`` lists ``"examples": ["body_mass_g"]`` in the tool's input schema, so that
a client (or a model) can fill a required argument from the schema alone. Each example must be a
JSON value the parameter accepts; the tool is refused at registration otherwise.

>>> Examples("body_mass_g", "year").values
('body_mass_g', 'year')

The frame classes ``Rows(Row)`` may declare the rows of are ``rv.DataFrame``, and pandas', polars',
pyarrow's and DuckDB's frames, recognized without importing their libraries (an annotation naming
one has imported it; mcplite imports none of them).

>>> frame_library(rv.DataFrame), is_frame_class(list)
('rvalues', False)
"""

from __future__ import annotations

import sys
from typing import Any

import attrs

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


@attrs.frozen
class Rows:
    """The rows of a frame: each a ``row`` (a dataclass, attrs class or TypedDict)."""

    row: Any

    def __repr__(self) -> str:
        return f"Rows({getattr(self.row, '__name__', self.row)})"


@attrs.frozen(init=False)
class Examples:
    """Example values of a parameter, as JSON (at least one)."""

    values: tuple[Any, ...]

    def __init__(self, *values: Any) -> None:
        if not values:
            raise ValueError("Examples(...) takes at least one example value")
        self.__attrs_init__(values)  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"Examples({', '.join(repr(value) for value in self.values)})"
