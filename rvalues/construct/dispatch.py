"""The ``c()`` methods R dispatches on a first argument of class factor, Date or POSIXct."""

from __future__ import annotations

from typing import Any

import numpy as np

from rvalues.construct.combine import combine, combined_names
from rvalues.model.base import RValue
from rvalues.model.elements import read_only
from rvalues.model.vectors import Character

Args = list[tuple[str | None, RValue]]


def combine_factors(args: Args) -> Any:
    """R 4.1+'s ``c.factor``: all factors combine their levels in order; otherwise the codes."""
    from rvalues.model.classed import Factor

    if not all(v.inherits("factor") for _, v in args):
        return combine([(tag, v.without_attributes().with_attributes(_names_only(v))) for tag, v in args])
    levels: list[str] = []
    seen: set[str] = set()
    for _, value in args:
        for level in value.attributes["levels"].data.tolist():
            if level not in seen:
                seen.add(level)
                levels.append(level)
    position = {level: i + 1 for i, level in enumerate(levels)}
    parts = []
    for _, value in args:
        own = value.attributes["levels"].data.tolist()
        remap = np.array([0] + [position[level] for level in own], dtype=np.int32)
        codes = value.data.astype(np.int64)
        na = codes < 1
        mapped = remap[np.where(na, 0, codes)]
        mapped[na] = np.int32(-(2**31))
        parts.append(mapped.astype(np.int32))
    ordered = all(v.inherits("ordered") for _, v in args) and all(
        v.attributes["levels"] == args[0][1].attributes["levels"] for _, v in args
    )
    attributes: dict[str, RValue] = {}
    names = combined_names(args)
    if names is not None:
        attributes["names"] = names
    attributes["levels"] = Character._wrap(read_only(np.array(levels, dtype=object)))
    attributes["class"] = Character(["ordered", "factor"] if ordered else ["factor"])
    return Factor._wrap(read_only(np.concatenate(parts)), attributes)


def _names_only(value: RValue) -> dict[str, Any]:
    return {"names": value.names} if value.names is not None else {}


def combine_dates(args: Args) -> Any:
    """R 4.2.2's ``c.Date``: every argument through ``as.Date``, then ``.Date(c(...))``."""
    from rvalues.construct.classed import as_date

    days = [(tag, as_date(v).without_attributes().with_attributes(_names_only(v))) for tag, v in args]
    out = combine(days)
    return out.with_attributes({"class": "Date"})


def combine_datetimes(args: Args) -> Any:
    """R 4.2.2's ``c.POSIXct``: instants combined; the zone kept only where all agree."""
    from rvalues.construct.classed import as_posixct

    converted = [as_posixct(v) if not v.inherits("POSIXct") else v for _, v in args]
    zones = {None if v.attributes.get("tzone") is None else tuple(v.attributes["tzone"].data.tolist())
             for v in converted}
    secs = combine([(tag, v.without_attributes().with_attributes(_names_only(v)))
                    for (tag, _), v in zip(args, converted)])
    attributes: dict[str, Any] = {"class": Character(["POSIXct", "POSIXt"])}
    if len(zones) == 1:
        (only,) = zones
        if only is not None:
            attributes["tzone"] = Character(list(only))
    return secs.with_attributes(attributes)
