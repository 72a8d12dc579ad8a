"""Resources, templates, prompts, completion and lifespan (tests/servers/features.py) driven by the
official SDK's ``Client`` over stdio and Streamable HTTP (legacy and 2026-07-28) and by FastMCP's
``Client`` over stdio. What each read must bring back is what mcplite writes for the same value
(``mcplite.features.contents.contents_of``), never typed by hand."""

from __future__ import annotations

import base64
import contextlib
import dataclasses
import json
import os
import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client
from mcp.shared.exceptions import MCPError
from mcp_types import PromptReference, ResourceTemplateReference

from mcplite.features.contents import contents_of
from mcplite.payload.rjson import options_in_force
from tests.sdk_handshake import offered_handshake
from tests.servers import features
from tests.serving import served

pytest.importorskip("fastmcp")
from fastmcp import Client as FastClient
from fastmcp.client.transports import StdioTransport

SERVER = Path(features.__file__)
TIMEOUT = 20.0


@dataclasses.dataclass(frozen=True)
class Config:
    library: str  # "sdk" or "fastmcp"
    transport: str  # "stdio" or "http"
    mode: str  # "legacy" or "2026-07-28"
    handshake: str | None = None

    @property
    def id(self) -> str:
        return f"{self.library}-{self.transport}-{self.mode}" + (
            f"-{self.handshake}" if self.handshake else ""
        )


CONFIGS = [
    Config("sdk", "stdio", "legacy"),
    Config("sdk", "stdio", "legacy", "2024-11-05"),
    Config("sdk", "stdio", "2026-07-28"),
    Config("sdk", "http", "legacy"),
    Config("sdk", "http", "2026-07-28"),
    Config("fastmcp", "stdio", "legacy"),
    Config("fastmcp", "stdio", "2026-07-28"),
]


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with served(features.server.asgi_app(), lifespan="on") as base:
        yield base + "/mcp"


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module", params=CONFIGS, ids=lambda config: config.id)
async def conn(
    request: pytest.FixtureRequest, url: str, tmp_path_factory: pytest.TempPathFactory, anyio_backend: str
) -> AsyncIterator[tuple[Config, Any]]:
    config: Config = request.param
    stderr = tmp_path_factory.mktemp("stderr") / f"{config.id}.log"
    async with contextlib.AsyncExitStack() as stack:
        client: Any
        if config.library == "sdk":
            if config.transport == "http":
                target: Any = url
            else:
                errlog = stack.enter_context(stderr.open("w", encoding="utf-8"))
                params = StdioServerParameters(
                    command=sys.executable, args=[str(SERVER)], env=dict(os.environ)
                )
                target = stdio_client(params, errlog=errlog)
            client = Client(target, mode=config.mode, read_timeout_seconds=TIMEOUT)  # type: ignore[arg-type]
        else:
            transport = StdioTransport(
                command=sys.executable, args=[str(SERVER)], env=dict(os.environ), log_file=stderr
            )
            client = FastClient(transport, mode=config.mode, timeout=TIMEOUT, init_timeout=TIMEOUT)  # type: ignore[arg-type]
        with offered_handshake(config.handshake):
            await stack.enter_async_context(client)
        yield config, client


pytestmark = pytest.mark.anyio


def expected(uri: str, value: Any, mime_type: str | None) -> dict[str, Any]:
    written = contents_of(value, uri, mime_type, options_in_force())[0]
    return {"uri": uri, "text": getattr(written, "text", None), "blob": getattr(written, "blob", None)}


def got(contents: Any) -> dict[str, Any]:
    return {
        "uri": str(contents.uri),
        "text": getattr(contents, "text", None),
        "blob": getattr(contents, "blob", None),
    }


async def test_resources_and_templates_are_listed(conn: tuple[Config, Any]) -> None:
    config, client = conn
    with anyio.fail_after(TIMEOUT):
        resources = await client.list_resources()
        templates = await client.list_resource_templates()
    if config.library == "sdk":
        resources, templates = resources.resources, templates.resource_templates
    assert [str(r.uri) for r in resources] == ["penguins://data", "penguins://logo"]
    assert [t.uri_template for t in templates] == ["penguins://columns/{name}"]


async def test_reads_bring_back_what_mcplite_writes(conn: tuple[Config, Any]) -> None:
    config, client = conn
    cases = [
        ("penguins://data", features.COLUMNS, "application/json"),
        ("penguins://logo", features.LOGO, "image/png"),
        ("penguins://columns/mass", features.COLUMNS["mass"], None),
    ]
    for uri, value, mime in cases:
        with anyio.fail_after(TIMEOUT):
            result = await client.read_resource(uri)
        contents = result.contents if config.library == "sdk" else result
        assert [got(item) for item in contents] == [expected(uri, value, mime)]
    assert base64.b64decode(expected("penguins://logo", features.LOGO, None)["blob"]) == features.LOGO


async def test_an_unknown_resource_is_an_error(conn: tuple[Config, Any]) -> None:
    config, client = conn
    with pytest.raises(Exception) as caught, anyio.fail_after(TIMEOUT):
        await client.read_resource("penguins://nothing")
    if isinstance(caught.value, MCPError):
        assert caught.value.error.code == (-32602 if config.mode == "2026-07-28" else -32002)
    assert "penguins://nothing" in str(caught.value)


async def test_prompts_and_completion(conn: tuple[Config, Any]) -> None:
    config, client = conn
    with anyio.fail_after(TIMEOUT):
        prompts = await client.list_prompts()
        prompt = await client.get_prompt("explore", {"column": "mass"})
        by_prompt = await client.complete(
            PromptReference(type="ref/prompt", name="explore"), {"name": "column", "value": "m"}
        )
        by_template = await client.complete(
            ResourceTemplateReference(type="ref/resource", uri="penguins://columns/{name}"),
            {"name": "name", "value": "s"},
        )
    if config.library == "sdk":
        prompts = prompts.prompts
    assert [p.name for p in prompts] == ["explore", "compare"]
    assert [(m.role, m.content.text) for m in prompt.messages] == [("user", "Explore the column mass.")]
    by_prompt = getattr(by_prompt, "completion", by_prompt)
    by_template = getattr(by_template, "completion", by_template)
    assert by_prompt.values == ["mass"] and by_template.values == ["species"]


async def test_the_lifespan_ran_before_the_first_call(conn: tuple[Config, Any]) -> None:
    config, client = conn
    with anyio.fail_after(TIMEOUT):
        result = await (
            client.call_tool("started", {})
            if config.library == "sdk"
            else client.call_tool_mcp("started", {})
        )
    assert [block.text for block in result.content] == ["true"]


async def test_a_prompt_of_several_messages_and_a_tool_reading_a_resource(conn: tuple[Config, Any]) -> None:
    config, client = conn
    with anyio.fail_after(TIMEOUT):
        prompt = await client.get_prompt("compare", {"first": "species"})
        peeked = await (
            client.call_tool("peek", {"uri": "penguins://columns/mass"})
            if config.library == "sdk"
            else client.call_tool_mcp("peek", {"uri": "penguins://columns/mass"})
        )
    text, image, embedded = prompt.messages
    assert (text.role, text.content.text) == ("user", "Compare species and mass over 2 rows.")  # lifespan
    assert (image.role, base64.b64decode(image.content.data)) == ("user", features.LOGO)
    assert (embedded.role, str(embedded.content.resource.uri)) == ("assistant", "penguins://data")
    column = expected("penguins://columns/mass", features.COLUMNS["mass"], None)
    assert [block.text for block in peeked.content] == [column["text"]]


@pytest.mark.parametrize("transport", ["stdio", "http"])
async def test_list_changes_and_updates_reach_the_sdk_client(
    transport: str, url: str, tmp_path: Path, anyio_backend: str
) -> None:
    """A legacy client that listed resources hears they changed; one that subscribed hears the
    update: over stdio, and over HTTP on the session's GET stream."""
    heard: list[tuple[str, str | None]] = []
    both = anyio.Event()

    async def handler(message: Any) -> None:
        method = getattr(message, "method", None)
        if isinstance(method, str) and method.startswith("notifications/resources/"):
            heard.append((method, getattr(getattr(message, "params", None), "uri", None)))
            if len(heard) == 2:
                both.set()

    with (tmp_path / "stderr.log").open("w", encoding="utf-8") as errlog:
        params = StdioServerParameters(command=sys.executable, args=[str(SERVER)], env=dict(os.environ))
        target: Any = url if transport == "http" else stdio_client(params, errlog=errlog)
        client = Client(target, mode="legacy", read_timeout_seconds=TIMEOUT, message_handler=handler)
        async with client:
            with anyio.fail_after(TIMEOUT):
                await client.list_resources()
                with pytest.warns(Warning, match="resources/subscribe is removed"):  # from 2026-07-28
                    await client.subscribe_resource("penguins://data")
                told = await client.call_tool("touch", {})
                await both.wait()
    counts = json.loads(told.content[0].text)
    assert counts[0] >= 1 and counts[1] >= 1  # other HTTP sessions of this module may listen too
    assert heard == [
        ("notifications/resources/list_changed", None),
        ("notifications/resources/updated", "penguins://data"),
    ]


async def test_list_changes_reach_the_fastmcp_client(tmp_path: Path, anyio_backend: str) -> None:
    heard: list[str] = []
    arrived = anyio.Event()

    async def handler(message: Any) -> None:
        root = getattr(message, "root", message)
        method = getattr(root, "method", None)
        if method == "notifications/resources/list_changed":
            heard.append(method)
            arrived.set()

    transport = StdioTransport(
        command=sys.executable, args=[str(SERVER)], env=dict(os.environ), log_file=tmp_path / "stderr.log"
    )
    client = FastClient(transport, mode="legacy", timeout=TIMEOUT, message_handler=handler)  # type: ignore[arg-type]
    async with client:
        with anyio.fail_after(TIMEOUT):
            await client.list_resources()
            told = await client.call_tool_mcp("touch", {})
            await arrived.wait()
    assert json.loads(told.content[0].text)[0] == 1 and heard == ["notifications/resources/list_changed"]
