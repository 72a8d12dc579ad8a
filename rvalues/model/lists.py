"""R's generic vector (list) and NULL."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any, ClassVar

import attrs

from rvalues.errors import RValueError
from rvalues.model.base import RValue


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

    def __new__(cls, values: Iterable[Any] = (), attributes: Mapping[str, Any] | None = None) -> Any:
        from rvalues.model.attributes import merge_attributes
        from rvalues.model.build import build

        if isinstance(values, (str, bytes, Mapping)) or not isinstance(values, Iterable):
            raise RValueError(
                f"List: expected an iterable of elements, not {type(values).__name__} ({values!r}); "
                "use r_list(**named) or List.from_pairs() for named lists"
            )
        bare = cls._wrap(tuple(_element(v, i) for i, v in enumerate(values)))
        if not attributes:
            return bare
        return build(cls.r_type, bare._data, merge_attributes(bare, attributes))

    @classmethod
    def from_pairs(cls, pairs: Iterable[tuple[str | None, Any]]) -> List:
        """A named list from ``(name, value)`` pairs; names may repeat, be empty or None (NA).

        >>> List.from_pairs([("a", 1), ("a", 2), ("", 3)]).names
        [1] "a" "a" ""
        """
        pairs = list(pairs)
        from rvalues.model.vectors import Character

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


def _element(value: Any, position: int) -> RValue:
    if isinstance(value, RValue):
        return value
    from rvalues.convert import as_r

    try:
        return as_r(value)
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
