"""The path of one request: the payload options are read once, where the request arrives, and
passed down; the result line is written from the structured JSON's bytes, which are never read
back on the way."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Iterator
from typing import Any

import pytest

import mcplite
import rvalues as rv
from mcplite.engine.connection import Connection
from mcplite.payload import rjson
from mcplite.protocol import types
from mcplite.testing import Client


def _server() -> mcplite.McpServer:
    server = mcplite.McpServer("path")

    @server.tool
    def plain(n: int) -> Any:
        return rv.r_list(x=rv.c(1.5, rv.NA_real_), n=n)

    @server.tool(output_schema={"type": "object"})
    def structured(n: int) -> Any:
        return {"rows": [{"id": i, "ok": None} for i in range(n)], "na": rv.NA_real_}

    @server.tool
    def built(n: int) -> mcplite.CallToolResult:
        return mcplite.tool_result(structured_content=rv.r_list(n=n, x=rv.NA_real_))

    return server


@pytest.fixture
def reads(monkeypatch: pytest.MonkeyPatch) -> Iterator[list[int]]:
    """How many times the payload options are read (each read of the options in force)."""
    counted: list[int] = []
    real = rjson.jsonlite_options

    def counting() -> dict[str, Any]:
        counted.append(1)
        return real()

    monkeypatch.setattr(rjson, "jsonlite_options", counting)
    yield counted


@pytest.mark.parametrize("version", ["2025-06-18", "2026-07-28"])
@pytest.mark.parametrize(("tool", "reads_expected"), [("plain", 1), ("structured", 1), ("built", 2)])
def test_the_payload_options_are_read_once_per_request(
    reads: list[int], version: str, tool: str, reads_expected: int
) -> None:
    """One read as the request arrives; a tool that builds its own result (``tool_result``) reads
    them once more, where it calls the public function (its own ``with options`` applies there)."""
    with Client(_server(), version) as client:
        client.list_tools()
        before = len(reads)
        with mcplite.options(json_na="null"):
            result = client.call_tool(tool, {"n": 2})
    assert not result.is_error, result.text
    assert "null" in result.text and '"NA"' not in result.text
    assert len(reads) - before == reads_expected


def test_the_result_line_is_written_without_reading_the_json_back(monkeypatch: pytest.MonkeyPatch) -> None:
    def never(self: object) -> None:
        raise AssertionError("the structured JSON was read back")

    monkeypatch.setattr(types.EncodedJson, "value", property(never))
    monkeypatch.setattr(rjson, "read_json", never)
    meta = {
        "io.modelcontextprotocol/protocolVersion": "2026-07-28",
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    call = {"name": "structured", "arguments": {"n": 1}, "_meta": meta}
    lines: list[bytes] = []

    async def main() -> None:
        connection = Connection(_server().engine, lines.append)
        connection.receive(
            json.dumps({"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": call}).encode()
        )
        await connection.close(5.0)

    asyncio.run(main())
    assert lines[0].endswith(b'"structuredContent":{"rows":[{"id":0,"ok":null}],"na":"NA"}}}\n')
    monkeypatch.undo()
    assert json.loads(lines[0])["result"]["structuredContent"] == {
        "rows": [{"id": 0, "ok": None}],
        "na": "NA",
    }
