"""The request context a tool can ask for: protocol version, progress, logging to the client, cancellation.

A tool receives it by declaring a parameter annotated :class:`Context` (left out of the tool's
input schema). Its methods are plain functions, safe to call from sync tools (which run in a
worker thread) and async tools alike:

>>> import mcplite
>>> server = mcplite.McpServer("demo")
>>> @server.tool
... def count(n: int, ctx: mcplite.Context) -> int:
...     '''Count to n, reporting progress.'''
...     for i in range(n):
...         ctx.report_progress(i + 1, total=n)
...     return n

How a running call reaches the stream its answer goes out on: the transport sets
:data:`STREAM_CLOSER` for the task that serves a request whose stream can be closed and resumed
(Streamable HTTP at 2025-11-25, SEP-1699); :meth:`mcplite.Context.close_sse_stream` calls it.

>>> STREAM_CLOSER.get() is None
True
"""

from __future__ import annotations

import asyncio
import contextlib
import contextvars
import inspect
import math
import threading
from collections.abc import Callable, Iterator
from typing import Any, TypeVar, TypeVarTuple, overload

from mcplite.protocol.checks import check_plain_json
from mcplite.protocol.versions import LOG_LEVELS, since
from mcplite.tools.annotations import read, type_hints
from mcplite.tools.asks import (
    Answer,
    Answers,
    Asker,
    AskError,
    ElicitAnswer,
    RootsAnswer,
    SampleAnswer,
    elicit_ask,
    roots_ask,
    sample_ask,
)

Notify = Callable[[str, dict[str, Any]], None]
T = TypeVar("T")
Ts = TypeVarTuple("Ts")


class ToolCancelled(Exception):
    """Raised by :meth:`Context.check_cancelled` once the client has cancelled the call."""


def _check_number(name: str, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        raise TypeError(f"report_progress: {name} must be a finite number, not {value!r:.80}")


class Context:
    """What a running tool knows of its request, and how it talks back to the client."""

    def __init__(
        self,
        *,
        request_id: str | int,
        protocol_version: str,
        notify: Notify,
        progress_token: str | int | None = None,
        log_level: str | None = None,
        cancelled: threading.Event | None = None,
        lifespan_state: Any = None,
        read_resource: Callable[[str], list[Any]] | None = None,
        asker: Asker | None = None,
        client_capabilities: dict[str, Any] | None = None,
    ) -> None:
        self._request_id = request_id
        self._protocol_version = protocol_version
        self._notify = notify
        self._progress_token = progress_token
        self._log_level = log_level
        self._cancelled = cancelled if cancelled is not None else threading.Event()
        self._lifespan_state = lifespan_state
        self._read_resource = read_resource
        self._asker = asker
        self._client_capabilities = client_capabilities or {}
        self._deferred: list[Answer] | None = None
        self._close_stream = STREAM_CLOSER.get()

    @property
    def lifespan_state(self) -> Any:
        """What the server's lifespan yielded (None when it has none): data loaded once at start-up."""
        return self._lifespan_state

    def read_resource(self, uri: str) -> list[Any]:
        """The contents of one of the server's resources (``TextResourceContents`` or
        ``BlobResourceContents``), read as a client's ``resources/read`` would; from sync and
        async tools alike. A URI nothing serves raises ``mcplite.ResourceNotFound`` (a
        ``LookupError``); a template value that does not fit its parameter, ``ArgumentError``."""
        if self._read_resource is None:
            raise LookupError(f"read_resource: this context has no server to read {uri!r} from")
        return self._read_resource(uri)

    @property
    def request_id(self) -> str | int:
        """The JSON-RPC id of the ``tools/call`` request."""
        return self._request_id

    @property
    def protocol_version(self) -> str:
        """The protocol version this request is served under (``"2025-06-18"``, ``"2026-07-28"``, ...)."""
        return self._protocol_version

    @property
    def cancelled(self) -> bool:
        """True once the client has sent ``notifications/cancelled`` for this call (or the server stops)."""
        return self._cancelled.is_set()

    def check_cancelled(self) -> None:
        """Raise :class:`ToolCancelled` if the call was cancelled: a sync tool's way to stop early."""
        if self._cancelled.is_set():
            raise ToolCancelled(f"request {self._request_id!r} was cancelled by the client")

    def close_sse_stream(self) -> bool:
        """End this call's SSE response now; the call goes on, and the client reconnects (GET with
        ``Last-Event-ID``) to receive what follows, its answer included. Only a Streamable HTTP
        session at 2025-11-25 can resume a stream: elsewhere this does nothing and returns False.
        A long call can close its stream to free the connection and let the client poll.
        """
        if self._close_stream is None:
            return False
        self._close_stream()
        return True

    def report_progress(
        self, progress: float, total: float | None = None, message: str | None = None
    ) -> None:
        """Send ``notifications/progress``; does nothing when the client asked for no progress.

        ``message`` is sent from protocol 2025-03-26 on (older clients get the numbers only).
        """
        _check_number("progress", progress)
        if total is not None:
            _check_number("total", total)
        if message is not None and not isinstance(message, str):
            raise TypeError(f"report_progress: message must be a str, not {message!r:.80}")
        if self._progress_token is None or self.cancelled:
            return
        params: dict[str, Any] = {"progressToken": self._progress_token, "progress": progress}
        if total is not None:
            params["total"] = total
        if message is not None and since(self._protocol_version, "2025-03-26"):
            params["message"] = message
        self._notify("notifications/progress", params)

    def log(self, level: str, data: Any, logger: str | None = None) -> None:
        """Send ``notifications/message`` at ``level`` where the client asked for that level or lower.

        Legacy clients receive every level unless they set one with ``logging/setLevel``; from
        2026-07-28 a request receives log messages only if its ``_meta`` names a level.
        ``data`` is plain JSON (a str, or a dict of plain values).
        """
        if level not in LOG_LEVELS:
            raise ValueError(f"log: level must be one of {', '.join(LOG_LEVELS)}, not {level!r:.80}")
        check_plain_json(data, "log: data")
        if logger is not None and not isinstance(logger, str):
            raise TypeError(f"log: logger must be a str, not {logger!r:.80}")
        threshold = self._log_level
        if threshold is None or LOG_LEVELS.index(level) < LOG_LEVELS.index(threshold) or self.cancelled:
            return
        params: dict[str, Any] = {"level": level, "data": data}
        if logger is not None:
            params["logger"] = logger
        self._notify("notifications/message", params)

    # -- asking the client ----------------------------------------------------------------------

    @property
    def client_capabilities(self) -> dict[str, Any]:
        """What the client declared it can do (``initialize``'s, or the 2026-07-28 request's
        ``_meta``): ``"elicitation" in ctx.client_capabilities`` before asking is how a tool
        serves clients with and without it."""
        return dict(self._client_capabilities)

    @overload
    def elicit(self, message: str, schema: type[T], *, key: str | None = None) -> ElicitAnswer[T]: ...
    @overload
    def elicit(
        self, message: str, schema: dict[str, Any], *, key: str | None = None
    ) -> ElicitAnswer[dict[str, Any]]: ...
    def elicit(self, message: str, schema: Any, *, key: str | None = None) -> ElicitAnswer[Any]:
        """Ask the user ``message`` (``elicitation/create``, form mode): ``schema`` is an attrs class
        or dataclass (the answer's ``content`` is one) or a hand-written JSON schema (a dict).

        Sync code gets the answer; async code awaits it: ``answer = await ctx.elicit(...)``.
        ``key`` names the ask in a 2026-07-28 ``inputRequests`` map (default: its position and a
        digest). A client without the capability raises ``mcplite.AskError`` (-32021 at 2026-07-28).
        """
        record = None if isinstance(schema, dict) else schema
        return self._asked(ElicitAnswer(elicit_ask(message, schema, key), self._need_asker(), record))

    def sample(
        self,
        messages: str | list[str | dict[str, Any]],
        *,
        max_tokens: int,
        system_prompt: str | None = None,
        model_preferences: dict[str, Any] | None = None,
        temperature: float | None = None,
        stop_sequences: list[str] | None = None,
        tools: list[dict[str, Any]] | None = None,
        key: str | None = None,
    ) -> SampleAnswer:
        """Ask the client's model for a message (``sampling/createMessage``; deprecated at
        2026-07-28, still served where the client declares ``sampling``). A str is a user message
        of text. ``tools`` (2025-11-25 on) needs the client's ``sampling.tools``."""
        if tools is not None and not since(self._protocol_version, "2025-11-25"):
            raise AskError(
                f"sample: tools in a sampling request need protocol 2025-11-25 or later; this request "
                f"is served under {self._protocol_version}"
            )
        ask = sample_ask(
            messages, max_tokens=max_tokens, system_prompt=system_prompt, model_preferences=model_preferences,
            temperature=temperature, stop_sequences=stop_sequences, tools=tools, key=key,
        )  # fmt: skip
        return self._asked(SampleAnswer(ask, self._need_asker()))

    def list_roots(self, *, key: str | None = None) -> RootsAnswer:
        """The client's roots (``roots/list``): ``answer.uris``, ``answer.roots``."""
        return self._asked(RootsAnswer(roots_ask(key), self._need_asker()))

    def ask_all(self, *answers: *Ts) -> Answers[*Ts]:
        """Several asks at once: ``a, b = await ctx.ask_all(ctx.elicit(...), ctx.sample(...))`` in
        async code (build them on the loop: they are sent together); in sync code each ask has been
        answered already, one after the other (use ``with ctx.together():``). At 2026-07-28 the
        asks of one ``ask_all`` go out in one ``input_required`` round."""
        for answer in answers:
            if not isinstance(answer, Answer):
                raise TypeError(
                    f"ask_all takes what ctx.elicit, ctx.sample and ctx.list_roots return, not {answer!r:.80}"
                )
        together = Answers(answers)
        together._asker = self._need_asker()
        return together

    def _need_asker(self) -> Asker:
        if self._asker is None:
            raise AskError("this context has no client to ask (it was made outside a request)")
        return self._asker

    @contextlib.contextmanager
    def together(self) -> Iterator[None]:
        """Sync code's ``ask_all``: the asks made in the block are sent together as it ends (one
        ``input_required`` round at 2026-07-28), and their answers are read after it.

        >>> def fit(ctx):
        ...     with ctx.together():
        ...         column = ctx.elicit("Which column?", {"type": "object", "properties": {}})
        ...         roots = ctx.list_roots()
        ...     return column.content, roots.uris
        """
        if _on_event_loop():
            raise RuntimeError("ctx.together() is for sync code: in async code, await ctx.ask_all(...)")
        if self._deferred is not None:
            raise RuntimeError("ctx.together() blocks do not nest")
        deferred: list[Answer] = []
        self._deferred = deferred
        try:
            yield
        finally:
            self._deferred = None
        if deferred:
            raws = self._need_asker().ask_blocking([answer.ask for answer in deferred])
            for answer, raw in zip(deferred, raws):
                answer._resolve(raw)

    def _asked(self, answer: A) -> A:
        """``answer`` resolved now when called from a worker thread; left to be awaited on the loop
        (or until a ``together()`` block ends)."""
        if _on_event_loop():
            return answer
        if self._deferred is not None:
            self._deferred.append(answer)
            return answer
        [raw] = self._need_asker().ask_blocking([answer.ask])
        answer._resolve(raw)
        return answer

    def debug(self, data: Any, logger: str | None = None) -> None:
        """``log("debug", ...)``."""
        self.log("debug", data, logger)

    def info(self, data: Any, logger: str | None = None) -> None:
        """``log("info", ...)``."""
        self.log("info", data, logger)

    def warning(self, data: Any, logger: str | None = None) -> None:
        """``log("warning", ...)``."""
        self.log("warning", data, logger)

    def error(self, data: Any, logger: str | None = None) -> None:
        """``log("error", ...)``."""
        self.log("error", data, logger)


A = TypeVar("A", bound=Answer)


def _on_event_loop() -> bool:
    try:
        asyncio.get_running_loop()
    except RuntimeError:
        return False
    return True


def context_parameters(function: Callable[..., Any]) -> tuple[str, ...]:
    """The parameters annotated ``Context`` (or ``Context | None``): they receive the request context."""
    try:
        hints = type_hints(function)
    except TypeError:  # unresolvable hints: the schema reports them with the parameter's name
        hints = {}
    names = []
    for name, parameter in inspect.signature(function).parameters.items():
        shape = read(hints.get(name, parameter.annotation))
        options = shape.args if shape.kind == "union" else (shape.annotation,)
        if any(option is Context or option in ("Context", "mcplite.Context") for option in options):
            names.append(name)
    return tuple(names)


STREAM_CLOSER: contextvars.ContextVar[Callable[[], None] | None] = contextvars.ContextVar(
    "mcplite_stream_closer", default=None
)
"""Ends the current request's SSE response early (thread-safe); None where the stream cannot resume."""
