"""What a resource function returns, as the ``contents`` of ``resources/read``.

A ``str`` is text, ``bytes`` a blob (base64 on the wire), a ``TextResourceContents`` or
``BlobResourceContents`` (or a list of them) is taken as it is, and anything else is its jsonlite
JSON under the payload options the request read, as ``application/json`` text:

>>> from rvalues.json import JsonOptions
>>> contents_of({"n": [1, 2]}, "data://x", None, JsonOptions(auto_unbox=True))[0].text
'{"n":[1,2]}'
>>> contents_of(b"\\x00\\x01", "data://x", "application/octet-stream", JsonOptions())[0].blob
'AAE='
"""

from __future__ import annotations

import base64
from typing import Any

from mcplite.payload.returned import encode_value_json
from mcplite.protocol.types import BlobResourceContents, TextResourceContents
from mcplite.protocol.versions import since
from mcplite.protocol.wire import converter
from rvalues.json import JsonOptions

Contents = TextResourceContents | BlobResourceContents

JSON_MIME = "application/json"


def contents_of(value: Any, uri: str, mime_type: str | None, options: JsonOptions) -> list[Contents]:
    """The contents a resource's return value stands for (``uri`` and ``mime_type`` its own), JSON
    written under the payload options ``options``."""
    if isinstance(value, (TextResourceContents, BlobResourceContents)):
        return [value]
    if is_contents_list(value):
        return list(value)
    if isinstance(value, str):
        return [TextResourceContents(uri, value, mime_type=mime_type or "text/plain")]
    if isinstance(value, (bytes, bytearray, memoryview)):
        blob = base64.b64encode(bytes(value)).decode("ascii")
        return [BlobResourceContents(uri, blob, mime_type=mime_type or "application/octet-stream")]
    text = encode_value_json(value, f"resource {uri}", options=options)
    return [TextResourceContents(uri, text, mime_type=mime_type or JSON_MIME)]


def is_contents_list(value: Any) -> bool:
    """Whether ``value`` is a non-empty list of contents objects (taken as they are)."""
    return (
        isinstance(value, list)
        and bool(value)
        and all(isinstance(item, (TextResourceContents, BlobResourceContents)) for item in value)
    )


def is_json_contents(value: Any) -> bool:
    """Whether :func:`contents_of` writes ``value`` as its JSON (not text, a blob or contents)."""
    kept = (str, bytes, bytearray, memoryview, TextResourceContents, BlobResourceContents)
    return not isinstance(value, kept) and not is_contents_list(value)


def contents_wire(contents: Contents, version: str) -> dict[str, Any]:
    """One resource contents object as ``version`` carries it (``_meta`` from 2025-06-18)."""
    wire: dict[str, Any] = converter.unstructure(contents)
    if not since(version, "2025-06-18"):
        wire.pop("_meta", None)
    return wire
