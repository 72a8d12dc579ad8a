"""Converters users register for their own types, tried by ``as_r`` before the built-in kinds.

>>> has_converter(object())
False
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rvalues.errors import RValueError, shorten
from rvalues.model.base import RValue
from rvalues.model.bindings import BOUND

__all__ = ["converters_registered", "has_converter", "register_converter"]

_EXTRA_CONVERTERS: list[tuple[Callable[[Any], bool], Callable[[Any], RValue]]] = []


def register_converter(
    kind: type | tuple[type, ...] | Callable[[Any], bool], convert: Callable[[Any], Any]
) -> Callable[[], None]:
    """Teach :func:`as_r` a kind of Python object; returns a function that removes the converter again.

    ``kind`` is a class or a tuple of classes (their subclasses' instances match too) or a predicate
    ``kind(obj) -> bool``. ``convert(obj)`` returns an R value, or anything ``as_r`` takes (converted
    in turn). Converters are tried newest first, before the built-in kinds, wherever ``as_r`` runs:
    inside lists and dicts, and for each element of object columns of mixed or unknown kinds.
    Registration is global to the process (register at import time).

    >>> from fractions import Fraction
    >>> from rvalues import as_r
    >>> remove = register_converter(Fraction, float)
    >>> as_r([Fraction(1, 4)])
    [[1]]
    [1] 0.25
    <BLANKLINE>
    >>> remove()
    """
    if isinstance(kind, type) or (
        isinstance(kind, tuple) and kind and all(isinstance(k, type) for k in kind)
    ):
        classes = kind
        predicate: Callable[[Any], bool] = lambda obj: isinstance(obj, classes)  # noqa: E731
    elif callable(kind) and not isinstance(kind, tuple):
        predicate = kind
    else:
        raise RValueError(
            f"register_converter: kind must be a class, a tuple of classes or a function obj -> bool, "
            f"not {shorten(kind)}"
        )
    if not callable(convert):
        raise RValueError(
            f"register_converter: convert must be a function obj -> value, not {type(convert).__name__}"
        )
    name = getattr(kind, "__qualname__", None) or shorten(kind)

    def run(obj: Any) -> RValue:
        out = convert(obj)
        if isinstance(out, RValue):
            return out
        if out is None:
            raise RValueError(
                f"the converter registered for {name} returned None for {shorten(obj)}; "
                "return the R value (rvalues.NULL for NULL)"
            )
        if predicate(out):
            raise RValueError(
                f"the converter registered for {name} returned {shorten(out)}, which it converts "
                "again; return an R value or a built-in Python value"
            )
        return BOUND.as_r(out)

    entry = (predicate, run)
    _EXTRA_CONVERTERS.insert(0, entry)

    def remove() -> None:
        if entry in _EXTRA_CONVERTERS:
            _EXTRA_CONVERTERS.remove(entry)

    return remove


def converters_registered() -> bool:
    """Whether any converter is registered (object columns then check their elements for one)."""
    return bool(_EXTRA_CONVERTERS)


def has_converter(obj: Any) -> bool:
    """Whether a converter registered with :func:`register_converter` takes ``obj``.

    >>> has_converter(object())
    False
    """
    return any(predicate(obj) for predicate, _ in _EXTRA_CONVERTERS)
