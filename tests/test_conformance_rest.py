"""The rest of the official conformance suite's demands: a 2026-07-28 ``initialize`` over a
connection without HTTP, hand-written input schemas (``input_schema=``), custom headers from tool
parameters (SEP-2243) and resumable SSE streams (SEP-1699).

The expectations are the specification's (2026-07-28 ``basic/transports/streamable-http``, the
2025-11-25 SSE resumability rules) and the official SDK client's view of the wire.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import pytest

import mcplite
from mcplite.engine.connection import Connection
from tests.conformance.everything_server import JSON_SCHEMA_2020_12

MODERN = "2026-07-28"
ENVELOPE = {
    "io.modelcontextprotocol/protocolVersion": MODERN,
    "io.modelcontextprotocol/clientInfo": {"name": "test", "version": "1"},
    "io.modelcontextprotocol/clientCapabilities": {},
}
METHOD_NOT_FOUND = -32601  # 2026-07-28 has no initialize: a server MUST answer -32601 (versioning page)


def answer(server: mcplite.McpServer, message: dict[str, Any]) -> dict[str, Any]:
    """One message through the connection every transport shares (stdio's, in-process)."""

    async def run() -> Any:
        found = await Connection(server.engine, lambda line: None).respond(message, lambda line: None)
        assert found is not None
        return json.loads(found.data)

    return asyncio.run(run())


def test_initialize_naming_2026_07_28_in_meta_is_not_a_legacy_handshake() -> None:
    server = mcplite.McpServer("rest")
    params = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "test", "version": "1"},
        "_meta": ENVELOPE,
    }
    reply = answer(server, {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params})
    assert reply["error"]["code"] == METHOD_NOT_FOUND, reply
    legacy = {k: v for k, v in params.items() if k != "_meta"}
    reply = answer(server, {"jsonrpc": "2.0", "id": 2, "method": "initialize", "params": legacy})
    assert reply["result"]["protocolVersion"] == "2025-11-25"


# -- input_schema=: a hand-written schema, listed as written and enforced -------------------------

jsonschema = pytest.importorskip("jsonschema")

SUITE_SCHEMA: dict[str, Any] = JSON_SCHEMA_2020_12
"""The conformance suite's json-schema-2020-12 scenario schema, as the everything server lists it."""

ARGUMENT_CASES: list[Any] = [
    {"email": "a@b.c"},
    {"phone": "123"},  # no contactMethod: else needs email
    {"contactMethod": "phone", "phone": "123"},
    {"contactMethod": "phone", "email": "a@b.c"},  # then needs phone
    {"contactMethod": "email", "email": "a@b.c", "address": {"city": "Oslo"}},
    {"email": "a@b.c", "address": {"city": 3}},  # $ref'd property of the wrong type
    {"email": "a@b.c", "extra": 1},  # additionalProperties: false
    {"contactMethod": "fax", "email": "a@b.c"},
    {},
    {"name": None, "email": "a@b.c"},
]


def suite_server() -> mcplite.McpServer:
    server = mcplite.McpServer("schemas")

    @server.tool(input_schema=SUITE_SCHEMA)
    def contact(**arguments: Any) -> str:
        """Echo the arguments."""
        return json.dumps(arguments, sort_keys=True)

    return server


def call(server: mcplite.McpServer, arguments: Any, version: str) -> dict[str, Any]:
    params: dict[str, Any] = {"name": "contact", "arguments": arguments}
    if version == MODERN:
        params["_meta"] = ENVELOPE
        return answer(server, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})

    async def run() -> Any:
        connection = Connection(server.engine, lambda line: None)
        init = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
        await connection.respond(
            {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}, lambda line: None
        )
        await connection.respond({"jsonrpc": "2.0", "method": "notifications/initialized"}, lambda line: None)
        found = await connection.respond(
            {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params}, print
        )
        assert found is not None
        return json.loads(found.data)

    return asyncio.run(run())


def test_a_hand_written_input_schema_is_listed_as_written() -> None:
    server = suite_server()
    listed = answer(
        server, {"jsonrpc": "2.0", "id": 1, "method": "tools/list", "params": {"_meta": ENVELOPE}}
    )
    assert listed["result"]["tools"][0]["inputSchema"] == SUITE_SCHEMA


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25", MODERN])
def test_arguments_are_accepted_exactly_when_jsonschema_validates_them(version: str) -> None:
    server = suite_server()
    validator = jsonschema.Draft202012Validator(SUITE_SCHEMA)
    verdicts = set()
    for arguments in ARGUMENT_CASES:
        reply = call(server, arguments, version)
        valid = validator.is_valid(arguments)
        verdicts.add(valid)
        if valid:
            assert reply["result"].get("isError") is not True, (arguments, reply)
            assert json.loads(reply["result"]["content"][0]["text"]) == arguments
        elif version == "2025-06-18":  # before 2025-11-25, argument errors are JSON-RPC errors
            assert reply["error"]["code"] == -32602, (arguments, reply)
            assert "Invalid arguments for tool contact" in reply["error"]["message"]
        else:  # from 2025-11-25 on, a tool error the model can read and correct
            assert reply["result"]["isError"] is True, (arguments, reply)
            assert reply["result"]["content"][0]["text"].startswith("Invalid arguments for tool contact")
    assert verdicts == {True, False}


def test_an_argument_error_names_where_the_schema_refuses() -> None:
    reply = call(suite_server(), {"email": "a@b.c", "address": {"city": 3}}, MODERN)
    assert (
        "argument 'address.city': expected type 'string', got 3 (int)"
        in reply["result"]["content"][0]["text"]
    )


def test_named_parameters_get_the_arguments_and_extras_the_function_cannot_take_are_refused() -> None:
    server = mcplite.McpServer("named")
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}, "required": ["n"]}

    @server.tool(input_schema=schema)
    def twice(n: int) -> int:
        """Twice n."""
        return 2 * n

    params = {"name": "twice", "arguments": {"n": 4, "other": 1}, "_meta": ENVELOPE}
    reply = answer(server, {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": params})
    assert reply["result"]["content"][0]["text"] == "8"
    with pytest.raises(TypeError, match="no default, so input_schema must list it"):
        server.add_tool(twice, name="loose", input_schema={"type": "object", "properties": {"n": {}}})
    with pytest.raises(TypeError, match="property 'm' the function has no parameter for"):
        server.add_tool(twice, name="stranger", input_schema={**schema, "properties": {"n": {}, "m": {}}})
    with pytest.raises(TypeError, match="not a valid JSON Schema"):
        server.add_tool(twice, name="broken", input_schema={**schema, "properties": {"n": {"type": 3}}})
    with pytest.raises(TypeError, match='must have "type": "object"'):
        server.add_tool(twice, name="array", input_schema={"type": "array"})
