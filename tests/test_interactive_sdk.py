"""Interactive tools end to end with the official SDK's client (mcp 2.x): ``ctx.elicit``,
``ctx.sample``, ``ctx.list_roots`` and ``ctx.ask_all`` from async and sync tools, a prompt and a
resource (tests/servers/asking.py).

Three wires: a legacy session over stdio and over Streamable HTTP (the server's requests on the
call's stream, answered by the client's callbacks), and 2026-07-28 over HTTP (``input_required``
rounds the SDK's client drives with the same callbacks). What the tools return is made of what the
callbacks answered; what the callbacks received is what the SDK parsed from the server's requests.
"""

from __future__ import annotations

import contextlib
import os
import sys
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import anyio
import jsonschema
import mcp_types as types
import pytest
from mcp import Client, StdioServerParameters
from mcp.shared.exceptions import MCPError

from tests.servers import asking
from tests.serving import served

ROOT = Path(__file__).resolve().parent.parent
SERVER = ROOT / "tests" / "servers" / "asking.py"
TIMEOUT = 30.0
ANSWER = {"column": "bill_length_mm", "rows": 7, "colour": "blue", "extras": ["ci"], "name": "Ann"}
MODES = ["stdio-legacy", "http-legacy", "http-2026-07-28"]


class Callbacks:
    """The client's side: what it was asked, and its answers."""

    def __init__(self) -> None:
        self.elicited: list[types.ElicitRequestParams] = []
        self.sampled: list[types.CreateMessageRequestParams] = []

    async def elicit(self, context: Any, params: types.ElicitRequestParams) -> types.ElicitResult:
        self.elicited.append(params)
        return types.ElicitResult(action="accept", content=dict(ANSWER, context="penguins", pick="b"))

    async def sample(
        self, context: Any, params: types.CreateMessageRequestParams
    ) -> types.CreateMessageResult:
        self.sampled.append(params)
        text = types.TextContent(type="text", text="Bills vary.")
        return types.CreateMessageResult(role="assistant", content=text, model="test-model")

    async def roots(self, context: Any) -> types.ListRootsResult:
        return types.ListRootsResult(roots=[types.Root(uri="file:///data", name="data")])


@pytest.fixture(scope="module")
def url() -> Any:
    with served(asking.make_server(state_key="t" * 32).asgi_app(), lifespan="on") as base:
        yield base + "/mcp"


@contextlib.asynccontextmanager
async def connect(mode: str, url: str, callbacks: Callbacks | None, **only: bool) -> AsyncIterator[Any]:
    """A client in ``mode`` whose callbacks are ``callbacks``' (those ``only`` leaves on)."""
    kwargs: dict[str, Any] = {}
    if callbacks is not None:
        kwargs = {
            "elicitation_callback": callbacks.elicit,
            "sampling_callback": callbacks.sample,
            "list_roots_callback": callbacks.roots,
        }
        kwargs = {k: v for k, v in kwargs.items() if only.get(k.split("_")[0], True)}
    server: Any
    if mode == "stdio-legacy":
        server = StdioServerParameters(command=sys.executable, args=[str(SERVER)], env=dict(os.environ))
    else:
        server = url
    client_mode = "2026-07-28" if mode.endswith("2026-07-28") else "legacy"
    with anyio.fail_after(TIMEOUT):
        async with Client(server, mode=client_mode, **kwargs) as client:
            yield client


def text(result: types.CallToolResult) -> str:
    assert not result.is_error, result.content
    [block] = result.content
    assert isinstance(block, types.TextContent)
    return block.text


@pytest.mark.parametrize("mode", MODES)
def test_every_kind_of_ask_reaches_the_client_and_its_answer_the_tool(mode: str, url: str) -> None:
    async def main() -> None:
        callbacks = Callbacks()
        async with connect(mode, url, callbacks) as client:
            for tool in ("fit_async", "fit_sync"):
                got = text(await client.call_tool(tool, {}))
                assert got.startswith(f"fit {ANSWER['column']} rows={ANSWER['rows']}")
            assert "colour=DEEP_BLUE extras=['ci']" in text(await client.call_tool("fit_async", {}))
            assert text(await client.call_tool("greet", {})) == "Hello, Ann!"
            assert text(await client.call_tool("summarize", {"topic": "bills"})) == "test-model: Bills vary."
            assert text(await client.call_tool("roots", {})) == '["file:///data"]'
            for tool in ("all_at_once", "all_at_once_sync"):
                assert text(await client.call_tool(tool, {})) == "Bills vary. Ann (1 roots)"
            assert text(await client.call_tool("two_rounds", {})) == "Ann likes blue"
            assert text(await client.call_tool("swallowing", {})) == "got Ann"
            prompt = await client.get_prompt("briefing", {})
            assert prompt.messages[0].content.text == "Brief me on penguins"
            read = await client.read_resource("asking://choice")
            assert read.contents[0].text == "picked b"
        # the record type's schema, as the SDK parsed it: a valid JSON schema the answer fits
        fit_schema = callbacks.elicited[0].requested_schema
        jsonschema.Draft202012Validator.check_schema(fit_schema)
        jsonschema.validate({k: ANSWER[k] for k in ("column", "rows", "colour", "extras")}, fit_schema)
        defaults = asking.Fit()
        assert fit_schema["properties"]["column"]["default"] == defaults.column
        assert fit_schema["properties"]["rows"]["default"] == defaults.rows
        sampled = callbacks.sampled[0]
        assert (sampled.max_tokens, sampled.system_prompt, sampled.temperature) == (50, "Be brief.", 0.2)
        assert sampled.messages[0].content.text == "Summarize bills"

    anyio.run(main)


@pytest.mark.parametrize("mode", ["stdio-legacy", "http-legacy"])
def test_a_legacy_client_without_the_capability_gets_a_clear_error(mode: str, url: str) -> None:
    async def main() -> None:
        async with connect(mode, url, Callbacks(), elicitation=False) as client:
            result = await client.call_tool("greet", {})
            assert result.is_error
            assert "did not declare the capability {'elicitation': {}}" in result.content[0].text
            # what it did declare still works on the same session
            assert text(await client.call_tool("summarize", {"topic": "bills"})) == "test-model: Bills vary."

    anyio.run(main)


def test_a_2026_client_without_the_capability_gets_minus_32021(url: str) -> None:
    async def main() -> None:
        async with connect("http-2026-07-28", url, Callbacks(), sampling=False) as client:
            with pytest.raises(MCPError) as raised:
                await client.call_tool("summarize", {"topic": "bills"})
            assert raised.value.error.code == -32021
            assert raised.value.error.data == {"requiredCapabilities": {"sampling": {}}}
            assert text(await client.call_tool("greet", {})) == "Hello, Ann!"

    anyio.run(main)
