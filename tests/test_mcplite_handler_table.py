"""One handler registered in the server's table answers through stdio, Streamable HTTP and
``mcplite.testing.Client``, and the capabilities follow: nothing else needs an edit."""

from __future__ import annotations

import asyncio
import io
import json
import os
from typing import Any

import pytest

import mcplite
from mcplite.engine.handlers import Request
from mcplite.protocol.jsonrpc import METHOD_NOT_FOUND
from mcplite.testing import Client, RequestError
from mcplite.transports.stdio import serve_connection

httpx = pytest.importorskip("httpx")

MODERN = "2026-07-28"
LEGACY = "2025-06-18"
META = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def echo_server(eras: tuple[str, ...] = ("legacy", "modern")) -> mcplite.McpServer:
    server = mcplite.McpServer("table")

    @server.handlers.handler("test/echo", eras=eras, capability=("experimental", {"echo": {}}))  # type: ignore[arg-type]
    def echo(request: Request) -> dict[str, Any]:
        return {"echo": request.params.get("text"), "served": request.version}

    return server


def rpc(request_id: int | None, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method, "params": params or {}}
    if request_id is not None:
        message["id"] = request_id
    return message


@pytest.mark.parametrize("version", [LEGACY, MODERN])
def test_the_test_client_reaches_a_registered_method(version: str) -> None:
    with Client(echo_server(), version) as client:
        result = client.request("test/echo", {"text": "hi"})
        assert (result["echo"], result["served"]) == ("hi", version)
        assert client.server_capabilities is not None
        assert client.server_capabilities["experimental"] == {"echo": {}}
        with pytest.raises(RequestError) as refused:
            client.request("test/unknown")
        assert refused.value.code == METHOD_NOT_FOUND


def test_a_method_registered_for_one_era_is_not_found_in_the_other() -> None:
    with Client(echo_server(("modern",)), LEGACY) as client, pytest.raises(RequestError) as refused:
        client.request("test/echo", {"text": "hi"})
    assert refused.value.code == METHOD_NOT_FOUND
    with Client(echo_server(("modern",)), MODERN) as client:
        assert client.request("test/echo", {"text": "hi"})["echo"] == "hi"


def test_stdio_reaches_a_registered_method() -> None:
    hello = {"protocolVersion": LEGACY, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    lines = [
        rpc(1, "initialize", hello),
        rpc(None, "notifications/initialized"),
        rpc(2, "test/echo", {"text": "legacy"}),
        rpc(3, "test/echo", {"text": "modern", "_meta": META}),
        rpc(4, "test/unknown"),
    ]
    stream = io.BytesIO(b"".join(json.dumps(line).encode() + b"\n" for line in lines))
    read_end, write_end = os.pipe()
    try:
        asyncio.run(serve_connection(echo_server().engine, stream, write_end, shutdown_grace=1.0))
        os.close(write_end)
        with os.fdopen(read_end, "rb") as output:
            answers = {message["id"]: message for message in map(json.loads, output.read().splitlines())}
    finally:
        for fd in (read_end, write_end):
            try:
                os.close(fd)
            except OSError:
                pass
    assert answers[1]["result"]["capabilities"]["experimental"] == {"echo": {}}
    assert answers[2]["result"] == {"echo": "legacy", "served": LEGACY}
    assert (answers[3]["result"]["echo"], answers[3]["result"]["resultType"]) == ("modern", "complete")
    assert answers[4]["error"]["code"] == METHOD_NOT_FOUND


def test_http_reaches_a_registered_method_in_both_eras() -> None:
    app = echo_server().asgi_app()

    async def script() -> list[Any]:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            modern_headers = {**HEADERS, "mcp-protocol-version": MODERN, "mcp-method": "test/echo"}
            modern = await http.post(
                "/mcp", json=rpc(1, "test/echo", {"text": "modern", "_meta": META}), headers=modern_headers
            )
            hello = {
                "protocolVersion": LEGACY,
                "capabilities": {},
                "clientInfo": {"name": "t", "version": "1"},
            }
            started = await http.post("/mcp", json=rpc(2, "initialize", hello), headers=HEADERS)
            session = {**HEADERS, "mcp-session-id": started.headers["mcp-session-id"]}
            legacy = await http.post("/mcp", json=rpc(3, "test/echo", {"text": "legacy"}), headers=session)
            unknown = await http.post("/mcp", json=rpc(4, "test/unknown"), headers=session)
            return [modern, started, legacy, unknown]

    modern, started, legacy, unknown = asyncio.run(script())
    assert modern.status_code == 200 and modern.json()["result"]["echo"] == "modern"
    assert started.json()["result"]["capabilities"]["experimental"] == {"echo": {}}
    assert legacy.json()["result"] == {"echo": "legacy", "served": LEGACY}
    assert unknown.json()["error"]["code"] == METHOD_NOT_FOUND
