"""Resources, templates, prompts and listings beyond the schema tests: template values bound with the tool
argument rules, pagination of every listing, capabilities only for what a server has."""

from __future__ import annotations

from typing import Literal

import pytest

import mcplite
from mcplite.protocol.versions import PROTOCOL_VERSIONS
from mcplite.testing import Client, RequestError


@pytest.mark.parametrize("version", ["2025-11-25", "2026-07-28"])
def test_template_values_follow_the_tool_argument_rules(version: str) -> None:
    server = mcplite.McpServer("rules")

    @server.resource("data://rows/{start}/{kind}")
    def rows(start: int, kind: Literal["head", "tail"], flag: bool = False) -> list[object]:
        return [start, kind, flag]

    with Client(server, version) as client:
        assert client.read_resource("data://rows/3/head")[0].text == '[3,"head",false]'
        for uri, named in [("data://rows/three/head", "start"), ("data://rows/3/middle", "kind")]:
            with pytest.raises(RequestError) as caught:
                client.read_resource(uri)
            assert caught.value.code == -32602 and f"argument '{named}'" in caught.value.message
            assert caught.value.data == {"uri": uri}


def test_every_listing_pages_and_refuses_an_unknown_cursor() -> None:
    server = mcplite.McpServer("pages", page_size=2)
    for i in range(5):
        server.resource(f"data://static/{i}")(lambda: "x")
        server.resource(f"data://template{i}/{{name}}")(lambda name: name)
        server.prompt(name=f"prompt{i}")(lambda: "hello")
    with Client(server, "2025-11-25") as client:
        assert len(client.list_resources()) == len(client.list_resource_templates()) == 5
        assert [p["name"] for p in client.list_prompts()] == [f"prompt{i}" for i in range(5)]
        for method in ("resources/list", "resources/templates/list", "prompts/list"):
            first = client.request(method)
            assert first["nextCursor"] == "2"
            last = client.request(method, {"cursor": "4"})
            assert "nextCursor" not in last
            with pytest.raises(RequestError) as caught:
                client.request(method, {"cursor": "not-a-cursor"})
            assert caught.value.code == -32602


@pytest.mark.parametrize("version", PROTOCOL_VERSIONS)
def test_capabilities_only_for_what_the_server_has(version: str) -> None:
    completions = version >= "2025-03-26"
    prompts_only = mcplite.McpServer("prompts")
    prompts_only.prompt(name="hi")(lambda: "hi")
    resources_only = mcplite.McpServer("resources")
    resources_only.resource("data://x/{name}")(lambda name: name)
    completing = mcplite.McpServer("completing")
    completing.resource("data://x/{name}", complete={"name": lambda typed: ["a"]})(lambda name: name)
    for server, expected in [
        (prompts_only, {"prompts"}),
        (resources_only, {"resources"}),
        (completing, {"resources"} | ({"completions"} if completions else set())),
    ]:
        with Client(server, version) as client:
            caps = client.server_capabilities
            assert caps is not None
            assert {"resources", "prompts", "completions"} & set(caps) == expected, server.name
