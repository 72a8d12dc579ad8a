"""The checks an HTTP request passes before it reaches the protocol: path, Origin, bearer token,
media types and body size. Each refusal is an :class:`HttpError` (a status and a JSON-RPC error).

>>> first({"accept": ["application/json"]}, "accept")
'application/json'
"""

from __future__ import annotations

import asyncio
import inspect
import logging
from collections.abc import Awaitable, Callable, Iterable
from typing import Any

from mcplite.protocol.checks import quoted
from mcplite.protocol.jsonrpc import INTERNAL_ERROR, INVALID_REQUEST, RequestId, RpcError, error_response
from mcplite.transports.http.asgi import Receive, Scope
from mcplite.transports.http.exchange import json_body
from mcplite.transports.http.headers import (
    HostPolicy,
    OriginPolicy,
    accepts,
    bearer_token,
    is_json,
    is_loopback,
)

log = logging.getLogger("mcplite.server")

Authenticate = Callable[[str], "bool | Awaitable[bool]"]
"""A bearer token in, whether it is valid out (a plain or an async function)."""


class ClientGone(Exception):
    """The client disconnected before its request was read: there is nobody to answer."""


class HttpError(Exception):
    """A request refused before it reaches the protocol: an HTTP status and a JSON-RPC error."""

    def __init__(
        self,
        status: int,
        code: int,
        message: str,
        *,
        request_id: RequestId | None = None,
        data: Any = None,
        headers: Iterable[tuple[bytes, bytes]] = (),
    ) -> None:
        super().__init__(message)
        self.status = status
        self.error = RpcError(code, message, data)
        self.request_id = request_id
        self.headers = list(headers)

    def body(self) -> bytes:
        return json_body(error_response(self.request_id, self.error))


def first(headers: dict[str, list[str]], name: str) -> str | None:
    """The first value of a header (None when it is absent)."""
    values = headers.get(name)
    return values[0] if values else None


def check_path(scope: Scope, path: str) -> None:
    if scope.get("path", "") not in (path, scope.get("root_path", "") + path):
        raise HttpError(404, INVALID_REQUEST, f"Not Found: the MCP endpoint is {path}")


def check_origin(headers: dict[str, list[str]], origins: OriginPolicy) -> None:
    origin = first(headers, "origin")
    if not origins.allows(origin):
        log.warning("refused a request from origin %r", origin)
        raise HttpError(403, INVALID_REQUEST, f"Forbidden: origin {origin!r:.200} is not allowed")


def check_host(scope: Scope, headers: dict[str, list[str]], hosts: HostPolicy) -> None:
    """Refuse (421) a request that arrived on a loopback address but is addressed to a foreign host
    name (DNS rebinding), whether the server listens on loopback alone or on every interface."""
    server = scope.get("server")
    if not server or not isinstance(server[0], str) or not is_loopback(server[0]):
        return
    host = first(headers, "host")
    if not hosts.allows(host):
        log.warning("refused a request for host %s", quoted(host))
        raise HttpError(
            421,
            INVALID_REQUEST,
            f"Misdirected Request: host {quoted(host)} is not a name of this server; a request arriving "
            f"on its loopback address {server[0]} must name a loopback host or one in allowed_hosts "
            "(as a server behind a proxy lists its public names)",
        )


async def read_body(headers: dict[str, list[str]], receive: Receive, limit: int, timeout: float) -> bytes:
    """The request body, refused beyond ``limit`` bytes (413) or when it has not all arrived after
    ``timeout`` seconds (408: a client trickling its body in holds a connection open)."""
    try:
        async with asyncio.timeout(timeout):
            return await _read_body(headers, receive, limit)
    except TimeoutError:
        raise HttpError(
            408, INVALID_REQUEST, f"Request Timeout: the body did not arrive within {timeout:g} s"
        ) from None


def check_media_types(headers: dict[str, list[str]]) -> None:
    if not accepts(first(headers, "accept")):
        raise HttpError(
            406, INVALID_REQUEST, "Not Acceptable: accept both application/json and text/event-stream"
        )
    if not is_json(first(headers, "content-type")):
        raise HttpError(415, INVALID_REQUEST, "Unsupported Media Type: send Content-Type: application/json")


async def authenticated(headers: dict[str, list[str]], authenticate: Authenticate | None) -> str | None:
    """The request's bearer token when ``authenticate`` accepts it (None without authentication)."""
    if authenticate is None:
        return None
    token = bearer_token(first(headers, "authorization"))
    challenge = 'Bearer realm="mcp"'
    if token is not None:
        try:
            valid = authenticate(token)
            if inspect.isawaitable(valid):
                valid = await valid
        except Exception:
            log.exception("authenticate raised")
            raise HttpError(500, INTERNAL_ERROR, "Internal Server Error: authentication failed") from None
        if valid is True:
            return token
        challenge += ', error="invalid_token"'
    raise HttpError(
        401,
        INVALID_REQUEST,
        "Unauthorized: send a valid bearer token (Authorization: Bearer <token>)",
        headers=[(b"www-authenticate", challenge.encode())],
    )


async def _read_body(headers: dict[str, list[str]], receive: Receive, limit: int) -> bytes:
    too_large = HttpError(
        413, INVALID_REQUEST, f"Content Too Large: a message may hold at most {limit} bytes"
    )
    declared = first(headers, "content-length")
    if declared is not None and declared.isdigit() and int(declared) > limit:
        raise too_large
    parts: list[bytes] = []
    size = 0
    while True:
        message = await receive()
        if message["type"] == "http.disconnect":
            raise ClientGone
        part = message.get("body", b"")
        size += len(part)
        if size > limit:
            raise too_large
        parts.append(part)
        if not message.get("more_body", False):
            return b"".join(parts)
