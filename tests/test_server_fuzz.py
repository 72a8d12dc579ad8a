"""Random and hostile JSON-RPC lines, fed to a server's connection as a transport feeds them: every
line out is strict JSON-RPC in UTF-8, a request is answered at most once, nothing the server did not
foresee is logged, and the server answers the next request as if nothing had happened."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import logging
from typing import Any

import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mcplite
from mcplite.engine.connection import Connection
from tests.test_server_stdio import check_jsonrpc, strict_loads

LEGACY = ["2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25"]
MODERN = "2026-07-28"
METHODS = [
    "initialize",
    "ping",
    "tools/list",
    "tools/call",
    "resources/list",
    "resources/templates/list",
    "resources/read",
    "resources/subscribe",
    "prompts/list",
    "prompts/get",
    "completion/complete",
    "logging/setLevel",
    "server/discover",
    "notifications/cancelled",
    "notifications/initialized",
]
NAMES = ["add", "rows", "frame", "greet", "columns", "x"]
URIS = ["data://table", "data://columns/x", "data://columns/q", "data://none"]


@dataclasses.dataclass
class Row:
    id: int
    label: str | None = None


def _server() -> mcplite.McpServer:
    server = mcplite.McpServer("fuzz")

    @server.tool
    def add(a: int, b: float = 1.0) -> float:
        """Add."""
        return a + b

    @server.tool
    def rows(items: list[Row], note: str = "") -> int:
        """Count rows."""
        return len(items)

    @server.tool
    def frame(n: int) -> pd.DataFrame:
        """A frame of n rows (at most 50)."""
        return pd.DataFrame({"i": range(max(0, min(n, 50))), "s": ['a"\\é'] * max(0, min(n, 50))})

    @server.resource("data://table")
    def table() -> pd.DataFrame:
        """A table."""
        return pd.DataFrame({"x": [1.5, None], "s": ["a", None]})

    @server.resource("data://columns/{name}")
    def column(name: str) -> str:
        """A column by name."""
        if name not in ("x", "s"):
            raise KeyError(name)
        return name

    @server.prompt(complete={"topic": lambda value: ["x", "s"]})
    def greet(name: str, topic: str = "x") -> str:
        """Greet."""
        return f"Hello {name} about {topic}"

    return server


SERVER = _server()

text = st.lists(
    st.characters(codec=None) | st.characters(categories=["Cs"]) | st.sampled_from('\x00\n"\\'), max_size=12
).map("".join)  # st.text() never draws a surrogate
"""Strings of any characters, lone surrogates (valid JSON, no UTF-8 carries them) and NUL often among them."""
scalars = (
    st.none()
    | st.booleans()
    | st.integers(-(2**70), 2**70)
    | st.floats(allow_nan=False, allow_infinity=False)
    | text
)
values = st.recursive(
    scalars,
    lambda inner: (
        st.lists(inner, max_size=4)
        | st.dictionaries(text | st.sampled_from(["a", "b", "name"]), inner, max_size=4)
    ),
    max_leaves=12,
)
ids = (
    st.integers(0, 10**6)
    | st.text(max_size=6)
    | text
    | st.none()
    | st.booleans()
    | st.floats(allow_nan=False, allow_infinity=False)
)


def _often(draw: st.DrawFn, times: int) -> bool:
    """True ``times`` times out of ``times + 1`` (hypothesis' integers lean to their bounds)."""
    return bool(draw(st.sampled_from([True] * times + [False])))


@st.composite
def params(draw: st.DrawFn, modern: bool) -> Any:
    if not _often(draw, 9):
        return draw(values)  # not even an object, at times
    keys = st.sampled_from(
        ["cursor", "ref", "argument", "level", "requestId", "protocolVersion", "capabilities"]
    )
    out: dict[str, Any] = draw(st.dictionaries(keys | text, values, max_size=3))
    if _often(draw, 1):
        out["name"] = draw(st.sampled_from(NAMES) if _often(draw, 1) else text)
    if _often(draw, 1):
        out["uri"] = draw(st.sampled_from(URIS) if _often(draw, 1) else text)
    if _often(draw, 1):
        names = st.sampled_from(["a", "b", "items", "n", "name", "topic", "note"]) | text
        rows = st.lists(st.fixed_dictionaries({"id": values}, optional={"label": values}), max_size=3)
        out["arguments"] = draw(st.dictionaries(names, values | rows, max_size=3))
    if modern and _often(draw, 4):
        out["_meta"] = {
            "io.modelcontextprotocol/protocolVersion": MODERN if _often(draw, 3) else draw(text),
            "io.modelcontextprotocol/clientCapabilities": {} if _often(draw, 3) else draw(values),
        }
    return out


@st.composite
def messages(draw: st.DrawFn, modern: bool) -> bytes:
    message: dict[str, Any] = {}
    if _often(draw, 9):
        message["jsonrpc"] = "2.0"
    elif _often(draw, 1):
        message["jsonrpc"] = draw(values)
    if _often(draw, 5):
        message["id"] = draw(ids)
    if _often(draw, 9):
        message["method"] = draw(st.sampled_from(METHODS) if _often(draw, 5) else text)
    if _often(draw, 5):
        message["params"] = draw(params(modern))
    line = json.dumps(message, allow_nan=False).encode()
    shape = draw(st.sampled_from(["whole"] * 27 + ["cut", "batch", "not utf-8"]))
    if shape == "cut":
        line = line[: draw(st.integers(0, len(line)))]
    elif shape == "batch":
        line = b"[" + line + b"," + line + b"]"
    elif shape == "not utf-8":
        line = line.replace(b"2.0", b"\xff\xfe", 1)
    return line + b"\n"


async def _exchange(lines: list[bytes]) -> list[bytes]:
    out: list[bytes] = []
    connection = Connection(SERVER.engine, out.append)
    for line in lines:
        connection.receive(line)
        for _ in range(2000):  # every call this line started has answered
            await asyncio.sleep(0)
            if not connection.calls_in_flight:
                break
            await asyncio.sleep(0.001)
    return out


def _initialize(version: str) -> list[bytes]:
    params = {"protocolVersion": version, "capabilities": {}, "clientInfo": {"name": "fuzz", "version": "0"}}
    first = {"jsonrpc": "2.0", "id": "init", "method": "initialize", "params": params}
    return [json.dumps(first).encode() + b"\n", b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n']


def _ping(modern: bool) -> bytes:
    meta = {
        "io.modelcontextprotocol/protocolVersion": MODERN,
        "io.modelcontextprotocol/clientCapabilities": {},
    }
    ping: dict[str, Any] = {"jsonrpc": "2.0", "id": "last-ping", "method": "ping"}
    if modern:  # 2026-07-28 has no ping
        ping.update(method="tools/list", params={"_meta": meta})
    return json.dumps(ping).encode() + b"\n"


def _sent_ids(lines: list[bytes]) -> dict[str, int]:
    """How many messages carried each id (json text of the id), batches opened."""
    sent: dict[str, int] = {}
    for line in lines:
        try:
            message = json.loads(line)
        except ValueError:
            continue
        for item in message if isinstance(message, list) else [message]:
            if isinstance(item, dict) and "id" in item:
                key = json.dumps(item["id"])
                sent[key] = sent.get(key, 0) + 1
    return sent


@settings(
    max_examples=400, deadline=None, derandomize=True, database=None, suppress_health_check=list(HealthCheck)
)
@given(
    drawn=st.sampled_from([*LEGACY, MODERN]).flatmap(
        lambda v: st.tuples(st.just(v), st.lists(messages(v == MODERN), min_size=1, max_size=3))
    )
)
def test_any_lines_get_strict_answers_and_the_server_serves_on(
    drawn: tuple[str, list[bytes]], caplog: pytest.LogCaptureFixture
) -> None:
    version, fuzz = drawn
    modern = version == MODERN
    caplog.clear()
    with caplog.at_level(logging.ERROR, logger="mcplite"):
        out = asyncio.run(_exchange(([] if modern else _initialize(version)) + fuzz + [_ping(modern)]))
    answered: dict[str, int] = {}
    for line in out:
        assert line.endswith(b"\n") and line.count(b"\n") == 1, line[:200]
        message = strict_loads(line)  # UTF-8, strict JSON
        for item in message if isinstance(message, list) else [message]:
            check_jsonrpc(item)
            if "id" in item and item["id"] is not None and "method" not in item:
                key = json.dumps(item["id"])
                answered[key] = answered.get(key, 0) + 1
    assert answered.get('"last-ping"') == 1, out[-3:]
    last = strict_loads(next(line for line in out if b'"last-ping"' in line))
    assert last.get("result", {}).get("resultType", "complete") == "complete" and "error" not in last, last
    sent = _sent_ids(fuzz)
    ours = ('"init"', '"last-ping"')
    over = {key: n for key, n in answered.items() if key not in ours and n > sent.get(key, 0)}
    assert over == {}, (over, sent)  # no id answered more often than a message carried it
    assert [r.getMessage() for r in caplog.records if r.levelno >= logging.ERROR] == []
