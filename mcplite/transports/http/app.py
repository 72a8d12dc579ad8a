"""The Streamable HTTP transport: an ASGI application serving one MCP endpoint (``/mcp``).

Both eras are served on the same endpoint, chosen per request as the specification says:

* a request whose ``params._meta`` names a protocol version (2026-07-28) is served statelessly
  (:mod:`mcplite.transports.http.modern`);
* ``initialize`` and the requests of the session it starts are the legacy era
  (:mod:`mcplite.transports.http.legacy`). Sessions live in the memory of one process.

A request is answered with JSON, or with an SSE stream when it sends notifications (progress, log
messages) before its result. GET opens a legacy session's own stream, which carries what the
server sends of its accord (resource list changes and updates).

>>> import mcplite
>>> app = mcplite.McpServer("demo").asgi_app()
>>> app.path
'/mcp'

Run it with any ASGI server (``uvicorn module:app``), or with ``server.run(transport="http")``.
"""

from __future__ import annotations

from typing import Any, Protocol

import attrs

from mcplite.engine.handlers import Engine
from mcplite.engine.listening import BEARER_TOKEN
from mcplite.protocol.jsonrpc import INVALID_REQUEST, RpcError, parse_message, request_id_of
from mcplite.protocol.request_state import principal_of
from mcplite.protocol.versions import MODERN_VERSIONS
from mcplite.transports.http.asgi import Receive, Scope, Send
from mcplite.transports.http.events import MemoryEventStore, Resumption
from mcplite.transports.http.exchange import send_response
from mcplite.transports.http.guards import (
    ClientGone,
    HttpError,
    authenticated,
    check_host,
    check_media_types,
    check_origin,
    check_path,
    first,
    read_body,
)
from mcplite.transports.http.headers import PROTOCOL_VERSION_HEADER, HostPolicy, OriginPolicy, header_map
from mcplite.transports.http.legacy import LegacyEra
from mcplite.transports.http.modern import meta_version, serve_modern, serve_modern_without_meta
from mcplite.transports.http.options import HttpOptions
from mcplite.transports.http.sessions import SessionStore

_ALLOW = [(b"allow", b"GET, POST, DELETE")]


class HasEngine(Protocol):
    """What serves an engine (the :class:`~mcplite.McpServer` facade does)."""

    @property
    def engine(self) -> Engine: ...


PARSE_OFF_LOOP_ABOVE = 256 << 10
"""Request bodies larger than this (256 KiB) are parsed in a worker thread, not on the event loop."""


class McpHttpApp:
    """The ASGI application of one server's engine (``server.asgi_app()`` makes one).

    ``target`` is an engine, or what has one (an :class:`~mcplite.McpServer`); the keyword
    arguments are those of :class:`~mcplite.transports.http.options.HttpOptions` (``path``,
    ``allowed_origins``, ``allowed_hosts``, ``authenticate``, ``session_idle_timeout``,
    ``max_sessions``, ``max_sessions_per_token``, ``sse_keepalive``, ``body_timeout``), or pass
    ``options`` whole.
    """

    def __init__(
        self, target: Engine | HasEngine, options: HttpOptions | None = None, **settings: Any
    ) -> None:
        self.options = attrs.evolve(options or HttpOptions(), **settings)
        self.engine = target if isinstance(target, Engine) else target.engine
        self.path = self.options.path
        self.origins = OriginPolicy(self.options.allowed_origins)
        self.hosts = HostPolicy(self.options.allowed_hosts)
        self.sessions = SessionStore(
            idle_timeout=self.options.session_idle_timeout,
            max_sessions=self.options.max_sessions,
            max_per_token=self.options.max_sessions_per_token,
        )
        store = self.options.event_store
        resumption = Resumption(
            MemoryEventStore() if store is None else store, round(self.options.sse_retry * 1000)
        )
        self._legacy = LegacyEra(self.engine, self.sessions, self.options.sse_keepalive, resumption)

    def __repr__(self) -> str:
        name = self.engine.server_info.name
        return f"McpHttpApp({name!r}, path={self.path!r}, sessions={len(self.sessions)})"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            try:
                await self._http(scope, receive, send)
            except HttpError as err:
                await send_response(send, err.status, err.body(), err.headers)
            except ClientGone:
                pass
        elif scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                try:
                    await self.engine.offer.lifespan.start()
                except Exception as err:  # the server reports it and does not start
                    await send({"type": "lifespan.startup.failed", "message": str(err)})
                    return
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.sessions.end_all()
                self._legacy.end_streams()
                await self.engine.offer.lifespan.stop()
                await send({"type": "lifespan.shutdown.complete"})
                return

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        check_path(scope, self.path)
        headers = header_map(scope.get("headers", []))
        check_origin(headers, self.origins)  # first: a bad Origin MUST be 403 (2025-11-25), whatever the Host
        check_host(scope, headers, self.hosts)
        token = await authenticated(headers, self.options.authenticate)
        BEARER_TOKEN.set(token)  # this request's task only: its listens count against the token's
        method = scope.get("method")
        if method == "POST":
            await self._post(headers, token, receive, send)
        elif method == "DELETE":
            self._legacy.delete(headers, token)
            await send_response(send, 204)
        elif method == "GET":
            await self._legacy.listen(headers, token, receive, send)
        else:
            raise HttpError(
                405,
                INVALID_REQUEST,
                f"Method Not Allowed: {method} (the MCP endpoint takes POST)",
                headers=_ALLOW,
            )

    async def _post(
        self, headers: dict[str, list[str]], token: str | None, receive: Receive, send: Send
    ) -> None:
        check_media_types(headers)
        body = await read_body(headers, receive, self.engine.max_message_size, self.options.body_timeout)
        try:
            if len(body) > PARSE_OFF_LOOP_ABOVE:  # a large body would hold up every other client
                message = await self.engine.workers.run(parse_message, body)
            else:
                message = parse_message(body)
        except RpcError as err:
            raise HttpError(400, err.code, err.message, request_id=request_id_of(err)) from None
        if not isinstance(message, (dict, list)):
            raise HttpError(400, INVALID_REQUEST, "Invalid Request: a message is a JSON object")
        version_header = first(headers, PROTOCOL_VERSION_HEADER)
        modern, version = meta_version(message)
        keepalive = self.options.sse_keepalive
        if modern and isinstance(message, dict):
            await serve_modern(
                self.engine, headers, message, version, receive, send,
                keepalive=keepalive, principal=principal_of(token),
            )  # fmt: skip
        elif version_header in MODERN_VERSIONS:
            await serve_modern_without_meta(
                self.engine, message, version_header, receive, send, keepalive=keepalive
            )
        else:
            await self._legacy.serve(message, headers, version_header, token, receive, send)
