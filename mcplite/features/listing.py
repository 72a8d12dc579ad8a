"""What the listings of resources, templates and prompts share: the descriptive fields each entry
carries, projected per protocol version, and pages with the 2026-07-28 caching fields.

=================== ========== ========== ========== ========== ==========
field               2024-11-05 2025-03-26 2025-06-18 2025-11-25 2026-07-28
=================== ========== ========== ========== ========== ==========
``title``, ``_meta`` dropped    dropped    kept       kept       kept
``icons``           dropped    dropped    dropped    kept       kept
``lastModified``    dropped    dropped    kept       kept       kept
``resultType``,
``ttlMs``,
``cacheScope``      --         --         --         --         added
=================== ========== ========== ========== ========== ==========

>>> entry = Described("data", title="Data", icons=None, meta={"k": 1})
>>> entry.wire("2025-03-26"), entry.wire("2025-06-18")
({'name': 'data'}, {'name': 'data', 'title': 'Data', '_meta': {'k': 1}})
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any, TypeVar

import attrs

from mcplite.protocol.checks import check_plain_json
from mcplite.protocol.jsonrpc import INVALID_PARAMS, RpcError
from mcplite.protocol.types import Annotations, Icon
from mcplite.protocol.versions import is_modern, since
from mcplite.protocol.wire import converter

T = TypeVar("T")


@attrs.frozen
class Described:
    """The descriptive fields of a listed resource, template or prompt."""

    name: str
    title: str | None = None
    description: str | None = None
    mime_type: str | None = None
    annotations: Annotations | None = None
    icons: tuple[Icon, ...] | None = None
    meta: dict[str, Any] | None = None

    def __attrs_post_init__(self) -> None:
        if not isinstance(self.name, str) or not self.name:
            raise ValueError(f"a name is a non-empty str, not {self.name!r:.80}")
        for field in ("title", "description", "mime_type"):
            value = getattr(self, field)
            if value is not None and not isinstance(value, str):
                raise TypeError(f"{self.name!r}: {field} must be a str, not {value!r:.80}")
        if self.meta is not None:
            check_plain_json(self.meta, f"{self.name!r}: meta")

    def wire(self, version: str) -> dict[str, Any]:
        """The fields as ``version`` lists them (``name`` first)."""
        wire: dict[str, Any] = {"name": self.name}
        current = since(version, "2025-06-18")
        if self.title is not None and current:
            wire["title"] = self.title
        if self.description is not None:
            wire["description"] = self.description
        if self.mime_type is not None:
            wire["mimeType"] = self.mime_type
        annotations = self.annotations
        if annotations is not None and not current and annotations.last_modified is not None:
            annotations = attrs.evolve(annotations, last_modified=None)
        if annotations is not None and annotations != Annotations():
            wire["annotations"] = converter.unstructure(annotations)
        if self.icons is not None and since(version, "2025-11-25"):
            wire["icons"] = [converter.unstructure(icon) for icon in self.icons]
        if self.meta is not None and current:
            wire["_meta"] = self.meta
        return wire


def page_of(items: Sequence[T], cursor: Any, page_size: int) -> tuple[Sequence[T], str | None]:
    """One page of ``items`` from ``cursor`` (the ``nextCursor`` of the page before, or None), and
    the cursor of the next page (None on the last)."""
    offset = 0
    if cursor is not None:
        if not isinstance(cursor, str) or not cursor.isdigit() or int(cursor) > len(items):
            raise RpcError(INVALID_PARAMS, f"Invalid params: unknown cursor {cursor!r:.80}")
        offset = int(cursor)
    end = offset + page_size
    return items[offset:end], (str(end) if end < len(items) else None)


def listing(
    key: str,
    items: Sequence[T],
    to_wire: Callable[[T, str], dict[str, Any]],
    params: dict[str, Any],
    version: str,
    *,
    page_size: int,
    ttl_ms: int,
) -> dict[str, Any]:
    """One page of a listing result (``{key: [...], "nextCursor": ...}``), with the 2026-07-28
    caching fields."""
    page, next_cursor = page_of(items, params.get("cursor"), page_size)
    wire: dict[str, Any] = {key: [to_wire(item, version) for item in page]}
    if next_cursor is not None:
        wire["nextCursor"] = next_cursor
    if is_modern(version):
        wire.update(ttlMs=ttl_ms, cacheScope="public")
    return wire
