"""A legacy session over Streamable HTTP whose client leaves while a tool waits for its answer:
at 2025-06-18 (a stream that cannot be resumed) the tool's wait ends at once; at 2025-11-25 the
client resumes the stream with ``Last-Event-ID``, answers the ask, and gets the call's result there.
"""

from __future__ import annotations

import json
import threading
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

import mcplite
from tests.serving import served

SCHEMA = {"type": "object", "properties": {"ok": {"type": "boolean"}}}
ACCEPT = {"Accept": "application/json, text/event-stream"}


class Tool:
    """A sync tool that asks, and what ended its wait."""

    def __init__(self) -> None:
        self.ended: list[BaseException] = []
        self.done = threading.Event()
        self.server = mcplite.McpServer("http-asks", ask_timeout=30.0)
        self.server.add_tool(self.confirm, name="confirm")

    def confirm(self, ctx: mcplite.Context) -> str:
        """Wait for the user's go."""
        try:
            return f"ok={ctx.elicit('Go?', SCHEMA).content['ok']}"
        except mcplite.AskError as err:
            self.ended.append(err)
            raise
        finally:
            self.done.set()


@pytest.fixture
def tool() -> Iterator[tuple[Tool, str]]:
    made = Tool()
    with served(made.server.asgi_app(), lifespan="on") as base:
        yield made, base + "/mcp"


def start(url: str, version: str) -> dict[str, str]:
    """An initialized session declaring elicitation: the headers its requests carry."""
    init = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "initialize",
        "params": {
            "protocolVersion": version,
            "capabilities": {"elicitation": {}},
            "clientInfo": {"name": "t", "version": "1"},
        },
    }
    response = httpx.post(url, json=init, headers=ACCEPT, timeout=10)
    headers = {
        **ACCEPT,
        "Mcp-Session-Id": response.headers["mcp-session-id"],
        "MCP-Protocol-Version": version,
    }
    initialized = {"jsonrpc": "2.0", "method": "notifications/initialized"}
    assert httpx.post(url, json=initialized, headers=headers, timeout=10).status_code == 202
    return headers


def events(lines: Iterator[str]) -> Iterator[tuple[str | None, dict[str, Any]]]:
    """(event id, message) of each SSE event carrying JSON."""
    event_id, data = None, ""
    for line in lines:
        if line.startswith("id:"):
            event_id = line[3:].strip()
        elif line.startswith("data:"):
            data += line[5:].strip()
        elif not line and data:
            yield event_id, json.loads(data)
            event_id, data = None, ""


def leave_at_the_ask(url: str, headers: dict[str, str]) -> tuple[str | None, dict[str, Any]]:
    """Call the tool, read its stream up to the ask, and leave (close the connection)."""
    call = {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "confirm", "arguments": {}}}
    with httpx.stream("POST", url, json=call, headers=headers, timeout=10) as response:
        for event_id, message in events(response.iter_lines()):
            if message.get("method") == "elicitation/create":
                return event_id, message
    raise AssertionError("the tool's ask never came")


def test_leaving_a_stream_that_cannot_resume_ends_the_ask(tool: tuple[Tool, str]) -> None:
    made, url = tool
    headers = start(url, "2025-06-18")
    leave_at_the_ask(url, headers)
    assert made.done.wait(5.0)  # at once, not after the 30 s ask_timeout
    assert "cancelled" in str(made.ended[0])


def test_a_client_that_resumes_the_stream_answers_the_ask_and_gets_the_result(tool: tuple[Tool, str]) -> None:
    made, url = tool
    headers = start(url, "2025-11-25")
    event_id, ask = leave_at_the_ask(url, headers)
    assert event_id is not None
    with httpx.stream("GET", url, headers={**headers, "Last-Event-ID": event_id}, timeout=10) as resumed:
        answer = {"jsonrpc": "2.0", "id": ask["id"], "result": {"action": "accept", "content": {"ok": True}}}
        assert httpx.post(url, json=answer, headers=headers, timeout=10).status_code == 202
        for _, message in events(resumed.iter_lines()):
            if message.get("id") == 2:
                assert message["result"]["content"][0]["text"] == "ok=True"
                break
    assert made.ended == []
