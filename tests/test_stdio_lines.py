"""How the stdio transport cuts its input into messages: the same lines and oversize reports
however the bytes arrive, read on the event loop (a pipe) or by the reader thread (anything else)."""

from __future__ import annotations

import asyncio
import contextlib
import io
import json
import os
import threading
from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

import mcplite
from mcplite.transports import stdio
from mcplite.transports.stdio import _Lines, serve_connection

LIMIT = 40


def expected(data: bytes, limit: int) -> list[bytes | int]:
    """The rule, written plainly: each line (newline kept), or its size when its text is over ``limit``."""
    out: list[bytes | int] = []
    for line in _split(data):
        text = line[:-1] if line.endswith(b"\n") else line
        out.append(len(line) if len(text) > limit else line)
    return out


def _split(data: bytes) -> list[bytes]:
    parts = data.split(b"\n")
    lines = [part + b"\n" for part in parts[:-1]]
    return lines + ([parts[-1]] if parts[-1] else [])


lines_of = st.lists(st.binary(max_size=60).map(lambda b: b.replace(b"\n", b"x")), max_size=12)


@given(lines_of, st.booleans(), st.lists(st.integers(1, 50), max_size=30))
def test_any_chunking_gives_the_same_lines(texts: list[bytes], last_newline: bool, cuts: list[int]) -> None:
    data = b"\n".join(texts) + (b"\n" if last_newline and texts else b"")
    lines, got, start = _Lines(LIMIT), [], 0
    for size in cuts:
        got += lines.feed(data[start : start + size])
        start += size
    got += lines.feed(data[start:])
    got += lines.finish()
    assert got == expected(data, LIMIT)


def _echo_server() -> mcplite.McpServer:
    server = mcplite.McpServer("lines", max_message_size=200)

    @server.handlers.handler("test/echo")
    def echo(request: Any) -> dict[str, Any]:
        return {"echo": request.params.get("text")}

    return server


def _message(request_id: int, text: str) -> bytes:
    hello = {"protocolVersion": "2026-07-28", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    params: dict[str, Any] = {"text": text, "_meta": {}}
    if request_id == 1:
        return (
            json.dumps({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello}).encode() + b"\n"
        )
    return (
        json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "test/echo", "params": params}).encode()
        + b"\n"
    )


INPUT = b"".join(
    [
        _message(1, ""),
        b"\n   \n",  # blank lines: skipped
        _message(2, "short"),
        _message(3, "x" * 500),  # over the limit: an error with a null id, and serving goes on
        _message(4, "after"),
        _message(5, "no newline at the end").rstrip(b"\n"),
    ]
)


def _answers(output: bytes) -> list[tuple[Any, Any]]:
    messages = [json.loads(line) for line in output.splitlines()]
    return [(m["id"], m.get("result", {}).get("echo", m.get("error", {}).get("code"))) for m in messages]


def _serve(stream: Any) -> bytes:
    read_end, write_end = os.pipe()
    try:
        asyncio.run(serve_connection(_echo_server().engine, stream, write_end, shutdown_grace=1.0))
        os.close(write_end)
        with os.fdopen(read_end, "rb") as output:
            return output.read()
    finally:
        with contextlib.suppress(OSError):
            os.close(write_end)


EXPECTED = [(1, None), (2, "short"), (None, -32600), (4, "after"), (5, "no newline at the end")]


def test_a_stream_without_a_descriptor_is_read_by_the_thread() -> None:
    answers = _answers(_serve(io.BytesIO(INPUT)))
    assert answers[0][0] == 1 and answers[1:] == EXPECTED[1:]


def test_a_pipe_is_read_on_the_event_loop_in_any_pieces(monkeypatch: pytest.MonkeyPatch) -> None:
    def no_thread(*args: Any) -> None:
        raise AssertionError("a pipe is read on the event loop, not by the reader thread")

    monkeypatch.setattr(stdio, "_read_messages", no_thread)
    read_end, write_end = os.pipe()

    def trickle() -> None:  # the bytes arrive in odd pieces, cut mid-line
        with os.fdopen(write_end, "wb", buffering=0) as pipe:
            for start in range(0, len(INPUT), 37):
                pipe.write(INPUT[start : start + 37])

    writer = threading.Thread(target=trickle)
    writer.start()
    with os.fdopen(read_end, "rb") as stream:
        answers = _answers(_serve(stream))
        assert os.get_blocking(stream.fileno())  # left as it was found
    writer.join()
    assert answers[0][0] == 1 and answers[1:] == EXPECTED[1:]
