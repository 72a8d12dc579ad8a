"""Tool parameters mirrored into HTTP headers (2026-07-28, SEP-2243): the ``x-mcp-header`` marks of a
hand-written input schema, checked as the specification constrains them when the tool is registered.

A mark names the ``Mcp-Param-{name}`` header a client sends with the value at the mark's property
path; it may sit only on a string, integer or boolean property reached from the root through
``properties`` alone, and names are unique regardless of case.

>>> schema = {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}
>>> header_params(schema, "tool 'query'")
(HeaderParam(header='Region', path=('region',), type='string'),)
>>> header_params({"type": "object", "items": {"x-mcp-header": "X"}}, "tool 'query'")
Traceback (most recent call last):
...
TypeError: tool 'query': x-mcp-header at items is not on a property reached through 'properties' alone
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, NamedTuple

MARK = "x-mcp-header"
_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
"""RFC 9110 field-name token (``1*tchar``)."""
_HEADER_TYPES = ("string", "integer", "boolean")


class HeaderParam(NamedTuple):
    """One mirrored parameter: the header's name part, the property path to its value, its type."""

    header: str
    path: tuple[str, ...]
    type: str


_ONE_SCHEMA = frozenset(
    {"items", "contains", "additionalProperties", "propertyNames", "unevaluatedItems"}
    | {"unevaluatedProperties", "not", "if", "then", "else", "contentSchema"}
)
_SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_SCHEMA_MAPS = frozenset({"$defs", "definitions", "patternProperties", "dependentSchemas"})


def _marks(schema: Any) -> Iterator[tuple[tuple[str, ...] | None, str, Any, dict[str, Any]]]:
    """Every ``x-mcp-header`` mark on a schema (not in data such as ``default`` or ``const``): the
    chain of ``properties`` keys to it (None once another keyword is crossed), where it is, the mark
    and the schema holding it."""
    stack: list[tuple[tuple[str, ...] | None, str, Any]] = [((), "", schema)]
    while stack:
        path, where, node = stack.pop()
        if not isinstance(node, dict):
            continue
        if MARK in node:
            yield path, where or "the root", node[MARK], node
        for key, child in node.items():
            inner = f"{where}.{key}" if where else key
            if key == "properties" and isinstance(child, dict):
                for name, sub in child.items():
                    stack.append((None if path is None else (*path, name), f"{inner}.{name}", sub))
            elif key in _ONE_SCHEMA:
                stack.append((None, inner, child))
            elif key in _SCHEMA_LISTS and isinstance(child, list):
                stack.extend((None, f"{inner}[{i}]", sub) for i, sub in enumerate(child))
            elif key in _SCHEMA_MAPS and isinstance(child, dict):
                stack.extend((None, f"{inner}.{name}", sub) for name, sub in child.items())


def header_params(schema: dict[str, Any], owner: str) -> tuple[HeaderParam, ...]:
    """The parameters ``schema`` mirrors into headers; a TypeError for a mark the specification forbids."""
    found: list[HeaderParam] = []
    seen: dict[str, str] = {}
    for path, where, name, node in sorted(_marks(schema), key=lambda mark: mark[1]):
        if not path:
            raise TypeError(
                f"{owner}: {MARK} at {where} is not on a property reached through 'properties' alone"
            )
        if not isinstance(name, str) or not _TOKEN.match(name):
            raise TypeError(
                f"{owner}: {MARK} at {where} is {name!r}, not an HTTP header name token "
                "(letters, digits and !#$%&'*+.^_`|~-)"
            )
        kind = node.get("type")
        if kind not in _HEADER_TYPES:
            raise TypeError(
                f"{owner}: {MARK} {name!r} is on a property of type {kind!r}; only a string, integer or "
                "boolean property is mirrored into a header"
            )
        if name.lower() in seen:
            raise TypeError(f"{owner}: {MARK} {name!r} is used twice (also at {seen[name.lower()]})")
        seen[name.lower()] = where
        found.append(HeaderParam(name, path, kind))
    return tuple(found)
