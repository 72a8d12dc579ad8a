"""How a request asks its client something (``ctx.elicit``, ``ctx.sample``, ``ctx.list_roots``), in
both eras.

* Legacy sessions: :class:`LegacyAsker` sends each ask as a JSON-RPC request on the call's own
  channel (stdout on stdio, the POST's SSE stream over HTTP), with an id of the server's, and waits
  for the response the client sends back (:class:`Outgoing` matches it by id). Sync code waits in
  its worker thread. Cancelling the call, the client leaving or ``ask_timeout`` end the wait.
* 2026-07-28: :class:`ModernAsker` finds each ask's answer in the request's ``inputResponses`` (or
  in the signed ``requestState`` of earlier rounds); one that is not there raises
  :class:`InputRequired`, which :func:`answer_or_input_required` turns into an ``input_required``
  result with its ``inputRequests`` and a new ``requestState``. The handler then runs again in
  full with the answers: what it does before an ask is repeated on every round.

An ask whose capability the client did not declare is refused: -32021 (``requiredCapabilities``)
at 2026-07-28, :class:`~mcplite.tools.asks.AskError` in a legacy session.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import itertools
import logging
import threading
from collections.abc import Awaitable, Callable, Sequence
from typing import Any

from mcplite.engine.handlers import Request, Result
from mcplite.engine.lines import encode, result_line
from mcplite.protocol.jsonrpc import INVALID_PARAMS, RequestId, RpcError, notification
from mcplite.protocol.request_state import StateRefused, digest, seal, unseal
from mcplite.protocol.versions import CLIENT_CAPABILITIES_KEY
from mcplite.tools.asks import Ask, AskError

log = logging.getLogger("mcplite.server")

MISSING_CAPABILITY = -32021
"""The error of a request that needs a client capability the client did not declare (2026-07-28)."""

MRTR_METHODS = frozenset({"tools/call", "prompts/get", "resources/read"})
"""The requests that may answer ``input_required``."""

STATE_TTL = 3600.0
"""How long a ``requestState`` stays valid, in seconds."""


class CapabilityMissing(BaseException):
    """The request needs a client capability the client did not declare: ``error`` (-32021) is its
    answer. A BaseException, so that a tool's ``except Exception`` lets it pass."""

    def __init__(self, error: RpcError) -> None:
        super().__init__(error.message)
        self.error = error


class InputRequired(BaseException):
    """The client must answer ``requests`` (key -> ask) before the call can go on; ``answers``
    are those it gave so far. A BaseException, so that a tool's ``except Exception`` lets it pass."""

    def __init__(self, requests: dict[str, Ask], answers: dict[str, Any]) -> None:
        super().__init__(f"input required: {', '.join(requests)}")
        self.requests = requests
        self.answers = answers


def _capable(capabilities: dict[str, Any], ask: Ask) -> bool:
    if not isinstance(capabilities.get(ask.capability), dict):
        return False
    if ask.method == "sampling/createMessage" and "tools" in ask.params:
        return isinstance(capabilities["sampling"].get("tools"), dict)
    return True


def _missing(ask: Ask) -> dict[str, Any]:
    if ask.capability == "sampling" and "tools" in ask.params:
        return {"sampling": {"tools": {}}}
    return {ask.capability: {}}


def require_capabilities(capabilities: dict[str, Any], asks: Sequence[Ask]) -> None:
    """Refuse (``CapabilityMissing``, -32021 naming what is needed) asks a 2026-07-28 client
    did not declare the capabilities of in its ``_meta``."""
    needed: dict[str, Any] = {}
    for ask in asks:
        if not _capable(capabilities, ask):
            needed.update(_missing(ask))
    if needed:
        raise CapabilityMissing(
            RpcError(
                MISSING_CAPABILITY,
                f"Missing required client capability: {', '.join(sorted(needed))} (declare it in "
                f"_meta[{CLIENT_CAPABILITIES_KEY!r}])",
                {"requiredCapabilities": needed},
            )
        )


# -- legacy: requests to the client ----------------------------------------------------------------


class Outgoing:
    """A connection's requests to its client, waiting for their responses (by the server's ids)."""

    def __init__(self) -> None:
        self._ids = itertools.count(1)
        self._waiting: dict[RequestId, tuple[asyncio.Future[dict[str, Any]], RequestId]] = {}

    def open(self, origin: RequestId) -> tuple[int, asyncio.Future[dict[str, Any]]]:
        """A new id, and the future its response resolves (``origin``: the request asking)."""
        request_id = next(self._ids)
        future: asyncio.Future[dict[str, Any]] = asyncio.get_running_loop().create_future()
        self._waiting[request_id] = (future, origin)
        return request_id, future

    def close(self, request_id: RequestId) -> None:
        self._waiting.pop(request_id, None)

    def resolve(self, message: dict[str, Any]) -> bool:
        """Settle the ask a response answers; False when no ask waits for its id."""
        entry = self._waiting.pop(message.get("id"), None)  # type: ignore[arg-type]
        if entry is None:
            return False
        future, _ = entry
        if not future.done():
            if "error" in message:
                error = message["error"] if isinstance(message["error"], dict) else {}
                future.set_exception(
                    AskError(
                        f"the client answered with error {error.get('code')}: {error.get('message')!s:.300}"
                    )
                )
            else:
                future.set_result(message.get("result"))  # type: ignore[arg-type]  # the answer checks it
        return True

    def cancel(self, origin: RequestId | None = None) -> None:
        """End the waits of the request ``origin`` (of every request when None)."""
        for request_id, (future, asker) in list(self._waiting.items()):
            if origin is None or asker == origin:
                self._waiting.pop(request_id, None)
                future.cancel()


class LegacyAsker:
    """The asks of one legacy request: sent with ``write`` (its channel), answered through ``outgoing``."""

    def __init__(
        self,
        request_id: RequestId,
        outgoing: Outgoing,
        write: Callable[[bytes], None],
        capabilities: dict[str, Any],
        cancelled: threading.Event,
        timeout: float,
    ) -> None:
        self._origin = request_id
        self._outgoing = outgoing
        self._write = write
        self._capabilities = capabilities
        self._cancelled = cancelled
        self._timeout = timeout
        try:
            self._loop: asyncio.AbstractEventLoop | None = asyncio.get_running_loop()
        except RuntimeError:  # made off the loop: only its async asks can be used
            self._loop = None

    def _check(self, asks: Sequence[Ask]) -> None:
        for ask in asks:
            if not _capable(self._capabilities, ask):
                raise AskError(
                    f"cannot send {ask.method}: the client did not declare the capability "
                    f"{_missing(ask)} in initialize"
                )

    async def ask(self, asks: Sequence[Ask]) -> list[dict[str, Any]]:
        self._check(asks)
        if self._cancelled.is_set():
            raise asyncio.CancelledError()
        opened = [self._outgoing.open(self._origin) for _ in asks]
        try:
            for (request_id, _), ask in zip(opened, asks):
                self._write(
                    encode({"jsonrpc": "2.0", "id": request_id, "method": ask.method, "params": ask.params})
                )
            futures = [future for _, future in opened]
            done, _ = await asyncio.wait(futures, timeout=self._timeout)
            if len(done) < len(futures):
                raise AskError(
                    f"the client did not answer {', '.join(a.method for a in asks)} within "
                    f"{self._timeout:g} s (the server's ask_timeout)"
                )
            return [future.result() for future in futures]
        finally:
            for request_id, future in opened:
                self._outgoing.close(request_id)
                if not future.done() or future.cancelled():  # the client may stop working on it
                    with contextlib.suppress(Exception):  # the channel may be gone
                        self._write(
                            encode(notification("notifications/cancelled", {"requestId": request_id}))
                        )

    def ask_blocking(self, asks: Sequence[Ask]) -> list[dict[str, Any]]:
        self._check(asks)
        if self._loop is None:
            raise AskError("this request was not made on an event loop: it cannot ask from a thread")
        future = asyncio.run_coroutine_threadsafe(self.ask(asks), self._loop)
        try:
            return future.result(self._timeout + 5)
        except (asyncio.CancelledError, concurrent.futures.CancelledError):
            raise AskError("the call was cancelled while it waited for the client's answer") from None


# -- 2026-07-28: input_required rounds ---------------------------------------------------------------


class ModernAsker:
    """The asks of one 2026-07-28 request: answered from ``inputResponses`` and the verified
    ``requestState``, else :class:`InputRequired`."""

    def __init__(
        self, capabilities: dict[str, Any], answers: dict[str, Any], asked: frozenset[str] | None
    ) -> None:
        self._capabilities = capabilities
        self._answers = answers
        self._asked = asked  # None: a first round (any key may be answered)
        self._count = 0
        self._lock = threading.Lock()

    def _key(self, ask: Ask) -> str:
        with self._lock:
            self._count += 1
            return ask.key if ask.key is not None else f"{self._count}:{ask.digest()}"

    def _answer(self, asks: Sequence[Ask]) -> list[dict[str, Any]]:
        keyed = [(self._key(ask), ask) for ask in asks]
        require_capabilities(self._capabilities, asks)
        missing = {key: ask for key, ask in keyed if key not in self._answers}
        if missing:
            raise InputRequired(missing, self._answers)
        return [self._answers[key] for key, _ in keyed]

    async def ask(self, asks: Sequence[Ask]) -> list[dict[str, Any]]:
        return self._answer(asks)

    def ask_blocking(self, asks: Sequence[Ask]) -> list[dict[str, Any]]:
        return self._answer(asks)


def call_digest(request: Request) -> str:
    """What a state is bound to: the method and its params but for the round's own."""
    rest = {k: v for k, v in request.params.items() if k not in ("_meta", "inputResponses", "requestState")}
    return digest([request.method, rest])


def modern_asker(request: Request, principal: str | None) -> ModernAsker:
    """The asker of a 2026-07-28 request, its state verified (-32602 when it does not verify, is
    foreign to this call or expired) and its ``inputResponses`` checked (objects)."""
    params = request.params
    capabilities = request.meta.get(CLIENT_CAPABILITIES_KEY)
    capabilities = capabilities if isinstance(capabilities, dict) else {}
    responses = params.get("inputResponses", {})
    if not isinstance(responses, dict) or not all(isinstance(v, dict) for v in responses.values()):
        raise RpcError(INVALID_PARAMS, "Invalid params: inputResponses must be an object of result objects")
    if "requestState" not in params:
        return ModernAsker(capabilities, dict(responses), None)
    try:
        state = unseal(params["requestState"], request.engine.state_key)
    except StateRefused as err:
        raise RpcError(INVALID_PARAMS, f"Invalid params: {err}") from None
    if state.get("call") != call_digest(request) or state.get("who") != principal:
        raise RpcError(INVALID_PARAMS, "Invalid params: requestState belongs to another call")
    asked = frozenset(state.get("asked", ()))
    answers = dict(state.get("answers", {}))
    answers.update({key: value for key, value in responses.items() if key in asked})
    return ModernAsker(capabilities, answers, asked)


def input_required_result(request: Request, pending: InputRequired, principal: str | None) -> dict[str, Any]:
    """The ``input_required`` result asking ``pending``'s requests, with the state to send back."""
    state = {
        "call": call_digest(request),
        "who": principal,
        "asked": sorted(pending.requests),
        "answers": pending.answers,
    }
    return {
        "resultType": "input_required",
        "inputRequests": {
            key: {"method": a.method, "params": a.params} for key, a in pending.requests.items()
        },
        "requestState": seal(state, request.engine.state_key, ttl=STATE_TTL),
    }


async def answer_or_input_required(request: Request, work: Awaitable[Result | bytes]) -> Result | bytes:
    """``work``'s result, or the ``input_required`` result when it needs the client's input."""
    try:
        return await work
    except CapabilityMissing as missing:
        raise missing.error from None
    except InputRequired as pending:
        if request.era != "modern" or request.method not in MRTR_METHODS:
            raise RpcError(INVALID_PARAMS, "this request cannot ask the client for input") from None
        return result_line(request, input_required_result(request, pending, request.principal))
