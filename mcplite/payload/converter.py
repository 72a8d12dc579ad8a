"""The one cattrs Converter mcplite owns: protocol types in their wire form, R values as payloads.

Protocol types (results, content blocks, annotations, tools) are unstructured by the wire hooks of
:mod:`mcplite.protocol.wire`. R values are unstructured by one hook, registered on
:class:`rvalues.RValue`, that reads the payload options in force when it runs
(:func:`mcplite.options`): ``converter.unstructure(x)`` is exactly the structured content a tool
result carries for ``x``. Where a tool's value is turned into a result, the hook leaves R values as
they are (:func:`unstructure_keeping_r_values`): they are written once, with the rest of the value,
under the options that result is written with.

As cattrs' ``preconf`` modules do, :func:`configure_converter` installs these hooks on any
converter and :func:`make_converter` makes a new one; ``mcplite.converter`` is the one mcplite uses.

Your own classes: register an unstructure hook on this converter that returns plain Python data
or an R value; mcplite then treats your objects as it treats that data, in return values and in
structured content alike:

>>> import attrs, mcplite
>>> @attrs.define
... class Point:
...     x: float
...     y: float
>>> mcplite.converter.register_unstructure_hook(Point, lambda p: {"x": p.x, "y": p.y})
>>> mcplite.as_tool_result(Point(1, 2)).content[0].text
'{"x":1,"y":2}'
"""

from __future__ import annotations

from contextvars import ContextVar
from typing import Any

import cattrs

from mcplite.payload.rjson import encode, options_in_force
from mcplite.protocol.wire import configure_wire
from rvalues import RValue

_keeping_r_values: ContextVar[bool] = ContextVar("mcplite_keeping_r_values", default=False)
"""True while :func:`unstructure_keeping_r_values` runs (in this thread or task only)."""


def unstructure_r_value(x: RValue) -> Any:
    """The R-value hook: ``x``'s JSON-ready data under the payload options in force when it runs;
    ``x`` itself inside :func:`unstructure_keeping_r_values`.

    >>> from rvalues import c, NA
    >>> unstructure_r_value(c(1.5, NA))
    [1.5, 'NA']
    """
    if _keeping_r_values.get():
        return x
    return encode(x, options=options_in_force()).data


def unstructure_keeping_r_values(value: Any) -> Any:
    """``converter.unstructure(value)`` with the R values in it left as they are, for the payload
    path to write them once under the options it was given (not written, then read back).

    >>> import attrs
    >>> from rvalues import RValue, c
    >>> @attrs.define
    ... class Mean:
    ...     value: RValue
    >>> x = c(1.5)
    >>> unstructure_keeping_r_values(Mean(x))["value"] is x, converter.unstructure(Mean(x))["value"]
    (True, 1.5)
    """
    token = _keeping_r_values.set(True)
    try:
        return converter.unstructure(value)
    finally:
        _keeping_r_values.reset(token)


def configure_converter(conv: cattrs.Converter) -> None:
    """Install mcplite's hooks on ``conv``: each protocol class's wire form, and R values as payloads.

    >>> from mcplite.protocol.types import TextContent
    >>> from rvalues import c
    >>> conv = cattrs.Converter()
    >>> configure_converter(conv)
    >>> conv.unstructure(TextContent("hi")), conv.unstructure(c(1, 2))
    ({'type': 'text', 'text': 'hi'}, [1, 2])
    """
    configure_wire(conv)
    conv.register_unstructure_hook(RValue, unstructure_r_value)


def make_converter(*args: Any, **kwargs: Any) -> cattrs.Converter:
    """A new ``cattrs.Converter(*args, **kwargs)`` configured by :func:`configure_converter`."""
    conv = cattrs.Converter(*args, **kwargs)
    configure_converter(conv)
    return conv


converter = make_converter()
"""mcplite's converter. ``converter.unstructure(block)`` gives a protocol object's wire dict."""


def get_converter() -> cattrs.Converter:
    """mcplite's converter (the same object as ``mcplite.converter``)."""
    return converter
