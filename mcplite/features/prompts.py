"""The prompts a server holds: each function with typed arguments, and what it returns as the
messages of ``prompts/get``.

A ``str`` is one user message; a list is taken message by message: a :class:`PromptMessage`, a
dict ``{"role": ..., "content": ...}`` (content a block or a dict of one), or a ``str`` or
content block (a user message).

>>> registry = PromptRegistry()
>>> def explore(column: str, depth: int = 1) -> str:
...     "Start exploring a column."
...     return f"Explore {column} to depth {depth}."
>>> entry = registry.add(explore)
>>> [arg["name"] for arg in registry.prompt_wire(entry, "2025-11-25")["arguments"]]
['column', 'depth']
>>> entry.messages(entry.function(column="mass"))[0].content.text
'Explore mass to depth 1.'
"""

from __future__ import annotations

import inspect
import re
import threading
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any

import attrs

from mcplite.features.binding import StringBinder
from mcplite.features.listing import Described
from mcplite.payload.content import as_icons
from mcplite.protocol.checks import shown
from mcplite.protocol.projection import project_block
from mcplite.protocol.reading import read_block
from mcplite.protocol.types import CONTENT_TYPES, ROLES, ContentBlock, TextContent
from mcplite.protocol.wire import converter
from mcplite.tools.context import Context, context_parameters
from mcplite.tools.schema import description as doc_description

Complete = Callable[[str], Iterable[str]]

_PROMPT_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")


@attrs.frozen
class PromptMessage:
    """One message of a prompt: a role (``"user"`` or ``"assistant"``) and one content block."""

    role: str = attrs.field(validator=attrs.validators.in_(ROLES))
    content: ContentBlock = attrs.field(validator=attrs.validators.instance_of(CONTENT_TYPES))

    def to_wire(self, version: str) -> dict[str, Any]:
        """The message as ``version`` carries it (its block projected like a tool result's)."""
        return {"role": self.role, "content": converter.unstructure(project_block(self.content, version))}


def _message(item: Any, owner: str) -> PromptMessage:
    if isinstance(item, PromptMessage):
        return item
    if isinstance(item, str):
        return PromptMessage("user", TextContent(item))
    if isinstance(item, CONTENT_TYPES):
        return PromptMessage("user", item)  # type: ignore[arg-type]
    if isinstance(item, dict) and set(item) == {"role", "content"}:
        content: Any = item["content"]
        if isinstance(content, str):
            content = TextContent(content)
        elif isinstance(content, dict):
            content = read_block(content)
        return PromptMessage(item["role"], content)
    raise TypeError(
        f"{owner} returned {shown(item)} as a message; a message is a str, a content block, "
        "a PromptMessage or a dict with role and content"
    )


class RegisteredPrompt:
    """A prompt as the server holds it: the function, its listing entry, and its argument binder."""

    def __init__(
        self,
        function: Callable[..., Any],
        described: Described,
        *,
        complete: Mapping[str, Complete] | None = None,
    ) -> None:
        self.function = function
        self.described = described
        self.context_parameters = context_parameters(function)
        self.binder = StringBinder(function, skip=self.context_parameters)
        self.is_async = inspect.iscoroutinefunction(function)
        self.complete: dict[str, Complete] = dict(complete or {})
        unknown = [name for name in self.complete if name not in self.binder.parameters]
        if unknown:
            raise ValueError(f"prompt {self.name!r}: complete= names {unknown[0]!r}, which it does not take")

    @property
    def name(self) -> str:
        return self.described.name

    def bind(self, arguments: Mapping[str, Any], context: Context) -> dict[str, Any]:
        """The keyword arguments of the call (raises ``ArgumentError`` for arguments that do not fit)."""
        return {**self.binder.bind(arguments), **dict.fromkeys(self.context_parameters, context)}

    def messages(self, value: Any) -> list[PromptMessage]:
        """The messages a return value stands for."""
        owner = f"prompt {self.name!r}"
        if isinstance(value, str):
            return [PromptMessage("user", TextContent(value))]
        if isinstance(value, (list, tuple)):
            return [_message(item, owner) for item in value]
        return [_message(value, owner)]

    def arguments_wire(self, version: str) -> list[dict[str, Any]]:
        found = []
        for name in self.binder.parameters:
            argument: dict[str, Any] = {"name": name}
            description = self.binder.descriptions.get(name)
            if description is not None:
                argument["description"] = description
            argument["required"] = name in self.binder.required
            found.append(argument)
        return found


class PromptRegistry:
    """Prompts by name, in registration order; ``page_size`` per ``prompts/list`` page."""

    def __init__(self, page_size: int = 100) -> None:
        self.page_size = page_size
        self._prompts: dict[str, RegisteredPrompt] = {}
        self._lock = threading.Lock()

    @property
    def prompts(self) -> Mapping[str, RegisteredPrompt]:
        return MappingProxyType(self._prompts)

    def __len__(self) -> int:
        return len(self._prompts)

    def get(self, name: str) -> RegisteredPrompt | None:
        return self._prompts.get(name)

    def add(
        self,
        function: Callable[..., Any],
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        icons: Iterable[Any] | None = None,
        meta: dict[str, Any] | None = None,
        complete: Mapping[str, Complete] | None = None,
    ) -> RegisteredPrompt:
        """Register ``function`` as a prompt."""
        if not callable(function):
            raise TypeError(f"McpServer.prompt: a prompt is a function, not {shown(function)}")
        prompt_name = name if name is not None else getattr(function, "__name__", None)
        owner = f"prompt {prompt_name!r}"
        if not isinstance(prompt_name, str) or not _PROMPT_NAME.match(prompt_name):
            raise ValueError(f"{owner}: a prompt name is 1 to 128 letters, digits, '_', '-' or '.'")
        described = Described(
            prompt_name,
            title=title,
            description=description if description is not None else doc_description(function),
            icons=as_icons(icons, owner),
            meta=meta,
        )
        entry = RegisteredPrompt(function, described, complete=complete)
        with self._lock:
            if prompt_name in self._prompts:
                raise ValueError(f"{owner} is registered already; prompt names are unique within a server")
            self._prompts[prompt_name] = entry
        return entry

    def prompt_wire(self, entry: RegisteredPrompt, version: str) -> dict[str, Any]:
        """A prompt's entry in ``prompts/list``."""
        wire = entry.described.wire(version)
        arguments = entry.arguments_wire(version)
        if arguments:
            wire["arguments"] = arguments
        return wire
