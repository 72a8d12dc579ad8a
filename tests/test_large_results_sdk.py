"""Large results end to end: the official SDK client (legacy 2025-11-25 and 2026-07-28)
over loopback HTTP, and over stdio, calls a tool returning a 200,000-row frame: the answer comes
within seconds and under the budget, its head is ``as_tool_result`` of the same rows, its link
reads the next rows exactly, and another client (another legacy session, another bearer token)
cannot read it."""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import numpy as np
import pandas as pd
import pytest
from mcp import Client as SdkClient
from mcp import StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError

import mcplite
from mcplite.features.result_store import TRUNCATED_KEY
from mcplite.payload.budget import DEFAULT_RESULT_BUDGET
from mcplite.protocol.versions import CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY
from tests.serving import served

httpx = pytest.importorskip("httpx")

pytestmark = pytest.mark.anyio

MODERN = "2026-07-28"
TIMEOUT = 20.0
ROWS = 200_000
FRAME = pd.DataFrame(
    {
        "id": np.arange(ROWS, dtype=np.int64),
        "store": np.random.default_rng(3).choice(["Berlin", "Paris", "Lisbon"], ROWS),
        "amount": np.random.default_rng(4).normal(100, 30, ROWS).round(2),
    }
)


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


def big_server() -> mcplite.McpServer:
    server = mcplite.McpServer("big")

    @server.tool
    def sales() -> pd.DataFrame:
        """Every sale."""
        return FRAME

    return server


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with served(big_server().asgi_app()) as base:
        yield base + "/mcp"


def exact(rows: slice) -> str:
    return mcplite.as_tool_result(FRAME.iloc[rows]).content[0].text


@pytest.mark.parametrize("mode", ["legacy", MODERN])
async def test_the_sdk_client_gets_an_exact_head_and_reads_on(url: str, mode: str) -> None:
    async with SdkClient(url, mode=mode, read_timeout_seconds=TIMEOUT) as client:  # type: ignore[arg-type]
        started = time.perf_counter()
        with anyio.fail_after(TIMEOUT):
            result = await client.call_tool("sales", {})
        elapsed = time.perf_counter() - started
        head, note, link = result.content
        found = (result.meta or {})[TRUNCATED_KEY]
        n = found["shown"]
        assert found["total"] == ROWS and 0 < n < ROWS and elapsed < 5
        assert head.text == exact(slice(0, n))  # type: ignore[union-attr]
        assert note.text.startswith(f"Showing rows 1..{n} of {ROWS}")  # type: ignore[union-attr]
        assert link.type == "resource_link" and link.uri == found["next"]  # type: ignore[union-attr]
        wire = result.model_dump(by_alias=True, exclude_none=True, mode="json")
        assert len(json.dumps(wire, separators=(",", ":"))) < DEFAULT_RESULT_BUDGET
        page = await client.read_resource(link.uri)  # type: ignore[union-attr]
        (contents,) = page.contents
        then = (page.meta or {})[TRUNCATED_KEY]
        assert then["from"] == n + 1 and contents.text == exact(slice(n, then["to"]))  # type: ignore[union-attr]
    if mode == "legacy":  # another session
        async with SdkClient(url, mode=mode, read_timeout_seconds=TIMEOUT) as other:  # type: ignore[arg-type]
            with pytest.raises(MCPError, match="no stored result"):
                await other.read_resource(link.uri)  # type: ignore[union-attr]


def modern_post(url: str, token: str, method: str, params: dict[str, Any], name: str) -> dict[str, Any]:
    meta = {PROTOCOL_VERSION_KEY: MODERN, CLIENT_CAPABILITIES_KEY: {}}
    body = {"jsonrpc": "2.0", "id": 1, "method": method, "params": {**params, "_meta": meta}}
    headers = {
        "accept": "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": MODERN,
        "mcp-method": method,
        "mcp-name": name,
        "authorization": f"Bearer {token}",
    }
    answer = httpx.post(url, json=body, headers=headers, timeout=TIMEOUT)
    text = answer.text
    if answer.headers["content-type"].startswith("text/event-stream"):
        text = next(line[6:] for line in text.splitlines() if line.startswith("data: "))
    found: dict[str, Any] = json.loads(text)
    return found


def test_a_stateless_link_is_readable_by_its_token_only() -> None:
    with served(big_server().asgi_app(authenticate=lambda token: token in {"ann", "bob"})) as base:
        check_tokens(base + "/mcp")


def check_tokens(url: str) -> None:
    called = modern_post(url, "ann", "tools/call", {"name": "sales", "arguments": {}}, "sales")
    uri = called["result"]["_meta"][TRUNCATED_KEY]["next"]
    mine = modern_post(url, "ann", "resources/read", {"uri": uri}, uri)
    assert mine["result"]["contents"][0]["text"].startswith('[{"id":')
    theirs = modern_post(url, "bob", "resources/read", {"uri": uri}, uri)
    assert theirs["error"]["code"] == -32602 and "no stored result" in theirs["error"]["message"]


STDIO_SERVER = """
import sys
sys.path.insert(0, {root!r})
from tests.test_large_results_sdk import big_server

big_server().run()
"""


async def test_the_sdk_client_over_stdio_gets_the_head_at_once(tmp_path: Path) -> None:
    """The stdio case that failed before result budgets: the official client timed out after 300 s
    on the whole table."""
    script = tmp_path / "server.py"
    script.write_text(STDIO_SERVER.format(root=str(Path(__file__).resolve().parent.parent)))
    params = StdioServerParameters(command=sys.executable, args=[str(script)], env=dict(os.environ))
    async with SdkClient(stdio_client(params), read_timeout_seconds=TIMEOUT) as client:  # type: ignore[arg-type]
        started = time.perf_counter()
        with anyio.fail_after(TIMEOUT):
            result = await client.call_tool("sales", {})
        elapsed = time.perf_counter() - started
        found = (result.meta or {})[TRUNCATED_KEY]
        n = found["shown"]
        assert result.content[0].text == exact(slice(0, n)) and elapsed < 5  # type: ignore[union-attr]
        page = await client.read_resource(found["next"])
        then = (page.meta or {})[TRUNCATED_KEY]
        assert page.contents[0].text == exact(slice(n, then["to"]))  # type: ignore[union-attr]
