"""``subscriptions/listen`` (2026-07-28): the official SDK's ``Client.listen`` over stdio and
Streamable HTTP, every message the server sends for it validated against the vendored schema,
and the requests a careless or hostile client can send."""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import queue
import signal
import socket
import subprocess
import sys
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.subscriptions import ResourcesListChanged, ResourceUpdated, ToolsListChanged

import mcplite
from mcplite.engine.connection import Connection
from mcplite.engine.listening import closing_line
from mcplite.protocol.versions import CLIENT_CAPABILITIES_KEY, PROTOCOL_VERSION_KEY
from mcplite.testing import Client as OwnClient
from mcplite.testing import RequestError
from tests.servers import listening
from tests.serving import free_port, served, uvicorn
from tests.test_mcplite_features_schema import check

SERVER = Path(listening.__file__)
ROOT = Path(__file__).parent.parent
TIMEOUT = 20.0
MODERN = "2026-07-28"
SUBSCRIPTION = "io.modelcontextprotocol/subscriptionId"

pytestmark = pytest.mark.anyio


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


def environment() -> dict[str, str]:
    """The server runs this worktree's mcplite, whatever the venv's editable install points at."""
    return {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with served(listening.server.asgi_app(), lifespan="on") as base:
        yield base + "/mcp"


@contextlib.asynccontextmanager
async def sdk_client(transport: str, url: str, errlog: Path) -> AsyncIterator[Client]:
    with errlog.open("w", encoding="utf-8") as log:
        params = StdioServerParameters(command=sys.executable, args=[str(SERVER)], env=environment())
        target: Any = url if transport == "http" else stdio_client(params, errlog=log)
        async with Client(target, mode=MODERN, read_timeout_seconds=TIMEOUT) as client:  # type: ignore[arg-type]
            yield client


async def told(client: Client, what: str, uri: str = "") -> int:
    result = await client.call_tool("change", {"what": what, "uri": uri})
    return int(result.content[0].text)  # type: ignore[union-attr]


async def open_listens(client: Client) -> int:
    """How many listen requests the server holds, once the client's cancellations have arrived."""
    for _ in range(100):
        result = await client.call_tool("listeners", {})
        count = int(result.content[0].text)  # type: ignore[union-attr]
        if count == 0:
            return 0
        await anyio.sleep(0.05)
    return count


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_the_sdk_client_hears_what_it_listens_for(transport: str, url: str, tmp_path: Path) -> None:
    async with sdk_client(transport, url, tmp_path / "stderr.log") as client:
        with anyio.fail_after(TIMEOUT):
            before = await open_listens(client)  # other tests of this module may still be leaving
            async with client.listen(
                resources_list_changed=True,
                tools_list_changed=True,
                resource_subscriptions=["notes://one", "notes://pages/3", "nowhere://x"],
            ) as sub:
                # what no resource serves is left out of what the server agreed to
                assert sub.honored.resources_list_changed and sub.honored.tools_list_changed
                assert not sub.honored.prompts_list_changed
                assert sub.honored.resource_subscriptions == ["notes://one", "notes://pages/3"]
                assert await told(client, "updated", "notes://two") == 0  # not subscribed
                assert await told(client, "prompts") == 0  # not asked for
                assert await told(client, "updated", "notes://one") == 1
                assert await told(client, "resources") == 1
                assert await told(client, "updated", "notes://pages/3") == 1
                assert await told(client, "tools") == 1
                events = []
                async for event in sub:
                    events.append(event)
                    if len(events) == 4:
                        break
            assert events == [
                ResourceUpdated(uri="notes://one"),
                ResourcesListChanged(),
                ResourceUpdated(uri="notes://pages/3"),
                ToolsListChanged(),
            ]
            assert before == 0 and await open_listens(client) == 0  # the server forgot it
            assert await told(client, "tools") == 0  # and keeps serving


async def test_prompts_and_two_listens_at_once(url: str, tmp_path: Path) -> None:
    async with sdk_client("stdio", url, tmp_path / "stderr.log") as client:
        with anyio.fail_after(TIMEOUT):
            async with (
                client.listen(prompts_list_changed=True) as prompts,
                client.listen(resource_subscriptions=["notes://two"]) as two,
            ):
                assert prompts.subscription_id != two.subscription_id
                assert await told(client, "prompts") == 1
                assert await told(client, "updated", "notes://two") == 1
                assert await prompts.__anext__() is not None
                assert await two.__anext__() == ResourceUpdated(uri="notes://two")
            assert await open_listens(client) == 0


async def test_a_server_stopping_ends_the_sdk_clients_loop_over_stdio(tmp_path: Path) -> None:
    """SIGTERM: the server answers the listen request (its graceful close) before it exits."""
    async with sdk_client("stdio", "", tmp_path / "stderr.log") as client:
        with anyio.fail_after(TIMEOUT):
            await client.list_tools()  # the client checks a result against the listing: not after the stop
            async with client.listen(tools_list_changed=True) as sub:
                await client.call_tool("stop", {})
                assert [event async for event in sub] == []  # the loop ends, no SubscriptionLost


@contextlib.contextmanager
def uvicorn_server(app: Any) -> Iterator[tuple[str, Callable[[], None]]]:
    port = free_port()
    config = uvicorn.Config(app, port=port, log_level="warning", lifespan="on", timeout_graceful_shutdown=1)
    server = uvicorn.Server(config)
    thread = threading.Thread(target=server.run, daemon=True)
    thread.start()
    while not server.started:
        assert thread.is_alive()
        time.sleep(0.01)

    def stop() -> None:
        server.should_exit = True

    try:
        yield f"http://127.0.0.1:{port}/mcp", stop
    finally:
        stop()
        thread.join(10)


async def test_a_server_stopping_ends_the_sdk_clients_loop_over_http() -> None:
    """The HTTP server ends the listen stream with its result once its shutdown grace is over."""
    with uvicorn_server(listening.server.asgi_app()) as (address, stop):
        async with Client(address, mode=MODERN, read_timeout_seconds=TIMEOUT) as client:
            with anyio.fail_after(TIMEOUT):
                async with client.listen(tools_list_changed=True) as sub:
                    stop()
                    assert [event async for event in sub] == []


async def test_a_signal_ends_listens_at_once_over_http(tmp_path: Path) -> None:
    """``server.run(transport="http")``: SIGTERM answers the listen requests at once, long before
    the requests in flight' shutdown grace (60 s) is over."""
    port = free_port()
    with (tmp_path / "stderr.log").open("w", encoding="utf-8") as log:
        process = subprocess.Popen(
            [sys.executable, str(SERVER), "http", str(port)], stderr=log, env=environment()
        )
    try:
        deadline = time.monotonic() + TIMEOUT
        while socket.socket().connect_ex(("127.0.0.1", port)) != 0:
            assert process.poll() is None and time.monotonic() < deadline, "the server did not start"
            time.sleep(0.05)
        address = f"http://127.0.0.1:{port}/mcp"
        async with Client(address, mode=MODERN, read_timeout_seconds=TIMEOUT) as client:
            with anyio.fail_after(TIMEOUT):
                async with client.listen(tools_list_changed=True) as sub:
                    started = time.monotonic()
                    process.send_signal(signal.SIGTERM)
                    assert [event async for event in sub] == []
                    assert time.monotonic() - started < 10
        assert process.wait(TIMEOUT) in (0, -signal.SIGTERM)  # uvicorn raises the signal again as it exits
    finally:
        if process.poll() is None:
            process.kill()
        process.wait(10)


# -- the wire, over stdio: schema, cancellation, shutdown ------------------------------------------


class Wire:
    """The listening server as a subprocess, spoken to one JSON line at a time."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, str(SERVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.DEVNULL,
            env=environment(),
        )
        self.lines: queue.Queue[dict[str, Any]] = queue.Queue()
        threading.Thread(target=self._read, daemon=True).start()

    def _read(self) -> None:
        assert self.process.stdout is not None
        for line in self.process.stdout:
            self.lines.put(json.loads(line))

    def send(self, message: dict[str, Any]) -> None:
        assert self.process.stdin is not None
        self.process.stdin.write(json.dumps(message).encode() + b"\n")
        self.process.stdin.flush()

    def request(self, request_id: Any, method: str, params: dict[str, Any] | None = None) -> None:
        meta = {PROTOCOL_VERSION_KEY: MODERN, CLIENT_CAPABILITIES_KEY: {}}
        message = {"jsonrpc": "2.0", "id": request_id, "method": method}
        self.send({**message, "params": {**(params or {}), "_meta": meta}})

    def listen(self, request_id: Any, **notifications: Any) -> None:
        self.request(request_id, "subscriptions/listen", {"notifications": notifications})

    def cancel(self, request_id: Any) -> None:
        params = {"requestId": request_id}
        self.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params})

    def next(self, timeout: float = TIMEOUT) -> dict[str, Any]:
        return self.lines.get(timeout=timeout)

    def answer(self, request_id: Any) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        """The answer to ``request_id``, and the messages that came before it."""
        before = []
        while (message := self.next()).get("id") != request_id or "method" in message:
            before.append(message)
        return message, before

    def call(self, request_id: Any, what: str, uri: str = "") -> tuple[Any, list[dict[str, Any]]]:
        self.request(request_id, "tools/call", {"name": "change", "arguments": {"what": what, "uri": uri}})
        answer, before = self.answer(request_id)
        return json.loads(answer["result"]["content"][0]["text"]), before

    def listeners(self, request_id: Any) -> int:
        self.request(request_id, "tools/call", {"name": "listeners", "arguments": {}})
        answer, _ = self.answer(request_id)
        return int(json.loads(answer["result"]["content"][0]["text"]))

    def close(self) -> None:
        if self.process.poll() is None:
            self.process.kill()
        self.process.wait(10)


@pytest.fixture
def wire() -> Iterator[Wire]:
    server = Wire()
    try:
        yield server
    finally:
        server.close()


def test_every_message_of_a_listen_fits_the_schema(wire: Wire) -> None:
    wire.listen("L", toolsListChanged=True, promptsListChanged=True, resourcesListChanged=True,
                resourceSubscriptions=["notes://one"])  # fmt: skip
    ack = wire.next()
    check(ack, "SubscriptionsAcknowledgedNotification", MODERN)
    assert ack["params"] == {
        "notifications": {
            "toolsListChanged": True,
            "promptsListChanged": True,
            "resourcesListChanged": True,
            "resourceSubscriptions": ["notes://one"],
        },
        "_meta": {SUBSCRIPTION: "L"},
    }
    definitions = {
        "updated": "ResourceUpdatedNotification",
        "resources": "ResourceListChangedNotification",
        "prompts": "PromptListChangedNotification",
        "tools": "ToolListChangedNotification",
    }
    for number, (what, definition) in enumerate(definitions.items()):
        count, before = wire.call(number, what, "notes://one")
        assert count == 1 and len(before) == 1
        check(before[0], definition, MODERN)
        assert before[0]["params"]["_meta"] == {SUBSCRIPTION: "L"}
    wire.process.send_signal(signal.SIGTERM)
    result, before = wire.answer("L")
    check(result, "JSONRPCResultResponse", MODERN)
    check(result["result"], "SubscriptionsListenResult", MODERN)
    assert result["result"]["_meta"][SUBSCRIPTION] == "L" and before == []
    assert wire.process.wait(TIMEOUT) == 0


def test_a_cancelled_listen_hears_nothing_more_and_is_forgotten(wire: Wire) -> None:
    for number in range(50):
        wire.listen(number, resourcesListChanged=True)
    acks = [wire.next() for _ in range(50)]
    assert sorted(ack["params"]["_meta"][SUBSCRIPTION] for ack in acks) == list(range(50))
    assert wire.listeners("n") == 50
    for number in range(50):
        wire.cancel(number)
    wire.cancel(7)  # twice: harmless
    wire.cancel("never")  # unknown: harmless
    assert wire.listeners("m") == 0
    count, before = wire.call("c", "resources")
    assert count == 0 and before == []  # nothing is sent for a cancelled listen, ever


def test_a_flood_of_listens_stops_at_the_limit_and_the_server_serves_on(wire: Wire) -> None:
    """A client that opens listens without end holds at most ``max_requests_in_flight`` (1024 by
    default) of them: the others are refused at once, naming the limit, and so is a tool call while
    the client is at it; once a few end, requests are served again."""
    limit = mcplite.McpServer("x").engine.max_requests_in_flight
    for number in range(limit + 6):
        wire.listen(number, toolsListChanged=True)
    wire.request("busy", "tools/call", {"name": "listeners", "arguments": {}})
    seen = [wire.next() for _ in range(limit + 7)]
    acks = [m for m in seen if m.get("method") == "notifications/subscriptions/acknowledged"]
    refused = {m["id"]: m["error"] for m in seen if "error" in m}
    assert len(acks) == limit and set(refused) == {*range(limit, limit + 6), "busy"}
    assert all(e["code"] == -32603 and "max_requests_in_flight" in e["message"] for e in refused.values())
    assert f"tools/call: this connection has {limit} requests in flight" in refused["busy"]["message"]
    for number in range(10):
        wire.cancel(number)
    assert wire.listeners("after") == limit - 10


@pytest.mark.parametrize(
    ("notifications", "named"),
    [
        ("all", "notifications (a SubscriptionFilter object)"),
        (None, "notifications (a SubscriptionFilter object)"),
        ({"toolsListChanged": "yes"}, "notifications.toolsListChanged"),
        ({"resourceSubscriptions": "notes://one"}, "notifications.resourceSubscriptions"),
        ({"resourceSubscriptions": ["notes://one", 7]}, "notifications.resourceSubscriptions"),
    ],
)
def test_a_malformed_filter_is_invalid_params_naming_the_member(notifications: Any, named: str) -> None:
    params = {} if notifications is None else {"notifications": notifications}
    with OwnClient(listening.server, MODERN) as client, pytest.raises(RequestError) as caught:
        client.request("subscriptions/listen", params)
    assert caught.value.code == -32602 and named in str(caught.value)
    assert listening.server.engine.offer.subscriptions.streams == 0


def test_a_uri_utf8_cannot_carry_is_invalid_params_not_an_unsendable_acknowledgement() -> None:
    """``notes://pages/\\udcff`` (a lone surrogate: valid JSON, no UTF-8 carries it) is a URI its
    template serves; echoed in the acknowledgement, it made that line unsendable."""
    meta = {PROTOCOL_VERSION_KEY: MODERN, CLIENT_CAPABILITIES_KEY: {}}
    notifications = {"resourceSubscriptions": ["notes://one", "notes://pages/\udcff"]}
    params = {"_meta": meta, "notifications": notifications}
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "method": "subscriptions/listen", "params": params})

    async def exchange() -> list[bytes]:
        out: list[bytes] = []
        Connection(listening.server.engine, out.append).receive(line.encode() + b"\n")
        await asyncio.sleep(0.05)
        return out

    (answer,) = [json.loads(sent) for sent in asyncio.run(exchange())]
    assert answer["id"] == 1 and answer["error"]["code"] == -32602
    assert "notifications.resourceSubscriptions[1]" in answer["error"]["message"]
    assert listening.server.engine.offer.subscriptions.streams == 0


def test_a_legacy_connection_has_no_listen() -> None:
    with OwnClient(listening.server, "2025-11-25") as client, pytest.raises(RequestError) as caught:
        client.request("subscriptions/listen", {"notifications": {}})
    assert caught.value.code == -32601


def test_capabilities_say_what_listen_honours() -> None:
    with OwnClient(listening.server, MODERN) as client:
        modern = client.server_capabilities
    with OwnClient(listening.server, "2025-11-25") as client:
        legacy = client.server_capabilities
    assert modern is not None and legacy is not None
    assert modern["resources"] == {"subscribe": True, "listChanged": True}
    assert modern["prompts"] == {"listChanged": True} and modern["tools"] == {"listChanged": True}
    # the legacy era is as it was: resources/subscribe, and no list changes of prompts or tools
    assert legacy["resources"] == {"subscribe": True, "listChanged": True}
    assert legacy["prompts"] == {} and legacy["tools"] == {"listChanged": False}


def test_over_http_the_answer_is_a_stream_and_leaving_it_ends_the_listen(url: str) -> None:
    """The POST is answered with ``text/event-stream``: the acknowledgement (schema-checked) and the
    notifications; the client closing the stream is forgotten by the hub."""
    httpx = pytest.importorskip("httpx")
    hub = listening.server.engine.offer.subscriptions
    meta = {PROTOCOL_VERSION_KEY: MODERN, CLIENT_CAPABILITIES_KEY: {}}
    body = {
        "jsonrpc": "2.0",
        "id": "h",
        "method": "subscriptions/listen",
        "params": {"notifications": {"resourceSubscriptions": ["notes://two"]}, "_meta": meta},
    }
    headers = {
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": MODERN,
        "mcp-method": "subscriptions/listen",
    }
    with (
        httpx.Client(timeout=TIMEOUT) as http,
        http.stream("POST", url, json=body, headers=headers) as answer,
    ):
        assert answer.status_code == 200 and answer.headers["content-type"] == "text/event-stream"
        events = (json.loads(line[6:]) for line in answer.iter_lines() if line.startswith("data: "))
        ack = next(events)
        check(ack, "SubscriptionsAcknowledgedNotification", MODERN)
        assert ack["params"]["_meta"] == {SUBSCRIPTION: "h"}
        assert hub.streams >= 1 and listening.server.notify_resource_updated("notes://two") >= 1
        updated = next(events)
        check(updated, "ResourceUpdatedNotification", MODERN)
        assert updated["params"] == {"uri": "notes://two", "_meta": {SUBSCRIPTION: "h"}}
    deadline = time.monotonic() + TIMEOUT
    while hub.streams:  # the server hears the client leave
        assert time.monotonic() < deadline, "the listen outlived its stream"
        time.sleep(0.05)


def test_the_answer_an_http_server_sends_as_it_cancels_a_listen_fits_the_schema() -> None:
    message = {"jsonrpc": "2.0", "id": 9, "method": "subscriptions/listen", "params": {}}
    line = closing_line(listening.server.engine, message, MODERN)
    assert line is not None
    answer = json.loads(line)
    check(answer["result"], "SubscriptionsListenResult", MODERN)
    assert answer["id"] == 9 and answer["result"]["_meta"][SUBSCRIPTION] == 9
    assert closing_line(listening.server.engine, {**message, "method": "tools/call"}, MODERN) is None
