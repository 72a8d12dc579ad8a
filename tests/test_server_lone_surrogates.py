"""A lone surrogate (``"\\udcff"``: valid JSON, but no UTF-8 can carry it) from a client, in any field
of a request, gets one answer to that request and never stops the server: the answer shows it as
its escape. Before, an error quoting it could not be written, and over stdio the server stopped
reading altogether."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

from mcplite.transports.stdio import _hand_on
from tests.servers import hostile
from tests.serving import served
from tests.test_server_stdio import Wire

HOSTILE = hostile.__file__
LONE = "\udcff"
CLIENT = {"name": "t", "version": "0"}

REQUESTS: list[tuple[str, dict[str, Any]]] = [
    ("tools/call", {"name": f"no{LONE}", "arguments": {}}),
    ("tools/call", {"name": "echo", "arguments": {"x": 1, f"y{LONE}": 2}}),
    ("tools/call", {"name": "echo", "arguments": {"x": LONE}}),
    ("tools/call", {"name": "polite", "arguments": {"station": LONE}}),
    ("resources/read", {"uri": f"data://{LONE}"}),
    ("resources/read", {"uri": "data://unsendable"}),
    ("prompts/get", {"name": LONE}),
    ("prompts/get", {"name": "greet", "arguments": {"name": LONE}}),
    (f"no/{LONE}", {}),
    ("tools/list", {"cursor": LONE}),
]
"""Requests carrying a lone surrogate where a client's text goes (or, for data://unsendable, a
resource whose value holds one)."""


def _shows_it(answer: dict[str, Any]) -> bool:
    """Whether the answer is an error (or error result) that shows the surrogate as its escape,
    or names the value that holds it."""
    if "error" in answer:
        text = json.dumps(answer["error"])
    else:
        assert answer["result"]["isError"] is True, answer
        text = json.dumps(answer["result"]["content"])
    return "udcff" in text


@pytest.fixture
def wire() -> Iterator[Wire]:
    wire = Wire(HOSTILE)
    try:
        yield wire
    finally:
        wire.kill()


def test_each_request_with_a_lone_surrogate_is_answered_over_stdio(wire: Wire) -> None:
    wire.initialize("2025-11-25")
    ids = [wire.send_request(method, params) for method, params in REQUESTS]
    for request_id, (method, _) in zip(ids, REQUESTS, strict=True):
        answer = wire.response(request_id)
        assert _shows_it(answer), (method, answer)
    assert wire.result("ping") == {}
    assert wire.close() == 0
    wire.check_clean()


def test_a_request_id_with_a_lone_surrogate_is_an_invalid_request(wire: Wire) -> None:
    wire.initialize("2025-11-25")
    wire.send({"jsonrpc": "2.0", "id": f"a{LONE}", "method": "ping"})
    error = wire.orphan()["error"]
    assert error["code"] == -32600 and "id" in error["message"]
    assert wire.result("ping") == {}
    assert wire.close() == 0
    wire.check_clean()


def test_each_request_with_a_lone_surrogate_is_answered_over_http() -> None:
    headers = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
    init = {
        "jsonrpc": "2.0",
        "id": 0,
        "method": "initialize",
        "params": {"protocolVersion": "2025-03-26", "capabilities": {}, "clientInfo": CLIENT},
    }
    with (
        served(hostile.server.asgi_app()) as url,
        httpx.Client(base_url=url, headers=headers, timeout=30) as http,
    ):
        session = {"mcp-session-id": http.post("/mcp", json=init).headers["mcp-session-id"]}
        for i, (method, params) in enumerate(REQUESTS, start=1):
            body = json.dumps({"jsonrpc": "2.0", "id": i, "method": method, "params": params})
            reply = http.post("/mcp", content=body.encode(), headers=session)
            answer = _answer(reply)
            assert answer["id"] == i and _shows_it(answer), (method, reply.status_code, answer)
        ping = http.post("/mcp", json={"jsonrpc": "2.0", "id": 99, "method": "ping"}, headers=session)
        assert _answer(ping)["result"] == {}


def _answer(reply: Any) -> dict[str, Any]:
    """The JSON-RPC answer of a POST (a JSON body, or the last event of an SSE stream)."""
    if reply.headers["content-type"].startswith("text/event-stream"):
        data = [line[5:].strip() for line in reply.text.splitlines() if line.startswith("data:")]
        return json.loads([d for d in data if d][-1])  # type: ignore[no-any-return]
    return reply.json()  # type: ignore[no-any-return]


def test_stdio_reads_on_after_a_message_fails_unforeseen(caplog: pytest.LogCaptureFixture) -> None:
    """The safety net under the fix above: a line whose handling raises is logged, and the lines
    after it are handed on (the reader once stopped at the first such line)."""
    seen: list[bytes] = []

    def on_line(line: bytes) -> None:
        if line.startswith(b"bad"):
            raise ValueError("nothing foresaw this")
        seen.append(line)

    _hand_on([b"bad\n", b"good\n", 7, b"later\n"], on_line, lambda size: seen.append(b"%d" % size))
    assert seen == [b"good\n", b"7", b"later\n"]
    assert "reading on" in caplog.text
