"""stdio answers are written by a thread of their own: a client that does not read its stdout
holds up no other work, and what waits is bounded (``MAX_UNWRITTEN``: past it the session ends,
with a log line that says why). That one that writes on without reading finds its writes waiting
(the server reads no more while ``PAUSE_ABOVE`` bytes wait) is tests/test_server_attacks.py's
``test_a_client_that_writes_faster_than_it_reads_cannot_grow_the_server``.

Each test drives a real server process (tests/servers/unread.py) over pipes; every wait has a
deadline and the process is killed at teardown.
"""

from __future__ import annotations

import io
import json
import os
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from tests.servers import unread

SERVER = Path(unread.__file__)
DEADLINE = 20.0
ANSWER = 256 * 1024  # bytes of one big answer: four of them fill a pipe's 64 KiB buffer many times over


def line(message: dict[str, Any]) -> bytes:
    return json.dumps(message).encode() + b"\n"


def handshake() -> bytes:
    init = {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "unread-tests", "version": "0"},
    }
    return line({"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": init}) + line(
        {"jsonrpc": "2.0", "method": "notifications/initialized"}
    )


def call(request_id: int, name: str, arguments: dict[str, Any]) -> bytes:
    params = {"name": name, "arguments": arguments}
    return line({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params})


@pytest.fixture
def start() -> Iterator[Any]:
    procs: list[subprocess.Popen[bytes]] = []

    def run(limit: int | None = None) -> subprocess.Popen[bytes]:
        proc = subprocess.Popen(
            [sys.executable, str(SERVER)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,  # read only where a test says so
            stderr=subprocess.PIPE,
            env={**os.environ, **({} if limit is None else {"UNREAD_LIMIT": str(limit)})},
        )
        procs.append(proc)
        return proc

    yield run
    for proc in procs:
        proc.kill()
        proc.wait(5)


def wait_for(done: Any, what: str) -> None:
    deadline = time.monotonic() + DEADLINE
    while not done():
        assert time.monotonic() < deadline, f"no {what} within {DEADLINE} s"
        time.sleep(0.02)


def send(proc: subprocess.Popen[bytes], data: bytes) -> None:
    assert proc.stdin is not None
    proc.stdin.write(data)
    proc.stdin.flush()


def initialized(proc: subprocess.Popen[bytes]) -> None:
    """The handshake, and its answer read: the server is up and reading."""
    send(proc, handshake())
    answer: list[bytes] = []
    assert proc.stdout is not None
    threading.Thread(target=lambda: answer.append(proc.stdout.readline()), daemon=True).start()  # type: ignore[union-attr]
    wait_for(lambda: answer, "answer to initialize")
    assert json.loads(answer[0])["id"] == 0


def test_a_client_that_does_not_read_holds_up_no_other_call(start: Any, tmp_path: Path) -> None:
    proc = start()
    initialized(proc)
    marked = tmp_path / "marked"
    # an async tool waits on the event loop while eight answers of 256 KiB are written to a stdout
    # nobody reads (a server writing on its event loop would be stuck in the second one)
    calls = [call(1, "mark_after", {"path": str(marked), "delay": 0.5})]
    calls += [call(i, "big", {"size": ANSWER}) for i in range(2, 10)]
    send(proc, b"".join(calls))
    wait_for(marked.exists, "call finished while the answers before it wait to be read")
    assert proc.poll() is None


def test_a_slow_reader_gets_every_answer_whole_and_in_order_of_writing(start: Any) -> None:
    proc = start()
    send(proc, handshake() + b"".join(call(i, "big", {"size": ANSWER}) for i in range(1, 9)))
    time.sleep(0.5)  # nothing read meanwhile
    assert proc.stdout is not None
    answers: dict[int, Any] = {}
    reader = threading.Thread(
        target=lambda: answers.update(
            (message["id"], message)
            for message in map(json.loads, iter(proc.stdout.readline, b""))  # type: ignore[union-attr]
        ),
        daemon=True,
    )
    reader.start()
    wait_for(lambda: len(answers) == 9, "answer to every request")
    texts = [answers[i]["result"]["content"][0]["text"] for i in range(1, 9)]
    assert texts == ["x" * ANSWER] * 8


def test_a_client_that_stopped_reading_ends_the_session_once_the_limit_is_passed(start: Any) -> None:
    limit = 1 << 20
    proc = start(limit=limit)
    stderr = bytearray()
    assert proc.stderr is not None
    threading.Thread(target=lambda: stderr.extend(proc.stderr.read()), daemon=True).start()  # type: ignore[union-attr]
    # eight calls read at once: their 2 MiB of answers pass the limit, and nobody reads them
    send(proc, handshake() + b"".join(call(i, "big", {"size": ANSWER}) for i in range(1, 9)))
    wait_for(lambda: proc.poll() is not None, "end of the session")
    wait_for(lambda: b"stopped reading" in stderr, "log line")
    text = stderr.decode(errors="replace")
    assert "stdout: the client has not read" in text and f"(MAX_UNWRITTEN is {limit})" in text, text


def test_the_stdin_reader_thread_waits_while_answers_wait_unread() -> None:
    from mcplite.transports.stdio import _read_messages

    stream = io.BytesIO(b'{"jsonrpc":"2.0","id":1,"method":"ping"}\n' * 10)
    handed: list[bytes] = []
    room, ended = threading.Event(), threading.Event()
    reader = threading.Thread(
        target=_read_messages,
        args=(stream, 1 << 20, handed.append, lambda size: None, ended.set, threading.Semaphore(64), room),
        daemon=True,
    )
    reader.start()
    time.sleep(0.2)
    assert handed == [] and not ended.is_set()  # the client has not read what waits: nothing read
    room.set()
    reader.join(5)
    assert len(handed) == 10 and ended.is_set()
