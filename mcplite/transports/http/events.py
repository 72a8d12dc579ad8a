"""Resumable SSE streams (2025-11-25, SEP-1699): each event of a POST's SSE response has an id, the
stream opens with a priming event (an id, empty data, and ``retry``: how long a client waits before
it reconnects), and a client whose stream ended before the answer GETs the endpoint with
``Last-Event-ID`` to receive what followed that event, the answer included.

The events are kept in an :class:`EventStore`: :class:`MemoryEventStore` (bounded in events and
bytes, oldest dropped first) unless the deployment passes its own. A tool ends its stream early
with ``ctx.close_sse_stream()``: its client reconnects and the call goes on meanwhile.

>>> import asyncio
>>> async def demo() -> list[bytes]:
...     store = MemoryEventStore(max_events=10)
...     first = await store.append("session", "stream", b"")
...     await store.append("session", "stream", b'{"jsonrpc":"2.0","id":1,"result":{}}')
...     stream, events = await store.after("session", first)
...     return [data for _, data in events]
>>> asyncio.run(demo())
[b'{"jsonrpc":"2.0","id":1,"result":{}}']
"""

from __future__ import annotations

import abc
import asyncio
import collections
import itertools
import secrets
from collections.abc import Callable
from typing import NamedTuple

from mcplite.transports.http.asgi import Receive, Send, wait_for_disconnect

Events = list[tuple[str, bytes]]
SSE_RESUMABLE_SINCE = "2025-11-25"
"""The first version whose POST streams have event ids, a priming event and replay (SEP-1699)."""


class EventStore(abc.ABC):
    """Where the events of resumable streams wait to be replayed, each under the legacy session
    that received it (a session replays only its own)."""

    @abc.abstractmethod
    async def append(self, session: str, stream: str, data: bytes) -> str:
        """Keep one event (``data``: a JSON-RPC line, or empty for a priming event); its new id."""

    @abc.abstractmethod
    async def after(self, session: str, event_id: str) -> tuple[str, Events] | None:
        """The stream of the event ``event_id`` and its events kept since, in order; None when the
        event is not kept (never was, dropped since, or another session's)."""


class _Kept(NamedTuple):
    session: str
    stream: str
    data: bytes


class MemoryEventStore(EventStore):
    """Events in this process's memory: at most ``max_events`` of them and ``max_bytes`` of data,
    the oldest dropped first (a client that comes back for them later cannot resume)."""

    def __init__(self, *, max_events: int = 10_000, max_bytes: int = 16 * 2**20) -> None:
        for name, value in (("max_events", max_events), ("max_bytes", max_bytes)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"MemoryEventStore: {name} must be a positive integer, not {value!r}")
        self.max_events = max_events
        self.max_bytes = max_bytes
        self._events: collections.OrderedDict[str, _Kept] = collections.OrderedDict()
        self._streams: dict[str, collections.deque[str]] = {}
        self._bytes = 0
        self._counter = itertools.count(1)

    def __len__(self) -> int:
        return len(self._events)

    async def append(self, session: str, stream: str, data: bytes) -> str:
        event_id = f"{stream}.{next(self._counter)}"
        self._events[event_id] = _Kept(session, stream, data)
        self._streams.setdefault(stream, collections.deque()).append(event_id)
        self._bytes += len(data)
        while len(self._events) > self.max_events or self._bytes > self.max_bytes:
            _, dropped = self._events.popitem(last=False)
            self._bytes -= len(dropped.data)
            ids = self._streams[dropped.stream]
            ids.popleft()  # a stream's events are dropped in the order they came, as all are
            if not ids:
                del self._streams[dropped.stream]
        return event_id

    async def after(self, session: str, event_id: str) -> tuple[str, Events] | None:
        kept = self._events.get(event_id)
        if kept is None or not secrets.compare_digest(kept.session, session):
            return None
        ids = self._streams[kept.stream]
        later = itertools.islice(ids, ids.index(event_id) + 1, None)
        return kept.stream, [(later_id, self._events[later_id].data) for later_id in later]


def sse_frame(event_id: str, line: bytes, retry_ms: int | None = None) -> bytes:
    """One SSE event with its id: a JSON-RPC line as a ``message``, or (empty) the priming event."""
    head = b"id: " + event_id.encode("ascii") + b"\n"
    if retry_ms is not None:
        head += b"retry: %d\n" % retry_ms
    if not line:
        return head + b"data: \n\n"
    return head + b"event: message\ndata: " + line.rstrip(b"\n") + b"\n\n"


class _Feed:
    """A stream still being written in this process: what a resumed GET waits on."""

    def __init__(self) -> None:
        self.changed = asyncio.Event()
        self.done = False


class Resumption:
    """The resumable streams of one endpoint: their store, and the streams still being written here."""

    def __init__(self, store: EventStore, retry_ms: int) -> None:
        self.store = store
        self.retry_ms = retry_ms
        self._feeds: dict[str, _Feed] = {}

    def stream(self, session: str) -> ResumableStream:
        """A new resumable stream for one POST of ``session``."""
        stream = ResumableStream(self, session, secrets.token_urlsafe(12))
        self._feeds[stream.id] = _Feed()
        return stream

    def _wrote(self, stream: str, done: bool = False) -> None:
        feed = self._feeds.get(stream)
        if feed is not None:
            feed.done = feed.done or done
            feed.changed.set()
            if done:
                del self._feeds[stream]

    async def replay(
        self,
        session: str,
        event_id: str,
        send: Send,
        receive: Receive,
        headers: list[tuple[bytes, bytes]],
        *,
        keepalive: float,
        alive: Callable[[], bool],
    ) -> bool:
        """Answer a GET with ``Last-Event-ID``: the stream's events after ``event_id``, then the ones
        still to come until its answer; False (nothing sent) when the event is not kept."""
        found = await self.store.after(session, event_id)
        if found is None:
            return False
        stream, events = found
        gone = asyncio.Event()
        watcher = asyncio.get_running_loop().create_task(wait_for_disconnect(receive, gone))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": headers})
            while True:
                for later_id, data in events:
                    if data:
                        body = sse_frame(later_id, data)
                        await send({"type": "http.response.body", "body": body, "more_body": True})
                    event_id = later_id
                feed = self._feeds.get(stream)
                if feed is None or gone.is_set() or not alive():
                    break
                feed.changed.clear()
                found = await self.store.after(session, event_id)
                if found is None:  # dropped meanwhile: nothing more can be replayed
                    break
                events = found[1]
                if events:
                    continue
                waits = [asyncio.ensure_future(feed.changed.wait()), asyncio.ensure_future(gone.wait())]
                done, _ = await asyncio.wait(waits, timeout=keepalive, return_when="FIRST_COMPLETED")
                for wait in waits:
                    wait.cancel()
                if not done:
                    await send({"type": "http.response.body", "body": b": keepalive\n\n", "more_body": True})
                found = await self.store.after(session, event_id)
                events = [] if found is None else found[1]
            if not gone.is_set():
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            watcher.cancel()
        return True


class ResumableStream:
    """One POST's SSE response whose events are kept: :meth:`opening` frames its priming event and
    :meth:`frame` each message; :meth:`finish` marks it answered."""

    def __init__(self, resumption: Resumption, session: str, stream_id: str) -> None:
        self._resumption = resumption
        self._session = session
        self.id = stream_id

    async def opening(self) -> bytes:
        event_id = await self._resumption.store.append(self._session, self.id, b"")
        return sse_frame(event_id, b"", self._resumption.retry_ms)

    async def frame(self, line: bytes) -> bytes:
        event_id = await self._resumption.store.append(self._session, self.id, line)
        self._resumption._wrote(self.id)
        return sse_frame(event_id, line)

    def finish(self) -> None:
        """The stream's last event is written (or it will have none): resumed GETs end."""
        self._resumption._wrote(self.id, done=True)
