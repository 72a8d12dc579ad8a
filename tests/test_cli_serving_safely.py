"""Serving over HTTP safely from the command line: a warning when a server without
authentication listens beyond loopback, the ``--allowed-host``, ``--allowed-origin`` and
``--token-env`` flags, and a 421 whose text says what is true of the server.

The end-to-end test runs ``python -m mcplite demo --http`` on a free loopback port; nothing here
listens anywhere else (the warning for ``0.0.0.0`` is checked with uvicorn stood in for).
"""

from __future__ import annotations

import asyncio
import logging
import os
import subprocess
import sys
import time
import types
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

from mcplite import McpServer, cli
from mcplite.transports.http import serve

httpx = pytest.importorskip("httpx")
pytest.importorskip("uvicorn")

from tests.serving import free_port  # noqa: E402  (after the skips: it needs uvicorn)

ROOT = Path(__file__).parent.parent

INITIALIZE = {
    "jsonrpc": "2.0",
    "id": 1,
    "method": "initialize",
    "params": {
        "protocolVersion": "2025-06-18",
        "capabilities": {},
        "clientInfo": {"name": "t", "version": "1"},
    },
}
HEADERS = {"accept": "application/json, text/event-stream", "content-type": "application/json"}


# -- the warning ------------------------------------------------------------------------------------


class FakeUvicorn(types.ModuleType):
    """Stands in for uvicorn: records the config it is given and binds nothing."""

    def __init__(self) -> None:
        super().__init__("uvicorn")
        self.configs: list[dict[str, Any]] = []
        fake = self

        class Config:
            def __init__(self, app: Any, **settings: Any) -> None:
                fake.configs.append(settings)

        class Server:
            started = True
            should_exit = False

            def __init__(self, config: Any) -> None:
                pass

            def run(self) -> None:
                pass

            def handle_exit(self, sig: int, frame: Any) -> None:
                pass

        self.Config, self.Server = Config, Server


@pytest.fixture
def fake_uvicorn(monkeypatch: pytest.MonkeyPatch) -> FakeUvicorn:
    module = FakeUvicorn()
    monkeypatch.setitem(sys.modules, "uvicorn", module)
    return module


def check(token: str) -> bool:
    return token == "secret"


@pytest.mark.parametrize("host", ["0.0.0.0", "::", "192.0.2.7", "mcp.example.com"])
def test_serving_beyond_loopback_without_authentication_warns(
    fake_uvicorn: FakeUvicorn,
    host: str,
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="mcplite"):
        serve.serve_http(McpServer("open").asgi_app(), host=host, port=8123)
    assert fake_uvicorn.configs[0]["host"] == host
    [record] = [r for r in caplog.records if r.levelno == logging.WARNING]
    message = record.getMessage()
    assert f"{host}" in message and "no authentication" in message and "--token-env" in message
    assert message in capsys.readouterr().err  # on stderr too, whatever the logging set-up


@pytest.mark.parametrize(
    ("host", "settings"),
    [
        ("127.0.0.1", {}),
        ("localhost", {}),
        ("::1", {}),
        ("0.0.0.0", {"authenticate": check}),
    ],
)
def test_loopback_or_authentication_serves_quietly(
    fake_uvicorn: FakeUvicorn,
    host: str,
    settings: dict[str, Any],
    capsys: pytest.CaptureFixture[str],
    caplog: pytest.LogCaptureFixture,
) -> None:
    with caplog.at_level(logging.WARNING, logger="mcplite"):
        serve.serve_http(McpServer("closed").asgi_app(**settings), host=host, port=8123)
    assert fake_uvicorn.configs and not [r for r in caplog.records if r.levelno >= logging.WARNING]
    assert "authentication" not in capsys.readouterr().err


def test_the_warning_reaches_stderr_once_when_mcplite_logs_there() -> None:
    """Without the application's logging set up, the log is stderr: the warning is written once."""
    done = subprocess.run(
        [sys.executable, "-c", SERVE_OPEN],
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env={**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])},
    )
    assert done.returncode == 0, done.stderr
    assert done.stderr.count("no authentication") == 1, done.stderr


SERVE_OPEN = """
import sys
from tests.test_cli_serving_safely import FakeUvicorn
sys.modules["uvicorn"] = FakeUvicorn()
from mcplite import McpServer
McpServer("open").run("http", host="0.0.0.0", port=8123)
"""


# -- the flags --------------------------------------------------------------------------------------


@pytest.fixture
def ran(monkeypatch: pytest.MonkeyPatch) -> list[dict[str, Any]]:
    """McpServer.run's arguments, recorded instead of serving."""
    calls: list[dict[str, Any]] = []

    def run(self: McpServer, transport: str = "stdio", **settings: Any) -> None:
        calls.append({"transport": transport, **settings})

    monkeypatch.setattr(McpServer, "run", run)
    return calls


def test_the_flags_reach_the_http_app(ran: list[dict[str, Any]], monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DEMO_TOKEN", "s3cret")
    argv = [
        "demo",
        "--http",
        "--allowed-host",
        "mcp.example.com",
        "--allowed-host",
        "mcp.example.org:8443",
        "--allowed-origin",
        "https://app.example.com",
        "--token-env",
        "DEMO_TOKEN",
    ]
    assert cli.main(argv) == 0
    [call] = ran
    assert call["allowed_hosts"] == ["mcp.example.com", "mcp.example.org:8443"]
    assert call["allowed_origins"] == ["https://app.example.com"]
    authenticate = call["authenticate"]
    assert authenticate("s3cret") is True and authenticate("s3cre") is False and authenticate("") is False
    monkeypatch.setenv("DEMO_TOKEN", "changed")  # read once, when the server starts
    assert authenticate("s3cret") is True


def test_without_flags_the_app_keeps_its_defaults(ran: list[dict[str, Any]]) -> None:
    assert cli.main(["demo", "--http"]) == 0
    [call] = ran
    assert "authenticate" not in call and "allowed_hosts" not in call and "allowed_origins" not in call


@pytest.mark.parametrize(
    ("argv", "environment", "message"),
    [
        (
            ["demo", "--token-env", "DEMO_TOKEN"],
            {"DEMO_TOKEN": "x"},
            "go with --http, as do --allowed-host, --allowed-origin and --token-env (given: --token-env)",
        ),
        (["demo", "--allowed-host", "a.example"], {}, "(given: --allowed-host)"),
        (["demo", "--http", "--token-env", "ABSENT_TOKEN"], {}, "ABSENT_TOKEN is not set"),
        (["demo", "--http", "--token-env", "DEMO_TOKEN"], {"DEMO_TOKEN": ""}, "DEMO_TOKEN is empty"),
    ],
)
def test_flag_mistakes_are_usage_errors(
    ran: list[dict[str, Any]],
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
    argv: list[str],
    environment: dict[str, str],
    message: str,
) -> None:
    monkeypatch.delenv("ABSENT_TOKEN", raising=False)
    for name, value in environment.items():
        monkeypatch.setenv(name, value)
    assert cli.main(argv) == 2 and not ran
    assert message in capsys.readouterr().err


def test_the_help_says_why_the_token_comes_from_the_environment(capsys: pytest.CaptureFixture[str]) -> None:
    assert cli.main(["demo", "--help"]) == 0
    text = " ".join(capsys.readouterr().out.split())
    assert "--allowed-host HOST" in text and "--allowed-origin ORIGIN" in text and "--token-env NAME" in text
    assert "process list" in text


# -- end to end ------------------------------------------------------------------------------------


@pytest.fixture
def demo_over_http() -> Iterator[tuple[str, subprocess.Popen[str]]]:
    """``python -m mcplite demo --http`` on a free loopback port, with a token and an allowed host."""
    port = free_port()
    env = {
        **os.environ,
        "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")]),
        "DEMO_TOKEN": "s3cret",
    }
    argv = ["--port", str(port), "--token-env", "DEMO_TOKEN", "--allowed-host", "mcp.example.com"]
    argv += ["--allowed-origin", "https://app.example.com"]
    process = subprocess.Popen(
        [sys.executable, "-m", "mcplite", "demo", "--http", *argv],
        stderr=subprocess.PIPE,
        stdout=subprocess.DEVNULL,
        text=True,
        cwd=ROOT,
        env=env,
    )
    base = f"http://127.0.0.1:{port}"
    try:
        deadline = time.monotonic() + 30
        while True:
            assert process.poll() is None and time.monotonic() < deadline, "the demo did not start"
            try:
                httpx.get(base + "/", timeout=1)
                break
            except httpx.TransportError:
                time.sleep(0.1)
        yield base, process
    finally:
        process.terminate()
        process.wait(10)
        if process.stderr is not None:
            process.stderr.close()


def test_the_demo_over_http_checks_token_host_and_origin(
    demo_over_http: tuple[str, subprocess.Popen[str]],
) -> None:
    base, process = demo_over_http

    def post(**headers: str) -> Any:
        return httpx.post(base + "/mcp", json=INITIALIZE, headers={**HEADERS, **headers}, timeout=10)

    bearer = "Bearer s3cret"
    assert post().status_code == 401
    assert post(authorization="Bearer wrong").status_code == 401
    assert post(authorization=bearer).status_code == 200
    assert post(authorization=bearer, host="mcp.example.com").status_code == 200
    assert post(authorization=bearer, origin="https://app.example.com").status_code == 200
    assert post(authorization=bearer, origin="https://other.example").status_code == 403
    misdirected = post(authorization=bearer, host="rebound.example")
    assert misdirected.status_code == 421
    message = misdirected.json()["error"]["message"]
    assert "rebound.example" in message and "127.0.0.1" in message and "allowed_hosts" in message
    process.terminate()
    _, errors = process.communicate(timeout=10)
    assert "no authentication" not in errors


# -- the 421 text -----------------------------------------------------------------------------------


@pytest.mark.parametrize("arrived_at", ["127.0.0.1", "::1"])
def test_the_421_names_the_loopback_address_the_request_arrived_at(arrived_at: str) -> None:
    """A server bound to 0.0.0.0 and reached through loopback refuses a foreign Host too: its text
    says the request came in on loopback, not that the server listens only there."""
    app = McpServer("s").asgi_app()
    url = f"http://[{arrived_at}]:8000/mcp" if ":" in arrived_at else f"http://{arrived_at}:8000/mcp"

    async def post() -> Any:
        transport = httpx.ASGITransport(app=app)
        async with httpx.AsyncClient(transport=transport) as client:
            return await client.post(url, json=INITIALIZE, headers={**HEADERS, "host": "rebound.example"})

    answer = asyncio.run(post())
    assert answer.status_code == 421
    message = answer.json()["error"]["message"]
    assert "rebound.example" in message and arrived_at in message and "allowed_hosts" in message
