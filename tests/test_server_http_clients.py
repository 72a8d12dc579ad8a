"""The everything server over Streamable HTTP (``server.asgi_app()`` on uvicorn), driven by real clients.

Clients: the official SDK's ``Client(url)`` (mcp 2.x) in legacy mode (2025-11-25, and with its handshake
patched down to 2025-03-26), in 2026-07-28 mode and in auto mode; FastMCP's ``Client(url)`` in legacy and
2026-07-28 mode. uvicorn serves on 127.0.0.1 in a background thread of this process; the multi-worker
test starts ``uvicorn --workers 2`` as a subprocess. What a value arrives as is what ``mcplite``
produces for it (``mcplite.as_tool_result``), never typed by hand.
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import json
import os
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import httpx
import pytest

pytest.importorskip("uvicorn")
from mcp import Client
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult

import mcplite
from tests.sdk_handshake import offered_handshake
from tests.servers import everything
from tests.serving import free_port, served

pytest.importorskip("fastmcp")
from fastmcp import Client as FastClient

ROOT = Path(__file__).resolve().parent.parent
TIMEOUT = 20.0
INVALID_PARAMS = -32602


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    """The everything server's MCP endpoint, served by uvicorn in a background thread."""
    with served(everything.server.asgi_app(), lifespan="on") as base:
        yield base + "/mcp"


@dataclasses.dataclass(frozen=True)
class Config:
    library: str  # "sdk" or "fastmcp"
    mode: str  # "auto", "legacy" or "2026-07-28"
    handshake: str | None  # the version a legacy handshake offers (None: the library's latest)
    expected: str

    @property
    def id(self) -> str:
        return f"{self.library}-{self.mode}" + (f"-{self.handshake}" if self.handshake else "")


CONFIGS = [
    Config("sdk", "legacy", None, "2025-11-25"),
    Config("sdk", "legacy", "2025-03-26", "2025-03-26"),
    Config("sdk", "2026-07-28", None, "2026-07-28"),
    Config("sdk", "auto", None, "2026-07-28"),
    Config("fastmcp", "legacy", None, "2025-11-25"),
    Config("fastmcp", "2026-07-28", None, "2026-07-28"),
]


@dataclasses.dataclass
class Conn:
    config: Config
    client: Any
    logs: list[tuple[str, Any]]

    @property
    def version(self) -> str:
        return str(self.client.protocol_version)

    async def list_names(self) -> list[str]:
        if self.config.library == "sdk":
            return [tool.name for tool in (await self.client.list_tools()).tools]
        return [tool.name for tool in await self.client.list_tools()]

    async def call(
        self, name: str, arguments: dict[str, Any] | None = None, progress: Any = None
    ) -> CallToolResult:
        with anyio.fail_after(TIMEOUT):
            if self.config.library == "sdk":
                return await self.client.call_tool(name, arguments or {}, progress_callback=progress)  # type: ignore[no-any-return]
            return await self.client.call_tool_mcp(name, arguments or {}, progress_handler=progress)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module", params=CONFIGS, ids=lambda config: config.id)
async def conn(request: pytest.FixtureRequest, url: str, anyio_backend: str) -> AsyncIterator[Conn]:
    config: Config = request.param
    logs: list[tuple[str, Any]] = []

    async def on_log(params: Any) -> None:
        logs.append((params.level, params.data))

    if config.library == "sdk":
        client: Any = Client(
            url,
            mode=config.mode,
            logging_callback=on_log,
            log_level="debug",
            read_timeout_seconds=TIMEOUT,  # type: ignore[arg-type]
        )
    else:
        client = FastClient(url, mode=config.mode, log_handler=on_log, timeout=TIMEOUT, init_timeout=TIMEOUT)  # type: ignore[arg-type]
    async with contextlib.AsyncExitStack() as stack:
        with offered_handshake(config.handshake):
            await stack.enter_async_context(client)
        yield Conn(config, client, logs)


pytestmark = pytest.mark.anyio


def expected_text(value: Any) -> str:
    block = mcplite.as_tool_result(value).content[0]
    assert isinstance(block, mcplite.TextContent)
    return block.text


def only_text(result: CallToolResult) -> str:
    assert len(result.content) == 1 and result.content[0].type == "text"
    return result.content[0].text


async def test_version_listing_and_calls(conn: Conn) -> None:
    assert conn.version == conn.config.expected
    assert only_text(await conn.call("version")) == conn.version
    assert await conn.list_names() == list(everything.server.tools)
    assert only_text(await conn.call("add", {"a": 40})) == expected_text(42)
    assert only_text(await conn.call("async_frame")) == expected_text(everything.data_frame())
    assert only_text(await conn.call("return_pandas")) == expected_text(everything.pandas_frame())
    failed = await conn.call("fail", {"message": "ünïcode ☃"})
    assert failed.is_error is True and only_text(failed) == "ünïcode ☃"


async def test_unknown_tool_is_a_json_rpc_error(conn: Conn) -> None:
    with pytest.raises(MCPError) as caught:
        await conn.call("no_such_tool")
    assert caught.value.error.code == INVALID_PARAMS
    assert "no_such_tool" in caught.value.error.message


async def test_progress_and_logs_arrive_on_the_request_stream(conn: Conn) -> None:
    received: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        received.append((progress, total, message))

    conn.logs.clear()
    assert only_text(await conn.call("progress", {"steps": 3}, progress=on_progress)) == "3 steps"
    assert received == [(i, 3, f"step {i}") for i in (1, 2, 3)]
    assert ("info", {"done": 3}) in conn.logs and ("warning", "careful") in conn.logs


async def _counts(conn: Conn, tool: str) -> dict[str, int]:
    return json.loads(only_text(await conn.call(tool)))  # type: ignore[no-any-return]


async def test_cancelling_a_call_stops_the_tool(conn: Conn) -> None:
    """Legacy clients send notifications/cancelled on their session; 2026-07-28 clients close the stream."""
    before = await _counts(conn, "cancelled_seen")
    started_before = await _counts(conn, "calls_started")
    scopes: list[anyio.CancelScope] = []

    async def abandon(name: str) -> None:
        with anyio.CancelScope() as scope:
            scopes.append(scope)
            await conn.call(name)
            raise AssertionError(f"{name} answered")

    async with anyio.create_task_group() as group:
        group.start_soon(abandon, "hang")
        group.start_soon(abandon, "async_hang")
        with anyio.fail_after(10):  # cancelled before they run, the calls would never start
            while True:
                started = await _counts(conn, "calls_started")
                if all(started[name] > started_before[name] for name in started_before):
                    break
                await anyio.sleep(0.02)
        for scope in scopes:
            scope.cancel()
    with anyio.fail_after(10):
        while True:
            seen = json.loads(only_text(await conn.call("cancelled_seen")))
            if seen["hang"] > before["hang"] and seen["async_hang"] > before["async_hang"]:
                break
            await anyio.sleep(0.02)


async def test_concurrent_calls_keep_their_own_options(conn: Conn) -> None:
    results: dict[tuple[str, str], str] = {}

    async def run(tool: str, na: str) -> None:
        results[tool, na] = only_text(await conn.call(tool, {"na": na, "delay": 0.15}))

    async with anyio.create_task_group() as group:
        for tool in ("options_sync", "options_async"):
            for na in ("null", "string"):
                group.start_soon(run, tool, na)
    for (_tool, na), text in results.items():
        with mcplite.options(json_na=na):
            assert text == expected_text(everything.na_value())
    assert len(set(results.values())) == 2


# -- several worker processes behind one socket ------------------------------------------------------------


@pytest.fixture(scope="module")
def workers_url() -> Iterator[str]:
    """``uvicorn --workers 2`` serving the everything app on loopback."""
    port = free_port()
    command = [
        sys.executable, "-m", "uvicorn", "--factory", "tests.servers.everything:http_app",
        "--host", "127.0.0.1", "--port", str(port), "--workers", "2", "--log-level", "warning",
    ]  # fmt: skip
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/mcp"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
            assert time.monotonic() < deadline, "uvicorn --workers 2 did not start"
            with contextlib.suppress(httpx.HTTPError):
                if httpx.get(url, timeout=1).status_code in (400, 405):  # GET without a session
                    break
            time.sleep(0.1)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


async def _stateless_call(
    client: httpx.AsyncClient, url: str, request_id: int, name: str, arguments: Any
) -> Any:
    headers = {
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": name,
    }
    params = {"name": name, "arguments": arguments, "_meta": MODERN_META}
    body = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    response = await client.post(url, json=body, headers=headers)
    assert response.status_code == 200 and response.headers["content-type"] == "application/json"
    answer = response.json()
    assert answer["id"] == request_id
    return answer["result"]


async def test_stateless_requests_spread_over_two_workers(workers_url: str) -> None:
    """Every answer is right whichever worker gives it, and both workers answer (fresh connections)."""
    pids: set[int] = set()
    limits = httpx.Limits(max_keepalive_connections=0)
    async with httpx.AsyncClient(limits=limits, timeout=TIMEOUT) as client:

        async def one(request_id: int) -> None:
            result = await _stateless_call(client, workers_url, request_id, "add", {"a": request_id, "b": 1})
            assert result["content"][0]["text"] == expected_text(request_id + 1)
            pid = await _stateless_call(client, workers_url, request_id, "pid", {})
            pids.add(int(pid["content"][0]["text"]))

        deadline = time.monotonic() + 15  # the second worker may still be starting
        start = 0
        while len(pids) < 2 and time.monotonic() < deadline:
            await asyncio.gather(*(one(i) for i in range(start, start + 20)))
            start += 20
    assert len(pids) == 2, pids


async def test_the_sdk_client_in_2026_mode_against_two_workers(workers_url: str) -> None:
    async with Client(workers_url, mode="2026-07-28", read_timeout_seconds=TIMEOUT) as client:
        assert client.protocol_version == "2026-07-28"
        for a in range(20):
            result = await client.call_tool("add", {"a": a})
            assert only_text(result) == expected_text(a + 2)
        assert [tool.name for tool in (await client.list_tools()).tools] == list(everything.server.tools)
