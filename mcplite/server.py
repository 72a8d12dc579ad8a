"""``McpServer``: tools from typed Python functions, served to MCP clients of every protocol version.

>>> import mcplite
>>> server = mcplite.McpServer("flights", version="1.0.0")
>>> @server.tool
... def add(a: int, b: int = 2) -> int:
...     '''Add two integers.'''
...     return a + b
>>> server.get_tool("add").tool.to_wire("2025-06-18")["inputSchema"]["required"]
['a']

``server.run()`` then serves it on stdio (``server.run(transport="http")``: Streamable HTTP, and
``server.asgi_app()`` the same as an ASGI app); :func:`mcp_server` is the functional form.
"""

from __future__ import annotations

import inspect
import os
import re
import types
import typing
from collections.abc import Callable, Iterable, Mapping
from types import MappingProxyType
from typing import Any, TypeVar, overload

import attrs

from mcplite.arguments import ArgumentBinder
from mcplite.content import as_icons
from mcplite.context import Context
from mcplite.http import Authenticate, McpHttpApp, serve_http
from mcplite.jsonrpc import INVALID_PARAMS, RpcError
from mcplite.messages import Implementation, ListToolsResult
from mcplite.results import as_tool_result, tool_result
from mcplite.schema import description as doc_description
from mcplite.stdio import serve_stdio
from mcplite.types import CallToolResult, Tool, ToolAnnotations, check_plain_json, shown
from mcplite.workers import Workers

F = TypeVar("F", bound=Callable[..., Any])

_TOOL_NAME = re.compile(r"^[A-Za-z0-9_.-]{1,128}$")


def _context_parameters(function: Callable[..., Any]) -> tuple[str, ...]:
    """The parameters annotated ``Context`` (or ``Context | None``): they receive the request context."""
    try:
        hints = typing.get_type_hints(function)
    except Exception:  # unresolvable hints: the schema reports them with the parameter's name
        hints = {}
    names = []
    for name, parameter in inspect.signature(function).parameters.items():
        hint = hints.get(name, parameter.annotation)
        options = (
            typing.get_args(hint) if typing.get_origin(hint) in (typing.Union, types.UnionType) else (hint,)
        )
        if any(option is Context or option in ("Context", "mcplite.Context") for option in options):
            names.append(name)
    return tuple(names)


def _tool_annotations(value: Any, owner: str) -> ToolAnnotations | None:
    if value is None or isinstance(value, ToolAnnotations):
        return value
    if not isinstance(value, Mapping):
        raise TypeError(f"{owner}: annotations must be a ToolAnnotations or a dict, not {shown(value)}")
    camel = {"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}
    fields = {
        (re.sub(r"([A-Z])", lambda m: "_" + m.group(1).lower(), key) if key in camel else key): item
        for key, item in value.items()
    }
    try:
        return ToolAnnotations(**fields)
    except TypeError:
        known = "title, read_only_hint, destructive_hint, idempotent_hint, open_world_hint"
        raise TypeError(
            f"{owner}: unknown tool annotation in {sorted(value)}; the fields are {known}"
        ) from None


class RegisteredTool:
    """A tool as the server holds it: the function, its listing, and how its arguments are bound."""

    def __init__(self, function: Callable[..., Any], tool: Tool, *, structured: bool) -> None:
        self.function = function
        self.tool = tool
        self.context_parameters = _context_parameters(function)
        self.binder = ArgumentBinder(function, skip=self.context_parameters)
        self.is_async = inspect.iscoroutinefunction(function)
        self.structured = structured

    @property
    def name(self) -> str:
        return self.tool.name

    def bind(self, arguments: Mapping[str, Any]) -> dict[str, Any]:
        """Keyword arguments for the call, checked and structured (raises ``ArgumentError``)."""
        return self.binder.bind(arguments)

    def _with_context(self, kwargs: dict[str, Any], context: Context) -> dict[str, Any]:
        return (
            {**kwargs, **dict.fromkeys(self.context_parameters, context)}
            if self.context_parameters
            else kwargs
        )

    def call_sync(self, kwargs: dict[str, Any], context: Context) -> Any:
        return self.function(**self._with_context(kwargs, context))

    async def call_async(self, kwargs: dict[str, Any], context: Context) -> Any:
        return await self.function(**self._with_context(kwargs, context))

    def to_result(self, value: Any) -> CallToolResult:
        """The tool's return value as a result; with an output schema, the value is the structured content."""
        if self.structured and not isinstance(value, CallToolResult):
            return tool_result(structured_content=value)
        return as_tool_result(value)


class McpServer:
    """An MCP server: a name, a version, instructions for the model, and tools.

    ``page_size`` tools go in one ``tools/list`` page; ``cache_ttl_ms`` is how long a 2026-07-28
    client may cache listings; ``max_message_size`` bounds one incoming message (bytes);
    ``workers`` is how many sync tools may run at once.
    """

    def __init__(
        self,
        name: str,
        version: str = "0.1.0",
        *,
        instructions: str | None = None,
        title: str | None = None,
        page_size: int = 100,
        cache_ttl_ms: int = 60_000,
        max_message_size: int = 16 * 2**20,
        workers: int | None = None,
    ) -> None:
        self.server_info = Implementation(name, version, title=title)
        if instructions is not None and not isinstance(instructions, str):
            raise TypeError(f"McpServer: instructions must be a str, not {shown(instructions)}")
        for option, value in (("page_size", page_size), ("max_message_size", max_message_size)):
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"McpServer: {option} must be a positive integer, not {value!r}")
        self.instructions = instructions
        self.page_size = page_size
        self.cache_ttl_ms = cache_ttl_ms
        self.max_message_size = max_message_size
        self.workers = Workers(workers or min(32, (os.cpu_count() or 1) + 4))
        self._tools: dict[str, RegisteredTool] = {}

    @property
    def name(self) -> str:
        return self.server_info.name

    @property
    def version(self) -> str:
        return self.server_info.version

    @property
    def tools(self) -> Mapping[str, RegisteredTool]:
        """The registered tools by name, in registration order (read-only)."""
        return MappingProxyType(self._tools)

    def get_tool(self, name: str) -> RegisteredTool | None:
        return self._tools.get(name)

    @overload
    def tool(self, function: F, /) -> F: ...

    @overload
    def tool(
        self,
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        annotations: ToolAnnotations | Mapping[str, Any] | None = None,
        output_schema: dict[str, Any] | None = None,
        icons: Iterable[Any] | None = None,
        meta: dict[str, Any] | None = None,
    ) -> Callable[[F], F]: ...

    def tool(self, function: Any = None, /, **options: Any) -> Any:  # type: ignore[misc]
        """Register a function as a tool: ``@server.tool`` or ``@server.tool(name=..., ...)``.

        The function is returned unchanged, so it stays callable and testable as it is.
        """
        if function is not None:
            self.add_tool(function, **options)
            return function

        def register(function: F) -> F:
            self.add_tool(function, **options)
            return function

        return register

    def add_tool(
        self,
        function: Callable[..., Any],
        *,
        name: str | None = None,
        title: str | None = None,
        description: str | None = None,
        annotations: ToolAnnotations | Mapping[str, Any] | None = None,
        output_schema: dict[str, Any] | None = None,
        icons: Iterable[Any] | None = None,
        meta: dict[str, Any] | None = None,
    ) -> RegisteredTool:
        """Register ``function`` as a tool and return how the server holds it."""
        if not callable(function):
            raise TypeError(f"McpServer.tool: a tool is a function, not {shown(function)}")
        tool_name = name if name is not None else getattr(function, "__name__", None)
        owner = f"tool {tool_name!r}"
        if not isinstance(tool_name, str) or not _TOOL_NAME.match(tool_name):
            raise ValueError(
                f"{owner}: a tool name is 1 to 128 letters, digits, '_', '-' or '.' (pass name=...)"
            )
        if tool_name in self._tools:
            raise ValueError(f"{owner} is registered already; tool names are unique within a server")
        if output_schema is not None:
            if not isinstance(output_schema, dict):
                raise TypeError(
                    f"{owner}: output_schema must be a JSON Schema dict, not {shown(output_schema)}"
                )
            check_plain_json(output_schema, f"{owner}: output_schema")
        registered = RegisteredTool(
            function,
            Tool(
                tool_name,
                {"type": "object"},  # replaced below, once the binder has built the schema
                description=description if description is not None else doc_description(function),
                title=title,
                output_schema=output_schema,
                annotations=_tool_annotations(annotations, owner),
                icons=as_icons(icons, owner),
                meta=meta,
            ),
            structured=output_schema is not None,
        )
        registered.tool = attrs.evolve(registered.tool, input_schema=registered.binder.schema)
        self._tools[tool_name] = registered
        return registered

    def capabilities(self) -> dict[str, Any]:
        """What this server offers: tools, and log messages to clients that ask for them."""
        return {"tools": {"listChanged": False}, "logging": {}}

    def list_tools_page(self, cursor: Any = None) -> ListToolsResult:
        """One page of the tool listing; ``cursor`` is the ``nextCursor`` of the page before."""
        offset = 0
        if cursor is not None:
            if not isinstance(cursor, str) or not cursor.isdigit() or int(cursor) > len(self._tools):
                raise RpcError(INVALID_PARAMS, f"Invalid params: unknown cursor {cursor!r:.80}")
            offset = int(cursor)
        tools = [registered.tool for registered in self._tools.values()]
        end = offset + self.page_size
        next_cursor = str(end) if end < len(tools) else None
        return ListToolsResult(tools[offset:end], next_cursor=next_cursor, ttl_ms=self.cache_ttl_ms)

    def asgi_app(
        self,
        *,
        path: str = "/mcp",
        allowed_origins: Iterable[str] = (),
        authenticate: Authenticate | None = None,
        session_idle_timeout: float = 3600.0,
        max_sessions: int = 10_000,
        sse_keepalive: float = 15.0,
    ) -> McpHttpApp:
        """This server's Streamable HTTP endpoint as an ASGI application, for any ASGI server.

        ``allowed_origins`` adds browser origins to the loopback ones (``["*"]``: any);
        ``authenticate(token)`` (plain or async) accepts or refuses each request's bearer token.
        See :mod:`mcplite.http` and docs/http.md.

        >>> McpServer("demo").asgi_app().path
        '/mcp'
        """
        return McpHttpApp(
            self,
            path=path,
            allowed_origins=allowed_origins,
            authenticate=authenticate,
            session_idle_timeout=session_idle_timeout,
            max_sessions=max_sessions,
            sse_keepalive=sse_keepalive,
        )

    def run(
        self,
        transport: str = "stdio",
        *,
        host: str = "127.0.0.1",
        port: int = 8000,
        shutdown_grace: float = 5.0,
        allowed_origins: Iterable[str] = (),
        authenticate: Authenticate | None = None,
    ) -> None:
        """Serve on stdio (the default) or, with ``transport="http"``, on ``http://host:port/mcp``.

        stdio serves until end of input, SIGINT or SIGTERM; on end of input, calls in flight get
        ``shutdown_grace`` seconds to finish, on a signal they are cancelled at once. HTTP (the
        ``http`` extra: uvicorn) serves until SIGINT or SIGTERM, giving requests in flight
        ``shutdown_grace`` seconds; ``allowed_origins`` and ``authenticate`` are as for
        :meth:`asgi_app`.
        """
        if transport == "stdio":
            serve_stdio(self, shutdown_grace=shutdown_grace)
        elif transport == "http":
            app = self.asgi_app(allowed_origins=allowed_origins, authenticate=authenticate)
            serve_http(app, host=host, port=port, shutdown_grace=shutdown_grace)
        else:
            raise ValueError(f"McpServer.run: transport must be 'stdio' or 'http', not {transport!r}")

    def __repr__(self) -> str:
        return f"McpServer({self.name!r}, version={self.version!r}, tools={list(self._tools)})"


def mcp_server(
    name: str,
    version: str = "0.1.0",
    *,
    tools: Iterable[Callable[..., Any]] = (),
    instructions: str | None = None,
) -> McpServer:
    """A server with these functions as its tools (each registered as ``@server.tool`` would).

    >>> def ping() -> str:
    ...     '''Answer pong.'''
    ...     return "pong"
    >>> list(mcp_server("tiny", tools=[ping]).tools)
    ['ping']
    """
    server = McpServer(name, version, instructions=instructions)
    for function in tools:
        server.add_tool(function)
    return server
