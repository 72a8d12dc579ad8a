"""The six atomic vector types, each backed by a read-only numpy array in R's encoding."""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, ClassVar

import attrs
import numpy as np

from rvalues.model.base import RValue, attribute_changes
from rvalues.model.elements import (
    character_storage,
    complex_storage,
    double_storage,
    integer_storage,
    logical_storage,
    raw_storage,
    read_only,
)
from rvalues.na import NA_INTEGER, real_is_na


@attrs.define(frozen=True, init=False, eq=False, repr=False, slots=True)
class Vector(RValue):
    """An atomic vector. Construct one of the concrete types: ``Double([1.5, None])``.

    ``attributes`` may be any mapping of names to R values or Python values that convert
    (``{"names": ["a", "b"]}``); the result is of the class its attributes say.
    """

    if TYPE_CHECKING:  # each concrete type sets ``_storage = staticmethod(<its storage function>)``

        @staticmethod
        def _storage(values: Any) -> np.ndarray: ...

    def __new__(cls, values: Any = (), attributes: Mapping[str, Any] | None = None) -> Any:
        if cls is Vector:
            raise TypeError("Vector is abstract: use Logical, Integer, Double, Complex, Character or Raw")
        if attributes is not None:
            attribute_changes(attributes, f"{cls.__name__}(attributes=)")
        bare = cls._wrap(read_only(cls._storage(values)))
        return bare.with_attributes(attributes) if attributes else bare

    def na_mask(self) -> np.ndarray:
        """R's ``is.na(x)`` as a boolean array."""
        raise NotImplementedError

    def tolist(self) -> list[Any]:
        out = self._data.tolist()
        mask = self.na_mask()
        if mask.any():
            for i in np.flatnonzero(mask).tolist():
                out[i] = None
        return out

    def __getitem__(self, index: int) -> Any:
        """The element at ``index`` as a Python object (NA as None)."""
        if not isinstance(index, (int, np.integer)):
            raise TypeError(f"an R vector is indexed by an int position, not {type(index).__name__}")
        element = self._data[index : index + 1] if index != -1 else self._data[-1:]
        return type(self)._wrap(element).tolist()[0]


@attrs.define(frozen=True, init=False, eq=False, repr=False, slots=True)
class Logical(Vector):
    """An R logical vector: ``Logical([True, None, False])`` (None is NA)."""

    r_type: ClassVar[str] = "logical"
    _storage = staticmethod(logical_storage)

    def na_mask(self) -> np.ndarray:
        return self._data == NA_INTEGER

    def tolist(self) -> list[Any]:
        return [None if v == NA_INTEGER else bool(v) for v in self._data.tolist()]


@attrs.define(frozen=True, init=False, eq=False, repr=False, slots=True)
class Integer(Vector):
    """An R integer vector (int32; -2147483648 is NA): ``Integer([1, None, 3])``."""

    r_type: ClassVar[str] = "integer"
    _storage = staticmethod(integer_storage)

    def na_mask(self) -> np.ndarray:
        return self._data == NA_INTEGER


@attrs.define(frozen=True, init=False, eq=False, repr=False, slots=True)
class Double(Vector):
    """An R double vector: ``Double([1.5, None, float("nan")])`` keeps NA and NaN apart."""

    r_type: ClassVar[str] = "double"
    _storage = staticmethod(double_storage)

    def na_mask(self) -> np.ndarray:
        return np.isnan(self._data)

    def na_only_mask(self) -> np.ndarray:
        """Where the vector holds NA_real_ (``is.na(x) & !is.nan(x)``)."""
        return real_is_na(self._data)

    def tolist(self) -> list[Any]:
        out = self._data.tolist()
        na = real_is_na(self._data)
        if na.any():
            for i in np.flatnonzero(na).tolist():
                out[i] = None
        return out


@attrs.define(frozen=True, init=False, eq=False, repr=False, slots=True)
class Complex(Vector):
    """An R complex vector: ``Complex([1 + 2j, None])``."""

    r_type: ClassVar[str] = "complex"
    _storage = staticmethod(complex_storage)

    def na_mask(self) -> np.ndarray:
        return np.isnan(self._data.real) | np.isnan(self._data.imag)

    def tolist(self) -> list[Any]:
        out = self._data.tolist()
        na = real_is_na(self._data.real) | real_is_na(self._data.imag)
        for i in np.flatnonzero(na).tolist():
            out[i] = None
        return out


@attrs.define(frozen=True, init=False, eq=False, repr=False, slots=True)
class Character(Vector):
    """An R character vector: ``Character(["a", None])``; NA is distinct from the string "NA"."""

    r_type: ClassVar[str] = "character"
    _storage = staticmethod(character_storage)

    def na_mask(self) -> np.ndarray:
        return np.equal(self._data, None)  # type: ignore[call-overload]  # numpy stubs lack None

    def tolist(self) -> list[Any]:
        return self._data.tolist()


@attrs.define(frozen=True, init=False, eq=False, repr=False, slots=True)
class Raw(Vector):
    """An R raw vector (bytes; no NA): ``Raw(b"bla")``."""

    r_type: ClassVar[str] = "raw"
    _storage = staticmethod(raw_storage)

    def na_mask(self) -> np.ndarray:
        return np.zeros(len(self._data), dtype=bool)

    def tolist(self) -> list[Any]:
        return self._data.tolist()


ATOMIC_TYPES: dict[str, type[Vector]] = {
    cls.r_type: cls for cls in (Logical, Integer, Double, Complex, Character, Raw)
}
