"""Tasks on a Dask cluster: ``McpServer(tasks=mcplite.DaskTasks(client_or_address))`` (the extra
``rvalues-mcplite[dask]``) runs the function of a task tool on the cluster's workers and keeps each
task's state with the scheduler, as a published dataset (the future and the task's record), so
every server process connected to the scheduler answers ``tasks/get`` for a task another one made,
and a restarted server still finds a finished result within its time to live.

What runs there: the tool's function with its bound arguments, pickled (R values pickle). It gets
no live context: a context parameter receives a detached ``Context`` whose asks fail; its progress
is the working task's ``statusMessage`` (an event of the task's key on the scheduler) and its log
messages go to the worker's log ``mcplite.tasks``; a task on Dask cannot ask the client anything
(no ``input_required``)
and is not interrupted by ``tasks/cancel`` (the task is ``cancelled`` at once, and Dask drops the
work when it has not started). Its value is written in the server process that answers
``tasks/get``, as the call's would be (jsonlite-exact, typed, under the result budget). A worker
that dies while running it (Dask gives up after its ``allowed-failures``) fails the task with a
message saying so.

>>> DaskTasks.__name__
'DaskTasks'
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Callable
from typing import Any

import attrs

from mcplite.engine.calls import _bind, _finish, error_result, failure_result, written
from mcplite.engine.handlers import Request, Written
from mcplite.engine.lines import result_line
from mcplite.engine.tasks import (
    RESULT_HEAD,
    log_task_message,
    missing_extension,
    progress_message,
    tasks_negotiated,
)
from mcplite.features.task_store import DEFAULT_TTL_MS, POLL_INTERVAL_MS, now_iso
from mcplite.protocol.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS, INVALID_REQUEST, RpcError
from mcplite.tools.context import Context
from mcplite.tools.continuation import Continuation
from mcplite.tools.registry import RegisteredTool

PREFIX = "mcplite-task-"

SETTLING = 0.25
"""How long ``tasks/get`` waits for a task's future to report it is done, in seconds (a future this
server process has just fetched reports its state only once the scheduler has told it)."""


class WorkerNotifier:
    """What a task's context sends on a Dask worker: progress is an event of the task's key on the
    scheduler (``tasks/get`` shows the latest as the working task's ``statusMessage``); log
    messages go to the worker's log ``mcplite.tasks``. ``get_worker`` is
    ``distributed.get_worker`` (passed in: this module imports Dask only when a DaskTasks is made)."""

    def __init__(self, get_worker: Callable[[], Any], tool: str) -> None:
        self._get_worker = get_worker
        self._tool = tool

    def __call__(self, method: str, params: dict[str, Any]) -> None:
        worker = self._get_worker()
        key = str(worker.get_current_task())
        if method == "notifications/progress":
            worker.log_event(key, progress_message(params))
        elif method == "notifications/message":
            log_task_message(key.removeprefix(PREFIX), self._tool, params)


def _run(
    function: Any, kwargs: dict[str, Any], context_parameters: tuple[str, ...], notify: WorkerNotifier
) -> Any:
    """A tool's function on a Dask worker (an async one in its own event loop)."""
    detached = Context(
        request_id=0,
        protocol_version="2026-07-28",
        notify=notify,
        progress_token="task",  # any token: the notifier sends progress to the task's state
        log_level="debug",  # every level: the worker's log filters
    )
    kwargs = {**kwargs, **dict.fromkeys(context_parameters, detached)}
    value = function(**kwargs)
    if asyncio.iscoroutine(value):
        return asyncio.run(value)
    return value


def _go_on(function: Any, args: tuple[Any, ...], kwargs: dict[str, Any]) -> Any:
    """A :func:`~mcplite.continue_as_task` function on a Dask worker."""
    value = function(*args, **kwargs)
    return asyncio.run(value) if asyncio.iscoroutine(value) else value


class DaskTasks:
    """Tasks run on a Dask cluster, their state with its scheduler: ``client_or_address`` is a
    ``distributed.Client`` or a scheduler address (``"tcp://10.0.0.5:8786"``); the limits are
    :class:`~mcplite.TaskStore`'s."""

    def __init__(
        self,
        client_or_address: Any,
        *,
        max_tasks: int = 1000,
        max_per_owner: int = 100,
        ttl_ms: int = DEFAULT_TTL_MS,
    ) -> None:
        try:
            # an optional extra: imported when a DaskTasks is made, so that mcplite imports without it
            import distributed
        except ImportError:
            raise ImportError(
                "mcplite.DaskTasks needs dask.distributed: pip install 'rvalues-mcplite[dask]'"
            ) from None
        for option, value in (("max_tasks", max_tasks), ("max_per_owner", max_per_owner), ("ttl_ms", ttl_ms)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"DaskTasks: {option} must be a positive integer, not {value!r}")
        self.client = (
            client_or_address
            if isinstance(client_or_address, distributed.Client)
            else distributed.Client(client_or_address, set_as_default=False)
        )
        self.max_tasks = max_tasks
        self.max_per_owner = max_per_owner
        self.ttl_ms = ttl_ms
        self._killed = distributed.KilledWorker
        self._get_worker = distributed.get_worker

    # -- the scheduler's records (each in a worker thread: the Dask client blocks) ------------------

    def _records(self) -> dict[str, tuple[Any, dict[str, Any]]]:
        names = [name for name in self.client.list_datasets() if str(name).startswith(PREFIX)]
        return {str(name)[len(PREFIX) :]: self.client.get_dataset(name) for name in names}

    def _expired(self, future: Any, record: dict[str, Any]) -> bool:
        done = record["cancelled"] or future.status in ("finished", "error", "cancelled")
        return bool(done and time.time() - record["created"] > record["ttlMs"] / 1000)

    def _create(self, owner: str | None, tool: RegisteredTool, work: tuple[Any, ...]) -> dict[str, Any]:
        records = self._records()
        for task_id, (future, record) in records.items():
            if self._expired(future, record):
                self.client.unpublish_dataset(PREFIX + task_id)
                del records[task_id]
        if len(records) >= self.max_tasks:
            raise RpcError(INVALID_REQUEST, f"Too many tasks: the server holds {self.max_tasks} at most")
        if sum(record["owner"] == owner for _, record in records.values()) >= self.max_per_owner:
            raise RpcError(INVALID_REQUEST, f"Too many tasks: a client may hold {self.max_per_owner} at most")
        task_id = str(uuid.uuid4())
        future = self.client.submit(*work, key=PREFIX + task_id, pure=False)
        stamp = now_iso()
        record = {
            "owner": owner,
            "tool": tool.name,
            "created": time.time(),
            "createdAt": stamp,
            "lastUpdatedAt": stamp,
            "ttlMs": self.ttl_ms,
            "cancelled": False,
        }
        self.client.publish_dataset(future, record, name=PREFIX + task_id)  # durable before the answer
        return {"taskId": task_id, **self._fields(record, "working")}

    def _find(self, request: Request) -> tuple[str, Any, dict[str, Any]]:
        if not tasks_negotiated(request):
            raise missing_extension(request.method)
        task_id = request.params.get("taskId")
        if not isinstance(task_id, str):
            raise RpcError(INVALID_PARAMS, f"Invalid params: {request.method} needs taskId (a string)")
        found = self.client.get_dataset(PREFIX + task_id, default=None)
        if found is not None:
            future, record = found
            if record["owner"] == request.principal and not self._expired(future, record):
                return task_id, future, record
        raise RpcError(INVALID_PARAMS, f"Invalid params: no task {task_id[:80]!r}")

    @staticmethod
    def _fields(record: dict[str, Any], status: str) -> dict[str, Any]:
        fields = {key: record[key] for key in ("createdAt", "lastUpdatedAt", "ttlMs")}
        return {"status": status, **fields, "pollIntervalMs": POLL_INTERVAL_MS}

    def _detailed(self, request: Request) -> Written:
        task_id, future, record = self._find(request)
        head = {"taskId": task_id}
        if record["cancelled"]:
            return Written({**head, **self._fields(record, "cancelled")}, {})
        if future.status == "pending":  # or not heard of yet by this client: a moment to hear
            try:
                future.exception(timeout=SETTLING)
            except TimeoutError:
                events = self.client.get_events(PREFIX + task_id)  # the progress of the task
                progress = {"statusMessage": events[-1][1]} if events else {}
                return Written({**head, **self._fields(record, "working"), **progress}, {})
        tool = request.engine.tools.get(record["tool"])
        if future.status == "error" and isinstance(future.exception(), self._killed):
            message = f"a worker of the Dask cluster died while running tool {record['tool']}"
            error = {"code": INTERNAL_ERROR, "message": f"Internal error: {message}"}
            fields = {**head, **self._fields(record, "failed"), "statusMessage": message, "error": error}
            return Written(fields, {})
        in_task = _as_task_request(request)
        if tool is None:
            line = result_line(
                in_task, written(error_result(f"Tool {record['tool']} is gone"), request.version)
            )
        elif future.status == "error":
            failure = failure_result(tool.name, future.exception(), request.engine.mask_error_details)
            line = result_line(in_task, written(failure, request.version))
        else:
            line = _finish(in_task, tool, future.result())
        return Written({**head, **self._fields(record, "completed")}, {"result": line[len(RESULT_HEAD) : -2]})

    def _cancel(self, request: Request) -> dict[str, Any]:
        task_id, future, record = self._find(request)
        if not record["cancelled"] and future.status == "pending":
            future.cancel()
            record = {**record, "cancelled": True, "lastUpdatedAt": now_iso()}
            self.client.publish_dataset(future, record, name=PREFIX + task_id, override=True)
        return {}

    # -- what the engine calls ---------------------------------------------------------------------

    async def start(self, request: Request, tool: RegisteredTool, arguments: dict[str, Any]) -> bytes:
        """Bind the call's arguments here, submit the tool to the cluster, answer the task."""
        kwargs = await request.engine.workers.run(_bind, request, tool, arguments)
        if isinstance(kwargs, bytes):  # arguments that do not fit: the call's own answer
            return kwargs
        notify = WorkerNotifier(self._get_worker, tool.name)
        work = (_run, tool.function, kwargs, tuple(tool.context_parameters), notify)
        created = await request.engine.workers.run(self._create, request.principal, tool, work)
        return result_line(request, {"resultType": "task", **created})

    async def go_on(self, request: Request, tool: RegisteredTool, rest: Continuation) -> bytes:
        """A tool's :func:`~mcplite.continue_as_task`: ``rest`` submitted to the cluster."""
        work = (_go_on, rest.function, rest.args, rest.kwargs)
        created = await request.engine.workers.run(self._create, request.principal, tool, work)
        return result_line(request, {"resultType": "task", **created})

    async def get(self, request: Request) -> Written:
        return await request.engine.workers.run(self._detailed, request)

    async def update(self, request: Request) -> dict[str, Any]:
        await request.engine.workers.run(self._find, request)
        return {}  # a task on Dask asks nothing: every answer is to a question it never asked

    async def cancel(self, request: Request) -> dict[str, Any]:
        return await request.engine.workers.run(self._cancel, request)

    def close(self) -> None:
        self.client.close()


def _as_task_request(request: Request) -> Request:
    return attrs.evolve(request, id=0)  # the line's result is read off by this id (RESULT_HEAD)
