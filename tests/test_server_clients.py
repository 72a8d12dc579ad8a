"""The everything server (tests/servers/everything.py) driven by real MCP clients over stdio.

Clients: the official SDK's ``Client`` (mcp 2.x) in ``mode="auto"``, ``"legacy"`` and ``"2026-07-28"``, and
with its handshake version patched down to 2025-06-18, 2025-03-26 and 2024-11-05; FastMCP's ``Client``
(fastmcp 4.x) in auto, legacy (2025-11-25 and 2024-11-05) and 2026-07-28 mode. Each client connects once
per module (a server start imports numpy and pandas) and every test runs against each of them.

What a client must see for its version comes from the specification's per-version tables (the
mcp-spec research notes, sections 1.8 and 7); the text a value arrives as is what ``mcplite`` itself
produces for the same value (``mcplite.as_tool_result(value)``), never typed by hand.
"""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import json
import os
import sys
import warnings
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcp_types import CallToolResult, Tool

import mcplite
from tests.sdk_handshake import offered_handshake
from tests.servers import everything

pytest.importorskip("fastmcp")
from fastmcp import Client as FastClient
from fastmcp.client.transports import StdioTransport
from fastmcp.exceptions import ToolError

SERVER = Path(everything.__file__)
VERSIONS = mcplite.PROTOCOL_VERSIONS
INVALID_PARAMS = -32602
CALL_TIMEOUT = 20.0

Progress = Callable[[float, float | None, str | None], Awaitable[None]]


def since(version: str, first: str) -> bool:
    return VERSIONS.index(version) >= VERSIONS.index(first)


@dataclasses.dataclass(frozen=True)
class Config:
    """One client set-up: which library, its connect mode, the handshake version it offers."""

    library: str  # "sdk" or "fastmcp"
    mode: str  # "auto", "legacy" or "2026-07-28"
    handshake: str | None  # the version a legacy handshake offers (None: the library's latest)
    expected: str  # the version the connection must end up with

    @property
    def id(self) -> str:
        return f"{self.library}-{self.mode}" + (f"-{self.handshake}" if self.handshake else "")


CONFIGS = [
    Config("sdk", "auto", None, "2026-07-28"),
    Config("sdk", "2026-07-28", None, "2026-07-28"),
    Config("sdk", "legacy", None, "2025-11-25"),
    Config("sdk", "legacy", "2025-06-18", "2025-06-18"),
    Config("sdk", "legacy", "2025-03-26", "2025-03-26"),
    Config("sdk", "legacy", "2024-11-05", "2024-11-05"),
    Config("fastmcp", "auto", None, "2026-07-28"),
    Config("fastmcp", "2026-07-28", None, "2026-07-28"),
    Config("fastmcp", "legacy", None, "2025-11-25"),
    Config("fastmcp", "legacy", "2024-11-05", "2024-11-05"),
]


@dataclasses.dataclass
class Conn:
    """A connected client of either library, behind one small interface."""

    config: Config
    client: Any
    stderr: Path
    logs: list[tuple[str, Any]] = dataclasses.field(default_factory=list)

    @property
    def version(self) -> str:
        return str(self.client.protocol_version)

    @property
    def sdk(self) -> bool:
        return self.config.library == "sdk"

    async def list_tools(self) -> list[Tool]:
        if self.sdk:
            tools: list[Tool] = []
            cursor: str | None = None
            while True:
                page = await self.client.list_tools(cursor=cursor)
                tools += page.tools
                cursor = page.next_cursor
                if cursor is None:
                    return tools
        return list(await self.client.list_tools())

    async def call(
        self, name: str, arguments: dict[str, Any] | None = None, progress: Progress | None = None
    ) -> CallToolResult:
        """The raw ``CallToolResult``; a JSON-RPC error raises ``MCPError``."""
        with anyio.fail_after(CALL_TIMEOUT):
            if self.sdk:
                return await self.client.call_tool(name, arguments or {}, progress_callback=progress)  # type: ignore[no-any-return]
            return await self.client.call_tool_mcp(name, arguments or {}, progress_handler=progress)  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module", params=CONFIGS, ids=lambda config: config.id)
async def conn(
    request: pytest.FixtureRequest, tmp_path_factory: pytest.TempPathFactory, anyio_backend: str
) -> AsyncIterator[Conn]:
    config: Config = request.param
    stderr = tmp_path_factory.mktemp("stderr") / f"{config.id}.log"
    async with contextlib.AsyncExitStack() as stack:
        logs: list[tuple[str, Any]] = []

        async def on_log(params: Any) -> None:
            logs.append((params.level, params.data))

        if config.library == "sdk":
            errlog = stack.enter_context(stderr.open("w", encoding="utf-8"))
            params = StdioServerParameters(command=sys.executable, args=[str(SERVER)], env=dict(os.environ))
            client: Any = Client(
                stdio_client(params, errlog=errlog),
                mode=config.mode,  # type: ignore[arg-type]
                logging_callback=on_log,
                log_level="debug",
                read_timeout_seconds=CALL_TIMEOUT,
            )
        else:
            transport = StdioTransport(
                command=sys.executable, args=[str(SERVER)], env=dict(os.environ), log_file=stderr
            )
            client = FastClient(
                transport,
                mode=config.mode,  # type: ignore[arg-type]
                log_handler=on_log,
                timeout=CALL_TIMEOUT,
                init_timeout=CALL_TIMEOUT,
            )
        with offered_handshake(config.handshake):  # each request times out (read_timeout_seconds)
            await stack.enter_async_context(client)
        yield Conn(config, client, stderr, logs)


pytestmark = pytest.mark.anyio


# -- handshake and listing ----------------------------------------------------------------------------


async def test_negotiated_version_and_server_info(conn: Conn) -> None:
    assert conn.version == conn.config.expected
    assert only_text(await conn.call("version")) == conn.version
    info = conn.client.server_info if conn.sdk else _fastmcp_server_info(conn)
    if info is not None:  # 2026-07-28 servers may stay anonymous; this one names itself
        assert (info.name, info.version) == ("everything", "1.2.3")
        assert info.title == ("Everything" if since(conn.version, "2025-06-18") else None)


def _fastmcp_server_info(conn: Conn) -> Any:
    result = conn.client.initialize_result
    if result is not None:
        return result.server_info
    return conn.client.session.server_info


async def test_tools_are_listed_in_order_with_their_descriptions(conn: Conn) -> None:
    tools = await conn.list_tools()
    assert [tool.name for tool in tools] == list(everything.server.tools)
    by_name = {tool.name: tool for tool in tools}
    assert by_name["add"].description == "Add two integers."
    for tool in tools:
        assert tool.input_schema["type"] == "object"
        jsonschema.Draft202012Validator.check_schema(tool.input_schema)
    kinds = by_name["kinds"].input_schema
    assert kinds["required"] == ["i", "x", "s", "flag"]
    assert "ctx" not in by_name["progress"].input_schema.get("properties", {})


async def test_listing_fields_follow_the_version(conn: Conn) -> None:
    """Spec table (research §1.8/§7): annotations from 2025-03-26; title, outputSchema and _meta from
    2025-06-18; icons from 2025-11-25; execution only with tasks (never here)."""
    version = conn.version
    tools = {tool.name: tool for tool in await conn.list_tools()}
    fancy = tools["fancy.tool-1"]
    sent = fancy.model_fields_set
    assert ("annotations" in sent) == since(version, "2025-03-26")
    assert ("title" in sent) == since(version, "2025-06-18")
    assert ("output_schema" in sent) == since(version, "2025-06-18")
    assert ("meta" in sent) == since(version, "2025-06-18")
    assert ("icons" in sent) == since(version, "2025-11-25")
    assert fancy.execution is None
    if since(version, "2025-03-26"):
        assert fancy.annotations is not None
        assert fancy.annotations.read_only_hint is True
        assert fancy.annotations.open_world_hint is False
        assert fancy.annotations.title == "Fancy (annotation)"
    if since(version, "2025-06-18"):
        assert fancy.title == "Fancy tool"
        assert fancy.output_schema == {
            "type": "object",
            "properties": {"ok": {"type": "boolean"}},
            "required": ["ok"],
        }
        assert fancy.meta == {"com.example/owner": "tests"}
        assert tools["stats"].output_schema == everything.STATS_SCHEMA
    if since(version, "2025-11-25"):
        assert fancy.icons is not None
        assert [(icon.src, icon.mime_type, icon.sizes) for icon in fancy.icons] == [
            (everything.ICON.src, "image/png", ["16x16"])
        ]
    for name in ("add", "kinds", "return_frame"):  # tools without those fields carry none of them
        assert tools[name].model_fields_set <= {"name", "description", "input_schema"}


# -- calls ----------------------------------------------------------------------------------------------


def expected_text(value: Any) -> str:
    block = mcplite.as_tool_result(value).content[0]
    assert isinstance(block, mcplite.TextContent)
    return block.text


def only_text(result: CallToolResult) -> str:
    assert len(result.content) == 1
    block = result.content[0]
    assert block.type == "text"
    return block.text


def strict_json(text: str) -> Any:
    def refuse(constant: str) -> Any:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


@pytest.mark.parametrize("name", list(everything.RETURNS))
async def test_returned_values_arrive_as_mcplite_writes_them(conn: Conn, name: str) -> None:
    result = await conn.call(name)
    assert not result.is_error
    text = only_text(result)
    assert text == expected_text(everything.RETURNS[name]())
    assert result.structured_content is None
    if name not in ("return_str", "return_character"):
        strict_json(text)  # JSON a strict parser accepts: no NaN or Infinity


async def test_plain_and_async_tools(conn: Conn) -> None:
    assert only_text(await conn.call("add", {"a": 40})) == expected_text(42)
    assert only_text(await conn.call("add", {"a": 1.0, "b": -3})) == expected_text(-2)
    assert only_text(await conn.call("async_add", {"a": 0.25, "b": 2})) == expected_text(2.25)
    frame = only_text(await conn.call("async_frame"))
    assert frame == expected_text(everything.data_frame())
    assert strict_json(frame) == [{"x": 1.5, "s": "a", "n": 1}, {}, {"s": "c", "n": 3}]


async def test_arguments_of_every_kind(conn: Conn) -> None:
    arguments = {
        "i": 3,
        "x": 2,
        "s": "ü",
        "flag": False,
        "maybe": None,
        "mode": "slow",
        "color": "blue",
        "items": [1, 2, 3],
        "weights": {"a": 0.5, "b": 2},
        "point": {"x": 1, "y": 2.5},
        "movie": {"title": "Heat", "year": 1995},
    }
    text = only_text(await conn.call("kinds", arguments))
    expected = everything.kinds(
        i=3,
        x=2.0,
        s="ü",
        flag=False,
        maybe=None,
        mode="slow",
        color=everything.Color.BLUE,
        items=[1, 2, 3],
        weights={"a": 0.5, "b": 2.0},
        point=everything.Point(1.0, 2.5),
        movie={"title": "Heat", "year": 1995},
    )
    assert text == expected_text(expected)
    assert strict_json(text)["types"] == {
        "i": "int",
        "x": "float",
        "color": "Color",
        "point": "Point",
        "movie": "dict",
    }
    defaults = strict_json(only_text(await conn.call("kinds", {"i": 1, "x": 1.5, "s": "", "flag": True})))
    assert (defaults["mode"], defaults["color"], defaults["types"]["point"]) == ("fast", "red", "NoneType")


async def test_structured_content_follows_the_version(conn: Conn) -> None:
    """structuredContent from 2025-06-18 (objects only until 2026-07-28, any JSON from then on)."""
    version = conn.version
    stats = await conn.call("stats", {"n": 4})
    value = everything.stats_value(4)
    assert only_text(stats) == mcplite.tool_result(structured_content=value).content[0].text  # type: ignore[union-attr]
    assert stats.structured_content == (value if since(version, "2025-06-18") else None)
    fancy = await conn.call("fancy.tool-1")
    assert fancy.structured_content == ({"ok": True} if since(version, "2025-06-18") else None)
    assert only_text(fancy) == '{"ok":true}'
    array = await conn.call("array_structured")
    assert only_text(array) == "[1,2]"
    assert array.structured_content == ([1, 2] if since(version, "2026-07-28") else None)
    if since(version, "2026-07-28"):
        assert array.result_type == "complete"
        assert array.meta is not None
        assert array.meta["io.modelcontextprotocol/serverInfo"]["name"] == "everything"
    else:
        assert "result_type" not in array.model_fields_set
        assert "meta" not in array.model_fields_set


async def test_content_blocks_follow_the_version(conn: Conn) -> None:
    """audio from 2025-03-26 and resource_link from 2025-06-18; before that they arrive as text."""
    version = conn.version
    result = await conn.call("blocks")
    types = [block.type for block in result.content]
    audio = "audio" if since(version, "2025-03-26") else "text"
    link = "resource_link" if since(version, "2025-06-18") else "text"
    assert types == ["text", "image", audio, link, "resource", "resource"]
    text, image, sound, linked, embedded, blob = result.content
    assert text.text == "some text"  # type: ignore[union-attr]
    assert text.annotations is not None and text.annotations.audience == ["user"]
    assert base64.b64decode(image.data) == everything.PNG  # type: ignore[union-attr]
    assert image.mime_type == "image/png"  # type: ignore[union-attr]
    if audio == "audio":
        assert base64.b64decode(sound.data) == everything.WAV  # type: ignore[union-attr]
    else:
        assert "audio/wav" in sound.text  # type: ignore[union-attr]
    if link == "resource_link":
        assert (linked.uri, linked.name, linked.mime_type) == (  # type: ignore[union-attr]
            "file:///tmp/report.csv",
            "report.csv",
            "text/csv",
        )
    else:
        assert "file:///tmp/report.csv" in linked.text and "The report" in linked.text  # type: ignore[union-attr]
    assert embedded.resource.text == "embedded text"  # type: ignore[union-attr]
    assert base64.b64decode(blob.resource.blob) == b"\x00\x01\x02"  # type: ignore[union-attr]
    # what the client parsed is, field for field, what mcplite projects for the version
    dumped = [block.model_dump(mode="json", by_alias=True, exclude_unset=True) for block in result.content]
    assert dumped == everything.blocks_value().to_wire(version)["content"]


async def test_tool_errors_are_results(conn: Conn) -> None:
    for name, message in (("fail", "it broke"), ("async_fail", "async broke"), ("fail", "ünïcode ☃")):
        result = await conn.call(name, {"message": message})
        assert result.is_error is True
        assert only_text(result) == message
    crashed = await conn.call("crash", {"message": "db password is hunter2"})
    assert crashed.is_error is True
    assert "crash" in only_text(crashed) and "hunter2" not in only_text(crashed)
    unsendable = await conn.call("unsendable")
    assert unsendable.is_error is True
    assert "cannot be sent" in only_text(unsendable)
    assert "Traceback" not in only_text(unsendable)


async def test_unknown_tool_is_invalid_params(conn: Conn) -> None:
    with pytest.raises(MCPError) as caught:
        await conn.call("no_such_tool", {})
    assert caught.value.error.code == INVALID_PARAMS
    assert "no_such_tool" in caught.value.error.message


@pytest.mark.parametrize(
    ("arguments", "words"),
    [({"a": "x"}, ["'a'", "integer"]), ({}, ["'a'", "missing"]), ({"a": 1, "c": 2}, ["'c'"])],
)
async def test_bad_arguments_follow_the_version(
    conn: Conn, arguments: dict[str, Any], words: list[str]
) -> None:
    """-32602 before 2025-11-25; a tool execution error (isError) from 2025-11-25 on (SEP-1303)."""
    if since(conn.version, "2025-11-25"):
        result = await conn.call("add", arguments)
        assert result.is_error is True
        message = only_text(result)
    else:
        with pytest.raises(MCPError) as caught:
            await conn.call("add", arguments)
        assert caught.value.error.code == INVALID_PARAMS
        message = caught.value.error.message
    assert all(word in message for word in words), message


async def test_progress_and_logs_reach_the_client(conn: Conn) -> None:
    received: list[tuple[float, float | None, str | None]] = []

    async def on_progress(progress: float, total: float | None, message: str | None) -> None:
        received.append((progress, total, message))

    conn.logs.clear()
    result = await conn.call("progress", {"steps": 3}, progress=on_progress)
    assert only_text(result) == "3 steps"
    with_message = since(conn.version, "2025-03-26")
    assert received == [(i, 3, f"step {i}" if with_message else None) for i in (1, 2, 3)]
    # legacy: every level (no logging/setLevel); 2026-07-28: the client opts in to debug per request
    assert ("info", {"done": 3}) in conn.logs
    assert ("warning", "careful") in conn.logs
    received.clear()
    assert only_text(await conn.call("async_progress", {"steps": 2}, progress=on_progress)) == "2 steps"
    assert [step[:2] for step in received] == [(1, 2), (2, 2)]


async def _counts(conn: Conn, tool: str) -> dict[str, int]:
    return strict_json(only_text(await conn.call(tool)))  # type: ignore[no-any-return]


async def _once_both_run(conn: Conn, started_before: dict[str, int]) -> None:
    """Return once both hanging calls run on the server (cancelled earlier, they would never start)."""
    with anyio.fail_after(10):
        while True:
            started = await _counts(conn, "calls_started")
            if all(started[name] > started_before[name] for name in started_before):
                return
            await anyio.sleep(0.02)


async def test_cancelling_a_call_stops_the_tool(conn: Conn) -> None:
    before = await _counts(conn, "cancelled_seen")
    started_before = await _counts(conn, "calls_started")
    answered: list[str] = []
    scopes: list[anyio.CancelScope] = []

    async def abandon(name: str) -> None:
        # leaving the scope cancelled makes the client send notifications/cancelled
        with anyio.CancelScope() as scope:
            scopes.append(scope)
            await conn.call(name)
            answered.append(name)

    async with anyio.create_task_group() as group:
        group.start_soon(abandon, "hang")
        group.start_soon(abandon, "async_hang")
        await _once_both_run(conn, started_before)
        for scope in scopes:
            scope.cancel()
    assert answered == []
    with anyio.fail_after(10):
        while True:
            seen = strict_json(only_text(await conn.call("cancelled_seen")))
            if seen["hang"] > before["hang"] and seen["async_hang"] > before["async_hang"]:
                break
            await anyio.sleep(0.02)
    assert only_text(await conn.call("add", {"a": 1})) == expected_text(3)


async def test_a_tool_writing_to_stdout_corrupts_nothing(conn: Conn) -> None:
    assert only_text(await conn.call("noisy")) == "quiet"
    assert only_text(await conn.call("add", {"a": 2})) == expected_text(4)
    with anyio.fail_after(5):
        while "print() from a tool" not in conn.stderr.read_text(encoding="utf-8"):
            await anyio.sleep(0.02)
    assert "os.write to fd 1" in conn.stderr.read_text(encoding="utf-8")


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


async def test_ping_in_legacy_sessions(conn: Conn) -> None:
    if since(conn.version, "2026-07-28"):
        pytest.skip("ping is removed in 2026-07-28")
    with warnings.catch_warnings(), anyio.fail_after(5):
        warnings.simplefilter("ignore")
        if conn.sdk:
            await conn.client.send_ping()
        else:
            assert await conn.client.ping() is True


async def test_fastmcp_hydrates_structured_results_and_raises_tool_errors(conn: Conn) -> None:
    if conn.sdk:
        pytest.skip("FastMCP's own result API")
    stats = await conn.client.call_tool("stats", {"n": 2})
    if since(conn.version, "2025-06-18"):
        assert (stats.data.n, stats.data.squares) == (2, [0, 1])
    else:
        assert stats.data is None
    with pytest.raises(ToolError, match="it broke"):
        await conn.client.call_tool("fail", {})
    plain = await conn.client.call_tool("return_dict", {})
    assert plain.data is None and plain.content[0].text == expected_text(everything.RETURNS["return_dict"]())


async def test_nan_never_reaches_the_client_as_a_bare_number(conn: Conn) -> None:
    for name in ("return_numpy", "return_nan", "return_pandas", "return_frame"):
        value = strict_json(only_text(await conn.call(name)))
        flat = json.dumps(value, allow_nan=False)  # raises on a float NaN/Infinity that got through
        assert "NaN" not in flat.replace('"NaN"', "")
