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

from collections.abc import Callable, Iterable, Mapping
from typing import Any, TypeVar, Unpack, overload

from mcplite.engine.dask_tasks import DaskTasks
from mcplite.engine.handlers import Engine, HandlerTable
from mcplite.engine.methods import standard_table
from mcplite.engine.prompting import completion_methods, prompt_methods
from mcplite.engine.reads import resource_methods
from mcplite.engine.tasks import task_methods
from mcplite.engine.workers import Workers, default_size
from mcplite.features.lifespan import Lifespan, LifespanFactory
from mcplite.features.prompts import RegisteredPrompt
from mcplite.features.resources import RegisteredResource
from mcplite.features.result_store import MemoryStore, ResultPolicy, ResultStore
from mcplite.features.subscriptions import SubscriptionLimits
from mcplite.features.task_store import TaskStore
from mcplite.payload.budget import DEFAULT_MAX_RESULT_BYTES, DEFAULT_RESULT_BUDGET
from mcplite.payload.rjson import options_in_force
from mcplite.protocol.checks import shown
from mcplite.protocol.messages import Implementation, ListToolsResult
from mcplite.tools.frame_arguments import MAX_FRAME_CELLS
from mcplite.tools.registry import RegisteredTool, ToolOptions, ToolRegistry, checked_budget
from mcplite.transports.http.app import McpHttpApp
from mcplite.transports.http.serve import serve_http
from mcplite.transports.stdio import serve_stdio

F = TypeVar("F", bound=Callable[..., Any])


class McpServer:
    """An MCP server: a name, a version, instructions for the model, and tools.

    ``page_size`` tools go in one ``tools/list`` page; ``cache_ttl_ms`` is how long a 2026-07-28
    client may cache listings; ``max_message_size`` bounds one incoming message (bytes);
    ``max_requests_in_flight`` bounds the requests one connection (a stdio client, a legacy HTTP
    session) has running at once, tool calls and ``subscriptions/listen`` included: past it a new
    one is refused with error -32603 until one ends;
    ``max_listens`` bounds the ``subscriptions/listen`` requests open at once in all (1024, as the
    Python SDK), ``max_listens_per_token`` those of one HTTP bearer token (-32603 past either);
    ``max_listen_backlog`` is how many notifications may wait on one listen's HTTP stream before
    its listen is ended with an error naming it (a client that stopped reading);
    ``max_uris_per_listen`` bounds the URIs one listen names and
    ``max_subscriptions_per_session`` those one legacy session subscribes to (-32602 past either);
    ``max_frame_argument_cells`` bounds a frame argument's rows times columns (an argument error
    past it), read in a worker thread as every tool's arguments are;
    ``workers`` is how many sync tools may run at once (default: 4 per core, at least 32); a call
    whose client left or cancelled before a worker was free never starts. A tool's unexpected
    exception reaches the client as a generic message naming the tool (the detail goes to the log;
    raise :class:`mcplite.ToolError` for a message meant for the client);
    ``mask_error_details=False`` sends the exception's message, for development. With
    ``validate_output``, each call's structured content is checked against a hand-written
    ``output_schema`` (a misfit is an error result naming its path; needs jsonschema).
    ``lifespan(server)`` is an async context manager entered once when a transport starts and left
    when it stops: what it yields is ``ctx.lifespan_state`` in every tool, resource and prompt.
    ``result_budget`` (bytes of a ``tools/call`` response line, 50,000 by default; None: off) is
    where a result that is a data frame, vector or list is cut to the exact head that fits, with a
    ``resource_link`` to the rest, kept in ``result_store`` (a :class:`mcplite.MemoryStore` by
    default; :class:`mcplite.DirectoryStore` for workers sharing a volume); no line passes
    ``max_result_bytes`` (4 MiB): such a result is an error result naming its size (see
    docs/large-results.md). ``@server.tool(result_budget=...)`` sets one tool's budget.
    ``state_key`` signs the 2026-07-28 ``requestState`` of calls that ask the client something
    (``ctx.elicit``...): workers sharing it continue each other's calls (default:
    ``$MCPLITE_STATE_KEY``, else a random key of this process); ``ask_timeout`` (seconds) bounds
    how long a legacy session's ask waits for the client.
    ``wrap_rows=True`` sends a typed tool's rows (any typed value that is not an object) as
    ``{"result": rows}`` structured content under the matching schema, as FastMCP and the official
    SDK do, so clients before 2026-07-28 get it too; ``@server.tool(wrap_rows=...)`` for one tool.
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
        max_requests_in_flight: int = 1024,
        max_listens: int = 1024,
        max_listens_per_token: int = 64,
        max_listen_backlog: int = 1024,
        max_uris_per_listen: int = 1024,
        max_subscriptions_per_session: int = 1024,
        max_frame_argument_cells: int = MAX_FRAME_CELLS,
        workers: int | None = None,
        mask_error_details: bool = True,
        validate_output: bool = False,
        lifespan: LifespanFactory | None = None,
        result_budget: int | None = DEFAULT_RESULT_BUDGET,
        max_result_bytes: int = DEFAULT_MAX_RESULT_BYTES,
        result_store: ResultStore | None = None,
        state_key: str | bytes | None = None,
        ask_timeout: float = 300.0,
        wrap_rows: bool = False,
        tasks: TaskStore | DaskTasks | None = None,
    ) -> None:
        server_info = Implementation(name, version, title=title)
        if instructions is not None and not isinstance(instructions, str):
            raise TypeError(f"McpServer: instructions must be a str, not {shown(instructions)}")
        limits = (
            ("page_size", page_size),
            ("max_message_size", max_message_size),
            ("max_requests_in_flight", max_requests_in_flight),
            ("max_frame_argument_cells", max_frame_argument_cells),
            ("max_result_bytes", max_result_bytes),
        )
        for option, value in limits:
            if isinstance(value, bool) or not isinstance(value, int) or value < 1:
                raise ValueError(f"McpServer: {option} must be a positive integer, not {value!r}")
        self.engine = Engine(
            server_info,
            standard_table(),
            ToolRegistry(page_size),
            Workers(default_size() if workers is None else workers),
            instructions=instructions,
            cache_ttl_ms=cache_ttl_ms,
            max_message_size=max_message_size,
            max_requests_in_flight=max_requests_in_flight,
            mask_error_details=mask_error_details,
            max_frame_argument_cells=max_frame_argument_cells,
            state_key=state_key,
            ask_timeout=ask_timeout,
        )
        """What the transports serve: identity, tools, handler table, workers and limits."""
        self.validate_output = validate_output
        self.wrap_rows = wrap_rows
        """Whether typed tools send rows (any value that is not an object) as ``{"result": rows}``
        structured content, which clients before 2026-07-28 can take (docs/typed-tools.md)."""
        self.engine.results = ResultPolicy(
            checked_budget(result_budget, "McpServer"),
            max_result_bytes,
            MemoryStore() if result_store is None else result_store,
        )
        self.engine.offer.lifespan = Lifespan(lifespan, self)
        if tasks is not None:
            if not isinstance(tasks, (TaskStore, DaskTasks)):
                raise TypeError(
                    f"McpServer: tasks must be a mcplite.TaskStore or mcplite.DaskTasks, not {shown(tasks)}"
                )
            self.engine.tasks = tasks
        """Where the tasks of tools registered with ``task=`` are kept (docs/tasks.md)."""
        self.engine.offer.subscriptions.limits = SubscriptionLimits(
            max_listens=max_listens,
            max_listens_per_token=max_listens_per_token,
            max_listen_backlog=max_listen_backlog,
            max_uris_per_listen=max_uris_per_listen,
            max_subscriptions_per_session=max_subscriptions_per_session,
        )

    @property
    def server_info(self) -> Implementation:
        return self.engine.server_info

    @property
    def instructions(self) -> str | None:
        return self.engine.instructions

    @property
    def page_size(self) -> int:
        return self.engine.tools.page_size

    @property
    def cache_ttl_ms(self) -> int:
        return self.engine.cache_ttl_ms

    @property
    def max_message_size(self) -> int:
        return self.engine.max_message_size

    @property
    def workers(self) -> Workers:
        return self.engine.workers

    @property
    def handlers(self) -> HandlerTable:
        """The handler table: register a handler here to answer one more MCP method."""
        return self.engine.handlers

    @property
    def name(self) -> str:
        return self.server_info.name

    @property
    def version(self) -> str:
        return self.server_info.version

    @property
    def tools(self) -> Mapping[str, RegisteredTool]:
        """The registered tools by name, in registration order (read-only)."""
        return self.engine.tools.tools

    def get_tool(self, name: str) -> RegisteredTool | None:
        return self.engine.tools.get(name)

    @overload
    def tool(self, function: F, /) -> F: ...

    @overload
    def tool(self, **options: Unpack[ToolOptions]) -> Callable[[F], F]: ...

    def tool(self, function: Any = None, /, **options: Any) -> Any:  # type: ignore[misc]
        """Register a function as a tool: ``@server.tool`` or ``@server.tool(name=..., ...)``.

        The function is returned unchanged, so it stays callable and testable as it is. A function
        whose return annotation is a record or a frame with declared rows is a typed tool: its
        output schema is derived (``mcplite.output_schema``) and it answers with structured content;
        ``structured=False`` opts out, ``output_schema=`` overrides. ``input_schema=`` replaces the
        schema derived from the parameters with a hand-written one, listed as written and enforced.
        """
        if function is not None:
            self.add_tool(function, **options)
            return function

        def register(function: F) -> F:
            self.add_tool(function, **options)
            return function

        return register

    def add_tool(self, function: Callable[..., Any], **options: Unpack[ToolOptions]) -> RegisteredTool:
        """Register ``function`` as a tool (the options: :class:`ToolOptions`) and return how the
        server holds it; the clients that listen for tool list changes hear of it."""
        if options.get("wrap_rows") is None:
            options["wrap_rows"] = self.wrap_rows
        tool = self.engine.tools.add_tool(function, validate_output=self.validate_output, **options)
        if options.get("task") is not None and self.handlers.find("tasks/get") is None:
            for method in task_methods():
                self.handlers.add(method)
        self.notify_tools_changed()
        return tool

    # -- resources, prompts, completion (mcplite.features) ----------------------------------------------

    @property
    def resources(self) -> Mapping[str, RegisteredResource]:
        """The static resources by URI (read-only); :attr:`resource_templates` holds the templates."""
        return self.engine.offer.resources.resources

    @property
    def resource_templates(self) -> Mapping[str, RegisteredResource]:
        return self.engine.offer.resources.templates

    @property
    def prompts(self) -> Mapping[str, RegisteredPrompt]:
        return self.engine.offer.prompts.prompts

    def resource(self, uri: str, **options: Any) -> Callable[[F], F]:
        """Register a function as the resource at ``uri``, or a resource template when ``uri`` has
        ``{name}`` expressions (RFC 6570 level 1, each bound to the parameter of that name).

        Options: ``name``, ``title``, ``description``, ``mime_type``, ``annotations``, ``icons``,
        ``meta`` and ``complete`` (``{parameter: complete(value) -> list[str]}``). A ``str`` return
        is text, ``bytes`` a blob, anything else its jsonlite JSON (``application/json``).

        >>> server = McpServer("data")
        >>> @server.resource("data://columns/{name}")
        ... def column(name: str) -> list[str]:
        ...     return [name]
        >>> list(server.resource_templates), "resources" in server.capabilities()
        (['data://columns/{name}'], True)
        """

        def register(function: F) -> F:
            self.engine.offer.resources.add(function, uri, **options)
            self._offer_methods(resource_methods(), completion=bool(options.get("complete")))
            return function

        return register

    @overload
    def prompt(self, function: F, /) -> F: ...

    @overload
    def prompt(self, **options: Any) -> Callable[[F], F]: ...

    def prompt(self, function: Any = None, /, **options: Any) -> Any:  # type: ignore[misc]
        """Register a function as a prompt: ``@server.prompt`` or ``@server.prompt(name=..., ...)``.

        Options: ``name``, ``title``, ``description``, ``icons``, ``meta`` and ``complete``. A ``str``
        return is one user message; a list of messages (``PromptMessage``, dicts with role and
        content, strs, content blocks) is taken as it is.
        """

        def register(function: F) -> F:
            self.engine.offer.prompts.add(function, **options)
            self._offer_methods(prompt_methods(), completion=bool(options.get("complete")))
            self.notify_prompts_changed()
            return function

        return register(function) if function is not None else register

    def completion(self, function: F) -> F:
        """Register ``complete(ref, argument, value) -> list[str]``: completions for every prompt
        argument and template parameter without a ``complete=`` of its own."""
        self.engine.offer.completion = function
        self._offer_methods([], completion=True)
        return function

    def _offer_methods(self, methods: list[Any], *, completion: bool) -> None:
        for method in methods if methods and self.handlers.find(methods[0].name) is None else []:
            self.handlers.add(method)
        if completion and self.handlers.find("completion/complete") is None:
            self.handlers.add(completion_methods()[0])

    def notify_resources_changed(self) -> int:
        """Tell the clients that listen for it (legacy era: that listed resources) that the resource
        list changed; how many were told."""
        return self.engine.offer.subscriptions.list_changed("resources")

    def notify_resource_updated(self, uri: str) -> int:
        """Tell the clients subscribed to ``uri`` that it changed; how many were told."""
        return self.engine.offer.subscriptions.updated(uri)

    def notify_tools_changed(self) -> int:
        """Tell the clients listening with ``subscriptions/listen`` (2026-07-28) that the tool list
        changed; how many were told. Adding a tool does it."""
        return self.engine.offer.subscriptions.list_changed("tools")

    def notify_prompts_changed(self) -> int:
        """:meth:`notify_tools_changed` for the prompt list (adding a prompt does it)."""
        return self.engine.offer.subscriptions.list_changed("prompts")

    def capabilities(self) -> dict[str, Any]:
        """What this server offers (from its handler table): tools, and log messages to clients that ask."""
        return self.engine.capabilities()

    def list_tools_page(self, cursor: Any = None) -> ListToolsResult:
        """One page of the tool listing; ``cursor`` is the ``nextCursor`` of the page before."""
        return self.engine.tools.page(cursor, self.cache_ttl_ms, options_in_force())

    def asgi_app(self, **settings: Any) -> McpHttpApp:
        """This server's Streamable HTTP endpoint as an ASGI application, for any ASGI server.

        The keyword arguments are :class:`mcplite.http.HttpOptions`' (defined there once): ``path``,
        ``allowed_origins`` (browser origins added to the loopback ones; ``["*"]``: any),
        ``authenticate(token)`` (plain or async: accepts or refuses each request's bearer token),
        ``session_idle_timeout``, ``max_sessions`` and ``sse_keepalive``. See docs/http.md.

        >>> McpServer("demo").asgi_app().path
        '/mcp'
        """
        return McpHttpApp(self.engine, **settings)

    def run(
        self,
        transport: str = "stdio",
        *,
        host: str = "127.0.0.1",
        port: int = 8000,
        shutdown_grace: float = 5.0,
        **http_settings: Any,
    ) -> None:
        """Serve on stdio (the default) or, with ``transport="http"``, on ``http://host:port/mcp``.

        stdio serves until end of input, SIGINT or SIGTERM; calls in flight then get
        ``shutdown_grace`` seconds to finish and answer (a second signal cancels them at once). HTTP (the
        ``http`` extra: uvicorn) serves until SIGINT or SIGTERM, giving requests in flight
        ``shutdown_grace`` seconds; ``http_settings`` (``allowed_origins``, ``authenticate``, ...)
        are those of :meth:`asgi_app`.
        """
        if transport == "stdio":
            if http_settings:
                raise TypeError(f"McpServer.run: stdio takes no HTTP settings ({', '.join(http_settings)})")
            serve_stdio(self.engine, shutdown_grace=shutdown_grace)
        elif transport == "http":
            app = self.asgi_app(**http_settings)
            serve_http(app, host=host, port=port, shutdown_grace=shutdown_grace)
        else:
            raise ValueError(f"McpServer.run: transport must be 'stdio' or 'http', not {transport!r}")

    def __repr__(self) -> str:
        return f"McpServer({self.name!r}, version={self.version!r}, tools={list(self.tools)})"


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
