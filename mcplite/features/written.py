"""The ``contents`` of a read, written as JSON bytes once per value: an R value is immutable, so
a resource that returns the same R value again (data loaded once, at start-up) is sent from the
bytes written the first time, for the same URI, payload options and protocol version.

Any other value (a pandas frame, a dict: things that can change in place) is written on every
read. At most ``size`` writings are kept per resource, the least recently used leaving first.

>>> import rvalues as rv
>>> from mcplite.payload.rjson import options_in_force
>>> cache = WrittenReads(size=2)
>>> frame = rv.data_frame(x=[1.5, rv.NA_real_])
>>> first = cache.contents_json(frame, "data://x", None, options_in_force(), "2025-11-25")
>>> first
b'[{"uri":"data://x","text":"[{\\\\"x\\\\":1.5},{}]","mimeType":"application/json"}]'
>>> cache.contents_json(frame, "data://x", None, options_in_force(), "2025-11-25") is first
True
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from typing import Any

from mcplite.features.contents import JSON_MIME, contents_of, contents_wire, is_json_contents
from mcplite.payload.returned import escaped_frame_json, to_r
from mcplite.protocol.jsonrpc import RawJson, encode_json_bytes, object_pieces
from mcplite.protocol.types import TextResourceContents
from mcplite.protocol.versions import since
from rvalues import RValue
from rvalues.json import JsonOptions
from rvalues.json.plain import can_encode_plain


def write_contents(value: Any, uri: str, mime_type: str | None, options: JsonOptions, version: str) -> bytes:
    """The ``contents`` array of a read of ``value`` as strict JSON bytes (raises ``ValueError``).

    A data frame of more than a few rows goes into them as the compiled writer escaped it while
    writing it, instead of being written and then escaped a second time by ``json.dumps``.
    """
    if is_json_contents(value) and not can_encode_plain(value, options):
        value = to_r(value, f"resource {uri}")  # once: contents_of takes an R value as it is
        escaped = escaped_frame_json(value, f"resource {uri}", options)
        if escaped is not None:
            spliced = contents_wire(TextResourceContents(uri, "", mime_type=mime_type or JSON_MIME), version)
            spliced["text"] = RawJson(b'"', escaped, b'"')
            return b"".join([b"[", *object_pieces(spliced), b"]"])
    contents = contents_of(value, uri, mime_type, options)
    return encode_json_bytes([contents_wire(item, version) for item in contents])


class WrittenReads:
    """The bytes of the last ``size`` reads of R values of one resource."""

    def __init__(self, size: int = 8) -> None:
        self.size = size
        self._written: OrderedDict[tuple[Any, ...], tuple[RValue, bytes]] = OrderedDict()
        self._lock = threading.Lock()

    def contents_json(
        self, value: Any, uri: str, mime_type: str | None, options: JsonOptions, version: str
    ) -> bytes:
        """The ``contents`` of a read of ``value`` (``uri`` and ``mime_type`` its own), as JSON bytes
        under the payload options ``options`` (the request's)."""
        if not isinstance(value, RValue):
            return write_contents(value, uri, mime_type, options, version)
        # the contents differ between versions only in _meta (from 2025-06-18)
        key = (id(value), uri, mime_type, options, since(version, "2025-06-18"))
        with self._lock:
            found = self._written.get(key)
            if found is not None and found[0] is value:
                self._written.move_to_end(key)
                return found[1]
        written = write_contents(value, uri, mime_type, options, version)
        with self._lock:
            self._written[key] = (value, written)  # the value is held: its id is not reused
            self._written.move_to_end(key)
            while len(self._written) > self.size:
                self._written.popitem(last=False)
        return written

    def clear(self) -> None:
        with self._lock:
            self._written.clear()
