"""mcplite.sdk: tools on the official SDK's MCPServer and on FastMCP answer as mcplite's own server does.

The expectation for every call is what mcplite's own server (mcplite.engine.connection.Connection, driven
in-process) answers for the same tool, under the same payload options, at the same protocol
version; the SDK side is read through the SDK's in-memory ``Client`` and FastMCP's in-memory
``Client``, in legacy mode (the handshake offering each legacy version) and in 2026-07-28 mode.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import inspect
import json
import math
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import Any

import pytest

import mcplite
import rvalues as rv
from mcplite.engine.connection import Connection
from mcplite.protocol.versions import LEGACY_VERSIONS, PROTOCOL_VERSIONS, SERVER_INFO_KEY

pytest.importorskip("mcp")
from mcp import Client
from mcp.server.mcpserver import Context, MCPServer
from mcp.types import CallToolResult as SdkCallToolResult

from mcplite import sdk
from mcplite.sdk import mcplite_tool, to_sdk_result
from tests.sdk_handshake import offered_handshake

fastmcp: Any
try:
    import fastmcp
except ImportError:  # FastMCP needs Python 3.11
    fastmcp = None

needs_fastmcp = pytest.mark.skipif(fastmcp is None, reason="needs fastmcp")
MODERN = "2026-07-28"
OPTION_SETS: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "mcplite-r.json").read_text(encoding="utf-8")
)["option_sets"]
UNSET = dict.fromkeys(("json_null", "json_na", "json_auto_unbox"))


def _frame() -> Any:
    return rv.data_frame(
        id=rv.Integer([1, 2, 3]),
        score=rv.c(1.5, rv.NA_real_, math.nan),
        name=rv.c("a", rv.NA_character_, "c"),
    )


VALUES: dict[str, Callable[[], Any]] = {
    "frame": _frame,
    "named_list": lambda: rv.r_list(
        n=1, tags=rv.c("x", "y"), empty=rv.NULL, missing=rv.NA, nums=rv.c(1.5, math.nan)
    ),
    "character": lambda: rv.c("a", rv.NA_character_),
    "text": lambda: "plain text",
    "none": lambda: None,
    "structured": lambda: mcplite.tool_result(
        structured_content=rv.r_list(
            count=1, values=rv.c(rv.NA_real_, math.nan), rows=_frame(), nothing=rv.NULL
        )
    ),
    "structured_vector": lambda: mcplite.tool_result(structured_content=rv.c("a", rv.NA_character_)),
    "blocks": lambda: mcplite.tool_result(
        [
            mcplite.content_text(
                "see the attachments", annotations={"priority": 0.5, "lastModified": "2025-01-02"}
            ),
            mcplite.content_resource_link("file:///r.csv", "r.csv", description="The report"),
            mcplite.content_audio(b"RIFF", "audio/wav"),
        ],
        structured_content=rv.r_list(ok=True, when=rv.as_date("2024-01-02")),
        meta={"trace": "abc"},
    ),
    "error": lambda: mcplite.tool_result(mcplite.content_text("the data has no column 'x'"), is_error=True),
}


def _tool_function(name: str) -> Callable[[], Any]:
    def tool() -> Any:
        return VALUES[name]()

    tool.__name__ = name
    return tool


def _reset_options() -> None:
    mcplite.options(**UNSET)


@pytest.fixture(autouse=True)
def clean_options() -> Iterator[None]:
    _reset_options()
    yield
    _reset_options()


# -- the three servers ------------------------------------------------------------------------------


def own_server(functions: list[Callable[..., Any]]) -> mcplite.McpServer:
    server = mcplite.McpServer("own", version="1.0.0")
    for function in functions:
        server.add_tool(function)
    return server


def sdk_server(functions: list[Callable[..., Any]]) -> MCPServer:
    server = MCPServer("sdk")
    for function in functions:
        server.tool()(mcplite_tool(function))
    return server


def fastmcp_server(functions: list[Callable[..., Any]]) -> Any:
    assert fastmcp is not None
    server = fastmcp.FastMCP("fast")
    for function in functions:
        server.tool()(mcplite_tool(function))
    return server


class OwnClient:
    """mcplite's own server driven in-process at one protocol version (what it writes, parsed)."""

    def __init__(self, server: mcplite.McpServer, version: str) -> None:
        self.version = version
        self.answers: dict[int, Any] = {}
        self.connection = Connection(server.engine, self._write)
        self.next_id = 0

    def _write(self, line: bytes) -> None:
        message = json.loads(line)
        if "id" in message:
            self.answers[message["id"]] = message

    async def request(self, method: str, params: dict[str, Any]) -> Any:
        self.next_id += 1
        request_id = self.next_id
        if self.version == MODERN:
            meta = {
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientCapabilities": {},
            }
            params = {**params, "_meta": meta}
        message = {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}
        self.connection.receive(json.dumps(message).encode())
        for _ in range(2000):
            if request_id in self.answers:
                return self.answers.pop(request_id)["result"]
            await asyncio.sleep(0.001)
        raise AssertionError(f"no answer to {method}")

    async def initialize(self) -> None:
        if self.version != MODERN:
            client = {"name": "test", "version": "0"}
            await self.request(
                "initialize", {"protocolVersion": self.version, "capabilities": {}, "clientInfo": client}
            )
            self.connection.receive(b'{"jsonrpc":"2.0","method":"notifications/initialized"}')

    async def call(self, name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
        return shown(await self.request("tools/call", {"name": name, "arguments": arguments or {}}))


def shown(wire: dict[str, Any]) -> dict[str, Any]:
    """What a client reads from a tools/call result: content, structured content, isError, own _meta."""
    meta = {key: value for key, value in (wire.get("_meta") or {}).items() if key != SERVER_INFO_KEY}
    out = {"content": wire["content"], "isError": wire.get("isError", False)}
    if "structuredContent" in wire:
        out["structuredContent"] = wire["structuredContent"]
    if meta:
        out["_meta"] = meta
    return out


def sdk_shown(result: SdkCallToolResult) -> dict[str, Any]:
    return shown(result.model_dump(by_alias=True, exclude_none=True, mode="json"))


@contextlib.contextmanager
def client_mode(version: str) -> Iterator[str]:
    """The client mode for ``version``; for a legacy one, the SDK's handshake offers exactly it."""
    if version == MODERN:
        yield MODERN
        return
    with offered_handshake(version):
        yield "legacy"


@contextlib.asynccontextmanager
async def sdk_client(server: MCPServer, version: str) -> AsyncIterator[Callable[..., Any]]:
    with client_mode(version) as mode:
        async with Client(server, mode=mode) as client:  # type: ignore[arg-type]
            assert client.protocol_version == version

            async def call(name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
                return sdk_shown(await client.call_tool(name, arguments or {}))

            yield call


@contextlib.asynccontextmanager
async def fastmcp_client(server: Any, version: str) -> AsyncIterator[Callable[..., Any]]:
    assert fastmcp is not None
    with client_mode(version) as mode:
        async with fastmcp.Client(server, mode=mode) as client:
            assert client.protocol_version == version

            async def call(name: str, arguments: dict[str, Any] | None = None) -> dict[str, Any]:
                return sdk_shown(await client.call_tool_mcp(name, arguments or {}))

            yield call


@contextlib.asynccontextmanager
async def own_client(server: mcplite.McpServer, version: str) -> AsyncIterator[Callable[..., Any]]:
    client = OwnClient(server, version)
    await client.initialize()
    yield client.call


def _clients(library: str) -> Callable[..., Any]:
    return {"sdk": sdk_client, "fastmcp": fastmcp_client}[library]


def _servers(library: str) -> Callable[[list[Callable[..., Any]]], Any]:
    return {"sdk": sdk_server, "fastmcp": fastmcp_server}[library]


LIBRARIES = ["sdk", pytest.param("fastmcp", marks=needs_fastmcp)]


# -- every value, option set and version ------------------------------------------------------------


@pytest.mark.parametrize("library", LIBRARIES)
@pytest.mark.parametrize("version", PROTOCOL_VERSIONS)
def test_tools_answer_as_mcplites_own_server(library: str, version: str) -> None:
    functions = [_tool_function(name) for name in VALUES]
    own, theirs = own_server(functions), _servers(library)(functions)
    seen: dict[str, set[str]] = {name: set() for name in VALUES}

    async def main() -> None:
        async with own_client(own, version) as expected, _clients(library)(theirs, version) as call:
            for options in OPTION_SETS.values():
                mcplite.options(**{**UNSET, **options})
                for name in VALUES:
                    want = await expected(name)
                    assert await call(name) == want, (name, options)
                    seen[name].add(json.dumps(want))

    asyncio.run(main())
    # the options reached the tools, and the projection did its work
    assert len(seen["named_list"]) == len(OPTION_SETS) and len(seen["frame"]) > 1
    structured = {name: ["structuredContent" in json.loads(s) for s in seen[name]] for name in VALUES}
    assert all(structured["blocks"]) == (PROTOCOL_VERSIONS.index(version) >= 2)
    assert all(structured["structured_vector"]) == (version == MODERN)
    kinds = {block["type"] for block in json.loads(next(iter(seen["blocks"])))["content"]}
    assert ("resource_link" in kinds) == (PROTOCOL_VERSIONS.index(version) >= 2)


# -- the tool as listed ------------------------------------------------------------------------------


def typed(a: int, label: str = "x", *, scale: float = 1.0) -> dict[str, int]:
    """A tool with a typed signature and a return annotation the servers would make a schema of."""
    return {"a": a}


async def _listed(library: str, function: Callable[..., Any]) -> Any:
    """The tool as a client lists it, the function registered alone on a fresh server."""
    if library == "sdk":
        server = MCPServer("listing")
        server.tool()(function)
        async with Client(server, mode="legacy") as client:
            [tool] = (await client.list_tools()).tools
    else:
        assert fastmcp is not None
        app = fastmcp.FastMCP("listing")
        app.tool()(function)
        async with fastmcp.Client(app, mode="legacy") as client:
            [tool] = await client.list_tools()
    return tool


@pytest.mark.parametrize("library", LIBRARIES)
def test_listing_keeps_the_input_schema_and_infers_no_output_schema(library: str) -> None:
    plain = asyncio.run(_listed(library, typed))
    decorated = asyncio.run(_listed(library, mcplite_tool(typed)))
    assert plain.output_schema is not None  # undecorated, the return annotation becomes a schema
    assert decorated.output_schema is None
    assert decorated.input_schema == plain.input_schema
    assert sdk.CONTEXT_PARAMETER not in json.dumps(decorated.input_schema)
    assert (decorated.name, decorated.description) == (plain.name, plain.description)


def test_decorated_function_keeps_name_doc_and_parameters() -> None:
    decorated = mcplite_tool(typed)
    assert decorated.__name__ == "typed" and decorated.__doc__ == typed.__doc__
    signature = inspect.signature(decorated)
    assert list(signature.parameters) == ["a", "label", "scale", sdk.CONTEXT_PARAMETER]
    assert signature.return_annotation is SdkCallToolResult


# -- async tools, tools that take the context, per-tool options, what cannot be sent ---------------


async def frame_async(n: int) -> Any:
    await asyncio.sleep(0)
    return rv.data_frame(x=[1.5, rv.NA_real_][:n])


def frame_with_sdk_context(n: int, ctx: Context) -> Any:
    assert ctx.protocol_version in PROTOCOL_VERSIONS
    return rv.data_frame(x=[1.5, rv.NA_real_][:n])


def unsendable() -> Any:
    return {1, 2}


def plain_frame(n: int) -> Any:
    return rv.data_frame(x=[1.5, rv.NA_real_][:n])


def _renamed(function: Callable[..., Any], name: str) -> Callable[..., Any]:
    renamed = lambda *args, **kwargs: function(*args, **kwargs)  # noqa: E731
    renamed.__signature__ = inspect.signature(function)  # type: ignore[attr-defined]
    renamed.__name__ = name
    return renamed


@pytest.mark.parametrize("library", LIBRARIES)
@pytest.mark.parametrize("version", [LEGACY_VERSIONS[0], MODERN])
def test_async_tools_context_parameters_and_unsendable_values(library: str, version: str) -> None:
    with_context: Callable[..., Any]
    if library == "sdk":
        with_context = frame_with_sdk_context
    else:
        assert fastmcp is not None

        def frame_with_fastmcp_context(n: int, ctx: fastmcp.Context) -> Any:
            assert ctx.request_context is not None
            assert ctx.request_context.protocol_version == version
            return plain_frame(n)

        with_context = frame_with_fastmcp_context
    theirs = _servers(library)([frame_async, with_context, unsendable])
    own = own_server([frame_async, _renamed(plain_frame, with_context.__name__), unsendable])

    async def main() -> None:
        async with own_client(own, version) as expected, _clients(library)(theirs, version) as call:
            for name in ("frame_async", with_context.__name__):
                assert await call(name, {"n": 2}) == await expected(name, {"n": 2})
            got = await call("unsendable")
            assert got == await expected("unsendable") and got["isError"]

    asyncio.run(main())


@pytest.mark.parametrize("library", LIBRARIES)
def test_options_given_to_the_decorator_apply_to_that_tool_only(library: str) -> None:
    def frame() -> Any:
        return _frame()

    def frame_null() -> Any:
        return _frame()

    server = _servers(library)([])
    server.tool()(mcplite_tool(frame))
    server.tool()(mcplite_tool(json_na="null", json_auto_unbox=False)(frame_null))

    async def main() -> None:
        async with (
            own_client(own_server([frame]), "2025-06-18") as expected,
            _clients(library)(server, "2025-06-18") as call,
        ):
            assert await call("frame") == await expected("frame")
            with mcplite.options(json_na="null", json_auto_unbox=False):
                want = await expected("frame")
            assert await call("frame_null") == want != await call("frame")

    asyncio.run(main())


# -- to_sdk_result and direct calls -----------------------------------------------------------------


@pytest.mark.parametrize("version", PROTOCOL_VERSIONS)
def test_to_sdk_result_is_the_projected_wire(version: str) -> None:
    for name, make in VALUES.items():
        value = make()
        assert sdk_shown(to_sdk_result(value, version)) == shown(
            mcplite.as_tool_result(value).to_wire(version)
        ), name


def test_to_sdk_result_refuses_an_unknown_version() -> None:
    with pytest.raises(ValueError, match="unknown MCP protocol version '2030-01-01'"):
        to_sdk_result("x", "2030-01-01")


def test_a_version_mcplite_does_not_know_projects_for_the_newest_it_knows_that_is_not_newer() -> None:
    assert [
        sdk._known_version(v) for v in ("2025-06-18", "2025-07-01", "2030-01-01", "2024-01-01", None)
    ] == [
        "2025-06-18",
        "2025-06-18",
        MODERN,
        "2024-11-05",
        MODERN,
    ]


def test_outside_a_request_the_result_is_for_the_newest_version() -> None:
    decorated = mcplite_tool(_tool_function("structured_vector"))
    direct = decorated()
    assert isinstance(direct, SdkCallToolResult)
    assert sdk_shown(direct) == shown(VALUES["structured_vector"]().to_wire(MODERN))
    server = MCPServer("direct")
    server.tool()(decorated)
    assert asyncio.run(server.call_tool("structured_vector", {})) == direct


def test_an_sdk_result_passes_through_untouched() -> None:
    mine = SdkCallToolResult(content=[], structured_content={"a": 1})
    assert mcplite_tool(lambda: mine)() is mine


def test_misuse_is_refused_with_a_clear_message() -> None:
    def clash(mcplite_context: int) -> int:
        return mcplite_context

    with pytest.raises(ValueError, match="has a parameter named 'mcplite_context'"):
        mcplite_tool(clash)
    with pytest.raises(TypeError, match="a tool is a function, not"):
        mcplite_tool(42)  # type: ignore[call-overload]
    with pytest.raises(ValueError, match="json_na"):
        mcplite_tool(json_na="NA")
    with pytest.raises(TypeError, match="give payload options as"):
        mcplite_tool(typed, json_na="null")  # type: ignore[call-overload]


@pytest.mark.parametrize("library", LIBRARIES)
def test_json_null_structured_content_is_left_out_by_the_sdk(library: str) -> None:
    """The documented difference: the SDK's types cannot carry ``"structuredContent": null``."""

    def null() -> Any:
        return mcplite.tool_result(structured_content=rv.unbox(rv.NA))

    async def main() -> None:
        async with (
            own_client(own_server([null]), MODERN) as expected,
            _clients(library)(_servers(library)([null]), MODERN) as call,
        ):
            want = await expected("null")
            assert want["structuredContent"] is None
            del want["structuredContent"]
            assert await call("null") == want

    asyncio.run(main())


def test_async_callables_and_partials_are_awaited() -> None:
    class Rows:
        async def __call__(self, n: int) -> Any:
            return rv.c(*range(n))

    async def add(a: int, b: int) -> int:
        return a + b

    assert (
        asyncio.run(mcplite_tool(Rows())(n=3)).content[0].text
        == mcplite.as_tool_result(rv.c(0, 1, 2)).content[0].text
    )
    assert asyncio.run(mcplite_tool(functools.partial(add, b=1))(a=2)).content[0].text == "3"
