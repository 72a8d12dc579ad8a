"""The other results a server sends: ``initialize``, ``server/discover`` and ``tools/list``.

Like the tool results in :mod:`mcplite.protocol.types`, these are immutable attrs classes with snake-case
fields; ``to_wire(protocol_version)`` gives what a client of that version receives.

>>> server = Implementation("flights", "1.0.0", title="Flights")
>>> InitializeResult("2024-11-05", {"tools": {}}, server).to_wire("2024-11-05")["serverInfo"]
{'name': 'flights', 'version': '1.0.0'}
"""

from __future__ import annotations

from typing import Any

import attrs
from attrs import validators as v

from mcplite.protocol.checks import check_plain_json
from mcplite.protocol.types import Icon, Tool, wire_form

_optional_str = v.optional(v.instance_of(str))


def _plain_json_dict(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    v.instance_of(dict)(instance, attribute, value)
    check_plain_json(value, f"{type(instance).__name__}: {attribute.name}")


def _to_tuple(value: Any) -> Any:
    return tuple(value) if isinstance(value, list) else value


@attrs.frozen
class Implementation:
    """A server's (or client's) name and version, as ``serverInfo`` carries them.

    ``title`` is sent from 2025-06-18 on; ``description``, ``website_url`` and ``icons`` from 2025-11-25.
    """

    name: str = attrs.field(validator=v.and_(v.instance_of(str), v.min_len(1)))
    version: str = attrs.field(validator=v.instance_of(str))
    title: str | None = attrs.field(default=None, validator=_optional_str, kw_only=True)
    description: str | None = attrs.field(default=None, validator=_optional_str, kw_only=True)
    website_url: str | None = attrs.field(default=None, validator=_optional_str, kw_only=True)
    icons: tuple[Icon, ...] | None = attrs.field(
        default=None,
        converter=_to_tuple,
        validator=v.optional(v.deep_iterable(v.instance_of(Icon), v.instance_of(tuple))),
        kw_only=True,
    )

    def to_wire(self, protocol_version: str) -> dict[str, Any]:
        """The implementation as ``protocol_version`` describes it."""
        return wire_form(self, protocol_version)


@attrs.frozen
class InitializeResult:
    """The answer to a legacy ``initialize``: the negotiated version, capabilities, server info."""

    protocol_version: str = attrs.field(validator=v.instance_of(str))
    capabilities: dict[str, Any] = attrs.field(validator=_plain_json_dict)
    server_info: Implementation = attrs.field(validator=v.instance_of(Implementation))
    instructions: str | None = attrs.field(default=None, validator=_optional_str, kw_only=True)

    def to_wire(self, protocol_version: str) -> dict[str, Any]:
        """The result as sent to a client speaking ``protocol_version``."""
        return wire_form(self, protocol_version)


_CACHE_SCOPES = ("public", "private")


@attrs.frozen
class DiscoverResult:
    """The answer to ``server/discover`` (2026-07-28): versions, capabilities, server info, caching hints."""

    supported_versions: tuple[str, ...] = attrs.field(
        converter=_to_tuple, validator=v.deep_iterable(v.instance_of(str), v.instance_of(tuple))
    )
    capabilities: dict[str, Any] = attrs.field(validator=_plain_json_dict)
    server_info: Implementation = attrs.field(validator=v.instance_of(Implementation))
    instructions: str | None = attrs.field(default=None, validator=_optional_str, kw_only=True)
    ttl_ms: int = attrs.field(default=0, validator=[v.instance_of(int), v.ge(0)], kw_only=True)
    cache_scope: str = attrs.field(default="public", validator=v.in_(_CACHE_SCOPES), kw_only=True)

    def to_wire(self, protocol_version: str) -> dict[str, Any]:
        """The result as sent to a client speaking ``protocol_version`` (2026-07-28 and later)."""
        return wire_form(self, protocol_version)


@attrs.frozen
class ListToolsResult:
    """One page of ``tools/list``; ``ttl_ms`` and ``cache_scope`` are sent from 2026-07-28 on.

    >>> page = ListToolsResult([Tool("add")], next_cursor="2")
    >>> page.to_wire("2025-06-18")["nextCursor"], sorted(page.to_wire("2026-07-28"))
    ('2', ['cacheScope', 'nextCursor', 'resultType', 'tools', 'ttlMs'])
    """

    tools: tuple[Tool, ...] = attrs.field(
        converter=_to_tuple, validator=v.deep_iterable(v.instance_of(Tool), v.instance_of(tuple))
    )
    next_cursor: str | None = attrs.field(default=None, validator=_optional_str, kw_only=True)
    ttl_ms: int = attrs.field(default=0, validator=[v.instance_of(int), v.ge(0)], kw_only=True)
    cache_scope: str = attrs.field(default="public", validator=v.in_(_CACHE_SCOPES), kw_only=True)

    def to_wire(self, protocol_version: str) -> dict[str, Any]:
        """The page as sent to a client speaking ``protocol_version``."""
        return wire_form(self, protocol_version)
