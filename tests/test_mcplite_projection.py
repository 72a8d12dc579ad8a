"""result.to_wire(version) and tool.to_wire(version): what each protocol version can carry.

The field sets are checked against the published schemas (schema/<version>/schema.json of
modelcontextprotocol/modelcontextprotocol), vendored in ``tests/data/mcplite-mcp-schema-fields.json``.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

import mcplite
from rvalues import NA, data_frame, r_list

VERSIONS = mcplite.PROTOCOL_VERSIONS
OLD = ("2024-11-05", "2025-03-26")
OBJECT_ONLY = ("2025-06-18", "2025-11-25")

# Properties and required fields of each definition, from schema/<version>/schema.json
# (modelcontextprotocol/modelcontextprotocol at b0f60ba5), vendored.
SCHEMAS: dict[str, dict[str, Any]] = json.loads(
    (Path(__file__).parent / "data" / "mcplite-mcp-schema-fields.json").read_text(encoding="utf-8")
)["versions"]
SCHEMA_FIELDS: dict[str, dict[str, set[str]]] = {
    version: {name: set(d["properties"]) for name, d in defs.items()} for version, defs in SCHEMAS.items()
}
BLOCK_SCHEMA = {
    "text": "TextContent",
    "image": "ImageContent",
    "audio": "AudioContent",
    "resource_link": "ResourceLink",
    "resource": "EmbeddedResource",
}


@pytest.fixture(autouse=True)
def unset_options() -> Iterator[None]:
    mcplite.options(json_null=None, json_na=None, json_auto_unbox=None)
    yield
    mcplite.options(json_null=None, json_na=None, json_auto_unbox=None)


def every_block() -> list[Any]:
    annotations = {"audience": ["user"], "priority": 0.5, "last_modified": "2025-01-02T03:04:05Z"}
    meta = {"k": "v"}
    return [
        mcplite.content_text("text", annotations=annotations, meta=meta),
        mcplite.content_image(b"img", "image/png", annotations=annotations, meta=meta),
        mcplite.content_audio(b"snd", "audio/wav", annotations=annotations, meta=meta),
        mcplite.content_resource_link(
            "file:///r.csv",
            "r.csv",
            title="Report",
            description="All rows",
            mime_type="text/csv",
            size=3,
            annotations=annotations,
            icons=[{"src": "https://x/i.png"}],
            meta=meta,
        ),
        mcplite.content_resource(
            "file:///a.txt",
            text="a",
            mime_type="text/plain",
            annotations=annotations,
            meta=meta,
            resource_meta=meta,
        ),
    ]


def check_against_schema(wire: dict[str, Any], version: str) -> None:
    fields, schema = SCHEMA_FIELDS[version], SCHEMAS[version]
    assert set(wire) <= fields["CallToolResult"], set(wire) - fields["CallToolResult"]
    assert set(schema["CallToolResult"]["required"]) <= set(wire)
    for block in wire["content"]:
        assert block["type"] in schema["CallToolResult"]["content_types"], (version, block["type"])
        name = BLOCK_SCHEMA[block["type"]]
        assert set(block) <= fields[name], (name, set(block) - fields[name])
        assert set(schema[name]["required"]) <= set(block)
        if "annotations" in block:
            assert set(block["annotations"]) <= fields["Annotations"]
        if "resource" in block:
            kind = "TextResourceContents" if "text" in block["resource"] else "BlobResourceContents"
            assert set(block["resource"]) <= fields[kind]
            assert set(schema[kind]["required"]) <= set(block["resource"])


@pytest.mark.parametrize("version", VERSIONS)
def test_every_block_projects_to_fields_the_version_defines(version: str) -> None:
    result = mcplite.tool_result(every_block(), structured_content={"n": 1}, is_error=True, meta={"r": 1})
    wire = result.to_wire(version)
    check_against_schema(wire, version)
    assert len(wire["content"]) == 5  # no block is dropped
    assert wire["_meta"] == {"r": 1} and wire["isError"] is True


def test_no_structured_content_before_2025_06_18() -> None:
    result = mcplite.tool_result(structured_content=r_list(n=1))
    for version in OLD:
        assert result.to_wire(version) == {"content": [{"type": "text", "text": '{"n":1}'}]}


@pytest.mark.parametrize("value", [["a", "b"], "done", NA, 1, data_frame(x=[1, 2]), [1, {"a": 1}]])
def test_object_only_structured_content_for_2025_06_18_and_2025_11_25(value: Any) -> None:
    result = mcplite.tool_result(structured_content=value)
    for version in OBJECT_ONLY:
        wire = result.to_wire(version)
        assert "structuredContent" not in wire
        assert wire["content"] == [{"type": "text", "text": result.content[0].text}]  # the fallback stays
    modern = result.to_wire("2026-07-28")
    assert modern["structuredContent"] == result.structured_content
    assert modern["resultType"] == "complete"


def test_objects_are_sent_from_2025_06_18() -> None:
    result = mcplite.tool_result(structured_content={"a": [1, 2]})
    for version in (*OBJECT_ONLY, "2026-07-28"):
        assert result.to_wire(version)["structuredContent"] == {"a": [1, 2]}
    assert mcplite.tool_result(structured_content=[]).to_wire("2025-06-18")["structuredContent"] == {}


def test_result_type_complete_only_from_2026_07_28() -> None:
    result = mcplite.tool_result([mcplite.content_text("x")])
    assert result.to_wire("2026-07-28") == {
        "content": [{"type": "text", "text": "x"}],
        "resultType": "complete",
    }
    for version in VERSIONS[:-1]:
        assert "resultType" not in result.to_wire(version)


def test_audio_becomes_a_text_note_in_2024_11_05() -> None:
    audio = mcplite.content_audio(
        b"snd", "audio/wav", annotations={"priority": 0.2, "last_modified": "2025-01-02"}
    )
    wire = mcplite.tool_result([audio]).to_wire("2024-11-05")
    assert wire["content"] == [
        {
            "type": "text",
            "text": "[audio (audio/wav) omitted: protocol version 2024-11-05 cannot carry audio content]",
            "annotations": {"priority": 0.2},
        }
    ]
    assert mcplite.tool_result([audio]).to_wire("2025-03-26")["content"][0]["type"] == "audio"


def test_resource_links_become_text_before_2025_06_18() -> None:
    link = mcplite.content_resource_link("file:///r.csv", "r.csv", description="All rows", meta={"k": 1})
    for version in OLD:
        assert mcplite.tool_result([link]).to_wire(version)["content"] == [
            {"type": "text", "text": "r.csv: file:///r.csv\nAll rows"}
        ]
    titled = mcplite.content_resource_link("file:///r.csv", "r.csv", title="Report")
    assert (
        mcplite.tool_result([titled]).to_wire("2025-03-26")["content"][0]["text"] == "Report: file:///r.csv"
    )
    kept = mcplite.tool_result([link]).to_wire("2025-06-18")["content"][0]
    assert kept == {
        "type": "resource_link",
        "uri": "file:///r.csv",
        "name": "r.csv",
        "description": "All rows",
        "_meta": {"k": 1},
    }


def test_meta_and_last_modified_dropped_before_2025_06_18() -> None:
    block = mcplite.content_text("x", annotations={"last_modified": "2025-01-02"}, meta={"k": 1})
    for version in OLD:
        assert mcplite.tool_result([block]).to_wire(version)["content"] == [{"type": "text", "text": "x"}]
    assert mcplite.tool_result([block]).to_wire("2025-06-18")["content"] == [
        {"type": "text", "text": "x", "annotations": {"lastModified": "2025-01-02"}, "_meta": {"k": 1}}
    ]


def test_resource_link_icons_only_from_2025_11_25() -> None:
    link = mcplite.content_resource_link(
        "file:///r", "r", icons=[mcplite.Icon("https://x/i.png", theme="dark")]
    )
    assert "icons" not in mcplite.tool_result([link]).to_wire("2025-06-18")["content"][0]
    assert mcplite.tool_result([link]).to_wire("2025-11-25")["content"][0]["icons"] == [
        {"src": "https://x/i.png", "theme": "dark"}
    ]


def test_projection_leaves_the_result_unchanged() -> None:
    result = mcplite.tool_result(every_block(), structured_content=["a"])
    before = mcplite.converter.unstructure(result)
    for version in VERSIONS:
        result.to_wire(version)
    assert mcplite.converter.unstructure(result) == before


def test_unknown_protocol_versions_are_refused() -> None:
    with pytest.raises(ValueError, match=r"unknown MCP protocol version '2099-01-01'.*2024-11-05"):
        mcplite.tool_result().to_wire("2099-01-01")


@pytest.mark.parametrize("version", VERSIONS)
def test_tools_project_to_fields_the_version_defines(version: str) -> None:
    tool = mcplite.Tool(
        "t",
        {"type": "object"},
        description="d",
        title="T",
        output_schema={"type": "object"},
        annotations=mcplite.ToolAnnotations(title="T", read_only_hint=True),
        icons=[mcplite.Icon("https://x")],
        meta={"k": 1},
    )
    wire = tool.to_wire(version)
    assert set(wire) <= SCHEMA_FIELDS[version]["Tool"]
    assert set(SCHEMAS[version]["Tool"]["required"]) <= set(wire)
    if "annotations" in wire:
        assert set(wire["annotations"]) <= SCHEMA_FIELDS[version]["ToolAnnotations"]
    assert {"name", "inputSchema", "description"} <= set(wire)


def test_non_object_output_schemas_only_from_2026_07_28() -> None:
    tool = mcplite.Tool("t", output_schema={"type": "array", "items": {"type": "string"}})
    assert "outputSchema" not in tool.to_wire("2025-06-18")
    assert "outputSchema" not in tool.to_wire("2025-11-25")
    assert tool.to_wire("2026-07-28")["outputSchema"] == {"type": "array", "items": {"type": "string"}}
    assert "outputSchema" not in mcplite.Tool("t", output_schema={"type": "object"}).to_wire("2025-03-26")
