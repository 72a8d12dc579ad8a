"""An in-process MCP client for tests and notebooks: ``Client(server, protocol_version=...)``.

The client talks to an :class:`~mcplite.McpServer` through the same message handling the stdio
transport uses (:class:`mcplite.engine.connection.Connection`): requests are encoded as JSON lines, and
every answer is parsed back from the exact bytes the server would write to a real client.

>>> import mcplite
>>> from mcplite.testing import Client
>>> server = mcplite.McpServer("calc")
>>> @server.tool
... def add(a: int, b: int = 2) -> int:
...     '''Add two integers.'''
...     return a + b
>>> with Client(server, protocol_version="2025-11-25") as client:
...     result = client.call_tool("add", {"a": 1})
>>> result.text, result.is_error
('3', False)

Sync methods (``call_tool``, ``list_tools``, ``request``) block until the answer arrives; the
async ones (``acall_tool``, ``alist_tools``, ``arequest``) await it, so the same client works in
a notebook, in a plain pytest test and in an async test. The server runs on a private event
loop in a background thread, as it would run in its own process.

Every call's structured content is checked against the output schema the tool is listed with (a
hand-written one too): a result that does not fit comes back as an error result naming the path,
as a client that validates would refuse it (needs jsonschema; without it, nothing is checked).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextvars
import itertools
import json
import threading
import weakref
from collections.abc import Mapping
from types import TracebackType
from typing import Any

import attrs

from mcplite.engine.connection import Connection
from mcplite.features.client import FeatureRequests
from mcplite.payload.rjson import options_in_force
from mcplite.protocol.jsonrpc import encode_line
from mcplite.protocol.projection import project_tool
from mcplite.protocol.reading import CallResult, RequestError, read_tool
from mcplite.protocol.types import ABSENT, TextContent, Tool
from mcplite.protocol.versions import (
    CLIENT_CAPABILITIES_KEY,
    CLIENT_INFO_KEY,
    LOG_LEVEL_KEY,
    LOG_LEVELS,
    PROTOCOL_VERSION_KEY,
    PROTOCOL_VERSIONS,
    SERVER_INFO_KEY,
    is_modern,
)
from mcplite.protocol.wire_objects import WireObject
from mcplite.server import McpServer
from mcplite.tools.typed_values import can_validate, output_misfit

__all__ = ["CallResult", "Client", "RequestError", "WireObject"]

DEFAULT_CLIENT_INFO: dict[str, str] = {"name": "mcplite-testing", "version": "1.0"}


# -- the client ----------------------------------------------------------------------------------------


def _parse_line(line: bytes) -> Any:
    """One line as the server wrote it: a single line of strict JSON (no NaN or Infinity)."""
    if not line.endswith(b"\n") or line.count(b"\n") != 1:
        raise ValueError(f"the server wrote {line!r:.200}, which is not exactly one line")

    def refuse(name: str) -> None:
        raise ValueError(f"the server wrote {name}, which is not JSON: {line!r:.200}")

    return json.loads(line.decode("utf-8"), parse_constant=refuse)


class _Pending:
    """A request waiting for its answer, and where the notifications sent meanwhile begin."""

    def __init__(self, method: str, first_notification: int) -> None:
        self.method = method
        self.first_notification = first_notification
        self.future: concurrent.futures.Future[tuple[dict[str, Any], list[dict[str, Any]]]] = (
            concurrent.futures.Future()
        )


def _stop_loop(loop: asyncio.AbstractEventLoop, thread: threading.Thread) -> None:
    if loop.is_closed():
        return
    try:
        loop.call_soon_threadsafe(loop.stop)
    except RuntimeError:  # already stopping
        pass
    thread.join(timeout=5)
    if not thread.is_alive():
        loop.close()


class Client(FeatureRequests):
    """An MCP client of ``server`` speaking ``protocol_version``, in this process.

    For versions 2024-11-05 to 2025-11-25 the first request performs the ``initialize``
    handshake (then ``logging/setLevel`` if ``log_level`` is set); for 2026-07-28 it asks
    ``server/discover``, and every request carries the protocol version, ``capabilities``,
    ``client_info`` and ``log_level`` in its ``_meta``. ``timeout`` (seconds) bounds each
    request: a call that takes longer is cancelled and raises ``TimeoutError``.

    ``with mcplite.options(...)`` around a call applies to that call on the server side, as the
    request runs in a copy of the caller's context.
    """

    def __init__(
        self,
        server: McpServer,
        protocol_version: str = PROTOCOL_VERSIONS[-1],
        *,
        client_info: Mapping[str, Any] | None = None,
        capabilities: Mapping[str, Any] | None = None,
        log_level: str | None = "debug",
        timeout: float | None = 30.0,
    ) -> None:
        if protocol_version not in PROTOCOL_VERSIONS:
            raise ValueError(
                f"Client: protocol_version must be one of {', '.join(PROTOCOL_VERSIONS)}, "
                f"not {protocol_version!r}"
            )
        if log_level is not None and log_level not in LOG_LEVELS:
            levels = ", ".join(LOG_LEVELS)
            raise ValueError(f"Client: log_level must be one of {levels} or None, not {log_level!r}")
        self.protocol_version = protocol_version
        self.client_info = dict(client_info if client_info is not None else DEFAULT_CLIENT_INFO)
        self.capabilities = dict(capabilities or {})
        self.log_level = log_level
        self.timeout = timeout
        self.server_info: dict[str, Any] | None = None
        """The server's name and version, as the handshake (or ``server/discover``) gave them."""
        self.server_capabilities: dict[str, Any] | None = None
        self.instructions: str | None = None
        self.notifications: list[dict[str, Any]] = []
        """Every notification the server sent, in order (``{"jsonrpc", "method", "params"}``)."""
        self._lock = threading.Lock()
        self._connect_lock = threading.RLock()
        self._connected = False
        self._closed = False
        self._started = False
        self._pending: dict[int, _Pending] = {}
        self._ids = itertools.count(1)
        self._engine = server.engine
        self._connection = Connection(server.engine, self._receive_line)
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, name="mcplite-testing", daemon=True)
        self._thread.start()
        self._finalizer = weakref.finalize(self, _stop_loop, self._loop, self._thread)

    # -- lifecycle ---------------------------------------------------------------------------------

    def connect(self) -> Client:
        """Perform the handshake now (requests do it themselves when needed)."""
        with self._connect_lock:
            if self._connected:
                return self
            self._connected = True  # the handshake's own requests must not start another one
            try:
                lifespan = self._engine.offer.lifespan
                asyncio.run_coroutine_threadsafe(lifespan.start(), self._loop).result(self.timeout)
                self._started = True
                self._handshake()
            except BaseException:
                self._connected = False
                raise
        return self

    def _handshake(self) -> None:
        if is_modern(self.protocol_version):
            result = self.request("server/discover")
            self.server_info = (result.get("_meta") or {}).get(SERVER_INFO_KEY)
        else:
            hello = {
                "protocolVersion": self.protocol_version,
                "capabilities": self.capabilities,
                "clientInfo": self.client_info,
            }
            result = self.request("initialize", hello)
            agreed = result.get("protocolVersion")
            if agreed != self.protocol_version:
                raise RuntimeError(
                    f"initialize: the client asked for protocol {self.protocol_version}, "
                    f"the server answered {agreed!r}"
                )
            self.server_info = result.get("serverInfo")
            self._send({"jsonrpc": "2.0", "method": "notifications/initialized"})
            if self.log_level is not None:
                self.request("logging/setLevel", {"level": self.log_level})
        self.server_capabilities = result.get("capabilities")
        self.instructions = result.get("instructions")

    def close(self) -> None:
        """Cancel what is still running and stop the server's event loop."""
        if self._closed:
            return
        self._closed = True
        if not self._loop.is_closed():
            stopping = asyncio.run_coroutine_threadsafe(self._stop(), self._loop)
            try:
                stopping.result(timeout=5)
            except (concurrent.futures.TimeoutError, RuntimeError):
                pass
        self._finalizer()
        self._fail_all(RuntimeError("the client was closed"))

    async def _stop(self) -> None:
        await self._connection.close(0)
        if self._started:
            self._started = False
            await self._engine.offer.lifespan.stop()

    def __enter__(self) -> Client:
        return self.connect()

    def __exit__(self, *exc: object) -> None:
        self.close()

    async def __aenter__(self) -> Client:
        return self.connect()

    async def __aexit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"Client(protocol_version={self.protocol_version!r}, server={self.server_info!r})"

    # -- requests ----------------------------------------------------------------------------------

    def request(self, method: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """Send any request and return its ``result`` object as sent; a JSON-RPC error raises RequestError."""
        request_id, pending = self._start(method, params)
        try:
            message, _ = pending.future.result(timeout=self.timeout)
        except concurrent.futures.TimeoutError:
            self._give_up(request_id, method)
            raise TimeoutError(
                f"{method}: no answer within {self.timeout} s; the request was cancelled"
            ) from None
        return self._result(method, message)

    async def arequest(self, method: str, params: Mapping[str, Any] | None = None) -> dict[str, Any]:
        """:meth:`request`, awaited; cancelling the awaiting task cancels the request on the server."""
        message, _ = await self._await(*self._start(method, params))
        return self._result(method, message)

    def list_tools(self) -> list[Tool]:
        """Every tool the server lists (all pages), as mcplite ``Tool`` objects."""
        tools: list[Tool] = []
        cursor: str | None = None
        while True:
            page = self.request("tools/list", {"cursor": cursor} if cursor else None)
            tools += [read_tool(tool) for tool in page.get("tools", [])]
            cursor = page.get("nextCursor")
            if cursor is None:
                return tools

    async def alist_tools(self) -> list[Tool]:
        """:meth:`list_tools`, awaited."""
        tools: list[Tool] = []
        cursor: str | None = None
        while True:
            page = await self.arequest("tools/list", {"cursor": cursor} if cursor else None)
            tools += [read_tool(tool) for tool in page.get("tools", [])]
            cursor = page.get("nextCursor")
            if cursor is None:
                return tools

    def call_tool(
        self, name: str, arguments: Mapping[str, Any] | None = None, *, progress: bool = True
    ) -> CallResult:
        """Call a tool; a tool error comes back as a result with ``is_error``, a protocol error raises.

        With ``progress`` the request carries a progress token, so the tool's
        ``ctx.report_progress`` reaches ``result.progress``.
        """
        request_id, pending = self._start("tools/call", self._call_params(name, arguments), progress)
        try:
            message, notifications = pending.future.result(timeout=self.timeout)
        except concurrent.futures.TimeoutError:
            self._give_up(request_id, "tools/call")
            raise TimeoutError(
                f"tools/call {name}: no answer within {self.timeout} s; the call was cancelled"
            ) from None
        return self._checked(name, self._call_result(message, notifications, request_id))

    async def acall_tool(
        self, name: str, arguments: Mapping[str, Any] | None = None, *, progress: bool = True
    ) -> CallResult:
        """:meth:`call_tool`, awaited; cancelling the awaiting task sends ``notifications/cancelled``."""
        request_id, pending = self._start("tools/call", self._call_params(name, arguments), progress)
        message, notifications = await self._await(request_id, pending)
        return self._checked(name, self._call_result(message, notifications, request_id))

    # -- internals ---------------------------------------------------------------------------------

    def _call_params(self, name: str, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
        if not isinstance(name, str):
            raise TypeError(f"call_tool: name must be a str, not {type(name).__name__}")
        if arguments is not None and not isinstance(arguments, Mapping):
            raise TypeError(f"call_tool: arguments must be a dict, not {type(arguments).__name__}")
        return {"name": name, "arguments": dict(arguments or {})}

    def _call_result(
        self, message: dict[str, Any], notifications: list[dict[str, Any]], request_id: int
    ) -> CallResult:
        wire = self._result("tools/call", message)
        mine = [
            note
            for note in notifications
            if note.get("method") != "notifications/progress"
            or (note.get("params") or {}).get("progressToken") == request_id
        ]
        return CallResult.from_wire(wire, self.protocol_version, mine)

    def _checked(self, name: str, result: CallResult) -> CallResult:
        """The result, or an error result when its structured content does not fit the listed schema."""
        registered = self._engine.tools.get(name)
        if registered is None or result.is_error or not can_validate():
            return result
        # a typed tool's schema follows the payload options (read only then, as the request did)
        listed = registered.tool if registered.returns is None else registered.listed(options_in_force())
        schema = project_tool(listed, self.protocol_version).output_schema
        if schema is None:
            return result
        if result.structured_content is ABSENT:
            problem = "has an output schema but returned no structured content"
        else:
            misfit = output_misfit(schema, result.structured_content)
            if misfit is None:
                return result
            problem = f"returned structured content that does not fit its output schema: {misfit}"
        return attrs.evolve(
            result, content=[TextContent(f"Tool {name} {problem}")], structured_content=ABSENT, is_error=True
        )

    def _meta(self) -> dict[str, Any]:
        if not is_modern(self.protocol_version):
            return {}
        meta: dict[str, Any] = {
            PROTOCOL_VERSION_KEY: self.protocol_version,
            CLIENT_CAPABILITIES_KEY: self.capabilities,
            CLIENT_INFO_KEY: self.client_info,
        }
        if self.log_level is not None:
            meta[LOG_LEVEL_KEY] = self.log_level
        return meta

    def _start(
        self, method: str, params: Mapping[str, Any] | None, progress: bool = False
    ) -> tuple[int, _Pending]:
        if self._closed:
            raise RuntimeError("the client is closed")
        if method not in ("initialize", "server/discover"):
            # the handshake is answered at once on the server's loop, never by a tool: a short wait
            self.connect()
        request_id = next(self._ids)
        body = dict(params or {})
        meta = {**self._meta(), **(body.get("_meta") or {})}
        if progress:
            meta["progressToken"] = request_id
        if meta:
            body["_meta"] = meta
        message: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id, "method": method}
        if body:
            message["params"] = body
        with self._lock:
            pending = _Pending(method, len(self.notifications))
            self._pending[request_id] = pending
        self._send(message)
        return request_id, pending

    async def _await(self, request_id: int, pending: _Pending) -> tuple[dict[str, Any], list[dict[str, Any]]]:
        try:
            return await asyncio.wait_for(asyncio.wrap_future(pending.future), self.timeout)
        except TimeoutError:
            self._give_up(request_id, pending.method)
            raise TimeoutError(
                f"{pending.method}: no answer within {self.timeout} s; the request was cancelled"
            ) from None
        except asyncio.CancelledError:
            self._give_up(request_id, pending.method)
            raise

    def _give_up(self, request_id: int, method: str) -> None:
        with self._lock:
            self._pending.pop(request_id, None)
        if method != "initialize" and not self._closed:
            params = {"requestId": request_id, "reason": "the test client stopped waiting"}
            self._send({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": params})

    def _send(self, message: dict[str, Any]) -> None:
        line = encode_line(message)
        context = contextvars.copy_context()
        self._loop.call_soon_threadsafe(self._connection.receive, line, context=context)

    def _result(self, method: str, message: dict[str, Any]) -> dict[str, Any]:
        if "error" in message:
            raise RequestError(method, message["error"])
        result = message.get("result")
        if not isinstance(result, dict):
            raise ValueError(f"{method}: the server's answer has no result object: {message!r:.200}")
        return result

    def _receive_line(self, line: bytes) -> None:
        """What the server writes (from its loop or a worker thread): answers and notifications."""
        try:
            parsed = _parse_line(line)
        except (ValueError, UnicodeDecodeError) as err:
            self._fail_all(ValueError(f"the server broke the protocol: {err}"))
            return
        for message in parsed if isinstance(parsed, list) else [parsed]:
            self._receive(message)

    def _fail_all(self, error: Exception) -> None:
        """Fail every request in flight: nothing the server writes after a broken line can be trusted."""
        with self._lock:
            pending, self._pending = self._pending, {}
        for waiting in pending.values():
            if not waiting.future.done():
                waiting.future.set_exception(error)

    def _receive(self, message: Any) -> None:
        with self._lock:
            if "method" in message and "id" not in message:
                self.notifications.append(message)
                return
            request_id = message.get("id")
            pending = self._pending.pop(request_id, None) if isinstance(request_id, int) else None
            if pending is None:
                return  # an answer nobody waits for (the request timed out) or an error with a null id
            during = self.notifications[pending.first_notification :]
        pending.future.set_result((message, during))
