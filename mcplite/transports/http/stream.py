"""A legacy session's own stream: what the server sends of its accord (resource list changes and
updates) goes to the SSE stream the client opens with GET on the endpoint.

One GET stream per session at a time; messages sent while none is open wait (the latest
``backlog`` of them) for the next one. The stream carries a comment line every ``keepalive``
seconds and ends when the session does or the client leaves.

>>> import asyncio
>>> async def demo() -> list[bytes]:
...     stream = ServerStream(asyncio.get_running_loop())
...     stream.write(b'{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}\\n')
...     await asyncio.sleep(0)
...     return stream.waiting()
>>> asyncio.run(demo())
[b'{"jsonrpc":"2.0","method":"notifications/resources/list_changed"}\\n']
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import Callable

from mcplite.transports.http.asgi import Receive, Send, wait_for_disconnect
from mcplite.transports.http.exchange import SSE_HEADERS, sse_event


class ServerStream:
    """The messages of one session's connection that belong to no request."""

    def __init__(self, loop: asyncio.AbstractEventLoop, backlog: int = 100) -> None:
        self._loop = loop
        self._lines: collections.deque[bytes] = collections.deque(maxlen=backlog)
        self._arrived = asyncio.Event()
        self._ended = asyncio.Event()
        self.open = False

    def end(self) -> None:
        """The session ended: close the GET stream (on the event loop's thread)."""
        self._ended.set()

    def write(self, line: bytes) -> None:
        """A message for the client (from any thread): its connection's ``write``."""
        with contextlib.suppress(RuntimeError):  # the loop has closed: the server is stopping
            self._loop.call_soon_threadsafe(self._put, line)

    def _put(self, line: bytes) -> None:
        self._lines.append(line)
        self._arrived.set()

    def waiting(self) -> list[bytes]:
        """Take the messages not sent yet."""
        lines = list(self._lines)
        self._lines.clear()
        self._arrived.clear()
        return lines

    async def serve(
        self,
        receive: Receive,
        send: Send,
        headers: list[tuple[bytes, bytes]],
        *,
        keepalive: float,
        alive: Callable[[], bool],
    ) -> None:
        """Answer a GET: an SSE stream of the messages, until the client leaves or ``alive()`` is False."""
        self.open = True
        gone = asyncio.Event()
        watcher = asyncio.get_running_loop().create_task(wait_for_disconnect(receive, gone))
        try:
            await send({"type": "http.response.start", "status": 200, "headers": [*headers, *SSE_HEADERS]})
            await send({"type": "http.response.body", "body": b": stream open\n\n", "more_body": True})
            while not gone.is_set() and not self._ended.is_set() and alive():
                for line in self.waiting():
                    await send({"type": "http.response.body", "body": sse_event(line), "more_body": True})
                waits = [asyncio.ensure_future(event.wait()) for event in (self._arrived, gone, self._ended)]
                done, _ = await asyncio.wait(waits, timeout=keepalive, return_when="FIRST_COMPLETED")
                for wait in waits:
                    wait.cancel()
                if not done and alive():
                    await send({"type": "http.response.body", "body": b": keepalive\n\n", "more_body": True})
            if not gone.is_set():
                await send({"type": "http.response.body", "body": b"", "more_body": False})
        finally:
            self.open = False
            watcher.cancel()
