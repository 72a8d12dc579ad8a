"""Benchmark: tools/call over Streamable HTTP under concurrent load, mcplite's ``asgi_app()`` against
the official SDK's ``MCPServer.streamable_http_app()`` serving the same tools, in the same run.

Both servers run under ``uvicorn --workers 2`` on 127.0.0.1 (``benchmarks/servers/*_http_app.py``;
tools ``add(a, b)``, ``small_frame()`` with 100 rows and ``frame()`` with 10,000, as in
``bench_server.py``). N clients, each on its own keep-alive connection, make M sequential raw
JSON-RPC POSTs each, all at once. The load generator is a minimal HTTP/1.1 client (``RawHttp``;
``--client httpx2`` for ``httpx2.AsyncClient``): a real client's parsing would hide the servers, and
the 2 cores are shared with them. Every answer is checked: status 200, JSON, its own id, and its
value: ``add`` must answer ``a + b`` for that call's arguments (unique per call), a frame must be
byte for byte the answer whose content was compared with the same tool called in-process, id aside.

Modes: ``2026-07-28`` (stateless: no session, the version in each request's ``_meta`` and in the
``MCP-Protocol-Version``, ``Mcp-Method`` and ``Mcp-Name`` headers; the SDK app built with
``stateless_http=True``) and ``session`` (legacy 2025-11-25: each client opens a session with
``initialize`` before the timed calls and sends ``Mcp-Session-Id``; the SDK app with
``stateless_http=False``). Both SDK apps answer in JSON (``json_response=True``), as mcplite does.
The two servers' phases alternate round by round (with a bare ASGI app, the floor, in the ``add``
rounds); each figure is from the round with the highest throughput, and the SDK's server in the
same run is the anchor of every ratio.

Run: ``python benchmarks/bench_http.py [--clients 50] [--calls 100] [--small-calls 20]
[--frame-clients 4] [--frame-calls 2] [--rounds 2] [--modes 2026-07-28,session] [--client raw]
[--markdown benchmarks/results/http.md]`` (about 3 minutes on 2 cores).
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import importlib
import json
import logging
import os
import platform
import re
import signal
import socket
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass, field
from importlib import metadata
from pathlib import Path
from typing import Any

import httpx2
import numpy as np

from mcplite.payload.rjson import options_in_force

# MCPServer's constructor sets the root logger to INFO, which would log every request httpx2 makes here
logging.getLogger("httpx2").setLevel(logging.WARNING)

HERE = Path(__file__).resolve().parent
SERVER_DIR = HERE / "servers"
MODES = ("2026-07-28", "session")
MODERN_VERSION = "2026-07-28"
SESSION_VERSION = "2025-11-25"
SERVERS = ("mcplite", "sdk")
# server -> mode -> the uvicorn factory (module:function under benchmarks/servers)
APPS = {
    "mcplite": {"2026-07-28": "mcplite_http_app:app", "session": "mcplite_http_app:app"},
    "sdk": {"2026-07-28": "sdk_http_app:stateless", "session": "sdk_http_app:sessions"},
}
MODULES = {"mcplite": "mcplite_http_app", "sdk": "sdk_http_app"}
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": MODERN_VERSION,
    "io.modelcontextprotocol/clientCapabilities": {},
}
BASE_HEADERS = {"Content-Type": "application/json", "Accept": "application/json, text/event-stream"}
LABELS = {"add": "`add(a, b)`", "small_frame": "`small_frame()`, 100 rows", "frame": "`frame()`, 10,000 rows"}
STARTUP_SECONDS = 120.0
FLOOR = "bench_http:floor_app"


class BadAnswer(AssertionError):
    """A server answered a call wrongly (status, id or value)."""


# -- the servers -----------------------------------------------------------------------------------


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def cpu_seconds(pid: int) -> float:
    """User + system CPU time of a process so far, all threads (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


class Uvicorn:
    """``uvicorn --factory --workers N`` serving one app factory on 127.0.0.1 (a context manager).

    >>> with Uvicorn("sdk_http_app:stateless") as served:  # doctest: +SKIP
    ...     served.url
    'http://127.0.0.1:40123/mcp'
    """

    def __init__(self, factory: str, *, workers: int = 2, app_dir: Path = SERVER_DIR) -> None:
        self.factory = factory
        self.workers = workers
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}/mcp"
        self.worker_pids: list[int] = []
        self._log = tempfile.NamedTemporaryFile(prefix="bench-http-", suffix=".log", delete=False)
        command = [
            sys.executable, "-m", "uvicorn", "--factory", "--app-dir", str(app_dir),
            "--host", "127.0.0.1", "--port", str(self.port), "--workers", str(workers),
            "--log-level", "info", "--no-access-log", factory,
        ]  # fmt: skip
        self.proc = subprocess.Popen(command, stdout=self._log, stderr=subprocess.STDOUT)

    def log(self) -> str:
        return Path(self._log.name).read_text(errors="replace")

    def wait_started(self) -> None:
        """Until every worker has loaded the app (uvicorn logs "Started server process [pid]")."""
        deadline = time.monotonic() + STARTUP_SECONDS
        while time.monotonic() < deadline:
            pids = [int(pid) for pid in re.findall(r"Started server process \[(\d+)\]", self.log())]
            if len(pids) >= self.workers:
                self.worker_pids = pids
                return
            if self.proc.poll() is not None:
                break
            time.sleep(0.1)
        raise RuntimeError(f"uvicorn {self.factory} did not start its workers:\n{self.log()[-3000:]}")

    def cpu_seconds(self) -> list[float]:
        return [cpu_seconds(pid) for pid in self.worker_pids]

    def close(self) -> None:
        if self.proc.poll() is None:
            self.proc.send_signal(signal.SIGINT)
            try:
                self.proc.wait(timeout=15)
            except subprocess.TimeoutExpired:
                self.proc.kill()
                self.proc.wait()
        self._log.close()
        Path(self._log.name).unlink(missing_ok=True)

    def __enter__(self) -> Uvicorn:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()


# -- the two HTTP clients -------------------------------------------------------------------------


@dataclass
class Reply:
    """An HTTP response: status, headers (names in lower case) and body."""

    status: int
    headers: dict[str, str]
    content: bytes


class RawHttp:
    """One keep-alive HTTP/1.1 connection over asyncio streams: a request out, a response back.

    It does no more than the benchmark needs (``Content-Length`` or chunked bodies), so that on a
    2-core machine the load generator leaves the CPU to the servers.
    """

    def __init__(self, url: str) -> None:
        address = httpx2.URL(url)
        self.host, self.port, self.path = address.host, address.port or 80, address.path
        self._streams: tuple[asyncio.StreamReader, asyncio.StreamWriter] | None = None

    async def request(self, method: str, body: bytes, headers: dict[str, str]) -> Reply:
        if self._streams is None:
            self._streams = await asyncio.open_connection(self.host, self.port, limit=1 << 20)
        reader, writer = self._streams
        lines = [f"{method} {self.path} HTTP/1.1", f"Host: {self.host}:{self.port}"]
        lines += [f"{name}: {value}" for name, value in {**headers, "Content-Length": len(body)}.items()]
        writer.write(("\r\n".join(lines) + "\r\n\r\n").encode("latin-1") + body)
        head = (await reader.readuntil(b"\r\n\r\n")).decode("latin-1").split("\r\n")
        fields = dict(line.split(":", 1) for line in head[1:] if line)
        found = {name.strip().lower(): value.strip() for name, value in fields.items()}
        if "content-length" in found:
            content = await reader.readexactly(int(found["content-length"]))
        elif found.get("transfer-encoding") == "chunked":
            content = await self._chunks(reader)
        else:
            content = await reader.read()
        framed = "content-length" in found or "transfer-encoding" in found
        if found.get("connection") == "close" or not framed:
            await self.aclose()
        return Reply(int(head[0].split()[1]), found, content)

    @staticmethod
    async def _chunks(reader: asyncio.StreamReader) -> bytes:
        parts = []
        while size := int((await reader.readuntil(b"\r\n")).split(b";")[0], 16):
            parts.append((await reader.readexactly(size + 2))[:-2])
        await reader.readuntil(b"\r\n")
        return b"".join(parts)

    async def aclose(self) -> None:
        if self._streams is not None:
            self._streams[1].close()
            self._streams = None


class Httpx2Http:
    """The same requests through ``httpx2.AsyncClient`` (one connection), for comparison."""

    def __init__(self, url: str) -> None:
        self.url = url
        limits = httpx2.Limits(max_connections=1, max_keepalive_connections=1, keepalive_expiry=600)
        self.http = httpx2.AsyncClient(limits=limits, timeout=600, trust_env=False)

    async def request(self, method: str, body: bytes, headers: dict[str, str]) -> Reply:
        response = await self.http.request(method, self.url, content=body, headers=headers)
        return Reply(response.status_code, dict(response.headers.items()), response.content)

    async def aclose(self) -> None:
        await self.http.aclose()


Http = RawHttp | Httpx2Http
CLIENTS: dict[str, Callable[[str], Http]] = {"raw": RawHttp, "httpx2": Httpx2Http}


# -- requests and the checks of their answers ------------------------------------------------------


def call_body(request_id: str, tool: str, arguments: dict[str, Any], mode: str) -> bytes:
    params: dict[str, Any] = {"name": tool, "arguments": arguments}
    if mode == MODERN_VERSION:
        params["_meta"] = MODERN_META
    message = {"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params}
    return json.dumps(message, separators=(",", ":")).encode()


def call_headers(tool: str, mode: str, session_id: str | None) -> dict[str, str]:
    if mode == MODERN_VERSION:
        return {**BASE_HEADERS, "MCP-Protocol-Version": MODERN_VERSION, "Mcp-Method": "tools/call",
                "Mcp-Name": tool}  # fmt: skip
    assert session_id is not None
    return {**BASE_HEADERS, "MCP-Protocol-Version": SESSION_VERSION, "Mcp-Session-Id": session_id}


def arguments_for(tool: str, client: int, call: int) -> dict[str, Any]:
    """``add`` gets arguments unique to the call, so that its answer cannot be another call's."""
    return {"a": client, "b": 1000 + call} if tool == "add" else {}


def answer(response: Reply, request_id: str) -> dict[str, Any]:
    """The JSON-RPC result of a tools/call answer, or ``BadAnswer``."""
    kind = response.headers.get("content-type", "")
    if response.status != 200 or not kind.startswith("application/json"):
        raise BadAnswer(f"{request_id}: HTTP {response.status} {kind!r}: {response.content[:300]!r}")
    message = json.loads(response.content)
    if message.get("id") != request_id or "result" not in message:
        raise BadAnswer(f"{request_id}: answered {response.content[:300]!r}")
    result: dict[str, Any] = message["result"]
    if result.get("isError"):
        raise BadAnswer(f"{request_id}: tool error {response.content[:300]!r}")
    return result


def check_add(response: Reply, request_id: str, arguments: dict[str, Any]) -> None:
    text = answer(response, request_id)["content"][0]["text"]
    if text != str(arguments["a"] + arguments["b"]):
        raise BadAnswer(f"{request_id}: add({arguments}) answered {text!r}")


def without_id(body: bytes, request_id: str) -> bytes:
    """The body with its (quoted, unique) id blanked, so that answers to equal calls compare as bytes."""
    quoted = json.dumps(request_id).encode()
    if body.count(quoted) != 1:
        raise BadAnswer(f"{request_id}: the id is not in the answer once: {body[:300]!r}")
    return body.replace(quoted, b'"?"')


Check = Callable[[Reply, str, dict[str, Any]], None]


def same_as(reference: bytes) -> Check:
    """A check that an answer is ``reference`` (an answer already checked, its id blanked)."""

    def check(response: Reply, request_id: str, arguments: dict[str, Any]) -> None:
        kind = response.headers.get("content-type", "")
        if response.status != 200 or not kind.startswith("application/json"):
            raise BadAnswer(f"{request_id}: HTTP {response.status} {kind!r}: {response.content[:300]!r}")
        if without_id(response.content, request_id) != reference:
            raise BadAnswer(f"{request_id}: not the answer checked before: {response.content[:300]!r}")

    return check


def server_module(server: str) -> Any:
    if str(SERVER_DIR) not in sys.path:
        sys.path.insert(0, str(SERVER_DIR))
    return importlib.import_module(MODULES[server])


async def in_process_content(server: str, tool: str, arguments: dict[str, Any], version: str) -> Any:
    """The ``content`` the same tool gives in-process, as wire JSON."""
    module = server_module(server)
    if server == "mcplite":
        value = getattr(module, tool)(**arguments)
        result = module.server.get_tool(tool).to_result(value, options_in_force())
        return result.to_wire(version)["content"]
    result = await module.server.call_tool(tool, arguments)
    return result.model_dump(mode="json", by_alias=True, exclude_none=True)["content"]


# -- one client, one phase -------------------------------------------------------------------------


async def open_session(http: Http) -> str:
    """A legacy session: ``initialize`` then ``notifications/initialized``; returns its id."""
    init = {
        "jsonrpc": "2.0", "id": "init", "method": "initialize",
        "params": {"protocolVersion": SESSION_VERSION, "capabilities": {},
                   "clientInfo": {"name": "bench-http", "version": "0"}},
    }  # fmt: skip
    reply = await http.request("POST", json.dumps(init).encode(), BASE_HEADERS)
    session_id = reply.headers.get("mcp-session-id")
    if reply.status != 200 or not session_id:
        raise BadAnswer(f"initialize: HTTP {reply.status}, session {session_id!r}: {reply.content[:300]!r}")
    if json.loads(reply.content)["result"]["protocolVersion"] != SESSION_VERSION:
        raise BadAnswer(f"initialize did not agree on {SESSION_VERSION}: {reply.content[:300]!r}")
    headers = {**BASE_HEADERS, "MCP-Protocol-Version": SESSION_VERSION, "Mcp-Session-Id": session_id}
    done = await http.request("POST", b'{"jsonrpc":"2.0","method":"notifications/initialized"}', headers)
    if done.status != 202:
        raise BadAnswer(f"notifications/initialized: HTTP {done.status}: {done.content[:300]!r}")
    return session_id


async def connect(http: Http, mode: str) -> str | None:
    """Opens the client's connection: with a session (its id is returned), or with a stateless tools/list."""
    if mode == "session":
        return await open_session(http)
    body = {"jsonrpc": "2.0", "id": "list", "method": "tools/list", "params": {"_meta": MODERN_META}}
    headers = {**BASE_HEADERS, "MCP-Protocol-Version": MODERN_VERSION, "Mcp-Method": "tools/list"}
    reply = await http.request("POST", json.dumps(body).encode(), headers)
    if reply.status != 200 or b'"tools"' not in reply.content:
        raise BadAnswer(f"tools/list: HTTP {reply.status}: {reply.content[:300]!r}")
    return None


async def end_session(http: Http, session_id: str | None) -> None:
    if session_id is not None:
        headers = {"MCP-Protocol-Version": SESSION_VERSION, "Mcp-Session-Id": session_id}
        await http.request("DELETE", b"", headers)


class StartLine:
    """Lets clients connect one at a time, then holds them until all are warmed up and lets them go at once.

    uvicorn's workers share one listening socket and a worker accepts every connection waiting when
    it wakes, so 50 clients connecting at the same instant tend to land on one worker.
    """

    def __init__(self, clients: int) -> None:
        self.connecting = asyncio.Lock()
        self.waiting = clients
        self.go = asyncio.Event()
        self.started = 0.0

    async def arrive(self) -> None:
        self.waiting -= 1
        if self.waiting == 0:
            self.started = time.perf_counter()
            self.go.set()
        await self.go.wait()


@dataclass
class Job:
    """What every client of a phase does: where, how and which tool, and the check of each answer."""

    url: str
    client: str
    mode: str
    tool: str
    calls: int
    check: Check


async def run_client(job: Job, index: int, start: StartLine) -> tuple[np.ndarray, float]:
    """One client's timed calls, after connecting and one untimed call: latencies (s), and when it ended."""
    latencies = np.empty(job.calls)
    http = CLIENTS[job.client](job.url)
    try:
        async with start.connecting:
            session_id = await connect(http, job.mode)
        headers = call_headers(job.tool, job.mode, session_id)
        plan = [(f"c{index}-{call}", arguments_for(job.tool, index, call)) for call in range(-1, job.calls)]
        bodies = [call_body(request_id, job.tool, arguments, job.mode) for request_id, arguments in plan]
        request, clock, check = http.request, time.perf_counter, job.check
        for call, ((request_id, arguments), body) in enumerate(zip(plan, bodies)):
            if call == 1:
                await start.arrive()
            began = clock()
            response = await request("POST", body, headers)
            if call:
                latencies[call - 1] = clock() - began
            check(response, request_id, arguments)
        ended = clock()
        await end_session(http, session_id)
    finally:
        await http.aclose()
    return latencies, ended


@dataclass
class Phase:
    """N clients x M calls against one server: what was measured."""

    clients: int
    calls: int
    seconds: float
    latencies: np.ndarray
    server_cpu: list[float]  # per worker
    client_cpu: float

    @property
    def total(self) -> int:
        return self.clients * self.calls

    @property
    def server_seconds(self) -> float:
        return sum(self.server_cpu)

    @property
    def rate(self) -> float:
        return self.total / self.seconds


async def run_phase(served: Uvicorn, job: Job, clients: int) -> Phase:
    start = StartLine(clients)
    cpu_before = served.cpu_seconds()
    client_before = time.process_time()
    outcomes = await asyncio.gather(*(run_client(job, index, start) for index in range(clients)))
    seconds = max(ended for _, ended in outcomes) - start.started
    server_cpu = [after - before for before, after in zip(cpu_before, served.cpu_seconds())]
    return Phase(clients, job.calls, seconds, np.concatenate([lat for lat, _ in outcomes]), server_cpu,
                 time.process_time() - client_before)  # fmt: skip


async def reference_check(served: Uvicorn, server: str, mode: str, tool: str) -> tuple[Check, int]:
    """One call checked against the tool in-process: the check every later answer must pass, and its size."""
    arguments = arguments_for(tool, 1, 2)
    version = MODERN_VERSION if mode == MODERN_VERSION else SESSION_VERSION
    expected = await in_process_content(server, tool, arguments, version)
    http = RawHttp(served.url)
    try:
        session_id = await connect(http, mode)
        response = await http.request("POST", call_body("probe", tool, arguments, mode),
                                      call_headers(tool, mode, session_id))  # fmt: skip
        await end_session(http, session_id)
    finally:
        await http.aclose()
    if answer(response, "probe")["content"] != expected:
        raise BadAnswer(f"{server} {tool}: the content differs from the tool's in-process content")
    check = check_add if tool == "add" else same_as(without_id(response.content, "probe"))
    return check, len(response.content)


# -- the floor: what uvicorn costs by itself -------------------------------------------------------


async def _read_body(receive: Any) -> bytes:
    chunks = []
    while True:
        message = await receive()
        chunks.append(message.get("body", b""))
        if not message.get("more_body"):
            return b"".join(chunks)


def floor_app() -> Callable[[Any, Any, Any], Any]:
    """A bare ASGI app that answers ``add``'s tools/call and ``tools/list``, with no MCP server behind it.

    >>> callable(floor_app())
    True
    """

    async def app(scope: Any, receive: Any, send: Any) -> None:
        if scope["type"] != "http":
            return
        message = json.loads(await _read_body(receive))
        if message["method"] == "tools/call":
            arguments = message["params"]["arguments"]
            text = str(arguments["a"] + arguments["b"])
            result: dict[str, Any] = {"content": [{"type": "text", "text": text}], "isError": False}
        else:
            result = {"tools": []}
        body = json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}).encode()
        headers = [(b"content-type", b"application/json"), (b"content-length", b"%d" % len(body))]
        await send({"type": "http.response.start", "status": 200, "headers": headers})
        await send({"type": "http.response.body", "body": body})

    return app


# -- the run ---------------------------------------------------------------------------------------


@dataclass
class Measured:
    """What a run measured: the phases, the answers' sizes, the floor, and how busy the machine was."""

    phases: dict[str, dict[str, dict[str, list[Phase]]]] = field(default_factory=dict)  # mode, tool, server
    answer_bytes: dict[str, dict[str, dict[str, int]]] = field(default_factory=dict)  # mode, tool, server
    floor: list[Phase] = field(default_factory=list)
    load: list[float] = field(default_factory=list)  # 1-minute load average at the start and the end


@dataclass
class Plan:
    """Clients x calls per tool, rounds, workers and modes of one run."""

    sizes: dict[str, tuple[int, int]]
    rounds: int = 2
    workers: int = 2
    modes: tuple[str, ...] = MODES
    servers: tuple[str, ...] = SERVERS
    client: str = "raw"
    apps: dict[str, dict[str, str]] = field(default_factory=lambda: APPS)
    floor: bool = True
    log: Callable[[str], None] = field(default=lambda line: None)


@contextlib.contextmanager
def serving(plan: Plan) -> Iterator[dict[str, Uvicorn]]:
    """Every app the plan needs, by factory, launched together: their workers load side by side."""
    factories = dict.fromkeys(plan.apps[server][mode] for mode in plan.modes for server in plan.servers)
    with contextlib.ExitStack() as stack:
        served = {name: stack.enter_context(Uvicorn(name, workers=plan.workers)) for name in factories}
        if plan.floor:
            served[FLOOR] = stack.enter_context(Uvicorn(FLOOR, workers=plan.workers, app_dir=HERE))
        yield served


async def measure(plan: Plan) -> Measured:
    """Every phase of the plan, the servers' phases alternating round by round; raises on a bad answer.

    The floor app takes its turn in the rounds of ``add`` under 2026-07-28.
    """
    out = Measured(load=[os.getloadavg()[0]])
    with serving(plan) as apps:
        for server in plan.servers:  # the in-process tools for the checks, while the workers load
            server_module(server)
        for one in apps.values():
            one.wait_started()
        for mode in plan.modes:
            served = {server: apps[plan.apps[server][mode]] for server in plan.servers}
            out.phases[mode], out.answer_bytes[mode] = {}, {}
            for tool, (clients, calls) in plan.sizes.items():
                checks = {name: await reference_check(served[name], name, mode, tool) for name in served}
                out.answer_bytes[mode][tool] = {name: size for name, (_, size) in checks.items()}
                out.phases[mode][tool] = {server: [] for server in served}
                with_floor = plan.floor and tool == "add" and mode == MODERN_VERSION
                for _ in range(plan.rounds):
                    for server in served:
                        job = Job(served[server].url, plan.client, mode, tool, calls, checks[server][0])
                        phase = await run_phase(served[server], job, clients)
                        out.phases[mode][tool][server].append(phase)
                        plan.log(f"  {mode} {tool} {server}: {phase.rate:,.1f} calls/s")
                    if with_floor:
                        job = Job(apps[FLOOR].url, plan.client, mode, tool, calls, check_add)
                        out.floor.append(await run_phase(apps[FLOOR], job, clients))
                        plan.log(f"  {mode} {tool} floor: {out.floor[-1].rate:,.1f} calls/s")
    out.load.append(os.getloadavg()[0])
    return out


def best(phases: list[Phase]) -> Phase:
    return max(phases, key=lambda phase: phase.rate)


def machine() -> str:
    names = ("mcp", "uvicorn", "starlette", "httpx2", "pandas", "numpy")
    versions = ", ".join(f"{name} {metadata.version(name)}" for name in names)
    return f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs; {versions}"


def percentile_ms(phase: Phase, q: float) -> float:
    return float(np.percentile(phase.latencies, q)) * 1e3


def fmt(value: float) -> str:
    return f"{value:,.1f}" if value < 100 else f"{value:,.0f}"


def spread_of(phases: list[Phase]) -> float:
    """How much faster the best round was than the worst."""
    return max(p.rate for p in phases) / min(p.rate for p in phases) - 1


def pair(values: Iterable[str]) -> str:
    return " / ".join(values)


def table(measured: Measured) -> list[str]:
    lines = [
        "| protocol | tool | clients x calls | mcplite calls/s | SDK calls/s | mcplite / SDK | "
        "p50 ms: mcplite / SDK | p99 ms: mcplite / SDK | server CPU ms per call: mcplite / SDK | "
        "answer bytes: mcplite / SDK | busier worker's CPU share: mcplite / SDK | "
        "bench client CPU ms per call: mcplite / SDK | worst round vs best: mcplite / SDK |",
        "|---|---|---|---:|---:|---|---|---|---|---|---|---|---|",
    ]
    for mode, tools in measured.phases.items():
        for tool, servers in tools.items():
            rounds = [servers[server] for server in SERVERS]
            ours, theirs = chosen = [best(phases) for phases in rounds]
            p50, p99 = ([percentile_ms(phase, q) for phase in chosen] for q in (50, 99))
            cpu = pair(f"{min(p.server_seconds / p.total for p in phases) * 1e3:,.2f}" for phases in rounds)
            size = pair(f"{measured.answer_bytes[mode][tool][server]:,}" for server in SERVERS)
            share = pair(f"{max(p.server_cpu) / max(p.server_seconds, 1e-9):.0%}" for p in chosen)
            client = pair(f"{p.client_cpu / p.total * 1e3:,.2f}" for p in chosen)
            spread = pair(f"+{spread_of(phases):.0%}" for phases in rounds)
            cells = [
                mode, LABELS[tool], f"{ours.clients} x {ours.calls}", f"{ours.rate:,.1f}",
                f"{theirs.rate:,.1f}",
                f"{ours.rate / theirs.rate:.1f}x",
                f"{fmt(p50[0])} / {fmt(p50[1])} ({p50[0] / p50[1]:.2f}x)",
                f"{fmt(p99[0])} / {fmt(p99[1])} ({p99[0] / p99[1]:.2f}x)",
                cpu, size, share, client, spread,
            ]  # fmt: skip
            lines.append("| " + " | ".join(cells) + " |")
    return lines


def floor_note(measured: Measured) -> list[str]:
    if not measured.floor:
        return []
    floor = best(measured.floor)
    cpu = min(p.server_seconds for p in measured.floor) / floor.total * 1e3
    return [
        "- Floor: `bench_http.floor_app`, a bare ASGI app that parses each POST and answers `add`'s sum "
        "(no MCP server behind it), on the same uvicorn, in its turn in the 2026-07-28 `add` rounds: "
        f"{floor.rate:,.1f} calls/s, p50 {fmt(percentile_ms(floor, 50))} ms, "
        f"p99 {fmt(percentile_ms(floor, 99))} ms, {cpu:,.2f} ms server CPU per call: what uvicorn "
        "(h11) costs by itself on this machine."
    ]


RAW_CLIENT = (
    "a minimal HTTP/1.1 client over asyncio streams (`RawHttp`: it writes the request and reads the "
    "response by its `Content-Length`, nothing more, so that the load generator leaves the 2 cores to "
    "the servers)"
)
HTTPX2_CLIENT = "an `httpx2.AsyncClient` (the SDK's own HTTP client) with one connection"

NOTES = [
    "- Checks: every answer must be HTTP 200, `application/json`, carry its request's own id and no error; "
    "`add(a, b)` gets arguments unique to each call and must answer their sum; a frame answer must be "
    "byte for byte the first answer of its server, whose `content` was compared with the same tool "
    "called in-process (mcplite: `to_result(...).to_wire(version)`; SDK: `MCPServer.call_tool`), id aside.",
    "- 2026-07-28: stateless on both sides: no `initialize`, no session; `_meta` with the protocol "
    "version and client capabilities in each request, and the `MCP-Protocol-Version`, `Mcp-Method` and "
    "`Mcp-Name` headers. mcplite: `server.asgi_app()`. SDK: `streamable_http_app(stateless_http=True, "
    "json_response=True)`; mcp 2.3.0 serves 2026-07-28 requests on its single-exchange path "
    "(`mcp/server/_streamable_http_modern.py`), chosen by the `MCP-Protocol-Version` header before "
    "`stateless_http` is looked at.",
    f"- session: legacy {SESSION_VERSION}: each client sends `initialize` and `notifications/initialized` "
    "before its timed calls, then `Mcp-Session-Id` and `MCP-Protocol-Version` with each call, and "
    "DELETEs its session afterwards (untimed). mcplite: the same `asgi_app()`; SDK: "
    "`streamable_http_app(stateless_http=False, json_response=True)`. A session lives in one worker's "
    "memory; each client keeps its one connection, so its calls reach that worker.",
    "- `json_response=True`: the SDK answers a call that sends no notifications with one JSON body, as "
    "mcplite does. Its default (`False`) runs each request in a task group and switches to SSE if the "
    "tool runs past a ping interval.",
    "- Server CPU ms per call: user + system CPU of both workers (from /proc) over the round, the lowest "
    "round, over the calls; clock-tick resolution. Busier worker's share: how evenly the connections "
    "spread. Bench client CPU: the load generator's own CPU per call, checks included.",
    "- The tools are those of `bench_server.py` plus `small_frame()` (the same frame, 100 rows). "
    "mcplite's tools return the pandas frame; the SDK's return `df.to_dict(orient='records')`, which the "
    "SDK answers with `structuredContent` and one indented JSON text block per row (see "
    "`results/server.md`).",
]


def report(measured: Measured, plan: Plan, elapsed: float) -> list[str]:
    calls = sum(phase.total for phase in measured.floor)
    for tools in measured.phases.values():
        for by_server in tools.values():
            calls += sum(phase.total for phases in by_server.values() for phase in phases)
    frame_clients, frame_calls = plan.sizes.get("frame", (0, 0))
    client = RAW_CLIENT if plan.client == "raw" else HTTPX2_CLIENT
    return [
        "# MCP tools/call over Streamable HTTP under load (`benchmarks/bench_http.py`)",
        "",
        "N concurrent clients x M sequential calls each, raw JSON-RPC POSTs on loopback; both servers under "
        f"`uvicorn --workers {plan.workers}` on 127.0.0.1, their phases alternating, {plan.rounds} rounds; "
        "each row is the round with the highest throughput; the SDK's server in the same run is the anchor. "
        f"{machine()}. Whole run: {elapsed:.0f} s, {calls:,} timed calls, every answer checked. "
        f"Load average (1 min): {measured.load[0]:.1f} at the start, {measured.load[-1]:.1f} at the end; "
        "on a shared machine absolute rates are noisy, the ratios and the CPU per call less so.",
        "",
        *table(measured),
        "",
        f"- Clients: each of the N clients is {client}. It opens its connection (one client at a time: "
        "uvicorn's workers share one listening socket, and a burst of connections tends to land on one "
        "worker), makes one untimed call, waits for the others, then makes its M timed calls back to back. "
        "Calls/s: all the clients' timed calls over the time from their common start to the last answer; "
        f"p50 / p99: over every timed call of the round (`frame()`: {frame_clients * frame_calls} calls, "
        "so its p99 is the slowest); in brackets mcplite / SDK, below 1 where mcplite's calls are quicker.",
        *NOTES,
        *floor_note(measured),
    ]


def main() -> None:
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--clients", type=int, default=50, help="concurrent clients, add and small_frame")
    parser.add_argument("--calls", type=int, default=100, help="calls per client, add")
    parser.add_argument("--small-calls", type=int, default=20, help="calls per client, small_frame")
    parser.add_argument("--frame-clients", type=int, default=4, help="concurrent clients, frame")
    parser.add_argument("--frame-calls", type=int, default=2, help="calls per client, frame")
    parser.add_argument("--rounds", type=int, default=2)
    parser.add_argument("--workers", type=int, default=2)
    parser.add_argument("--modes", default=",".join(MODES), help="comma-separated: " + ", ".join(MODES))
    parser.add_argument("--client", choices=sorted(CLIENTS), default="raw", help="load generator client")
    parser.add_argument("--markdown", help="write the report here")
    args = parser.parse_args()
    sizes = {
        "add": (args.clients, args.calls),
        "small_frame": (args.clients, args.small_calls),
        "frame": (args.frame_clients, args.frame_calls),
    }
    plan = Plan(sizes, rounds=args.rounds, workers=args.workers, modes=tuple(args.modes.split(",")),
                client=args.client, log=lambda line: print(line, file=sys.stderr, flush=True))  # fmt: skip
    began = time.perf_counter()
    measured = asyncio.run(measure(plan))
    lines = report(measured, plan, time.perf_counter() - began)
    if args.markdown:
        Path(args.markdown).write_text("\n".join(lines) + "\n")
    print("\n".join(lines))


if __name__ == "__main__":
    main()
