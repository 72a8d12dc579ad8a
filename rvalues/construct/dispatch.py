"""The ``c()`` methods R dispatches on a first argument of class factor, Date or POSIXct."""

from __future__ import annotations

from typing import Any

import numpy as np

from rvalues.construct.classed import as_date, as_posixct
from rvalues.construct.combine import combine, combined_names, leaves
from rvalues.model.base import RValue
from rvalues.model.build import build
from rvalues.model.vectors import Character

Args = list[tuple[str | None, RValue]]


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
    days = [(tag, as_date(v).without_attributes().with_attributes(_names_only(v))) for tag, v in args]
    out = combine(days)
    return out.with_attributes({"class": "Date"})


def combine_datetimes(args: Args) -> Any:
    """R 4.2.2's ``c.POSIXct``: instants combined; the zone kept only where all agree."""
    converted = [as_posixct(v) if not v.inherits("POSIXct") else v for _, v in args]
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
