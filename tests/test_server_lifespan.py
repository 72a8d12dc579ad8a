"""The lifespan under ``uvicorn --workers 2``: entered once in each worker process before it
serves, its state what that worker's tools see, and left in each when the server shuts down."""

from __future__ import annotations

import collections
import contextlib
import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tests.serving import free_port
from tests.test_server_http_clients import MODERN_META, ROOT

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")


def call_worker(client: httpx.Client, url: str, request_id: int) -> list[int]:
    headers = {
        "accept": "application/json, text/event-stream",
        "mcp-protocol-version": "2026-07-28",
        "mcp-method": "tools/call",
        "mcp-name": "worker",
    }
    params = {"name": "worker", "arguments": {}, "_meta": MODERN_META}
    body = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    response = client.post(url, json=body, headers=headers)
    assert response.status_code == 200, response.text
    pids: list[int] = json.loads(response.json()["result"]["content"][0]["text"])
    return pids


def test_entered_once_per_worker_and_left_on_shutdown(tmp_path: Path) -> None:
    log = tmp_path / "lifespan.log"
    port = free_port()
    command = [
        sys.executable, "-m", "uvicorn", "--factory", "tests.servers.lifespan_log:http_app",
        "--host", "127.0.0.1", "--port", str(port), "--workers", "2", "--log-level", "warning",
    ]  # fmt: skip
    env = {
        **os.environ,
        "MCPLITE_LIFESPAN_LOG": str(log),
        "PYTHONPATH": os.pathsep.join(filter(None, [str(ROOT), os.environ.get("PYTHONPATH")])),
    }
    process = subprocess.Popen(command, cwd=ROOT, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    url = f"http://127.0.0.1:{port}/mcp"
    seen: set[int] = set()
    try:
        deadline = time.monotonic() + 30
        with httpx.Client(timeout=10, limits=httpx.Limits(max_keepalive_connections=0)) as client:
            request_id = 0
            while len(seen) < 2:
                assert process.poll() is None, process.stderr.read().decode() if process.stderr else ""
                assert time.monotonic() < deadline, f"both workers did not answer: {seen}"
                request_id += 1
                with contextlib.suppress(httpx.TransportError):
                    pid, state_pid = call_worker(client, url, request_id)
                    assert state_pid == pid  # each worker's tools see its own lifespan's state
                    seen.add(pid)
                    continue
                time.sleep(0.1)
    finally:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
    events = collections.Counter(tuple(line.split()) for line in log.read_text().splitlines())
    assert events == {(event, str(pid)): 1 for pid in seen for event in ("enter", "leave")}


def test_stdio_enters_before_the_first_call_and_leaves_when_stdin_closes(tmp_path: Path) -> None:
    log = tmp_path / "lifespan.log"
    env = {**os.environ, "MCPLITE_LIFESPAN_LOG": str(log)}
    script = ROOT / "tests" / "servers" / "lifespan_log.py"
    hello = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}}
    messages = [
        {"jsonrpc": "2.0", "id": 0, "method": "initialize", "params": hello},
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": 1, "method": "tools/call", "params": {"name": "worker", "arguments": {}}},
    ]
    with subprocess.Popen(
        [sys.executable, str(script)], env=env, stdin=subprocess.PIPE, stdout=subprocess.PIPE
    ) as process:
        assert process.stdin is not None and process.stdout is not None
        for message in messages:
            process.stdin.write(json.dumps(message).encode() + b"\n")
        process.stdin.flush()
        answers = [json.loads(process.stdout.readline()) for _ in range(2)]
        process.stdin.close()
        assert process.wait(20) == 0
    pid, state_pid = json.loads(answers[1]["result"]["content"][0]["text"])
    assert pid == state_pid == process.pid
    assert log.read_text().splitlines() == [f"enter {pid}", f"leave {pid}"]
