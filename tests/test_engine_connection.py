"""The message handling every transport shares (mcplite.engine.connection.Connection), driven in-process.

The expectations are the MCP specification's rules per version (schema/<version>/schema.ts and the
lifecycle, versioning and transport pages); the end-to-end tests with real clients are in
test_server_clients.py and test_server_stdio.py.
"""

from __future__ import annotations

import asyncio
import json
import threading
from collections.abc import Callable, Coroutine
from typing import Any

import pytest

import mcplite
from mcplite.engine.connection import Connection
from mcplite.protocol.versions import LEGACY_VERSIONS
from rvalues import NA_real_, r_list

MODERN = "2026-07-28"
ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientCapabilities": {},
}


def strict(line: bytes) -> Any:
    assert line.endswith(b"\n") and line.count(b"\n") == 1

    def refuse(name: str) -> None:
        raise AssertionError(f"{name} on the wire")

    return json.loads(line.decode("utf-8"), parse_constant=refuse)


class Driver:
    """Feeds raw messages to a Connection and collects what it writes."""

    def __init__(self, server: mcplite.McpServer) -> None:
        self.lines: list[bytes] = []
        self.lock = threading.Lock()
        self.connection = Connection(server.engine, self.write)

    def write(self, line: bytes) -> None:
        with self.lock:
            self.lines.append(line)

    def send(self, message: Any) -> None:
        raw = message if isinstance(message, bytes) else json.dumps(message).encode()
        self.connection.receive(raw)

    def messages(self) -> list[Any]:
        with self.lock:
            return [strict(line) for line in self.lines]

    def answer(self, request_id: Any) -> Any:
        found = [m for m in self.messages() if isinstance(m, dict) and m.get("id") == request_id]
        assert len(found) == 1, (request_id, self.messages())
        return found[0]

    async def settle(self, count: int | None = None, timeout: float = 5.0) -> None:
        """Wait until the connection has no call in flight, or (given ``count``) for that many lines."""
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while self.connection.calls_in_flight if count is None else len(self.lines) < count:
            assert loop.time() < deadline, "timed out"
            await asyncio.sleep(0.005)
        await asyncio.sleep(0)

    def initialize(self, version: str = "2025-06-18") -> Any:
        self.send(request(0, "initialize", protocolVersion=version, capabilities={}, clientInfo=CLIENT))
        self.send({"jsonrpc": "2.0", "method": "notifications/initialized"})
        return self.answer(0)["result"]


CLIENT = {"name": "test", "version": "0"}


def request(request_id: Any, method: str, **params: Any) -> dict[str, Any]:
    message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
    if params:
        message["params"] = params
    return message


def modern(request_id: Any, method: str, **params: Any) -> dict[str, Any]:
    meta = {**ENVELOPE, **params.pop("_meta", {})}
    return request(request_id, method, _meta=meta, **params)


def run(test: Callable[[], Coroutine[Any, Any, None]]) -> None:
    asyncio.run(test())


def make_server(**options: Any) -> mcplite.McpServer:
    server = mcplite.McpServer("dispatch", version="2.0.0", title="Dispatch tests", **options)
    release = threading.Event()

    @server.tool
    def add(a: int, b: int = 2) -> int:
        """Add two integers."""
        return a + b

    @server.tool
    def fail() -> None:
        raise mcplite.ToolError("the data has no column 'x'")

    @server.tool
    def unsendable() -> Any:
        return {1, 2}

    @server.tool
    async def wait_forever(ctx: mcplite.Context) -> str:
        await asyncio.Event().wait()
        return "never"

    @server.tool
    def spin(ctx: mcplite.Context) -> str:
        while not ctx.cancelled and not release.is_set():
            release.wait(0.005)
        return "stopped"

    @server.tool
    def progress(n: int, ctx: mcplite.Context) -> int:
        for i in range(n):
            ctx.report_progress(i + 1, total=n, message=f"step {i + 1}")
        return n

    @server.tool
    async def chatty(ctx: mcplite.Context) -> str:
        for level in ("debug", "info", "warning", "error"):
            ctx.log(level, f"a {level} message", logger="chatty")
        return "ok"

    @server.tool
    async def na_under(na: str, delay: float) -> mcplite.CallToolResult:
        with mcplite.options(json_na=na):
            await asyncio.sleep(delay)
            return mcplite.tool_result(structured_content=r_list(x=NA_real_))

    @server.tool(output_schema={"type": "object", "properties": {"n": {"type": "integer"}}})
    def counted(n: int) -> dict[str, int]:
        return {"n": n}

    server.release = release  # type: ignore[attr-defined]
    return server


# -- handshake ------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", LEGACY_VERSIONS)
def test_initialize_echoes_a_supported_version(version: str) -> None:
    async def main() -> None:
        driver = Driver(make_server(instructions="Use add."))
        result = driver.initialize(version)
        assert result["protocolVersion"] == version
        assert result["capabilities"]["tools"] == {"listChanged": False}
        assert result["instructions"] == "Use add."
        assert result["serverInfo"]["name"] == "dispatch" and result["serverInfo"]["version"] == "2.0.0"
        # Implementation.title exists from 2025-06-18 on
        assert ("title" in result["serverInfo"]) == (version >= "2025-06-18")

    run(main)


@pytest.mark.parametrize("requested", ["1.0.0", "2099-01-01", MODERN])
def test_initialize_answers_the_latest_legacy_version_to_any_other(requested: str) -> None:
    async def main() -> None:
        assert Driver(make_server()).initialize(requested)["protocolVersion"] == "2025-11-25"

    run(main)


def test_initialize_needs_a_protocol_version() -> None:
    async def main() -> None:
        driver = Driver(make_server())
        driver.send(request(1, "initialize", capabilities={}))
        assert driver.answer(1)["error"]["code"] == -32602

    run(main)


def test_requests_before_initialize_get_an_error_at_once_but_ping_works() -> None:
    async def main() -> None:
        driver = Driver(make_server())
        driver.send(request(1, "tools/list"))
        driver.send(request(2, "server/discover"))  # a legacy-style probe without _meta
        driver.send(request(3, "ping"))
        assert driver.answer(1)["error"]["code"] == -32602
        assert driver.answer(2)["error"]["code"] == -32601
        assert driver.answer(3)["result"] == {}

    run(main)


# -- 2026-07-28: stateless requests ---------------------------------------------------------------


def test_discover_and_modern_results_carry_result_type_and_server_info() -> None:
    async def main() -> None:
        driver = Driver(make_server(instructions="Use add.", cache_ttl_ms=1234))
        driver.send(modern(1, "server/discover"))
        driver.send(modern(2, "tools/list"))
        driver.send(modern(3, "tools/call", name="add", arguments={"a": 1}))
        await driver.settle()
        discover = driver.answer(1)["result"]
        assert discover["supportedVersions"][0] == MODERN
        assert set(LEGACY_VERSIONS) <= set(discover["supportedVersions"])
        assert discover["ttlMs"] == 1234 and discover["cacheScope"] == "public"
        assert discover["instructions"] == "Use add."
        for request_id in (1, 2, 3):
            result = driver.answer(request_id)["result"]
            assert result["resultType"] == "complete"
            info = result["_meta"]["io.modelcontextprotocol/serverInfo"]
            assert info == {"name": "dispatch", "version": "2.0.0", "title": "Dispatch tests"}
        listing = driver.answer(2)["result"]
        assert listing["ttlMs"] == 1234 and listing["cacheScope"] == "public"
        assert driver.answer(3)["result"]["content"] == [{"type": "text", "text": "3"}]

    run(main)


def test_unsupported_modern_version_names_the_supported_ones() -> None:
    async def main() -> None:
        driver = Driver(make_server())
        driver.send(modern(1, "tools/list", _meta={"io.modelcontextprotocol/protocolVersion": "1900-01-01"}))
        error = driver.answer(1)["error"]
        assert error["code"] == -32022
        assert error["data"]["requested"] == "1900-01-01"
        assert error["data"]["supported"][0] == MODERN

    run(main)


@pytest.mark.parametrize(
    ("meta", "code"),
    [
        ({"io.modelcontextprotocol/clientCapabilities": None}, -32602),
        ({"io.modelcontextprotocol/protocolVersion": 20260728}, -32602),
        ({"io.modelcontextprotocol/logLevel": "loud"}, -32602),
    ],
)
def test_malformed_modern_envelopes_are_invalid_params(meta: dict[str, Any], code: int) -> None:
    async def main() -> None:
        driver = Driver(make_server())
        driver.send(modern(1, "tools/list", _meta=meta))
        assert driver.answer(1)["error"]["code"] == code

    run(main)


def test_methods_2026_removed_are_not_found_there() -> None:
    async def main() -> None:
        driver = Driver(make_server())
        driver.send(modern(1, "ping"))
        driver.send(modern(2, "logging/setLevel", level="info"))
        assert driver.answer(1)["error"]["code"] == -32601
        assert driver.answer(2)["error"]["code"] == -32601

    run(main)


def test_legacy_and_modern_requests_are_served_side_by_side() -> None:
    async def main() -> None:
        driver = Driver(make_server())
        driver.initialize("2024-11-05")
        driver.send(request(1, "tools/call", name="counted", arguments={"n": 2}))
        driver.send(modern(2, "tools/call", name="counted", arguments={"n": 2}))
        await driver.settle()
        legacy, stateless = driver.answer(1)["result"], driver.answer(2)["result"]
        assert "structuredContent" not in legacy and "resultType" not in legacy
        assert stateless["structuredContent"] == {"n": 2}
        assert legacy["content"] == stateless["content"] == [{"type": "text", "text": '{"n":2}'}]

    run(main)


# -- tools/list -----------------------------------------------------------------------------------


def test_tools_list_pages_through_every_tool_once() -> None:
    async def main() -> None:
        server = make_server(page_size=3)
        driver = Driver(server)
        driver.initialize()
        names: list[str] = []
        cursor: str | None = None
        for page in range(10):
            driver.send(request(page + 1, "tools/list", **({} if cursor is None else {"cursor": cursor})))
            result = driver.answer(page + 1)["result"]
            assert len(result["tools"]) <= 3
            names += [tool["name"] for tool in result["tools"]]
            cursor = result.get("nextCursor")
            if cursor is None:
                break
        assert names == list(server.tools)
        driver.send(request(99, "tools/list", cursor="not a cursor"))
        assert driver.answer(99)["error"]["code"] == -32602

    run(main)


def test_tool_listing_is_projected_per_version() -> None:
    async def main() -> None:
        server = mcplite.McpServer("p")

        @server.tool(
            title="Sum",
            annotations={"readOnlyHint": True},
            icons=[{"src": "data:image/png;base64,AA==", "mimeType": "image/png"}],
            meta={"team": "data"},
            output_schema={"type": "object"},
        )
        def total(x: list[float]) -> float:
            """Sum numbers."""
            return sum(x)

        seen = {}
        for version in LEGACY_VERSIONS:
            driver = Driver(server)
            driver.initialize(version)
            driver.send(request(1, "tools/list"))
            seen[version] = driver.answer(1)["result"]["tools"][0]
        assert set(seen["2024-11-05"]) == {"name", "description", "inputSchema"}
        assert set(seen["2025-03-26"]) == {"name", "description", "inputSchema", "annotations"}
        assert set(seen["2025-06-18"]) == {
            "name", "description", "inputSchema", "annotations", "title", "outputSchema", "_meta"
        }  # fmt: skip
        assert set(seen["2025-11-25"]) == set(seen["2025-06-18"]) | {"icons"}

    run(main)


# -- tools/call -----------------------------------------------------------------------------------


@pytest.mark.parametrize("version", [*LEGACY_VERSIONS, MODERN])
def test_bad_arguments_by_version(version: str) -> None:
    async def main() -> None:
        driver = Driver(make_server())
        if version == MODERN:
            driver.send(modern(1, "tools/call", name="add", arguments={"a": "one"}))
        else:
            driver.initialize(version)
            driver.send(request(1, "tools/call", name="add", arguments={"a": "one"}))
        await driver.settle()
        answer = driver.answer(1)
        if version >= "2025-11-25":  # SEP-1303: input validation errors are tool execution errors
            assert answer["result"]["isError"] is True
            text = answer["result"]["content"][0]["text"]
        else:
            assert answer["error"]["code"] == -32602
            text = answer["error"]["message"]
        assert "'a'" in text and "integer" in text and "'one'" in text

    run(main)


def test_call_errors_and_failures() -> None:
    async def main() -> None:
        driver = Driver(make_server())
        driver.initialize("2025-11-25")
        driver.send(request(1, "tools/call", name="nope"))
        driver.send(request(2, "tools/call", arguments={}))
        driver.send(request(3, "tools/call", name="add", arguments=[1, 2]))
        driver.send(request(4, "tools/call", name="fail"))
        driver.send(request(5, "tools/call", name="unsendable"))
        await driver.settle()
        assert driver.answer(1)["error"] == {"code": -32602, "message": "Unknown tool: nope"}
        assert driver.answer(2)["error"]["code"] == -32602
        assert driver.answer(3)["error"]["code"] == -32602
        failed = driver.answer(4)["result"]
        assert failed == {
            "content": [{"type": "text", "text": "the data has no column 'x'"}],
            "isError": True,
        }
        unsendable = driver.answer(5)["result"]
        assert unsendable["isError"] is True and "set" in unsendable["content"][0]["text"]

    run(main)


def test_cancelled_calls_are_never_answered_and_others_are() -> None:
    async def main() -> None:
        server = make_server()
        driver = Driver(server)
        driver.initialize()
        driver.send(request(1, "tools/call", name="wait_forever"))
        driver.send(request(2, "tools/call", name="spin"))
        driver.send(request(3, "tools/call", name="add", arguments={"a": 5}))
        await driver.settle(count=2)  # initialize and call 3
        assert driver.connection.calls_in_flight == 2
        for request_id in (1, 2):
            driver.send(
                {"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": request_id}}
            )
        await driver.settle()
        await asyncio.sleep(0.05)  # the sync tool notices ctx.cancelled and returns; nothing is sent
        ids = [m.get("id") for m in driver.messages()]
        assert 1 not in ids and 2 not in ids
        assert driver.answer(3)["result"]["content"][0]["text"] == "7"

    run(main)


def test_a_request_id_in_use_is_refused() -> None:
    async def main() -> None:
        server = make_server()
        driver = Driver(server)
        driver.initialize()
        driver.send(request(1, "tools/call", name="spin"))
        driver.send(request(1, "tools/call", name="add", arguments={"a": 1}))
        await asyncio.sleep(0.01)
        assert driver.answer(1)["error"]["code"] == -32600
        server.release.set()  # type: ignore[attr-defined]
        await driver.settle()

    run(main)


@pytest.mark.parametrize("version", ["2024-11-05", "2025-03-26", MODERN])
def test_progress_is_sent_only_with_a_token(version: str) -> None:
    async def main() -> None:
        driver = Driver(make_server())
        call: Callable[..., dict[str, Any]] = modern if version == MODERN else request
        if version != MODERN:
            driver.initialize(version)
        driver.send(call(1, "tools/call", name="progress", arguments={"n": 2}))
        driver.send(call(2, "tools/call", name="progress", arguments={"n": 3}, _meta={"progressToken": "t"}))
        await driver.settle()
        notes = [m["params"] for m in driver.messages() if m.get("method") == "notifications/progress"]
        assert [n["progress"] for n in notes] == [1, 2, 3]
        assert all(n["progressToken"] == "t" and n["total"] == 3 for n in notes)
        # ProgressNotification.message exists from 2025-03-26 on
        assert all(("message" in n) == (version != "2024-11-05") for n in notes)
        messages = driver.messages()
        assert messages.index(driver.answer(2)) > max(messages.index(m) for m in messages if "method" in m)

    run(main)


def test_logging_follows_set_level_in_legacy_and_meta_in_2026() -> None:
    async def main() -> None:
        def levels(driver: Driver) -> list[str]:
            return [
                m["params"]["level"] for m in driver.messages() if m.get("method") == "notifications/message"
            ]

        legacy = Driver(make_server())
        legacy.initialize()
        legacy.send(request(1, "tools/call", name="chatty"))
        await legacy.settle()
        assert levels(legacy) == ["debug", "info", "warning", "error"]
        legacy.send(request(2, "logging/setLevel", level="warning"))
        legacy.send(request(3, "tools/call", name="chatty"))
        await legacy.settle()
        assert legacy.answer(2)["result"] == {}
        assert levels(legacy)[4:] == ["warning", "error"]

        stateless = Driver(make_server())
        stateless.send(modern(1, "tools/call", name="chatty"))
        stateless.send(
            modern(2, "tools/call", name="chatty", _meta={"io.modelcontextprotocol/logLevel": "info"})
        )
        await stateless.settle()
        assert levels(stateless) == ["info", "warning", "error"]  # none for the request without a level

    run(main)


def test_concurrent_calls_each_get_their_own_options() -> None:
    async def main() -> None:
        driver = Driver(make_server())
        driver.initialize("2025-06-18")
        driver.send(request(1, "tools/call", name="na_under", arguments={"na": "null", "delay": 0.05}))
        driver.send(request(2, "tools/call", name="na_under", arguments={"na": "string", "delay": 0.01}))
        await driver.settle()
        assert driver.answer(1)["result"]["structuredContent"] == {"x": None}
        assert driver.answer(2)["result"]["structuredContent"] == {"x": "NA"}

    run(main)


# -- JSON-RPC framing -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    "raw",
    [b"{not json", b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}', b"\xff\xfe{}"],
)
def test_parse_errors_are_answered_with_a_null_id(raw: bytes) -> None:
    async def main() -> None:
        driver = Driver(make_server())
        driver.send(raw)
        driver.send(request(1, "ping"))
        first, second = driver.messages()
        assert first == {"jsonrpc": "2.0", "id": None, "error": first["error"]}
        assert first["error"]["code"] == -32700
        assert second["result"] == {}

    run(main)


@pytest.mark.parametrize(
    ("message", "answer_id"),
    [
        ([1], None),  # a batch outside 2025-03-26
        ("ping", None),
        ({"jsonrpc": "2.0", "id": None, "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": True, "method": "ping"}, None),
        ({"jsonrpc": "2.0", "id": 1.5, "method": "ping"}, None),
        ({"jsonrpc": "1.0", "id": 7, "method": "ping"}, 7),
        ({"jsonrpc": "2.0", "id": 7, "method": 3}, 7),
        ({"jsonrpc": "2.0", "id": 7}, 7),
    ],
)
def test_invalid_requests(message: Any, answer_id: Any) -> None:
    async def main() -> None:
        driver = Driver(make_server())
        driver.send(message)
        (answer,) = driver.messages()
        assert answer["id"] == answer_id and answer["error"]["code"] == -32600

    run(main)


def test_params_must_be_an_object() -> None:
    async def main() -> None:
        driver = Driver(make_server())
        driver.send({"jsonrpc": "2.0", "id": 1, "method": "ping", "params": [1]})
        assert driver.answer(1)["error"]["code"] == -32602

    run(main)


def test_notifications_and_client_responses_are_never_answered() -> None:
    async def main() -> None:
        driver = Driver(make_server())
        driver.send({"jsonrpc": "2.0", "method": "notifications/unknown"})
        driver.send({"jsonrpc": "2.0", "method": "tools/list"})
        driver.send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": 99}})
        driver.send({"jsonrpc": "2.0", "id": 5, "result": {}})
        assert driver.messages() == []

    run(main)


def test_batches_in_2025_03_26() -> None:
    async def main() -> None:
        driver = Driver(make_server())
        driver.initialize("2025-03-26")
        driver.send(
            [
                request(1, "tools/call", name="add", arguments={"a": 1}),
                {"jsonrpc": "2.0", "method": "notifications/progress", "params": {}},
                request(2, "ping"),
                request(3, "nope"),
            ]
        )
        await driver.settle(count=2)
        batch = driver.messages()[-1]
        assert isinstance(batch, list)
        assert [m["id"] for m in batch] == [1, 2, 3]
        assert batch[0]["result"]["content"][0]["text"] == "3"
        assert batch[2]["error"]["code"] == -32601
        driver.send([])
        assert driver.messages()[-1]["error"]["code"] == -32600

    run(main)


def test_text_that_is_not_unicode_never_reaches_the_wire() -> None:
    async def main() -> None:
        server = mcplite.McpServer("s")

        @server.tool
        def lone() -> str:
            return "\ud800"

        driver = Driver(server)
        driver.initialize()
        driver.send(request(1, "tools/call", name="lone"))
        await driver.settle()
        refused = driver.answer(1)["result"]  # refused at conversion: a tool execution error
        assert refused["isError"] is True
        assert (
            "lone surrogate" in refused["content"][0]["text"]
            and "position 0" in refused["content"][0]["text"]
        )

    run(main)
