"""One client connection: JSON-RPC messages in, protocol lines out, for both eras of MCP.

A :class:`Connection` is what every transport drives, and it knows nothing of pipes or sockets.
A stream transport (stdio) hands it raw messages (``receive``) and gets every answer and
notification through the ``write`` callable it was given; a request-per-exchange transport (HTTP)
awaits the answer to one parsed message (``respond``), with the notifications that request causes
sent through a channel of its own.

Each request is routed through the engine's handler table (:mod:`mcplite.engine.handlers`),
served in the era :func:`mcplite.engine.eras.served_as` gives it, with the payload options read
once as it arrives. A handler that returns an awaitable runs as its own task (``tools/call``), so
a slow tool never holds up other requests; everything else is answered at once, in order.
"""

from __future__ import annotations

import asyncio
import inspect
import logging
import threading
import weakref
from collections.abc import Awaitable, Callable
from typing import Any, NamedTuple, TypeAlias

import attrs

from mcplite.engine.asking import MRTR_METHODS, LegacyAsker, Outgoing, answer_or_input_required, modern_asker
from mcplite.engine.eras import served_as
from mcplite.engine.handlers import Engine, Era, Request, Result, Session
from mcplite.engine.lines import encode, error_line, result_line
from mcplite.payload.rjson import options_in_force
from mcplite.protocol.checks import quoted
from mcplite.protocol.jsonrpc import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    RequestId,
    RpcError,
    is_request_id,
    notification,
    parse_message,
    request_id_of,
)
from mcplite.protocol.versions import BATCH_VERSION, LATEST_LEGACY_VERSION, PROTOCOL_VERSION_KEY
from mcplite.tools.asks import Asker

log = logging.getLogger("mcplite.server")

Write = Callable[[bytes], None]


class Answer(NamedTuple):
    """The encoded answer to one message, and its JSON-RPC error code when it is an error.

    ``error_code`` is None for results, tool execution errors and batches.
    """

    data: bytes
    error_code: int | None


Outcome: TypeAlias = "Answer | asyncio.Task[bytes] | None"
"""What one message gets at once: an answer, a running request, or nothing (notifications)."""


def _key(request_id: RequestId) -> tuple[str, RequestId]:
    # 1 and "1" are different ids
    return (type(request_id).__name__, request_id)


class Connection:
    """The state of one client: its session (legacy version, log level) and requests in flight.

    ``write`` receives each outgoing line (bytes ending with a newline); it may be called from
    worker threads (progress from sync tools), so it must be thread-safe. ``principal``: a hash
    of the client's bearer token, which a 2026-07-28 ``requestState`` is bound to.
    """

    def __init__(self, engine: Engine, write: Write, principal: str | None = None) -> None:
        self._engine = engine
        self._write = write
        self._principal = principal
        self._outgoing = Outgoing()
        self._task_errors: weakref.WeakKeyDictionary[asyncio.Task[Any], int] = weakref.WeakKeyDictionary()
        self._session = Session()
        self._running: dict[tuple[str, RequestId], tuple[asyncio.Task[bytes], threading.Event]] = {}
        self._stopping = False

    @property
    def protocol_version(self) -> str | None:
        """The version agreed with ``initialize`` (None before it, or for stateless clients)."""
        return self._session.legacy_version

    @property
    def calls_in_flight(self) -> int:
        """How many requests (``tools/call``) are running."""
        return len(self._running)

    # -- input -------------------------------------------------------------------------------------

    def receive(self, line: bytes) -> None:
        """Handle one raw message (on the event loop's thread)."""
        try:
            message = parse_message(line)
        except RpcError as err:
            self._write(error_line(request_id_of(err), err))
            return
        if isinstance(message, list):
            self._receive_batch(message)
            return
        outcome = self._dispatch(message, self._write)
        if isinstance(outcome, asyncio.Task):
            outcome.add_done_callback(self._write_call)
        elif outcome is not None:
            self._write(outcome.data)

    def reject_oversize(self, size: int) -> None:
        """Answer a message that was too large to read (its id is unknown, so null)."""
        limit = self._engine.max_message_size
        error = RpcError(
            INVALID_REQUEST,
            f"Invalid Request: the message is {size} bytes or more; the limit is {limit} bytes",
        )
        self._write(error_line(None, error))

    async def respond(self, message: Any, notify: Write) -> Answer | None:
        """The answer to one parsed message (an object, or a batch at 2025-03-26), or None if none is owed.

        Notifications the request causes (progress, log messages) go to ``notify`` meanwhile,
        possibly from worker threads. None is also what a call cancelled with
        ``notifications/cancelled`` gets. Cancelling the awaiting task cancels the call.
        """
        if isinstance(message, list):
            if self._session.legacy_version != BATCH_VERSION or not message:
                error = self._batch_refusal(message)
                return Answer(error_line(None, error), error.code)
            outcomes = [self._dispatch(item, notify) for item in message]
            try:
                batch = await asyncio.shield(self._answer_batch(outcomes))
            except asyncio.CancelledError:
                for outcome in outcomes:
                    if isinstance(outcome, asyncio.Task):
                        self._cancel_task(outcome)
                raise
            return None if batch is None else Answer(batch, None)
        outcome = self._dispatch(message, notify)
        if outcome is None:
            return None
        if isinstance(outcome, Answer):
            return outcome
        try:
            await asyncio.wait({outcome})
        except asyncio.CancelledError:
            self._cancel_task(outcome)
            raise
        if outcome.cancelled():
            return None
        failure = outcome.exception()
        if failure is not None:  # _run turns every failure into an answer
            log.error("a request failed unexpectedly", exc_info=failure)
            return None
        return Answer(outcome.result(), self._task_errors.pop(outcome, None))

    def stop_accepting(self) -> None:
        """From now on, refuse new requests with an error (notifications, cancellations included,
        still count): the server is stopping and lets only the calls in flight finish."""
        self._stopping = True

    async def close(self, grace: float) -> None:
        """Let calls in flight finish for up to ``grace`` seconds, then cancel the rest (sending nothing).

        Its ``subscriptions/listen`` requests are answered at once (the subscription is over)."""
        if grace > 0:
            self._engine.offer.subscriptions.end_streams(self._session)
        calls = list(self._running.values())
        if calls and grace > 0:
            await asyncio.wait([task for task, _ in calls], timeout=grace)
        self.cancel_all()
        pending = [task for task, _ in calls if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=1.0)

    def cancel_all(self) -> None:
        """Cancel every call in flight; their results are never sent."""
        for task, cancelled in list(self._running.values()):
            cancelled.set()
            task.cancel()
        self._outgoing.cancel()

    def _cancel_task(self, task: asyncio.Task[bytes]) -> None:
        for key, (running, cancelled) in list(self._running.items()):
            if running is task:
                cancelled.set()
                self._outgoing.cancel(key[1])
        task.cancel()

    def _write_call(self, task: asyncio.Task[bytes]) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:  # _run turns every failure into an answer
            log.error("a request failed unexpectedly", exc_info=error)
            return
        self._write(task.result())

    # -- messages ----------------------------------------------------------------------------------

    def _error(self, request_id: RequestId | None, error: RpcError) -> Answer:
        return Answer(error_line(request_id, error), error.code)

    def _dispatch(self, message: Any, notify: Write) -> Outcome:
        """The answer to one message: a response line, a running request, or None (notifications)."""
        if not isinstance(message, dict):
            return self._error(None, RpcError(INVALID_REQUEST, "Invalid Request: a message is a JSON object"))
        has_id = "id" in message
        request_id: RequestId = message.get("id", "")
        if has_id and not is_request_id(request_id):
            return self._error(
                None, RpcError(INVALID_REQUEST, "Invalid Request: id must be a string or an integer")
            )
        if "method" not in message:
            if has_id and ("result" in message or "error" in message):
                if not self._outgoing.resolve(message):
                    log.warning(
                        "ignored a response to request %r: no ask of this server waits for it", request_id
                    )
                return None
            answer_to = request_id if has_id else None
            return self._error(answer_to, RpcError(INVALID_REQUEST, "Invalid Request: no method"))
        method = message["method"]
        params = message.get("params")
        if not has_id:
            if isinstance(method, str) and isinstance(params, (dict, type(None))):
                self._notification(method, params or {})
            return None
        if self._stopping:
            return self._error(request_id, RpcError(INTERNAL_ERROR, "the server is stopping: no new request"))
        try:
            if message.get("jsonrpc") != "2.0":
                raise RpcError(INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"')
            if not isinstance(method, str):
                raise RpcError(INVALID_REQUEST, "Invalid Request: method must be a string")
            if params is not None and not isinstance(params, dict):
                raise RpcError(INVALID_PARAMS, f"Invalid params: {method} takes its params as an object")
            return self._request(request_id, method, params or {}, notify)
        except RpcError as err:
            return self._error(request_id, err)
        except Exception:
            log.exception("internal error answering %s", method)
            return self._error(request_id, RpcError(INTERNAL_ERROR, "Internal error"))

    def _request(self, request_id: RequestId, method: str, params: dict[str, Any], notify: Write) -> Outcome:
        table = self._engine.handlers
        entry = table.find(method)
        era: Era = "legacy"
        meta = params.get("_meta")
        names_version = isinstance(meta, dict) and PROTOCOL_VERSION_KEY in meta
        if entry is not None and entry.opens_session and not names_version:
            version = LATEST_LEGACY_VERSION
        else:
            version, era = served_as(table, method, params, self._session)
            entry = table.find(method, era)
            assert entry is not None  # served_as refuses a method the era lacks
        if entry.opens_session:
            capabilities = params.get("capabilities")
            self._session.client_capabilities = capabilities if isinstance(capabilities, dict) else {}
        cancelled = threading.Event()

        def send(name: str, values: dict[str, Any]) -> None:
            if not cancelled.is_set():
                notify(encode(notification(name, values)))

        request = Request(
            request_id,
            method,
            params,
            version,
            era,
            self._engine,
            self._session,
            options_in_force(),  # the payload options: read once, as the request arrives
            send,
            cancelled,
            self._announce,
            principal=self._principal,
        )
        request = attrs.evolve(request, asker=self._asker(request, notify))
        reply = entry.handler(request)
        if not inspect.isawaitable(reply):
            return Answer(result_line(request, reply), None)
        return self._start(request, reply)

    def _asker(self, request: Request, write: Write) -> Asker | None:
        """What the request's context asks the client through: its channel (legacy), or
        ``input_required`` rounds (2026-07-28; its ``requestState`` is verified here)."""
        if request.era == "legacy":
            return LegacyAsker(
                request.id, self._outgoing, write, self._session.client_capabilities,
                request.cancelled, self._engine.ask_timeout,
            )  # fmt: skip
        if request.method in MRTR_METHODS:
            return modern_asker(request, self._principal)
        return None

    def cancel_asks(self, request_id: RequestId) -> None:
        """End what the request ``request_id`` waits for from the client (its client left)."""
        self._outgoing.cancel(request_id)

    def _announce(self, name: str, values: dict[str, Any]) -> None:
        """A notification of the connection's own, tied to no request (from any thread)."""
        self._write(encode(notification(name, values)))

    def _start(self, request: Request, reply: Awaitable[Result | bytes]) -> asyncio.Task[bytes]:
        key = _key(request.id)
        limit = self._engine.max_requests_in_flight
        refusal = None
        if key in self._running:
            why = f"Invalid Request: id {quoted(request.id)} belongs to a call in progress"
            refusal = RpcError(INVALID_REQUEST, why)
        elif len(self._running) >= limit:
            why = (
                f"{request.method}: this connection has {limit} requests in flight, the server's limit "
                "(max_requests_in_flight); wait for one to end, or cancel one"
            )
            refusal = RpcError(INTERNAL_ERROR, why)
        if refusal is not None:
            if inspect.iscoroutine(reply):
                reply.close()
            raise refusal
        task = asyncio.get_running_loop().create_task(self._run(request, reply))
        self._running[key] = (task, request.cancelled)
        task.add_done_callback(lambda done: self._forget(key, done))
        return task

    def _forget(self, key: tuple[str, RequestId], task: asyncio.Task[bytes]) -> None:
        """A request's task is over: forget it, unless its id has been given to a newer request."""
        entry = self._running.get(key)
        if entry is not None and entry[0] is task:
            del self._running[key]

    async def _run(self, request: Request, reply: Awaitable[Result | bytes]) -> bytes:
        """The line answering a request that runs as a task: its result, or a JSON-RPC error."""
        try:
            result = await answer_or_input_required(request, reply)
        except asyncio.CancelledError:
            raise
        except RpcError as err:
            task = asyncio.current_task()
            if task is not None:  # for respond's Answer: its HTTP status follows the code
                self._task_errors[task] = err.code
            return error_line(request.id, err)
        except Exception:
            log.exception("internal error answering %s", request.method)
            return error_line(request.id, RpcError(INTERNAL_ERROR, "Internal error"))
        return result if isinstance(result, bytes) else result_line(request, result)

    def _notification(self, method: str, params: dict[str, Any]) -> None:
        if method == "notifications/cancelled":
            request_id = params.get("requestId")
            # forgotten at once: its place counts against max_requests_in_flight no more
            entry = self._running.pop(_key(request_id), None) if is_request_id(request_id) else None  # type: ignore[arg-type]
            if entry is not None:
                task, cancelled = entry
                cancelled.set()
                self._outgoing.cancel(request_id)  # type: ignore[arg-type]
                task.cancel()
        # notifications/initialized, roots/list_changed and the rest need nothing from a tools server

    # -- batches (2025-03-26) ----------------------------------------------------------------------

    def _batch_refusal(self, messages: list[Any]) -> RpcError:
        why = f"batches are part of protocol {BATCH_VERSION} only" if messages else "an empty batch"
        return RpcError(INVALID_REQUEST, f"Invalid Request: {why}")

    def _receive_batch(self, messages: list[Any]) -> None:
        if self._session.legacy_version != BATCH_VERSION or not messages:
            self._write(error_line(None, self._batch_refusal(messages)))
            return
        outcomes = [self._dispatch(message, self._write) for message in messages]
        asyncio.get_running_loop().create_task(self._write_batch(outcomes))

    async def _write_batch(self, outcomes: list[Outcome]) -> None:
        batch = await self._answer_batch(outcomes)
        if batch is not None:
            self._write(batch)

    async def _answer_batch(self, outcomes: list[Outcome]) -> bytes | None:
        parts: list[bytes] = []
        for outcome in outcomes:
            if isinstance(outcome, asyncio.Task):
                try:
                    parts.append((await outcome).rstrip(b"\n"))
                except asyncio.CancelledError:
                    continue
            elif outcome is not None:
                parts.append(outcome.data.rstrip(b"\n"))
        return b"[" + b",".join(parts) + b"]\n" if parts else None
