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

The protocol classes' ``to_wire`` methods call the functions here, which this module registers
with :func:`mcplite.protocol.types.register_wire_form` (the classes do not import it).

>>> from mcplite import tool_result
>>> tool_result(structured_content=["a", "b"]).to_wire("2025-06-18")
{'content': [{'type': 'text', 'text': '["a","b"]'}]}
>>> tool_result(structured_content=["a", "b"]).to_wire("2026-07-28")["structuredContent"]
['a', 'b']
"""

from __future__ import annotations

from typing import Any

import attrs

from mcplite.protocol.jsonrpc import RawJson, object_pieces
from mcplite.protocol.messages import DiscoverResult, Implementation, InitializeResult, ListToolsResult
from mcplite.protocol.spliced import SplicedText
from mcplite.protocol.types import (
    ABSENT,
    Annotations,
    AudioContent,
    CallToolResult,
    EmbeddedResource,
    EncodedJson,
    ResourceLink,
    TextContent,
    Tool,
    register_wire_form,
)
from mcplite.protocol.versions import SERVER_INFO_KEY, check_version, is_modern
from mcplite.protocol.versions import since as _since
from mcplite.protocol.wire import converter


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
    if all(getattr(block, name) is value for name, value in changes.items()):
        return block  # the version carries the block as it is
    return attrs.evolve(block, **changes)


def structured_for(result: CallToolResult, protocol_version: str) -> EncodedJson | None:
    """The structured content ``protocol_version`` carries of a result (objects only before
    2026-07-28, none before 2025-06-18)."""
    version = check_version(protocol_version)
    structured = result.structured
    if not isinstance(structured, EncodedJson) or not _since(version, "2025-06-18"):
        return None
    if not _since(version, "2026-07-28") and not structured.is_object:
        return None
    return structured


def project_result(
    result: CallToolResult, protocol_version: str, *, structured: bool = True
) -> CallToolResult:
    """The result as ``protocol_version`` can carry it (a new object; the original is unchanged);
    ``structured=False`` leaves the structured content out whatever the version."""
    version = check_version(protocol_version)
    return attrs.evolve(
        result,
        content=[project_block(b, version) for b in result.content],
        structured_content=(structured_for(result, version) if structured else None) or ABSENT,
        result_type="complete" if _since(version, "2026-07-28") else None,
    )


def result_to_wire(result: CallToolResult, protocol_version: str) -> dict[str, Any]:
    """The wire dict of a result for ``protocol_version``.

    Projection touches the envelope only: the structured payload is shared, not walked or copied.
    """
    return converter.unstructure(project_result(result, protocol_version))  # type: ignore[no-any-return]


def result_parts(result: CallToolResult, protocol_version: str) -> tuple[dict[str, Any], EncodedJson | None]:
    """The wire dict of a result without ``structuredContent``, and that field as it was encoded
    (None when the version does not carry it): a server writes the text into its line as it is.

    >>> from mcplite import tool_result
    >>> wire, encoded = result_parts(tool_result(structured_content={"n": 1e15}), "2026-07-28")
    >>> "structuredContent" in wire, encoded.text
    (False, '{"n":1e+15}')
    """
    projected = project_result(result, protocol_version, structured=False)
    spliced = [b.spliceable if isinstance(b, SplicedText) else None for b in projected.content]
    if not any(spliced):
        wire: dict[str, Any] = converter.unstructure(projected)
        return wire, structured_for(result, protocol_version)
    # a text written escaped already goes into the line as those bytes (never read back as a str):
    # the content array is written here, and handed over as written
    blocks = [
        TextContent("", annotations=b.annotations, meta=b.meta) if escaped else b
        for b, escaped in zip(projected.content, spliced, strict=True)
    ]
    wire = converter.unstructure(attrs.evolve(projected, content=blocks))
    wire["content"] = RawJson(*content_pieces(wire["content"], spliced))
    return wire, structured_for(result, protocol_version)


def content_pieces(blocks: list[dict[str, Any]], spliced: list[bytes | None]) -> list[bytes]:
    """The JSON of a content array whose blocks are ``blocks`` (wire dicts), in pieces to be joined
    once, into the line: the text of each block whose ``spliced`` entry is not None is those bytes
    (a JSON string's inside, escaped already).

    >>> blocks = [{"type": "text", "text": ""}, {"type": "text", "text": "b"}]
    >>> b"".join(content_pieces(blocks, [b"a", None]))
    b'[{"type":"text","text":"a"},{"type":"text","text":"b"}]'
    """
    pieces = [b"["]
    for block, escaped in zip(blocks, spliced, strict=True):
        if len(pieces) > 1:
            pieces.append(b",")
        if escaped is not None:
            block = {**block, "text": RawJson(b'"', escaped, b'"')}
        pieces += object_pieces(block)
    pieces.append(b"]")
    return pieces


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
    return converter.unstructure(project_tool(tool, protocol_version))  # type: ignore[no-any-return]


def implementation_to_wire(implementation: Implementation, protocol_version: str) -> dict[str, Any]:
    """``serverInfo`` for ``protocol_version``: ``title`` from 2025-06-18, the rest from 2025-11-25."""
    version = check_version(protocol_version)
    changes: dict[str, Any] = {}
    if not _since(version, "2025-06-18"):
        changes["title"] = None
    if not _since(version, "2025-11-25"):
        changes.update(description=None, website_url=None, icons=None)
    return converter.unstructure(attrs.evolve(implementation, **changes))  # type: ignore[no-any-return]


def initialize_to_wire(result: InitializeResult, protocol_version: str) -> dict[str, Any]:
    """The wire dict of an ``initialize`` result."""
    wire: dict[str, Any] = {
        "protocolVersion": result.protocol_version,
        "capabilities": result.capabilities,
        "serverInfo": implementation_to_wire(result.server_info, protocol_version),
    }
    if result.instructions is not None:
        wire["instructions"] = result.instructions
    return wire


def discover_to_wire(result: DiscoverResult, protocol_version: str) -> dict[str, Any]:
    """The wire dict of a ``server/discover`` result (the server's identity goes in ``_meta``)."""
    wire: dict[str, Any] = {
        "resultType": "complete",
        "supportedVersions": list(result.supported_versions),
        "capabilities": result.capabilities,
        "ttlMs": result.ttl_ms,
        "cacheScope": result.cache_scope,
        "_meta": {SERVER_INFO_KEY: implementation_to_wire(result.server_info, protocol_version)},
    }
    if result.instructions is not None:
        wire["instructions"] = result.instructions
    return wire


def list_tools_to_wire(result: ListToolsResult, protocol_version: str) -> dict[str, Any]:
    """The wire dict of one ``tools/list`` page, each tool projected for the version."""
    wire: dict[str, Any] = {"tools": [tool_to_wire(tool, protocol_version) for tool in result.tools]}
    if result.next_cursor is not None:
        wire["nextCursor"] = result.next_cursor
    if is_modern(protocol_version):
        wire.update(resultType="complete", ttlMs=result.ttl_ms, cacheScope=result.cache_scope)
    return wire


register_wire_form(CallToolResult, result_to_wire)
register_wire_form(Tool, tool_to_wire)
register_wire_form(Implementation, implementation_to_wire)
register_wire_form(InitializeResult, initialize_to_wire)
register_wire_form(DiscoverResult, discover_to_wire)
register_wire_form(ListToolsResult, list_tools_to_wire)
