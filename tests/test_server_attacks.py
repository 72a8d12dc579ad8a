"""The server under attack (issue 25), on loopback only, bounded in count and time: abandoned calls,
huge integers, hostile hosts and bodies, sessions that are never closed, secrets in exceptions.
"""

from __future__ import annotations

import asyncio
import json
import os
import socket
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mcplite
from mcplite.http import McpHttpApp
from tests.servers import hostile
from tests.test_server_stdio import Wire

httpx = pytest.importorskip("httpx")
uvicorn = pytest.importorskip("uvicorn")

HOSTILE = Path(hostile.__file__)
MODERN = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
}
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


def modern_call(request_id: int, name: str, arguments: dict[str, Any]) -> dict[str, Any]:
    params = {"name": name, "arguments": arguments, "_meta": META}
    return {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}


def modern_headers(name: str) -> dict[str, str]:
    return {**HEADERS, "mcp-protocol-version": MODERN, "mcp-method": "tools/call", "mcp-name": name}


def text_of(value: Any) -> str:
    block = mcplite.as_tool_result(value).content[0]
    assert isinstance(block, mcplite.TextContent)
    return block.text


@pytest.fixture
def serve() -> Iterator[Any]:
    """Serve an app on a free loopback port (``serve(app)`` gives its base URL); stopped after the test."""
    servers: list[tuple[Any, threading.Thread]] = []

    def start(app: McpHttpApp, host: str = "127.0.0.1") -> str:
        with socket.socket() as probe:
            probe.bind((host, 0))
            port = probe.getsockname()[1]
        server = uvicorn.Server(
            uvicorn.Config(app, host=host, port=port, log_level="warning", lifespan="off")
        )
        thread = threading.Thread(target=server.run, name="uvicorn", daemon=True)
        thread.start()
        servers.append((server, thread))
        deadline = time.monotonic() + 10
        while not server.started:
            assert thread.is_alive() and time.monotonic() < deadline
            time.sleep(0.01)
        return f"http://{host}:{port}"

    yield start
    for server, thread in servers:
        server.should_exit = True
        thread.join(10)


async def _hang_up(port: int, body: bytes, after: float) -> None:
    """Send one request, wait ``after`` seconds, and close the connection unread."""
    _reader, writer = await asyncio.open_connection("127.0.0.1", port)
    head = (
        f"POST /mcp HTTP/1.1\r\nhost: 127.0.0.1:{port}\r\ncontent-length: {len(body)}\r\n"
        + "".join(f"{k}: {v}\r\n" for k, v in modern_headers("slow").items())
        + "\r\n"
    )
    writer.write(head.encode() + body)
    await writer.drain()
    await asyncio.sleep(after)
    writer.close()


# -- 1. abandoned calls ------------------------------------------------------------------------------------


def test_calls_whose_clients_hung_up_never_start(serve: Any) -> None:
    """40 clients of a 0.3 s sync tool on 2 workers hang up after 50 ms: at most the 2 already
    running ran, and the next call is answered at once (it waited 6 s for the abandoned ones)."""
    server = mcplite.McpServer("pool", workers=2)
    started: list[int] = []

    @server.tool
    def slow(n: int) -> int:
        """Sleep 0.3 s."""
        started.append(n)
        time.sleep(0.3)
        return n

    base = serve(server.asgi_app())
    port = int(base.rsplit(":", 1)[1])

    async def abandon() -> None:
        bodies = [json.dumps(modern_call(i, "slow", {"n": i})).encode() for i in range(40)]
        await asyncio.gather(*(_hang_up(port, body, 0.05) for body in bodies))

    asyncio.run(abandon())
    time.sleep(0.4)  # the two running when the clients left finish
    began = time.monotonic()
    answer = httpx.post(
        base + "/mcp", json=modern_call(99, "slow", {"n": 99}), headers=modern_headers("slow")
    )
    took = time.monotonic() - began
    assert answer.json()["result"]["content"][0]["text"] == text_of(99)
    assert len(started) <= 3, f"{len(started) - 1} abandoned calls ran"
    assert took < 1.5, f"the next call took {took:.1f} s"


def test_the_worker_pool_follows_the_machine_and_is_configurable() -> None:
    assert mcplite.McpServer("x").workers._size == max(32, 4 * (os.cpu_count() or 1))
    assert mcplite.McpServer("x", workers=3).workers._size == 3


# -- over stdio ----------------------------------------------------------------------------------------------


@pytest.fixture
def wire() -> Iterator[Wire]:
    wire = Wire(HOSTILE)
    try:
        yield wire
    finally:
        wire.kill()


def test_a_tools_child_process_reads_dev_null_not_the_protocol(wire: Wire) -> None:
    wire.initialize("2025-06-18")
    call = wire.send_request("tools/call", {"name": "child_stdin", "arguments": {}})
    pings = [wire.send_request("ping") for _ in range(5)]
    assert wire.response(call)["result"]["content"][0]["text"] == "null"
    assert all(wire.response(ping)["result"] == {} for ping in pings)
    assert wire.close() == 0
    wire.check_clean()


# -- 3. huge integers --------------------------------------------------------------------------------------

HUGE = "9" * 5000


def test_huge_integers_over_stdio_are_parse_errors_and_the_server_keeps_serving(wire: Wire) -> None:
    wire.initialize("2025-06-18")
    wire.send(f'{{"jsonrpc":"2.0","id":{HUGE},"method":"ping"}}\n'.encode())
    assert wire.orphan()["error"]["code"] == -32700
    call = json.dumps({"jsonrpc": "2.0", "id": 7, "method": "tools/call", "params": {"name": "echo"}})
    wire.send(call.replace('"echo"', f'"echo", "arguments": {{"x": {HUGE}}}').encode() + b"\n")
    error = wire.orphan()["error"]
    assert error["code"] == -32700 and "digits" in error["message"]
    for cursor in ["²", HUGE, "-1", "1.0"]:
        assert wire.error("tools/list", {"cursor": cursor})["code"] == -32602
    assert wire.result("ping") == {}
    assert wire.close() == 0
    wire.check_clean()


def test_huge_integers_over_http_are_400(serve: Any) -> None:
    server = mcplite.McpServer("ints")

    @server.tool
    def echo(x: int) -> int:
        """Return the integer."""
        return x

    url = serve(server.asgi_app()) + "/mcp"
    body = json.dumps(modern_call(1, "echo", {"x": 1})).replace('"x": 1', f'"x": {HUGE}')
    answer = httpx.post(url, content=body, headers=modern_headers("echo"))
    assert answer.status_code == 400 and answer.json()["error"]["code"] == -32700
    listing = {"jsonrpc": "2.0", "id": 2, "method": "tools/list", "params": {"cursor": "²", "_meta": META}}
    headers = {**HEADERS, "mcp-protocol-version": MODERN, "mcp-method": "tools/list"}
    refused = httpx.post(url, json=listing, headers=headers)
    assert refused.status_code == 400 and refused.json()["error"]["code"] == -32602
    fine = httpx.post(url, json=modern_call(3, "echo", {"x": 5}), headers=modern_headers("echo"))
    assert fine.json()["result"]["content"][0]["text"] == text_of(5)
