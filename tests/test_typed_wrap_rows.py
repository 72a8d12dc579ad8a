"""``wrap_rows``: a typed tool's rows as ``{"result": rows}`` structured content, as FastMCP and the
official SDK wrap a value that is not an object, so clients before 2026-07-28 (objects only) get it.

The text block stays jsonlite's text of the rows; the listed schema is the wrapped one; a record
(an object) is never wrapped; the official SDK's client at 2025-06-18 and 2025-11-25 accepts the
wrapped content against the schema it listed.
"""

from __future__ import annotations

import dataclasses
import json
from typing import Annotated, Any

import anyio
import jsonschema
import pandas as pd
import pytest

import mcplite
from mcplite.protocol.versions import PROTOCOL_VERSIONS
from mcplite.testing import Client


@dataclasses.dataclass
class Tally:
    region: str
    units: int


@dataclasses.dataclass
class Total:
    units: int


def tallies_frame() -> pd.DataFrame:
    return pd.DataFrame({"region": ["north", "south"], "units": pd.array([3, None], dtype="Int64")})


def add_tools(server: mcplite.McpServer, **options: Any) -> None:
    @server.tool(**options)
    def tallies() -> Annotated[pd.DataFrame, mcplite.Rows(Tally)]:
        """Units by region."""
        return tallies_frame()

    @server.tool(**options)
    def listed() -> list[Total]:
        """Totals as a list of records."""
        return [Total(1), Total(2)]

    @server.tool(**options)
    def total() -> Total:
        """One record: an object, never wrapped."""
        return Total(5)


def server_with(**options: Any) -> mcplite.McpServer:
    server = mcplite.McpServer("wrapped", **options)
    add_tools(server)
    return server


MODERN = "2026-07-28"
STRUCTURED_VERSIONS = [v for v in PROTOCOL_VERSIONS if v >= "2025-06-18"]


@pytest.mark.parametrize("version", STRUCTURED_VERSIONS)
@pytest.mark.parametrize("name", ["tallies", "listed"])
def test_wrapped_rows_are_the_result_property_and_the_text_stays_the_rows(version: str, name: str) -> None:
    plain = Client(server_with(), protocol_version=MODERN).call_tool(name, {})
    wrapped_client = Client(server_with(wrap_rows=True), protocol_version=version)
    wrapped = wrapped_client.call_tool(name, {})  # the testing client checks it against the listing
    assert not wrapped.is_error, wrapped
    text = plain.content[0].text  # type: ignore[union-attr]
    assert [block.text for block in wrapped.content] == [text]  # type: ignore[union-attr]
    assert wrapped.structured_content == {"result": json.loads(text)} == {"result": plain.structured_content}
    schema = {tool.name: tool for tool in wrapped_client.list_tools()}[name].output_schema
    plain_schema = {tool.name: tool for tool in Client(server_with()).list_tools()}[name].output_schema
    assert schema == {"type": "object", "properties": {"result": plain_schema}, "required": ["result"]}
    jsonschema.validate(wrapped.structured_content, schema)


def test_by_default_rows_reach_only_2026_07_28_clients_as_structured_content() -> None:
    assert Client(server_with(), protocol_version="2025-11-25").call_tool(
        "tallies", {}
    ).structured_content is (mcplite.ABSENT)
    assert isinstance(
        Client(server_with(), protocol_version=MODERN).call_tool("tallies", {}).structured_content, list
    )


def test_a_record_is_never_wrapped() -> None:
    for options in ({}, {"wrap_rows": True}):
        client = Client(server_with(**options), protocol_version="2025-06-18")
        assert client.call_tool("total", {}).structured_content == {"units": 5}
        schema = {tool.name: tool for tool in client.list_tools()}["total"].output_schema
        assert schema is not None and "result" not in schema["properties"]


def test_a_tool_option_overrides_the_servers() -> None:
    on = mcplite.McpServer("tool-on")
    add_tools(on, wrap_rows=True)
    off = mcplite.McpServer("tool-off", wrap_rows=True)
    add_tools(off, wrap_rows=False)
    assert Client(on, protocol_version="2025-06-18").call_tool("tallies", {}).structured_content == {
        "result": [{"region": "north", "units": 3}, {"region": "south"}]
    }
    assert (
        Client(off, protocol_version="2025-06-18").call_tool("tallies", {}).structured_content
        is mcplite.ABSENT
    )


# -- the official SDK's client -------------------------------------------------------------------


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25"])
async def test_the_sdk_client_accepts_wrapped_rows_against_the_listed_schema(version: str) -> None:
    from mcp import Client as SdkClient

    from tests.sdk_handshake import offered_handshake
    from tests.serving import served

    server = server_with(wrap_rows=True)
    expected = Client(server, protocol_version=version).call_tool("tallies", {})
    with served(server.asgi_app()) as base, offered_handshake(version):
        async with SdkClient(base + "/mcp", mode="legacy") as client:  # type: ignore[arg-type]
            assert client.protocol_version == version
            with anyio.fail_after(20):
                tools = {tool.name: tool for tool in (await client.list_tools()).tools}
                # call_tool checks the structured content against the listed schema and raises if not
                results = {name: await client.call_tool(name, {}) for name in ("tallies", "listed")}
    for name, result in results.items():
        assert not result.is_error
        assert result.structured_content is not None and set(result.structured_content) == {"result"}
        jsonschema.validate(result.structured_content, tools[name].output_schema)
    tallies = results["tallies"]
    assert tallies.structured_content == expected.structured_content
    assert [block.text for block in tallies.content] == [expected.content[0].text]  # type: ignore[union-attr]
