"""Teach ``to_json`` a class of your own: jsonlite's ``setMethod("asJSON", class, ...)``.

An encoder is called with the value and the options in force and returns the value to write in
its place; that value is encoded with the same options, as R's ``function(x, ...) asJSON(f(x), ...)``
does, so it is written correctly wherever the class turns up (lists, data-frame columns, pretty output).
The table is global to the process, like R's methods: register at import time, not per call.

>>> import rvalues as rv
>>> register("money", lambda x, options: x.with_attributes({"class": None}))
>>> rv.to_json(rv.Double([1.5, 20], {"class": "money"}))
'[1.5,20]'
>>> unregister("money") is not None
True
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any

from rvalues.convert import as_r
from rvalues.errors import RValueError
from rvalues.json.context import Ctx
from rvalues.json.dispatch import BUILTIN_METHODS, METHODS, decline, encode
from rvalues.json.options import JsonOptions
from rvalues.model.base import RValue
from rvalues.model.classes import r_class as class_of
from rvalues.model.strings import shorten

Encoder = Callable[[Any, JsonOptions], Any]
"""``encoder(x, options)``: given an R value x, the value to write in its place (an R value, or
anything ``as_r`` takes)."""

_USER: dict[str, Encoder] = {}
_LOCK = threading.Lock()  # keeps _USER and METHODS in step; encoding reads METHODS without it


def register(r_class: str, encoder: Encoder, *, replace: bool = False) -> Encoder | None:
    """Write values of class ``r_class`` with ``encoder``; returns the encoder it replaced, if any.

    ``encoder(x, options)`` gets the value (with its class) and the :class:`JsonOptions` in force
    where it stands (``auto_unbox`` is off inside ``I()``, ``pretty`` is whether jsonlite indents)
    and returns the value to encode instead. Returning ``x`` itself declines: x is then written as
    if no encoder were registered (the built-in method, else the next class of its class vector).
    Classes jsonlite has a method for (``Date``, ``factor``, ``data.frame`` ...) are replaced only
    with ``replace=True``; a class registered before is replaced silently, as ``setMethod`` does.

    >>> import rvalues as rv
    >>> register("Date", lambda x, options: x)
    Traceback (most recent call last):
    ...
    rvalues.errors.RValueError: register: class 'Date' has a jsonlite method; pass replace=True to override it
    """
    if not isinstance(r_class, str) or not r_class:
        raise RValueError(
            f"register: r_class must be a non-empty str (an R class name), not {shorten(r_class)}"
        )
    if not callable(encoder):
        raise RValueError(
            f"register: encoder must be a function encoder(x, options), not {type(encoder).__name__}"
        )
    method = _method(r_class, encoder)
    with _LOCK:
        if r_class in BUILTIN_METHODS and r_class not in _USER and not replace:
            raise RValueError(
                f"register: class {shorten(r_class)} has a jsonlite method; pass replace=True to override it"
            )
        previous = _USER.get(r_class)
        _USER[r_class] = encoder
        METHODS[r_class] = method
    return previous


def unregister(r_class: str) -> Encoder | None:
    """Remove the encoder registered for ``r_class`` (a built-in method comes back); returns it, or None.

    >>> unregister("no-such-class") is None
    True
    """
    with _LOCK:
        encoder = _USER.pop(r_class, None)
        if encoder is not None:
            builtin = BUILTIN_METHODS.get(r_class)
            if builtin is None:
                del METHODS[r_class]
            else:
                METHODS[r_class] = builtin
    return encoder


def registered() -> dict[str, Encoder]:
    """The encoders registered now, by class (a copy).

    >>> registered()
    {}
    """
    with _LOCK:
        return dict(_USER)


def _method(name: str, encoder: Encoder) -> Callable[[RValue, Ctx, tuple[str, ...]], Any]:
    def run(x: RValue, ctx: Ctx, cls: tuple[str, ...]) -> Any:
        out = encoder(x, options_in(ctx))
        if out is x:
            return decline(name, x, ctx, cls)
        if out is None:
            raise RValueError(
                f"the JSON encoder for class {shorten(name)} returned None; return the value to write "
                "(rvalues.NULL for JSON's {} or null)"
            )
        if not isinstance(out, RValue):
            out = as_r(out)
        if class_of(out)[0] == name:
            shown = shorten(name)
            raise RValueError(
                f"the JSON encoder for class {shown} returned a value of class {shown} again; "
                "drop the class (x.with_attributes({'class': None})) or return x itself to decline"
            )
        return encode(out, ctx)

    return run


def options_in(ctx: Ctx) -> JsonOptions:
    """The ``toJSON`` options as an ``asJSON`` method sees them at ``ctx``.

    >>> from rvalues.json.dispatch import top
    >>> options_in(top(JsonOptions(dataframe="col"))).dataframe
    'columns'
    """
    return ctx.as_options()
