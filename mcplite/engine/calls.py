"""``tools/call``: bind the arguments, run the tool (sync tools in the server's workers), and write
its result as the response line, the structured JSON spliced in as the bytes it was written as.

A tool's failure is a tool execution error (``isError``) the model can read; a value that cannot be
sent is one too. Arguments that do not fit are a tool execution error from 2025-11-25 (so the model
can correct itself) and a JSON-RPC error before.

>>> error_result("no file '\\udcff.txt'").content[0].text
"no file '\\\\udcff.txt'"
"""

from __future__ import annotations

import asyncio
import functools
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from mcplite.engine.asking import CapabilityMissing
from mcplite.engine.handlers import Request, Written
from mcplite.engine.lines import result_line
from mcplite.engine.reads import request_context, resource_methods
from mcplite.engine.sizing import budgeted_line
from mcplite.engine.tasks import fail, missing_extension, settle, task_request, tasks_negotiated
from mcplite.features.task_store import TaskRecord, TaskStore
from mcplite.protocol.checks import cut
from mcplite.protocol.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS, RpcError
from mcplite.protocol.projection import result_parts
from mcplite.protocol.types import CallToolResult, TextContent
from mcplite.protocol.versions import since
from mcplite.tools.arguments import ArgumentError
from mcplite.tools.context import Context
from mcplite.tools.continuation import Continuation
from mcplite.tools.failures import PublicError, error_text
from mcplite.tools.frame_arguments import frame_cells_at_most
from mcplite.tools.registry import RegisteredTool

log = logging.getLogger("mcplite.server")


def error_result(text: str) -> CallToolResult:
    """A tool execution error: ``isError`` with the message as text.

    Messages can hold what is not Unicode (a file name decoded with surrogateescape): such
    characters are written as backslash escapes, so the error still reaches the client.
    """
    readable = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return CallToolResult([TextContent(readable)], is_error=True)


def written(result: CallToolResult, version: str) -> Written:
    """A result as ``version`` carries it, its structured JSON as the bytes it was written as."""
    wire, encoded = result_parts(result, version)
    return Written(wire, {} if encoded is None else {"structuredContent": encoded.text.encode("utf-8")})


def call_tool(request: Request) -> Awaitable[bytes]:
    """The handler of ``tools/call``: check the request at once, then run the call as a task."""
    params = request.params
    name = params.get("name")
    if not isinstance(name, str):
        raise RpcError(INVALID_PARAMS, "Invalid params: tools/call needs name (the tool's name, a string)")
    arguments = params.get("arguments")
    if arguments is not None and not isinstance(arguments, dict):
        raise RpcError(INVALID_PARAMS, f"Invalid params: the arguments of {name} must be an object")
    tool = request.engine.tools.get(name)
    if tool is None:
        raise RpcError(INVALID_PARAMS, f"Unknown tool: {cut(name)}")
    if tool.task is not None and request.era == "modern":
        if tasks_negotiated(request):
            if not isinstance(request.engine.tasks, TaskStore):  # kept elsewhere (mcplite.DaskTasks)
                return request.engine.tasks.start(request, tool, arguments or {})  # type: ignore[no-any-return]
            return _start_task(request, tool, arguments or {})
        if tool.task == "required":
            raise missing_extension(f"tool {name} (it runs as a task only)")
    return _call(request, tool, arguments or {})


async def _start_task(request: Request, tool: RegisteredTool, arguments: dict[str, Any]) -> bytes:
    """Create a task running the call and answer with it (``CreateTaskResult``) at once."""
    return _created(request, tool, lambda in_task: _call(in_task, tool, arguments))


def _created(request: Request, tool: RegisteredTool, work: Callable[[Request], Awaitable[bytes]]) -> bytes:
    """A new task doing ``work`` (given the task's own request), and the line announcing it."""
    store = request.engine.tasks
    assert isinstance(store, TaskStore)
    record = store.create(request.principal)
    in_task = task_request(request, record, tool.name)
    record.runner = asyncio.get_running_loop().create_task(_run_task(record, tool, work(in_task)))
    return result_line(request, {"resultType": "task", **record.fields()})


async def _run_task(record: TaskRecord, tool: RegisteredTool, work: Awaitable[bytes]) -> None:
    try:
        line = await work
    except asyncio.CancelledError:
        return  # tasks/cancel: the task is cancelled already
    except CapabilityMissing as missing:
        fail(record, missing.error.code, missing.error.message, missing.error.data)
        return
    except RpcError as err:
        fail(record, err.code, err.message, err.data)
        return
    except BaseException as err:  # the task's own failure: the client reads it, the server goes on
        log.error("task %s of tool %s stopped: %r", record.id, tool.name, err, exc_info=err)
        fail(record, INTERNAL_ERROR, f"Internal error: tool {tool.name} stopped ({type(err).__name__})")
        return
    if line:
        settle(record, line)


async def _call(request: Request, tool: RegisteredTool, arguments: dict[str, Any]) -> bytes:
    version = request.version
    context = request_context(request)
    workers = request.engine.workers
    if tool.is_async:
        if tool.binder.reads_frames:  # a frame's rows are read off the event loop
            kwargs = await workers.run(_bind, request, tool, arguments)
        else:  # a thread hop would cost a small call more than binding it
            kwargs = _bind(request, tool, arguments)
        if isinstance(kwargs, bytes):
            return kwargs
        try:
            value = await tool.call_async(kwargs, context)
        except asyncio.CancelledError:
            raise
        except Exception as err:
            return result_line(request, written(_failure(request, tool, err), version))
        if isinstance(value, Continuation):
            return await _continued(request, tool, value)
        return await workers.run(_finish, request, tool, value)
    line = await workers.run(_run_sync, request, tool, arguments, context)
    return await _continued(request, tool, line) if isinstance(line, Continuation) else line


async def _continued(request: Request, tool: RegisteredTool, rest: Continuation) -> bytes:
    """A tool's :func:`~mcplite.continue_as_task`: a task when the client speaks tasks, else its
    value in this answer."""
    if request.era == "modern" and tasks_negotiated(request):
        if not isinstance(request.engine.tasks, TaskStore):
            return await request.engine.tasks.go_on(request, tool, rest)  # type: ignore[no-any-return]
        return _created(request, tool, lambda in_task: _rest(in_task, tool, rest))
    return await _rest(request, tool, rest)


async def _rest(request: Request, tool: RegisteredTool, rest: Continuation) -> bytes:
    workers = request.engine.workers
    try:
        if rest.is_async:
            value = await rest.function(*rest.args, **rest.kwargs)
        else:
            value = await workers.run(functools.partial(rest.function, *rest.args, **rest.kwargs))
    except asyncio.CancelledError:
        raise
    except Exception as err:
        return result_line(request, written(_failure(request, tool, err), request.version))
    return await workers.run(_finish, request, tool, value)


def _bind(request: Request, tool: RegisteredTool, arguments: dict[str, Any]) -> dict[str, Any] | bytes:
    """The keyword arguments of a call, or the line refusing them (in a worker thread: a big frame
    argument is read off the event loop, within the server's ``max_frame_argument_cells``)."""
    try:
        with frame_cells_at_most(request.engine.max_frame_argument_cells):
            return tool.bind(arguments)
    except ArgumentError as err:
        message = f"Invalid arguments for tool {tool.name}: {err}"
        if since(request.version, "2025-11-25"):
            return result_line(request, written(error_result(message), request.version))
        raise RpcError(INVALID_PARAMS, message) from None


def _run_sync(
    request: Request, tool: RegisteredTool, arguments: dict[str, Any], context: Context
) -> bytes | Continuation:
    if context.cancelled:  # cancelled while it waited for a worker: its answer is never sent
        return b""
    kwargs = _bind(request, tool, arguments)
    if isinstance(kwargs, bytes):
        return kwargs
    try:
        value = tool.call_sync(kwargs, context)
    except Exception as err:
        return result_line(request, written(_failure(request, tool, err), request.version))
    return value if isinstance(value, Continuation) else _finish(request, tool, value)


def _finish(request: Request, tool: RegisteredTool, value: Any) -> bytes:
    """The response line of a tool's return value (in a worker thread: encoding stays off the loop)."""
    try:
        line, cut = budgeted_line(request, tool, value)
    except Exception as err:
        text = error_text(err)
        log.warning("tool %s returned a value that cannot be sent: %s", tool.name, text)
        result = error_result(f"Tool {tool.name} returned a value that cannot be sent: {text}")
        return result_line(request, written(result, request.version))
    if cut and request.engine.handlers.find("resources/read") is None:  # its rest is read as a resource
        for method in resource_methods():
            request.engine.handlers.add(method)
    return line


def failure_result(name: str, error: Exception, mask: bool) -> CallToolResult:
    """The result of a tool that raised: a :class:`PublicError`'s message as it is; for any other
    exception a generic message naming the tool when ``mask`` (the detail goes to the log).

    >>> failure_result("lookup", RuntimeError("password=hunter2"), mask=True).content[0].text
    "Tool lookup failed with an unexpected error (RuntimeError); the server's log has the details"
    """
    message = error_text(error)
    detail = type(error).__name__ + (f": {message[:500]}" if message else "")
    if isinstance(error, PublicError):  # ToolError, or ResourceNotFound from ctx.read_resource
        log.warning("tool %s failed: %s", name, detail)
        log.debug("traceback of tool %s's error", name, exc_info=error)
        return error_result(message or type(error).__name__)
    log.error("tool %s raised %s", name, detail, exc_info=error)
    if not mask:
        return error_result(message or type(error).__name__)
    return error_result(
        f"Tool {name} failed with an unexpected error ({type(error).__name__}); "
        "the server's log has the details"
    )


def _failure(request: Request, tool: RegisteredTool, error: Exception) -> CallToolResult:
    return failure_result(tool.name, error, request.engine.mask_error_details)
