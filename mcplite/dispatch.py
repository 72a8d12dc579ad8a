"""One client connection: JSON-RPC messages in, protocol lines out, for both eras of MCP.

A :class:`Connection` is what every transport drives, and it knows nothing of pipes or sockets.
A stream transport (stdio) hands it raw messages (``receive``) and gets every answer and
notification through the ``write`` callable it was given; a request-per-exchange transport (HTTP)
awaits the answer to one parsed message (``respond``), with the notifications that request causes
sent through a channel of its own.

Legacy clients (2024-11-05 ... 2025-11-25) agree on a version once with ``initialize``; a request
whose ``_meta`` names ``io.modelcontextprotocol/protocolVersion`` is served statelessly under that
version (2026-07-28), whatever came before it.

``tools/call`` runs as its own task, so a slow tool never holds up other requests; sync tools
run in the server's worker threads. Everything else is answered at once, in order.
"""

from __future__ import annotations

import asyncio
import logging
import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, NamedTuple, TypeAlias

from mcplite.arguments import ArgumentError
from mcplite.context import LOG_LEVELS, Context
from mcplite.jsonrpc import (
    INTERNAL_ERROR,
    INVALID_PARAMS,
    INVALID_REQUEST,
    METHOD_NOT_FOUND,
    UNSUPPORTED_PROTOCOL_VERSION,
    RequestId,
    RpcError,
    encode_line,
    error_response,
    is_request_id,
    notification,
    parse_message,
    response,
)
from mcplite.messages import DiscoverResult, InitializeResult
from mcplite.projection import (
    LATEST_LEGACY_VERSION,
    LEGACY_VERSIONS,
    MODERN_VERSIONS,
    PROTOCOL_VERSIONS,
    SERVER_INFO_KEY,
    is_modern,
    result_wire_parts,
    splice_structured,
)
from mcplite.types import CallToolResult, TextContent

if TYPE_CHECKING:
    from mcplite.server import McpServer, RegisteredTool

log = logging.getLogger("mcplite.server")

PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"

SUPPORTED_VERSIONS: list[str] = list(reversed(PROTOCOL_VERSIONS))
"""What ``-32022`` and ``server/discover`` name: every version, newest first."""

LEGACY_METHODS = frozenset({"ping", "tools/list", "tools/call", "logging/setLevel"})
MODERN_METHODS = frozenset({"server/discover", "tools/list", "tools/call"})
BATCH_VERSION = "2025-03-26"
"""The one version whose clients may send JSON-RPC batches (arrays of messages)."""

Write = Callable[[bytes], None]
Outcome: TypeAlias = "dict[str, Any] | asyncio.Task[bytes] | None"
"""What one message gets at once: a response, a running call, or nothing (notifications)."""


class Answer(NamedTuple):
    """The encoded answer to one message, and its JSON-RPC error code when it is an error.

    ``error_code`` is None for results, tool execution errors and batches.
    """

    data: bytes
    error_code: int | None


def _key(request_id: RequestId) -> tuple[str, RequestId]:
    # 1 and "1" are different ids
    return (type(request_id).__name__, request_id)


def error_result(text: str) -> CallToolResult:
    """A tool execution error: ``isError`` with the message as text.

    Messages can hold what is not Unicode (a file name decoded with surrogateescape): such
    characters are written as backslash escapes, so the error still reaches the client.

    >>> error_result("no file '\\udcff.txt'").content[0].text
    "no file '\\\\udcff.txt'"
    """
    readable = text.encode("utf-8", "backslashreplace").decode("utf-8")
    return CallToolResult([TextContent(readable)], is_error=True)


class Connection:
    """The state of one client: its legacy version (once initialized), log level and calls in flight.

    ``write`` receives each outgoing line (bytes ending with a newline); it may be called from
    worker threads (progress from sync tools), so it must be thread-safe.
    """

    def __init__(self, server: McpServer, write: Write) -> None:
        self._server = server
        self._write = write
        self._legacy_version: str | None = None
        self._log_level: str | None = None
        self._calls: dict[tuple[str, RequestId], tuple[asyncio.Task[bytes], threading.Event]] = {}

    @property
    def protocol_version(self) -> str | None:
        """The version agreed with ``initialize`` (None before it, or for stateless clients)."""
        return self._legacy_version

    @property
    def calls_in_flight(self) -> int:
        """How many ``tools/call`` requests are running."""
        return len(self._calls)

    # -- input -------------------------------------------------------------------------------------

    def receive(self, line: bytes) -> None:
        """Handle one raw message (on the event loop's thread)."""
        try:
            message = parse_message(line)
        except RpcError as err:
            self._send(error_response(None, err))
            return
        if isinstance(message, list):
            self._receive_batch(message)
            return
        outcome = self._dispatch(message, self._write)
        if isinstance(outcome, asyncio.Task):
            outcome.add_done_callback(self._write_call)
        elif outcome is not None:
            self._send(outcome)

    def reject_oversize(self, size: int) -> None:
        """Answer a message that was too large to read (its id is unknown, so null)."""
        limit = self._server.max_message_size
        self._send(
            error_response(
                None,
                RpcError(
                    INVALID_REQUEST,
                    f"Invalid Request: the message is {size} bytes or more; the limit is {limit} bytes",
                ),
            )
        )

    async def respond(self, message: Any, notify: Write) -> Answer | None:
        """The answer to one parsed message (an object, or a batch at 2025-03-26), or None if none is owed.

        Notifications the request causes (progress, log messages) go to ``notify`` meanwhile,
        possibly from worker threads. None is also what a call cancelled with
        ``notifications/cancelled`` gets. Cancelling the awaiting task cancels the call.
        """
        if isinstance(message, list):
            if self._legacy_version != BATCH_VERSION or not message:
                return self._answer_error(None, self._batch_refusal(message))
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
        if isinstance(outcome, dict):
            error = outcome.get("error")
            return Answer(self._encode(outcome), error["code"] if isinstance(error, dict) else None)
        try:
            await asyncio.wait({outcome})
        except asyncio.CancelledError:
            self._cancel_task(outcome)
            raise
        if outcome.cancelled():
            return None
        failure = outcome.exception()
        if failure is not None:  # _answer_call turns every failure into an answer
            log.error("tools/call failed unexpectedly", exc_info=failure)
            return None
        return Answer(outcome.result(), None)

    async def close(self, grace: float) -> None:
        """Let calls in flight finish for up to ``grace`` seconds, then cancel the rest (sending nothing)."""
        calls = list(self._calls.values())
        if calls and grace > 0:
            await asyncio.wait([task for task, _ in calls], timeout=grace)
        self.cancel_all()
        pending = [task for task, _ in calls if not task.done()]
        if pending:
            await asyncio.wait(pending, timeout=1.0)

    def cancel_all(self) -> None:
        """Cancel every call in flight; their results are never sent."""
        for task, cancelled in list(self._calls.values()):
            cancelled.set()
            task.cancel()

    def _cancel_task(self, task: asyncio.Task[bytes]) -> None:
        for running, cancelled in list(self._calls.values()):
            if running is task:
                cancelled.set()
        task.cancel()

    # -- output ------------------------------------------------------------------------------------

    def _send(self, message: dict[str, Any]) -> None:
        self._write(self._encode(message))

    def _encode(self, message: dict[str, Any]) -> bytes:
        try:
            return encode_line(message)
        except ValueError as err:
            log.error("could not encode a message: %s", err)
            failure = RpcError(INTERNAL_ERROR, f"Internal error: the answer is not valid JSON ({err})")
            return encode_line(error_response(message.get("id"), failure))

    def _answer_error(self, request_id: RequestId | None, error: RpcError) -> Answer:
        return Answer(self._encode(error_response(request_id, error)), error.code)

    def _write_call(self, task: asyncio.Task[bytes]) -> None:
        if task.cancelled():
            return
        error = task.exception()
        if error is not None:  # _answer_call turns every failure into an answer
            log.error("tools/call failed unexpectedly", exc_info=error)
            return
        self._write(task.result())

    # -- messages ----------------------------------------------------------------------------------

    def _dispatch(self, message: Any, notify: Write) -> Outcome:
        """The answer to one message: a response, a running call, or None (notifications)."""
        if not isinstance(message, dict):
            return error_response(
                None, RpcError(INVALID_REQUEST, "Invalid Request: a message is a JSON object")
            )
        has_id = "id" in message
        request_id: RequestId = message.get("id", "")
        if has_id and not is_request_id(request_id):
            error = RpcError(INVALID_REQUEST, "Invalid Request: id must be a string or an integer")
            return error_response(None, error)
        if "method" not in message:
            if has_id and ("result" in message or "error" in message):
                log.warning("ignored a response to request %r: this server sends no requests", request_id)
                return None
            answer_to = request_id if has_id else None
            return error_response(answer_to, RpcError(INVALID_REQUEST, "Invalid Request: no method"))
        method = message["method"]
        params = message.get("params")
        if not has_id:
            if isinstance(method, str) and isinstance(params, (dict, type(None))):
                self._notification(method, params or {})
            return None
        try:
            if message.get("jsonrpc") != "2.0":
                raise RpcError(INVALID_REQUEST, 'Invalid Request: jsonrpc must be "2.0"')
            if not isinstance(method, str):
                raise RpcError(INVALID_REQUEST, "Invalid Request: method must be a string")
            if params is not None and not isinstance(params, dict):
                raise RpcError(INVALID_PARAMS, f"Invalid params: {method} takes its params as an object")
            return self._request(request_id, method, params or {}, notify)
        except RpcError as err:
            return error_response(request_id, err)
        except Exception:
            log.exception("internal error answering %s", method)
            return error_response(request_id, RpcError(INTERNAL_ERROR, "Internal error"))

    def _batch_refusal(self, messages: list[Any]) -> RpcError:
        why = f"batches are part of protocol {BATCH_VERSION} only" if messages else "an empty batch"
        return RpcError(INVALID_REQUEST, f"Invalid Request: {why}")

    def _receive_batch(self, messages: list[Any]) -> None:
        if self._legacy_version != BATCH_VERSION or not messages:
            self._send(error_response(None, self._batch_refusal(messages)))
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
                parts.append(self._encode(outcome).rstrip(b"\n"))
        return b"[" + b",".join(parts) + b"]\n" if parts else None

    def _notification(self, method: str, params: dict[str, Any]) -> None:
        if method == "notifications/cancelled":
            request_id = params.get("requestId")
            entry = self._calls.get(_key(request_id)) if is_request_id(request_id) else None  # type: ignore[arg-type]
            if entry is not None:
                task, cancelled = entry
                cancelled.set()
                task.cancel()
        # notifications/initialized, roots/list_changed and the rest need nothing from a tools server

    def _request(self, request_id: RequestId, method: str, params: dict[str, Any], notify: Write) -> Any:
        if method == "initialize":
            return response(request_id, self._initialize(params))
        version = self._version_for(method, params)
        if method == "tools/call":
            return self._start_call(request_id, params, version, notify)
        if method == "ping":
            result: dict[str, Any] = {}
        elif method == "tools/list":
            result = self._server.list_tools_page(params.get("cursor")).to_wire(version)
        elif method == "server/discover":
            result = self._discover().to_wire(version)
        elif method == "logging/setLevel":
            level = params.get("level")
            if level not in LOG_LEVELS:
                raise RpcError(
                    INVALID_PARAMS, f"Invalid params: level must be one of {', '.join(LOG_LEVELS)}"
                )
            self._log_level = level
            result = {}
        else:  # _version_for refuses every other method
            raise AssertionError(method)
        return response(request_id, self._stamp(result, version))

    def _version_for(self, method: str, params: dict[str, Any]) -> str:
        """The version a request is served under, or the error that refuses it."""
        meta = params.get("_meta")
        if isinstance(meta, dict) and PROTOCOL_VERSION_KEY in meta:
            version = self._modern_version(meta)
            if method not in MODERN_METHODS:
                raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method} (protocol {version})", method)
            return version
        if method not in LEGACY_METHODS:
            raise RpcError(METHOD_NOT_FOUND, f"Method not found: {method}", method)
        if self._legacy_version is None:
            if method == "ping":
                return LATEST_LEGACY_VERSION
            raise RpcError(
                INVALID_PARAMS,
                f"Invalid request: {method} before initialize; send initialize first, or name a protocol "
                f"version in params._meta[{PROTOCOL_VERSION_KEY!r}] ({', '.join(MODERN_VERSIONS)})",
            )
        return self._legacy_version

    def _modern_version(self, meta: dict[str, Any]) -> str:
        requested = meta[PROTOCOL_VERSION_KEY]
        if not isinstance(requested, str):
            raise RpcError(
                INVALID_PARAMS, f"Invalid params: _meta[{PROTOCOL_VERSION_KEY!r}] must be a string"
            )
        if requested not in MODERN_VERSIONS:
            data = {"supported": SUPPORTED_VERSIONS, "requested": requested}
            raise RpcError(UNSUPPORTED_PROTOCOL_VERSION, "Unsupported protocol version", data)
        if not isinstance(meta.get(CLIENT_CAPABILITIES_KEY), dict):
            raise RpcError(
                INVALID_PARAMS,
                f"Invalid params: _meta[{CLIENT_CAPABILITIES_KEY!r}] must be an object ({{}} for none)",
            )
        level = meta.get(LOG_LEVEL_KEY)
        if level is not None and level not in LOG_LEVELS:
            raise RpcError(
                INVALID_PARAMS,
                f"Invalid params: _meta[{LOG_LEVEL_KEY!r}] must be one of {', '.join(LOG_LEVELS)}",
            )
        return requested

    def _stamp(self, result: dict[str, Any], version: str) -> dict[str, Any]:
        """From 2026-07-28 every result says it is complete and names the server."""
        if not is_modern(version):
            return result
        result.setdefault("resultType", "complete")
        meta = dict(result.get("_meta") or {})
        meta.setdefault(SERVER_INFO_KEY, self._server.server_info.to_wire(version))
        result["_meta"] = meta
        return result

    # -- handshake and discovery -------------------------------------------------------------------

    def _initialize(self, params: dict[str, Any]) -> dict[str, Any]:
        requested = params.get("protocolVersion")
        if not isinstance(requested, str):
            raise RpcError(INVALID_PARAMS, "Invalid params: initialize needs protocolVersion (a string)")
        version = requested if requested in LEGACY_VERSIONS else LATEST_LEGACY_VERSION
        self._legacy_version = version
        result = InitializeResult(
            version,
            self._server.capabilities(),
            self._server.server_info,
            instructions=self._server.instructions,
        )
        return result.to_wire(version)

    def _discover(self) -> DiscoverResult:
        return DiscoverResult(
            SUPPORTED_VERSIONS,
            self._server.capabilities(),
            self._server.server_info,
            instructions=self._server.instructions,
            ttl_ms=self._server.cache_ttl_ms,
        )

    # -- tools/call --------------------------------------------------------------------------------

    def _start_call(
        self, request_id: RequestId, params: dict[str, Any], version: str, notify: Write
    ) -> asyncio.Task[bytes]:
        key = _key(request_id)
        if key in self._calls:
            raise RpcError(
                INVALID_REQUEST, f"Invalid Request: id {request_id!r} belongs to a call in progress"
            )
        name = params.get("name")
        if not isinstance(name, str):
            raise RpcError(
                INVALID_PARAMS, "Invalid params: tools/call needs name (the tool's name, a string)"
            )
        arguments = params.get("arguments")
        if arguments is not None and not isinstance(arguments, dict):
            raise RpcError(INVALID_PARAMS, f"Invalid params: the arguments of {name} must be an object")
        tool = self._server.get_tool(name)
        if tool is None:
            raise RpcError(INVALID_PARAMS, f"Unknown tool: {name}")
        cancelled = threading.Event()
        context = self._context(request_id, params, version, cancelled, notify)
        call = self._answer_call(tool, request_id, arguments or {}, context)
        task = asyncio.get_running_loop().create_task(call)
        self._calls[key] = (task, cancelled)
        task.add_done_callback(lambda _: self._calls.pop(key, None))
        return task

    def _context(
        self,
        request_id: RequestId,
        params: dict[str, Any],
        version: str,
        cancelled: threading.Event,
        write: Write,
    ) -> Context:
        meta = params.get("_meta")
        meta = meta if isinstance(meta, dict) else {}
        token = meta.get("progressToken")
        if is_modern(version):
            level = meta.get(LOG_LEVEL_KEY)
        else:
            level = self._log_level or LOG_LEVELS[0]

        def notify(method: str, params: dict[str, Any]) -> None:
            if not cancelled.is_set():
                write(self._encode(notification(method, params)))

        return Context(
            request_id=request_id,
            protocol_version=version,
            notify=notify,
            progress_token=token if is_request_id(token) else None,
            log_level=level,
            cancelled=cancelled,
        )

    async def _answer_call(
        self, tool: RegisteredTool, request_id: RequestId, arguments: dict[str, Any], context: Context
    ) -> bytes:
        """The encoded answer to one call: its result, a tool error, or a JSON-RPC error."""
        try:
            return await self._call_tool(tool, request_id, arguments, context)
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("internal error calling tool %s", tool.name)
            return self._encode(error_response(request_id, RpcError(INTERNAL_ERROR, "Internal error")))

    async def _call_tool(
        self, tool: RegisteredTool, request_id: RequestId, arguments: dict[str, Any], context: Context
    ) -> bytes:
        version = context.protocol_version
        try:
            kwargs = tool.bind(arguments)
        except ArgumentError as err:
            message = f"Invalid arguments for tool {tool.name}: {err}"
            # 2025-11-25 made input validation a tool execution error, so the model can correct itself
            if PROTOCOL_VERSIONS.index(version) >= PROTOCOL_VERSIONS.index("2025-11-25"):
                return self._answer(request_id, error_result(message), version)
            return self._encode(error_response(request_id, RpcError(INVALID_PARAMS, message)))
        workers = self._server.workers
        if tool.is_async:
            try:
                value = await tool.call_async(kwargs, context)
            except asyncio.CancelledError:
                raise
            except Exception as err:
                return self._answer(request_id, self._failure(tool, err), version)
            return await workers.run(self._finish, tool, request_id, value, version)
        return await workers.run(self._run_sync, tool, request_id, kwargs, context)

    def _run_sync(
        self, tool: RegisteredTool, request_id: RequestId, kwargs: dict[str, Any], context: Context
    ) -> bytes:
        try:
            value = tool.call_sync(kwargs, context)
        except Exception as err:
            return self._answer(request_id, self._failure(tool, err), context.protocol_version)
        return self._finish(tool, request_id, value, context.protocol_version)

    def _finish(self, tool: RegisteredTool, request_id: RequestId, value: Any, version: str) -> bytes:
        try:
            result = tool.to_result(value)
        except Exception as err:
            log.warning("tool %s returned a value that cannot be sent: %s", tool.name, err)
            result = error_result(f"Tool {tool.name} returned a value that cannot be sent: {err}")
        return self._answer(request_id, result, version)

    def _failure(self, tool: RegisteredTool, error: Exception) -> CallToolResult:
        log.warning("tool %s raised %s", tool.name, type(error).__name__, exc_info=error)
        return error_result(str(error) or type(error).__name__)

    def _answer(self, request_id: RequestId, result: CallToolResult, version: str) -> bytes:
        wire, structured_json = result_wire_parts(result, version)
        line = self._encode(response(request_id, self._stamp(wire, version)))
        if structured_json is None or b'"result":{' not in line:  # the encoder answered an error
            return line
        return splice_structured(line, structured_json)
