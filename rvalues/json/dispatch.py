"""Which encoder runs for a value: jsonlite's S4 dispatch on the class vector.

The first class picks the method (with R's registered inheritance: ``ordered`` is a factor,
``POSIXct`` a ``POSIXt``, ``integer`` ``numeric``); an unknown first class goes to the ANY method,
which drops it and retries, and at the last class errors (or, with ``force``, unclasses).
Encoders reach this generic through the context they are handed (``ctx.encode``), never by
importing this module: :func:`top` puts it there.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from types import MappingProxyType
from typing import Any

from rvalues.json.arrays import encode_array
from rvalues.json.atomic import (
    encode_character,
    encode_complex,
    encode_logical,
    encode_numeric,
    encode_raw,
)
from rvalues.json.classed import encode_date, encode_factor, encode_posixt
from rvalues.json.context import PREFIX_AWARE, Ctx, token_array
from rvalues.json.frames import encode_frame
from rvalues.json.lists import encode_list, encode_null
from rvalues.json.methods import BUILTIN, METHODS, Method
from rvalues.json.options import JsonliteError, JsonOptions
from rvalues.model.base import RValue
from rvalues.model.build import build
from rvalues.model.classes import implicit_class, r_class
from rvalues.model.coerce import as_type
from rvalues.model.vectors import Vector


def _asis(x: RValue, ctx: Ctx, cls: tuple[str, ...]) -> Any:
    rest = tuple(dict.fromkeys(c for c in cls if c != "AsIs"))
    child = ctx.but(auto_unbox=False) if isinstance(x, Vector) and len(x.data) == 1 else ctx
    return encode(x, child, rest or implicit_class(x))


def _scalar(x: RValue, ctx: Ctx, cls: tuple[str, ...]) -> Any:
    return encode(x, ctx.but(collapse=False), cls[1:] if len(cls) > 1 else implicit_class(x))


def _null(x: RValue, ctx: Ctx, cls: tuple[str, ...]) -> Any:
    return encode_null(ctx)


def _list(x: RValue, ctx: Ctx, cls: tuple[str, ...]) -> Any:
    if x.r_type != "list":
        return _any(x, ctx, cls)
    names = x.attributes.get("names")
    return encode_list(x.data, None if names is None else names.data.tolist(), ctx)


def _typed(kind: tuple[str, ...], method: Callable[[RValue, Ctx], Any]) -> Callable[..., Any]:
    def run(x: RValue, ctx: Ctx, cls: tuple[str, ...]) -> Any:
        if x.r_type not in kind:
            return _any(x, ctx, cls)
        return method(x, ctx)

    return run


def _json(x: RValue, ctx: Ctx, cls: tuple[str, ...]) -> Any:
    """``as.character(x)`` as a string, or with ``json_verbatim`` as JSON text itself."""
    if x.r_type == "character":
        text = build("character", x.data)
    elif isinstance(x, Vector):  # jsonlite's method takes any vector of class json
        text = as_type(x, "character")
    else:
        return _any(x, ctx, cls)
    if ctx.json_verbatim:  # one token per element (NA stays NA)
        return token_array(text.data.tolist())
    return encode(text, ctx)


def _ts(x: RValue, ctx: Ctx, cls: tuple[str, ...]) -> Any:
    if x.r_type == "list":
        return _any(x, ctx, cls)
    return encode(build(x.r_type, x.data), ctx)


# jsonlite's methods, one per class (the table is rvalues.json.methods')
METHODS.update(
    {
        "AsIs": _asis,
        "scalar": _scalar,
        "NULL": _null,
        "logical": _typed(("logical",), encode_logical),
        "numeric": _typed(("integer", "double"), encode_numeric),
        "integer": _typed(("integer", "double"), encode_numeric),
        "double": _typed(("integer", "double"), encode_numeric),
        "character": _typed(("character",), encode_character),
        "complex": _typed(("complex",), encode_complex),
        "raw": _typed(("raw",), encode_raw),
        "factor": _typed(("integer",), encode_factor),
        "ordered": _typed(("integer",), encode_factor),
        "Date": _typed(("double", "integer"), encode_date),
        "POSIXct": _typed(("double", "integer"), encode_posixt),
        "POSIXlt": _typed(("list",), encode_posixt),
        "POSIXt": _typed(("double", "integer", "list"), encode_posixt),
        "list": _list,
        "pairlist": _list,
        "data.frame": _typed(("list",), encode_frame),
        "matrix": lambda x, ctx, cls: encode_array(x, ctx),
        "array": lambda x, ctx, cls: encode_array(x, ctx),
        "json": _json,
        "ts": _ts,
    }
)

BUILTIN.update(METHODS)
BUILTIN_METHODS: Mapping[str, Method] = MappingProxyType(BUILTIN)
"""jsonlite's own methods, which ``register`` replaces only when asked and ``unregister`` restores."""

# asJSON methods that exist for exactly these implicit classes (what force=TRUE may unclass to)
_EXACT = {"numeric", "character", "logical", "list", "matrix", "array", "complex", "raw", "NULL"}


# what to do about jsonlite's error, for classes a Python value often converts to (a note on the
# exception, so that its message stays jsonlite's own)
_REMEDIES = {
    "difftime": 'convert durations to numbers first (as.numeric(x, units = "secs") in R; '
    "Series.dt.total_seconds() in pandas)",
}


def _any(x: RValue, ctx: Ctx, cls: tuple[str, ...]) -> Any:
    if len(cls) > 1:
        return encode(x, ctx, cls[1:])
    if ctx.force:
        base = implicit_class(x)
        if base[0] in _EXACT:
            return encode(x, ctx, base)
        return "{}"
    error = JsonliteError(f"No method asJSON S3 class: {cls[0]}")
    if cls[0] in _REMEDIES:
        error.add_note(_REMEDIES[cls[0]])
    raise error


def decline(name: str, x: RValue, ctx: Ctx, cls: tuple[str, ...]) -> Any:
    """x as if no user method were registered for class ``name``: the built-in one, else the next class."""
    builtin = BUILTIN_METHODS.get(name)
    return _any(x, ctx, cls) if builtin is None else builtin(x, ctx, cls)


def encode(x: RValue, ctx: Ctx, cls: tuple[str, ...] | None = None) -> Any:
    """``asJSON(x, ...)``: the JSON text (or, with ``collapse`` off, the token array) of x.

    ``cls`` stands in for ``class(x)`` where jsonlite has changed the class on the way down.
    """
    if cls is None:
        cls = r_class(x)
    method = METHODS.get(cls[0]) if cls else None
    if (ctx.prefix is not None or ctx.list_tokens) and cls and cls[0] not in PREFIX_AWARE:
        ctx = ctx.but(prefix=None, list_tokens=False)
    if method is None:
        return _any(x, ctx, cls)
    return method(x, ctx, cls)


def top(options: JsonOptions) -> Ctx:
    """The context ``toJSON`` starts ``asJSON`` with: the options, and :func:`encode` as the generic.

    >>> from rvalues import c
    >>> encode(c(1.5, 2), top(JsonOptions()))
    '[1.5,2]'
    """
    return Ctx.top(options, encode)


__all__ = ["encode", "top"]
