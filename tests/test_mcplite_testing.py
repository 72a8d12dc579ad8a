"""mcplite.testing.Client: the in-process test client.

Oracles: the stdio transport itself (the same requests sent to tests/servers/everything.py as a
process must bring back the same messages the in-process client saw), the official SDK's
per-version wire types (mcp_types) for every result, and mcplite's own result builders for the
text a value becomes.
"""

from __future__ import annotations

import asyncio
import json
import os
import re
import subprocess
import sys
import threading
import time
from pathlib import Path
from typing import Any

import pytest

import mcplite
import rvalues as rv
from mcplite.payload.converter import converter
from mcplite.testing import CallResult, Client, RequestError, WireObject
from tests.servers import everything

pytest_plugins = ["pytester"]

ROOT = Path(__file__).parent.parent
SERVER = Path(everything.__file__)
VERSIONS = mcplite.PROTOCOL_VERSIONS
MODERN = "2026-07-28"


class RecordingClient(Client):
    """A Client that also keeps every line it sent and received (to replay them over stdio)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        self.sent: list[bytes] = []
        self.received: list[Any] = []
        super().__init__(*args, **kwargs)

    def _send(self, message: dict[str, Any]) -> None:
        self.sent.append(json.dumps(message).encode() + b"\n")
        super()._send(message)

    def _receive_line(self, line: bytes) -> None:
        self.received.append(json.loads(line))
        super()._receive_line(line)


# calls whose answers do not depend on time or on the process
SCRIPT: list[tuple[str, dict[str, Any]]] = [
    ("add", {"a": 1}),
    ("add", {"a": "one"}),
    ("async_add", {"a": 0.5, "b": 0.25}),
    *((name, {}) for name in everything.RETURNS),
    ("stats", {"n": 4}),
    ("array_structured", {}),
    ("blocks", {}),
    ("fail", {"message": "no column 'x'"}),
    ("async_fail", {}),
    ("progress", {"steps": 3}),
    ("async_progress", {"steps": 2}),
    ("version", {}),
    ("fancy.tool-1", {}),
    ("no_such_tool", {}),
]


def run_script(client: Client) -> list[CallResult | RequestError]:
    outcomes: list[CallResult | RequestError] = []
    client.list_tools()
    for name, arguments in SCRIPT:
        try:
            outcomes.append(client.call_tool(name, arguments))
        except RequestError as err:
            outcomes.append(err)
    return outcomes


def over_stdio(lines: list[bytes], answers: int) -> list[Any]:
    """Send the lines to the server as a process, one at a time, and read everything it writes."""
    proc = subprocess.Popen(
        [sys.executable, str(SERVER)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        env={**os.environ, "PYTHONPATH": str(ROOT)},
    )
    assert proc.stdin is not None and proc.stdout is not None
    received: list[Any] = []
    try:
        for line in lines:
            proc.stdin.write(line)
            proc.stdin.flush()
            request = json.loads(line)
            if "id" in request:  # wait for its answer, so the order matches the in-process run
                while True:
                    message = json.loads(proc.stdout.readline())
                    received.append(message)
                    if message.get("id") == request["id"] and "method" not in message:
                        break
        proc.stdin.close()
        received += [json.loads(line) for line in proc.stdout.read().splitlines()]
    finally:
        proc.wait(timeout=20)
    assert sum("id" in m and "method" not in m for m in received) == answers
    return received


@pytest.fixture(scope="module")
def recorded() -> dict[str, RecordingClient]:
    clients = {}
    for version in ("2024-11-05", "2025-06-18", "2025-11-25", MODERN):
        client = RecordingClient(everything.server, version)
        run_script(client)
        client.close()
        clients[version] = client
    return clients


def test_the_client_sees_exactly_what_the_stdio_transport_sends(recorded: dict[str, RecordingClient]) -> None:
    # one server process serves a legacy session and stateless requests alike, as each came
    legacy, modern = recorded["2025-06-18"], recorded[MODERN]
    lines = legacy.sent + modern.sent
    answers = sum(b'"id"' in line and b'"method"' in line for line in lines)
    assert over_stdio(lines, answers) == legacy.received + modern.received


@pytest.mark.parametrize("version", ["2025-11-25", MODERN])
def test_every_answer_is_valid_for_the_official_sdk_types(
    recorded: dict[str, RecordingClient], version: str
) -> None:
    sdk_types = pytest.importorskip(f"mcp_types._v{version.replace('-', '_')}")
    checked = 0
    for message in recorded[version].received:
        result = message.get("result")
        if isinstance(result, dict) and "content" in result:
            sdk_types.CallToolResult.model_validate(result)
            checked += 1
        elif isinstance(result, dict) and "tools" in result:
            sdk_types.ListToolsResult.model_validate(result)
            checked += 1
    assert checked == 1 + sum(name != "no_such_tool" for name, _ in SCRIPT)


@pytest.mark.parametrize("version", ["2024-11-05", "2025-06-18", "2025-11-25", MODERN])
def test_results_read_back_into_the_blocks_that_were_sent(
    recorded: dict[str, RecordingClient], version: str
) -> None:
    client = recorded[version]
    results = [m["result"] for m in client.received if "content" in m.get("result", {})]
    for wire in results:
        result = CallResult.from_wire(wire, version)
        assert [converter.unstructure(block) for block in result.content] == wire["content"]
        assert result.is_error is wire.get("isError", False)
        assert result.structured_content == wire.get("structuredContent", mcplite.ABSENT)


def test_text_is_what_mcplite_builds_for_the_value() -> None:
    with Client(everything.server, "2025-11-25") as client:
        result = client.call_tool("return_frame")
    expected = mcplite.as_tool_result(everything.data_frame()).to_wire("2025-11-25")
    assert result.wire == expected
    assert result.text == expected["content"][0]["text"]
    assert result.structured_content is mcplite.ABSENT


@pytest.mark.parametrize("version", VERSIONS)
def test_handshake_and_listing(version: str) -> None:
    with Client(everything.server, protocol_version=version) as client:
        assert client.server_info is not None and client.server_info["name"] == "everything"
        assert client.server_capabilities is not None and "tools" in client.server_capabilities
        assert client.instructions == "A server with every kind of tool, for tests."
        tools = {tool.name: tool for tool in client.list_tools()}
        assert client.call_tool("version").text == version
    assert list(tools) == list(everything.server.tools)
    fancy = tools["fancy.tool-1"]
    assert (fancy.icons is not None) == (version >= "2025-11-25")
    assert (fancy.output_schema is not None) == (version >= "2025-06-18")


def test_listing_follows_every_page() -> None:
    server = mcplite.McpServer("paged", page_size=2)
    for i in range(5):
        server.add_tool(lambda: None, name=f"t{i}")
    with Client(server, MODERN) as client:
        assert [tool.name for tool in client.list_tools()] == ["t0", "t1", "t2", "t3", "t4"]
        assert client.request("tools/list")["nextCursor"] == "2"


def test_modern_requests_carry_the_envelope() -> None:
    client = RecordingClient(everything.server, MODERN, client_info={"name": "mine", "version": "9"})
    client.call_tool("add", {"a": 1})
    client.close()
    sent = [json.loads(line) for line in client.sent]
    assert [m["method"] for m in sent] == ["server/discover", "tools/call"]
    for message in sent:
        meta = message["params"]["_meta"]
        assert meta["io.modelcontextprotocol/protocolVersion"] == MODERN
        assert meta["io.modelcontextprotocol/clientCapabilities"] == {}
        assert meta["io.modelcontextprotocol/clientInfo"] == {"name": "mine", "version": "9"}
        assert meta["io.modelcontextprotocol/logLevel"] == "debug"
    assert sent[1]["params"]["_meta"]["progressToken"] == sent[1]["id"]


def test_legacy_clients_shake_hands_once() -> None:
    client = RecordingClient(everything.server, "2025-03-26", log_level=None)
    client.call_tool("add", {"a": 1})
    client.call_tool("add", {"a": 2})
    client.close()
    methods = [json.loads(line)["method"] for line in client.sent]
    assert methods == ["initialize", "notifications/initialized", "tools/call", "tools/call"]


# -- errors ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25"])
def test_bad_arguments_are_a_protocol_error_before_2025_11_25(version: str) -> None:
    with Client(everything.server, version) as client:
        if version == "2025-06-18":
            with pytest.raises(RequestError) as caught:
                client.call_tool("add", {"a": "one"})
            assert caught.value.code == -32602 and caught.value.method == "tools/call"
            assert "Invalid arguments for tool add" in caught.value.message
        else:
            result = client.call_tool("add", {"a": "one"})
            assert result.is_error and "Invalid arguments for tool add" in result.text


def test_a_tool_that_raises_gives_an_error_result() -> None:
    with Client(everything.server) as client:
        result = client.call_tool("fail", {"message": "no column 'x'"})
    assert result.is_error and result.text == "no column 'x'"


def test_unknown_methods_and_tools_raise_with_code_message_and_data() -> None:
    with Client(everything.server, MODERN) as client:
        with pytest.raises(RequestError, match=r"ping failed: JSON-RPC error -32601") as caught:
            client.request("ping")  # ping is gone in 2026-07-28
        assert caught.value.data == "ping"
        with pytest.raises(RequestError, match="Unknown tool: nope"):
            client.call_tool("nope")
        with pytest.raises(RequestError) as unsupported:
            client.request("tools/list", {"_meta": {"io.modelcontextprotocol/protocolVersion": "1999-01-01"}})
        assert unsupported.value.code == -32022
        assert unsupported.value.data["requested"] == "1999-01-01"


def test_bad_client_settings_are_refused() -> None:
    with pytest.raises(ValueError, match="protocol_version must be one of 2024-11-05"):
        Client(everything.server, "2025-01-01")
    with pytest.raises(ValueError, match="log_level must be one of debug"):
        Client(everything.server, log_level="loud")
    with Client(everything.server) as client, pytest.raises(TypeError, match="arguments must be a dict"):
        client.call_tool("add", [1, 2])  # type: ignore[arg-type]


# -- notifications ------------------------------------------------------------------------------------


@pytest.mark.parametrize("version", ["2024-11-05", "2025-11-25", MODERN])
def test_progress_and_logs_come_with_the_call(version: str) -> None:
    with Client(everything.server, version, log_level="info") as client:
        result = client.call_tool("progress", {"steps": 2})
        quiet = client.call_tool("progress", {"steps": 2}, progress=False)
    assert [p["progress"] for p in result.progress] == [1, 2]
    assert all(("message" in p) == (version != "2024-11-05") for p in result.progress)
    assert result.logs == [
        {"level": "info", "data": {"done": 2}, "logger": "everything"},
        {"level": "warning", "data": "careful"},
    ]
    assert quiet.progress == [] and len(quiet.logs) == 2
    assert [n["method"] for n in client.notifications].count("notifications/progress") == 2


@pytest.mark.parametrize("version", ["2025-06-18", MODERN])
def test_without_a_log_level_each_era_follows_its_default(version: str) -> None:
    with Client(everything.server, version, log_level=None) as client:
        result = client.call_tool("progress", {"steps": 1})
    # legacy servers send every level until logging/setLevel; 2026-07-28 sends none unless asked
    assert len(result.logs) == (3 if version == "2025-06-18" else 0)


# -- timing, concurrency, cancellation -------------------------------------------------------------


def test_a_call_that_takes_too_long_is_cancelled() -> None:
    before = everything.cancelled_seen()["hang"]
    # a timeout long enough for the call to start on a busy machine (cancelled sooner, it never runs)
    with Client(everything.server, timeout=1.0) as client:
        with pytest.raises(TimeoutError, match=r"tools/call hang: no answer within 1\.0 s"):
            client.call_tool("hang", {"limit": 10})
        deadline = time.monotonic() + 5
        while everything.cancelled_seen()["hang"] == before and time.monotonic() < deadline:
            time.sleep(0.01)
        assert client.call_tool("add", {"a": 1}).text == "3"  # the client is still usable
    assert everything.cancelled_seen()["hang"] == before + 1


def test_async_calls_run_concurrently_and_can_be_cancelled() -> None:
    async def main() -> None:
        async with Client(everything.server, MODERN) as client:
            start = time.monotonic()
            results = await asyncio.gather(*(client.acall_tool("slow", {"seconds": 0.3}) for _ in range(4)))
            assert time.monotonic() - start < 1.0
            assert [r.text for r in results] == ["slept 0.3"] * 4
            before = everything.cancelled_seen()["async_hang"]
            started = everything.calls_started()["async_hang"]
            task = asyncio.ensure_future(client.acall_tool("async_hang", {"limit": 10}))
            while everything.calls_started()["async_hang"] == started:  # cancelled sooner, it never runs
                await asyncio.sleep(0.01)
            task.cancel()
            with pytest.raises(asyncio.CancelledError):
                await task
            tools = await client.alist_tools()
            assert len(tools) == len(everything.server.tools)
            for _ in range(200):
                if everything.cancelled_seen()["async_hang"] > before:
                    break
                await asyncio.sleep(0.01)
            assert everything.cancelled_seen()["async_hang"] == before + 1

    asyncio.run(main())


def test_payload_options_around_a_call_apply_on_the_server() -> None:
    value = rv.r_list(x=rv.NA_real_)
    server = mcplite.McpServer("opts")
    server.add_tool(lambda: value, name="na")
    with Client(server) as client:
        plain = client.call_tool("na").text
        with mcplite.options(json_na="null"):
            scoped = client.call_tool("na").text
            expected = mcplite.as_tool_result(value).content[0]
    assert isinstance(expected, mcplite.TextContent)
    assert scoped == expected.text != plain


def test_closing_stops_the_server_loop_and_refuses_calls() -> None:
    client = Client(everything.server)
    client.call_tool("add", {"a": 1})
    threads = {t.name for t in threading.enumerate()}
    client.close()
    client.close()
    assert not client._thread.is_alive()
    assert "mcplite-testing" in threads
    with pytest.raises(RuntimeError, match="the client is closed"):
        client.call_tool("add", {"a": 1})


def test_usable_where_an_event_loop_is_already_running() -> None:
    # as in a notebook, whose kernel runs an event loop in the main thread
    async def cell() -> str:
        with Client(everything.server) as client:
            return client.call_tool("async_add", {"a": 1, "b": 2}).text

    expected = mcplite.as_tool_result(3.0).content[0]
    assert isinstance(expected, mcplite.TextContent)
    assert asyncio.run(cell()) == expected.text


# -- the documentation's example --------------------------------------------------------------------


def test_the_documented_pytest_example_passes(pytester: pytest.Pytester) -> None:
    text = (ROOT / "docs" / "testing.md").read_text(encoding="utf-8")
    found = re.search(r"<!-- test_tools\.py -->\n```python\n(.*?)```", text, flags=re.S)
    assert found, "docs/testing.md must hold the example test file after <!-- test_tools.py -->"
    pytester.makepyfile(test_tools=found.group(1))
    result = pytester.runpytest_inprocess("-q", "-p", "no:cacheprovider")
    tests = len(re.findall(r"^def test_", found.group(1), flags=re.M))
    outcomes = result.parseoutcomes()
    assert tests >= 3 and outcomes.get("passed", 0) >= tests, result.outlines
    assert "failed" not in outcomes and "errors" not in outcomes, result.outlines


def test_a_line_that_is_not_strict_json_fails_the_requests_in_flight() -> None:
    with Client(everything.server, timeout=5) as client:
        _, pending = client._start("tools/call", {"name": "slow", "arguments": {"seconds": 0.5}})
        client._receive_line(b'{"jsonrpc":"2.0","method":"x","params":{"n":NaN}}\n')
        with pytest.raises(ValueError, match="the server broke the protocol: the server wrote NaN"):
            pending.future.result(timeout=1)


# -- one style: objects with attributes, for tools (``Tool``, ``CallResult``) as for resources,
# templates and prompts, whose objects are still the wire dicts they were sent as (``r["uri"]``)


def notes_server() -> mcplite.McpServer:
    server = mcplite.McpServer("notes")

    @server.resource("notes://today", mime_type="text/plain", title="Today")
    def today() -> str:
        """Today's note."""
        return "water the plants"

    @server.resource("notes://day/{day}")
    def day(day: str) -> str:
        """The note of one day."""
        return f"note of {day}"

    @server.prompt
    def explore(column: str, depth: str = "1") -> str:
        """Explore a column."""
        return f"Explore {column} to depth {depth}."

    return server


@pytest.mark.parametrize("version", ["2025-06-18", "2026-07-28"])
def test_resources_templates_and_prompts_are_objects_as_tools_are(version: str) -> None:
    client = Client(notes_server(), protocol_version=version)
    resources = client.list_resources()
    assert [(r.uri, r.mime_type, r.title) for r in resources] == [
        (r["uri"], r["mimeType"], r["title"]) for r in client.request("resources/list")["resources"]
    ]
    templates = client.list_resource_templates()
    wire_templates = client.request("resources/templates/list")["resourceTemplates"]
    assert [t.uri_template for t in templates] == [t["uriTemplate"] for t in wire_templates]
    prompts = client.list_prompts()
    assert [(p.name, [(a.name, a.required) for a in p.arguments]) for p in prompts] == [
        (p["name"], [(a["name"], a.get("required")) for a in p["arguments"]])
        for p in client.request("prompts/list")["prompts"]
    ]
    prompt = client.get_prompt("explore", {"column": "mass"})
    wire = client.request("prompts/get", {"name": "explore", "arguments": {"column": "mass"}})
    assert prompt.messages[0].content.text == wire["messages"][0]["content"]["text"]
    assert prompt.description == wire["description"]
    # the old access keeps working: the objects are the dicts as sent
    assert prompt == wire and resources == client.request("resources/list")["resources"]
    assert isinstance(prompt, dict) and isinstance(prompt.messages[0], WireObject)


def test_a_field_that_is_not_there_names_the_fields_that_are() -> None:
    prompt = Client(notes_server()).get_prompt("explore", {"column": "mass"})
    with pytest.raises(AttributeError, match=r"has no field 'colour'; it has .*messages"):
        prompt.colour  # noqa: B018
