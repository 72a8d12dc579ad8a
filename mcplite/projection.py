"""Protocol-version projection: what a result or a tool looks like to a client of one protocol version.

Checked against ``schema/<version>/schema.json`` of modelcontextprotocol/modelcontextprotocol:

=========================== ========== ========== ========== ========== ==========
element                     2024-11-05 2025-03-26 2025-06-18 2025-11-25 2026-07-28
=========================== ========== ========== ========== ========== ==========
``structuredContent``       dropped    dropped    objects    objects    any JSON
``resultType: "complete"``  --         --         --         --         added
audio block                 to text    kept       kept       kept       kept
resource_link block         to text    to text    kept       kept       kept
``_meta`` on blocks and
resource contents           dropped    dropped    kept       kept       kept
``annotations.lastModified``dropped    dropped    kept       kept       kept
resource_link ``icons``     --         --         dropped    kept       kept
``Tool.annotations``        dropped    kept       kept       kept       kept
``Tool.title``, ``_meta``   dropped    dropped    kept       kept       kept
``Tool.outputSchema``       dropped    dropped    objects    objects    any schema
``Tool.icons``              dropped    dropped    dropped    kept       kept
=========================== ========== ========== ========== ========== ==========

A block a version cannot carry is never dropped silently: it becomes a text block (a resource
link as its name, URI and description; an audio block as a note naming its MIME type, since
2024-11-05 has no way to carry the sound). ``content`` itself is always sent. The result's own
``_meta`` exists in every version and is kept.

>>> from mcplite import tool_result
>>> tool_result(structured_content=["a", "b"]).to_wire("2025-06-18")
{'content': [{'type': 'text', 'text': '["a","b"]'}]}
>>> tool_result(structured_content=["a", "b"]).to_wire("2026-07-28")["structuredContent"]
['a', 'b']
"""

from __future__ import annotations

from typing import Any

import attrs

from mcplite.types import (
    Annotations,
    AudioContent,
    CallToolResult,
    EmbeddedResource,
    ResourceLink,
    TextContent,
    Tool,
)

PROTOCOL_VERSIONS: tuple[str, ...] = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
"""The protocol versions mcplite can project to, oldest first."""


def check_version(protocol_version: Any) -> str:
    """Refuse a protocol version mcplite does not know."""
    if protocol_version not in PROTOCOL_VERSIONS:
        known = ", ".join(PROTOCOL_VERSIONS)
        raise ValueError(f"unknown MCP protocol version {protocol_version!r}; mcplite knows {known}")
    return str(protocol_version)


def _since(protocol_version: str, first: str) -> bool:
    return PROTOCOL_VERSIONS.index(protocol_version) >= PROTOCOL_VERSIONS.index(first)


def _annotations(annotations: Annotations | None, version: str) -> Annotations | None:
    if annotations is None or _since(version, "2025-06-18") or annotations.last_modified is None:
        return annotations
    kept = attrs.evolve(annotations, last_modified=None)
    return None if kept == Annotations() else kept


def link_text(link: ResourceLink) -> str:
    """The text that stands for a resource link where a version has no resource_link block.

    >>> link_text(ResourceLink("file:///r.csv", "r.csv", description="The report"))
    'r.csv: file:///r.csv\\nThe report'
    """
    text = f"{link.title or link.name}: {link.uri}"
    return text if link.description is None else f"{text}\n{link.description}"


def audio_text(block: AudioContent, version: str) -> str:
    """The note that stands for an audio block where a version has no audio content."""
    return f"[audio ({block.mime_type}) omitted: protocol version {version} cannot carry audio content]"


def project_block(block: Any, version: str) -> Any:
    """One content block as ``version`` can carry it."""
    version = check_version(version)
    modern = _since(version, "2025-06-18")
    annotations = _annotations(block.annotations, version)
    if isinstance(block, ResourceLink) and not modern:
        return TextContent(link_text(block), annotations=annotations)
    if isinstance(block, AudioContent) and not _since(version, "2025-03-26"):
        return TextContent(audio_text(block, version), annotations=annotations)
    changes: dict[str, Any] = {"annotations": annotations}
    if not modern:
        changes["meta"] = None
    if isinstance(block, ResourceLink) and not _since(version, "2025-11-25"):
        changes["icons"] = None
    if isinstance(block, EmbeddedResource) and not modern:
        changes["resource"] = attrs.evolve(block.resource, meta=None)
    return attrs.evolve(block, **changes)


def project_result(result: CallToolResult, protocol_version: str) -> CallToolResult:
    """The result as ``protocol_version`` can carry it (a new object; the original is unchanged)."""
    version = check_version(protocol_version)
    from mcplite.types import ABSENT

    structured = result.structured_content
    if not _since(version, "2025-06-18"):
        structured = ABSENT
    elif not _since(version, "2026-07-28") and not isinstance(structured, dict):
        structured = ABSENT
    return attrs.evolve(
        result,
        content=[project_block(b, version) for b in result.content],
        structured_content=structured,
        result_type="complete" if _since(version, "2026-07-28") else None,
    )


def result_to_wire(result: CallToolResult, protocol_version: str) -> dict[str, Any]:
    """The wire dict of a result for ``protocol_version``."""
    from mcplite.converter import converter

    return converter.unstructure(project_result(result, protocol_version))  # type: ignore[no-any-return]


def project_tool(tool: Tool, protocol_version: str) -> Tool:
    """The tool as ``protocol_version`` can list it."""
    version = check_version(protocol_version)
    changes: dict[str, Any] = {}
    if not _since(version, "2025-03-26"):
        changes["annotations"] = None
    if not _since(version, "2025-06-18"):
        changes.update(title=None, output_schema=None, meta=None)
    elif not _since(version, "2026-07-28") and tool.output_schema is not None:
        if tool.output_schema.get("type") != "object":
            changes["output_schema"] = None
    if not _since(version, "2025-11-25"):
        changes["icons"] = None
    return attrs.evolve(tool, **changes)


def tool_to_wire(tool: Tool, protocol_version: str) -> dict[str, Any]:
    """The wire dict of a tool for ``protocol_version``."""
    from mcplite.converter import converter

    return converter.unstructure(project_tool(tool, protocol_version))  # type: ignore[no-any-return]
