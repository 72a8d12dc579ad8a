"""The everything server (tests/servers/everything.py) driven line by line over real pipes.

Every line the server writes is read as strict UTF-8 and strict JSON (no NaN or Infinity) and must be a
JSON-RPC 2.0 message; what each version may carry is checked against the fields of the specification's
``schema/<version>/schema.json`` (tests/data/mcplite-mcp-schema-fields.json). Every read has a deadline
and every server process is killed at teardown, so nothing here can hang the suite.
"""

from __future__ import annotations

import collections
import contextlib
import json
import os
import queue
import signal
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mcplite
from tests.servers import everything

SERVER = Path(everything.__file__)
FIELDS: dict[str, Any] = json.loads(
    (Path(__file__).parent / "data" / "mcplite-mcp-schema-fields.json").read_text(encoding="utf-8")
)["versions"]
VERSIONS = mcplite.PROTOCOL_VERSIONS
LEGACY = VERSIONS[:4]
MODERN = "2026-07-28"
TOOL_NAMES = list(everything.server.tools)

PARSE_ERROR, INVALID_REQUEST, METHOD_NOT_FOUND, INVALID_PARAMS = -32700, -32600, -32601, -32602
UNSUPPORTED_VERSION = -32022
SERVER_INFO = "io.modelcontextprotocol/serverInfo"
TIMEOUT = 10.0
CLIENT_INFO = {"name": "raw-tests", "version": "0"}


def since(version: str, first: str) -> bool:
    return VERSIONS.index(version) >= VERSIONS.index(first)


def strict_loads(line: bytes) -> Any:
    """One protocol line: exactly one trailing newline, strict UTF-8, RFC 8259 JSON."""

    def refuse(constant: str) -> Any:
        raise ValueError(f"{constant} is not JSON")

    if not line.endswith(b"\n") or line.count(b"\n") != 1:
        raise ValueError("a message is one line ending with a newline")
    return json.loads(line.decode("utf-8", errors="strict"), parse_constant=refuse)


def check_jsonrpc(message: Any) -> None:
    """A JSON-RPC 2.0 response or notification (or a batch of responses)."""
    if isinstance(message, list):
        assert message, "an empty batch answer"
        for item in message:
            check_jsonrpc(item)
        return
    assert isinstance(message, dict) and message.get("jsonrpc") == "2.0", message
    if "method" in message:  # the server sends notifications only, never requests
        assert "id" not in message and isinstance(message["method"], str)
        assert isinstance(message.get("params", {}), dict)
        return
    assert "id" in message, message
    assert ("result" in message) != ("error" in message), message
    if "error" in message:
        error = message["error"]
        assert isinstance(error["code"], int) and isinstance(error["message"], str)
        assert set(error) <= {"code", "message", "data"}
        assert error["code"] != 0


def meta(version: str = MODERN, **extra: Any) -> dict[str, Any]:
    """The per-request ``_meta`` of a 2026-07-28 request."""
    return {
        "io.modelcontextprotocol/protocolVersion": version,
        "io.modelcontextprotocol/clientCapabilities": {},
        "io.modelcontextprotocol/clientInfo": CLIENT_INFO,
        **extra,
    }


def key(request_id: Any) -> tuple[str, Any]:
    return (type(request_id).__name__, request_id)


class Wire:
    """A server process and strict readers of its stdout and stderr."""

    def __init__(self, script: Path = SERVER, **env: str) -> None:
        self.proc = subprocess.Popen(
            [sys.executable, str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            env={**os.environ, **env},
        )
        self.started = time.monotonic()
        self.raw: list[bytes] = []
        self.bad: list[str] = []
        self.stderr = bytearray()
        self.inbox: queue.Queue[Any] = queue.Queue()
        self.answers: dict[tuple[str, Any], dict[str, Any]] = {}
        self.answered: collections.Counter[tuple[str, Any]] = collections.Counter()
        self.notes: list[dict[str, Any]] = []
        self.orphans: list[Any] = []  # error answers with a null id, and batch answers
        self.never: set[tuple[str, Any]] = set()  # ids of cancelled calls: never to be answered
        self._next_id = 0
        threading.Thread(target=self._read_stdout, daemon=True).start()
        threading.Thread(target=self._read_stderr, daemon=True).start()

    _EOF = object()

    def _read_stdout(self) -> None:
        assert self.proc.stdout is not None
        for line in iter(self.proc.stdout.readline, b""):
            self.raw.append(line)
            try:
                message = strict_loads(line)
                check_jsonrpc(message)
            except (ValueError, AssertionError, KeyError, TypeError) as err:
                self.bad.append(f"{err!r}: {line[:200]!r}")
                continue
            self.inbox.put(message)
        self.inbox.put(self._EOF)

    def _read_stderr(self) -> None:
        stream = self.proc.stderr
        assert stream is not None
        for chunk in iter(lambda: os.read(stream.fileno(), 65536), b""):
            self.stderr += chunk

    # -- writing ---------------------------------------------------------------------------------------

    def new_id(self) -> int:
        self._next_id += 1
        return self._next_id

    def send(self, message: Any) -> None:
        data = message if isinstance(message, bytes) else json.dumps(message).encode("utf-8") + b"\n"
        assert self.proc.stdin is not None
        self.proc.stdin.write(data)
        self.proc.stdin.flush()

    def send_request(self, method: str, params: dict[str, Any] | None = None, request_id: Any = None) -> Any:
        request_id = self.new_id() if request_id is None else request_id
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if params is not None:
            message["params"] = params
        self.send(message)
        return request_id

    def notify(self, method: str, params: dict[str, Any] | None = None) -> None:
        self.send({"jsonrpc": "2.0", "method": method, "params": params or {}})

    # -- reading ---------------------------------------------------------------------------------------

    def _take(self, message: Any) -> None:
        if isinstance(message, list) or (message.get("id") is None and "method" not in message):
            self.orphans.append(message)
        elif "method" in message:
            self.notes.append(message)
        else:
            k = key(message["id"])
            self.answered[k] += 1
            self.answers[k] = message

    def pump(self, timeout: float) -> bool:
        """Take one message (False at end of output); AssertionError when nothing comes in time."""
        try:
            message = self.inbox.get(timeout=timeout)
        except queue.Empty:
            raise AssertionError(f"no message from the server within {timeout} s") from None
        if message is self._EOF:
            self.inbox.put(self._EOF)
            return False
        self._take(message)
        return True

    def response(self, request_id: Any, timeout: float = TIMEOUT) -> dict[str, Any]:
        deadline = time.monotonic() + timeout
        while key(request_id) not in self.answers:
            if not self.pump(max(0.0, deadline - time.monotonic())):
                raise AssertionError(f"the server ended without answering {request_id!r}")
        return self.answers.pop(key(request_id))

    def orphan(self, timeout: float = TIMEOUT) -> Any:
        """The next message without an id (a null-id error or a batch answer)."""
        deadline = time.monotonic() + timeout
        while not self.orphans:
            if not self.pump(max(0.0, deadline - time.monotonic())):
                raise AssertionError("the server ended without answering")
        return self.orphans.pop(0)

    def request(
        self, method: str, params: dict[str, Any] | None = None, timeout: float = TIMEOUT
    ) -> dict[str, Any]:
        return self.response(self.send_request(method, params), timeout)

    def result(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = self.request(method, params)
        assert "result" in answer, answer
        return answer["result"]  # type: ignore[no-any-return]

    def error(self, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
        answer = self.request(method, params)
        assert "error" in answer, answer
        return answer["error"]  # type: ignore[no-any-return]

    def call(self, name: str, arguments: dict[str, Any] | None = None, **params: Any) -> dict[str, Any]:
        return self.result("tools/call", {"name": name, "arguments": arguments or {}, **params})

    def initialize(self, version: str) -> dict[str, Any]:
        result = self.result(
            "initialize",
            {"protocolVersion": version, "capabilities": {}, "clientInfo": CLIENT_INFO},
        )
        self.notify("notifications/initialized")
        return result

    # -- ending ----------------------------------------------------------------------------------------

    def close(self, timeout: float = TIMEOUT) -> int:
        """End of input, then every remaining line until the server exits; its exit code."""
        try:
            if self.proc.stdin is not None and not self.proc.stdin.closed:
                self.proc.stdin.close()
        except BrokenPipeError:
            pass
        deadline = time.monotonic() + timeout
        while self.pump(max(0.0, deadline - time.monotonic())):
            pass
        return self.proc.wait(max(0.1, deadline - time.monotonic()))

    def kill(self) -> None:
        if self.proc.poll() is None:
            self.proc.kill()
        self.proc.wait(5)
        for stream in (self.proc.stdin, self.proc.stdout, self.proc.stderr):
            if stream is not None:
                try:
                    stream.close()
                except OSError:
                    pass

    def check_clean(self) -> None:
        """Only strict JSON-RPC lines on stdout, each id answered at most once, cancelled ones never."""
        assert self.bad == [], self.bad
        assert [k for k, n in self.answered.items() if n > 1] == []
        assert [k for k in self.never if self.answered[k]] == []


@pytest.fixture
def spawn() -> Iterator[Any]:
    """Start servers for one test; each is killed at teardown whatever happened."""
    wires: list[Wire] = []

    def start(**env: str) -> Wire:
        wire = Wire(**env)
        wires.append(wire)
        return wire

    yield start
    for wire in wires:
        wire.kill()


def shared(wire: Wire) -> Iterator[Wire]:
    """A module-scoped server: at the end, end of input must stop it cleanly (exit code 0)."""
    try:
        yield wire
        assert wire.close() == 0
        wire.check_clean()
    finally:
        wire.kill()


@pytest.fixture(scope="module", params=[*LEGACY, "1999-01-01", MODERN])
def legacy(request: pytest.FixtureRequest) -> Iterator[tuple[Wire, str, dict[str, Any]]]:
    """A server after ``initialize`` with each legacy version, one it does not know, and 2026-07-28 (which
    is no handshake version: ``initialize`` selects the legacy era)."""
    wire = Wire()
    init = wire.initialize(request.param)
    for item in shared(wire):
        yield item, request.param, init


@pytest.fixture(scope="module")
def modern() -> Iterator[Wire]:
    """A server that never sees ``initialize``: every request names 2026-07-28 in its _meta."""
    yield from shared(Wire())


@pytest.fixture(scope="module")
def small() -> Iterator[Wire]:
    """A server with 7 tools per page and a 4096-byte message limit, initialized at 2025-11-25."""
    wire = Wire(EVERYTHING_PAGE_SIZE="7", EVERYTHING_MAX_MESSAGE_SIZE="4096")
    wire.initialize("2025-11-25")
    yield from shared(wire)


# -- checks against the schema fields of each version ------------------------------------------------------

BLOCKS = {
    "text": "TextContent",
    "image": "ImageContent",
    "audio": "AudioContent",
    "resource": "EmbeddedResource",
    "resource_link": "ResourceLink",
}


def check_fields(definition: str, value: dict[str, Any], version: str) -> None:
    spec = FIELDS[version][definition]
    extra = set(value) - set(spec["properties"])
    assert not extra, f"{definition} {version}: {sorted(extra)} are not in the schema"
    missing = set(spec["required"]) - set(value)
    assert not missing, f"{definition} {version}: {sorted(missing)} are required"


def check_call_result(result: dict[str, Any], version: str) -> None:
    check_fields("CallToolResult", result, version)
    for block in result["content"]:
        assert block["type"] in FIELDS[version]["CallToolResult"]["content_types"], (block["type"], version)
        check_fields(BLOCKS[block["type"]], block, version)
        if "annotations" in block:
            check_fields("Annotations", block["annotations"], version)
        if block["type"] == "resource":
            contents = "TextResourceContents" if "text" in block["resource"] else "BlobResourceContents"
            check_fields(contents, block["resource"], version)
        for icon in block.get("icons", []):
            check_fields("Icon", icon, version)
    if "structuredContent" in result and not since(version, MODERN):
        assert isinstance(result["structuredContent"], dict)
    if since(version, MODERN):
        assert result["resultType"] == "complete"
        assert result["_meta"][SERVER_INFO]["name"] == "everything"


def check_tool(tool: dict[str, Any], version: str) -> None:
    check_fields("Tool", tool, version)
    assert tool["inputSchema"]["type"] == "object"
    if "annotations" in tool:
        check_fields("ToolAnnotations", tool["annotations"], version)
    for icon in tool.get("icons", []):
        check_fields("Icon", icon, version)
    if "outputSchema" in tool and not since(version, MODERN):
        assert tool["outputSchema"]["type"] == "object"


def expected_text(value: Any) -> str:
    block = mcplite.as_tool_result(value).content[0]
    assert isinstance(block, mcplite.TextContent)
    return block.text


def text_of(result: dict[str, Any]) -> str:
    assert [block["type"] for block in result["content"]] == ["text"], result
    return result["content"][0]["text"]  # type: ignore[no-any-return]


# -- legacy handshake ------------------------------------------------------------------------------------


def test_initialize_answers_the_version_or_the_latest(legacy: tuple[Wire, str, dict[str, Any]]) -> None:
    _, requested, init = legacy
    version = requested if requested in LEGACY else "2025-11-25"
    assert init["protocolVersion"] == version
    assert set(init) == {"protocolVersion", "capabilities", "serverInfo", "instructions"}
    assert "tools" in init["capabilities"]
    assert init["instructions"] == everything.server.instructions
    info = {"name": "everything", "version": "1.2.3"}
    if since(version, "2025-06-18"):
        info["title"] = "Everything"
    assert init["serverInfo"] == info


def test_legacy_listing_fits_the_schema_of_the_version(legacy: tuple[Wire, str, dict[str, Any]]) -> None:
    wire, _, init = legacy
    version = init["protocolVersion"]
    result = wire.result("tools/list")
    assert set(result) == {"tools"}  # one page; no resultType, ttlMs or cacheScope before 2026-07-28
    assert [tool["name"] for tool in result["tools"]] == TOOL_NAMES
    for tool in result["tools"]:
        check_tool(tool, version)
    fancy = next(tool for tool in result["tools"] if tool["name"] == "fancy.tool-1")
    assert ("annotations" in fancy) == since(version, "2025-03-26")
    for field in ("title", "outputSchema", "_meta"):
        assert (field in fancy) == since(version, "2025-06-18")
    assert ("icons" in fancy) == since(version, "2025-11-25")


def test_legacy_results_fit_the_schema_of_the_version(legacy: tuple[Wire, str, dict[str, Any]]) -> None:
    wire, _, init = legacy
    version = init["protocolVersion"]
    for name in ("blocks", "stats", "array_structured", "return_frame", "fail", "fancy.tool-1"):
        result = wire.call(name)
        check_call_result(result, version)
        assert "resultType" not in result and "_meta" not in result
    blocks = wire.call("blocks")
    assert blocks == everything.blocks_value().to_wire(version)
    stats = wire.call("stats", {"n": 2})
    assert ("structuredContent" in stats) == since(version, "2025-06-18")
    assert "structuredContent" not in wire.call("array_structured")
    assert text_of(wire.call("return_frame")) == expected_text(everything.data_frame())


def test_ping_answers_an_empty_result(legacy: tuple[Wire, str, dict[str, Any]]) -> None:
    wire, _, _ = legacy
    assert wire.result("ping") == {}


def test_legacy_errors(legacy: tuple[Wire, str, dict[str, Any]]) -> None:
    wire, _, init = legacy
    version = init["protocolVersion"]
    unknown = wire.error("tools/call", {"name": "no_such_tool", "arguments": {}})
    assert unknown["code"] == INVALID_PARAMS and "no_such_tool" in unknown["message"]
    answer = wire.request("tools/call", {"name": "add", "arguments": {"a": "x"}})
    if since(version, "2025-11-25"):
        assert answer["result"]["isError"] is True and "'a'" in text_of(answer["result"])
    else:
        assert answer["error"]["code"] == INVALID_PARAMS and "'a'" in answer["error"]["message"]
    assert wire.error("server/discover")["code"] in (METHOD_NOT_FOUND, INVALID_PARAMS)
    assert wire.error("resources/list")["code"] == METHOD_NOT_FOUND


def test_progress_and_logs_precede_the_answer(legacy: tuple[Wire, str, dict[str, Any]]) -> None:
    wire, _, init = legacy
    version = init["protocolVersion"]
    wire.notes.clear()
    start = len(wire.raw)
    request_id = wire.send_request(
        "tools/call", {"name": "progress", "arguments": {"steps": 3}, "_meta": {"progressToken": "p1"}}
    )
    assert text_of(wire.response(request_id)["result"]) == "3 steps"
    progress = [note["params"] for note in wire.notes if note["method"] == "notifications/progress"]
    assert [p["progress"] for p in progress] == [1, 2, 3]
    assert all(p["progressToken"] == "p1" and p["total"] == 3 for p in progress)
    assert all(("message" in p) == since(version, "2025-03-26") for p in progress)
    logs = [note["params"] for note in wire.notes if note["method"] == "notifications/message"]
    assert [log["level"] for log in logs] == ["debug", "info", "warning"]  # no setLevel yet: every level
    assert logs[1] == {"level": "info", "data": {"done": 3}, "logger": "everything"}
    # the notifications were written before the answer
    lines = [strict_loads(line) for line in wire.raw[start:]]
    answer_at = next(i for i, m in enumerate(lines) if isinstance(m, dict) and m.get("id") == request_id)
    assert sum(1 for m in lines[:answer_at] if isinstance(m, dict) and "method" in m) == 6
    # no token: no progress
    wire.notes.clear()
    wire.call("progress", {"steps": 2})
    assert [n for n in wire.notes if n["method"] == "notifications/progress"] == []


def test_batches_only_in_2025_03_26(legacy: tuple[Wire, str, dict[str, Any]]) -> None:
    wire, _, init = legacy
    version = init["protocolVersion"]
    batch = [
        {"jsonrpc": "2.0", "id": "b1", "method": "ping"},
        {
            "jsonrpc": "2.0",
            "id": "b2",
            "method": "tools/call",
            "params": {"name": "add", "arguments": {"a": 5}},
        },
        {"jsonrpc": "2.0", "method": "notifications/initialized"},
        {"jsonrpc": "2.0", "id": "b3", "method": "no/such/method"},
    ]
    wire.send(batch)
    answer = wire.orphan()
    if version == "2025-03-26":
        assert isinstance(answer, list)
        by_id = {item["id"]: item for item in answer}
        assert sorted(by_id) == ["b1", "b2", "b3"]  # nothing for the notification
        assert by_id["b1"]["result"] == {}
        assert text_of(by_id["b2"]["result"]) == expected_text(7)
        assert by_id["b3"]["error"]["code"] == METHOD_NOT_FOUND
        wire.send(b"[]\n")
        assert wire.orphan()["error"]["code"] == INVALID_REQUEST
    else:
        assert answer["id"] is None and answer["error"]["code"] == INVALID_REQUEST
    assert wire.result("ping") == {}


def test_a_legacy_session_also_serves_modern_requests(legacy: tuple[Wire, str, dict[str, Any]]) -> None:
    wire, _, _ = legacy
    listing = wire.result("tools/list", {"_meta": meta()})
    assert listing["resultType"] == "complete" and "ttlMs" in listing
    array = wire.call("array_structured", _meta=meta())
    assert array["structuredContent"] == [1, 2]
    assert "structuredContent" not in wire.call("array_structured")  # the session keeps its version


def test_logging_set_level_filters_later_messages(legacy: tuple[Wire, str, dict[str, Any]]) -> None:
    wire, _, _ = legacy  # the last test on this server: the level stays set
    assert wire.error("logging/setLevel", {"level": "loud"})["code"] == INVALID_PARAMS
    assert wire.result("logging/setLevel", {"level": "warning"}) == {}
    wire.notes.clear()
    wire.call("progress", {"steps": 1})
    assert [(n["method"], n["params"]["level"]) for n in wire.notes] == [("notifications/message", "warning")]


# -- 2026-07-28 --------------------------------------------------------------------------------------------


def test_requests_before_initialize_are_answered_at_once() -> None:
    wire = Wire()
    try:
        for method in ("no/such/method", "tools/list", "tools/call", "prompts/list"):
            started = time.monotonic()
            error = wire.error(method, {"name": "add"} if method == "tools/call" else {})
            assert error["code"] in (METHOD_NOT_FOUND, INVALID_PARAMS, INVALID_REQUEST), (method, error)
            assert time.monotonic() - started < 2.0
        assert wire.result("ping") == {}  # allowed before initialize
        assert wire.initialize("2025-06-18")["protocolVersion"] == "2025-06-18"
        assert len(wire.result("tools/list")["tools"]) == len(TOOL_NAMES)
        assert wire.close() == 0
        wire.check_clean()
    finally:
        wire.kill()


def test_discover(modern: Wire) -> None:
    result = modern.result("server/discover", {"_meta": meta()})
    assert result["resultType"] == "complete"
    assert set(result["supportedVersions"]) == set(VERSIONS)
    assert "tools" in result["capabilities"]
    assert isinstance(result["ttlMs"], int) and result["ttlMs"] >= 0
    assert result["cacheScope"] in ("public", "private")
    assert result["instructions"] == everything.server.instructions
    assert result["_meta"][SERVER_INFO] == {"name": "everything", "version": "1.2.3", "title": "Everything"}


def test_modern_listing_and_results(modern: Wire) -> None:
    listing = modern.result("tools/list", {"_meta": meta()})
    assert listing["resultType"] == "complete"
    assert isinstance(listing["ttlMs"], int) and listing["ttlMs"] >= 0
    assert listing["cacheScope"] in ("public", "private")
    assert listing["_meta"][SERVER_INFO]["name"] == "everything"
    assert "nextCursor" not in listing
    assert [tool["name"] for tool in listing["tools"]] == TOOL_NAMES
    for tool in listing["tools"]:
        check_tool(tool, MODERN)
    for name in ("blocks", "stats", "array_structured", "fail", "return_dict", "async_fail"):
        check_call_result(modern.call(name, _meta=meta()), MODERN)
    assert modern.call("array_structured", _meta=meta())["structuredContent"] == [1, 2]
    bad = modern.call("add", {"a": "x"}, _meta=meta())
    assert bad["isError"] is True and bad["resultType"] == "complete"
    assert modern.call("version", _meta=meta())["content"][0]["text"] == MODERN


@pytest.mark.parametrize("requested", ["2099-01-01", "2025-06-18", "2026-07-29"])
def test_unsupported_modern_version(modern: Wire, requested: str) -> None:
    for method in ("tools/list", "server/discover", "tools/call"):
        error = modern.error(method, {"name": "add", "arguments": {"a": 1}, "_meta": meta(requested)})
        assert error["code"] == UNSUPPORTED_VERSION
        assert error["data"]["requested"] == requested
        assert MODERN in error["data"]["supported"] and "2025-11-25" in error["data"]["supported"]


def test_modern_envelope_errors(modern: Wire) -> None:
    no_capabilities = {"io.modelcontextprotocol/protocolVersion": MODERN}
    assert modern.error("tools/list", {"_meta": no_capabilities})["code"] == INVALID_PARAMS
    assert modern.error("ping", {"_meta": meta()})["code"] == METHOD_NOT_FOUND  # ping is gone in 2026
    assert modern.error("logging/setLevel", {"level": "info", "_meta": meta()})["code"] == METHOD_NOT_FOUND


def test_modern_logs_only_when_the_request_opts_in(modern: Wire) -> None:
    modern.notes.clear()
    modern.call("progress", {"steps": 1}, _meta=meta(progressToken=7))
    assert [n["method"] for n in modern.notes] == ["notifications/progress"]
    assert modern.notes[0]["params"] == {"progressToken": 7, "progress": 1, "total": 1, "message": "step 1"}
    modern.notes.clear()
    modern.call("progress", {"steps": 1}, _meta=meta(**{"io.modelcontextprotocol/logLevel": "info"}))
    assert [(n["params"]["level"]) for n in modern.notes] == ["info", "warning"]


# -- JSON-RPC errors ----------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "line",
    [
        b"{not json}\n",
        b'{"jsonrpc":"2.0","id":1,"method":"ping"\n',
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":NaN}}\n',
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":-Infinity}}\n',
        b'{"jsonrpc":"2.0","id":1,"method":"ping","params":{"x":"\xff\xfe"}}\n',
        b'{"jsonrpc":"2.0","id":1,"method":"\xed\xa0\x80"}\n',  # an encoded surrogate is not UTF-8
    ],
    ids=["garbage", "truncated", "nan", "infinity", "latin1", "surrogate"],
)
def test_parse_errors_and_the_server_keeps_serving(modern: Wire, line: bytes) -> None:
    modern.send(line)
    answer = modern.orphan()
    assert answer["id"] is None and answer["error"]["code"] == PARSE_ERROR
    assert text_of(modern.call("add", {"a": 1}, _meta=meta())) == expected_text(3)


@pytest.mark.parametrize(
    ("message", "answer_id", "code"),
    [
        ({"jsonrpc": "2.0", "id": "m5"}, "m5", INVALID_REQUEST),
        ({"jsonrpc": "1.0", "id": "m6", "method": "ping"}, "m6", INVALID_REQUEST),
        ({"id": "m7", "method": "ping"}, "m7", INVALID_REQUEST),
        ({"jsonrpc": "2.0", "id": "m8", "method": 42}, "m8", INVALID_REQUEST),
        ({"jsonrpc": "2.0", "id": None, "method": "ping"}, None, INVALID_REQUEST),
        ({"jsonrpc": "2.0", "id": True, "method": "ping"}, None, INVALID_REQUEST),
        ({"jsonrpc": "2.0", "id": 1.5, "method": "ping"}, None, INVALID_REQUEST),
        (42, None, INVALID_REQUEST),
        ("ping", None, INVALID_REQUEST),
        ([], None, INVALID_REQUEST),
        ({"jsonrpc": "2.0", "id": "m9", "method": "no/such/method"}, "m9", METHOD_NOT_FOUND),
        ({"jsonrpc": "2.0", "id": "m10", "method": "tools/call", "params": [1, 2]}, "m10", INVALID_PARAMS),
        ({"jsonrpc": "2.0", "id": "m11", "method": "tools/list", "params": "x"}, "m11", INVALID_PARAMS),
        (
            {"jsonrpc": "2.0", "id": "m12", "method": "tools/call", "params": {"_meta": meta()}},
            "m12",
            INVALID_PARAMS,
        ),
        (
            {
                "jsonrpc": "2.0",
                "id": "m13",
                "method": "tools/call",
                "params": {"name": "nope", "_meta": meta()},
            },
            "m13",
            INVALID_PARAMS,
        ),
        (
            {
                "jsonrpc": "2.0",
                "id": "m14",
                "method": "tools/call",
                "params": {"name": "add", "arguments": [1], "_meta": meta()},
            },
            "m14",
            INVALID_PARAMS,
        ),
    ],
)
def test_invalid_messages_get_errors(modern: Wire, message: Any, answer_id: Any, code: int) -> None:
    modern.send(message)
    answer = modern.orphan() if answer_id is None else modern.response(answer_id)
    assert answer["id"] == answer_id and answer["error"]["code"] == code, answer
    assert text_of(modern.call("add", {"a": 2}, _meta=meta())) == expected_text(4)


def test_notifications_and_responses_are_never_answered(modern: Wire) -> None:
    before = len(modern.raw)
    modern.notify("notifications/no_such_notification", {"x": 1})
    modern.notify("notifications/cancelled", {"requestId": 424242})
    modern.send({"jsonrpc": "2.0", "id": 99, "result": {}})
    modern.send({"jsonrpc": "2.0", "id": 98, "error": {"code": 1, "message": "x"}})
    assert modern.result("server/discover", {"_meta": meta()})["resultType"] == "complete"
    assert len(modern.raw) == before + 1


# -- tools over the pipes -----------------------------------------------------------------------------------


def test_a_tool_exception_is_an_error_result_without_traceback(modern: Wire) -> None:
    before = len(modern.raw)
    for name, message in (("fail", "bad input: x < 0"), ("async_fail", "line one\nline two")):
        result = modern.call(name, {"message": message}, _meta=meta())
        assert result["isError"] is True
        assert text_of(result) == message
    assert not any(b"Traceback" in line for line in modern.raw[before:])


def test_an_exception_message_that_is_not_unicode_is_still_a_tool_error(modern: Wire) -> None:
    """A lone surrogate (say a file name decoded with surrogateescape) in an exception's message."""
    answer = modern.request(
        "tools/call", {"name": "fail", "arguments": {"message": "\udcff.txt"}, "_meta": meta()}
    )
    assert "result" in answer, answer  # a tool execution error, not a JSON-RPC internal error
    assert answer["result"]["isError"] is True
    assert ".txt" in text_of(answer["result"])


def test_a_large_result_is_one_line(modern: Wire) -> None:
    big = "é" * 500_000
    result = modern.call("kinds", {"i": 1, "x": 1, "s": big, "flag": True}, _meta=meta())
    assert json.loads(text_of(result))["s"] == big
    assert modern.bad == []


def test_a_tool_printing_to_stdout_corrupts_nothing(modern: Wire) -> None:
    before = len(modern.raw)
    assert text_of(modern.call("noisy", _meta=meta())) == "quiet"
    assert modern.bad == []
    assert not any(b'"fake"' in line or b"print()" in line for line in modern.raw[before:])
    deadline = time.monotonic() + 5
    while b"os.write to fd 1" not in modern.stderr and time.monotonic() < deadline:
        time.sleep(0.01)
    for text in (b"print() from a tool", b"bytes to stdout", b"os.write to fd 1", b'"id":"fake"'):
        assert text in modern.stderr


def _started_calls(wire: Wire) -> dict[str, int]:
    return json.loads(text_of(wire.call("calls_started", _meta=meta())))  # type: ignore[no-any-return]


def test_cancelled_calls_are_never_answered(modern: Wire) -> None:
    seen = json.loads(text_of(modern.call("cancelled_seen", _meta=meta())))
    started = _started_calls(modern)
    hanging = [
        modern.send_request("tools/call", {"name": name, "_meta": meta()}) for name in ("hang", "async_hang")
    ]
    deadline = time.monotonic() + TIMEOUT
    while not all(now > started[name] for name, now in _started_calls(modern).items()):
        assert time.monotonic() < deadline
        time.sleep(0.02)
    for request_id in hanging:
        modern.never.add(key(request_id))
        modern.notify("notifications/cancelled", {"requestId": request_id, "reason": "test"})
    assert text_of(modern.call("add", {"a": 3}, _meta=meta())) == expected_text(5)
    deadline = time.monotonic() + TIMEOUT
    while True:
        now = json.loads(text_of(modern.call("cancelled_seen", _meta=meta())))
        if now["hang"] > seen["hang"] and now["async_hang"] > seen["async_hang"]:
            break
        assert time.monotonic() < deadline, now
        time.sleep(0.02)
    modern.check_clean()  # and again when the module's server has ended


def test_a_thousand_concurrent_calls_are_each_answered_once(modern: Wire) -> None:
    lines = []
    for i in range(1000):
        name = "add" if i % 2 else "async_add"
        params = {"name": name, "arguments": {"a": i, "b": 1}, "_meta": meta()}
        lines.append(json.dumps({"jsonrpc": "2.0", "id": f"c{i}", "method": "tools/call", "params": params}))
    modern.send(("\n".join(lines) + "\n").encode())
    deadline = time.monotonic() + 30
    for i in range(1000):
        answer = modern.response(f"c{i}", timeout=max(0.0, deadline - time.monotonic()))
        assert text_of(answer["result"]) == expected_text(i + 1 if i % 2 else float(i + 1))
    assert all(modern.answered[key(f"c{i}")] == 1 for i in range(1000))


def test_concurrent_calls_keep_their_own_options(modern: Wire) -> None:
    calls = {}
    for tool in ("options_sync", "options_async"):
        for na in ("null", "string"):
            params = {"name": tool, "arguments": {"na": na, "delay": 0.2}, "_meta": meta()}
            calls[tool, na] = modern.send_request("tools/call", params)
    frame = modern.call("return_frame", _meta=meta())  # answered while the four sleep
    assert text_of(frame) == expected_text(everything.data_frame())
    for (_tool, na), request_id in calls.items():
        text = text_of(modern.response(request_id)["result"])
        with mcplite.options(json_na=na):
            assert text == expected_text(everything.na_value())
    assert mcplite.get_option("json_na") is None


# -- pagination and the size limit ---------------------------------------------------------------------------


@pytest.mark.parametrize("modern_request", [False, True], ids=["legacy", "2026-07-28"])
def test_tools_list_pages(small: Wire, modern_request: bool) -> None:
    names: list[str] = []
    cursor = None
    pages = 0
    while True:
        params: dict[str, Any] = {} if cursor is None else {"cursor": cursor}
        if modern_request:
            params["_meta"] = meta()
        page = small.result("tools/list", params)
        pages += 1
        assert 1 <= len(page["tools"]) <= 7
        assert ("ttlMs" in page) == modern_request
        names += [tool["name"] for tool in page["tools"]]
        cursor = page.get("nextCursor")
        if cursor is None:
            break
        assert isinstance(cursor, str)
    assert names == TOOL_NAMES
    assert pages == -(-len(TOOL_NAMES) // 7)
    assert small.error("tools/list", {"cursor": "not-a-cursor"})["code"] == INVALID_PARAMS


def test_messages_over_the_limit_are_refused_and_the_server_keeps_serving(small: Wire) -> None:
    for size in (5000, 300_000):
        params = {"name": "add", "arguments": {"a": 1, "pad": "x" * size}}
        big = {"jsonrpc": "2.0", "id": "big", "method": "tools/call", "params": params}
        small.send(big)
        answer = small.orphan()
        assert answer["id"] is None and answer["error"]["code"] == INVALID_REQUEST
        assert "4096" in answer["error"]["message"]
        assert small.result("ping") == {}
    fits = small.call("return_str", {}, _meta={"pad": "y" * 3500})
    assert fits["content"][0]["text"] == everything.RETURNS["return_str"]()
    assert key("big") not in small.answered


# -- ending ------------------------------------------------------------------------------------------


def test_end_of_input_lets_calls_finish_within_the_grace_period(spawn: Any) -> None:
    wire: Wire = spawn(EVERYTHING_SHUTDOWN_GRACE="1.0")
    wire.initialize("2025-06-18")
    slow = wire.send_request("tools/call", {"name": "slow", "arguments": {"seconds": 0.2}})
    stuck = wire.send_request("tools/call", {"name": "async_hang"})
    stuck_sync = wire.send_request("tools/call", {"name": "hang"})
    time.sleep(0.05)
    started = time.monotonic()
    assert wire.close() == 0
    elapsed = time.monotonic() - started
    assert text_of(wire.response(slow, timeout=0)["result"]) == "slept 0.2"
    assert key(stuck) not in wire.answered and key(stuck_sync) not in wire.answered
    assert 0.9 < elapsed < 5.0, elapsed
    wire.check_clean()


def test_end_of_input_with_nothing_running_exits_at_once(spawn: Any) -> None:
    wire: Wire = spawn()
    wire.initialize("2025-11-25")
    started = time.monotonic()
    assert wire.close() == 0
    assert time.monotonic() - started < 2.0


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT], ids=["SIGTERM", "SIGINT"])
def test_a_signal_stops_the_server_promptly_and_cleanly(spawn: Any, signum: int) -> None:
    """Calls that never end get the shutdown grace (0.5 s here), then are cancelled, unanswered."""
    wire: Wire = spawn(EVERYTHING_SHUTDOWN_GRACE="0.5")
    wire.initialize("2025-11-25")
    hanging = [wire.send_request("tools/call", {"name": name}) for name in ("hang", "async_hang")]
    time.sleep(0.1)
    started = time.monotonic()
    wire.proc.send_signal(signum)
    code = wire.proc.wait(5)
    assert time.monotonic() - started < 3.0
    while wire.pump(2.0):
        pass
    assert all(key(request_id) not in wire.answered for request_id in hanging)
    wire.check_clean()
    assert b"Fatal Python error" not in wire.stderr, bytes(wire.stderr[-400:])
    assert code in (0, -signum), code


def test_a_client_that_stops_reading_stops_the_server_cleanly(tmp_path: Path) -> None:
    log = (tmp_path / "stderr").open("w+b")
    proc = subprocess.Popen(
        [sys.executable, str(SERVER)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, stderr=log
    )
    assert proc.stdin is not None and proc.stdout is not None
    try:
        params = {"protocolVersion": "2025-11-25", "capabilities": {}, "clientInfo": CLIENT_INFO}
        initialize = {"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": params}
        proc.stdin.write(json.dumps(initialize).encode() + b"\n")
        proc.stdin.flush()
        strict_loads(proc.stdout.readline())
        proc.stdout.close()  # the client goes away: the server's next write fails
        proc.stdin.write(b'{"jsonrpc":"2.0","id":2,"method":"ping"}\n')
        proc.stdin.flush()  # stdin stays open: the server must stop because of stdout alone
        code = proc.wait(5)
        log.seek(0)
        stderr = log.read()
        assert b"Fatal Python error" not in stderr, stderr[-400:]
        assert code == 0
    finally:
        proc.kill()
        proc.wait(5)
        log.close()
        with contextlib.suppress(OSError):
            proc.stdin.close()
