"""Pieces of JSON Schema that input and output schemas share."""

from __future__ import annotations

from typing import Any


def object_schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """A closed object schema: these properties, the ``required`` ones (if any), no others.

    >>> object_schema({"n": {"type": "integer"}}, ["n"])["required"]
    ['n']
    """
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema
