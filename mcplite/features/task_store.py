"""The state of tasks (the 2026-07-28 extension ``io.modelcontextprotocol/tasks``): a bounded
in-memory :class:`TaskStore` of :class:`TaskRecord`, private to the bearer token that made each.

>>> store = TaskStore(max_tasks=2)
>>> record = store.create(owner=None, ttl_ms=60_000)
>>> store.get(record.id, owner=None) is record, store.get(record.id, owner="someone else")
(True, None)
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import threading
import time
import uuid
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Any, Literal, Protocol

from mcplite.protocol.jsonrpc import INVALID_REQUEST, RpcError

DEFAULT_TTL_MS = 3_600_000
"""How long a task is kept after it was created, in milliseconds (an hour)."""

POLL_INTERVAL_MS = 500
"""How often a client is told to poll ``tasks/get``, in milliseconds."""


def now_iso() -> str:
    return datetime.now(UTC).isoformat(timespec="milliseconds").replace("+00:00", "Z")


TaskStatus = Literal["working", "input_required", "completed", "failed", "cancelled"]
TERMINAL: frozenset[str] = frozenset({"completed", "failed", "cancelled"})


class TaskRecord:
    """One task: its status, its result line's ``result`` bytes or its error, and the questions it
    waits on (``pending``: key -> request) with the answers given (``answers``)."""

    def __init__(self, task_id: str, owner: str | None, ttl_ms: int) -> None:
        self.id = task_id
        self.owner = owner
        self.ttl_ms = ttl_ms
        self.created = time.monotonic()
        self.created_at = self.updated_at = now_iso()
        self.status: TaskStatus = "working"
        self.status_message: str | None = None
        self.result: bytes | None = None
        self.error: dict[str, Any] | None = None
        self.pending: dict[str, dict[str, Any]] = {}
        self.answers: dict[str, Any] = {}
        self.cancelled = threading.Event()
        self.changed = threading.Condition()
        self.runner: asyncio.Task[None] | None = None
        self.watchers: list[Callable[[dict[str, Any]], None]] = []
        """The ``subscriptions/listen`` requests told of its status changes (``notifications/tasks``)."""
        self.progress_told = 0.0
        """When the watchers were last told of its progress (``time.monotonic``)."""

    @property
    def expired(self) -> bool:
        return self.status in TERMINAL and time.monotonic() - self.created > self.ttl_ms / 1000

    def set_status(
        self,
        status: TaskStatus,
        message: str | None = None,
        *,
        result: bytes | None = None,
        error: dict[str, Any] | None = None,
    ) -> bool:
        """Move to ``status`` (False, and no change, once the task is terminal), ending it with its
        ``result`` (the bytes of its call's result) or its ``error`` where given."""
        with self.changed:
            if self.status in TERMINAL:
                return False
            self.status = status
            self.status_message = message
            if result is not None:
                self.result = result
            if error is not None:
                self.error = error
            self.updated_at = now_iso()
            self.changed.notify_all()
        self.tell_watchers()
        return True

    def set_progress(self, message: str) -> bool:
        """Describe a ``working`` task's progress in its ``statusMessage`` (False, and no change,
        in any other status); its watchers hear of it at most once per poll interval."""
        with self.changed:
            if self.status != "working":
                return False
            self.status_message = message
            self.updated_at = now_iso()
            now = time.monotonic()
            due = now - self.progress_told >= POLL_INTERVAL_MS / 1000
            if due:
                self.progress_told = now
        if due:
            self.tell_watchers()
        return True

    def tell_watchers(self) -> None:
        """Send the listens watching this task its state, as ``tasks/get`` would answer it."""
        if not self.watchers:
            return
        fields, raw = self.detailed()
        if "result" in raw:
            fields["result"] = json.loads(raw["result"])
        for watch in list(self.watchers):
            with contextlib.suppress(Exception):  # a listen that has ended: the next change finds it gone
                watch(fields)

    def fields(self) -> dict[str, Any]:
        """The ``Task`` members every answer about it carries."""
        fields: dict[str, Any] = {
            "taskId": self.id,
            "status": self.status,
            "createdAt": self.created_at,
            "lastUpdatedAt": self.updated_at,
            "ttlMs": self.ttl_ms,
            "pollIntervalMs": POLL_INTERVAL_MS,
        }
        if self.status_message is not None:
            fields["statusMessage"] = self.status_message
        return fields

    def detailed(self) -> tuple[dict[str, Any], dict[str, bytes]]:
        """The ``tasks/get`` result: the task, with its error or questions inlined, and its
        result's bytes as written (``{"result": ...}`` once completed)."""
        with self.changed:
            fields = self.fields()
            if self.status == "input_required":
                fields["inputRequests"] = dict(self.pending)
            if self.status == "failed" and self.error is not None:
                fields["error"] = self.error
            raw = {"result": self.result} if self.status == "completed" and self.result is not None else {}
        return fields, raw


class TaskStore:
    """The tasks of one server, in memory: at most ``max_tasks`` in all and ``max_per_owner`` per
    bearer token; a finished task is forgotten ``ttl_ms`` after it was created.

    ``McpServer(tasks=mcplite.TaskStore(max_per_owner=10, ttl_ms=600_000))`` sets the limits.
    """

    def __init__(
        self, *, max_tasks: int = 1000, max_per_owner: int = 100, ttl_ms: int = DEFAULT_TTL_MS
    ) -> None:
        for option, value in (("max_tasks", max_tasks), ("max_per_owner", max_per_owner), ("ttl_ms", ttl_ms)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"TaskStore: {option} must be a positive integer, not {value!r}")
        self.max_tasks = max_tasks
        self.max_per_owner = max_per_owner
        self.ttl_ms = ttl_ms
        self._tasks: dict[str, TaskRecord] = {}
        self._lock = threading.Lock()

    def create(self, owner: str | None, ttl_ms: int | None = None) -> TaskRecord:
        """A new working task of ``owner`` (-32600 when a limit is reached), kept ``ttl_ms`` (by
        default the store's)."""
        with self._lock:
            for task_id in [k for k, r in self._tasks.items() if r.expired]:
                del self._tasks[task_id]
            if len(self._tasks) >= self.max_tasks:
                raise RpcError(INVALID_REQUEST, f"Too many tasks: the server holds {self.max_tasks} at most")
            if sum(r.owner == owner for r in self._tasks.values()) >= self.max_per_owner:
                raise RpcError(
                    INVALID_REQUEST, f"Too many tasks: a client may hold {self.max_per_owner} at most"
                )
            record = TaskRecord(str(uuid.uuid4()), owner, self.ttl_ms if ttl_ms is None else ttl_ms)
            self._tasks[record.id] = record
            return record

    def get(self, task_id: Any, owner: str | None) -> TaskRecord | None:
        """The task ``task_id`` of ``owner``: None when unknown, expired or another's."""
        record = self._tasks.get(task_id) if isinstance(task_id, str) else None
        if record is None or record.owner != owner or record.expired:
            return None
        return record

    def __len__(self) -> int:
        return len(self._tasks)


class TaskBackend(Protocol):
    """Tasks kept elsewhere than in a :class:`TaskStore` (``mcplite.DaskTasks``): the engine hands
    it the calls to start and the ``tasks/*`` requests to answer."""

    def start(self, request: Any, tool: Any, arguments: dict[str, Any]) -> Any: ...

    def go_on(self, request: Any, tool: Any, rest: Any) -> Any: ...

    def get(self, request: Any) -> Any: ...

    def update(self, request: Any) -> Any: ...

    def cancel(self, request: Any) -> Any: ...
