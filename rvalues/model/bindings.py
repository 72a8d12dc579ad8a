"""The functions the value classes call but are defined above them, bound once at package import.

``RValue.with_attributes`` needs :func:`~rvalues.model.build.build` and the attribute rules, which
import the value classes; ``List([1, "a"])`` and ``attr<-`` convert Python values with ``as_r``
(convert); ``Factor([...])``, ``Date([...])``, ``POSIXct([...])`` and ``DataFrame(...)`` are R's
constructors (construct); ``repr`` prints (printing). Nothing in ``rvalues.model`` imports those
modules: ``rvalues/model/__init__.py`` and ``rvalues/__init__.py`` bind them here, by name checked
against :class:`Bindings`, before any value can be made (importing any rvalues module runs both).

>>> BOUND.as_r(1.5).data.tolist()
[1.5]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

__all__ = ["BOUND", "Bindings", "bind"]


class Bindings:
    """The bound functions, one attribute each; an unbound one raises a clear error when called."""

    __slots__ = (
        "as_date",
        "as_posixct",
        "as_r",
        "build",
        "c",
        "data_frame",
        "factor",
        "format_html",
        "format_value",
        "merge_attributes",
    )
    # rvalues.model: build(r_type, data, attributes), merge_attributes(value, changes)
    build: Callable[..., Any]
    merge_attributes: Callable[..., Any]
    # rvalues.convert: as_r(value)
    as_r: Callable[..., Any]
    # rvalues.construct: c(*values), factor(values, levels=, ordered=), as_date(values),
    # as_posixct(values, tz=), data_frame(**columns)
    c: Callable[..., Any]
    factor: Callable[..., Any]
    as_date: Callable[..., Any]
    as_posixct: Callable[..., Any]
    data_frame: Callable[..., Any]
    # rvalues.printing: format_value(value) for repr, format_html(frame) for notebooks
    format_value: Callable[..., Any]
    format_html: Callable[..., Any]

    def __init__(self) -> None:
        for name in self.__slots__:
            object.__setattr__(self, name, _unbound(name))


def _unbound(name: str) -> Callable[..., Any]:
    def missing(*args: Any, **kwargs: Any) -> Any:
        raise RuntimeError(f"rvalues.model needs {name!r}, bound when rvalues is imported; import rvalues")

    return missing


BOUND = Bindings()
"""The one set of bindings the model reads (``BOUND.build(...)``)."""


def bind(**functions: Callable[..., Any]) -> None:
    """Bind functions by their :class:`Bindings` attribute name (called by the package ``__init__`` files).

    >>> bind(as_rr=print)
    Traceback (most recent call last):
    ...
    TypeError: bind: 'as_rr' is not one of Bindings' names (as_date, as_posixct, as_r, build, c, ...)
    """
    for name, function in functions.items():
        if name not in Bindings.__slots__:
            known = ", ".join(Bindings.__slots__[:5])
            raise TypeError(f"bind: {name!r} is not one of Bindings' names ({known}, ...)")
        setattr(BOUND, name, function)
