"""``c()``, and the methods R dispatches it to on a first argument of class factor, Date or POSIXct.

Every path ends in R's internal combine, :func:`rvalues.construct.combine.combine`.
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rvalues.construct.combine import combine, combined_names, leaves
from rvalues.construct.datetimes import date_from_vector, posixct_from_vector
from rvalues.convert import as_r
from rvalues.model.base import RValue
from rvalues.model.build import build
from rvalues.model.classes import explicit_class
from rvalues.model.lists import NULL
from rvalues.model.vectors import Character, Logical

Args = list[tuple[str | None, RValue]]


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
    return c_tagged([(None, v) for v in values] + list(named.items()))


def c_tagged(pairs: list[tuple[str | None, Any]]) -> Any:
    """``c()`` over ``(tag, value)`` pairs, in any order, tags repeated or None (R's ``c(1, a=2, 3)``).

    >>> c_tagged([(None, 1), ("a", 2), (None, 3)]).names
    [1] ""  "a" ""
    """
    args = [(tag or None, _argument(v)) for tag, v in pairs]
    if not args:
        return NULL
    first = args[0][1]
    methods_see = [(tag, v) for tag, v in args if v is not NULL]
    if _DISPATCHED.intersection(explicit_class(first.attributes)):
        return combine_classed(first, methods_see)
    return combine(args)


_DISPATCHED = frozenset({"factor", "Date", "POSIXct"})
"""The classes whose ``c()`` methods R has (below)."""


def _argument(value: Any) -> RValue:
    if value is None:
        return Logical([None])
    if isinstance(value, RValue):
        return value
    return as_r(value)


def combine_classed(first: RValue, args: Args) -> Any:
    """``c()`` with ``first`` (a factor, Date or POSIXct) as its first argument: R's method for it.

    >>> from rvalues import as_date
    >>> day = as_date("2020-01-02")
    >>> combine_classed(day, [(None, day), (None, as_date("2020-01-03"))])
    [1] "2020-01-02" "2020-01-03"
    """
    if first.inherits("factor"):
        return combine_factors(args)
    if first.inherits("Date"):
        return combine_dates(args)
    return combine_datetimes(args)


def combine_factors(args: Args) -> Any:
    """R 4.1+'s ``c.factor``: ``unlist()`` of the arguments, which is a factor (levels combined
    in order of appearance) when every atomic leaf is a factor, else the combined codes."""
    flat = [leaf for _, value in args for leaf in leaves(value)]
    if not all(_all_factors(value, top=True) for _, value in args):
        plain = [(tag, _strip_class(value)) for tag, value in args]
        return combine([(None, leaf) for leaf in _flat_leaves(plain)], names=combined_names(plain, True))
    levels: list[str] = []
    seen: set[str] = set()
    for leaf in flat:
        for level in leaf.attributes["levels"].data.tolist():
            if level not in seen:
                seen.add(level)
                levels.append(level)
    position = {level: i + 1 for i, level in enumerate(levels)}
    parts = [np.zeros(0, dtype=np.int32)]
    for leaf in flat:
        own = leaf.attributes["levels"].data.tolist()
        remap = np.array([0] + [position[level] for level in own], dtype=np.int32)
        codes = leaf.data.astype(np.int64)
        na = codes < 1
        mapped = remap[np.where(na, 0, codes)]
        mapped[na] = np.int32(-(2**31))
        parts.append(mapped.astype(np.int32))
    top = [value for _, value in args]
    ordered = all(v.inherits("ordered") for v in top) and all(
        v.attributes.get("levels") == top[0].attributes.get("levels") for v in top
    )
    attributes: dict[str, RValue] = {}
    attributes["levels"] = build("character", np.array(levels, dtype=object))
    names = combined_names(args, recursive=True)
    if names is not None:
        attributes["names"] = names
    attributes["class"] = Character(["ordered", "factor"] if ordered else ["factor"])
    return build("integer", np.concatenate(parts), attributes)


def _all_factors(value: RValue, top: bool) -> bool:
    """R's ``islistfactor``: factors all the way down (empty lists and top-level NULL aside)."""
    if value.r_type == "list":
        return all(_all_factors(v, top=False) for v in value.data)
    if value.r_type == "NULL":
        return top
    return value.inherits("factor")


def _strip_class(value: RValue) -> RValue:
    """A value with factor classes dropped at every depth (``unlist`` sees codes)."""
    if value.r_type == "list":
        return build("list", tuple(_strip_class(v) for v in value.data), value.attributes)
    if value.inherits("factor"):
        return value.without_attributes().with_attributes(_names_only(value))
    return value


def _flat_leaves(args: Args) -> list[RValue]:
    return [leaf.without_attributes() for _, value in args for leaf in leaves(value)]


def _names_only(value: RValue) -> dict[str, Any]:
    return {"names": value.names} if value.names is not None else {}


def combine_dates(args: Args) -> Any:
    """R 4.2.2's ``c.Date``: every argument through ``as.Date``, then ``.Date(c(...))``."""
    days = [
        (tag, date_from_vector(v, None).without_attributes().with_attributes(_names_only(v)))
        for tag, v in args
    ]
    out = combine(days)
    return out.with_attributes({"class": "Date"})


def combine_datetimes(args: Args) -> Any:
    """R 4.2.2's ``c.POSIXct``: instants combined; the zone kept only where all agree."""
    converted = [posixct_from_vector(v, None, None) if not v.inherits("POSIXct") else v for _, v in args]
    zones = {
        None if v.attributes.get("tzone") is None else tuple(v.attributes["tzone"].data.tolist())
        for v in converted
    }
    secs = combine(
        [
            (tag, v.without_attributes().with_attributes(_names_only(v)))
            for (tag, _), v in zip(args, converted)
        ]
    )
    attributes: dict[str, Any] = {"class": Character(["POSIXct", "POSIXt"])}
    if len(zones) == 1:
        (only,) = zones
        if only is not None:
            attributes["tzone"] = Character(list(only))
    return secs.with_attributes(attributes)
