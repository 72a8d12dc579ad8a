"""``c()``: R's combine, with its coercion order, NA typing and names."""

from __future__ import annotations

from typing import Any

import numpy as np

from rvalues.errors import RValueError
from rvalues.model.base import RValue
from rvalues.model.coerce import as_type, highest_type
from rvalues.model.elements import read_only
from rvalues.model.lists import NULL, List
from rvalues.model.vectors import ATOMIC_TYPES, Character, Logical


def c(*values: Any, **named: Any) -> Any:
    """R's ``c(...)``: positional arguments, then named ones (``c(1, 2, a=3)``).

    The result type is the highest of the arguments in R's order
    logical < integer < double < complex < character < list; NA stays typed
    (``c(NA, 1)`` is a double NA, ``c(NA, "a")`` a character NA). ``None`` is NA.
    A factor, Date or POSIXct first argument dispatches as R's methods do.

    >>> c(1, None, a=2.5)
                a
    1.0  NA   2.5
    """
    args = [(None, _argument(v)) for v in values] + [(k, _argument(v)) for k, v in named.items()]
    args = [(tag, v) for tag, v in args if v is not NULL]
    if not args:
        return NULL
    first = args[0][1]
    if first.inherits("factor"):
        from rvalues.construct.dispatch import combine_factors

        return combine_factors(args)
    if first.inherits("Date"):
        from rvalues.construct.dispatch import combine_dates

        return combine_dates(args)
    if first.inherits("POSIXct"):
        from rvalues.construct.dispatch import combine_datetimes

        return combine_datetimes(args)
    return combine(args)


def _argument(value: Any) -> RValue:
    if value is None:
        return Logical([None])
    if isinstance(value, RValue):
        return value
    from rvalues.convert import as_r

    return as_r(value)


def combine(args: list[tuple[str | None, RValue]]) -> Any:
    """``c()`` without method dispatch (R's internal default), over (tag, value) pairs."""
    for tag, value in args:
        if value.r_type not in ATOMIC_TYPES and value.r_type not in ("list", "NULL"):
            raise RValueError(f"c(): argument {tag or ''} of type {value.r_type} cannot be combined")
    r_type = highest_type([v.r_type for _, v in args])
    names = combined_names(args)
    if r_type == "list":
        elements: list[RValue] = []
        for _, value in args:
            elements.extend(as_type(value, "list").data if value.r_type != "list" else value.data)
        out: Any = List._wrap(tuple(elements))
    else:
        parts = [as_type(v, r_type).data for _, v in args]
        out = ATOMIC_TYPES[r_type]._wrap(read_only(np.concatenate(parts)))
    if names is not None:
        out = out._wrap(out.data, {"names": names})
    return out


def combined_names(args: list[tuple[str | None, RValue]]) -> Character | None:
    """The names ``c()`` gives its result, or None where no argument is tagged or named.

    A tag ``x`` on a length-1 argument names it ``x``; on a longer one ``x1, x2, ...``;
    with inner names ``a`` it becomes ``x.a``. Untagged arguments keep their own names.
    """
    if not any(tag or v.names is not None for tag, v in args):
        return None
    out: list[str | None] = []
    for tag, value in args:
        inner = value.names.data.tolist() if value.names is not None else [""] * len(value)
        count = len(value)
        for seq, name in enumerate(inner, start=1):
            if tag:
                if name is None:
                    out.append(f"{tag}.NA")
                elif name:
                    out.append(f"{tag}.{name}")
                else:
                    out.append(tag if count == 1 else f"{tag}{seq}")
            else:
                out.append(name)
    return Character._wrap(read_only(np.array(out, dtype=object)))
