"""The root of the value model: an R value is a typed payload plus ordered attributes."""

from __future__ import annotations

import operator
from collections.abc import Iterator, Mapping
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, ClassVar, Protocol

import attrs

from rvalues.errors import shorten
from rvalues.model.bindings import BOUND
from rvalues.model.classes import r_class
from rvalues.model.identical import same_value, value_hash
from rvalues.model.storage import lock_data


class Names(Protocol):
    """What :attr:`RValue.names` gives: a :class:`rvalues.model.vectors.Character` (a protocol, so the
    root of the model need not import the vectors built on it).

    >>> from rvalues import Integer
    >>> Integer([1, 2]).with_names(["a", "b"]).names.tolist()
    ['a', 'b']
    """

    r_type: ClassVar[str]

    @property
    def data(self) -> Any: ...

    @property
    def attributes(self) -> Mapping[str, RValue]: ...

    def __len__(self) -> int: ...

    def tolist(self) -> list[Any]: ...

    def na_mask(self) -> Any: ...

    def without_attributes(self) -> Any: ...


EMPTY_ATTRIBUTES: Mapping[str, RValue] = MappingProxyType({})


def attribute_changes(changes: Any, what: str) -> Mapping[str, Any]:
    """``changes`` if it is a mapping of attribute names to values, else a ``TypeError`` naming ``what``.

    >>> attribute_changes(5, "Integer(attributes=)")
    Traceback (most recent call last):
    ...
    TypeError: Integer(attributes=): expected a mapping of attribute names to values ..., not int (5)
    """
    if not isinstance(changes, Mapping):
        raise TypeError(
            f"{what}: expected a mapping of attribute names to values such as {{'names': ['a']}}, "
            f"not {type(changes).__name__} ({shorten(changes)})"
        )
    return changes


@attrs.define(frozen=True, init=False, eq=False, repr=False, slots=True)
class RValue:
    """Any R value: a payload in R's storage and an ordered, read-only attribute mapping.

    The Python class of a value follows its R type and class attribute, as R's meaning does:

    >>> from rvalues import r_list, Integer
    >>> r_list(a=Integer([1, 2])).with_attributes({"class": "data.frame", "row.names": [1, 2]})
      a
    1 1
    2 2
    """

    r_type: ClassVar[str] = ""
    _data: Any = attrs.field(alias="_data")
    _attributes: Mapping[str, RValue] = attrs.field(alias="_attributes")
    # what a conversion made this very object from (rvalues.convert.origins); unset for most values
    _origin: dict[str, Any] = attrs.field(init=False)

    # -- construction ---------------------------------------------------------------------------

    @classmethod
    def _wrap(cls, data: Any, attributes: Mapping[str, RValue] | None = None) -> Any:
        """Make a value from storage that is already valid: no checks, and arrays are locked
        in place (:func:`rvalues.model.storage.freeze`), so pass only arrays rvalues made.

        Only ``rvalues.model`` calls this; other layers use :func:`rvalues.model.build.build`,
        which also picks the Python class the ``class`` attribute calls for."""
        obj = object.__new__(cls)
        object.__setattr__(obj, "_data", lock_data(data))
        object.__setattr__(
            obj, "_attributes", EMPTY_ATTRIBUTES if not attributes else MappingProxyType(dict(attributes))
        )
        return obj

    # -- reading --------------------------------------------------------------------------------

    if TYPE_CHECKING:

        @property
        def data(self) -> Any:
            """The payload in R's own encoding (a read-only numpy array, or a tuple for lists)."""

        @property
        def attributes(self) -> Mapping[str, RValue]:
            """The attributes, in R's order, as a read-only mapping of names to R values."""

    else:  # the same, read by C getters: the encoders read them hundreds of times a call
        data = property(
            operator.attrgetter("_data"),
            doc="The payload in R's own encoding (a read-only numpy array, or a tuple for lists).",
        )
        attributes = property(
            operator.attrgetter("_attributes"),
            doc="The attributes, in R's order, as a read-only mapping of names to R values.",
        )

    def __len__(self) -> int:
        return len(self._data)

    @property
    def names(self) -> Names | None:
        """The ``names`` attribute, or None where the value has none."""
        return self._attributes.get("names")  # type: ignore[return-value]

    @property
    def dim(self) -> tuple[int, ...] | None:
        """The ``dim`` attribute as a tuple of ints, or None."""
        dim = self._attributes.get("dim")
        return None if dim is None else tuple(int(v) for v in dim.data)

    @property
    def r_class(self) -> tuple[str, ...]:
        """What R's ``class(x)`` returns: the class attribute, else the implicit class."""
        return r_class(self)

    def inherits(self, what: str) -> bool:
        """R's ``inherits(x, what)``."""
        return what in self.r_class

    # -- attributes -----------------------------------------------------------------------------

    def with_attributes(self, changes: Mapping[str, Any] | None = None, **named: Any) -> Any:
        """Set attributes (``None`` or ``NULL`` removes one) and return the value of the matching class.

        >>> from rvalues import Double
        >>> Double([1.5, 2]).with_attributes({"names": ["a", "b"]})
          a   b
        1.5 2.0
        """
        given = {} if changes is None else attribute_changes(changes, "with_attributes")
        merged = BOUND.merge_attributes(self, {**given, **named})
        return BOUND.build(self.r_type, self._data, merged)

    def with_names(self, names: Any) -> Any:
        """Return a copy with ``names`` set (``None`` removes them)."""
        return self.with_attributes({"names": names})

    def without_attributes(self) -> Any:
        """R's ``unclass`` and more: the same payload with no attributes at all."""
        return BOUND.build(self.r_type, self._data, {})

    # -- Python protocol ------------------------------------------------------------------------

    def tolist(self) -> list[Any]:
        """The elements as Python objects (NA as None; list elements as R values)."""
        raise NotImplementedError

    def __iter__(self) -> Iterator[Any]:
        return iter(self.tolist())

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, RValue):
            return NotImplemented
        return same_value(self, other)

    def __hash__(self) -> int:
        return value_hash(self)

    def __reduce__(self) -> str | tuple[Any, ...]:
        """Pickle as type, payload and attributes; unpickling locks the payload again."""
        return (_restore, (self.r_type, self._data, dict(self._attributes)))

    def __copy__(self) -> RValue:
        return self  # values are immutable: a copy may be the value itself

    def __deepcopy__(self, memo: dict[int, Any]) -> RValue:
        return self

    def __bool__(self) -> bool:
        raise TypeError(
            f"the truth value of an R {self.r_type} is ambiguous; compare elements of .data instead"
        )

    def __repr__(self) -> str:
        return BOUND.format_value(self)  # type: ignore[no-any-return]

    def __str__(self) -> str:
        return self.__repr__()


def _restore(r_type: str, data: Any, attributes: dict[str, RValue]) -> RValue:
    """Rebuild a pickled value (its class follows from its type and attributes, as everywhere)."""
    return BOUND.build(r_type, data, attributes)  # type: ignore[no-any-return]


def identical(x: Any, y: Any) -> bool:
    """R's ``identical(x, y)``: False unless both are R values (:func:`rvalues.model.identical.same_value`).

    >>> from rvalues import Double, NA_real_, c
    >>> identical(c(1, NA_real_), Double([1.0, None])), identical(NA_real_, Double([float("nan")]))
    (True, False)
    >>> identical(c(1), 1.0)
    False
    """
    return isinstance(x, RValue) and isinstance(y, RValue) and same_value(x, y)
