"""The legacy era over HTTP (2025-03-26 to 2025-11-25, and 2024-11-05 clients that speak
Streamable HTTP): ``initialize`` starts a session whose id the response carries in
``Mcp-Session-Id``; later requests carry it back, an unknown session gets 404 and DELETE ends one.
GET opens the session's own SSE stream, for what the server sends of its accord (resource list
changes and updates; :mod:`mcplite.transports.http.stream`); a second GET gets 409.
A request whose client leaves runs on (its result is dropped): a legacy client cancels with
``notifications/cancelled``. What a tool asks the client (``ctx.elicit``...) goes out on the
POST's SSE stream; the client POSTs its response to the session (answered 202). At 2025-11-25 a
POST's SSE response is resumable (:mod:`mcplite.transports.http.events`): a GET with
``Last-Event-ID`` replays the rest of it, the asks included. A client that leaves a stream it
cannot resume ends the asks of its request; otherwise ``ask_timeout`` bounds them.
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from mcplite.engine.connection import Answer, Connection
from mcplite.engine.handlers import Engine
from mcplite.protocol.jsonrpc import INTERNAL_ERROR, INVALID_REQUEST, PARSE_ERROR, RequestId
from mcplite.protocol.versions import LEGACY_VERSIONS, MODERN_VERSIONS, PROTOCOL_VERSION_KEY, since
from mcplite.transports.http.asgi import Receive, Send
from mcplite.transports.http.events import SSE_RESUMABLE_SINCE, ResumableStream, Resumption
from mcplite.transports.http.exchange import (
    SSE_HEADERS,
    exchange,
    is_request,
    request_id,
    send_response,
)
from mcplite.transports.http.guards import HttpError, first
from mcplite.transports.http.headers import LAST_EVENT_ID_HEADER, SESSION_HEADER
from mcplite.transports.http.modern import discard
from mcplite.transports.http.sessions import Session, SessionLimit, SessionStore
from mcplite.transports.http.stream import ServerStream

log = logging.getLogger("mcplite.server")


def legacy_status(answer: Answer) -> int:
    # legacy clients read 404 as "session gone", so only unreadable messages get an HTTP error
    return 400 if answer.error_code in (PARSE_ERROR, INVALID_REQUEST) else 200


class LegacyEra:
    """The sessions of one endpoint, and the requests that run on after their client left."""

    def __init__(
        self, engine: Engine, sessions: SessionStore, keepalive: float, resumption: Resumption | None = None
    ) -> None:
        self.engine = engine
        self.sessions = sessions
        self.keepalive = keepalive
        self.resumption = resumption
        self._background: set[asyncio.Task[Any]] = set()
        self._streams: dict[str, ServerStream] = {}
        """Each session's own stream, by session id."""

    async def serve(
        self,
        message: Any,
        headers: dict[str, list[str]],
        version: str | None,
        token: str | None,
        receive: Receive,
        send: Send,
    ) -> None:
        if version is not None and version not in LEGACY_VERSIONS:
            raise HttpError(
                400,
                INVALID_REQUEST,
                f"Bad Request: unsupported MCP-Protocol-Version {version!r:.80}",
                request_id=request_id(message),
                data={"supported": [*MODERN_VERSIONS, *reversed(LEGACY_VERSIONS)]},
            )
        if is_request(message) and message["method"] == "initialize":
            await self._initialize(message, token, send)
            return
        # A supported version other than the negotiated one is served under the negotiated one: the
        # header SHOULD name it (2025-11-25), but only an unsupported one MUST be refused (above).
        session = self.session(headers, token, request_id(message))
        session.exchanges += 1
        fields = [(SESSION_HEADER.encode(), session.id.encode())]
        resumable = self._resumable(session)
        try:
            await exchange(
                session.connection,
                message,
                receive,
                send,
                status_of=legacy_status,
                keepalive=self.keepalive,
                headers=fields,
                on_leave=lambda work, request: self._run_on(session.connection, work, request, resumable),
                resumable=resumable,
            )
        finally:
            session.exchanges -= 1

    def _resumable(self, session: Session) -> ResumableStream | None:
        """A resumable stream for a POST of ``session``, where its version has them (2025-11-25)."""
        version = session.connection.protocol_version
        if self.resumption is None or version is None or not since(version, SSE_RESUMABLE_SINCE):
            return None
        return self.resumption.stream(session.id)

    def _run_on(
        self,
        connection: Connection,
        work: asyncio.Task[Answer | None],
        request: RequestId | None,
        resumable: ResumableStream | None,
    ) -> None:
        log.info(
            "connection closed before its answer (client gone or server stopping): request %r runs on",
            request,
        )
        if request is not None and resumable is None:
            # what it asks the client can no longer reach it (a resumed stream would replay it)
            connection.cancel_asks(request)
        self._background.add(work)
        work.add_done_callback(self._background.discard)

    async def _initialize(self, message: dict[str, Any], token: str | None, send: Send) -> None:
        stream = ServerStream(asyncio.get_running_loop())
        connection = Connection(self.engine, stream.write)
        answer = await connection.respond(message, discard)
        assert answer is not None  # initialize is answered at once
        fields: list[tuple[bytes, bytes]] = []
        if answer.error_code is None:
            try:
                session = self.sessions.create(connection, token)
            except SessionLimit as err:
                raise HttpError(
                    503,
                    INTERNAL_ERROR,
                    f"Service Unavailable: {err}; try again later",
                    request_id=request_id(message),
                    headers=[(b"retry-after", b"10")],
                ) from None
            fields.append((SESSION_HEADER.encode(), session.id.encode()))
            self._forget_ended()
            self._streams[session.id] = stream
        await send_response(send, legacy_status(answer), answer.data.rstrip(b"\n"), fields)

    def session(self, headers: dict[str, list[str]], token: str | None, request: RequestId | None) -> Session:
        """The session a request names, or the HttpError for a missing or unknown one."""
        session_id = first(headers, SESSION_HEADER)
        if session_id is None:
            raise HttpError(
                400,
                INVALID_REQUEST,
                "Bad Request: no Mcp-Session-Id header; send initialize first, or name a protocol version "
                f"in params._meta[{PROTOCOL_VERSION_KEY!r}] ({', '.join(MODERN_VERSIONS)})",
                request_id=request,
            )
        session = self.sessions.get(session_id, token)
        if session is None:
            raise HttpError(
                404,
                INVALID_REQUEST,
                "Not Found: no such session (it ended, or lives in another server process); "
                "send initialize to start a new one",
                request_id=request,
            )
        return session

    def delete(self, headers: dict[str, list[str]], token: str | None) -> None:
        """DELETE: end the session the request names."""
        session_id = self.session(headers, token, None).id
        self.sessions.end(session_id)
        stream = self._streams.pop(session_id, None)
        if stream is not None:
            stream.end()

    async def listen(
        self, headers: dict[str, list[str]], token: str | None, receive: Receive, send: Send
    ) -> None:
        """GET: the session's own SSE stream, open until the client leaves or the session ends; with
        ``Last-Event-ID``, the rest of the POST stream that event belongs to."""
        session = self.session(headers, token, None)
        last_event_id = first(headers, LAST_EVENT_ID_HEADER)
        if last_event_id is not None:
            await self._resume(session, last_event_id, receive, send)
            return
        stream = self._streams.get(session.id)
        if stream is None or stream.open:
            raise HttpError(409, INVALID_REQUEST, "Conflict: this session's stream is open already")
        session.exchanges += 1  # a session with its stream open is not idle
        try:
            await stream.serve(
                receive,
                send,
                [(SESSION_HEADER.encode(), session.id.encode())],
                keepalive=self.keepalive,
                alive=lambda: session.id in self.sessions,
            )
        finally:
            session.exchanges -= 1

    async def _resume(self, session: Session, last_event_id: str, receive: Receive, send: Send) -> None:
        fields = [(SESSION_HEADER.encode(), session.id.encode()), *SSE_HEADERS]
        session.exchanges += 1
        try:
            replayed = self.resumption is not None and await self.resumption.replay(
                session.id,
                last_event_id.strip(),
                send,
                receive,
                fields,
                keepalive=self.keepalive,
                alive=lambda: session.id in self.sessions,
            )
        finally:
            session.exchanges -= 1
        if not replayed:
            raise HttpError(
                400,
                INVALID_REQUEST,
                f"Bad Request: Last-Event-ID {last_event_id!r:.80} names no event this server keeps for "
                "the session (its stream cannot be resumed)",
            )

    def _forget_ended(self) -> None:
        for session_id in [s for s in self._streams if s not in self.sessions]:
            self._streams.pop(session_id).end()

    def end_streams(self) -> None:
        """Close every open stream (the server is stopping)."""
        for stream in self._streams.values():
            stream.end()
        self._streams.clear()
