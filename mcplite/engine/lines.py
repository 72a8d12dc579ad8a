"""Response lines: a handler's result stamped for its era and written as one JSON-RPC line.

From 2026-07-28 every result says it is complete and names the server in ``_meta``. Members a
handler wrote already (:class:`~mcplite.engine.handlers.Written`) go into the line as bytes.

>>> from mcplite.protocol.jsonrpc import RpcError
>>> error_line(3, RpcError(-32601, "Method not found: x"))
b'{"jsonrpc":"2.0","id":3,"error":{"code":-32601,"message":"Method not found: x"}}\\n'
"""

from __future__ import annotations

import logging
from typing import Any

from mcplite.engine.handlers import Request, Result, Written
from mcplite.protocol.jsonrpc import (
    INTERNAL_ERROR,
    RequestId,
    RpcError,
    encode_line,
    encode_result_line,
    error_response,
)
from mcplite.protocol.versions import SERVER_INFO_KEY

log = logging.getLogger("mcplite.server")


def encode(message: dict[str, Any]) -> bytes:
    """One message as a line; an answer that is not strict JSON becomes an internal error."""
    try:
        return encode_line(message)
    except ValueError as err:
        return _not_json(message.get("id"), err)


def error_line(request_id: RequestId | None, error: RpcError) -> bytes:
    """A JSON-RPC error response line."""
    return encode_line(error_response(request_id, error))


def _not_json(request_id: RequestId | None, err: ValueError) -> bytes:
    log.error("could not encode a message: %s", err)
    return error_line(
        request_id, RpcError(INTERNAL_ERROR, f"Internal error: the answer is not valid JSON ({err})")
    )


def stamp(result: dict[str, Any], request: Request) -> dict[str, Any]:
    """From 2026-07-28 every result says it is complete and names the server."""
    if request.era != "modern":
        return result
    result.setdefault("resultType", "complete")
    meta = dict(result.get("_meta") or {})
    meta.setdefault(SERVER_INFO_KEY, request.engine.server_info_wire(request.version))
    result["_meta"] = meta
    return result


def result_line(request: Request, result: Result) -> bytes:
    """The response line of ``request`` carrying ``result`` (stamped for its era)."""
    if isinstance(result, Written):
        head = stamp(result.result, request)
        try:
            return encode_result_line(request.id, head, result.raw)
        except ValueError as err:
            return _not_json(request.id, err)
    return encode({"jsonrpc": "2.0", "id": request.id, "result": stamp(result, request)})
