"""The stdio transport: one JSON-RPC message per line on stdin, one per line on stdout.

While it serves, file descriptor 1 points at stderr, so a tool's ``print()`` (or a C library's
write to stdout) can never corrupt the protocol stream; the protocol lines go to a private
duplicate of the original stdout. File descriptor 0 points at ``/dev/null``, so a child process a
tool starts (``git``, ``ssh``, a pager) can never read the client's messages; they are read
from a private duplicate of the original stdin. At most ``MAX_WAITING`` messages are read ahead of
the server (a client that writes faster than it reads finds its writes blocking, instead of the
server's memory growing). It stops at end of input or on SIGINT or SIGTERM (calls in flight get
``shutdown_grace`` seconds to finish and send their answers; after a signal a new request gets an
error, ``notifications/cancelled`` still cancels, and a second signal cancels every call at once),
or when the client stops reading.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import os
import signal
import sys
import threading
from collections.abc import Callable
from typing import BinaryIO

from mcplite.engine.connection import Connection
from mcplite.engine.handlers import Engine
from mcplite.transports.logs import log_to_stderr

log = logging.getLogger("mcplite.server")

_DISCARD_CHUNK = 1 << 16
MAX_WAITING = 64
"""Messages read from stdin and not yet handled by the server, at most."""


class _Output:
    """Whole lines to a file descriptor, one writer at a time (tools may write from worker threads)."""

    def __init__(self, fd: int, on_broken: Callable[[], None]) -> None:
        self._fd = fd
        self._lock = threading.Lock()
        self._on_broken = on_broken
        self.broken = False

    def write(self, data: bytes) -> None:
        with self._lock:
            if self.broken:
                return
            view = memoryview(data)
            try:
                while view:
                    view = view[os.write(self._fd, view) :]
            except OSError as err:  # the client closed its end
                self.broken = True
                log.info("stdout closed (%s); stopping", err)
                self._on_broken()


def _read_messages(
    stream: BinaryIO,
    limit: int,
    on_line: Callable[[bytes], None],
    on_oversize: Callable[[int], None],
    on_eof: Callable[[], None],
    slots: threading.Semaphore,
) -> None:
    """Read lines until end of input; a line over ``limit`` bytes is skipped and reported by size.

    Each line (and each oversize report) takes one of ``slots`` before it is handed on, and the
    handler gives it back: reading waits while the server is behind.
    """
    try:
        while True:
            slots.acquire()
            line = stream.readline(limit + 1)
            if not line:
                break
            if len(line) > limit and not line.endswith(b"\n"):
                size = len(line)
                while not line.endswith(b"\n"):
                    line = stream.readline(_DISCARD_CHUNK)
                    if not line:
                        break
                    size += len(line)
                on_oversize(size)
                continue
            if line.strip():
                on_line(line)
            else:
                slots.release()
    except (OSError, ValueError) as err:  # stdin closed under us
        log.info("stdin closed (%s)", err)
    finally:
        on_eof()


async def serve_connection(engine: Engine, stream: BinaryIO, out_fd: int, shutdown_grace: float) -> None:
    """Serve one client over a byte stream and a file descriptor until either side ends."""
    loop = asyncio.get_running_loop()
    stop = asyncio.Event()
    eof = asyncio.Event()

    def threadsafe(callback: Callable[..., None]) -> Callable[..., None]:
        def call(*args: object) -> None:
            with contextlib.suppress(RuntimeError):  # the loop is gone: we are shutting down
                loop.call_soon_threadsafe(callback, *args)

        return call

    output = _Output(out_fd, threadsafe(stop.set))
    connection = Connection(engine, output.write)
    slots = threading.Semaphore(MAX_WAITING)
    signalled = asyncio.Event()

    def receive(line: bytes) -> None:
        try:
            connection.receive(line)
        finally:
            slots.release()

    def reject(size: int) -> None:
        try:
            connection.reject_oversize(size)
        finally:
            slots.release()

    def on_signal() -> None:
        if signalled.is_set():
            stop.set()  # a second signal: stop at once
            return
        log.info(
            "stopping: calls in flight get %g s to finish (signal again to stop at once)", shutdown_grace
        )
        connection.stop_accepting()  # new requests get an error; cancellations still work
        signalled.set()

    signals = []
    for number in (signal.SIGINT, signal.SIGTERM):
        try:
            loop.add_signal_handler(number, on_signal)
            signals.append(number)
        except (NotImplementedError, RuntimeError, ValueError):  # not the main thread, or no signals
            pass
    reader = threading.Thread(
        target=_read_messages,
        args=(
            stream,
            engine.max_message_size,
            threadsafe(receive),
            threadsafe(reject),
            threadsafe(eof.set),
            slots,
        ),
        name="mcplite-stdin",
        daemon=True,
    )
    await engine.offer.lifespan.start()
    reader.start()
    try:
        stopping = loop.create_task(stop.wait())
        ending = [stopping, loop.create_task(eof.wait()), loop.create_task(signalled.wait())]
        await asyncio.wait(ending, return_when=asyncio.FIRST_COMPLETED)
        if not stop.is_set():
            closing = loop.create_task(connection.close(shutdown_grace))
            await asyncio.wait([closing, stopping], return_when=asyncio.FIRST_COMPLETED)
        connection.cancel_all()
        await connection.close(0)
    finally:
        for number in signals:
            loop.remove_signal_handler(number)
        await engine.offer.lifespan.stop()


def serve_stdio(engine: Engine, *, shutdown_grace: float = 5.0) -> None:
    """Serve ``engine`` on this process's stdin and stdout (blocking)."""
    log_to_stderr()
    sys.stdout.flush()
    out_fd = os.dup(1)
    in_fd = os.dup(0)
    os.dup2(2, 1)
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    try:
        # A private reader, never closed: the reader thread may still be blocked in it when we
        # return. sys.stdin's buffer would abort the interpreter at exit (its lock is held), and
        # closing this one would wait for that read.
        stdin = os.fdopen(os.dup(in_fd), "rb")
        asyncio.run(serve_connection(engine, stdin, out_fd, shutdown_grace))
    finally:
        sys.stdout.flush()
        os.dup2(out_fd, 1)
        os.close(out_fd)
        os.dup2(in_fd, 0)
        os.close(in_fd)
