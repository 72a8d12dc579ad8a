"""Content constructors: ``content_text()``, ``content_image()``, ``content_audio()``,
``content_resource_link()`` and ``content_resource()``.

Binary data may be given as bytes (encoded to base64 here) or as a base64 string (checked).
Annotations may be an :class:`~mcplite.protocol.types.Annotations` or a dict with the keys ``audience``,
``priority`` and ``last_modified`` (``lastModified`` is accepted too).

>>> content_text("hello", annotations={"audience": ["user"]}).annotations
Annotations(audience=('user',), priority=None, last_modified=None)
"""

from __future__ import annotations

import base64
import datetime as dt
from typing import Any

from mcplite.protocol.checks import shown
from mcplite.protocol.types import (
    Annotations,
    AudioContent,
    BlobResourceContents,
    EmbeddedResource,
    Icon,
    ImageContent,
    ResourceLink,
    TextContent,
    TextResourceContents,
)
from rvalues import Raw
from rvalues.model.strings import check_text

_ANNOTATION_KEYS = {
    "audience": "audience",
    "priority": "priority",
    "last_modified": "last_modified",
    "lastModified": "last_modified",
}


def as_annotations(value: Any, owner: str) -> Annotations | None:
    """An :class:`Annotations` from None, an Annotations or a dict of its fields."""
    if value is None or isinstance(value, Annotations):
        return value
    if not isinstance(value, dict):
        raise TypeError(f"{owner}: annotations must be a dict or an Annotations, not {shown(value)}")
    unknown = [k for k in value if k not in _ANNOTATION_KEYS]
    if unknown:
        raise ValueError(
            f"{owner}: unknown annotation field(s) {unknown}; "
            "the fields are audience, priority, last_modified"
        )
    fields = {_ANNOTATION_KEYS[k]: v for k, v in value.items()}
    when = fields.get("last_modified")
    if isinstance(when, dt.datetime):
        fields["last_modified"] = when.isoformat()
    return Annotations(**fields)


def as_base64(data: Any, owner: str, name: str = "data") -> str:
    """Base64 text for bytes (or an R raw vector); a str is taken to be base64 already (checked later)."""
    if isinstance(data, (bytes, bytearray, memoryview)):
        return base64.b64encode(bytes(data)).decode("ascii")
    if isinstance(data, Raw):
        return base64.b64encode(data.data.tobytes()).decode("ascii")
    if isinstance(data, str):
        return data
    raise TypeError(f"{owner}: {name} must be bytes or a base64 str, not {shown(data)}")


def as_icons(icons: Any, owner: str) -> tuple[Icon, ...] | None:
    """Icons from None or a list of :class:`Icon` or dicts of its fields (``mimeType`` accepted too)."""
    if icons is None:
        return None
    if not isinstance(icons, (list, tuple)):
        raise TypeError(f"{owner}: icons must be a list of Icon or dicts, not {type(icons).__name__}")
    out = []
    for icon in icons:
        if isinstance(icon, dict):
            fields = dict(icon)
            if "mimeType" in fields:
                fields["mime_type"] = fields.pop("mimeType")
            icon = Icon(**fields)
        out.append(icon)
    return tuple(out)


def content_text(text: str, *, annotations: Any = None, meta: dict[str, Any] | None = None) -> TextContent:
    """A text block.

    >>> content_text("done").text
    'done'
    """
    if not isinstance(text, str):
        raise TypeError(f"content_text: text must be a str, not {type(text).__name__}")
    check_text(text, "content_text: text")
    return TextContent(text, annotations=as_annotations(annotations, "content_text"), meta=meta)


def content_image(
    data: bytes | str, mime_type: str, *, annotations: Any = None, meta: dict[str, Any] | None = None
) -> ImageContent:
    """An image block from bytes or base64 text and an ``image/*`` MIME type.

    >>> content_image(b"\\x89PNG", "image/png").data
    'iVBORw=='
    """
    owner = "content_image"
    return ImageContent(
        as_base64(data, owner), mime_type, annotations=as_annotations(annotations, owner), meta=meta
    )


def content_audio(
    data: bytes | str, mime_type: str, *, annotations: Any = None, meta: dict[str, Any] | None = None
) -> AudioContent:
    """An audio block from bytes or base64 text and an ``audio/*`` MIME type.

    >>> content_audio(b"RIFF", "audio/wav").mime_type
    'audio/wav'
    """
    owner = "content_audio"
    return AudioContent(
        as_base64(data, owner), mime_type, annotations=as_annotations(annotations, owner), meta=meta
    )


def content_resource_link(
    uri: str,
    name: str,
    *,
    title: str | None = None,
    description: str | None = None,
    mime_type: str | None = None,
    size: int | None = None,
    annotations: Any = None,
    icons: list[Any] | None = None,
    meta: dict[str, Any] | None = None,
) -> ResourceLink:
    """A link to a resource.

    >>> content_resource_link("file:///tmp/report.csv", "report.csv", mime_type="text/csv").name
    'report.csv'
    """
    owner = "content_resource_link"
    return ResourceLink(
        uri,
        name,
        title=title,
        description=description,
        mime_type=mime_type,
        size=size,
        annotations=as_annotations(annotations, owner),
        icons=as_icons(icons, owner),
        meta=meta,
    )


def content_resource(
    uri: str,
    *,
    text: str | None = None,
    blob: bytes | str | None = None,
    mime_type: str | None = None,
    annotations: Any = None,
    meta: dict[str, Any] | None = None,
    resource_meta: dict[str, Any] | None = None,
) -> EmbeddedResource:
    """An embedded resource with either ``text`` or ``blob`` (bytes or base64) contents.

    ``meta`` is the block's ``_meta``; ``resource_meta`` is the contents' ``_meta``.

    >>> content_resource("file:///a.txt", text="hi", mime_type="text/plain").resource.text
    'hi'
    """
    owner = "content_resource"
    if (text is None) == (blob is None):
        raise ValueError(f"{owner}: give exactly one of text or blob")
    contents: TextResourceContents | BlobResourceContents
    if text is not None:
        contents = TextResourceContents(uri, text, mime_type=mime_type, meta=resource_meta)
    else:
        contents = BlobResourceContents(
            uri, as_base64(blob, owner, "blob"), mime_type=mime_type, meta=resource_meta
        )
    return EmbeddedResource(contents, annotations=as_annotations(annotations, owner), meta=meta)
