"""What a tool can ask the client (elicitation, sampling, its roots), and the answers it gets back.

An :class:`Ask` is one request to the client: a method, its params, and how to read the answer.
:class:`mcplite.Context` builds them (``ctx.elicit``, ``ctx.sample``, ``ctx.list_roots``) and hands
them to the request's :class:`Asker`, which the engine gives each request: a request to the client
on the call's stream in legacy sessions, an ``input_required`` round at 2026-07-28.

The elicitation schema of a record type follows 2025-11-25: a flat object of primitives, each with
its default, enums untitled (``Literal``) or titled (``Enum``: the value is sent, the name shown),
single- or multi-select (``list[Literal[...]]``):

>>> import attrs
>>> from typing import Literal
>>> @attrs.frozen
... class Fit:
...     column: Literal["bill_length_mm", "body_mass_g"] = "body_mass_g"
...     proceed: bool = True
>>> elicitation_schema(Fit)["properties"]["column"]
{'type': 'string', 'enum': ['bill_length_mm', 'body_mass_g'], 'default': 'body_mass_g'}
"""

from __future__ import annotations

import dataclasses
import enum
import hashlib
import json
import types
import typing
from collections.abc import Generator, Sequence
from typing import Any, Literal, Protocol, TypeVar, TypeVarTuple

import attrs

from mcplite.payload.converter import converter
from mcplite.tools.failures import PublicError

T = TypeVar("T")
Ts = TypeVarTuple("Ts")

Action = Literal["accept", "decline", "cancel"]
ACTIONS: tuple[str, ...] = ("accept", "decline", "cancel")


class AskError(PublicError):
    """An ask that cannot be answered: the client lacks the capability, answered with an error, or
    took longer than the server's ``ask_timeout``. Its message reaches the client (a tool that
    does not catch it fails with it)."""


@attrs.frozen
class Ask:
    """One request to the client: ``method`` and ``params`` as the wire carries them; ``key`` names
    it in a 2026-07-28 ``inputRequests`` map (None: the engine derives one); ``capability`` is the
    client capability it needs."""

    method: str
    params: dict[str, Any]
    capability: str
    key: str | None = None

    def digest(self) -> str:
        """A short digest of the method and params: the same question gets the same digest."""
        text = json.dumps([self.method, self.params], sort_keys=True, separators=(",", ":"), default=str)
        return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


class Asker(Protocol):
    """How a request's asks reach its client (the engine's, one per request)."""

    def ask_blocking(self, asks: Sequence[Ask]) -> list[dict[str, Any]]:
        """The client's result objects for ``asks``, waiting in this (worker) thread."""
        ...

    async def ask(self, asks: Sequence[Ask]) -> list[dict[str, Any]]:
        """The client's result objects for ``asks``, on the event loop."""
        ...


class Answer:
    """The base of every answer: awaitable, so that ``await ctx.elicit(...)`` (async code) and
    ``ctx.elicit(...)`` (sync code, in a worker thread) are the same call.

    Called on the event loop's thread, an ask returns its answer unresolved: await it before
    reading it. Awaiting an answer that is ready gives the answer itself.
    """

    def __init__(self, ask: Ask, asker: Asker) -> None:
        self.ask = ask
        self._asker = asker
        self._raw: dict[str, Any] | None = None

    @property
    def raw(self) -> dict[str, Any]:
        """The client's result object as it came."""
        if self._raw is None:
            raise RuntimeError(
                f"the answer to {self.ask.method} is not there yet: in an async function, "
                f"await it (answer = await ctx.{_VERB.get(self.ask.method, 'ask')}(...))"
            )
        return self._raw

    def _resolve(self, raw: dict[str, Any]) -> None:
        if not isinstance(raw, dict):
            raise AskError(f"the client's answer to {self.ask.method} is not an object: {raw!r:.80}")
        self._read(raw)
        self._raw = raw

    def _read(self, raw: dict[str, Any]) -> None:
        """Check and read the client's result (a subclass's own fields)."""

    def __await__(self) -> Generator[Any, None, Any]:
        if self._raw is None:
            [raw] = yield from self._asker.ask([self.ask]).__await__()
            self._resolve(raw)
        return self


_VERB = {"elicitation/create": "elicit", "sampling/createMessage": "sample", "roots/list": "list_roots"}


class ElicitAnswer(Answer, typing.Generic[T]):
    """The user's answer to ``ctx.elicit``: ``action`` ("accept", "decline" or "cancel") and, when
    accepted, ``content``: an instance of the record type asked for, or a dict for a hand-written
    schema (None otherwise)."""

    def __init__(self, ask: Ask, asker: Asker, record: type[T] | None) -> None:
        super().__init__(ask, asker)
        self._record = record
        self._content: Any = None

    def _read(self, raw: dict[str, Any]) -> None:
        action = raw.get("action")
        if action not in ACTIONS:
            raise AskError(f"elicitation: the client's action must be one of {ACTIONS}, not {action!r:.80}")
        content = raw.get("content")
        if action == "accept" and self._record is not None:
            try:
                content = converter.structure(content or {}, self._record)
            except Exception as err:
                raise AskError(
                    f"elicitation: the user's answer {content!r:.200} does not fit "
                    f"{self._record.__name__}: {err}"
                ) from None
        self._content = content if action == "accept" else None

    @property
    def action(self) -> Action:
        """What the user did: "accept", "decline" or "cancel"."""
        return typing.cast(Action, self.raw["action"])

    @property
    def content(self) -> T | Any:
        """The accepted answer (a record, or a dict); None when declined or cancelled."""
        self.raw  # noqa: B018 (raises until resolved)
        return self._content

    def __repr__(self) -> str:
        return f"ElicitAnswer(action={self._raw and self._raw.get('action')!r}, content={self._content!r})"


class SampleAnswer(Answer):
    """The client's sampled message: ``text`` (its text content), ``model``, ``stop_reason``,
    ``content`` (the content block, or blocks, as sent)."""

    def _read(self, raw: dict[str, Any]) -> None:
        if "content" not in raw:
            raise AskError(f"sampling: the client's result has no content: {raw!r:.200}")

    @property
    def content(self) -> Any:
        return self.raw["content"]

    @property
    def text(self) -> str:
        """The text of the message's text blocks, joined."""
        blocks = self.content if isinstance(self.content, list) else [self.content]
        return "".join(b.get("text", "") for b in blocks if isinstance(b, dict) and b.get("type") == "text")

    @property
    def model(self) -> str | None:
        return self.raw.get("model")

    @property
    def stop_reason(self) -> str | None:
        return self.raw.get("stopReason")

    def __repr__(self) -> str:
        return f"SampleAnswer(text={self._raw and self.text!r:.80}, model={self._raw and self.model!r})"


class RootsAnswer(Answer):
    """The client's roots: ``roots``, a list of ``{"uri": ..., "name": ...}`` dicts."""

    def _read(self, raw: dict[str, Any]) -> None:
        roots = raw.get("roots")
        if not isinstance(roots, list) or not all(isinstance(r, dict) and "uri" in r for r in roots):
            raise AskError(
                f"roots/list: the client's roots must be a list of objects with a uri: {roots!r:.200}"
            )

    @property
    def roots(self) -> list[dict[str, Any]]:
        return list(self.raw["roots"])

    @property
    def uris(self) -> list[str]:
        return [root["uri"] for root in self.roots]

    def __repr__(self) -> str:
        return f"RootsAnswer({self._raw and self.uris!r})"


class Answers(tuple[*Ts]):
    """Several answers asked at once (``ctx.ask_all``), each typed as asked: awaitable like each
    answer, resolving those not ready in one go."""

    _asker: Asker

    def __await__(self) -> Generator[Any, None, Answers[*Ts]]:
        answers = typing.cast(tuple[Answer, ...], self)
        waiting = [answer for answer in answers if answer._raw is None]
        if waiting:
            raws = yield from self._asker.ask([answer.ask for answer in waiting]).__await__()
            for answer, raw in zip(waiting, raws):
                answer._resolve(raw)
        return self


# -- building asks ---------------------------------------------------------------------------------


def elicit_ask(message: str, schema: type[Any] | dict[str, Any], key: str | None) -> Ask:
    """The ``elicitation/create`` request (form mode) asking ``message`` with ``schema``."""
    if not isinstance(message, str):
        raise TypeError(f"elicit: message must be a str, not {message!r:.80}")
    requested = dict(schema) if isinstance(schema, dict) else elicitation_schema(schema)
    return Ask("elicitation/create", {"message": message, "requestedSchema": requested}, "elicitation", key)


def sample_ask(
    messages: Sequence[str | dict[str, Any]],
    *,
    max_tokens: int,
    system_prompt: str | None,
    model_preferences: dict[str, Any] | None,
    temperature: float | None,
    stop_sequences: Sequence[str] | None,
    tools: Sequence[dict[str, Any]] | None,
    key: str | None,
) -> Ask:
    """The ``sampling/createMessage`` request: a str is a user message of text, a dict a message."""
    if isinstance(messages, str):
        messages = [messages]
    if isinstance(max_tokens, bool) or not isinstance(max_tokens, int) or max_tokens < 1:
        raise ValueError(f"sample: max_tokens must be a positive int, not {max_tokens!r:.80}")
    wire: list[dict[str, Any]] = []
    for message in messages:
        if isinstance(message, str):
            wire.append({"role": "user", "content": {"type": "text", "text": message}})
        elif isinstance(message, dict) and "role" in message and "content" in message:
            wire.append(message)
        else:
            raise TypeError(
                f"sample: a message is a str or a dict with role and content, not {message!r:.80}"
            )
    params: dict[str, Any] = {"messages": wire, "maxTokens": max_tokens}
    optional = {
        "systemPrompt": system_prompt,
        "modelPreferences": model_preferences,
        "temperature": temperature,
        "stopSequences": None if stop_sequences is None else list(stop_sequences),
        "tools": None if tools is None else list(tools),
    }
    params.update({name: value for name, value in optional.items() if value is not None})
    return Ask("sampling/createMessage", params, "sampling", key)


def roots_ask(key: str | None) -> Ask:
    return Ask("roots/list", {}, "roots", key)


# -- elicitation schemas ---------------------------------------------------------------------------

_PRIMITIVES: dict[Any, str] = {str: "string", int: "integer", float: "number", bool: "boolean"}


def _attrs_default(default: Any) -> Any:
    if isinstance(default, attrs.Factory):  # type: ignore[arg-type]
        return attrs.NOTHING if default.takes_self else default.factory()
    return default


def _fields(record: type[Any]) -> list[tuple[str, Any]]:
    """(name, default or attrs.NOTHING) of a record type's fields."""
    if attrs.has(record):
        return [(f.name, _attrs_default(f.default)) for f in attrs.fields(record)]
    if dataclasses.is_dataclass(record):
        return [
            (f.name, attrs.NOTHING if f.default is dataclasses.MISSING else f.default)
            for f in dataclasses.fields(record)
        ]
    raise TypeError(
        f"elicit: the schema must be an attrs class, a dataclass or a JSON schema dict, not {record!r:.80}"
    )


def elicitation_schema(record: type[Any]) -> dict[str, Any]:
    """The 2025-11-25 elicitation schema of an attrs class or dataclass (see the module's example)."""
    hints = typing.get_type_hints(record)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, default in _fields(record):
        optional, prop = _property(record, name, hints[name])
        if default is not attrs.NOTHING and default is not None:
            prop["default"] = (
                [_value(d) for d in default] if isinstance(default, (list, tuple)) else _value(default)
            )
        elif default is attrs.NOTHING and not optional:
            required.append(name)
        properties[name] = prop
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    return schema


def _value(x: Any) -> Any:
    return x.value if isinstance(x, enum.Enum) else x


def _property(record: type[Any], name: str, hint: Any) -> tuple[bool, dict[str, Any]]:
    """Whether the field may be left out (``X | None``), and its property schema."""
    origin = typing.get_origin(hint)
    if origin in (typing.Union, types.UnionType):
        options = [a for a in typing.get_args(hint) if a is not type(None)]
        if len(options) == 1:
            return True, _property(record, name, options[0])[1]
    elif origin is list:
        [item] = typing.get_args(hint) or (None,)
        choices = _choices(item)
        if choices is not None:
            values, titles = choices
            items = (
                {"type": "string", "enum": values}
                if titles is None
                else {"anyOf": [{"const": v, "title": t} for v, t in zip(values, titles)]}
            )
            return False, {"type": "array", "items": items}
    else:
        choices = _choices(hint)
        if choices is not None:
            values, titles = choices
            if titles is None:
                return False, {"type": "string", "enum": values}
            return False, {
                "type": "string",
                "oneOf": [{"const": v, "title": t} for v, t in zip(values, titles)],
            }
        if hint in _PRIMITIVES:
            return False, {"type": _PRIMITIVES[hint]}
    raise TypeError(
        f"elicit: field {name!r} of {record.__name__} is {hint!r}; an elicitation field is str, int, "
        "float, bool, a Literal of strs, a str Enum, or a list of those Literals or Enums"
    )


def _choices(hint: Any) -> tuple[list[str], list[str] | None] | None:
    """The values (and titles, for an Enum) of a Literal of strs or a str Enum, else None."""
    if typing.get_origin(hint) is Literal and all(isinstance(a, str) for a in typing.get_args(hint)):
        return list(typing.get_args(hint)), None
    if isinstance(hint, type) and issubclass(hint, enum.Enum):
        members = list(hint)
        if all(isinstance(m.value, str) for m in members):
            return [m.value for m in members], [m.name.replace("_", " ").title() for m in members]
    return None
