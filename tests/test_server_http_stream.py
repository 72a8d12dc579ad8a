"""A legacy session's own stream (GET on the endpoint), spoken to with raw HTTP: what the server
sends of its accord (resource list changes) arrives there, even when sent before the stream
opened; one stream per session (409 for a second); it ends with the session."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

import pytest

from tests.servers import features
from tests.serving import served
from tests.test_server_http import HEADERS, initialize, rpc, session_headers

httpx = pytest.importorskip("httpx")
uvicorn = pytest.importorskip("uvicorn")


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with served(features.server.asgi_app(sse_keepalive=0.3)) as base:
        yield base + "/mcp"


def events(lines: Iterator[str]) -> Iterator[Any]:
    """The JSON messages of an SSE stream, as they arrive (comment lines skipped)."""
    for line in lines:
        if line.startswith("data: "):
            yield json.loads(line[len("data: ") :])


def test_the_session_stream_carries_list_changes(url: str) -> None:
    with httpx.Client(timeout=20) as client:
        session = initialize(client, url)
        headers = session_headers(session)
        listed = client.post(url, json=rpc(1, "resources/list"), headers=headers)
        assert listed.status_code == 200
        touched = client.post(
            url, json=rpc(2, "tools/call", {"name": "touch", "arguments": {}}), headers=headers
        )
        told = json.loads(touched.json()["result"]["content"][0]["text"])
        assert told[0] >= 1  # this session (and any other of this process that listed); no GET yet
        with client.stream("GET", url, headers={**headers, "accept": "text/event-stream"}) as stream:
            assert stream.status_code == 200
            assert stream.headers["content-type"] == "text/event-stream"
            assert stream.headers["mcp-session-id"] == session
            second = client.get(url, headers={**headers, "accept": "text/event-stream"})
            assert second.status_code == 409 and second.json()["error"]["code"] == -32600
            messages = events(stream.iter_lines())
            assert next(messages) == {
                "jsonrpc": "2.0",
                "method": "notifications/resources/list_changed",
                "params": {},
            }
            client.post(url, json=rpc(3, "tools/call", {"name": "touch", "arguments": {}}), headers=headers)
            assert next(messages)["method"] == "notifications/resources/list_changed"
            assert client.delete(url, headers=headers).status_code == 204
            assert list(messages) == []  # the session ended: so did its stream
        gone = client.get(url, headers={**headers, "accept": "text/event-stream"})
        assert gone.status_code == 404
        assert client.get(url, headers={**HEADERS}).status_code == 400  # no session named
