"""The Streamable HTTP transport: an ASGI application serving one MCP endpoint (``/mcp``).

Both eras are served on the same endpoint, chosen per request as the specification says:

* a request whose ``params._meta`` names a protocol version (2026-07-28) is served statelessly,
  by whichever process receives it; its ``MCP-Protocol-Version``, ``Mcp-Method`` and ``Mcp-Name``
  headers must agree with the body (else 400, error -32020);
* ``initialize`` (2025-03-26 to 2025-11-25, and 2024-11-05 clients that speak Streamable HTTP)
  starts a session: the response carries ``Mcp-Session-Id``, later requests carry it back, an
  unknown session gets 404 and DELETE ends one. Sessions live in the memory of one process.

A request is answered with JSON, or with an SSE stream when it sends notifications (progress, log
messages) before its result. GET answers 405: this server never sends messages of its own accord.

>>> import mcplite
>>> app = mcplite.McpServer("demo").asgi_app()
>>> app.path
'/mcp'

Run it with any ASGI server (``uvicorn module:app``), or with ``server.run(transport="http")``.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import math
from collections.abc import Awaitable, Callable, Iterable
from typing import TYPE_CHECKING, Any

from mcplite.dispatch import PROTOCOL_VERSION_KEY, Answer, Connection
from mcplite.http_exchange import (
    Inbox,
    Receive,
    Scope,
    Send,
    json_body,
    send_response,
    stream_answer,
    watch_disconnect,
)
from mcplite.http_headers import (
    HEADER_MISMATCH,
    PROTOCOL_VERSION_HEADER,
    SESSION_HEADER,
    OriginPolicy,
    accepts,
    bearer_token,
    check_routing_headers,
    header_map,
    is_json,
)
from mcplite.http_sessions import Session, SessionLimit, SessionStore
from mcplite.jsonrpc import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    PARSE_ERROR,
    UNSUPPORTED_PROTOCOL_VERSION,
    RequestId,
    RpcError,
    error_response,
    is_request_id,
    parse_message,
)
from mcplite.projection import LEGACY_VERSIONS, MODERN_VERSIONS

if TYPE_CHECKING:
    from mcplite.server import McpServer

log = logging.getLogger("mcplite.server")

Authenticate = Callable[[str], "bool | Awaitable[bool]"]
"""A bearer token in, whether it is valid out (a plain or an async function)."""

_MODERN_STATUS = {
    PARSE_ERROR: 400,
    INVALID_REQUEST: 400,
    INVALID_PARAMS: 400,
    HEADER_MISMATCH: 400,
    UNSUPPORTED_PROTOCOL_VERSION: 400,
    METHOD_NOT_FOUND: 404,
}
"""2026-07-28: the HTTP status of a JSON-RPC error (anything else, results included, is 200)."""

_ALLOW = [(b"allow", b"POST, DELETE")]


def _modern_status(answer: Answer) -> int:
    return 200 if answer.error_code is None else _MODERN_STATUS.get(answer.error_code, 200)


def _legacy_status(answer: Answer) -> int:
    # legacy clients read 404 as "session gone", so only unreadable messages get an HTTP error
    return 400 if answer.error_code in (PARSE_ERROR, INVALID_REQUEST) else 200


def _discard(line: bytes) -> None:
    """The connection-wide output of an HTTP connection: unused, every answer has its own channel."""


def _first(headers: dict[str, list[str]], name: str) -> str | None:
    values = headers.get(name)
    return values[0] if values else None


def _meta_version(message: Any) -> tuple[bool, Any]:
    """Whether a message names a protocol version in ``params._meta`` (2026-07-28), and which."""
    params = message.get("params") if isinstance(message, dict) else None
    meta = params.get("_meta") if isinstance(params, dict) else None
    if isinstance(meta, dict) and PROTOCOL_VERSION_KEY in meta:
        return True, meta[PROTOCOL_VERSION_KEY]
    return False, None


def _is_request(message: Any) -> bool:
    return isinstance(message, dict) and "method" in message and "id" in message


def _owes_answer(message: Any) -> bool:
    if isinstance(message, list):
        return any(_is_request(item) for item in message)
    return _is_request(message)


def _request_id(message: Any) -> RequestId | None:
    request_id = message.get("id") if isinstance(message, dict) else None
    return request_id if is_request_id(request_id) else None


class _ClientGone(Exception):
    """The client disconnected before its request was read: there is nobody to answer."""


class _HttpError(Exception):
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


class McpHttpApp:
    """The ASGI application of one :class:`~mcplite.McpServer` (``server.asgi_app()`` makes one).

    ``allowed_origins`` adds browser origins to the loopback ones always allowed (``"*"``: any);
    ``authenticate`` checks the bearer token of every request (401 without a valid one); a legacy
    session ends after ``session_idle_timeout`` idle seconds, and at most ``max_sessions`` exist
    at once; an SSE stream carries a keep-alive comment every ``sse_keepalive`` seconds.
    """

    def __init__(
        self,
        server: McpServer,
        *,
        path: str = "/mcp",
        allowed_origins: Iterable[str] = (),
        authenticate: Authenticate | None = None,
        session_idle_timeout: float = 3600.0,
        max_sessions: int = 10_000,
        sse_keepalive: float = 15.0,
    ) -> None:
        if not isinstance(path, str) or not path.startswith("/"):
            raise ValueError(f"asgi_app: path must start with '/', not {path!r}")
        if authenticate is not None and not callable(authenticate):
            raise TypeError(f"asgi_app: authenticate must be a function of the token, not {authenticate!r}")
        if not sse_keepalive > 0:
            raise ValueError(
                f"asgi_app: sse_keepalive must be a positive number of seconds, not {sse_keepalive!r}"
            )
        self.server = server
        self.path = path
        self.origins = OriginPolicy(allowed_origins)
        self.authenticate = authenticate
        self.sessions = SessionStore(idle_timeout=session_idle_timeout, max_sessions=max_sessions)
        self.sse_keepalive = sse_keepalive
        self._background: set[asyncio.Task[Any]] = set()

    def __repr__(self) -> str:
        return f"McpHttpApp({self.server.name!r}, path={self.path!r}, sessions={len(self.sessions)})"

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            try:
                await self._http(scope, receive, send)
            except _HttpError as err:
                await send_response(send, err.status, err.body(), err.headers)
            except _ClientGone:
                pass
        elif scope["type"] == "lifespan":
            await self._lifespan(receive, send)
        elif scope["type"] == "websocket":
            await send({"type": "websocket.close", "code": 1008})

    async def _lifespan(self, receive: Receive, send: Send) -> None:
        while True:
            message = await receive()
            if message["type"] == "lifespan.startup":
                await send({"type": "lifespan.startup.complete"})
            elif message["type"] == "lifespan.shutdown":
                self.sessions.end_all()
                await send({"type": "lifespan.shutdown.complete"})
                return

    # -- checks every request passes -------------------------------------------------------------------

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        path = scope.get("path", "")
        if path not in (self.path, scope.get("root_path", "") + self.path):
            raise _HttpError(404, INVALID_REQUEST, f"Not Found: the MCP endpoint is {self.path}")
        headers = header_map(scope.get("headers", []))
        origin = _first(headers, "origin")
        if not self.origins.allows(origin):
            log.warning("refused a request from origin %r", origin)
            raise _HttpError(403, INVALID_REQUEST, f"Forbidden: origin {origin!r:.200} is not allowed")
        token = await self._authenticated(headers)
        method = scope.get("method")
        if method == "POST":
            await self._post(headers, token, receive, send)
        elif method == "DELETE":
            self._delete(headers, token)
            await send_response(send, 204)
        else:
            raise _HttpError(
                405,
                INVALID_REQUEST,
                f"Method Not Allowed: {method} (the MCP endpoint takes POST)",
                headers=_ALLOW,
            )

    async def _authenticated(self, headers: dict[str, list[str]]) -> str | None:
        """The request's bearer token when ``authenticate`` accepts it (None without authentication)."""
        if self.authenticate is None:
            return None
        token = bearer_token(_first(headers, "authorization"))
        challenge = 'Bearer realm="mcp"'
        if token is not None:
            try:
                valid = self.authenticate(token)
                if inspect.isawaitable(valid):
                    valid = await valid
            except Exception:
                log.exception("authenticate raised")
                raise _HttpError(
                    500, INTERNAL_ERROR, "Internal Server Error: authentication failed"
                ) from None
            if valid is True:
                return token
            challenge += ', error="invalid_token"'
        raise _HttpError(
            401,
            INVALID_REQUEST,
            "Unauthorized: send a valid bearer token (Authorization: Bearer <token>)",
            headers=[(b"www-authenticate", challenge.encode())],
        )

    async def _read_body(self, headers: dict[str, list[str]], receive: Receive) -> bytes:
        limit = self.server.max_message_size
        too_large = _HttpError(
            413, INVALID_REQUEST, f"Content Too Large: a message may hold at most {limit} bytes"
        )
        declared = _first(headers, "content-length")
        if declared is not None and declared.isdigit() and int(declared) > limit:
            raise too_large
        parts: list[bytes] = []
        size = 0
        while True:
            message = await receive()
            if message["type"] == "http.disconnect":
                raise _ClientGone
            part = message.get("body", b"")
            size += len(part)
            if size > limit:
                raise too_large
            parts.append(part)
            if not message.get("more_body", False):
                return b"".join(parts)

    # -- POST: one message ----------------------------------------------------------------------------

    async def _post(
        self, headers: dict[str, list[str]], token: str | None, receive: Receive, send: Send
    ) -> None:
        if not accepts(_first(headers, "accept")):
            raise _HttpError(
                406, INVALID_REQUEST, "Not Acceptable: accept both application/json and text/event-stream"
            )
        if not is_json(_first(headers, "content-type")):
            raise _HttpError(
                415, INVALID_REQUEST, "Unsupported Media Type: send Content-Type: application/json"
            )
        body = await self._read_body(headers, receive)
        try:
            message = parse_message(body)
        except RpcError as err:
            raise _HttpError(400, err.code, err.message) from None
        if not isinstance(message, (dict, list)):
            raise _HttpError(400, INVALID_REQUEST, "Invalid Request: a message is a JSON object")
        version_header = _first(headers, PROTOCOL_VERSION_HEADER)
        modern, version = _meta_version(message)
        if modern and isinstance(message, dict):
            try:
                check_routing_headers(headers, message, version)
            except RpcError as err:
                raise _HttpError(400, err.code, err.message, request_id=_request_id(message)) from None
            await self._exchange(Connection(self.server, _discard), message, receive, send, modern=True)
        elif version_header in MODERN_VERSIONS:
            await self._modern_without_meta(message, version_header, receive, send)
        else:
            await self._legacy(message, headers, version_header, token, receive, send)

    async def _modern_without_meta(self, message: Any, version: str, receive: Receive, send: Send) -> None:
        if isinstance(message, dict) and "id" not in message:
            await send_response(send, 202)  # 2026-07-28 defines no notifications over HTTP: nothing to do
        elif not isinstance(message, dict):
            await self._exchange(Connection(self.server, _discard), message, receive, send, modern=True)
        else:
            raise _HttpError(
                400,
                HEADER_MISMATCH,
                f"Header mismatch: the MCP-Protocol-Version header says {version!r} but params._meta names "
                f"no protocol version (put it in params._meta[{PROTOCOL_VERSION_KEY!r}])",
                request_id=_request_id(message),
            )

    async def _legacy(
        self,
        message: Any,
        headers: dict[str, list[str]],
        version: str | None,
        token: str | None,
        receive: Receive,
        send: Send,
    ) -> None:
        if version is not None and version not in LEGACY_VERSIONS:
            raise _HttpError(
                400,
                INVALID_REQUEST,
                f"Bad Request: unsupported MCP-Protocol-Version {version!r:.80}",
                request_id=_request_id(message),
                data={"supported": [*MODERN_VERSIONS, *reversed(LEGACY_VERSIONS)]},
            )
        if _is_request(message) and message["method"] == "initialize":
            await self._initialize(message, token, send)
            return
        session = self._session(headers, token, _request_id(message))
        if version is not None and version != session.connection.protocol_version:
            raise _HttpError(
                400,
                INVALID_REQUEST,
                f"Bad Request: the MCP-Protocol-Version header says {version!r} but this session "
                f"uses {session.connection.protocol_version!r}",
                request_id=_request_id(message),
            )
        session.exchanges += 1
        try:
            await self._exchange(
                session.connection, message, receive, send, modern=False, session_id=session.id
            )
        finally:
            session.exchanges -= 1

    async def _initialize(self, message: dict[str, Any], token: str | None, send: Send) -> None:
        connection = Connection(self.server, _discard)
        answer = await connection.respond(message, _discard)
        assert answer is not None  # initialize is answered at once
        fields: list[tuple[bytes, bytes]] = []
        if answer.error_code is None:
            try:
                session = self.sessions.create(connection, token)
            except SessionLimit as err:
                raise _HttpError(
                    503,
                    INTERNAL_ERROR,
                    f"Service Unavailable: {err}; try again later",
                    request_id=_request_id(message),
                    headers=[(b"retry-after", b"10")],
                ) from None
            fields.append((SESSION_HEADER.encode(), session.id.encode()))
        await send_response(send, _legacy_status(answer), answer.data.rstrip(b"\n"), fields)

    def _session(
        self, headers: dict[str, list[str]], token: str | None, request_id: RequestId | None
    ) -> Session:
        session_id = _first(headers, SESSION_HEADER)
        if session_id is None:
            raise _HttpError(
                400,
                INVALID_REQUEST,
                "Bad Request: no Mcp-Session-Id header; send initialize first, or name a protocol version "
                f"in params._meta[{PROTOCOL_VERSION_KEY!r}] ({', '.join(MODERN_VERSIONS)})",
                request_id=request_id,
            )
        session = self.sessions.get(session_id, token)
        if session is None:
            raise _HttpError(
                404,
                INVALID_REQUEST,
                "Not Found: no such session (it ended, or lives in another server process); "
                "send initialize to start a new one",
                request_id=request_id,
            )
        return session

    def _delete(self, headers: dict[str, list[str]], token: str | None) -> None:
        session = self._session(headers, token, None)
        self.sessions.end(session.id)

    # -- answering ------------------------------------------------------------------------------------

    async def _exchange(
        self,
        connection: Connection,
        message: Any,
        receive: Receive,
        send: Send,
        *,
        modern: bool,
        session_id: str | None = None,
    ) -> None:
        """Answer one message with JSON or SSE; a client that leaves cancels a 2026-07-28 request.

        A legacy call whose client left runs on (a legacy client cancels with
        ``notifications/cancelled``, and may do so on its session); its result is dropped.
        """
        loop = asyncio.get_running_loop()
        inbox = Inbox(loop)
        work = loop.create_task(connection.respond(message, inbox.notify))
        work.add_done_callback(inbox.answered)
        watcher = loop.create_task(watch_disconnect(receive, inbox))
        fields = [] if session_id is None else [(SESSION_HEADER.encode(), session_id.encode())]
        try:
            await stream_answer(
                inbox,
                send,
                status_of=_modern_status if modern else _legacy_status,
                headers=fields,
                keepalive=self.sse_keepalive,
                answer_owed=_owes_answer(message),
            )
        finally:
            watcher.cancel()
            if not work.done():  # the client left (or the server is stopping) before the answer
                if modern:
                    log.info("client left before its answer; cancelling request %r", _request_id(message))
                    work.cancel()
                else:
                    log.info("client left before its answer; request %r runs on", _request_id(message))
                    self._background.add(work)
                    work.add_done_callback(self._background.discard)


def serve_http(
    app: McpHttpApp,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    shutdown_grace: float = 5.0,
    log_level: str = "info",
) -> None:
    """Serve the app on uvicorn until SIGINT or SIGTERM (blocking); needs the ``http`` extra.

    Requests in flight get ``shutdown_grace`` seconds to finish.
    """
    try:
        import uvicorn
    except ImportError:
        raise RuntimeError("serving over HTTP needs uvicorn: pip install 'rvalues-mcplite[http]'") from None
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ValueError(f"port must be an integer from 0 to 65535, not {port!r}")
    mcplite_log = logging.getLogger("mcplite")
    if not mcplite_log.handlers and not logging.getLogger().handlers:
        handler = logging.StreamHandler()
        handler.setFormatter(logging.Formatter("%(asctime)s %(name)s %(levelname)s: %(message)s"))
        mcplite_log.addHandler(handler)
        mcplite_log.setLevel(logging.INFO)
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        timeout_graceful_shutdown=max(0, math.ceil(shutdown_grace)),
        lifespan="on",
    )
