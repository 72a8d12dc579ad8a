"""The Streamable HTTP transport spoken to with raw HTTP (httpx): headers, status codes, sessions, security.

uvicorn serves three apps in a background thread on 127.0.0.1: the everything server at ``/mcp`` (SSE
keep-alive every 0.3 s), a small server with a 2000-byte message limit at ``/small/mcp``, and one with
bearer-token authentication and an extra allowed origin at ``/auth/mcp``. The expected status codes and
JSON-RPC error codes are the specification's (Streamable HTTP for 2025-11-25 and 2026-07-28).
"""

from __future__ import annotations

import asyncio
import base64
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

import mcplite
from mcplite.http import HttpOptions, McpHttpApp
from tests.servers import everything
from tests.serving import served

httpx = pytest.importorskip("httpx")
uvicorn = pytest.importorskip("uvicorn")

ACCEPT = "application/json, text/event-stream"
HEADERS = {"accept": ACCEPT, "content-type": "application/json"}
MODERN = "2026-07-28"
META = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
}
TOKENS = {"alice-token", "bob-token"}


def small_app() -> McpHttpApp:
    server = mcplite.McpServer("small", max_message_size=2000)

    @server.tool
    def echo(text: str) -> str:
        """Return the text."""
        return text

    return server.asgi_app(path="/small/mcp")


def auth_app() -> McpHttpApp:
    server = mcplite.McpServer("guarded")

    @server.tool
    def whoami() -> str:
        """Say hello."""
        return "hello"

    async def authenticate(token: str) -> bool:
        return token in TOKENS

    return server.asgi_app(
        path="/auth/mcp", authenticate=authenticate, allowed_origins=["https://app.example.com"]
    )


@pytest.fixture(scope="module")
def base() -> Iterator[str]:
    """The server's base URL; the apps answer at /mcp, /small/mcp and /auth/mcp."""
    main, small, guarded = everything.server.asgi_app(sse_keepalive=0.3), small_app(), auth_app()

    async def router(scope: Any, receive: Any, send: Any) -> None:
        path = scope.get("path", "")
        app = small if path.startswith("/small") else guarded if path.startswith("/auth") else main
        await app(scope, receive, send)

    with served(router, lifespan="off") as base:
        yield base


@pytest.fixture(scope="module")
def url(base: str) -> str:
    return base + "/mcp"


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with httpx.Client(timeout=20) as http:
        yield http


def rpc(request_id: int | str | None, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "method": method}
    if request_id is not None:
        message["id"] = request_id
    if params is not None:
        message["params"] = params
    return message


def initialize(client: Any, url: str, version: str = "2025-06-18", **headers: str) -> str:
    """Start a session; its id."""
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
    response = client.post(url, json=rpc(0, "initialize", params), headers={**HEADERS, **headers})
    assert response.status_code == 200, response.text
    assert response.headers["content-type"] == "application/json"
    assert response.json()["result"]["protocolVersion"] == version
    session = response.headers["mcp-session-id"]
    assert session and all(0x21 <= ord(c) <= 0x7E for c in session)
    initialized = client.post(
        url,
        json=rpc(None, "notifications/initialized"),
        headers={**HEADERS, **headers, "mcp-session-id": session},
    )
    assert (initialized.status_code, initialized.content) == (202, b"")
    return session


def session_headers(session: str, version: str = "2025-06-18") -> dict[str, str]:
    return {**HEADERS, "mcp-session-id": session, "mcp-protocol-version": version}


def modern_headers(method: str = "tools/call", name: str | None = "add") -> dict[str, str]:
    headers = {**HEADERS, "mcp-protocol-version": MODERN, "mcp-method": method}
    if name is not None:
        headers["mcp-name"] = name
    return headers


def modern_call(request_id: int, name: str, arguments: dict[str, Any], **meta: Any) -> dict[str, Any]:
    return rpc(request_id, "tools/call", {"name": name, "arguments": arguments, "_meta": {**META, **meta}})


def expected_text(value: Any) -> str:
    block = mcplite.as_tool_result(value).content[0]
    assert isinstance(block, mcplite.TextContent)
    return block.text


def events(body: str) -> list[dict[str, Any]]:
    """The JSON-RPC messages of an SSE body (comments skipped); every event is a 'message' event,
    but for the priming event of a 2025-11-25 stream (an id and empty data), and may have an id."""
    messages = []
    for block in body.split("\n\n"):
        lines = [line for line in block.split("\n") if line and not line.startswith((":", "id: ", "retry: "))]
        if not lines or lines == ["data: "]:
            continue
        assert lines[0] == "event: message" and len(lines) == 2 and lines[1].startswith("data: "), block
        messages.append(json.loads(lines[1][len("data: ") :]))
    return messages


def error_of(response: Any, status: int, code: int, request_id: Any = None) -> str:
    assert response.status_code == status, response.text
    assert response.headers["content-type"] == "application/json"
    body = response.json()
    assert body["jsonrpc"] == "2.0" and body["id"] == request_id and body["error"]["code"] == code, body
    return str(body["error"]["message"])


def cancelled_seen(client: Any, url: str, tool: str = "cancelled_seen") -> dict[str, int]:
    """The everything server's counts of hanging calls: cancelled (or, with ``calls_started``, started)."""
    response = client.post(url, json=modern_call(99, tool, {}), headers=modern_headers(name=tool))
    return json.loads(response.json()["result"]["content"][0]["text"])  # type: ignore[no-any-return]


# -- legacy sessions ---------------------------------------------------------------------------------------


def test_session_lifecycle(client: Any, url: str) -> None:
    session = initialize(client, url)
    listed = client.post(url, json=rpc(1, "tools/list"), headers=session_headers(session))
    assert listed.status_code == 200 and listed.headers["mcp-session-id"] == session
    assert [tool["name"] for tool in listed.json()["result"]["tools"]] == list(everything.server.tools)
    call = client.post(
        url,
        json=rpc(2, "tools/call", {"name": "add", "arguments": {"a": 1}}),
        headers=session_headers(session),
    )
    assert call.json() == {
        "jsonrpc": "2.0",
        "id": 2,
        "result": {"content": [{"type": "text", "text": expected_text(3)}]},
    }
    ended = client.delete(url, headers=session_headers(session))
    assert (ended.status_code, ended.content) == (204, b"")
    after = client.post(url, json=rpc(3, "tools/list"), headers=session_headers(session))
    assert "initialize" in error_of(after, 404, -32600, 3)
    error_of(client.delete(url, headers=session_headers(session)), 404, -32600)
    error_of(client.delete(url, headers=HEADERS), 400, -32600)


def test_sessions_are_separate_and_required(client: Any, url: str) -> None:
    first, second = initialize(client, url, "2025-03-26"), initialize(client, url, "2025-11-25")
    assert first != second
    for session, version in ((first, "2025-03-26"), (second, "2025-11-25")):
        answer = client.post(
            url, json=rpc(1, "tools/call", {"name": "version"}), headers=session_headers(session, version)
        )
        assert answer.json()["result"]["content"][0]["text"] == version
    missing = client.post(url, json=rpc(4, "tools/list"), headers=HEADERS)
    assert "Mcp-Session-Id" in error_of(missing, 400, -32600, 4)
    error_of(
        client.post(url, json=rpc(5, "tools/list"), headers=session_headers("no-such-session")),
        404,
        -32600,
        5,
    )


def test_legacy_protocol_version_header(client: Any, url: str) -> None:
    session = initialize(client, url, "2025-06-18")
    # another supported version is served under the negotiated one, as the official SDKs do
    other = client.post(
        url, json=rpc(1, "tools/call", {"name": "version"}), headers=session_headers(session, "2025-11-25")
    )
    assert other.json()["result"]["content"][0]["text"] == "2025-06-18"
    unknown = client.post(url, json=rpc(2, "tools/list"), headers=session_headers(session, "1999-01-01"))
    assert "1999-01-01" in error_of(unknown, 400, -32600, 2)
    # without the header the session's negotiated version applies
    absent = client.post(
        url, json=rpc(3, "tools/call", {"name": "version"}), headers={**HEADERS, "mcp-session-id": session}
    )
    assert absent.json()["result"]["content"][0]["text"] == "2025-06-18"


def test_batches_only_at_2025_03_26(client: Any, url: str) -> None:
    old = initialize(client, url, "2025-03-26")
    batch = [
        rpc(1, "tools/call", {"name": "add", "arguments": {"a": 2}}),
        rpc(None, "notifications/initialized"),
        rpc(2, "ping"),
    ]
    answer = client.post(url, json=batch, headers=session_headers(old, "2025-03-26"))
    assert answer.status_code == 200
    assert sorted(item["id"] for item in answer.json()) == [1, 2]
    only_notifications = client.post(
        url, json=[rpc(None, "notifications/initialized")], headers=session_headers(old, "2025-03-26")
    )
    assert (only_notifications.status_code, only_notifications.content) == (202, b"")
    newer = initialize(client, url, "2025-06-18")
    error_of(client.post(url, json=batch, headers=session_headers(newer)), 400, -32600)


def test_posted_responses_and_notifications_are_accepted(client: Any, url: str) -> None:
    session = initialize(client, url)
    for message in ({"jsonrpc": "2.0", "id": 7, "result": {}}, rpc(None, "notifications/roots/list_changed")):
        accepted = client.post(url, json=message, headers=session_headers(session))
        assert (accepted.status_code, accepted.content) == (202, b"")


# -- 2026-07-28: stateless, headers agree with the body ----------------------------------------------------


def test_modern_request_needs_no_session(client: Any, url: str) -> None:
    answer = client.post(url, json=modern_call(1, "add", {"a": 40}), headers=modern_headers())
    assert answer.status_code == 200 and "mcp-session-id" not in answer.headers
    result = answer.json()["result"]
    assert result["content"][0]["text"] == expected_text(42) and result["resultType"] == "complete"
    # a session header is ignored, not checked
    ignored = client.post(
        url,
        json=modern_call(2, "version", {}),
        headers={**modern_headers(name="version"), "mcp-session-id": "bogus"},
    )
    assert ignored.json()["result"]["content"][0]["text"] == MODERN
    listed = client.post(
        url, json=rpc(3, "tools/list", {"_meta": META}), headers=modern_headers("tools/list", None)
    )
    assert listed.status_code == 200 and listed.json()["result"]["ttlMs"] == everything.server.cache_ttl_ms
    discover = client.post(
        url, json=rpc(4, "server/discover", {"_meta": META}), headers=modern_headers("server/discover", None)
    )
    assert MODERN in discover.json()["result"]["supportedVersions"]


def _b64(text: str) -> str:
    return "=?base64?" + base64.b64encode(text.encode()).decode() + "?="


@pytest.mark.parametrize(
    ("change", "why"),
    [
        ({"mcp-protocol-version": None}, "missing"),
        ({"mcp-protocol-version": "2025-11-25"}, "2025-11-25"),
        ({"mcp-method": None}, "missing"),
        ({"mcp-method": "tools/list"}, "tools/list"),
        ({"mcp-name": None}, "missing"),
        ({"mcp-name": "async_add"}, "async_add"),
        ({"mcp-name": _b64("async_add")}, "async_add"),
        ({"mcp-name": "=?base64?not base64!?="}, "malformed"),
    ],
)
def test_routing_headers_must_agree_with_the_body(
    client: Any, url: str, change: dict[str, str | None], why: str
) -> None:
    headers = {name: value for name, value in {**modern_headers(), **change}.items() if value is not None}
    answer = client.post(url, json=modern_call(5, "add", {"a": 1}), headers=headers)
    assert why in error_of(answer, 400, -32020, 5)


def test_base64_names_and_duplicate_headers(client: Any, url: str) -> None:
    encoded = client.post(url, json=modern_call(6, "add", {"a": 1}), headers=modern_headers(name=_b64("add")))
    assert encoded.json()["result"]["content"][0]["text"] == expected_text(3)
    raw = [(name.encode(), value.encode()) for name, value in modern_headers().items()]
    doubled = client.post(
        url,
        content=json.dumps(modern_call(7, "add", {"a": 1})),
        headers=[*raw, (b"mcp-method", b"tools/call")],
    )
    assert "more than once" in error_of(doubled, 400, -32020, 7)


def test_modern_versions_and_methods(client: Any, url: str) -> None:
    future = {**META, "io.modelcontextprotocol/protocolVersion": "2099-01-01"}
    unsupported = client.post(
        url,
        json=rpc(1, "tools/list", {"_meta": future}),
        headers={**modern_headers("tools/list", None), "mcp-protocol-version": "2099-01-01"},
    )
    error_of(unsupported, 400, -32022, 1)
    assert MODERN in unsupported.json()["error"]["data"]["supported"]
    unknown = client.post(url, json=rpc(2, "ping", {"_meta": META}), headers=modern_headers("ping", None))
    error_of(unknown, 404, -32601, 2)
    no_meta = client.post(url, json=rpc(3, "tools/list"), headers=modern_headers("tools/list", None))
    assert "_meta" in error_of(no_meta, 400, -32602, 3)  # a required _meta field is missing
    bad_tool = client.post(url, json=modern_call(4, "nope", {}), headers=modern_headers(name="nope"))
    error_of(bad_tool, 400, -32602, 4)
    notification = client.post(
        url,
        json=rpc(None, "notifications/cancelled", {"requestId": 1}),
        headers=modern_headers("notifications/cancelled", None),
    )
    assert (notification.status_code, notification.content) == (202, b"")


def test_the_same_id_from_two_stateless_clients(url: str) -> None:
    """Stateless requests share nothing: two concurrent calls with id 1 are both answered."""
    results: list[str] = []

    def call(seconds: float) -> None:
        with httpx.Client(timeout=20) as own:
            answer = own.post(
                url, json=modern_call(1, "slow", {"seconds": seconds}), headers=modern_headers(name="slow")
            )
            results.append(answer.json()["result"]["content"][0]["text"])

    threads = [threading.Thread(target=call, args=(seconds,)) for seconds in (0.2, 0.25)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert sorted(results) == ["slept 0.2", "slept 0.25"]


# -- SSE ---------------------------------------------------------------------------------------------------


def test_notifications_switch_the_answer_to_sse(client: Any, url: str) -> None:
    call = modern_call(
        1, "progress", {"steps": 2}, progressToken="tok", **{"io.modelcontextprotocol/logLevel": "info"}
    )
    answer = client.post(url, json=call, headers=modern_headers(name="progress"))
    assert answer.status_code == 200
    assert answer.headers["content-type"] == "text/event-stream"
    assert answer.headers["x-accel-buffering"] == "no"
    messages = events(answer.text)
    assert [m.get("method") for m in messages] == [
        "notifications/progress",
        "notifications/progress",
        "notifications/message",
        "notifications/message",
        None,
    ]
    assert [m["params"]["progress"] for m in messages[:2]] == [1, 2]
    assert messages[-1]["id"] == 1 and messages[-1]["result"]["content"][0]["text"] == "2 steps"
    session = initialize(client, url)
    legacy = client.post(
        url,
        json=rpc(
            2,
            "tools/call",
            {"name": "async_progress", "arguments": {"steps": 2}, "_meta": {"progressToken": 5}},
        ),
        headers=session_headers(session),
    )
    assert legacy.headers["content-type"] == "text/event-stream"
    assert [m.get("method") for m in events(legacy.text)] == ["notifications/progress"] * 2 + [
        "notifications/message",
        None,
    ]


def test_a_slow_answer_gets_keepalive_comments(client: Any, url: str) -> None:
    answer = client.post(
        url, json=modern_call(1, "slow", {"seconds": 0.8}), headers=modern_headers(name="slow")
    )
    assert answer.headers["content-type"] == "text/event-stream"
    assert answer.text.startswith(": keepalive\n\n")
    [message] = events(answer.text)
    assert message["result"]["content"][0]["text"] == "slept 0.8"


def _leave_mid_stream(url: str, message: dict[str, Any], headers: dict[str, str]) -> None:
    """Open the request's SSE stream, read its first bytes, and hang up."""
    with httpx.Client(timeout=20) as own, own.stream("POST", url, json=message, headers=headers) as response:
        assert response.headers["content-type"] == "text/event-stream"
        next(response.iter_raw())


def _wait_for(condition: Any, timeout: float = 10) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        assert time.monotonic() < deadline
        time.sleep(0.02)


def test_a_modern_client_leaving_mid_stream_cancels_its_call(client: Any, url: str) -> None:
    before = cancelled_seen(client, url)
    _leave_mid_stream(url, modern_call(1, "hang", {"limit": 20}), modern_headers(name="hang"))
    _leave_mid_stream(url, modern_call(2, "async_hang", {"limit": 20}), modern_headers(name="async_hang"))
    _wait_for(
        lambda: (
            cancelled_seen(client, url)
            == {"hang": before["hang"] + 1, "async_hang": before["async_hang"] + 1}
        )
    )
    still = client.post(url, json=modern_call(3, "add", {"a": 1}), headers=modern_headers())
    assert still.json()["result"]["content"][0]["text"] == expected_text(3)


def test_a_legacy_call_outlives_its_stream_until_cancelled(client: Any, url: str) -> None:
    """2025-11-25: a disconnect is not a cancellation; notifications/cancelled on the session is."""
    session = initialize(client, url, "2025-11-25")
    before = cancelled_seen(client, url)
    call = rpc("h1", "tools/call", {"name": "hang", "arguments": {"limit": 20}})
    _leave_mid_stream(url, call, session_headers(session, "2025-11-25"))
    time.sleep(0.3)
    assert cancelled_seen(client, url) == before
    cancel = rpc(None, "notifications/cancelled", {"requestId": "h1", "reason": "test"})
    assert client.post(url, json=cancel, headers=session_headers(session, "2025-11-25")).status_code == 202
    _wait_for(lambda: cancelled_seen(client, url)["hang"] == before["hang"] + 1)


def test_a_cancelled_legacy_call_ends_its_stream_without_an_answer(client: Any, url: str) -> None:
    session = initialize(client, url, "2025-11-25")
    headers = session_headers(session, "2025-11-25")
    outcome: list[Any] = []

    def call() -> None:
        with httpx.Client(timeout=20) as own:
            outcome.append(own.post(url, json=rpc(9, "tools/call", {"name": "async_hang"}), headers=headers))

    started = cancelled_seen(client, url, "calls_started")["async_hang"]
    thread = threading.Thread(target=call)
    thread.start()
    _wait_for(lambda: cancelled_seen(client, url, "calls_started")["async_hang"] > started)
    time.sleep(0.4)  # a keep-alive (every 0.3 s) has gone out on the open stream
    client.post(url, json=rpc(None, "notifications/cancelled", {"requestId": 9}), headers=headers)
    thread.join(10)
    [response] = outcome
    assert response.status_code == 200 and events(response.text) == []


# -- HTTP rules and security ---------------------------------------------------------------------------------


def test_methods_media_types_and_paths(client: Any, base: str, url: str) -> None:
    for method in ("PUT", "PATCH"):
        refused = client.request(method, url, headers=HEADERS)
        error_of(refused, 405, -32600)
        assert refused.headers["allow"] == "GET, POST, DELETE"
    error_of(client.get(url, headers=HEADERS), 400, -32600)  # GET opens a session's stream: it needs one
    body = json.dumps(modern_call(1, "add", {"a": 1}))
    error_of(
        client.post(url, content=body, headers={**modern_headers(), "content-type": "text/plain"}),
        415,
        -32600,
    )
    error_of(
        client.post(url, content=body, headers={**modern_headers(), "accept": "application/json"}),
        406,
        -32600,
    )
    error_of(
        client.post(url, content=body, headers={**modern_headers(), "accept": "text/event-stream"}),
        406,
        -32600,
    )
    wildcard = client.post(
        url,
        content=body,
        headers={**modern_headers(), "accept": "*/*", "content-type": "application/json; charset=utf-8"},
    )
    assert wildcard.status_code == 200
    error_of(client.post(base + "/other", content=body, headers=modern_headers()), 404, -32600)


@pytest.mark.parametrize(
    ("body", "code"),
    [
        (b'{"jsonrpc": "2.0", "id": 1, "method": ', -32700),
        (b'{"x": NaN}', -32700),
        (b"\xff\xfe", -32700),
        (b"[]", -32600),
    ],
)
def test_malformed_bodies(client: Any, url: str, body: bytes, code: int) -> None:
    headers = HEADERS if code == -32700 else {**HEADERS, "mcp-protocol-version": MODERN}
    error_of(client.post(url, content=body, headers=headers), 400, code)


def test_oversize_bodies_get_413(client: Any, base: str) -> None:
    small = base + "/small/mcp"
    headers = modern_headers(name="echo")
    fits = client.post(small, json=modern_call(1, "echo", {"text": "x" * 1000}), headers=headers)
    assert fits.json()["result"]["content"][0]["text"] == "x" * 1000
    declared = client.post(small, json=modern_call(2, "echo", {"text": "x" * 3000}), headers=headers)
    assert "2000 bytes" in error_of(declared, 413, -32600)

    def chunks() -> Iterator[bytes]:  # no Content-Length: chunked transfer
        yield json.dumps(modern_call(3, "echo", {"text": "y" * 3000})).encode()

    error_of(client.post(small, content=chunks(), headers=headers), 413, -32600)
    after = client.post(small, json=modern_call(4, "echo", {"text": "ok"}), headers=headers)
    assert after.json()["result"]["content"][0]["text"] == "ok"


@pytest.mark.parametrize(
    ("origin", "allowed"),
    [
        ("http://localhost:6274", True),
        ("http://127.0.0.1:9", True),
        ("http://[::1]:8080", True),
        ("https://localhost", True),
        ("https://evil.example", False),
        ("http://localhost.evil.example", False),
        ("null", False),
    ],
)
def test_origin(client: Any, url: str, origin: str, allowed: bool) -> None:
    answer = client.post(
        url, json=modern_call(1, "add", {"a": 1}), headers={**modern_headers(), "origin": origin}
    )
    if allowed:
        assert answer.status_code == 200
    else:
        assert "origin" in error_of(answer, 403, -32600)


def test_bearer_tokens_and_configured_origins(client: Any, base: str) -> None:
    guarded = base + "/auth/mcp"
    call = modern_call(1, "whoami", {})
    headers = modern_headers(name="whoami")
    absent = client.post(guarded, json=call, headers=headers)
    error_of(absent, 401, -32600)
    assert absent.headers["www-authenticate"] == 'Bearer realm="mcp"'
    wrong = client.post(guarded, json=call, headers={**headers, "authorization": "Bearer mallory"})
    error_of(wrong, 401, -32600)
    assert 'error="invalid_token"' in wrong.headers["www-authenticate"]
    basic = client.post(guarded, json=call, headers={**headers, "authorization": "Basic YWxpY2U6eA=="})
    assert basic.status_code == 401
    alice = {**headers, "authorization": "Bearer alice-token"}
    assert client.post(guarded, json=call, headers=alice).json()["result"]["content"][0]["text"] == "hello"
    listed = client.post(guarded, json=call, headers={**alice, "origin": "https://app.example.com"})
    assert listed.status_code == 200
    error_of(
        client.post(guarded, json=call, headers={**alice, "origin": "https://other.example.com"}), 403, -32600
    )
    # a session answers only the token that started it
    session = initialize(client, guarded, authorization="Bearer alice-token")
    legacy = rpc(2, "tools/list")
    mine = client.post(
        guarded, json=legacy, headers={**session_headers(session), "authorization": "Bearer alice-token"}
    )
    assert mine.status_code == 200
    theirs = client.post(
        guarded, json=legacy, headers={**session_headers(session), "authorization": "Bearer bob-token"}
    )
    error_of(theirs, 404, -32600, 2)


def test_options_are_checked(url: str) -> None:
    server = mcplite.McpServer("x")
    with pytest.raises(ValueError, match="path must start with '/'"):
        server.asgi_app(path="mcp")
    with pytest.raises(ValueError, match="not an origin"):
        server.asgi_app(allowed_origins=["app.example.com"])
    with pytest.raises(TypeError, match="list of origins"):
        server.asgi_app(allowed_origins="https://app.example.com")
    with pytest.raises(TypeError, match="authenticate"):
        server.asgi_app(authenticate="secret")  # type: ignore[arg-type]
    with pytest.raises(ValueError, match="max_sessions"):
        server.asgi_app(max_sessions=0)
    with pytest.raises(ValueError, match="transport must be 'stdio' or 'http'"):
        server.run("sse")


def test_importing_mcplite_does_not_import_uvicorn() -> None:
    code = "import sys, mcplite; app = mcplite.McpServer('x').asgi_app(); print('uvicorn' in sys.modules)"
    done = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, timeout=60, env=dict(os.environ)
    )
    assert done.stdout.strip() == "False", done.stderr


# -- in process, under httpx's ASGI transport (no server) --------------------------------------------------


def _in_process(app: McpHttpApp, script: Any) -> Any:
    async def run() -> Any:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport, base_url="http://127.0.0.1") as http:
            return await script(http)

    return asyncio.run(run())


async def _initialize(http: Any, version: str = "2025-06-18") -> Any:
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "raw", "version": "1"}}
    return await http.post("/mcp", json=rpc(0, "initialize", params), headers=HEADERS)


def test_idle_sessions_expire_and_the_session_count_is_bounded() -> None:
    app = mcplite.McpServer("tiny").asgi_app(session_idle_timeout=0.2, max_sessions=2)

    async def script(http: Any) -> list[int]:
        first = (await _initialize(http)).headers["mcp-session-id"]
        await _initialize(http)
        await asyncio.sleep(0.3)
        expired = await http.post("/mcp", json=rpc(1, "tools/list"), headers=session_headers(first))
        fresh = await _initialize(http)
        return [expired.status_code, fresh.status_code, len(app.sessions)]

    assert _in_process(app, script) == [404, 200, 1]


def test_lifespan_shutdown_ends_the_sessions() -> None:
    app = mcplite.McpServer("tiny").asgi_app()
    assert _in_process(app, _initialize).status_code == 200 and len(app.sessions) == 1

    async def lifespan() -> list[str]:
        inbox = [{"type": "lifespan.startup"}, {"type": "lifespan.shutdown"}]
        sent: list[str] = []

        async def receive() -> Any:
            return inbox.pop(0)

        async def send(message: Any) -> None:
            sent.append(message["type"])

        await app({"type": "lifespan"}, receive, send)
        return sent

    assert asyncio.run(lifespan()) == ["lifespan.startup.complete", "lifespan.shutdown.complete"]
    assert len(app.sessions) == 0


def test_connection_respond_answers_one_message_at_a_time() -> None:
    """The per-request API the HTTP transport drives: an answer with its error code, or None."""
    from mcplite.engine.connection import Connection

    server = mcplite.McpServer("x")
    started = threading.Event()

    @server.tool
    async def wait(ctx: mcplite.Context) -> str:
        """Wait for 30 s."""
        ctx.report_progress(1)
        started.set()
        await asyncio.sleep(30)
        return "never"

    async def main() -> None:
        connection = Connection(server.engine, lambda line: pytest.fail(f"wrote {line!r}"))
        notes: list[bytes] = []
        listed = await connection.respond(rpc(1, "tools/list", {"_meta": META}), notes.append)
        assert listed is not None and listed.error_code is None and b'"tools"' in listed.data
        unknown = await connection.respond(rpc(2, "nope", {"_meta": META}), notes.append)
        assert unknown is not None and unknown.error_code == -32601
        assert await connection.respond(rpc(None, "notifications/initialized"), notes.append) is None
        call = asyncio.ensure_future(
            connection.respond(modern_call(3, "wait", {}, progressToken="t"), notes.append)
        )
        while not started.is_set():
            await asyncio.sleep(0.01)
        assert connection.calls_in_flight == 1
        call.cancel()
        with pytest.raises(asyncio.CancelledError):
            await call
        await asyncio.sleep(0.01)
        assert connection.calls_in_flight == 0
        assert [json.loads(note)["method"] for note in notes] == ["notifications/progress"]

    asyncio.run(main())


def test_asgi_app_takes_exactly_the_apps_options() -> None:
    """``McpServer.asgi_app`` and ``McpHttpApp`` take the options of ``HttpOptions``, defined once:
    same names, same defaults, and nothing else."""
    fields = {field.name: field.default for field in attrs.fields(HttpOptions)}
    assert set(fields) == {
        "path", "allowed_origins", "allowed_hosts", "authenticate", "session_idle_timeout",
        "max_sessions", "max_sessions_per_token", "sse_keepalive", "body_timeout", "event_store",
        "sse_retry",
    }  # fmt: skip
    settings = {"path": "/x", "max_sessions": 3, "sse_keepalive": 2.0}
    assert mcplite.McpServer("x").asgi_app(**settings).options == HttpOptions(**settings)
    assert McpHttpApp(mcplite.McpServer("x").engine, **settings).options == HttpOptions(**settings)
    with pytest.raises(TypeError, match="sessions"):
        mcplite.McpServer("x").asgi_app(sessions=3)
    built = mcplite.McpServer("x").asgi_app()
    assert built.options == HttpOptions()
    assert isinstance(built, McpHttpApp)
