"""R's generic vector (list) and NULL."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

import attrs

from rvalues.errors import RValueError, shorten
from rvalues.model.base import RValue, attribute_changes
from rvalues.model.bindings import BOUND
from rvalues.model.vectors import Character


@attrs.define(frozen=True, init=False, eq=False, repr=False, slots=True)
class List(RValue):
    """An R list: a tuple of R values, named or not.

    >>> List([1, "a"])            # Python elements convert with as_r()
    [[1]]
    [1] 1
    <BLANKLINE>
    [[2]]
    [1] "a"
    <BLANKLINE>
    """

    r_type: ClassVar[str] = "list"
    _depth: int = attrs.field(init=False)  # how many lists deep the value nests

    @classmethod
    def _wrap(cls, data: Any, attributes: Mapping[str, RValue] | None = None) -> Any:
        """A list from valid elements; refused past :data:`MAX_DEPTH` levels of nesting."""
        nested = [e._depth for e in data if isinstance(e, List)]
        depth = max(nested) + 1 if nested else 1
        if depth > MAX_DEPTH:
            raise RValueError(
                f"List: the value would nest {depth} lists deep; R values nest at most {MAX_DEPTH} "
                "levels here (rvalues.MAX_DEPTH: deeper values exhaust the stack, as jsonlite's toJSON does)"
            )
        obj = super()._wrap(data, attributes)
        object.__setattr__(obj, "_depth", depth)
        return obj

    def __contains__(self, name: object) -> bool:
        """Whether a name is among the list's names, as ``name in dict(x)`` says."""
        names = self.names
        return names is not None and isinstance(name, str) and name in names.data.tolist()

    def __new__(cls, values: Iterable[Any] = (), attributes: Mapping[str, Any] | None = None) -> Any:
        if attributes is not None:
            attribute_changes(attributes, "List(attributes=)")
        if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
            raise RValueError(
                f"List: expected an iterable of elements, not {type(values).__name__} ({shorten(values)}); "
                "use r_list(**named) or List.from_pairs() for named lists"
            )
        bare = cls._wrap(tuple(_element(v, i) for i, v in enumerate(values)))
        return bare.with_attributes(attributes) if attributes else bare

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[str | None, Any]]) -> List:
        """A named list from ``(name, value)`` pairs; names may repeat, be empty or None (NA).

        >>> List.from_pairs([("a", 1), ("a", 2), ("", 3)]).names
        [1] "a" "a" ""
        """
        pairs = _pairs(pairs, "List.from_pairs")

        values = cls([v for _, v in pairs])
        return values.with_attributes({"names": Character([n for n, _ in pairs])})  # type: ignore[no-any-return]

    def tolist(self) -> list[Any]:
        return list(self._data)

    def __getitem__(self, key: int | str) -> RValue:
        """R's ``x[[i]]`` (0-based position) or ``x[["name"]]`` (the first element of that name)."""
        if isinstance(key, str):
            names = self.names
            if names is not None:
                for i, name in enumerate(names.data.tolist()):
                    if name == key:
                        return self._data[i]  # type: ignore[no-any-return]
            raise KeyError(key)
        return self._data[key]  # type: ignore[no-any-return]

    def keys(self) -> list[str | None]:
        """The names (None for NA), or an empty list where the list has no names."""
        names = self.names
        return [] if names is None else names.data.tolist()


MAX_DEPTH = 100
"""How deep lists may nest in an R value (``as_r`` and every list constructor refuse deeper ones).

R's jsonlite writes a few hundred levels before its C stack runs out; 100 leaves room for the
Python stack of the code that walks a value (printing, JSON, ``identical``, pickling).
"""


def _pairs(pairs: Any, what: str) -> list[tuple[Any, Any]]:
    """``pairs`` as a list of (name, value) 2-tuples, or a TypeError naming the first misfit."""
    if isinstance(pairs, (str, bytes, Mapping)) or not isinstance(pairs, Iterable):
        raise TypeError(f"{what}: expected an iterable of (name, value) pairs, not {shorten(pairs)}")
    out = list(pairs)
    for i, pair in enumerate(out):
        if not isinstance(pair, tuple) or len(pair) != 2:
            raise TypeError(f"{what}: element {i} ({shorten(pair)}) is not a (name, value) pair")
    return out


def _element(value: Any, position: int) -> RValue:
    if isinstance(value, RValue):
        return value
    try:
        return BOUND.as_r(value)  # type: ignore[no-any-return]
    except RValueError as err:
        raise RValueError(f"List: element {position}: {err}") from None


@attrs.define(frozen=True, init=False, eq=False, repr=False, slots=True)
class NULLType(RValue):
    """R's NULL: the one value with no payload and no attributes. Use ``rvalues.NULL``."""

    r_type: ClassVar[str] = "NULL"

    def __new__(cls) -> NULLType:
        return NULL

    def tolist(self) -> list[Any]:
        return []

    def __len__(self) -> int:
        return 0

    def with_attributes(self, changes: Mapping[str, Any] | None = None, **named: Any) -> Any:
        if any(v is not None and v is not NULL for v in {**(changes or {}), **named}.values()):
            raise RValueError("NULL cannot have attributes; use an empty list (List()) instead")
        return NULL

    def __reduce__(self) -> str:
        return "NULL"


NULL: NULLType = NULLType._wrap(())
"""R's NULL."""
