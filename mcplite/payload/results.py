"""Tool results: ``tool_result()`` (explicit content, structured data) and ``as_tool_result()`` (any value).

A result is built at once, under the payload options in force where it is built (read once, at
the top of the public function, and passed down): its structured content is encoded and checked
when it is built, and the generated text fallback is that same JSON. A tool that wants options of
its own for its result builds the result inside its ``with mcplite.options(...)`` block.

>>> from rvalues import r_list
>>> r = tool_result(structured_content=r_list(ok=True))
>>> r.content[0].text, r.structured_content
('{"ok":true}', {'ok': True})
>>> as_tool_result("done").content[0].text
'done'
"""

from __future__ import annotations

from typing import Any

from mcplite.payload.returned import encode_structured, ordinary_block, written_block
from mcplite.payload.rjson import options_in_force
from mcplite.protocol.checks import shown
from mcplite.protocol.types import ABSENT, CONTENT_TYPES, CallToolResult
from rvalues import NULL
from rvalues.json import JsonOptions


def _content_list(content: Any) -> list[Any]:
    if isinstance(content, CONTENT_TYPES):
        return [content]
    if not isinstance(content, (list, tuple)):
        raise TypeError(
            "tool_result: content must be a content block or a list of them (content_text(), ...), "
            f"not {shown(content)}"
        )
    for i, block in enumerate(content):
        if not isinstance(block, CONTENT_TYPES):
            hint = "; wrap text with content_text()" if isinstance(block, str) else ""
            raise TypeError(f"tool_result: content[{i}] must be a content block, not {shown(block)}{hint}")
    return list(content)


def tool_result(
    content: Any = None,
    *,
    structured_content: Any = NULL,
    is_error: bool = False,
    meta: dict[str, Any] | None = None,
) -> CallToolResult:
    """An explicit tool result.

    ``content`` is a content block or a list of them. ``structured_content`` is any value
    (R value, Python data, numpy, pandas); ``None``/NULL means no structured-content field. When
    structured content is given and content is not, the content is one text block holding the
    structured JSON. ``meta`` is the result's ``_meta`` (plain JSON, fixed encoding). The payload
    options are those in force here.

    >>> tool_result(structured_content=[]).structured_content
    {}
    >>> tool_result().content
    []
    """
    return built_result(content, structured_content, is_error, meta, options_in_force())


def built_result(
    content: Any, structured_content: Any, is_error: bool, meta: dict[str, Any] | None, options: JsonOptions
) -> CallToolResult:
    """:func:`tool_result` under the payload options ``options``."""
    blocks = None if content is None else _content_list(content)
    encoded = encode_structured(structured_content, options)
    if blocks is None:
        blocks = [] if encoded is None else [written_block(encoded.text)]
    return CallToolResult(
        blocks, structured_content=ABSENT if encoded is None else encoded, is_error=is_error, meta=meta
    )


def as_tool_result(value: Any) -> CallToolResult:
    """Turn what a tool returned into a result; a result passes through unchanged.

    Anything else is an ordinary value: one text block (see
    :func:`mcplite.payload.returned.ordinary_text`), under the payload options in force here.
    Bare lists and dicts are ordinary values, never result objects.

    >>> as_tool_result(None).content[0].text
    '{}'
    >>> as_tool_result([]).content[0].text
    '[]'
    """
    if isinstance(value, CallToolResult):
        return value
    return CallToolResult([ordinary_block(value, options_in_force(), splice=False)])


def served_result(value: Any, options: JsonOptions) -> CallToolResult:
    """:func:`as_tool_result` as a server sends it, under the payload options ``options``: the same
    result, but a large data frame's text is written escaped already
    (:func:`mcplite.payload.returned.ordinary_block`), so that the server's line takes those bytes as
    they are instead of escaping the text a second time.

    >>> served_result(1, options_in_force()).content == as_tool_result(1).content
    True
    """
    if isinstance(value, CallToolResult):
        return value
    return CallToolResult([ordinary_block(value, options)])
