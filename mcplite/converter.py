"""The one cattrs Converter mcplite owns: protocol types in their wire form, R values as payloads.

Protocol types (results, content blocks, annotations, tools) are unstructured by explicit hooks
with a fixed encoding: wire names (``mimeType``, ``isError``, ``_meta``, ...), the ``type``
discriminator first, optional fields omitted when unset. R values are unstructured by one hook,
registered on :class:`rvalues.RValue`, that reads the payload options in force when it runs
(:func:`mcplite.options`): it is the one way a payload is encoded (:func:`encode`), so
``converter.unstructure(x)`` is exactly the structured content a tool result carries for ``x``.

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

import json
import math
import re
from collections.abc import Callable
from typing import Any

import attrs
import cattrs
from cattrs.gen import make_dict_unstructure_fn, override

from mcplite.messages import Implementation
from mcplite.options import jsonlite_options
from mcplite.types import (
    Annotations,
    AudioContent,
    BlobResourceContents,
    CallToolResult,
    EmbeddedResource,
    Icon,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
    Tool,
    ToolAnnotations,
)
from rvalues import Character, List, RValue, RValueError
from rvalues.json import JsonOptions
from rvalues.json.api import encode_with, read_json
from rvalues.model.classes import explicit_class

# -- protocol types: a fixed wire encoding ----------------------------------------------------------

WIRE_NAMES: dict[str, str] = {
    "mime_type": "mimeType",
    "last_modified": "lastModified",
    "meta": "_meta",
    "is_error": "isError",
    "structured_content": "structuredContent",
    "result_type": "resultType",
    "input_schema": "inputSchema",
    "output_schema": "outputSchema",
    "read_only_hint": "readOnlyHint",
    "destructive_hint": "destructiveHint",
    "idempotent_hint": "idempotentHint",
    "open_world_hint": "openWorldHint",
    "website_url": "websiteUrl",
}
"""Python field name -> wire name, where they differ."""

ALWAYS_SENT = frozenset({"input_schema"})
"""Required wire fields that have a Python default (every other field at its default is omitted)."""

PLAIN_JSON = frozenset({"structured_content", "meta", "input_schema", "output_schema"})
"""Fields checked to be plain JSON when their object is built: written as they are, not walked again."""

NOT_SENT = frozenset({"structured_json"})
"""Fields that are not protocol fields (the structured content's JSON text rides along with it)."""

PROTOCOL_CLASSES: tuple[type, ...] = (
    Annotations,
    Icon,
    TextContent,
    ImageContent,
    AudioContent,
    ResourceLink,
    TextResourceContents,
    BlobResourceContents,
    EmbeddedResource,
    CallToolResult,
    ToolAnnotations,
    Tool,
    Implementation,
)
"""The classes whose wire form :func:`configure_converter` installs."""


def _as_is(value: Any) -> Any:
    return value


def _wire_hook(cls: type, conv: cattrs.Converter) -> Callable[[Any], dict[str, Any]]:
    field_names = {field.name for field in attrs.fields(cls)}
    overrides: dict[str, Any] = {  # Any: mypy matches **overrides against the bool parameters too
        name: override(
            rename=WIRE_NAMES.get(name),
            omit_if_default=False if name in ALWAYS_SENT else None,
            unstruct_hook=_as_is if name in PLAIN_JSON else None,
        )
        for name in field_names & (WIRE_NAMES.keys() | ALWAYS_SENT | PLAIN_JSON)
    }
    for name in NOT_SENT & field_names:
        overrides[name] = override(omit=True)
    fields_hook: Callable[[Any], dict[str, Any]] = make_dict_unstructure_fn(
        cls, conv, _cattrs_omit_if_default=True, **overrides
    )
    block_type = getattr(cls, "type", None)
    if block_type is None:
        return fields_hook

    def with_type(obj: Any) -> dict[str, Any]:
        return {"type": block_type, **fields_hook(obj)}

    return with_type


# -- R values: the payload encoding -----------------------------------------------------------------


@attrs.frozen
class Payload:
    """A payload encoded once: the JSON-ready value and its exact JSON text (they agree)."""

    data: Any
    json: str


_options_cache: dict[tuple[tuple[str, Any], ...], JsonOptions] = {}


def options_in_force() -> JsonOptions:
    """jsonlite's arguments under the payload options in force in this thread or task.

    >>> options_in_force().auto_unbox, options_in_force().null
    (True, 'null')
    """
    key = tuple(jsonlite_options().items())  # its keys come in one order
    found = _options_cache.get(key)
    if found is None:
        found = _options_cache[key] = JsonOptions(**dict(key))
    return found


def strip_json_class(x: RValue) -> RValue:
    """Drop class ``json`` from character vectors (in lists too), so they stay JSON strings.

    >>> strip_json_class(Character(['{"a":1}'], {"class": "json"})).attributes.get("class") is None
    True
    """
    if isinstance(x, Character):
        classes = explicit_class(x.attributes)
        if "json" not in classes:
            return x
        rest = [c for c in classes if c != "json"]
        return x.with_attributes({"class": Character(rest) if rest else None})  # type: ignore[no-any-return]
    if isinstance(x, List) and len(x):
        for e in x.data:  # a loop, not any(): a frame's few columns are checked on every call
            if isinstance(e, List) or (isinstance(e, Character) and "class" in e.attributes):
                break
        else:
            return x
        elements = [strip_json_class(e) for e in x.data]
        if all(new is old for new, old in zip(elements, x.data, strict=True)):
            return x
        return List(elements, dict(x.attributes))  # type: ignore[no-any-return]
    return x


def encode_json(x: RValue, where: str = "value", options: JsonOptions | None = None) -> str:
    """The JSON text of an R value under the payload options in force (jsonlite's, byte for byte);
    ``options``: those options, where the caller has read them already.

    >>> from rvalues import c, NA
    >>> encode_json(c(1.5, NA))
    '[1.5,"NA"]'
    """
    try:
        return encode_with(strip_json_class(x), options or options_in_force())
    except RValueError as err:
        raise ValueError(f"{where} cannot be represented as JSON: {err}") from None


def read_back(text: str, where: str = "value") -> Payload:
    """The payload of a JSON text: its data is the text read back, checked to have no infinity.

    This is the one check every payload passes: jsonlite writes ``.Machine$double.xmax`` as
    ``1.79769313486232e+308``, which no double holds, so it has no JSON-ready value.

    >>> read_back('{"n":1e+15}')
    Payload(data={'n': 1000000000000000.0}, json='{"n":1e+15}')
    >>> read_back("[1.798e+308]")
    Traceback (most recent call last):
    ...
    ValueError: value cannot be represented as JSON: jsonlite writes value[0] as a number beyond a double's range (it parses as infinity)
    """  # noqa: E501
    try:
        # the data is the text read back, so the fallback text and structured content agree exactly
        data = read_json(text)
    except json.JSONDecodeError:
        raise ValueError(f"{where} cannot be represented as JSON: jsonlite wrote {text[:80]!r}") from None
    if "e+3" in text and _HUGE_EXPONENT.search(text):
        _check_finite(data, where, where)
    return Payload(data, text)


# only a number written with an exponent of 308 or more can read back as infinity; jsonlite writes
# exponents as "e+" and two or three digits, so a text without "e+3" has none (a quick test first)
_HUGE_EXPONENT = re.compile(r"[eE]\+?(?:30[89]|3[1-9][0-9]|[4-9][0-9]{2}|[0-9]{4,})")


def _check_finite(data: Any, where: str, root: str) -> None:
    if isinstance(data, float) and not math.isfinite(data):
        raise ValueError(
            f"{root} cannot be represented as JSON: jsonlite writes {where} as a number beyond a "
            "double's range (it parses as infinity)"
        )
    if isinstance(data, dict):
        for key, item in data.items():
            _check_finite(item, f"{where}[{key!r}]", root)
    elif isinstance(data, list):
        for i, item in enumerate(data):
            _check_finite(item, f"{where}[{i}]", root)


def encode(x: RValue, where: str = "value") -> Payload:
    """JSON-ready data and JSON text of an R value under the payload options in force.

    >>> from rvalues import Double
    >>> encode(Double([0.5]))
    Payload(data=0.5, json='0.5')
    >>> encode(Double([1.7976931348623157e308]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: value cannot be represented as JSON: jsonlite writes value as a number beyond ...
    """
    return read_back(encode_json(x, where), where)


def unstructure_r_value(x: RValue) -> Any:
    """The R-value hook: ``encode(x).data``, under the payload options in force when it runs.

    >>> from rvalues import c, NA
    >>> unstructure_r_value(c(1.5, NA))
    [1.5, 'NA']
    """
    return encode(x).data


# -- the converter ----------------------------------------------------------------------------------


def configure_converter(conv: cattrs.Converter) -> None:
    """Install mcplite's hooks on ``conv``: each protocol class's wire form, and R values as payloads.

    Tuples (audience, icons, sizes) are written as JSON arrays; ``structured_content`` and the
    plain-JSON fields (schemas, ``_meta``) are written as they are (shared with the object, not
    copied: they were checked when it was built).

    >>> import cattrs
    >>> from rvalues import c
    >>> conv = cattrs.Converter()
    >>> configure_converter(conv)
    >>> conv.unstructure(TextContent("hi")), conv.unstructure(c(1, 2))
    ({'type': 'text', 'text': 'hi'}, [1, 2])
    """
    for cls in PROTOCOL_CLASSES:
        conv.register_unstructure_hook(cls, _wire_hook(cls, conv))
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
