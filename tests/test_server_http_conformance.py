"""The HTTP-level rules the official conformance suite (``@modelcontextprotocol/conformance``) found
mcplite breaking, each checked with raw HTTP (httpx) against the conformance everything server
(tests/conformance/everything_server.py) served by uvicorn on 127.0.0.1.

The expected status codes and JSON-RPC codes are the specification's, quoted in each test; the
suite itself runs in ``.ci/conformance``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest

from tests.conformance.everything_server import server
from tests.serving import served

httpx = pytest.importorskip("httpx")

HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}
MODERN = "2026-07-28"
VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
META = {VERSION_KEY: MODERN, CAPABILITIES_KEY: {}}


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with served(server.asgi_app(), lifespan="off") as base:
        yield base + "/mcp"


@pytest.fixture(scope="module")
def client() -> Iterator[Any]:
    with httpx.Client(timeout=20) as http:
        yield http


def rpc(request_id: int, method: str, params: dict[str, Any]) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": request_id, "method": method, "params": params}


def modern_headers(method: str) -> dict[str, str]:
    return {**HEADERS, "mcp-protocol-version": MODERN, "mcp-method": method}


def error_of(response: Any, status: int, request_id: int | None) -> dict[str, Any]:
    assert response.status_code == status, response.text
    body = response.json()
    assert body["id"] == request_id, body
    return dict(body["error"])


@pytest.mark.parametrize(
    "params",
    [
        {},
        {
            "_meta": {
                CAPABILITIES_KEY: {},
                "io.modelcontextprotocol/clientInfo": {"name": "c", "version": "1"},
            }
        },
    ],
    ids=["no _meta", "_meta without protocolVersion"],
)
def test_modern_request_without_its_protocol_version_is_invalid_params(
    client: Any, url: str, params: dict[str, Any]
) -> None:
    """2026-07-28 basic/index: protocolVersion is a required ``_meta`` field, and "a request missing
    any required field is malformed; the server MUST reject it with JSON-RPC error code -32602
    (Invalid params). On HTTP, the response status MUST be 400 Bad Request"."""
    response = client.post(
        url, json=rpc(101, "server/discover", params), headers=modern_headers("server/discover")
    )
    error = error_of(response, 400, 101)
    assert error["code"] == -32602, error
    assert VERSION_KEY in error["message"], error


def test_initialize_at_2026_07_28_is_method_not_found(client: Any, url: str) -> None:
    """2026-07-28 has no ``initialize`` (changelog: no handshake); streamable-http: "If the server does
    not implement the requested RPC method, it MUST respond with 404 Not Found and a JSON-RPC error
    with code -32601". No session starts."""
    params = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "c", "version": "1"},
        "_meta": META,
    }
    response = client.post(url, json=rpc(500, "initialize", params), headers=modern_headers("initialize"))
    error = error_of(response, 404, 500)
    assert error["code"] == -32601, error
    assert "mcp-session-id" not in response.headers


def start_session(client: Any, url: str, version: str) -> str:
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "c", "version": "1"}}
    response = client.post(url, json=rpc(0, "initialize", params), headers=HEADERS)
    assert response.status_code == 200, response.text
    assert response.json()["result"]["protocolVersion"] == version
    return str(response.headers["mcp-session-id"])


def test_a_session_serves_a_header_naming_another_supported_version(client: Any, url: str) -> None:
    """2025-11-25 transports: the header's version "SHOULD be the one negotiated"; only "an invalid
    or unsupported MCP-Protocol-Version" MUST get 400. The official SDKs serve a supported one (the
    suite's server-sse-multiple-streams sends 2025-03-26 in a 2025-11-25 session)."""
    session = start_session(client, url, "2025-11-25")
    headers = {**HEADERS, "mcp-session-id": session}
    listed = client.post(
        url, json=rpc(1, "tools/list", {}), headers={**headers, "mcp-protocol-version": "2025-03-26"}
    )
    assert listed.status_code == 200, listed.text
    tools = listed.json()["result"]["tools"]
    assert "test_simple_text" in {tool["name"] for tool in tools}
    same = client.post(
        url, json=rpc(2, "tools/list", {}), headers={**headers, "mcp-protocol-version": "2025-11-25"}
    )
    assert same.json()["result"]["tools"] == tools  # served under the negotiated version, whatever the header
    unsupported = client.post(
        url, json=rpc(3, "tools/list", {}), headers={**headers, "mcp-protocol-version": "1999-01-01"}
    )
    assert unsupported.status_code == 400, unsupported.text


@pytest.mark.parametrize("host", ["evil.example", "127.0.0.1.evil.example"])
def test_an_invalid_origin_is_403_even_when_the_host_is_foreign_too(client: Any, url: str, host: str) -> None:
    """2025-11-25 transports: "If the Origin header is present and invalid, servers MUST respond with
    HTTP 403 Forbidden" (a DNS-rebinding page sends a foreign Host and a foreign Origin at once)."""
    headers = {**HEADERS, "host": host, "origin": f"http://{host}"}
    response = client.post(url, json=rpc(7, "server/discover", {"_meta": META}), headers=headers)
    assert response.status_code == 403, response.text
    assert "origin" in response.json()["error"]["message"]
    without_origin = client.post(
        url, json=rpc(8, "server/discover", {"_meta": META}), headers={**HEADERS, "host": host}
    )
    assert without_origin.status_code == 421, without_origin.text  # the Host guard still stands behind it
