"""MCP protocol types for tool results and tools, as immutable attrs classes.

Python field names are snake case; :mod:`mcplite.protocol.wire` writes them in their wire names
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

import json
import re
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Union

import attrs
from attrs import validators as v

from mcplite.protocol.checks import META as _meta
from mcplite.protocol.checks import NONEMPTY_STR as _nonempty_str
from mcplite.protocol.checks import OPTIONAL_BOOL as _optional_bool
from mcplite.protocol.checks import OPTIONAL_MIME as _optional_mime
from mcplite.protocol.checks import OPTIONAL_STR as _optional_str
from mcplite.protocol.checks import STR as _str
from mcplite.protocol.checks import STR_TUPLE as _str_tuple
from mcplite.protocol.checks import base64_str as _base64
from mcplite.protocol.checks import check_plain_json, shown
from mcplite.protocol.checks import is_a as _is
from mcplite.protocol.checks import mime as _mime
from mcplite.protocol.checks import one_of as _one_of
from mcplite.protocol.checks import plain_json as _plain_json
from mcplite.protocol.checks import refuse as _refuse
from mcplite.protocol.checks import utf8_str as _utf8_str


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


# -- the wire form ----------------------------------------------------------------------------------

WireForm = Callable[[Any, str], dict[str, Any]]

_WIRE_FORMS: dict[type, WireForm] = {}


def register_wire_form(cls: type, to_wire: WireForm) -> None:
    """Make ``obj.to_wire(version)`` call ``to_wire(obj, version)`` for instances of ``cls``.

    :mod:`mcplite.protocol.projection` registers the projections of these classes (and of
    :mod:`mcplite.protocol.messages`' results), so that the classes declare and nothing points back up.
    """
    _WIRE_FORMS[cls] = to_wire


def wire_form(obj: Any, protocol_version: str) -> dict[str, Any]:
    """What a client speaking ``protocol_version`` receives of ``obj`` (its registered wire form)."""
    for cls in type(obj).__mro__:
        to_wire = _WIRE_FORMS.get(cls)
        if to_wire is not None:
            return to_wire(obj, protocol_version)
    raise TypeError(f"no wire form is registered for {shown(obj)}; import mcplite.protocol.projection")


# -- annotations ------------------------------------------------------------------------------------

ROLES = ("user", "assistant")
_ISO_8601 = re.compile(r"^\d{4}-\d{2}-\d{2}([T ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}(:?\d{2})?)?)?$")


def _to_tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


def _role(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not isinstance(value, str) or value not in ROLES:
        raise ValueError(
            f"Annotations: audience role {value!r} is unknown; the roles are 'user' and 'assistant'"
        )


def _priority(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not (0 <= value <= 1):
        raise ValueError(f"Annotations: priority must be a number between 0 and 1, not {value!r}")


def _iso_8601(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not _ISO_8601.match(value):
        raise ValueError(f"Annotations: last_modified {value!r} is not an ISO 8601 timestamp")


@attrs.frozen
class Annotations:
    """Hints for the client about a content block: who it is for, how important, when it changed.

    >>> Annotations(audience=["user"], priority=0.5)
    Annotations(audience=('user',), priority=0.5, last_modified=None)
    """

    audience: tuple[str, ...] | None = attrs.field(
        default=None,
        converter=_to_tuple,
        validator=v.optional(v.deep_iterable(_role, _is(tuple, "be a list of roles ('user', 'assistant')"))),
    )
    priority: float | None = attrs.field(
        default=None,
        validator=v.optional(v.and_(_is((int, float), "be a number between 0 and 1"), _priority)),
    )
    last_modified: str | None = attrs.field(
        default=None, validator=v.optional(v.and_(_is(str, "be an ISO 8601 str"), _iso_8601))
    )


_annotations = v.optional(_is(Annotations, "be an Annotations"))


@attrs.frozen
class Icon:
    """An icon for a resource link or a tool (protocol 2025-11-25 and later)."""

    src: str = attrs.field(validator=_nonempty_str)
    mime_type: str | None = attrs.field(default=None, validator=_optional_mime)
    sizes: tuple[str, ...] | None = attrs.field(default=None, converter=_to_tuple, validator=_str_tuple)
    theme: str | None = attrs.field(default=None, validator=v.optional(_one_of("light", "dark")))


_icons = v.optional(v.deep_iterable(_is(Icon, "hold only Icon objects"), _is(tuple, "be a list of Icon")))


# -- content blocks ---------------------------------------------------------------------------------


@attrs.frozen
class TextContent:
    """A text content block: ``{"type": "text", "text": ...}``.

    >>> TextContent("hello").text
    'hello'
    """

    type: ClassVar[str] = "text"
    text: str = attrs.field(validator=_utf8_str)
    annotations: Annotations | None = attrs.field(default=None, validator=_annotations, kw_only=True)
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta, kw_only=True)


@attrs.frozen
class ImageContent:
    """An image content block: base64 ``data`` and an ``image/*`` MIME type."""

    type: ClassVar[str] = "image"
    data: str = attrs.field(validator=_base64)
    mime_type: str = attrs.field(validator=_mime("image"))
    annotations: Annotations | None = attrs.field(default=None, validator=_annotations, kw_only=True)
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta, kw_only=True)


@attrs.frozen
class AudioContent:
    """An audio content block (protocol 2025-03-26 and later): base64 ``data``, ``audio/*`` MIME type."""

    type: ClassVar[str] = "audio"
    data: str = attrs.field(validator=_base64)
    mime_type: str = attrs.field(validator=_mime("audio"))
    annotations: Annotations | None = attrs.field(default=None, validator=_annotations, kw_only=True)
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta, kw_only=True)


def _not_negative(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value < 0:
        raise _refuse(ValueError, instance, attribute, f"must not be negative, not {value}")


_size = v.optional(v.and_(_is(int, "be an int number of bytes"), _not_negative))


@attrs.frozen
class ResourceLink:
    """A link to a resource the client may read (protocol 2025-06-18 and later)."""

    type: ClassVar[str] = "resource_link"
    uri: str = attrs.field(validator=_nonempty_str)
    name: str = attrs.field(validator=_str)
    title: str | None = attrs.field(default=None, validator=_optional_str, kw_only=True)
    description: str | None = attrs.field(default=None, validator=_optional_str, kw_only=True)
    mime_type: str | None = attrs.field(default=None, validator=_optional_mime, kw_only=True)
    size: int | None = attrs.field(default=None, validator=_size, kw_only=True)
    annotations: Annotations | None = attrs.field(default=None, validator=_annotations, kw_only=True)
    icons: tuple[Icon, ...] | None = attrs.field(
        default=None, converter=_to_tuple, validator=_icons, kw_only=True
    )
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta, kw_only=True)


@attrs.frozen
class TextResourceContents:
    """The text contents of a resource."""

    uri: str = attrs.field(validator=_nonempty_str)
    text: str = attrs.field(validator=_str)
    mime_type: str | None = attrs.field(default=None, validator=_optional_mime, kw_only=True)
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta, kw_only=True)


@attrs.frozen
class BlobResourceContents:
    """The binary contents of a resource, base64 in ``blob``."""

    uri: str = attrs.field(validator=_nonempty_str)
    blob: str = attrs.field(validator=_base64)
    mime_type: str | None = attrs.field(default=None, validator=_optional_mime, kw_only=True)
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta, kw_only=True)


_resource = _is(
    (TextResourceContents, BlobResourceContents), "be a TextResourceContents or BlobResourceContents"
)


@attrs.frozen
class EmbeddedResource:
    """A resource embedded in a result: ``{"type": "resource", "resource": {...}}``."""

    type: ClassVar[str] = "resource"
    resource: TextResourceContents | BlobResourceContents = attrs.field(validator=_resource)
    annotations: Annotations | None = attrs.field(default=None, validator=_annotations, kw_only=True)
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta, kw_only=True)


ContentBlock = Union[TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource]  # noqa: UP007
CONTENT_TYPES: tuple[type, ...] = (TextContent, ImageContent, AudioContent, ResourceLink, EmbeddedResource)


# -- results ----------------------------------------------------------------------------------------


def _block_list(value: Iterable[ContentBlock]) -> list[ContentBlock]:
    """``list(value)``, as a named function so mypy's attrs plugin can type the converter."""
    return list(value)


_content = v.deep_iterable(
    _is(CONTENT_TYPES, "hold only content blocks (content_text(), ...)"),
    _is(list, "be a list of content blocks"),
)


class EncodedJson:
    """A JSON value written once, as text: the text is what goes on the wire, and the JSON-ready
    value is read from it only when someone asks (:attr:`value`).

    An internal record, not a checked type: :mod:`mcplite.payload` makes it from the text rvalues'
    encoder wrote (after its one check, that no number reads back as infinity), and
    :meth:`from_value` from a value :func:`check_plain_json` accepted. Two are equal when their
    values are.

    >>> encoded = EncodedJson.from_value({"n": 1})
    >>> encoded.text, encoded.value, encoded.is_object
    ('{"n":1}', {'n': 1}, True)
    """

    __slots__ = ("_value", "text")

    def __init__(self, text: str, value: Any = ABSENT) -> None:
        self.text = text
        self._value = value

    @classmethod
    def from_value(cls, value: Any, where: str = "structured_content") -> EncodedJson:
        """A plain JSON value (checked), with its compact JSON text."""
        check_plain_json(value, where)
        text = json.dumps(value, ensure_ascii=False, allow_nan=False, separators=(",", ":"))
        return cls(text, value)

    @property
    def value(self) -> Any:
        """The JSON-ready value (read from the text the first time it is asked for)."""
        if self._value is ABSENT:
            self._value = json.loads(self.text)
        return self._value

    @property
    def is_object(self) -> bool:
        """Whether the value is a JSON object (what 2025-06-18 and 2025-11-25 can carry)."""
        return self.text.startswith("{")

    def __eq__(self, other: object) -> bool:
        return isinstance(other, EncodedJson) and (self.text == other.text or self.value == other.value)

    __hash__ = None  # type: ignore[assignment]

    def __repr__(self) -> str:
        return f"EncodedJson({self.text!r:.80})"


def _structured(value: Any) -> EncodedJson | _Absent:
    """What ``structured_content=`` holds: an :class:`EncodedJson` as it is, else a checked plain value."""
    if value is ABSENT or isinstance(value, EncodedJson):
        return value
    return EncodedJson.from_value(value, "CallToolResult: structured_content")


@attrs.frozen
class CallToolResult:
    """The result of a tool call. Build it with :func:`mcplite.tool_result` or :func:`mcplite.as_tool_result`.

    ``structured_content`` is the JSON-ready structured value (already encoded under the payload
    options in force when the result was built), or :data:`ABSENT`. It is held as
    :class:`EncodedJson` (``structured``): the text is written once, and a server puts exactly
    that text on the wire, so the text fallback and ``structuredContent`` are one serialization.

    >>> r = CallToolResult([TextContent("ok")])
    >>> r.content[0].text, r.structured_content
    ('ok', mcplite.ABSENT)
    >>> CallToolResult([], structured_content={"a": 1}).structured.text
    '{"a":1}'
    """

    content: list[ContentBlock] = attrs.field(converter=_block_list, validator=_content)
    structured: EncodedJson | _Absent = attrs.field(
        default=ABSENT, alias="structured_content", converter=_structured, kw_only=True
    )
    is_error: bool = attrs.field(default=False, validator=_is(bool, "be True or False"), kw_only=True)
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta, kw_only=True)
    result_type: str | None = attrs.field(default=None, validator=_optional_str, kw_only=True)

    @property
    def structured_content(self) -> Any:
        """The structured content as a JSON-ready value, or :data:`ABSENT`."""
        structured = self.structured
        return structured.value if isinstance(structured, EncodedJson) else ABSENT

    def to_wire(self, protocol_version: str) -> dict[str, Any]:
        """The result as a client speaking ``protocol_version`` gets it (:mod:`mcplite.protocol.projection`).

        >>> CallToolResult([TextContent("ok")]).to_wire("2024-11-05")
        {'content': [{'type': 'text', 'text': 'ok'}]}
        """
        return wire_form(self, protocol_version)


# -- tools ------------------------------------------------------------------------------------------


@attrs.frozen
class ToolAnnotations:
    """Untrusted hints about a tool's behaviour (protocol 2025-03-26 and later)."""

    title: str | None = attrs.field(default=None, validator=_optional_str)
    read_only_hint: bool | None = attrs.field(default=None, validator=_optional_bool)
    destructive_hint: bool | None = attrs.field(default=None, validator=_optional_bool)
    idempotent_hint: bool | None = attrs.field(default=None, validator=_optional_bool)
    open_world_hint: bool | None = attrs.field(default=None, validator=_optional_bool)


def _object_root(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value.get("type") != "object":
        raise ValueError(f"Tool: input_schema must have type 'object' at its root, not {value.get('type')!r}")


_schema = v.and_(_is(dict, "be a JSON Schema dict"), _plain_json)


@attrs.frozen
class Tool:
    """A tool as ``tools/list`` describes it.

    >>> Tool("add", {"type": "object"}).to_wire("2024-11-05")
    {'name': 'add', 'inputSchema': {'type': 'object'}}
    """

    name: str = attrs.field(validator=_nonempty_str)
    input_schema: dict[str, Any] = attrs.field(
        factory=lambda: {"type": "object", "additionalProperties": False},
        validator=v.and_(_schema, _object_root),
    )
    description: str | None = attrs.field(default=None, validator=_optional_str, kw_only=True)
    title: str | None = attrs.field(default=None, validator=_optional_str, kw_only=True)
    output_schema: dict[str, Any] | None = attrs.field(
        default=None, validator=v.optional(_schema), kw_only=True
    )
    annotations: ToolAnnotations | None = attrs.field(
        default=None, validator=v.optional(_is(ToolAnnotations, "be a ToolAnnotations")), kw_only=True
    )
    icons: tuple[Icon, ...] | None = attrs.field(
        default=None, converter=_to_tuple, validator=_icons, kw_only=True
    )
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta, kw_only=True)

    def to_wire(self, protocol_version: str) -> dict[str, Any]:
        """The tool as listed to a client speaking ``protocol_version``."""
        return wire_form(self, protocol_version)
