"""Custom headers from tool parameters (2026-07-28, SEP-2243) over Streamable HTTP.

A tool's hand-written input schema marks parameters with ``x-mcp-header``; 2026-07-28 clients mirror
them into ``Mcp-Param-{name}`` headers, and the server refuses (HTTP 400, -32020) a call whose
headers disagree with its arguments. The judges: the official SDK's client (which mirrors the
headers) must be served, and the SDK's own reading of the rules (``mcp.shared.inbound``:
``validate_mcp_param_headers`` for a call's headers, ``find_invalid_x_mcp_header`` for a schema)
must agree with mcplite's on every case.
"""

from __future__ import annotations

import base64
from collections.abc import Iterator
from typing import Any

import httpx
import pytest

pytest.importorskip("uvicorn")
pytest.importorskip("jsonschema")
from mcp import Client
from mcp.shared.inbound import find_invalid_x_mcp_header, validate_mcp_param_headers

import mcplite
from mcplite.tools.schema import header_params
from tests.serving import served

MODERN = "2026-07-28"
TIMEOUT = 20.0
HEADER_MISMATCH = -32020  # 2026-07-28 basic/transports/streamable-http, Server Validation
SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {
        "region": {"type": "string", "x-mcp-header": "Region"},
        "priority": {"type": "integer", "x-mcp-header": "Priority"},
        "verbose": {"type": "boolean", "x-mcp-header": "Verbose"},
        "query": {"type": "string"},
    },
    "required": ["region"],
}

server = mcplite.McpServer("custom-headers")


@server.tool(input_schema=SCHEMA)
def route(region: str, priority: int = 0, verbose: bool = False, query: str = "") -> str:
    """Echo what the call got."""
    return f"{region}|{priority}|{verbose}|{query}"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with served(server.asgi_app(), lifespan="on") as base:
        yield base + "/mcp"


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
async def test_the_sdk_client_mirrors_the_parameters_and_is_served(url: str) -> None:
    async with Client(url, mode=MODERN, read_timeout_seconds=TIMEOUT) as client:  # type: ignore[arg-type]
        for arguments in [
            {"region": "us-west1"},
            {"region": "Hello, 世界", "priority": -7, "verbose": True},
            {"region": " padded ", "priority": 42, "verbose": False, "query": "x"},
            {"region": "=?base64?literal?="},
        ]:
            result = await client.call_tool("route", arguments)
            assert not result.is_error, (arguments, result)
            expected = route(**arguments)
            assert result.content[0].text == expected  # type: ignore[union-attr]


def b64(text: str) -> str:
    return f"=?base64?{base64.b64encode(text.encode()).decode()}?="


CASES: list[tuple[dict[str, Any], dict[str, str]]] = [
    ({"region": "us"}, {"Mcp-Param-Region": "us"}),
    ({"region": "us"}, {"mcp-param-region": "us"}),  # header names are case-insensitive
    ({"region": "us"}, {"Mcp-Param-Region": "eu"}),
    ({"region": "us"}, {}),  # omitted but in the body
    ({"region": "Hello"}, {"Mcp-Param-Region": b64("Hello")}),
    ({"region": "Hello"}, {"Mcp-Param-Region": "=?base64?SGVsbG8?="}),  # bad padding
    ({"region": "Hello"}, {"Mcp-Param-Region": "=?base64?SGVs!!!bG8=?="}),  # not base64
    ({"region": "SGVsbG8="}, {"Mcp-Param-Region": "SGVsbG8="}),  # no sentinel: literal
    ({"region": "=?base64?SGVsbG8="}, {"Mcp-Param-Region": "=?base64?SGVsbG8="}),
    ({"region": "us", "priority": 42}, {"Mcp-Param-Region": "us", "Mcp-Param-Priority": "42"}),
    ({"region": "us", "priority": 42}, {"Mcp-Param-Region": "us", "Mcp-Param-Priority": "42.0"}),
    ({"region": "us", "priority": 42}, {"Mcp-Param-Region": "us", "Mcp-Param-Priority": "43"}),
    ({"region": "us", "priority": 42}, {"Mcp-Param-Region": "us"}),
    ({"region": "us", "verbose": True}, {"Mcp-Param-Region": "us", "Mcp-Param-Verbose": "true"}),
    ({"region": "us", "verbose": True}, {"Mcp-Param-Region": "us", "Mcp-Param-Verbose": "True"}),
    ({"region": "us"}, {"Mcp-Param-Region": "us", "Mcp-Param-Verbose": "false"}),  # no body value
    ({"region": "us", "verbose": None}, {"Mcp-Param-Region": "us"}),  # null: no header expected
    ({"region": "us"}, {"Mcp-Param-Region": "us", "Mcp-Param-Other": "x"}),  # not a recognized one
]


@pytest.mark.parametrize(("arguments", "params"), CASES)
def test_mcp_param_headers_are_checked_as_the_sdk_reads_the_rules(
    url: str, arguments: dict[str, Any], params: dict[str, str]
) -> None:
    body = {
        "jsonrpc": "2.0",
        "id": 1,
        "method": "tools/call",
        "params": {
            "name": "route",
            "arguments": arguments,
            "_meta": {
                "io.modelcontextprotocol/protocolVersion": MODERN,
                "io.modelcontextprotocol/clientInfo": {"name": "t", "version": "1"},
                "io.modelcontextprotocol/clientCapabilities": {},
            },
        },
    }
    headers = {
        "Accept": "application/json, text/event-stream",
        "MCP-Protocol-Version": MODERN,
        "Mcp-Method": "tools/call",
        "Mcp-Name": "route",
        **params,
    }
    response = httpx.post(url, json=body, headers=headers, timeout=TIMEOUT)
    refusal = validate_mcp_param_headers(SCHEMA, arguments, params)
    if refusal is None:
        assert response.status_code == 200, response.text
        assert "error" not in response.json()
    else:
        assert refusal.code == HEADER_MISMATCH
        assert response.status_code == 400, response.text
        assert response.json()["error"]["code"] == HEADER_MISMATCH
        assert response.json()["error"]["message"].startswith("Header mismatch: the Mcp-Param-")


def prop(**schema: Any) -> dict[str, Any]:
    return {"type": "object", "properties": {"p": schema}}


SCHEMAS: list[dict[str, Any]] = [
    SCHEMA,
    prop(type="string", **{"x-mcp-header": ""}),
    prop(type="object", **{"x-mcp-header": "P"}),
    prop(type="array", **{"x-mcp-header": "P"}),
    prop(type="null", **{"x-mcp-header": "P"}),
    prop(type="number", **{"x-mcp-header": "P"}),
    prop(type="string", **{"x-mcp-header": "has space"}),
    prop(type="string", **{"x-mcp-header": "a:b"}),
    prop(type="string", **{"x-mcp-header": "ré"}),
    prop(type="string", **{"x-mcp-header": "a\r\nb"}),
    prop(type="string", **{"x-mcp-header": 3}),
    {
        "type": "object",
        "properties": {
            "a": {"type": "string", "x-mcp-header": "X"},
            "b": {"type": "string", "x-mcp-header": "x"},
        },
    },
    {
        "type": "object",
        "properties": {
            "o": {"type": "object", "properties": {"inner": {"type": "integer", "x-mcp-header": "Inner"}}}
        },
    },
    {"type": "object", "items": {"type": "string", "x-mcp-header": "I"}},
    {"type": "object", "allOf": [{"properties": {"p": {"type": "string", "x-mcp-header": "P"}}}]},
    {"type": "object", "$defs": {"d": {"type": "string", "x-mcp-header": "D"}}},
    {"type": "object", "x-mcp-header": "Root"},
    {"type": "object", "properties": {"p": {"type": "string", "default": {"x-mcp-header": 1}}}},  # data
]


@pytest.mark.parametrize("schema", SCHEMAS)
def test_x_mcp_header_marks_are_refused_where_the_sdk_client_would_drop_the_tool(
    schema: dict[str, Any],
) -> None:
    reason = find_invalid_x_mcp_header(schema)
    if reason is None:
        header_params(schema, "tool 't'")
    else:
        with pytest.raises(TypeError, match="x-mcp-header"):
            header_params(schema, "tool 't'")
