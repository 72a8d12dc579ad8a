"""``mcplite.sdk.mcplite_resource``: a resource served by the SDK's ``MCPServer`` or FastMCP reads
back (through each library's own client) as the contents mcplite's own server sends."""

from __future__ import annotations

from typing import Any

import pytest
from mcp import Client
from mcp.server.mcpserver import MCPServer

import mcplite
import rvalues as rv
from mcplite.sdk import mcplite_resource
from mcplite.testing import Client as OwnClient

pytest.importorskip("fastmcp")
import fastmcp

pytestmark = pytest.mark.anyio


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def frame() -> rv.DataFrame:
    return rv.data_frame(x=[1.5, rv.NA_real_, float("nan")], s=["a", rv.NA_character_, "c"])


def own_text(uri: str, value: Any) -> str:
    server = mcplite.McpServer("own")
    server.resource(uri, mime_type="application/json")(lambda: value)
    with OwnClient(server, "2025-11-25") as client:
        (contents,) = client.read_resource(uri)
    assert isinstance(contents, mcplite.TextResourceContents)
    return contents.text


@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
async def test_sdk_server(mode: str) -> None:
    server = MCPServer("sdk")

    @server.resource("frames://rows", mime_type="application/json")
    @mcplite_resource
    def rows() -> str:
        return frame()  # type: ignore[return-value]

    @server.resource("frames://cols/{name}", mime_type="application/json")
    @mcplite_resource
    async def column(name: str) -> str:
        return frame().columns[name]  # type: ignore[no-any-return]

    async with Client(server, mode=mode) as client:  # type: ignore[arg-type]
        (whole,) = (await client.read_resource("frames://rows")).contents
        (one,) = (await client.read_resource("frames://cols/s")).contents
    assert whole.text == own_text("frames://rows", frame())  # type: ignore[union-attr]
    assert one.text == own_text("frames://cols/s", frame().columns["s"])  # type: ignore[union-attr]


async def test_fastmcp_server() -> None:
    app = fastmcp.FastMCP("fast")

    @app.resource("frames://rows", mime_type="application/json")
    @mcplite_resource
    def rows() -> str:
        return frame()  # type: ignore[return-value]

    async with fastmcp.Client(app) as client:
        (whole,) = await client.read_resource("frames://rows")
    assert whole.text == own_text("frames://rows", frame())  # type: ignore[union-attr]
