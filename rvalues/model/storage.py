"""Locked storage: the one place an array becomes the read-only, owned payload of an R value.

numpy lets anyone switch ``writeable`` back on for an array that owns its memory, or whose chain
of bases ends in a writable buffer. A locked array ends its chain in a read-only buffer instead
(``bytes`` for small numeric arrays, a read-only ``memoryview`` for larger ones, :class:`_Lock` for
strings), so numpy refuses:

>>> import numpy as np
>>> locked = freeze(np.arange(3.0))
>>> locked.flags.writeable = True
Traceback (most recent call last):
...
ValueError: cannot set WRITEABLE flag to True of this array

:func:`owned` is for memory that is not rvalues' own (a user's array, a pandas column): it copies
unless the array is locked already. :func:`freeze` locks an array rvalues has just made, in place.
Character storage is checked once, when it is locked (see :mod:`rvalues.model.strings`).
"""

from __future__ import annotations

import array as pyarray
from typing import Any

import numpy as np

from rvalues.model.strings import check_strings

_BUFFER_KINDS = frozenset("biufc")

_COPY_BELOW = 4096
"""Numeric arrays of fewer bytes are locked as a copy in ``bytes``: one call, about 3x cheaper
than locking the array in place. Larger ones are locked in place, without a copy."""


class _Lock:
    """The final base of a locked object array: it exposes no buffer, so no view can be unlocked.

    numpy reads the owner's array struct (a capsule that keeps the owner alive), which is several
    times cheaper than its ``__array_interface__`` dict; the owner must be read-only already."""

    __slots__ = ("__array_struct__", "_owner")

    def __init__(self, owner: np.ndarray) -> None:
        self.__array_struct__ = owner.__array_struct__
        self._owner = owner


def _is_lock(base: Any) -> bool:
    """Whether ``base`` ends a locked chain: ``bytes``, or the tuple in which numpy keeps a
    :class:`_Lock` with its struct's capsule."""
    kind = type(base)
    return kind is bytes or (kind is tuple and type(base[0]) is _Lock)


def is_locked(array: np.ndarray) -> bool:
    """Whether ``array`` is locked storage (or a view of it)."""
    base = array.base
    if base is None:  # an array that owns its memory can always be made writeable again
        return False
    if _is_lock(base):  # read before the flags: neither _Lock nor bytes lets a view be made writeable
        return True
    if array.flags.writeable:
        return False
    while isinstance(base, np.ndarray):
        base = base.base
    if _is_lock(base):
        return True
    if type(base) is memoryview and base.readonly:
        owner = base.obj
        return isinstance(owner, np.ndarray) and not owner.flags.writeable and owner.flags.owndata
    return False


def freeze(array: np.ndarray, *, checked: bool = False) -> np.ndarray:
    """Lock an array rvalues has just made, in place (small numeric arrays and views of other
    memory are copied).

    ``checked``: the caller has already checked these strings with a faster, vectorized test.

    >>> freeze(np.array([1, 2], dtype=np.int32)).flags.writeable
    False
    """
    base = array.base
    if base is not None and (type(base) is bytes or is_locked(array)):  # see is_locked
        return array
    if _is_small_numeric(array):
        return np.frombuffer(array.tobytes(), array.dtype)
    if not array.flags.owndata or not array.flags.c_contiguous:
        array = array.copy()
    if array.dtype.kind == "O":
        if not checked:
            check_strings(array)
        array.flags.writeable = False
        return np.asarray(_Lock(array))
    array.flags.writeable = False
    if array.dtype.kind in _BUFFER_KINDS and array.ndim == 1:
        return np.frombuffer(array.data.toreadonly(), dtype=array.dtype)
    return np.asarray(_Lock(array))


def lock_shared(view: np.ndarray) -> np.ndarray:
    """Locked storage over memory another library owns and does not change (an Arrow buffer), without
    a copy. ``view`` must be read-only; the result keeps it, and so that memory, alive.

    >>> shared = lock_shared(np.frombuffer(memoryview(b"\\0" * 16).toreadonly(), dtype=np.float64))
    >>> is_locked(shared), shared.tolist()
    (True, [0.0, 0.0])
    """
    if view.flags.writeable:
        raise ValueError("lock_shared: expected a read-only view, got a writable array")
    return np.asarray(_Lock(view))


def few_locked(values: list[Any], typecode: str) -> np.ndarray:
    """Locked storage of a few Python numbers, written straight into ``bytes`` (typecode "i": int32,
    "d": float64): about half the cost of an array that ``freeze`` then copies.

    >>> few_locked([1, -2], "i").flags.writeable, few_locked([0.5], "d").dtype
    (False, dtype('float64'))
    """
    return np.frombuffer(pyarray.array(typecode, values).tobytes(), dtype=_TYPECODES[typecode])


_TYPECODES: dict[str, np.dtype[Any]] = {"i": np.dtype(np.int32), "d": np.dtype(np.float64)}


def owned(array: np.ndarray, *, checked: bool = False) -> np.ndarray:
    """Locked storage holding ``array``'s values: ``array`` itself if locked, else a locked copy.

    >>> user = np.array([1.5, 2.5])
    >>> np.shares_memory(owned(user), user)
    False
    """
    if is_locked(array):
        return array
    if _is_small_numeric(array):
        return np.frombuffer(array.tobytes(), array.dtype)  # a locked copy (see freeze)
    return freeze(np.array(array, copy=True, order="C"), checked=checked)


def _is_small_numeric(array: np.ndarray) -> bool:
    return array.ndim == 1 and array.nbytes < _COPY_BELOW and array.dtype.kind in _BUFFER_KINDS


def lock_data(data: Any) -> Any:
    """The payload ``_wrap`` stores: arrays locked (see :func:`freeze`), tuples (lists) as they are."""
    if isinstance(data, np.ndarray):
        return freeze(data)
    return data
