"""The 2026-07-28 era over HTTP: every request names its version in ``params._meta`` and is served
statelessly, by a fresh connection, in whichever process receives it. Its ``MCP-Protocol-Version``,
``Mcp-Method`` and ``Mcp-Name`` headers must agree with the body (else 400, error -32020); a
client that leaves cancels its request. A ``subscriptions/listen`` request is an SSE stream that
stays open until the client closes it; the server stopping answers it with its closing result.

>>> meta_version({"params": {"_meta": {"io.modelcontextprotocol/protocolVersion": "2026-07-28"}}})
(True, '2026-07-28')
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from mcplite.engine.asking import MISSING_CAPABILITY
from mcplite.engine.connection import Answer, Connection
from mcplite.engine.eras import modern_method
from mcplite.engine.handlers import Engine
from mcplite.engine.listening import backlog_overflow, closing_line
from mcplite.protocol.jsonrpc import (
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    UNSUPPORTED_PROTOCOL_VERSION,
    RequestId,
    RpcError,
)
from mcplite.protocol.versions import PROTOCOL_VERSION_KEY
from mcplite.transports.http.asgi import Receive, Send
from mcplite.transports.http.exchange import exchange, request_id, send_response
from mcplite.transports.http.guards import HttpError
from mcplite.transports.http.headers import HEADER_MISMATCH, check_routing_headers, check_tool_headers

log = logging.getLogger("mcplite.server")

MODERN_STATUS = {
    PARSE_ERROR: 400,
    INVALID_REQUEST: 400,
    INVALID_PARAMS: 400,
    HEADER_MISMATCH: 400,
    UNSUPPORTED_PROTOCOL_VERSION: 400,
    METHOD_NOT_FOUND: 404,
    MISSING_CAPABILITY: 400,
}
"""The HTTP status of a JSON-RPC error (anything else, results included, is 200)."""


def modern_status(answer: Answer) -> int:
    return 200 if answer.error_code is None else MODERN_STATUS.get(answer.error_code, 200)


def discard(line: bytes) -> None:
    """The connection-wide output of an HTTP connection: unused, every answer has its own channel."""


def meta_version(message: Any) -> tuple[bool, Any]:
    """Whether a message names a protocol version in ``params._meta`` (2026-07-28), and which."""
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    if isinstance(meta, dict) and PROTOCOL_VERSION_KEY in meta:
        return True, meta[PROTOCOL_VERSION_KEY]
    return False, None


def _cancel(work: asyncio.Task[Answer | None], request: RequestId | None) -> None:
    log.info(
        "connection closed before its answer (client gone or server stopping): cancelling request %r", request
    )
    work.cancel()


async def serve_modern(
    engine: Engine,
    headers: dict[str, list[str]],
    message: Any,
    version: Any,
    receive: Receive,
    send: Send,
    *,
    keepalive: float,
    principal: str | None = None,
) -> None:
    """Serve a message whose ``_meta`` names ``version`` (its routing headers checked first);
    ``principal`` (a hash of the bearer token) binds the ``requestState`` of its rounds."""
    if isinstance(message, dict):
        try:
            method = message.get("method")
            entry = engine.handlers.find(method) if isinstance(method, str) else None
            check_routing_headers(headers, message, version, None if entry is None else entry.name_param)
            check_tool_headers(engine, headers, message)
            if entry is not None and entry.opens_session:  # a legacy handshake names no version of ours
                modern_method(engine.handlers, entry.name, message["params"]["_meta"])
        except RpcError as err:
            status = MODERN_STATUS.get(err.code, 400)
            raise HttpError(
                status, err.code, err.message, request_id=request_id(message), data=err.data
            ) from None
    on_stop = closing_line(engine, message, version)
    await _exchange(engine, message, receive, send, keepalive, on_stop, principal)


async def serve_modern_without_meta(
    engine: Engine, message: Any, version: str, receive: Receive, send: Send, *, keepalive: float
) -> None:
    """A message whose ``MCP-Protocol-Version`` header is modern but whose body names no version."""
    if isinstance(message, dict) and "id" not in message:
        await send_response(send, 202)  # 2026-07-28 defines no notifications over HTTP: nothing to do
    elif not isinstance(message, dict):
        await _exchange(engine, message, receive, send, keepalive)
    else:  # protocolVersion is a required _meta field: without it the request is malformed (-32602)
        raise HttpError(
            400,
            INVALID_PARAMS,
            f"Invalid params: the MCP-Protocol-Version header says {version!r:.80} but params._meta names "
            f"no protocol version (put it in params._meta[{PROTOCOL_VERSION_KEY!r}])",
            request_id=request_id(message),
        )


async def _exchange(
    engine: Engine,
    message: Any,
    receive: Receive,
    send: Send,
    keepalive: float,
    on_stop: bytes | None = None,
    principal: str | None = None,
) -> None:
    connection = Connection(engine, discard, principal)
    overflow = backlog_overflow(engine, message)  # a listen: bounded, as its client may stop reading
    backlog = None if overflow is None else engine.offer.subscriptions.limits.max_listen_backlog
    await exchange(
        connection, message, receive, send, status_of=modern_status, keepalive=keepalive, headers=[],
        on_leave=_cancel, on_stop=on_stop, backlog=backlog, overflow=overflow or b"",
    )  # fmt: skip
