"""R's explicit and implicit class of a value (which Python class a value gets is
:func:`rvalues.model.build.python_class`; the invariants of classed values are checked with the
attributes, :func:`rvalues.model.attributes.check_class_invariants`)."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Protocol


class Attribute(Protocol):
    """An attribute's value, as the class readers see it (an :class:`rvalues.model.base.RValue`)."""

    @property
    def data(self) -> Any: ...


class Classed(Protocol):
    """A value, as the class readers see it: its R type and attributes (an
    :class:`rvalues.model.base.RValue`; a protocol, since ``base`` imports this module)."""

    @property
    def r_type(self) -> str: ...

    @property
    def attributes(self) -> Mapping[str, Attribute]: ...


_IMPLICIT = {
    "logical": "logical",
    "integer": "integer",
    "double": "numeric",
    "complex": "complex",
    "character": "character",
    "raw": "raw",
    "list": "list",
    "NULL": "NULL",
}


def explicit_class(attributes: Mapping[str, Attribute]) -> tuple[str, ...]:
    """R's ``oldClass(x)``: the class attribute, or an empty tuple.

    A class vector is immutable and usually shared (``factor``, ``Date``, ``data.frame``), so its
    tuple is made once per vector object and remembered while the vector lives here.

    >>> from rvalues import Character
    >>> explicit_class({"class": Character(["ordered", "factor"])})
    ('ordered', 'factor')
    """
    cls = attributes.get("class")
    if cls is None:
        return ()
    known = _CLASS_TUPLES.get(id(cls))
    if known is not None and known[0] is cls:
        return known[1]
    classes = tuple(cls.data.tolist())
    if len(_CLASS_TUPLES) >= 256:
        _CLASS_TUPLES.clear()
    _CLASS_TUPLES[id(cls)] = (cls, classes)
    return classes


_CLASS_TUPLES: dict[int, tuple[Attribute, tuple[str, ...]]] = {}
"""id(class vector) -> (the vector, its classes): holds the vector, so its id is not reused."""


def r_class(value: Classed) -> tuple[str, ...]:
    """R's ``class(x)``: the class attribute, else the implicit class (R 4.x).

    >>> from rvalues import matrix, Double
    >>> r_class(matrix([1, 2, 3, 4], nrow=2)), r_class(Double([1.5]))
    (('matrix', 'array'), ('numeric',))
    """
    attributes = value.attributes
    if not attributes:  # the common unclassed vector: no class, no dim
        return _IMPLICIT_CLASS[value.r_type]
    return explicit_class(attributes) or implicit_class(value)


def implicit_class(value: Classed) -> tuple[str, ...]:
    """R's ``class(unclass(x))``: the class a value has without its class attribute.

    >>> from rvalues import Double
    >>> implicit_class(Double([1.5]).with_attributes({"class": "myclass"}))
    ('numeric',)
    """
    dim = value.attributes.get("dim")
    if dim is not None:
        return ("matrix", "array") if len(dim.data) == 2 else ("array",)
    return _IMPLICIT_CLASS[value.r_type]


_IMPLICIT_CLASS = {r_type: (name,) for r_type, name in _IMPLICIT.items()}
