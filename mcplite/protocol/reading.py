"""What a client reads back from the wire: content blocks and tools as mcplite's types (through the
same :data:`~mcplite.protocol.wire.WIRE_NAMES` the server writes with), a ``tools/call`` result as a
:class:`CallResult`, a JSON-RPC error as a :class:`RequestError`.

>>> read_block({"type": "text", "text": "hi", "_meta": {"k": 1}})
TextContent(text='hi', annotations=None, meta={'k': 1})
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import attrs
import cattrs
from cattrs.gen import make_dict_structure_fn, override

from mcplite.protocol.types import (
    ABSENT,
    CONTENT_TYPES,
    Annotations,
    BlobResourceContents,
    ContentBlock,
    Icon,
    TextContent,
    TextResourceContents,
    Tool,
    ToolAnnotations,
)
from mcplite.protocol.wire import renamed_fields

_reader = cattrs.Converter(forbid_extra_keys=False)
_BLOCK_CLASSES: dict[str, type] = {cls.type: cls for cls in CONTENT_TYPES}  # type: ignore[attr-defined]


def _read_hook(cls: type) -> Callable[[Any, Any], Any]:
    renames: dict[str, Any] = {name: override(rename=wire) for name, wire in renamed_fields(cls).items()}
    return make_dict_structure_fn(cls, _reader, **renames)  # type: ignore[no-any-return]


_READ: tuple[type, ...] = (
    Annotations,
    Icon,
    TextResourceContents,
    BlobResourceContents,
    ToolAnnotations,
    Tool,
)
for _cls in _READ + CONTENT_TYPES:
    _reader.register_structure_hook(_cls, _read_hook(_cls))

_reader.register_structure_hook(
    TextResourceContents | BlobResourceContents,
    lambda data, _: _reader.structure(data, BlobResourceContents if "blob" in data else TextResourceContents),
)


def from_wire(data: Any, cls: type, what: str) -> Any:
    """``data`` read as a ``cls``; a ValueError names ``what`` and why it is not valid."""
    try:
        return _reader.structure(data, cls)
    except Exception as err:
        reason = (
            "; ".join(cattrs.transform_error(err)) if isinstance(err, cattrs.BaseValidationError) else err
        )
        raise ValueError(f"the server sent {what} that is not valid: {data!r:.200} ({reason})") from None


def read_block(data: Any) -> ContentBlock:
    """A content block from its wire form."""
    kind = data.get("type") if isinstance(data, dict) else None
    cls = _BLOCK_CLASSES.get(kind)  # type: ignore[arg-type]
    if cls is None:
        raise ValueError(f"the server sent an unknown content block: {data!r:.200}")
    block: ContentBlock = from_wire(data, cls, "a content block")
    return block


def read_tool(data: Any) -> Tool:
    """A tool from its ``tools/list`` wire form.

    >>> read_tool({"name": "add", "inputSchema": {"type": "object"}}).name
    'add'
    """
    tool: Tool = from_wire(data, Tool, "a tool")
    return tool


class RequestError(Exception):
    """The server answered a request with a JSON-RPC error: ``code``, ``message`` and ``data``.

    >>> err = RequestError("tools/call", {"code": -32602, "message": "Unknown tool: nope"})
    >>> err.code, str(err)
    (-32602, 'tools/call failed: JSON-RPC error -32602: Unknown tool: nope')
    """

    def __init__(self, method: str, error: Mapping[str, Any]) -> None:
        self.method = method
        self.code: int = error.get("code", 0)
        self.message: str = error.get("message", "")
        self.data: Any = error.get("data")
        self.wire: dict[str, Any] = dict(error)
        super().__init__(f"{method} failed: JSON-RPC error {self.code}: {self.message}")


@attrs.frozen
class CallResult:
    """What a ``tools/call`` brought back, as the client received it.

    ``content`` holds mcplite's content blocks (``TextContent`` ...), ``structured_content`` the
    parsed structured JSON (``mcplite.ABSENT`` when the result has none), ``wire`` the result
    object exactly as sent, ``progress`` and ``logs`` the parameters of the progress and log
    notifications that arrived while the call ran.
    """

    content: list[ContentBlock]
    structured_content: Any
    is_error: bool
    meta: dict[str, Any] | None
    wire: dict[str, Any]
    protocol_version: str
    progress: list[dict[str, Any]] = attrs.field(factory=list)
    logs: list[dict[str, Any]] = attrs.field(factory=list)

    @property
    def text(self) -> str:
        """The text of the text blocks, joined with newlines ("" when there are none)."""
        return "\n".join(block.text for block in self.content if isinstance(block, TextContent))

    @classmethod
    def from_wire(
        cls, wire: dict[str, Any], protocol_version: str, notifications: Sequence[dict[str, Any]] = ()
    ) -> CallResult:
        """Read a ``tools/call`` result object, and the notifications sent during the call.

        >>> CallResult.from_wire({"content": [{"type": "text", "text": "4"}]}, "2025-11-25").text
        '4'
        """
        content = wire.get("content")
        if not isinstance(content, list):
            raise ValueError(f"the server sent a tool result without a content list: {wire!r:.200}")
        methods = [(note.get("method"), note.get("params") or {}) for note in notifications]
        progress = [params for method, params in methods if method == "notifications/progress"]
        logs = [params for method, params in methods if method == "notifications/message"]
        return cls(
            content=[read_block(block) for block in content],
            structured_content=wire.get("structuredContent", ABSENT),
            is_error=wire.get("isError", False) is True,
            meta=wire.get("_meta"),
            wire=wire,
            protocol_version=protocol_version,
            progress=progress,
            logs=logs,
        )
