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
from collections.abc import Callable, Iterable
from typing import Any, ClassVar, Union

import attrs
from attrs import validators as v


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


# -- the wire form ----------------------------------------------------------------------------------

WireForm = Callable[[Any, str], dict[str, Any]]

_WIRE_FORMS: dict[type, WireForm] = {}


def register_wire_form(cls: type, to_wire: WireForm) -> None:
    """Make ``obj.to_wire(version)`` call ``to_wire(obj, version)`` for instances of ``cls``.

    :mod:`mcplite.projection` registers the projections of these classes (and of
    :mod:`mcplite.messages`' results), so that the classes declare and nothing points back up.
    """
    _WIRE_FORMS[cls] = to_wire


def wire_form(obj: Any, protocol_version: str) -> dict[str, Any]:
    """What a client speaking ``protocol_version`` receives of ``obj`` (its registered wire form)."""
    for cls in type(obj).__mro__:
        to_wire = _WIRE_FORMS.get(cls)
        if to_wire is not None:
            return to_wire(obj, protocol_version)
    raise TypeError(f"no wire form is registered for {shown(obj)}; import mcplite.projection")


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


# -- validators: attrs' combinators over a few checks that name the object, the field and the value

Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]


def _refuse(
    error: type[Exception], instance: Any, attribute: attrs.Attribute[Any], message: str
) -> Exception:
    return error(f"{type(instance).__name__}: {attribute.name} {message}")


def _is(kind: type | tuple[type, ...], what: str) -> Validator:
    """The value is a ``kind`` (never a bool unless ``kind`` says so); ``what`` completes "must ..."."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    takes_bool = bool in kinds

    def check(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if not isinstance(value, kinds) or (isinstance(value, bool) and not takes_bool):
            raise _refuse(TypeError, instance, attribute, f"must {what}, not {shown(value)}")

    return check


def _not_empty(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not value:
        raise _refuse(ValueError, instance, attribute, "must not be empty")


def _one_of(*values: str) -> Validator:
    def check(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if value not in values:
            shown_values = " or ".join(repr(x) for x in values)
            raise _refuse(ValueError, instance, attribute, f"must be {shown_values}, not {value!r:.80}")

    return check


def _plain_json(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    check_plain_json(value, f"{type(instance).__name__}: {attribute.name}")


_str = _is(str, "be a str")
_optional_str = v.optional(_str)
_nonempty_str = v.and_(_str, _not_empty)
_optional_bool = v.optional(_is(bool, "be True, False or None"))
_meta = v.optional(v.and_(_is(dict, "be a dict of plain JSON values"), _plain_json))


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


def _mime(prefix: str | None) -> Validator:
    def check(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        check_mime_type(type(instance).__name__, value, prefix)

    return check


_optional_mime = v.optional(_mime(None))


def _base64(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    check_base64(type(instance).__name__, attribute.name, value)


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
    sizes: tuple[str, ...] | None = attrs.field(default=None, converter=_to_tuple)
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
    text: str = attrs.field(validator=_str)
    annotations: Annotations | None = attrs.field(default=None, validator=_annotations, kw_only=True)
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta, kw_only=True)


def own_text_block(text: str) -> TextContent:
    """The text block of a str mcplite made itself (a payload's JSON): nothing for the validators to
    check, so they are not run.

    >>> own_text_block('{"ok":true}') == TextContent('{"ok":true}')
    True
    """
    block = object.__new__(TextContent)
    object.__setattr__(block, "text", text)
    object.__setattr__(block, "annotations", None)
    object.__setattr__(block, "meta", None)
    return block


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


def _are_blocks(content: Any) -> bool:
    """``content`` is a list of content blocks (of mcplite's own classes: they checked themselves)."""
    return type(content) is list and all(type(block) in CONTENT_TYPES for block in content)


def _structured(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if value is not ABSENT:
        _plain_json(instance, attribute, value)


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

    content: list[ContentBlock] = attrs.field(converter=_block_list, validator=_content)
    structured_content: Any = attrs.field(default=ABSENT, validator=_structured, kw_only=True)
    is_error: bool = attrs.field(default=False, validator=_is(bool, "be True or False"), kw_only=True)
    meta: dict[str, Any] | None = attrs.field(default=None, validator=_meta, kw_only=True)
    result_type: str | None = attrs.field(default=None, validator=_optional_str, kw_only=True)
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
        if type(is_error) is bool and meta is None and result_type is None and _are_blocks(content):
            # what the validators would accept: set the fields without running them (a third of the time)
            result = object.__new__(cls)
            object.__setattr__(result, "content", list(content))
            object.__setattr__(result, "is_error", is_error)
            object.__setattr__(result, "meta", None)
            object.__setattr__(result, "result_type", None)
            object.__setattr__(result, "structured_json", None)
        else:
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
