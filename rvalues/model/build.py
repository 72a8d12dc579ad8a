"""The one constructor the layers above the model use for storage rvalues has already made.

Outside ``rvalues.model``, values are made with :func:`build`, never with ``SomeClass._wrap``:
``build`` picks the Python class from the R type and the class attribute (a ``POSIXct`` class on a
double gives a :class:`~rvalues.model.classed.POSIXct`), so a value's class and its Python type
never disagree, and it locks the arrays it stores.
"""

from __future__ import annotations

import functools
from collections.abc import Mapping, Sequence
from typing import Any

import numpy as np

from rvalues.errors import RValueError
from rvalues.model.base import RValue
from rvalues.model.classed import DataFrame, Date, Factor, POSIXct
from rvalues.model.classes import explicit_class
from rvalues.model.lists import NULL, List
from rvalues.model.strings import shorten
from rvalues.model.vectors import ATOMIC_TYPES, Character

_UNCLASSED: dict[str, type[RValue]] = {**ATOMIC_TYPES, "list": List}


def build(r_type: str, data: Any, attributes: Mapping[str, RValue] | None = None) -> Any:
    """The R value of type ``r_type`` holding ``data`` and ``attributes``, of the Python class they call for.

    ``data`` is storage in R's encoding for ``r_type`` (a numpy array, a tuple of R values for a
    list) that rvalues has made: the array is locked in place, without a copy (a view is copied;
    see :func:`rvalues.model.storage.freeze`). ``attributes`` must be valid R values already.
    Neither is checked beyond that: this is the fast path for code that has made them right.

    >>> import numpy as np
    >>> from rvalues import Character
    >>> when = build("double", np.array([0.0]), {"class": Character(["POSIXct", "POSIXt"])})
    >>> type(when).__name__, when.data.flags.writeable
    ('POSIXct', False)
    >>> build("integer", np.array([1, 2], dtype=np.int32))
    [1] 1 2
    """
    python = _UNCLASSED.get(r_type)
    if python is None:
        if r_type == "NULL":
            return NULL
        raise RValueError(f"build: r_type must be an R type ({', '.join(_UNCLASSED)}), not {shorten(r_type)}")
    if attributes and "class" in attributes:
        python = python_class(r_type, attributes)
    return python._wrap(data, attributes)


def python_class(r_type: str, attributes: Mapping[str, RValue]) -> type[RValue]:
    """The Python class of an R value of this type with these attributes (its class attribute decides).

    >>> from rvalues import Character
    >>> python_class("integer", {"class": Character(["factor"])}).__name__
    'Factor'
    """
    classes = explicit_class(attributes)
    if classes:
        if r_type == "list" and "data.frame" in classes:
            return DataFrame
        if r_type == "integer" and "factor" in classes:
            return Factor
        if r_type == "double" and "Date" in classes:
            return Date
        if r_type == "double" and "POSIXct" in classes:
            return POSIXct
    return _UNCLASSED[r_type]


SHARED_LABELS = 64
"""Character vectors of up to this many labels are made once per distinct labels (:func:`labels`)."""


def labels(strings: Sequence[str | None]) -> Character:
    """The character vector of a few labels (column names, levels, a zone), checked as R strings.

    Values are immutable, so equal labels share one vector: a tool that returns frames of the same
    columns call after call makes their names once.

    >>> labels(["id", "x"]) is labels(("id", "x"))
    True
    """
    if len(strings) > SHARED_LABELS or not set(map(type, strings)) <= _LABEL_TYPES:
        return build("character", np.array(strings, dtype=object).reshape(-1))  # type: ignore[no-any-return]
    return _shared_labels(tuple(strings))


_LABEL_TYPES = frozenset({str, type(None)})


@functools.lru_cache(maxsize=512)
def _shared_labels(strings: tuple[str | None, ...]) -> Character:
    return build("character", np.array(strings, dtype=object).reshape(-1))  # type: ignore[no-any-return]
