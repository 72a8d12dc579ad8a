"""A large request body is parsed in a worker thread, so other clients are not held up meanwhile."""

from __future__ import annotations

import contextlib
import threading
from collections.abc import Iterator
from typing import Any

import pytest

import mcplite
from mcplite.protocol import jsonrpc
from mcplite.transports.http import app as http_app
from tests.serving import served

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

MODERN = "2026-07-28"
META = {"io.modelcontextprotocol/protocolVersion": MODERN, "io.modelcontextprotocol/clientCapabilities": {}}
HEADERS = {
    "accept": "application/json, text/event-stream",
    "content-type": "application/json",
    "mcp-protocol-version": MODERN,
    "mcp-method": "tools/call",
    "mcp-name": "size",
}


@pytest.fixture
def url() -> Iterator[str]:
    server = mcplite.McpServer("bodies")

    @server.tool
    def size(text: str) -> int:
        """The length of a text."""
        return len(text)

    with contextlib.ExitStack() as stack:
        yield stack.enter_context(served(server.asgi_app(), lifespan="off")) + "/mcp"


def test_only_bodies_past_the_bound_are_parsed_off_the_event_loop(
    url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    threads: list[str] = []

    def parse(body: bytes) -> Any:
        threads.append(threading.current_thread().name)
        return jsonrpc.parse_message(body)

    monkeypatch.setattr(http_app, "parse_message", parse)
    for request_id, length in enumerate((10, http_app.PARSE_OFF_LOOP_ABOVE + 1)):
        call = {
            "jsonrpc": "2.0",
            "id": request_id,
            "method": "tools/call",
            "params": {"name": "size", "arguments": {"text": "x" * length}, "_meta": META},
        }
        answer = httpx.post(url, json=call, headers=HEADERS, timeout=30)
        assert answer.json()["result"]["content"][0]["text"] == str(length)
    assert not threads[0].startswith("mcplite-worker"), threads
    assert threads[1].startswith("mcplite-worker"), threads
