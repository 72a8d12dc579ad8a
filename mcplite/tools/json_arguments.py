"""A tool's own ``toJSON`` arguments (``@server.tool(to_json={...})``), on top of the payload options.

They are :func:`rvalues.json.to_json`'s keyword arguments (``digits``, ``posixt``, ``utc``,
``time_format``, ``date``, ``factor``, ``always_decimal``, ...), checked once at registration by
rvalues' own validation, and applied to the tool's text, its structured content, its derived output
schema and the pages of a cut result alike. ``na``, ``null`` and ``auto_unbox`` belong to the payload
options (``mcplite.options(json_na=...)``), so a tool cannot set them; ``pretty`` would break a
result's line.

>>> args = checked_json_arguments({"digits": None, "posixt": "ISO8601"}, "tool 'f'", typed=True)
>>> applied(JsonOptions(auto_unbox=True), args).posixt
'ISO8601'
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

import attrs

from rvalues import RValueError
from rvalues.json import JsonOptions

PAYLOAD_OWNED = {"na": "json_na", "null": "json_null", "auto_unbox": "json_auto_unbox"}
"""The arguments the payload options set, by the option that sets them."""

REFUSED = {"pretty": "a result's JSON is written on one line"}
"""Arguments no tool may set, and why."""

SHAPING = ("dataframe", "matrix", "rownames", "keep_vec_names", "no_dots")
"""Arguments that change a value's shape or names: a typed tool's derived schema cannot follow them."""

_NAMES = tuple(field.name for field in attrs.fields(JsonOptions))


def _allowed(typed: bool) -> list[str]:
    refused = {*PAYLOAD_OWNED, *REFUSED, *(SHAPING if typed else ())}
    return [name for name in _NAMES if name not in refused]


def checked_json_arguments(to_json: Any, owner: str, *, typed: bool) -> dict[str, Any]:
    """``to_json`` checked (a mapping of :func:`rvalues.json.to_json`'s keyword arguments to valid
    values); ``typed``: the tool derives its output schema, so the arguments must be ones it follows.

    >>> checked_json_arguments({"POSIXt": "ISO8601"}, "tool 'f'", typed=False)
    Traceback (most recent call last):
    ...
    ValueError: tool 'f': to_json has no argument 'POSIXt' (did you mean 'posixt'?); ...
    """
    if to_json is None:
        return {}
    if not isinstance(to_json, Mapping):
        raise TypeError(
            f"{owner}: to_json must be a dict of rv.to_json's arguments, not {type(to_json).__name__}"
        )
    allowed = _allowed(typed)
    for name in to_json:
        if name in PAYLOAD_OWNED:
            raise ValueError(
                f"{owner}: to_json cannot set {name!r}: the payload option {PAYLOAD_OWNED[name]} does "
                f"(mcplite.options({PAYLOAD_OWNED[name]}=...)); a tool may set {', '.join(allowed)}"
            )
        if name in REFUSED:
            raise ValueError(f"{owner}: to_json cannot set {name!r}: {REFUSED[name]}")
        if name in SHAPING and typed:
            raise ValueError(
                f"{owner}: to_json cannot set {name!r} for a typed tool: it changes the value's shape "
                "or names, which its output schema could not follow; a typed tool may set "
                f"{', '.join(allowed)}"
            )
        if name not in allowed:
            near = [known for known in _NAMES if isinstance(name, str) and known == name.lower()]
            hint = f" (did you mean {near[0]!r}?)" if near else ""
            raise ValueError(
                f"{owner}: to_json has no argument {name!r}{hint}; the arguments are {', '.join(allowed)}"
            )
    for name, value in to_json.items():
        try:
            checked = JsonOptions(**{name: value})  # rvalues' own checks (match.arg, digits, ...)
        except (RValueError, TypeError) as err:
            raise ValueError(f"{owner}: to_json[{name!r}]: {err}") from None
        if typed and checked.posixt == "mongo":
            raise ValueError(
                f"{owner}: to_json cannot set posixt='mongo' for a typed tool (its output schema says a "
                "date-time's string or number); use 'string', 'ISO8601' or 'epoch'"
            )
    return dict(to_json)


_applied: dict[tuple[JsonOptions, tuple[tuple[str, Any], ...]], JsonOptions] = {}


def applied(options: JsonOptions, arguments: dict[str, Any]) -> JsonOptions:
    """The payload options ``options`` with a tool's ``arguments`` on top (the same object when it
    has none; cached, so that a listing's schema cache keys stay few).

    >>> applied(JsonOptions(), {}) == JsonOptions()
    True
    """
    if not arguments:
        return options
    key = (options, tuple(arguments.items()))
    try:
        found = _applied.get(key)
    except TypeError:  # an unhashable value (a list as time_format): not cached
        return attrs.evolve(options, **arguments)
    if found is None:
        found = _applied[key] = attrs.evolve(options, **arguments)
    return found
