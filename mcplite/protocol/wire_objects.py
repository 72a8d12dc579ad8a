"""Protocol objects a client reads back as they were sent, with attributes: resources, templates,
prompts and ``prompts/get`` results (tools and call results have classes of their own).

>>> WireObject.of({"uriTemplate": "notes://{day}", "_meta": {"a": 1}}).uri_template
'notes://{day}'
"""

from __future__ import annotations

from typing import Any


class WireObject(dict[str, Any]):
    """An object of the protocol as the client received it (a resource, a template, a prompt, a
    ``prompts/get`` result): its fields as attributes in snake case (``uri_template``,
    ``mime_type``, ``meta`` for ``_meta``), nested objects likewise; still the wire dict it was sent
    as (``item["uriTemplate"]``, ``==`` a dict, JSON Schema validation).

    >>> prompt = WireObject.of({"messages": [{"role": "user", "content": {"type": "text", "text": "Hi"}}]})
    >>> prompt.messages[0].content.text, prompt["messages"][0]["role"]
    ('Hi', 'user')
    """

    @classmethod
    def of(cls, data: Any) -> Any:
        """``data`` with every JSON object in it a :class:`WireObject`."""
        if isinstance(data, dict):
            return cls((key, cls.of(value)) for key, value in data.items())
        if isinstance(data, list):
            return [cls.of(item) for item in data]
        return data

    def __getattr__(self, name: str) -> Any:
        for key in (name, _camel(name), "_" + name):
            if key in self:
                return self[key]
        raise AttributeError(f"{type(self).__name__} has no field {name!r}; it has {', '.join(self)}")


def _camel(name: str) -> str:
    """``uri_template`` -> ``uriTemplate``."""
    first, *rest = name.split("_")
    return first + "".join(part[:1].upper() + part[1:] for part in rest)
