"""Tasks (the 2026-07-28 extension ``io.modelcontextprotocol/tasks``): a ``tools/call`` of a tool
registered with ``task="optional"`` or ``"required"``, from a client that declared the extension,
answers at once with a ``CreateTaskResult``; the tool runs on in the server process (the workers
for sync tools, the event loop for async ones) and the client polls ``tasks/get``, answers the
task's questions with ``tasks/update`` and stops it with ``tasks/cancel``.

A task's state is kept in a bounded in-memory :class:`TaskStore`, private to the bearer token that
made it (another token's id is not found), and kept ``ttl_ms`` after it was created. Its result is
the response line the call would have had, its bytes spliced into ``tasks/get`` as written.

>>> missing_extension("tasks/get").data
{'requiredCapabilities': {'extensions': {'io.modelcontextprotocol/tasks': {}}}}
"""

from __future__ import annotations

import asyncio
import json
import logging
import threading
import time
from collections.abc import Awaitable, Sequence
from typing import Any

import attrs

from mcplite.engine.asking import MISSING_CAPABILITY, require_capabilities
from mcplite.engine.handlers import Method, Request, Written
from mcplite.features.task_store import TaskRecord, TaskStore, now_iso
from mcplite.protocol.jsonrpc import INVALID_PARAMS, RpcError
from mcplite.protocol.versions import LOG_LEVEL_KEY
from mcplite.tools.asks import Ask, AskError

TASKS_EXTENSION = "io.modelcontextprotocol/tasks"
"""The extension's identifier, under ``capabilities.extensions`` on both sides."""

task_log = logging.getLogger("mcplite.tasks")
"""Where the log messages of tasks go: the extension sends none to the client."""

PYTHON_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "notice": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
    "critical": logging.CRITICAL,
    "alert": logging.CRITICAL,
    "emergency": logging.CRITICAL,
}


def tasks_negotiated(request: Request) -> bool:
    """Whether the client of ``request`` declared the tasks extension (in the request's ``_meta``)."""
    extensions = request.client_capabilities.get("extensions")
    return isinstance(extensions, dict) and isinstance(extensions.get(TASKS_EXTENSION), dict)


def missing_extension(what: str) -> RpcError:
    """The -32021 error of a request that needs the tasks extension the client did not declare."""
    return RpcError(
        MISSING_CAPABILITY,
        f"Missing required client capability: {what} needs the extension {TASKS_EXTENSION} "
        f"(declare it under capabilities.extensions)",
        {"requiredCapabilities": {"extensions": {TASKS_EXTENSION: {}}}},
    )


def progress_message(params: dict[str, Any]) -> str:
    """A ``notifications/progress``'s numbers and message as a task's ``statusMessage``.

    >>> progress_message({"progressToken": "t", "progress": 3, "total": 10, "message": "fitting"})
    '3/10: fitting'
    >>> progress_message({"progressToken": "t", "progress": 0.25})
    '0.25'
    """
    total = params.get("total")
    numbers = f"{params['progress']:g}" + (f"/{total:g}" if total is not None else "")
    message = params.get("message")
    return f"{numbers}: {message:.300}" if message is not None else numbers


class TaskNotifier:
    """What a running task's context sends, where the extension lets it go: progress becomes the
    ``working`` task's ``statusMessage`` (its "progress description"), told to the listens
    watching it; log messages go to the server's log ``mcplite.tasks`` (the extension supports
    neither ``notifications/progress`` nor ``notifications/message`` on tasks)."""

    def __init__(self, record: TaskRecord, tool: str) -> None:
        self._record = record
        self._tool = tool

    def __call__(self, method: str, params: dict[str, Any]) -> None:
        if method == "notifications/progress":
            self._record.set_progress(progress_message(params))
        elif method == "notifications/message":
            log_task_message(self._record.id, self._tool, params)


def log_task_message(task_id: str, tool: str, params: dict[str, Any]) -> None:
    """A task's ``notifications/message`` written to the log ``mcplite.tasks`` at its level."""
    level = PYTHON_LEVELS.get(params.get("level", ""), logging.INFO)
    name = f" {params['logger']}" if "logger" in params else ""
    task_log.log(level, "task %s (%s)%s: %s", task_id, tool, name, params.get("data"))


def task_request(request: Request, record: TaskRecord, tool: str) -> Request:
    """The request a task's call runs under: id 0 (``settle`` reads the result off the line by
    it), the task's asks, cancellation and notifier, a progress token (so that the tool's
    progress always reaches the task) and every log level (the server's log filters)."""
    meta = {**request.meta, "progressToken": record.id, LOG_LEVEL_KEY: "debug"}
    return attrs.evolve(
        request,
        id=0,
        params={**request.params, "_meta": meta},
        asker=TaskAsker(record, request.client_capabilities),
        cancelled=record.cancelled,
        notify=TaskNotifier(record, tool),
    )


class TaskAsker:
    """The asks of a running task: each question waits in ``record.pending`` (the task is
    ``input_required``) until ``tasks/update`` answers it, the task is cancelled or its time to
    live passes."""

    def __init__(self, record: TaskRecord, capabilities: dict[str, Any]) -> None:
        self._record = record
        self._capabilities = capabilities
        self._count = 0
        self._lock = threading.Lock()

    def _keys(self, asks: Sequence[Ask]) -> list[str]:
        require_capabilities(self._capabilities, asks)
        record = self._record
        keys = []
        with self._lock, record.changed:
            for ask in asks:  # a key is never reused within a task, the ask's own key included
                self._count += 1
                key = ask.key if ask.key is not None else f"{self._count}:{ask.digest()}"
                if key in record.answers or key in record.pending or key in keys:
                    key = f"{key}#{self._count}"
                keys.append(key)
        with record.changed:
            for key, ask in zip(keys, asks):
                if key not in record.answers:
                    record.pending[key] = {"method": ask.method, "params": ask.params}
        if record.pending:
            record.set_status("input_required")
        return keys

    def _ready(self, keys: list[str]) -> list[dict[str, Any]] | None:
        record = self._record
        if record.cancelled.is_set():
            raise AskError("the task was cancelled while it waited for the client's answer")
        if all(key in record.answers for key in keys):
            return [record.answers[key] for key in keys]
        return None

    def _deadline(self) -> float:
        return self._record.created + self._record.ttl_ms / 1000

    def ask_blocking(self, asks: Sequence[Ask]) -> list[dict[str, Any]]:
        keys = self._keys(asks)
        with self._record.changed:
            while (found := self._ready(keys)) is None:
                left = self._deadline() - time.monotonic()
                if left <= 0:
                    raise AskError("the client did not answer within the task's time to live")
                self._record.changed.wait(min(left, 1.0))
        return found

    async def ask(self, asks: Sequence[Ask]) -> list[dict[str, Any]]:
        keys = self._keys(asks)
        while (found := self._ready(keys)) is None:
            if time.monotonic() > self._deadline():
                raise AskError("the client did not answer within the task's time to live")
            await asyncio.sleep(0.02)
        return found


def answer(record: TaskRecord, responses: dict[str, Any]) -> None:
    """Give a task the answers in ``responses`` (keys it does not wait on are ignored)."""
    with record.changed:
        for key, value in responses.items():
            if key in record.pending:
                del record.pending[key]
                record.answers[key] = value
        resumed = not record.pending and record.status == "input_required"
        if resumed:
            record.status = "working"
            record.updated_at = now_iso()
        record.changed.notify_all()
    if resumed:
        record.tell_watchers()


def cancel(record: TaskRecord) -> None:
    """Stop a task: it is ``cancelled`` at once (a finished one stays as it is)."""
    if record.set_status("cancelled", "cancelled by the client"):
        record.cancelled.set()
        with record.changed:
            record.changed.notify_all()
        if record.runner is not None:
            record.runner.cancel()


RESULT_HEAD = b'{"jsonrpc":"2.0","id":0,"result":'


def settle(record: TaskRecord, line: bytes) -> None:
    """End a task with the response line its call wrote (under the request id 0)."""
    if line.startswith(RESULT_HEAD) and line.endswith(b"}\n"):
        # the work's progress, told while it worked, is over
        record.set_status("completed", None, result=line[len(RESULT_HEAD) : -2])
        return
    try:
        error = json.loads(line)["error"]
    except (ValueError, KeyError, TypeError):
        error = {"code": -32603, "message": "Internal error: the task ended without an answer"}
    record.set_status("failed", f"the call failed: {error.get('message')!s:.300}", error=error)


def fail(record: TaskRecord, code: int, message: str, data: Any = None) -> None:
    """End a task with a protocol-level error."""
    error: dict[str, Any] = {"code": code, "message": message}
    if data is not None:
        error["data"] = data
    record.set_status("failed", f"the call failed: {message:.300}", error=error)


def watched_tasks(request: Request, limit: int) -> list[TaskRecord]:
    """The tasks a ``subscriptions/listen`` asks to hear of (``notifications.taskIds``): those of
    this client, in this process's store (-32021 without the extension, -32602 when not a list of
    at most ``limit`` ids)."""
    notifications = request.params.get("notifications")
    ids = notifications.get("taskIds") if isinstance(notifications, dict) else None
    if ids is None:
        return []
    if not isinstance(ids, list) or not all(isinstance(i, str) for i in ids) or len(ids) > limit:
        raise RpcError(
            INVALID_PARAMS,
            f"Invalid params: subscriptions/listen needs notifications.taskIds to be a list of at "
            f"most {limit} task ids",
        )
    if not tasks_negotiated(request):
        raise missing_extension("notifications.taskIds of subscriptions/listen")
    store = request.engine.tasks
    if not isinstance(store, TaskStore):  # kept elsewhere (mcplite.DaskTasks): clients poll
        return []
    found = [store.get(task_id, request.principal) for task_id in dict.fromkeys(ids)]
    return [record for record in found if record is not None]


def task_of(request: Request) -> TaskRecord:
    """The task ``params.taskId`` names, of this request's client (-32021 without the extension,
    -32602 when there is none)."""
    if not tasks_negotiated(request):
        raise missing_extension(request.method)
    task_id = request.params.get("taskId")
    if not isinstance(task_id, str):
        raise RpcError(INVALID_PARAMS, f"Invalid params: {request.method} needs taskId (a string)")
    store = request.engine.tasks
    record = store.get(task_id, request.principal) if isinstance(store, TaskStore) else None
    if record is None:
        raise RpcError(INVALID_PARAMS, f"Invalid params: no task {task_id[:80]!r}")
    return record


def get_task(request: Request) -> Written | Awaitable[Written]:
    """``tasks/get``: the task's status, with its result, error or questions inlined."""
    if not isinstance(request.engine.tasks, TaskStore):
        return request.engine.tasks.get(request)
    fields, raw = task_of(request).detailed()
    return Written(fields, raw)


def update_task(request: Request) -> dict[str, Any] | Awaitable[dict[str, Any]]:
    """``tasks/update``: answers to a task's questions (``inputResponses``); an empty ack."""
    if not isinstance(request.engine.tasks, TaskStore):
        return request.engine.tasks.update(request)
    record = task_of(request)
    responses = request.params.get("inputResponses")
    if not isinstance(responses, dict) or not all(isinstance(v, dict) for v in responses.values()):
        raise RpcError(INVALID_PARAMS, "Invalid params: inputResponses must be an object of result objects")
    answer(record, responses)
    return {}


def cancel_task(request: Request) -> dict[str, Any] | Awaitable[dict[str, Any]]:
    """``tasks/cancel``: stop the task (a finished one stays as it is); an empty ack."""
    if not isinstance(request.engine.tasks, TaskStore):
        return request.engine.tasks.cancel(request)
    cancel(task_of(request))
    return {}


def task_methods() -> list[Method]:
    """``tasks/get``, ``tasks/update`` and ``tasks/cancel``, served at 2026-07-28; they declare the
    extension under ``capabilities.extensions``."""
    capability: tuple[str, dict[str, Any]] = ("extensions", {TASKS_EXTENSION: {}})
    modern: frozenset[Any] = frozenset({"modern"})
    return [
        Method("tasks/get", get_task, modern, capability=capability, name_param="taskId"),
        Method("tasks/update", update_task, modern, capability=capability, name_param="taskId"),
        Method("tasks/cancel", cancel_task, modern, capability=capability, name_param="taskId"),
    ]
