"""The rest of the official conformance suite's demands (issue 33): a 2026-07-28 ``initialize`` over a
connection without HTTP, hand-written input schemas (``input_schema=``), custom headers from tool
parameters (SEP-2243) and resumable SSE streams (SEP-1699).

The expectations are the specification's (2026-07-28 ``basic/transports/streamable-http``, the
2025-11-25 SSE resumability rules) and the official SDK client's view of the wire.
"""

from __future__ import annotations

import asyncio
import json
from typing import Any

import mcplite
from mcplite.engine.connection import Connection

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
