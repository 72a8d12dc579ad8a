"""One HTTP request's answer: a JSON body, or an SSE stream when notifications come first.

The answer is sent as ``application/json`` if it is ready before the request causes any
notification; the first notification (progress, a log message) switches the response to
``text/event-stream``, which carries the notifications in order and then the answer. A request
still unanswered after ``keepalive`` seconds is switched too, and the stream then carries a
comment line every ``keepalive`` seconds, so that proxies do not close an idle connection. A
request the server cancels as it stops (its shutdown grace is over) is answered with an error
saying so: 503, or the stream's last event.

Messages from worker threads arrive through :meth:`Inbox.notify`, which is thread-safe.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import logging
from collections.abc import Callable
from typing import Any

from mcplite.engine.connection import Answer, Connection
from mcplite.protocol.jsonrpc import (
    INTERNAL_ERROR,
    RequestId,
    RpcError,
    encode_line,
    error_response,
    is_request_id,
)
from mcplite.tools.context import STREAM_CLOSER
from mcplite.transports.http.asgi import Receive, Send, wait_for_disconnect
from mcplite.transports.http.events import ResumableStream

log = logging.getLogger("mcplite.server")


SSE_HEADERS = [
    (b"content-type", b"text/event-stream"),
    (b"cache-control", b"no-cache, no-transform"),
    (b"x-accel-buffering", b"no"),
]


class Kind(enum.Enum):
    NOTIFICATION = "notification"
    ANSWER = "answer"
    DISCONNECT = "disconnect"
    CLOSE = "close"  # the call ends its SSE response early (ctx.close_sse_stream)


class Inbox:
    """What one request's response carries, in the order it happened.

    With a ``backlog``, at most that many items wait: one more ends the response with the
    ``overflow`` line (an error naming the limit) and calls ``on_overflow`` (which cancels the
    request), so a client that stops reading holds a bounded queue.
    """

    def __init__(
        self, loop: asyncio.AbstractEventLoop, backlog: int | None = None, overflow: bytes = b""
    ) -> None:
        self._loop = loop
        self._queue: asyncio.Queue[tuple[Kind, Answer | bytes | None]] = asyncio.Queue()
        self.closed = False
        self._backlog = backlog
        self._overflow = overflow
        self.on_overflow: Callable[[], object] = lambda: None

    def notify(self, line: bytes) -> None:
        """A notification for this request (from any thread); dropped once the response is over."""
        if self.closed:
            return
        with contextlib.suppress(RuntimeError):  # the loop has closed: the server is stopping
            self._loop.call_soon_threadsafe(self._put, Kind.NOTIFICATION, line)

    def answered(self, work: asyncio.Task[Answer | None]) -> None:
        """Done callback of the task computing the answer."""
        failure = None if work.cancelled() else work.exception()
        if failure is not None:
            log.error("answering a request failed", exc_info=failure)
        self._put(Kind.ANSWER, None if work.cancelled() or failure is not None else work.result())

    def disconnected(self) -> None:
        self._put(Kind.DISCONNECT, None)

    def close_stream(self) -> None:
        """End the SSE response before the answer (from any thread); the client resumes it."""
        with contextlib.suppress(RuntimeError):  # the loop has closed: the server is stopping
            self._loop.call_soon_threadsafe(self._put, Kind.CLOSE, None)

    def _put(self, kind: Kind, item: Answer | bytes | None) -> None:
        if self.closed:
            return
        if self._backlog is not None and self._queue.qsize() >= self._backlog:
            log.warning("a client read too slowly: %d messages waited; ending its response", self._backlog)
            self._queue.put_nowait((Kind.ANSWER, Answer(self._overflow, None)))
            self.closed = True
            self.on_overflow()
            return
        self._queue.put_nowait((kind, item))

    async def get(self) -> tuple[Kind, Answer | bytes | None]:
        return await self._queue.get()


def json_body(message: dict[str, Any]) -> bytes:
    return json.dumps(message, ensure_ascii=False, separators=(",", ":")).encode("utf-8")


async def send_response(
    send: Send,
    status: int,
    body: bytes = b"",
    headers: list[tuple[bytes, bytes]] | None = None,
    content_type: bytes | None = b"application/json",
) -> None:
    """A complete response with a body (or none)."""
    fields = list(headers or [])
    if body and content_type is not None:
        fields.append((b"content-type", content_type))
    fields.append((b"content-length", str(len(body)).encode()))
    await send({"type": "http.response.start", "status": status, "headers": fields})
    await send({"type": "http.response.body", "body": body, "more_body": False})


def sse_event(line: bytes) -> bytes:
    """One JSON-RPC message as an SSE ``message`` event (the JSON holds no raw newline)."""
    return b"event: message\ndata: " + line.rstrip(b"\n") + b"\n\n"


async def watch_disconnect(receive: Receive, inbox: Inbox) -> None:
    """Tell the inbox when the client goes away (the request body has been read already)."""
    await wait_for_disconnect(receive, asyncio.Event())
    inbox.disconnected()


async def stream_answer(
    inbox: Inbox,
    send: Send,
    *,
    status_of: Callable[[Answer], int],
    headers: list[tuple[bytes, bytes]],
    keepalive: float,
    answer_owed: bool,
    on_stop: bytes | None = None,
    resumable: ResumableStream | None = None,
) -> bool:
    """Send what the inbox receives until the answer; False if the client left first.

    A ``resumable`` stream opens with its priming event and gives each event an id (kept for
    replay); closed early by the call, the response ends and the rest is only kept, for the
    client's GET with ``Last-Event-ID``.

    ``status_of`` chooses the status of a JSON answer; an SSE stream is always 200. When there
    is no answer (a cancelled call, or notifications only), the request gets 202 if no answer
    was owed, else a stream that ends without one. Cancelled by the server as it stops, it sends
    ``on_stop`` (an error line for the request) with 503, or as the stream's last event.
    """
    streaming = False
    detached = False  # the response has ended early; events are only kept

    async def start_stream() -> None:
        nonlocal streaming
        if not streaming:
            streaming = True
            fields = [*headers, *SSE_HEADERS]
            await send({"type": "http.response.start", "status": 200, "headers": fields})
            if resumable is not None:
                await chunk(await resumable.opening())

    async def chunk(data: bytes, more: bool = True) -> None:
        if not detached:
            await send({"type": "http.response.body", "body": data, "more_body": more})

    async def event(line: bytes) -> bytes:
        return sse_event(line) if resumable is None else await resumable.frame(line)

    getter: asyncio.Task[tuple[Kind, Answer | bytes | None]] | None = None
    try:
        while True:
            if getter is None:
                getter = asyncio.get_running_loop().create_task(inbox.get())
            done, _ = await asyncio.wait({getter}, timeout=keepalive)
            if not done:
                await start_stream()
                await chunk(b": keepalive\n\n")
                continue
            kind, item = getter.result()
            getter = None
            if kind is Kind.DISCONNECT:
                if detached:  # the client left the ended response: the call goes on
                    continue
                return False
            if kind is Kind.CLOSE:
                if resumable is not None and not detached:
                    await start_stream()
                    await chunk(b"", more=False)
                    detached = True
                continue
            if kind is Kind.NOTIFICATION:
                assert isinstance(item, bytes)
                await start_stream()
                await chunk(await event(item))
                continue
            assert item is None or isinstance(item, Answer)
            if streaming:
                await chunk(b"" if item is None else await event(item.data), more=False)
            elif item is not None:
                await send_response(send, status_of(item), item.data.rstrip(b"\n"), headers)
            elif answer_owed:
                await start_stream()
                await chunk(b"", more=False)
            else:
                await send_response(send, 202, headers=headers)
            return True
    except asyncio.CancelledError:  # uvicorn ends what outlives its graceful shutdown
        log.warning("server stopping: a request was cancelled before its answer")
        with contextlib.suppress(Exception):  # the connection may be gone too
            if streaming:
                await chunk(b"" if on_stop is None else sse_event(on_stop), more=False)
            else:
                await send_response(send, 503, (on_stop or b"").rstrip(b"\n"), headers)
        return True
    finally:
        inbox.closed = True
        if getter is not None:
            getter.cancel()
        if resumable is not None:
            resumable.finish()


async def exchange(
    connection: Connection,
    message: Any,
    receive: Receive,
    send: Send,
    *,
    status_of: Callable[[Answer], int],
    keepalive: float,
    headers: list[tuple[bytes, bytes]],
    on_leave: Callable[[asyncio.Task[Answer | None], RequestId | None], None],
    on_stop: bytes | None = None,
    backlog: int | None = None,
    overflow: bytes = b"",
    resumable: ResumableStream | None = None,
) -> None:
    """Answer one message with JSON or SSE; ``on_leave`` gets the work still running when the
    client leaves (or the server stops) before the answer. ``on_stop``: what the request is
    answered with if the server cancels it as it stops (default: an error saying so). With a
    ``backlog``, the work is cancelled and ``overflow`` ends the response when more wait to be sent.
    A ``resumable`` response keeps its events for replay, and the call may end it early."""
    loop = asyncio.get_running_loop()
    inbox = Inbox(loop, backlog, overflow)
    closer = STREAM_CLOSER.set(inbox.close_stream if resumable is not None else None)
    try:  # the task copies the context now: the call's Context finds how to close its stream
        work = loop.create_task(connection.respond(message, inbox.notify))
    finally:
        STREAM_CLOSER.reset(closer)
    inbox.on_overflow = work.cancel
    work.add_done_callback(inbox.answered)
    watcher = loop.create_task(watch_disconnect(receive, inbox))
    try:
        await stream_answer(
            inbox,
            send,
            status_of=status_of,
            headers=headers,
            keepalive=keepalive,
            answer_owed=owes_answer(message),
            on_stop=stopped_answer(message) if on_stop is None else on_stop,
            resumable=resumable,
        )
    finally:
        watcher.cancel()
        if not work.done():
            on_leave(work, request_id(message))


def is_request(message: Any) -> bool:
    return isinstance(message, dict) and "method" in message and "id" in message


def owes_answer(message: Any) -> bool:
    """Whether a message (or a batch) holds a request, which is owed an answer."""
    if isinstance(message, list):
        return any(is_request(item) for item in message)
    return is_request(message)


def stopped_answer(message: Any) -> bytes | None:
    """The error line for a request the server cancels as it stops (None for anything else)."""
    if not is_request(message) or request_id(message) is None:
        return None
    error = RpcError(
        INTERNAL_ERROR, "the server is stopping: the request did not finish within its shutdown grace"
    )
    return encode_line(error_response(request_id(message), error))


def request_id(message: Any) -> RequestId | None:
    """A message's id, where it is a valid one."""
    found = message.get("id") if isinstance(message, dict) else None
    return found if is_request_id(found) else None
