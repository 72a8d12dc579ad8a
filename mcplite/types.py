"""MCP protocol types for tool results and tools, as immutable attrs classes.

Python field names are snake case; :mod:`mcplite.converter` writes them in their wire names
(``mimeType``, ``isError``, ``_meta``, ...), omitting optional fields that are unset. Every class
validates its fields when it is built, so a half-valid object never exists:

>>> TextContent("hi", annotations=Annotations(priority=2))
Traceback (most recent call last):
...
ValueError: Annotations: priority must be a number between 0 and 1, not 2

Metadata (``meta``), annotations, schemas and all other protocol fields hold plain JSON values
(dict, list, str, int, float, bool, None), never R values: their encoding is fixed and does not
depend on the payload options.
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Iterable
from typing import Any, ClassVar, Union

import attrs


class _Absent:
    """The type of :data:`ABSENT`."""

    _instance: ClassVar[_Absent | None] = None

    def __new__(cls) -> _Absent:
        if cls._instance is None:
            cls._instance = super().__new__(cls)
        return cls._instance

    def __repr__(self) -> str:
        return "mcplite.ABSENT"

    def __bool__(self) -> bool:
        return False

    def __reduce__(self) -> str:
        return "ABSENT"


ABSENT = _Absent()
"""The structured content of a result that has none (distinct from JSON ``null``, which is None)."""


def shown(value: Any) -> str:
    """A value as error messages name it: its type and a short repr.

    >>> shown({1, 2})
    'set ({1, 2})'
    """
    return f"{type(value).__name__} ({value!r:.80})"


# -- plain JSON checks (the fixed encoding) -------------------------------------------------------


def check_plain_json(value: Any, where: str) -> None:
    """Refuse anything but plain JSON values: dict (str keys), list/tuple, str, int, finite float, bool, None.

    >>> check_plain_json({"a": [1, 2.5, None]}, "meta")
    >>> check_plain_json({"a": {1, 2}}, "meta")
    Traceback (most recent call last):
    ...
    TypeError: meta['a'] must be plain JSON (dict, list, str, int, float, bool or None), not set ({1, 2})
    """
    if value is None or isinstance(value, (str, bool, int)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where} must be a finite number to be JSON, not {value!r}")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"{where} keys must be str, not {type(key).__name__} ({key!r})")
            check_plain_json(item, f"{where}[{key!r}]")
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            check_plain_json(item, f"{where}[{i}]")
        return
    raise TypeError(
        f"{where} must be plain JSON (dict, list, str, int, float, bool or None), not {shown(value)}"
    )


def _meta_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value is None:
        return
    where = f"{type(instance).__name__}: meta"
    if not isinstance(value, dict):
        raise TypeError(f"{where} must be a dict of plain JSON values, not {shown(value)}")
    check_plain_json(value, where)


def _str_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if not isinstance(value, str):
        raise TypeError(f"{type(instance).__name__}: {attribute.name} must be a str, not {shown(value)}")


def _optional_str_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value is not None:
        _str_validator(instance, attribute, value)


def _nonempty_str_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    _str_validator(instance, attribute, value)
    if not value:
        raise ValueError(f"{type(instance).__name__}: {attribute.name} must not be empty")


def _optional_bool_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value is not None and not isinstance(value, bool):
        raise TypeError(
            f"{type(instance).__name__}: {attribute.name} must be True, False or None, not {value!r:.80}"
        )


_MIME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?$")


def check_mime_type(owner: str, value: Any, prefix: str | None = None) -> None:
    """Refuse a MIME type that is not a ``type/subtype`` string (of the given top-level type)."""
    if not isinstance(value, str):
        raise TypeError(f"{owner}: mime_type must be a str such as 'image/png', not {shown(value)}")
    if not _MIME.match(value):
        raise ValueError(f"{owner}: mime_type {value!r} is not a MIME type of the form 'type/subtype'")
    if prefix is not None and not value.lower().startswith(prefix + "/"):
        raise ValueError(f"{owner}: mime_type {value!r} is not an {prefix} type ('{prefix}/...')")


def check_base64(owner: str, name: str, value: Any) -> None:
    """Refuse a string that is not standard base64 (RFC 4648, with padding)."""
    if not isinstance(value, str):
        raise TypeError(f"{owner}: {name} must be a base64 str, not {shown(value)}")
    try:
        decoded = base64.b64decode(value.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        decoded = None
    if decoded is None or base64.b64encode(decoded).decode("ascii") != value:
        raise ValueError(f"{owner}: {name} is not valid base64: {value!r:.80}")


def _mime_validator(prefix: str | None) -> Any:
    def validate(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
        check_mime_type(type(instance).__name__, value, prefix)

    return validate


def _optional_mime_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value is not None:
        check_mime_type(type(instance).__name__, value)


def _base64_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    check_base64(type(instance).__name__, attribute.name, value)


# -- annotations ------------------------------------------------------------------------------------

ROLES = ("user", "assistant")
_ISO_8601 = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$")


def _to_tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _audience_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value is None:
        return
    if not isinstance(value, tuple):
        raise TypeError(
            f"Annotations: audience must be a list of roles ('user', 'assistant'), not {value!r:.80}"
        )
    for role in value:
        if not isinstance(role, str) or role not in ROLES:
            raise ValueError(
                f"Annotations: audience role {role!r} is unknown; the roles are 'user' and 'assistant'"
            )


def _priority_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        raise TypeError(f"Annotations: priority must be a number between 0 and 1, not {value!r:.80}")
    if not (0 <= value <= 1):
        raise ValueError(f"Annotations: priority must be a number between 0 and 1, not {value!r}")


def _last_modified_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value is None:
        return
    if not isinstance(value, str):
        raise TypeError(f"Annotations: last_modified must be an ISO 8601 str, not {value!r:.80}")
    if not _ISO_8601.match(value):
        raise ValueError(f"Annotations: last_modified {value!r} is not an ISO 8601 timestamp")


@attrs.frozen
class Annotations:
    """Hints for the client about a content block: who it is for, how important, when it changed.

    >>> Annotations(audience=["user"], priority=0.5)
    Annotations(audience=('user',), priority=0.5, last_modified=None)
    """

    audience: tuple[str, ...] | None = attrs.field(
        default=None, converter=_to_tuple, validator=_audience_validator
    )
    priority: float | None = attrs.field(default=None, validator=_priority_validator)
    last_modified: str | None = attrs.field(default=None, validator=_last_modified_validator)


def _annotations_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value is not None and not isinstance(value, Annotations):
        raise TypeError(f"{type(instance).__name__}: annotations must be an Annotations, not {shown(value)}")


@attrs.frozen
class Icon:
    """An icon for a resource link or a tool (protocol 2025-11-25 and later)."""

    src: str = attrs.field(validator=_nonempty_str_validator)
    mime_type: str | None = attrs.field(default=None, validator=_optional_mime_validator)
    sizes: tuple[str, ...] | None = attrs.field(default=None, converter=_to_tuple)
    theme: str | None = attrs.field(default=None)

    @theme.validator
    def _check_theme(self, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
        if value is not None and value not in ("light", "dark"):
            raise ValueError(f"Icon: theme must be 'light' or 'dark', not {value!r}")


def _icons_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value is None:
        return
    if not isinstance(value, tuple) or not all(isinstance(i, Icon) for i in value):
        raise TypeError(f"{type(instance).__name__}: icons must be a list of Icon, not {value!r:.80}")


# -- content blocks ---------------------------------------------------------------------------------


@attrs.frozen
class TextContent:
    """A text content block: ``{"type": "text", "text": ...}``.

    >>> TextContent("hello").text
    'hello'
    """

    type: ClassVar[str] = "text"
    text: str = attrs.field(validator=_str_validator)
    annotations: Annotations | None = attrs.field(
        default=None, validator=_annotations_validator, kw_only=True
    )
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta_validator, kw_only=True)


@attrs.frozen
class ImageContent:
    """An image content block: base64 ``data`` and an ``image/*`` MIME type."""

    type: ClassVar[str] = "image"
    data: str = attrs.field(validator=_base64_validator)
    mime_type: str = attrs.field(validator=_mime_validator("image"))
    annotations: Annotations | None = attrs.field(
        default=None, validator=_annotations_validator, kw_only=True
    )
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta_validator, kw_only=True)


@attrs.frozen
class AudioContent:
    """An audio content block (protocol 2025-03-26 and later): base64 ``data``, ``audio/*`` MIME type."""

    type: ClassVar[str] = "audio"
    data: str = attrs.field(validator=_base64_validator)
    mime_type: str = attrs.field(validator=_mime_validator("audio"))
    annotations: Annotations | None = attrs.field(
        default=None, validator=_annotations_validator, kw_only=True
    )
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta_validator, kw_only=True)


def _size_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value is None:
        return
    if isinstance(value, bool) or not isinstance(value, int):
        raise TypeError(f"{type(instance).__name__}: size must be an int number of bytes, not {value!r:.80}")
    if value < 0:
        raise ValueError(f"{type(instance).__name__}: size must not be negative, not {value}")


@attrs.frozen
class ResourceLink:
    """A link to a resource the client may read (protocol 2025-06-18 and later)."""

    type: ClassVar[str] = "resource_link"
    uri: str = attrs.field(validator=_nonempty_str_validator)
    name: str = attrs.field(validator=_str_validator)
    title: str | None = attrs.field(default=None, validator=_optional_str_validator, kw_only=True)
    description: str | None = attrs.field(default=None, validator=_optional_str_validator, kw_only=True)
    mime_type: str | None = attrs.field(default=None, validator=_optional_mime_validator, kw_only=True)
    size: int | None = attrs.field(default=None, validator=_size_validator, kw_only=True)
    annotations: Annotations | None = attrs.field(
        default=None, validator=_annotations_validator, kw_only=True
    )
    icons: tuple[Icon, ...] | None = attrs.field(
        default=None, converter=_to_tuple, validator=_icons_validator, kw_only=True
    )
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta_validator, kw_only=True)


@attrs.frozen
class TextResourceContents:
    """The text contents of a resource."""

    uri: str = attrs.field(validator=_nonempty_str_validator)
    text: str = attrs.field(validator=_str_validator)
    mime_type: str | None = attrs.field(default=None, validator=_optional_mime_validator, kw_only=True)
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta_validator, kw_only=True)


@attrs.frozen
class BlobResourceContents:
    """The binary contents of a resource, base64 in ``blob``."""

    uri: str = attrs.field(validator=_nonempty_str_validator)
    blob: str = attrs.field(validator=_base64_validator)
    mime_type: str | None = attrs.field(default=None, validator=_optional_mime_validator, kw_only=True)
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta_validator, kw_only=True)


def _resource_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if not isinstance(value, (TextResourceContents, BlobResourceContents)):
        raise TypeError(
            "EmbeddedResource: resource must be a TextResourceContents or BlobResourceContents, "
            f"not {shown(value)}"
        )


@attrs.frozen
class EmbeddedResource:
    """A resource embedded in a result: ``{"type": "resource", "resource": {...}}``."""

    type: ClassVar[str] = "resource"
    resource: TextResourceContents | BlobResourceContents = attrs.field(validator=_resource_validator)
    annotations: Annotations | None = attrs.field(
        default=None, validator=_annotations_validator, kw_only=True
    )
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta_validator, kw_only=True)


ContentBlock = Union[TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource]  # noqa: UP007
CONTENT_TYPES: tuple[type, ...] = (TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource)


# -- results ----------------------------------------------------------------------------------------


def _block_list(value: Iterable[ContentBlock]) -> list[ContentBlock]:
    """``list(value)``, as a named function so mypy's attrs plugin can type the converter."""
    return list(value)


def _content_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if not isinstance(value, list):
        raise TypeError(
            f"CallToolResult: content must be a list of content blocks, not {type(value).__name__}"
        )
    for i, block in enumerate(value):
        if not isinstance(block, CONTENT_TYPES):
            raise TypeError(
                f"CallToolResult: content[{i}] must be a content block (content_text(), ...), "
                f"not {shown(block)}"
            )


def _bool_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if not isinstance(value, bool):
        raise TypeError(
            f"{type(instance).__name__}: {attribute.name} must be True or False, not {value!r:.80}"
        )


def _structured_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value is not ABSENT:
        check_plain_json(value, "CallToolResult: structured_content")


@attrs.frozen
class CallToolResult:
    """The result of a tool call. Build it with :func:`mcplite.tool_result` or :func:`mcplite.as_tool_result`.

    ``structured_content`` is the JSON-ready structured value (already encoded under the payload
    options in force when the result was built), or :data:`ABSENT`. ``structured_json`` is its
    JSON text as encoded (set by :func:`mcplite.tool_result`; None when unknown): a server writes it
    on the wire as it is, so that the text fallback and ``structuredContent`` are one serialization.

    >>> r = CallToolResult([TextContent("ok")])
    >>> r.content[0].text, r.structured_content
    ('ok', mcplite.ABSENT)
    """

    content: list[ContentBlock] = attrs.field(converter=_block_list, validator=_content_validator)
    structured_content: Any = attrs.field(default=ABSENT, validator=_structured_validator, kw_only=True)
    is_error: bool = attrs.field(default=False, validator=_bool_validator, kw_only=True)
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta_validator, kw_only=True)
    result_type: str | None = attrs.field(default=None, validator=_optional_str_validator, kw_only=True)
    structured_json: str | None = attrs.field(default=None, init=False, eq=False, repr=False)

    @classmethod
    def from_encoded(
        cls,
        content: list[ContentBlock],
        structured_content: Any,
        *,
        is_error: bool = False,
        meta: dict[str, Any] | None = None,
        result_type: str | None = None,
        structured_json: str | None = None,
    ) -> CallToolResult:
        """A result whose structured content is known to be plain JSON (read back from rvalues' JSON
        text, or taken from a checked result): the other fields are checked, the payload is not walked.
        ``structured_json`` is the text ``structured_content`` was read from, if known."""
        result = cls(content, is_error=is_error, meta=meta, result_type=result_type)
        object.__setattr__(result, "structured_content", structured_content)
        if structured_json is not None and structured_content is not ABSENT:
            object.__setattr__(result, "structured_json", structured_json)
        return result

    def to_wire(self, protocol_version: str) -> dict[str, Any]:
        """The result as sent to a client speaking ``protocol_version`` (see :mod:`mcplite.projection`).

        >>> CallToolResult([TextContent("ok")]).to_wire("2024-11-05")
        {'content': [{'type': 'text', 'text': 'ok'}]}
        """
        from mcplite.projection import result_to_wire

        return result_to_wire(self, protocol_version)


# -- tools ------------------------------------------------------------------------------------------


@attrs.frozen
class ToolAnnotations:
    """Untrusted hints about a tool's behaviour (protocol 2025-03-26 and later)."""

    title: str | None = attrs.field(default=None, validator=_optional_str_validator)
    read_only_hint: bool | None = attrs.field(default=None, validator=_optional_bool_validator)
    destructive_hint: bool | None = attrs.field(default=None, validator=_optional_bool_validator)
    idempotent_hint: bool | None = attrs.field(default=None, validator=_optional_bool_validator)
    open_world_hint: bool | None = attrs.field(default=None, validator=_optional_bool_validator)


def _schema_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value is None and attribute.name == "output_schema":
        return
    if not isinstance(value, dict):
        raise TypeError(f"Tool: {attribute.name} must be a JSON Schema dict, not {shown(value)}")
    check_plain_json(value, f"Tool: {attribute.name}")
    if attribute.name == "input_schema" and value.get("type") != "object":
        raise ValueError(f"Tool: input_schema must have type 'object' at its root, not {value.get('type')!r}")


def _tool_annotations_validator(instance: Any, attribute: attrs.Attribute, value: Any) -> None:  # type: ignore[type-arg]
    if value is not None and not isinstance(value, ToolAnnotations):
        raise TypeError(f"Tool: annotations must be a ToolAnnotations, not {shown(value)}")


@attrs.frozen
class Tool:
    """A tool as ``tools/list`` describes it.

    >>> Tool("add", {"type": "object"}).to_wire("2024-11-05")
    {'name': 'add', 'inputSchema': {'type': 'object'}}
    """

    name: str = attrs.field(validator=_nonempty_str_validator)
    input_schema: dict[str, Any] = attrs.field(
        factory=lambda: {"type": "object", "additionalProperties": False}, validator=_schema_validator
    )
    description: str | None = attrs.field(default=None, validator=_optional_str_validator, kw_only=True)
    title: str | None = attrs.field(default=None, validator=_optional_str_validator, kw_only=True)
    output_schema: dict[str, Any] | None = attrs.field(
        default=None, validator=_schema_validator, kw_only=True
    )
    annotations: ToolAnnotations | None = attrs.field(
        default=None, validator=_tool_annotations_validator, kw_only=True
    )
    icons: tuple[Icon, ...] | None = attrs.field(
        default=None, converter=_to_tuple, validator=_icons_validator, kw_only=True
    )
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta_validator, kw_only=True)

    def to_wire(self, protocol_version: str) -> dict[str, Any]:
        """The tool as listed to a client speaking ``protocol_version``."""
        from mcplite.projection import tool_to_wire

        return tool_to_wire(self, protocol_version)
