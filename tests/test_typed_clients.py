"""Typed tools (tests/servers/typed.py) driven by real clients, over stdio and Streamable HTTP.

The official SDK's ``Client.call_tool`` checks structured content against the listed output schema and
raises when it does not fit (or is missing); FastMCP's client turns the listed schema into a pydantic
type and parses the structured content with it (``result.data``). Every typed result, with NaN, NA,
no rows and one row, must pass both, in legacy mode and in 2026-07-28 mode. What a call must bring
back is what the same tool gives in this process (``registered.to_result(value)``), never typed by hand.
"""

from __future__ import annotations

import contextlib
import dataclasses
import json
import os
import sys
import typing
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

import mcplite
from mcplite.payload.rjson import options_in_force
from tests.sdk_handshake import offered_handshake
from tests.servers import typed
from tests.serving import served

pytest.importorskip("fastmcp")
pytest.importorskip("uvicorn")
from fastmcp import Client as FastClient
from fastmcp.client.transports import StdioTransport
from fastmcp.exceptions import ToolError

SERVER = Path(typed.__file__)
TIMEOUT = 20.0
TOOLS = ("summarize", "group_means")


@dataclasses.dataclass(frozen=True)
class Config:
    transport: str  # "stdio" or "http"
    library: str  # "sdk" or "fastmcp"
    mode: str  # "legacy" or "2026-07-28"
    handshake: str | None = None

    @property
    def id(self) -> str:
        return f"{self.transport}-{self.library}-{self.mode}" + (
            f"-{self.handshake}" if self.handshake else ""
        )


CONFIGS = [
    Config(transport, library, mode)
    for transport in ("stdio", "http")
    for library in ("sdk", "fastmcp")
    for mode in ("legacy", "2026-07-28")
] + [Config("stdio", "sdk", "legacy", "2025-06-18")]


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with served(typed.server.asgi_app()) as base:
        yield base + "/mcp"


@dataclasses.dataclass
class Conn:
    config: Config
    client: Any

    @property
    def version(self) -> str:
        return str(self.client.protocol_version)

    async def call(self, name: str, arguments: dict[str, Any]) -> Any:
        """The validating call of each library (the SDK raises RuntimeError, FastMCP raises ToolError)."""
        with anyio.fail_after(TIMEOUT):
            return await self.client.call_tool(name, arguments)


@pytest.fixture(scope="module", params=CONFIGS, ids=lambda config: config.id)
async def conn(
    request: pytest.FixtureRequest, url: str, tmp_path_factory: pytest.TempPathFactory
) -> AsyncIterator[Conn]:
    config: Config = request.param
    stderr = tmp_path_factory.mktemp("stderr") / f"{config.id}.log"
    async with contextlib.AsyncExitStack() as stack:
        if config.library == "sdk":
            if config.transport == "stdio":
                errlog = stack.enter_context(stderr.open("w", encoding="utf-8"))
                params = StdioServerParameters(
                    command=sys.executable, args=[str(SERVER)], env=dict(os.environ)
                )
                target: Any = stdio_client(params, errlog=errlog)
            else:
                target = url
            client: Any = Client(target, mode=config.mode, read_timeout_seconds=TIMEOUT)  # type: ignore[arg-type]
        else:
            transport: Any = (
                StdioTransport(
                    command=sys.executable, args=[str(SERVER)], env=dict(os.environ), log_file=stderr
                )
                if config.transport == "stdio"
                else url
            )
            client = FastClient(transport, mode=config.mode, timeout=TIMEOUT, init_timeout=TIMEOUT)  # type: ignore[arg-type]
        with offered_handshake(config.handshake):
            await stack.enter_async_context(client)
        yield Conn(config, client)


pytestmark = pytest.mark.anyio


def expected(name: str, case: str) -> mcplite.CallToolResult:
    registered = typed.server.get_tool(name)
    assert registered is not None
    value = typed.summary(case) if name == "summarize" else typed.groups(case)
    return registered.to_result(value, options_in_force())


def carries(version: str, name: str) -> bool:
    """Whether ``version`` carries the structured content (objects from 2025-06-18, any from 2026-07-28)."""
    if version >= "2026-07-28":
        return True
    return version >= "2025-06-18" and name == "summarize"


@pytest.mark.parametrize("case", typed.CASES)
@pytest.mark.parametrize("name", TOOLS)
async def test_typed_results_pass_the_clients_checks(conn: Conn, name: str, case: str) -> None:
    result = await conn.call(name, {"case": case})  # raises if the client refuses the result
    assert not result.is_error
    text = expected(name, case).content[0].text  # type: ignore[union-attr]
    assert [block.text for block in result.content] == [text]
    if carries(conn.version, name):
        assert result.structured_content == json.loads(text)
        if conn.config.library == "fastmcp":
            assert result.data is not None, (
                "FastMCP could not parse the structured content with the listed schema"
            )
    else:
        assert result.structured_content is None


async def test_listed_schema_is_the_derived_one(conn: Conn) -> None:
    tools = await conn.client.list_tools()
    listed = {tool.name: tool.output_schema for tool in getattr(tools, "tools", tools)}
    if conn.version >= "2026-07-28":
        declared = typing.get_type_hints(typed.group_means, include_extras=True)["return"]
        assert listed["group_means"] == mcplite.output_schema(declared)
    else:
        assert listed["group_means"] is None
    assert listed["summarize"] == mcplite.output_schema(typed.Summary)


async def test_a_misfit_is_an_error_result_naming_the_path(conn: Conn) -> None:
    if conn.config.library == "fastmcp":
        with pytest.raises(ToolError, match=r"groups\[1\]\.mean is str \('high'\), expected a number"):
            await conn.call("misfit", {})
        return
    result = await conn.call("misfit", {})
    assert result.is_error
    assert "groups[1].mean is str ('high'), expected a number" in result.content[0].text


async def test_a_hand_written_schema_is_checked_on_each_call(conn: Conn) -> None:
    """validate_output=True: NaN ("NaN") does not fit {"type": "number"}, and the server says so itself."""
    fits = await conn.call("hand_written", {"nan": False})
    assert not fits.is_error
    if conn.config.library == "fastmcp":
        with pytest.raises(ToolError, match="mean is str"):
            await conn.call("hand_written", {"nan": True})
        return
    result = await conn.call("hand_written", {"nan": True})
    assert result.is_error
    assert "mean is str ('NaN'), expected type 'number'" in result.content[0].text
