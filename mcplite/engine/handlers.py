"""The handler table: every MCP method a server answers is one :class:`Method` in one table.

A handler is a function of one :class:`Request`. It returns the result object (a dict of wire
values, or :class:`Written` when some members are JSON written already), or an awaitable of one:
then the request runs as its own task, which ``notifications/cancelled`` can cancel. It raises
:class:`~mcplite.protocol.jsonrpc.RpcError` to answer with a JSON-RPC error. From 2026-07-28
every result is stamped ``resultType: "complete"`` with the server's identity in ``_meta``; the
handler does not do it.

Adding a method is one registration; the transports, ``testing.Client`` and the capabilities the
server announces all follow the table:

>>> table = HandlerTable()
>>> @table.handler("example/echo", capability=("example", {}))
... def echo(request: Request) -> dict[str, Any]:
...     return {"echo": request.params.get("text")}
>>> table.find("example/echo", "modern").name, table.capabilities()
('example/echo', {'example': {}})

On a server: ``server.handlers.register("example/echo", echo)`` (or ``@server.handlers.handler(...)``).
"""

from __future__ import annotations

import threading
from collections.abc import Awaitable, Callable, Iterable, Mapping
from typing import Any, Literal, TypeAlias

import attrs

from mcplite.engine.workers import Workers
from mcplite.features.offer import Offer
from mcplite.features.result_store import ResultPolicy
from mcplite.features.task_store import TaskBackend, TaskStore
from mcplite.protocol.jsonrpc import RequestId
from mcplite.protocol.messages import Implementation
from mcplite.protocol.request_state import state_key as make_state_key
from mcplite.protocol.versions import CLIENT_CAPABILITIES_KEY
from mcplite.tools.asks import Asker
from mcplite.tools.frame_arguments import MAX_FRAME_CELLS
from mcplite.tools.registry import ToolRegistry
from rvalues.json import JsonOptions

Era = Literal["legacy", "modern"]
"""How a request is served: after an ``initialize`` handshake, or stateless (2026-07-28)."""

BOTH_ERAS: frozenset[Era] = frozenset({"legacy", "modern"})

Notify = Callable[[str, dict[str, Any]], None]
"""Send a notification (method, params) to the client of one request; safe from any thread."""


@attrs.frozen
class Written:
    """A result object whose members in ``raw`` are JSON written already: they go into the response
    line as bytes, never parsed or escaped again (``result`` holds the other members)."""

    result: dict[str, Any]
    raw: dict[str, bytes]


Result: TypeAlias = "dict[str, Any] | Written"
Reply: TypeAlias = "Result | Awaitable[Result | bytes]"
"""What a handler returns: a result, or an awaitable of one (or of the whole response line, written
already with :func:`mcplite.engine.lines.result_line`, as ``tools/call`` does off the event loop)."""


class Session:
    """What one connection remembers between requests: the legacy version agreed with
    ``initialize`` (None before it) and the log level set with ``logging/setLevel``."""

    def __init__(self) -> None:
        self.legacy_version: str | None = None
        self.log_level: str | None = None
        self.client_capabilities: dict[str, Any] = {}
        """What the client declared in ``initialize`` (what its tools may ask it)."""


@attrs.frozen
class Request:
    """One request as its handler sees it.

    ``version`` is the protocol version it is served under and ``era`` how; ``options`` the payload
    options in force when it arrived (read once, there); ``cancelled`` is set when the client
    cancels it; ``notify`` sends the client a notification tied to it (nothing once cancelled);
    ``asker`` sends what its context asks the client (:mod:`mcplite.engine.asking`); ``principal``
    is a hash of the bearer token it came with (None without one);
    ``announce`` sends the connection a notification tied to no request, later (list changes):
    stdio writes it out, HTTP sends it on the session's GET stream.
    """

    id: RequestId
    method: str
    params: dict[str, Any]
    version: str
    era: Era
    engine: Engine
    session: Session
    options: JsonOptions
    notify: Notify
    cancelled: threading.Event = attrs.field(factory=threading.Event)
    announce: Notify | None = None
    asker: Asker | None = None
    principal: str | None = None

    @property
    def client_capabilities(self) -> dict[str, Any]:
        """What the client can do: declared in ``initialize`` (legacy) or in the request's ``_meta``."""
        if self.era == "legacy":
            return self.session.client_capabilities
        found = self.meta.get(CLIENT_CAPABILITIES_KEY)
        return found if isinstance(found, dict) else {}

    @property
    def meta(self) -> dict[str, Any]:
        """``params._meta`` (``{}`` when absent or not an object)."""
        meta = self.params.get("_meta")
        return meta if isinstance(meta, dict) else {}


Handler = Callable[[Request], Reply]


@attrs.frozen
class Method:
    """One entry of the table: a method's handler, the eras it is served in, and what it adds to
    the capabilities (``(key, value)``, or None).

    ``name_param``: the parameter the 2026-07-28 ``Mcp-Name`` HTTP header mirrors (``tools/call``:
    ``name``; ``resources/read``: ``uri``; ``prompts/get``: ``name``).
    ``before_initialize``: a legacy client may send it before ``initialize`` (``ping``).
    ``opens_session``: it is the legacy handshake itself, answered before any version is agreed.
    ``refines``: changes the capabilities the other methods declared (``subscriptions/listen``
    adds ``listChanged`` to each list the server has), given them and returning them.
    """

    name: str
    handler: Handler
    eras: frozenset[Era] = BOTH_ERAS
    capability: tuple[str, dict[str, Any]] | None = None
    name_param: str | None = None
    before_initialize: bool = False
    opens_session: bool = False
    refines: Callable[[dict[str, Any]], dict[str, Any]] | None = None


class HandlerTable:
    """The methods a server answers, by name (``dict[str, Method]``)."""

    def __init__(self, methods: Iterable[Method] = ()) -> None:
        self._methods: dict[str, Method] = {}
        for method in methods:
            self.add(method)

    def add(self, method: Method) -> Method:
        """Add a method (replacing one of the same name)."""
        self._methods[method.name] = method
        return method

    def register(
        self,
        name: str,
        handler: Handler,
        *,
        eras: Iterable[Era] = BOTH_ERAS,
        capability: tuple[str, dict[str, Any]] | None = None,
        name_param: str | None = None,
        before_initialize: bool = False,
        opens_session: bool = False,
    ) -> Method:
        """Register ``handler`` for ``name``: the one step that makes a server answer a new method
        (the other fields are :class:`Method`'s)."""
        method = Method(
            name,
            handler,
            frozenset(eras),
            capability=capability,
            name_param=name_param,
            before_initialize=before_initialize,
            opens_session=opens_session,
        )
        return self.add(method)

    def handler(
        self,
        name: str,
        *,
        eras: Iterable[Era] = BOTH_ERAS,
        capability: tuple[str, dict[str, Any]] | None = None,
        name_param: str | None = None,
    ) -> Callable[[Handler], Handler]:
        """:meth:`register` as a decorator: ``@table.handler("resources/list", capability=...)``."""

        def register(function: Handler) -> Handler:
            self.register(name, function, eras=eras, capability=capability, name_param=name_param)
            return function

        return register

    def find(self, name: str, era: Era | None = None) -> Method | None:
        """The method called ``name`` (served in ``era``, if given), or None."""
        method = self._methods.get(name)
        if method is None or (era is not None and era not in method.eras):
            return None
        return method

    @property
    def methods(self) -> Mapping[str, Method]:
        return dict(self._methods)

    def capabilities(self, era: Era | None = None) -> dict[str, Any]:
        """The server's capabilities, from what its methods (served in ``era``, if given) declare."""
        found: dict[str, Any] = {}
        for method in self._methods.values():
            if method.capability is not None and (era is None or era in method.eras):
                key, value = method.capability
                found[key] = {**found.get(key, {}), **value}
        for method in self._methods.values():
            if method.refines is not None and (era is None or era in method.eras):
                found = method.refines(found)
        return found


class Engine:
    """What every connection of one server shares: its identity, tools, handler table, workers and
    limits. Transports are handed an engine (and make a connection per client), never the
    :class:`~mcplite.McpServer` facade.

    ``workers`` run sync tools off the event loop; ``mask_error_details``: an unexpected exception
    in a tool reaches the client as a generic message naming the tool; ``max_frame_argument_cells``
    bounds a frame argument (rows times columns); ``state_key`` signs the 2026-07-28
    ``requestState`` (default: ``$MCPLITE_STATE_KEY``, else random per process); ``ask_timeout``
    bounds a legacy ask's wait for the client.
    """

    def __init__(
        self,
        server_info: Implementation,
        handlers: HandlerTable,
        tools: ToolRegistry,
        workers: Workers,
        *,
        instructions: str | None = None,
        cache_ttl_ms: int = 60_000,
        max_message_size: int = 16 * 2**20,
        max_requests_in_flight: int = 1024,
        mask_error_details: bool = True,
        max_frame_argument_cells: int = MAX_FRAME_CELLS,
        state_key: str | bytes | None = None,
        ask_timeout: float = 300.0,
    ) -> None:
        self.server_info = server_info
        self.handlers = handlers
        self.tools = tools
        self.workers = workers
        self.instructions = instructions
        self.cache_ttl_ms = cache_ttl_ms
        self.max_message_size = max_message_size
        self.max_requests_in_flight = max_requests_in_flight
        self.max_frame_argument_cells = max_frame_argument_cells
        self.state_key = make_state_key(state_key)
        """Signs 2026-07-28 ``requestState`` (workers sharing it continue each other's calls)."""
        self.ask_timeout = ask_timeout
        """How long a legacy ask waits for the client's answer, in seconds."""
        self.offer = Offer(tools.page_size)
        """Resources, prompts, completion, subscriptions and lifespan (:mod:`mcplite.features`)."""
        self.mask_error_details = mask_error_details
        self.results = ResultPolicy()
        """The result budget, the hard cap on a result's line and the store of cut results' rest."""
        self.tasks: TaskStore | TaskBackend = TaskStore()
        """The tasks of tools run as tasks (:mod:`mcplite.engine.tasks`), in memory."""
        self._server_info_wire: dict[str, dict[str, Any]] = {}

    def capabilities(self, era: Era | None = None) -> dict[str, Any]:
        """What this server offers (in ``era``, if given), from its handler table."""
        return self.handlers.capabilities(era)

    def server_info_wire(self, protocol_version: str) -> dict[str, Any]:
        """``serverInfo`` as ``protocol_version`` writes it (made once per version; do not change it)."""
        found = self._server_info_wire.get(protocol_version)
        if found is None:
            found = self._server_info_wire[protocol_version] = self.server_info.to_wire(protocol_version)
        return found

    def __repr__(self) -> str:
        return f"Engine({self.server_info.name!r}, methods={list(self.handlers.methods)})"
