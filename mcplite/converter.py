"""The one cattrs Converter mcplite owns: protocol types in their wire form, R payloads through rvalues.

Protocol types (results, content blocks, annotations, tools) are unstructured by explicit hooks
with a fixed encoding: wire names (``mimeType``, ``isError``, ``_meta``, ...), the ``type``
discriminator first, optional fields omitted when unset. R values are unstructured to JSON-ready
data by the hooks ``rvalues.json.register_hooks`` installs, under the payload options in force
when ``unstructure`` runs. ``register_hooks`` fixes its options when it is called, so those hooks
live on one private helper converter per option set (at most twelve, :func:`payload_converter`),
and ``mcplite.converter`` has a single R-value hook that hands over to the one for the options in
force. Everything goes through ``mcplite.converter``; the helpers are not for users.

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

from collections.abc import Callable
from typing import Any

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
from rvalues import RValue

converter = cattrs.Converter()
"""mcplite's converter. ``converter.unstructure(block)`` gives a protocol object's wire dict."""

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


def _as_is(value: Any) -> Any:
    return value


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


def get_converter() -> cattrs.Converter:
    """mcplite's converter (the same object as ``mcplite.converter``)."""
    return converter


def _wire_hook(cls: type, conv: cattrs.Converter) -> Callable[[Any], dict[str, Any]]:
    import attrs

    overrides: dict[str, Any] = {  # Any: mypy matches **overrides against the bool parameters too
        field.name: override(
            rename=WIRE_NAMES.get(field.name),
            omit_if_default=False if field.name in ALWAYS_SENT else None,
            unstruct_hook=_as_is if field.name in PLAIN_JSON else None,
        )
        for field in attrs.fields(cls)
        if field.name in WIRE_NAMES or field.name in ALWAYS_SENT or field.name in PLAIN_JSON
    }
    for name in NOT_SENT & {field.name for field in attrs.fields(cls)}:
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


def register_protocol_hooks(conv: cattrs.Converter) -> None:
    """Install the wire-form hooks of every protocol class on ``conv``.

    Tuples (audience, icons, sizes) are written as JSON arrays; ``structured_content`` and the
    plain-JSON fields (schemas, ``_meta``) are written as they are (shared with the object, not
    copied: they were checked when it was built).
    """
    for cls in PROTOCOL_CLASSES:
        conv.register_unstructure_hook(cls, _wire_hook(cls, conv))


register_protocol_hooks(converter)

_payload_converters: dict[tuple[tuple[str, Any], ...], cattrs.Converter] = {}


def payload_converter(options: dict[str, Any]) -> cattrs.Converter:
    """The helper converter with rvalues' hooks for these jsonlite options (made once per option set).

    >>> a = payload_converter({"auto_unbox": True, "null": "null"})
    >>> a is payload_converter({"null": "null", "auto_unbox": True})
    True
    """
    from rvalues.json import register_hooks

    key = tuple(sorted(options.items()))
    conv = _payload_converters.get(key)
    if conv is None:
        conv = cattrs.Converter()
        register_hooks(conv, dict(options))
        _payload_converters[key] = conv
    return conv


def _is_r_value_class(cls: Any) -> bool:
    return isinstance(cls, type) and issubclass(cls, RValue)


def _unstructure_r_value(value: RValue) -> Any:
    """An R value as JSON-ready data under the payload options in force."""
    return payload_converter(jsonlite_options()).unstructure(value)


converter.register_unstructure_hook_func(_is_r_value_class, _unstructure_r_value)
