"""The stdio transport: one JSON-RPC message per line on stdin, one per line on stdout.

While it serves, file descriptor 1 points at stderr, so a tool's ``print()`` (or a C library's
write to stdout) can never corrupt the protocol stream; the protocol lines go to a private
duplicate of the original stdout. File descriptor 0 points at ``/dev/null``, so a child process a
tool starts (``git``, ``ssh``, a pager) can never read the client's messages; they are read
from a private duplicate of the original stdin: on the event loop itself when stdin is a pipe or a
socket (one thread hand-over less per message), by a reader thread otherwise, which reads at most
``MAX_WAITING`` messages ahead of the server. Either way a client that writes faster than it reads
finds its writes blocking, instead of the server's memory growing. It stops at end of input or on
SIGINT or SIGTERM (calls in flight get ``shutdown_grace`` seconds to finish and send their answers;
after a signal a new request gets an error, ``notifications/cancelled`` still cancels, and a second
signal cancels every call at once), or when the client stops reading. Lines go out through a
writer thread, so that a client that reads its answers slowly never holds up the event loop or
other calls; one that stops reading altogether ends the session once ``MAX_UNWRITTEN`` bytes wait.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import io
import logging
import os
import signal
import stat
import sys
import threading
from collections.abc import Callable
from typing import BinaryIO

from mcplite.engine.connection import Connection
from mcplite.engine.handlers import Engine
from mcplite.transports.logs import log_to_stderr

log = logging.getLogger("mcplite.server")

_CHUNK = 1 << 16
MAX_WAITING = 64
"""Messages read from stdin and not yet handled by the server, at most."""
PAUSE_ABOVE = 256 << 10
"""Bytes of answers and notifications waiting for the client to read them above which no more
messages are read from stdin (256 KiB), until a quarter of that waits: a client that writes faster
than it reads finds its writes waiting, as the server's answers do."""
MAX_UNWRITTEN = 64 << 20
"""Bytes waiting for the client to read them, at most (64 MiB): the calls in flight when reading
paused write on, and past this the client is taken to have stopped reading: the session ends."""


class _Output:
    """Whole lines to a file descriptor, written by a thread of their own (``mcplite-stdout``).

    ``write`` never blocks (it is called on the event loop, and from worker threads): a line waits
    in a queue until the writer thread has written the lines before it. A client that reads slowly
    holds up nobody. Above ``PAUSE_ABOVE`` bytes waiting, ``room`` is cleared and ``on_room(False)``
    called (the server stops reading requests), and once a quarter of that waits, set again with
    ``on_room(True)``. At most ``MAX_UNWRITTEN`` bytes wait (one line over it is taken when nothing
    waits); past that the session ends with a log line saying so, as it ends when the client
    closes its end.
    """

    def __init__(self, fd: int, on_broken: Callable[[], None]) -> None:
        self._fd = os.dup(fd)  # the writer's own: never closed under a write the thread is blocked in
        self._on_broken = on_broken
        self.limit = MAX_UNWRITTEN
        self.pause_above = PAUSE_ABOVE
        self.room = threading.Event()
        self.room.set()
        self.on_room: Callable[[bool], None] = lambda has_room: None
        self._lines: collections.deque[bytes] = collections.deque()
        self._waiting = 0  # bytes queued, the line being written included
        self._changed = threading.Condition()
        self._closing = False
        self.broken = False
        self._thread = threading.Thread(target=self._write_lines, name="mcplite-stdout", daemon=True)
        self._thread.start()

    def write(self, data: bytes) -> None:
        with self._changed:
            if self.broken or self._closing:
                return
            if self._waiting and self._waiting + len(data) > self.limit:
                self._break(
                    logging.WARNING,
                    f"the client has not read {self._waiting} bytes of answers and notifications "
                    f"(MAX_UNWRITTEN is {self.limit}): it has stopped reading; stopping",
                )
                return
            self._lines.append(data)
            self._waiting += len(data)
            if self._waiting > self.pause_above and self.room.is_set():
                self.room.clear()
                self.on_room(False)
            self._changed.notify_all()

    def _break(self, level: int, why: str) -> None:
        """The session is over: what waits is dropped (called with the lock held)."""
        self.broken = True
        self._lines.clear()
        log.log(level, "stdout: %s", why)
        self._on_broken()
        self.room.set()  # nothing waits to be read any more: a reader thread must not wait for it
        self._changed.notify_all()

    def _write_lines(self) -> None:
        while True:
            with self._changed:
                while not self._lines and not self._closing and not self.broken:
                    self._changed.wait()
                if self.broken or not self._lines:  # broken, or closed with nothing left
                    break
                data = self._lines[0]
            view = memoryview(data)
            try:
                while view:
                    view = view[os.write(self._fd, view) :]
            except OSError as err:  # the client closed its end
                with self._changed:
                    if not self.broken:
                        self._break(logging.INFO, f"closed ({err}); stopping")
                break
            with self._changed:
                if self.broken:
                    break
                self._lines.popleft()
                self._waiting -= len(data)
                if not self.room.is_set() and self._waiting <= self.pause_above // 4:
                    self.room.set()
                    self.on_room(True)
                self._changed.notify_all()
        os.close(self._fd)

    def close(self, timeout: float) -> bool:
        """Write the lines waiting (for up to ``timeout`` seconds), then stop the writer thread;
        whether everything was written. A writer still blocked is abandoned (a daemon thread)."""
        with self._changed:
            self._closing = True
            self._changed.notify_all()
        self._thread.join(timeout)
        return not self._thread.is_alive()

    @property
    def waiting(self) -> int:
        """Bytes queued and not written yet."""
        with self._changed:
            return self._waiting


class _Lines:
    """Cuts a byte stream into lines: a line over ``limit`` bytes (its newline not counted) is
    skipped and reported by its size instead; a last line without a newline still counts.

    >>> lines = _Lines(4)
    >>> lines.feed(b"ab\\nabcdefg\\nxy"), lines.finish()
    ([b'ab\\n', 8], [b'xy'])
    """

    def __init__(self, limit: int) -> None:
        self._limit = limit
        self._partial = bytearray()
        self._skipped = 0  # bytes of an oversize line being skipped (0: none)

    def feed(self, data: bytes) -> list[bytes | int]:
        """The lines (bytes, newline kept) and oversize reports (their size) ``data`` completes."""
        out: list[bytes | int] = []
        start = 0
        while start < len(data):
            end = data.find(b"\n", start)
            piece = data[start:] if end < 0 else data[start : end + 1]
            start += len(piece)
            if self._skipped:
                self._skipped += len(piece)
            elif len(self._partial) + len(piece) > self._limit + (end >= 0):
                self._skipped = len(self._partial) + len(piece)
                self._partial.clear()
            elif end < 0:
                self._partial += piece
            else:
                out.append(bytes(self._partial + piece) if self._partial else piece)
                self._partial.clear()
            if end >= 0 and self._skipped:
                out.append(self._skipped)
                self._skipped = 0
        return out

    def finish(self) -> list[bytes | int]:
        """What is left at end of input: a last line without its newline, or its oversize report."""
        if self._skipped:
            return [self._skipped]
        return [bytes(self._partial)] if self._partial else []


def _hand_on(
    items: list[bytes | int], on_line: Callable[[bytes], None], on_oversize: Callable[[int], None]
) -> None:
    """Hand each line (blank ones skipped) or oversize report on. A message that fails in a way
    nothing foresaw is logged, and the lines after it are read all the same."""
    for item in items:
        try:
            if isinstance(item, int):
                on_oversize(item)
            elif item.strip():
                on_line(item)
        except Exception:
            log.exception("a message could not be handled; reading on")


def _read_messages(
    stream: BinaryIO,
    limit: int,
    on_line: Callable[[bytes], None],
    on_oversize: Callable[[int], None],
    on_eof: Callable[[], None],
    slots: threading.Semaphore,
    room: threading.Event | None = None,
) -> None:
    """Read lines in a thread until end of input (where stdin cannot be watched by the event loop).

    Each line (and each oversize report) takes one of ``slots`` before it is handed on, and the
    handler gives it back: reading waits while the server is behind, and while ``room`` (when
    given) is clear: the client has not read the answers waiting for it.
    """

    def line(data: bytes) -> None:
        slots.acquire()
        on_line(data)

    def oversize(size: int) -> None:
        slots.acquire()
        on_oversize(size)

    lines = _Lines(limit)
    try:
        while True:
            if room is not None:
                room.wait()
            data = stream.read1(_CHUNK) if hasattr(stream, "read1") else stream.read(_CHUNK)
            if not data:
                break
            _hand_on(lines.feed(data), line, oversize)
        _hand_on(lines.finish(), line, oversize)
    except (OSError, ValueError) as err:  # stdin closed under us
        log.info("stdin closed (%s)", err)
    finally:
        on_eof()


class _Watch:
    """Lines read on the event loop itself, as stdin becomes readable (see :func:`_watch`)."""

    def __init__(
        self,
        loop: asyncio.AbstractEventLoop,
        fd: int,
        limit: int,
        on_line: Callable[[bytes], None],
        on_oversize: Callable[[int], None],
        on_eof: Callable[[], None],
    ) -> None:
        self._loop = loop
        self._fd = fd
        self._was_blocking = os.get_blocking(fd)
        self._lines = _Lines(limit)
        self._on_line = on_line
        self._on_oversize = on_oversize
        self._on_eof = on_eof
        self._over = False

    def start(self) -> bool:
        """Watch stdin; False where it cannot be watched (a regular file, or no readers)."""
        os.set_blocking(self._fd, False)
        try:
            self._loop.add_reader(self._fd, self._readable)
        except (OSError, ValueError, NotImplementedError):
            self._restore()
            return False
        return True

    def set_reading(self, has_room: bool) -> None:
        """Read no more (``has_room`` False) until told again (True): the answers wait unread."""
        if self._over:
            return
        if has_room:
            self._loop.add_reader(self._fd, self._readable)
        else:
            self._loop.remove_reader(self._fd)

    def stop(self) -> None:
        if not self._over:
            self._over = True
            self._loop.remove_reader(self._fd)
            self._restore()

    def _restore(self) -> None:
        with contextlib.suppress(OSError):
            os.set_blocking(self._fd, self._was_blocking)

    def _readable(self) -> None:
        try:
            data = os.read(self._fd, _CHUNK)
        except (BlockingIOError, InterruptedError):
            return
        except OSError as err:  # stdin closed under us
            log.info("stdin closed (%s)", err)
            data = b""
        if data:
            _hand_on(self._lines.feed(data), self._on_line, self._on_oversize)
            return
        self.stop()
        _hand_on(self._lines.finish(), self._on_line, self._on_oversize)
        self._on_eof()


def _watch(
    loop: asyncio.AbstractEventLoop,
    stream: BinaryIO,
    limit: int,
    on_line: Callable[[bytes], None],
    on_oversize: Callable[[int], None],
    on_eof: Callable[[], None],
) -> _Watch | None:
    """Read lines on the event loop itself, as stdin becomes readable: no thread hands each
    message over (one wake-up less per call). The server handles what it read before it reads
    more, so nothing is read ahead. Returns the watch (to pause or stop it), or None where stdin
    cannot be watched (only pipes and sockets are: not a file, a terminal, a stream without a
    descriptor, or an event loop without readers)."""
    try:
        fd = stream.fileno()
        if not stat.S_ISFIFO(os.fstat(fd).st_mode) and not stat.S_ISSOCK(os.fstat(fd).st_mode):
            return None  # a file or a terminal: read by a thread, its blocking mode left alone
        watch = _Watch(loop, fd, limit, on_line, on_oversize, on_eof)
        return watch if watch.start() else None
    except (OSError, ValueError, AttributeError, io.UnsupportedOperation):
        return None


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
    await engine.offer.lifespan.start()  # entered before the first message is read
    watch = _watch(
        loop, stream, engine.max_message_size, connection.receive, connection.reject_oversize, eof.set
    )
    if watch is not None:
        output.on_room = threadsafe(watch.set_reading)
    else:
        reader = threading.Thread(
            target=_read_messages,
            args=(
                stream,
                engine.max_message_size,
                threadsafe(receive),
                threadsafe(reject),
                threadsafe(eof.set),
                slots,
                output.room,
            ),
            name="mcplite-stdin",
            daemon=True,
        )
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
        if watch is not None:
            watch.stop()
        for number in signals:
            loop.remove_signal_handler(number)
        await engine.offer.lifespan.stop()
        # the answers of calls that finished go out; a client that reads nothing more gets up to
        # shutdown_grace seconds to start again
        if not await asyncio.to_thread(output.close, max(shutdown_grace, 0.1)):
            log.info("stdout: %d bytes were never read by the client", output.waiting)


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
