"""The client side of resources, prompts and completion, for :class:`mcplite.testing.Client`:
each method is one request (listings follow every page), read back from the wire.

>>> import mcplite
>>> from mcplite.testing import Client
>>> server = mcplite.McpServer("notes")
>>> @server.resource("notes://today")
... def today() -> str:
...     return "water the plants"
>>> with Client(server, "2025-11-25") as client:
...     [r["uri"] for r in client.list_resources()], client.read_resource("notes://today")[0].text
(['notes://today'], 'water the plants')
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from mcplite.protocol.reading import from_wire
from mcplite.protocol.types import BlobResourceContents, TextResourceContents
from mcplite.protocol.wire_objects import WireObject


def read_contents(data: Any) -> TextResourceContents | BlobResourceContents:
    """One resource contents object from its wire form."""
    cls = BlobResourceContents if isinstance(data, dict) and "blob" in data else TextResourceContents
    contents: TextResourceContents | BlobResourceContents = from_wire(data, cls, "resource contents")
    return contents


class FeatureRequests:
    """``list_resources``, ``read_resource``, ``list_prompts``, ``get_prompt``, ``complete`` ...
    for a client with a ``request(method, params)`` method."""

    def request(self, method: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        raise NotImplementedError

    def _all(self, method: str, key: str) -> list[WireObject]:
        found: list[WireObject] = []
        cursor: str | None = None
        while True:
            page = self.request(method, {"cursor": cursor} if cursor else None)
            found += WireObject.of(page.get(key, []))
            cursor = page.get("nextCursor")
            if cursor is None:
                return found

    def list_resources(self) -> list[WireObject]:
        """Every resource the server lists (all pages), as sent: ``r.uri`` (or ``r["uri"]``)."""
        return self._all("resources/list", "resources")

    def list_resource_templates(self) -> list[WireObject]:
        """Every resource template the server lists (all pages), as sent: ``t.uri_template`` ..."""
        return self._all("resources/templates/list", "resourceTemplates")

    def read_resource(self, uri: str) -> list[TextResourceContents | BlobResourceContents]:
        """The contents of the resource at ``uri`` (a JSON-RPC error raises ``RequestError``)."""
        result = self.request("resources/read", {"uri": uri})
        return [read_contents(item) for item in result.get("contents", [])]

    def subscribe_resource(self, uri: str) -> None:
        """Ask for ``notifications/resources/updated`` of ``uri`` (legacy versions)."""
        self.request("resources/subscribe", {"uri": uri})

    def list_prompts(self) -> list[WireObject]:
        """Every prompt the server lists (all pages), as sent: ``p.name``, ``p.arguments[0].required``."""
        return self._all("prompts/list", "prompts")

    def get_prompt(self, name: str, arguments: Mapping[str, str] | None = None) -> WireObject:
        """The ``prompts/get`` result (``messages``, and ``description`` when the prompt has one):
        ``prompt.messages[0].content.text``."""
        params: dict[str, Any] = {"name": name}
        if arguments:
            params["arguments"] = dict(arguments)
        prompt: WireObject = WireObject.of(self.request("prompts/get", params))
        return prompt

    def complete(
        self, ref: Mapping[str, Any], argument: str, value: str = "", context: Mapping[str, str] | None = None
    ) -> list[str]:
        """The values completing ``argument`` (typed so far: ``value``) of the prompt or template
        ``ref`` names: ``{"type": "ref/prompt", "name": ...}`` or ``{"type": "ref/resource", "uri": ...}``."""
        params: dict[str, Any] = {"ref": dict(ref), "argument": {"name": argument, "value": value}}
        if context:
            params["context"] = {"arguments": dict(context)}
        values: list[str] = self.request("completion/complete", params)["completion"]["values"]
        return values
