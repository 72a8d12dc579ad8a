"""``mcplite.testing.Client`` answers in one style: objects with attributes, for tools (``Tool``,
``CallResult``) as for resources, templates and prompts, whose objects are still the wire dicts
they were sent as (``r["uri"]`` keeps working)."""

from __future__ import annotations

import pytest

import mcplite
from mcplite.testing import Client, WireObject


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
