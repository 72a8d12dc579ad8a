"""Resources, templates, prompts and completion at every protocol version, each result validated
against that version's schema.json (schema/<version>/schema.json of
modelcontextprotocol/modelcontextprotocol at b0f60ba5, vendored in ``tests/data/mcp-schema/``)."""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator
from functools import cache
from pathlib import Path
from typing import Any

import jsonschema
import pytest

import mcplite
from mcplite.protocol.versions import PROTOCOL_VERSIONS
from mcplite.testing import Client, RequestError

SCHEMAS = Path(__file__).parent / "data" / "mcp-schema"


@cache
def schema(version: str) -> dict[str, Any]:
    loaded: dict[str, Any] = json.loads((SCHEMAS / f"{version}.json").read_text(encoding="utf-8"))
    return loaded


def check(wire: Any, definition: str, version: str) -> None:
    """Validate ``wire`` as ``definition`` of ``version``'s schema (which fails on any mismatch)."""
    root = schema(version)
    defs = "$defs" if "$defs" in root else "definitions"
    assert definition in root[defs], f"{definition} is not in the {version} schema"
    validator_class = jsonschema.validators.validator_for(root)
    validator = validator_class({**root, "$ref": f"#/{defs}/{definition}"})
    errors = sorted(validator.iter_errors(wire), key=str)
    assert not errors, f"{version} {definition}: {errors[0].message} at {list(errors[0].absolute_path)}"
    if "additionalProperties" not in root[defs][definition]:  # the schema allows extra keys: we send none
        allowed = set(root[defs][definition].get("properties", {}))
        assert set(wire) <= allowed, (
            f"{version} {definition}: {sorted(set(wire) - allowed)} not in the schema"
        )


@contextlib.asynccontextmanager
async def load(server: mcplite.McpServer) -> AsyncIterator[dict[str, Any]]:
    yield {"rows": [1, 2, 3]}


def make_server() -> mcplite.McpServer:
    server = mcplite.McpServer("features", lifespan=load, page_size=1)

    @server.resource(
        "data://rows",
        title="Rows",
        description="The rows.",
        mime_type="application/json",
        annotations={"audience": ["user"], "priority": 0.5, "lastModified": "2026-01-01T00:00:00Z"},
        icons=[{"src": "https://example.com/i.png", "mimeType": "image/png"}],
        meta={"example.com/k": 1},
    )
    def rows(ctx: mcplite.Context) -> list[int]:
        return list(ctx.lifespan_state["rows"])

    @server.resource("data://logo", mime_type="image/png")
    def logo() -> bytes:
        return b"\x89PNG"

    @server.resource("data://columns/{name}", title="Column", complete={"name": lambda v: ["a", "b"]})
    def column(name: str, n: int = 2) -> list[str]:
        """One column."""
        return [name] * n

    @server.prompt(title="Explore", icons=[{"src": "https://example.com/p.png"}], meta={"example.com/k": 2})
    def explore(column: str, depth: int = 1) -> str:
        """Explore a column."""
        return f"Explore {column} to depth {depth}."

    @server.prompt
    def chat(topic: str) -> list[Any]:
        return [
            {"role": "assistant", "content": "Hello."},
            mcplite.content_text(f"About {topic}", meta={"example.com/k": 3}),
            mcplite.content_resource("data://rows", text="[1,2,3]", mime_type="application/json"),
        ]

    @server.completion
    def complete(ref: dict[str, Any], argument: str, value: str) -> list[str]:
        return [f"{value}{i}" for i in range(150)]

    return server


@pytest.fixture(params=PROTOCOL_VERSIONS)
def client(request: pytest.FixtureRequest) -> Any:
    with Client(make_server(), request.param) as opened:
        yield opened


def test_capabilities_are_what_the_server_has(client: Client) -> None:
    version = client.protocol_version
    caps = client.server_capabilities
    assert caps is not None
    check(caps, "ServerCapabilities", version)
    assert {"resources", "prompts", "tools"} <= set(caps)
    assert ("completions" in caps) == (version >= "2025-03-26")  # 2024-11-05 has no such capability
    assert caps["resources"] == {"subscribe": True, "listChanged": True}
    if version == "2026-07-28":  # every list change arrives on a subscriptions/listen stream
        assert caps["prompts"] == {"listChanged": True} and caps["tools"] == {"listChanged": True}
    else:  # before it: resources/subscribe and the resource list's changes only
        assert caps["prompts"] == {} and caps["tools"] == {"listChanged": False}
    bare = mcplite.McpServer("bare")
    with Client(bare, version) as plain:
        assert plain.server_capabilities is not None
        assert not {"resources", "prompts", "completions"} & set(plain.server_capabilities)


def test_listings_page_and_validate(client: Client) -> None:
    version = client.protocol_version
    first = client.request("resources/list")
    check(first, "ListResourcesResult", version)
    assert first["nextCursor"] == "1"
    second = client.request("resources/list", {"cursor": first["nextCursor"]})
    check(second, "ListResourcesResult", version)
    assert "nextCursor" not in second
    entry = first["resources"][0]
    check(entry, "Resource", version)
    assert ("title" in entry, "_meta" in entry) == ((version >= "2025-06-18"),) * 2
    assert ("icons" in entry) == (version >= "2025-11-25")
    assert ("lastModified" in entry["annotations"]) == (version >= "2025-06-18")
    templates = client.request("resources/templates/list")
    check(templates, "ListResourceTemplatesResult", version)
    check(templates["resourceTemplates"][0], "ResourceTemplate", version)
    prompts = client.request("prompts/list")
    check(prompts, "ListPromptsResult", version)
    check(prompts["prompts"][0], "Prompt", version)
    for argument in prompts["prompts"][0]["arguments"]:
        check(argument, "PromptArgument", version)
    assert [a["required"] for a in prompts["prompts"][0]["arguments"]] == [True, False]
    assert [r["uri"] for r in client.list_resources()] == ["data://rows", "data://logo"]
    assert len(client.list_prompts()) == 2
    modern = {"resultType", "ttlMs", "cacheScope"}
    assert (modern <= set(first)) == (version == "2026-07-28")


def test_reads_validate(client: Client) -> None:
    version = client.protocol_version
    for uri in ("data://rows", "data://logo", "data://columns/bill%20length"):
        result = client.request("resources/read", {"uri": uri})
        check(result, "ReadResourceResult", version)
    text, blob = client.read_resource("data://rows")[0], client.read_resource("data://logo")[0]
    assert isinstance(text, mcplite.TextResourceContents) and text.text == "[1,2,3]"
    assert isinstance(blob, mcplite.BlobResourceContents) and blob.blob == "iVBORw=="
    assert client.read_resource("data://columns/bill%20length")[0].text == '["bill length","bill length"]'


def test_unknown_uri_is_the_versions_error(client: Client) -> None:
    with pytest.raises(RequestError) as caught:
        client.read_resource("data://nope")
    expected = -32602 if client.protocol_version == "2026-07-28" else -32002
    assert caught.value.code == expected
    assert caught.value.data == {"uri": "data://nope"}


def test_prompts_validate(client: Client) -> None:
    version = client.protocol_version
    got = client.get_prompt("explore", {"column": "mass", "depth": "2"})
    check(got, "GetPromptResult", version)
    assert got["messages"] == [
        {"role": "user", "content": {"type": "text", "text": "Explore mass to depth 2."}}
    ]
    chat = client.get_prompt("chat", {"topic": "penguins"})
    check(chat, "GetPromptResult", version)
    assert [m["role"] for m in chat["messages"]] == ["assistant", "user", "user"]
    assert ("_meta" in chat["messages"][1]["content"]) == (version >= "2025-06-18")
    with pytest.raises(RequestError) as caught:
        client.get_prompt("explore", {"column": "mass", "depth": "deep"})
    assert caught.value.code == -32602 and "depth" in str(caught.value)


def test_completion_validates(client: Client) -> None:
    version = client.protocol_version
    own = client.request(
        "completion/complete",
        {
            "ref": {"type": "ref/resource", "uri": "data://columns/{name}"},
            "argument": {"name": "name", "value": ""},
        },
    )
    check(own, "CompleteResult", version)
    assert own["completion"]["values"] == ["a", "b"]
    server_wide = client.request(
        "completion/complete",
        {"ref": {"type": "ref/prompt", "name": "explore"}, "argument": {"name": "column", "value": "x"}},
    )
    check(server_wide, "CompleteResult", version)
    assert server_wide["completion"]["total"] == 150 and server_wide["completion"]["hasMore"] is True
    assert len(server_wide["completion"]["values"]) == 100


def test_tools_read_resources_and_lifespan_state() -> None:
    server = make_server()

    @server.tool
    def peek(ctx: mcplite.Context) -> str:
        """Read a resource and the lifespan state."""
        return f"{ctx.read_resource('data://rows')[0].text} {ctx.lifespan_state['rows']}"

    with Client(server, "2025-11-25") as client:
        assert client.call_tool("peek").text == "[1,2,3] [1, 2, 3]"
    assert server.engine.offer.lifespan.state is None  # left when the client closed


@pytest.mark.parametrize("version", [v for v in PROTOCOL_VERSIONS if v != "2026-07-28"])
def test_list_changed_and_updated_notifications(version: str) -> None:
    server = make_server()
    with Client(server, version) as client:
        client.list_resources()
        client.subscribe_resource("data://rows")
        assert server.notify_resources_changed() == 1
        assert server.notify_resource_updated("data://rows") == 1
        assert server.notify_resource_updated("data://logo") == 0
        client.request("ping")
        sent = [n for n in client.notifications if n["method"].startswith("notifications/resources/")]
    assert [n["method"] for n in sent] == [
        "notifications/resources/list_changed",
        "notifications/resources/updated",
    ]
    for notification, definition in zip(
        sent, ["ResourceListChangedNotification", "ResourceUpdatedNotification"]
    ):
        check(notification, "JSONRPCNotification", version)
        defs = schema(version).get("$defs") or schema(version)["definitions"]
        if "jsonrpc" not in defs[definition]["properties"]:  # before 2025-11-25 the envelope is apart
            notification = {key: value for key, value in notification.items() if key != "jsonrpc"}
        check(notification, definition, version)


@pytest.mark.parametrize("version", PROTOCOL_VERSIONS)
def test_a_lookup_error_is_resource_not_found_and_other_errors_internal(version: str) -> None:
    server = mcplite.McpServer("lookups")

    @server.resource("data://items/{key}")
    def item(key: str) -> str:
        if key == "boom":
            raise RuntimeError("the store is down")
        raise mcplite.ResourceNotFound(f"no item {key!r}")

    not_found = -32602 if version == "2026-07-28" else -32002
    with Client(server, version) as client:
        with pytest.raises(RequestError) as caught:
            client.read_resource("data://items/x")
        assert (caught.value.code, caught.value.data) == (not_found, {"uri": "data://items/x"})
        assert "no item 'x'" in caught.value.message
        with pytest.raises(RequestError) as caught:
            client.read_resource("data://items/boom")
        assert caught.value.code == -32603 and "data://items/boom" in caught.value.message
        assert "the store is down" not in caught.value.message  # masked: the detail goes to the log
