"""The wire form of the protocol types: wire names (``mimeType``, ``isError``, ``_meta``, ...), the
``type`` discriminator first, optional fields omitted when unset.

:data:`WIRE_NAMES` is the one mapping between Python field names and wire names: writing uses it
here, and reading (:mod:`mcplite.protocol.reading`, what a client does) uses it back.

>>> converter.unstructure(TextContent("hi"))
{'type': 'text', 'text': 'hi'}
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import attrs
import cattrs
from cattrs.gen import make_dict_unstructure_fn, override

from mcplite.protocol.messages import Implementation
from mcplite.protocol.types import (
    Annotations,
    AudioContent,
    BlobResourceContents,
    CallToolResult,
    EmbeddedResource,
    EncodedJson,
    Icon,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
    Tool,
    ToolAnnotations,
)

WIRE_NAMES: dict[str, str] = {
    "mime_type": "mimeType",
    "last_modified": "lastModified",
    "meta": "_meta",
    "is_error": "isError",
    "structured": "structuredContent",
    "result_type": "resultType",
    "input_schema": "inputSchema",
    "output_schema": "outputSchema",
    "read_only_hint": "readOnlyHint",
    "destructive_hint": "destructiveHint",
    "idempotent_hint": "idempotentHint",
    "open_world_hint": "openWorldHint",
    "website_url": "websiteUrl",
}
"""Python field name -> wire name, where they differ (for writing and for reading)."""

ALWAYS_SENT = frozenset({"input_schema"})
"""Required wire fields that have a Python default (every other field at its default is omitted)."""

PLAIN_JSON = frozenset({"meta", "input_schema", "output_schema"})
"""Fields checked to be plain JSON when their object is built: written as they are, not walked again."""

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
"""The classes whose wire form :func:`configure_wire` installs."""


def _as_is(value: Any) -> Any:
    return value


def _encoded_value(encoded: EncodedJson) -> Any:
    return encoded.value


def renamed_fields(cls: type) -> dict[str, str]:
    """The fields of ``cls`` whose wire name differs, and that name."""
    return {field.name: WIRE_NAMES[field.name] for field in attrs.fields(cls) if field.name in WIRE_NAMES}


def _write_hook(cls: type, conv: cattrs.Converter) -> Callable[[Any], dict[str, Any]]:
    names = {field.name for field in attrs.fields(cls)}
    renamed = renamed_fields(cls)
    overrides: dict[str, Any] = {  # Any: mypy matches **overrides against the bool parameters too
        name: override(
            rename=renamed.get(name),
            omit_if_default=False if name in ALWAYS_SENT else None,
            unstruct_hook=_as_is if name in PLAIN_JSON else _encoded_value if name == "structured" else None,
        )
        for name in names & (renamed.keys() | ALWAYS_SENT | PLAIN_JSON)
    }
    fields_hook: Callable[[Any], dict[str, Any]] = make_dict_unstructure_fn(
        cls, conv, _cattrs_omit_if_default=True, **overrides
    )
    block_type = getattr(cls, "type", None)
    if block_type is None:
        return fields_hook

    def with_type(obj: Any) -> dict[str, Any]:
        return {"type": block_type, **fields_hook(obj)}

    return with_type


def configure_wire(conv: cattrs.Converter) -> None:
    """Install each protocol class's wire form (for writing) on ``conv``.

    Tuples (audience, icons, sizes) are written as JSON arrays; the plain-JSON fields (schemas,
    ``_meta``) as they are (shared with the object, not copied: they were checked when it was built).
    """
    for cls in PROTOCOL_CLASSES:
        conv.register_unstructure_hook(cls, _write_hook(cls, conv))


converter = cattrs.Converter()
"""The protocol types' writer: ``converter.unstructure(block)`` is a protocol object's wire dict."""
configure_wire(converter)
