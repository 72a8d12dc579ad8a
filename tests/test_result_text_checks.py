"""Text on its way into a tool's result: a lone surrogate is refused where it enters,
with an error naming the field and the position; and an rvalues error's notes (which column, what
to do) reach the error the tool's author and the client see."""

from __future__ import annotations

from typing import Any

import pandas as pd
import pytest

import mcplite
import rvalues as rv
from mcplite.testing import Client

BAD = "ab\udcff"  # position 2 cannot be encoded as UTF-8


def _link(**fields: str) -> Any:
    return mcplite.ResourceLink(fields.pop("uri", "file:///x"), fields.pop("name", "x"), **fields)


@pytest.mark.parametrize(
    ("make", "where", "position"),
    [
        (lambda: _link(name=BAD), "ResourceLink: name", 2),
        (lambda: _link(uri="file:///" + BAD), "ResourceLink: uri", 10),
        (lambda: _link(title=BAD), "ResourceLink: title", 2),
        (lambda: _link(description=BAD), "ResourceLink: description", 2),
        (lambda: mcplite.TextResourceContents("file:///x", BAD), "TextResourceContents: text", 2),
        (lambda: mcplite.content_resource("file:///x", text=BAD), "TextResourceContents: text", 2),
        (lambda: mcplite.Icon("https://x/i.png", sizes=["16x16", BAD]), "Icon: sizes", 2),
        (lambda: mcplite.ImageContent("aGk=", "image/png; x=" + BAD), "ImageContent: mime_type", 15),
        (
            lambda: mcplite.CallToolResult([mcplite.TextContent("ok")], meta={"k": [BAD]}),
            r"CallToolResult: meta\['k'\]\[0\]",
            2,
        ),
        (
            lambda: mcplite.CallToolResult([mcplite.TextContent("ok")], structured_content={BAD: 1}),
            "CallToolResult: structured_content: the key",
            2,
        ),
        (lambda: mcplite.tool_result(mcplite.content_text("ok"), meta={"k": BAD}), r"meta\['k'\]", 2),
        (lambda: mcplite.as_tool_result({"a": "ok", "b": BAD}), "string 1", 2),
        (lambda: mcplite.as_tool_result(["ok", BAD]), "string 2", 2),
        (lambda: mcplite.tool_result(structured_content={"k": BAD}), "string 1", 2),
    ],
)
def test_a_lone_surrogate_is_refused_where_text_enters_a_result(make: Any, where: str, position: int) -> None:
    refusal = f"{where}.* holds the lone surrogate '.udcff' at position {position}"
    with pytest.raises(ValueError, match=refusal):
        make()


def test_a_served_result_with_a_lone_surrogate_in_its_meta_is_refused_in_the_tool() -> None:
    """Before, the result was built and the answer failed on the way out: -32603 Internal error."""
    server = mcplite.McpServer("s", mask_error_details=False)

    @server.tool
    def meta() -> Any:
        """Return a result whose _meta cannot be sent."""
        return mcplite.CallToolResult([mcplite.TextContent("ok")], meta={"k": BAD})

    with Client(server) as client:
        result = client.request("tools/call", {"name": "meta", "arguments": {}})
    assert result["isError"] is True
    assert "meta['k'] holds the lone surrogate" in result["content"][0]["text"]


FRAME = pd.DataFrame({"a": [1, 2], "gap": pd.to_timedelta([1, 2], unit="s")})


def test_rvalues_notes_reach_the_conversion_error() -> None:
    with pytest.raises(rv.RValueError) as direct:
        rv.to_json(FRAME)
    notes = direct.value.__notes__
    assert any('column "gap"' in note for note in notes) and any("total_seconds" in note for note in notes)
    with pytest.raises(ValueError, match="cannot be represented as JSON") as converted:
        mcplite.as_tool_result(FRAME)
    assert converted.value.__notes__ == notes


@pytest.mark.parametrize("mask", [True, False])
def test_rvalues_notes_reach_the_client(mask: bool) -> None:
    server = mcplite.McpServer("s", mask_error_details=mask)

    @server.tool
    def durations() -> Any:
        """A frame with a timedelta column."""
        return FRAME

    with Client(server) as client:
        result = client.request("tools/call", {"name": "durations", "arguments": {}})
    assert result["isError"] is True
    text = result["content"][0]["text"]
    assert "No method asJSON S3 class: difftime" in text
    assert 'while writing data frame column "gap" (column 2)' in text
    assert "Series.dt.total_seconds()" in text


def test_error_text_gives_the_message_then_the_notes() -> None:
    from mcplite.tools.failures import error_text

    err = mcplite.ToolError("no such station")
    err.add_note("try 'KSFO'")
    assert error_text(err) == "no such station\ntry 'KSFO'"
    assert error_text(ValueError("plain")) == "plain"
