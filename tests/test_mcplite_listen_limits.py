"""Bounds on ``subscriptions/listen`` and ``resources/subscribe``: listens open in all and
per bearer token, the notifications waiting on one listen's HTTP stream, the URIs one listen names and
the URIs one legacy session subscribes to. Each refusal names the server option that bounds it.
"""

from __future__ import annotations

import contextlib
import gc
import json
import socket
import time
from collections.abc import Iterator
from typing import Any

import anyio
import pytest
from mcp import Client as SdkClient
from mcp.shared.exceptions import MCPError

import mcplite
from mcplite.protocol.versions import CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY
from mcplite.testing import Client, RequestError
from mcplite.transports.http.exchange import Inbox
from tests.serving import served
from tests.test_mcplite_features_schema import check

httpx = pytest.importorskip("httpx")

MODERN = "2026-07-28"
TIMEOUT = 20.0
TOKENS = {"ann", "bob", "cat"}


def limited_server(**limits: Any) -> mcplite.McpServer:
    server = mcplite.McpServer("limited", **limits)

    @server.resource("notes://pages/{n}", mime_type="text/plain")
    def page(n: str) -> str:
        return f"page {n}"

    return server


def listen_body(request_id: Any, uris: list[str] | None = None) -> dict[str, Any]:
    notifications: dict[str, Any] = {"resourcesListChanged": True}
    if uris is not None:
        notifications["resourceSubscriptions"] = uris
    meta = {PROTOCOL_VERSION_KEY: MODERN, CLIENT_CAPABILITIES_KEY: {}}
    params = {"notifications": notifications, "_meta": meta}
    return {"jsonrpc": "2.0", "id": request_id, "method": "subscriptions/listen", "params": params}


def listen_headers(token: str) -> dict[str, str]:
    return {
        "accept": "application/json, text/event-stream",
        "content-type": "application/json",
        "mcp-protocol-version": MODERN,
        "mcp-method": "subscriptions/listen",
        "authorization": f"Bearer {token}",
    }


@contextlib.contextmanager
def listening(url: str, token: str, request_id: Any) -> Iterator[dict[str, Any]]:
    """A listen held open for the block: yields its first message (the acknowledgement, or the
    error that refused it)."""
    with (
        httpx.Client(timeout=TIMEOUT) as http,
        http.stream("POST", url, json=listen_body(request_id), headers=listen_headers(token)) as answer,
    ):
        if answer.headers["content-type"] == "application/json":
            yield json.loads(answer.read())
            return
        lines = (line for line in answer.iter_lines() if line.startswith("data: "))
        yield json.loads(next(lines)[6:])


def wait_for(condition: Any, what: str) -> None:
    deadline = time.monotonic() + TIMEOUT
    while not condition():
        assert time.monotonic() < deadline, what
        time.sleep(0.02)


def test_listens_are_bounded_per_token_and_in_all_over_http() -> None:
    """``max_listens_per_token`` bounds one bearer token's listens, ``max_listens`` everyone's: past
    either a listen is refused (-32603, as the Python SDK refuses one past its 1,024) before any
    acknowledgement, naming the option; a listen that ends frees its place."""
    server = limited_server(max_listens=3, max_listens_per_token=2)
    hub = server.engine.offer.subscriptions
    app = server.asgi_app(authenticate=lambda token: token in TOKENS)
    with served(app) as base, contextlib.ExitStack() as open_listens:
        url = base + "/mcp"
        first = [open_listens.enter_context(listening(url, "ann", n)) for n in (1, 2)]
        assert [m["method"] for m in first] == ["notifications/subscriptions/acknowledged"] * 2
        with listening(url, "ann", 3) as refused:
            check(refused, "JSONRPCErrorResponse", MODERN)
            assert refused["id"] == 3 and refused["error"]["code"] == -32603
            assert "(max_listens_per_token)" in refused["error"]["message"]
        bob = open_listens.enter_context(listening(url, "bob", 4))
        assert bob["method"] == "notifications/subscriptions/acknowledged" and hub.streams == 3
        with listening(url, "cat", 5) as refused:
            assert refused["error"]["code"] == -32603 and "(max_listens)" in refused["error"]["message"]
        open_listens.close()  # the clients leave: their places are free again
        wait_for(lambda: hub.streams == 0, "the listens outlived their streams")
        with listening(url, "cat", 6) as again:
            assert again["method"] == "notifications/subscriptions/acknowledged"


def test_the_sdk_client_reads_a_refused_listen_as_the_error_naming_the_limit() -> None:
    """The official client's ``listen`` raises the refusal (it awaits the acknowledgement first),
    and listens again once the first is over."""
    server = limited_server(max_listens=1)

    async def two_listens(url: str) -> tuple[MCPError, bool]:
        async with SdkClient(url, mode=MODERN, read_timeout_seconds=TIMEOUT) as client:  # type: ignore[arg-type]
            with anyio.fail_after(TIMEOUT):
                async with client.listen(resources_list_changed=True) as first:
                    assert first.honored.resources_list_changed
                    with pytest.raises(MCPError) as refused:
                        async with client.listen(tools_list_changed=True):
                            pass
                await anyio.sleep(0)
                for _ in range(200):  # the server hears the first stream close
                    if not server.engine.offer.subscriptions.streams:
                        break
                    await anyio.sleep(0.02)
                async with client.listen(tools_list_changed=True) as again:
                    return refused.value, bool(again.honored.tools_list_changed)

    with served(server.asgi_app()) as base:
        refusal, listened_again = anyio.run(two_listens, base + "/mcp")
    assert refusal.error.code == -32603 and "(max_listens)" in refusal.error.message
    assert listened_again


def test_a_client_that_stops_reading_has_its_listen_ended_with_an_error_naming_the_limit() -> None:
    """A client reads its acknowledgement, then nothing: the notifications waiting for it stop at
    ``max_listen_backlog`` (they grew without bound), its listen is ended at once (its place freed,
    as the SDK ends a stream past its 1,024 events), and the stream's last event is an error naming
    the limit, which the client reads when it reads again."""
    backlog = 20
    server = limited_server(max_listen_backlog=backlog)
    hub = server.engine.offer.subscriptions
    uri = "notes://pages/" + "x" * 8_000  # big notifications fill the socket's buffers soon
    body = json.dumps(listen_body("slow", [uri])).encode()
    with served(server.asgi_app()) as base, socket.socket() as client:
        client.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, 4096)
        client.settimeout(TIMEOUT)
        client.connect((base.split("//")[1].split(":")[0], int(base.rsplit(":", 1)[1])))
        fields = {**listen_headers("-"), "host": "127.0.0.1", "content-length": str(len(body))}
        del fields["authorization"]
        head = "".join(f"{name}: {value}\r\n" for name, value in fields.items())
        client.sendall(f"POST /mcp HTTP/1.1\r\n{head}\r\n".encode() + body)
        received = client.recv(65536)
        while uri.encode() not in received:  # the acknowledgement names it: its updates are sent
            received += client.recv(65536)
        wait_for(lambda: hub.streams == 1, "the listen did not open")
        sent = 0
        for _ in range(5_000):  # the client reads nothing meanwhile
            sent += server.notify_resource_updated(uri)
            if not hub.streams:
                break
        wait_for(lambda: hub.streams == 0, "the listen of a client that stopped reading was not ended")
        waiting = [inbox._queue.qsize() for inbox in gc.get_objects() if isinstance(inbox, Inbox)]
        assert waiting and max(waiting) <= backlog + 1  # the notifications, then the closing error
        while not received.endswith(b"0\r\n\r\n"):  # the client reads again, to the end of the stream
            received += client.recv(1 << 20)
    events = [line[6:] for line in received.split(b"\n") if line.startswith(b"data: {")]
    last = json.loads(events[-1])
    check(last, "JSONRPCErrorResponse", MODERN)
    assert last["id"] == "slow" and last["error"]["code"] == -32603
    assert f"{backlog} notifications waited" in last["error"]["message"]
    assert "(max_listen_backlog)" in last["error"]["message"]
    assert len(events) < sent  # what waited past the limit was never sent


def test_a_listen_naming_more_uris_than_the_limit_is_invalid_params() -> None:
    server = limited_server(max_uris_per_listen=3)
    with Client(server, MODERN) as client:
        many = [f"notes://pages/{n}" for n in range(700_000)]
        with pytest.raises(RequestError) as caught:
            client.request("subscriptions/listen", {"notifications": {"resourceSubscriptions": many}})
        assert caught.value.code == -32602
        assert "at most 3 URIs" in caught.value.message and "(max_uris_per_listen)" in caught.value.message
        assert "not 700000" in caught.value.message
    assert server.engine.offer.subscriptions.streams == 0


def test_a_session_subscribes_to_at_most_its_limit_of_uris() -> None:
    """``resources/subscribe`` of distinct URIs stops at ``max_subscriptions_per_session`` (they grew
    without bound: 100,000 template URIs held 31 MB); the same URI again, or one more after an
    unsubscribe, is served."""
    server = limited_server(max_subscriptions_per_session=3)
    with Client(server, "2025-11-25") as client:
        for n in range(3):
            client.request("resources/subscribe", {"uri": f"notes://pages/{n}"})
        client.request("resources/subscribe", {"uri": "notes://pages/0"})
        with pytest.raises(RequestError) as caught:
            client.request("resources/subscribe", {"uri": "notes://pages/3"})
        assert caught.value.code == -32602
        assert "subscribed to 3 resources" in caught.value.message
        assert "(max_subscriptions_per_session)" in caught.value.message
        client.request("resources/unsubscribe", {"uri": "notes://pages/1"})
        client.request("resources/subscribe", {"uri": "notes://pages/3"})
        assert server.notify_resource_updated("notes://pages/3") == 1


@pytest.mark.parametrize(
    "option",
    ["max_listens", "max_listens_per_token", "max_listen_backlog", "max_uris_per_listen",
     "max_subscriptions_per_session"],
)  # fmt: skip
def test_each_limit_is_a_positive_integer(option: str) -> None:
    with pytest.raises(ValueError, match=f"McpServer: {option} must be a positive integer, not 0"):
        mcplite.McpServer("x", **{option: 0})  # type: ignore[arg-type]
