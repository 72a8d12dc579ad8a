"""A small pool of daemon threads for sync tools, so the event loop keeps serving while they run.

Unlike ``asyncio.to_thread``, a tool that never returns does not keep the process alive after
the server stops: its thread is a daemon, abandoned at exit (its result is never sent). A job whose
awaiting task was cancelled before a thread took it (its client left, or cancelled) never starts.

>>> import asyncio
>>> async def main() -> int:
...     return await Workers(2).run(sum, [1, 2, 3])
>>> asyncio.run(main())
6
"""

from __future__ import annotations

import asyncio
import contextvars
import os
import queue
import threading
from collections.abc import Callable
from typing import Any, TypeVar

T = TypeVar("T")

_Job = tuple[
    asyncio.AbstractEventLoop, "asyncio.Future[Any]", contextvars.Context, Callable[..., Any], tuple[Any, ...]
]


def default_size() -> int:
    """How many sync tools run at once by default: 4 per core, and at least 32.

    Sync tools mostly wait (on files, databases, other services) rather than compute, so the pool is
    larger than the machine's cores, as other MCP servers' thread pools are.
    """
    return max(32, 4 * (os.cpu_count() or 1))


def _settle(future: asyncio.Future[Any], result: Any, error: BaseException | None) -> None:
    if future.cancelled():
        return
    if error is None:
        future.set_result(result)
    else:
        future.set_exception(error)


class Workers:
    """Up to ``size`` daemon threads, started as they are needed."""

    def __init__(self, size: int) -> None:
        if size < 1:
            raise ValueError(f"Workers: size must be at least 1, not {size}")
        self._size = size
        self._jobs: queue.SimpleQueue[_Job] = queue.SimpleQueue()
        self._lock = threading.Lock()
        self._threads = 0
        self._idle = 0
        self._pending = 0

    async def run(self, function: Callable[..., T], *args: Any) -> T:
        """Call ``function(*args)`` in a worker thread, in a copy of the caller's context."""
        loop = asyncio.get_running_loop()
        future: asyncio.Future[T] = loop.create_future()
        with self._lock:
            self._pending += 1
            if self._pending > self._idle and self._threads < self._size:
                self._threads += 1
                self._idle += 1
                threading.Thread(
                    target=self._work, name=f"mcplite-worker-{self._threads}", daemon=True
                ).start()
            self._jobs.put((loop, future, contextvars.copy_context(), function, args))
        return await future

    def _work(self) -> None:
        while True:
            loop, future, context, function, args = self._jobs.get()
            with self._lock:
                self._pending -= 1
                self._idle -= 1
            if future.cancelled():  # nobody waits for it any more: never start it
                with self._lock:
                    self._idle += 1
                continue
            result: Any = None
            error: BaseException | None = None
            try:
                result = context.run(function, *args)
            except BaseException as exc:  # handed to the awaiting task, never lost in this thread
                error = exc
            try:
                loop.call_soon_threadsafe(_settle, future, result, error)
            except RuntimeError:  # the loop has closed: nobody is waiting any more
                pass
            with self._lock:
                self._idle += 1
