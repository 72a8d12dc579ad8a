"""The methods every mcplite server answers, as handler-table entries (``tools/call`` is in
:mod:`mcplite.engine.calls`, ``subscriptions/listen`` in :mod:`mcplite.engine.listening`): the
legacy handshake, ``ping``, ``tools/list``, ``server/discover`` and ``logging/setLevel``.

>>> [method.name for method in standard_methods()][:3]
['initialize', 'ping', 'tools/list']
"""

from __future__ import annotations

from typing import Any

from mcplite.engine.calls import call_tool
from mcplite.engine.handlers import HandlerTable, Method, Request
from mcplite.engine.listening import listen_methods
from mcplite.protocol.jsonrpc import INVALID_PARAMS, RpcError
from mcplite.protocol.messages import DiscoverResult, InitializeResult
from mcplite.protocol.versions import (
    LATEST_LEGACY_VERSION,
    LEGACY_VERSIONS,
    LOG_LEVELS,
    SUPPORTED_VERSIONS,
    since,
)


def initialize(request: Request) -> dict[str, Any]:
    """The legacy handshake: agree on a version (the client's, if mcplite speaks it, else the latest)."""
    requested = request.params.get("protocolVersion")
    if not isinstance(requested, str):
        raise RpcError(INVALID_PARAMS, "Invalid params: initialize needs protocolVersion (a string)")
    version = requested if requested in LEGACY_VERSIONS else LATEST_LEGACY_VERSION
    request.session.legacy_version = version
    engine = request.engine
    capabilities = engine.capabilities("legacy")
    if not since(version, "2025-03-26"):  # completion/complete exists, its capability does not yet
        capabilities.pop("completions", None)
    result = InitializeResult(version, capabilities, engine.server_info, instructions=engine.instructions)
    return result.to_wire(version)


def ping(request: Request) -> dict[str, Any]:
    return {}


def list_tools(request: Request) -> dict[str, Any]:
    """One page of the tool listing; ``params.cursor`` is the ``nextCursor`` of the page before."""
    engine = request.engine
    return engine.tools.page(request.params.get("cursor"), engine.cache_ttl_ms, request.options).to_wire(
        request.version
    )


def discover(request: Request) -> dict[str, Any]:
    """``server/discover`` (2026-07-28): versions, capabilities, identity and caching hints."""
    engine = request.engine
    result = DiscoverResult(
        SUPPORTED_VERSIONS,
        engine.capabilities("modern"),
        engine.server_info,
        instructions=engine.instructions,
        ttl_ms=engine.cache_ttl_ms,
    )
    return result.to_wire(request.version)


def set_log_level(request: Request) -> dict[str, Any]:
    """``logging/setLevel``: the least severe level this connection's tools send from now on."""
    level = request.params.get("level")
    if level not in LOG_LEVELS:
        raise RpcError(INVALID_PARAMS, f"Invalid params: level must be one of {', '.join(LOG_LEVELS)}")
    request.session.log_level = level
    return {}


def standard_methods() -> list[Method]:
    """Every method of a tools server, each with the eras it is served in and its capability."""
    return [
        Method("initialize", initialize, frozenset({"legacy"}), opens_session=True),
        Method("ping", ping, frozenset({"legacy"}), before_initialize=True),
        Method("tools/list", list_tools, capability=("tools", {"listChanged": False})),
        Method("tools/call", call_tool, name_param="name"),
        Method("server/discover", discover, frozenset({"modern"})),
        Method("logging/setLevel", set_log_level, frozenset({"legacy"}), capability=("logging", {})),
        *listen_methods(),
    ]


def standard_table() -> HandlerTable:
    """A handler table holding :func:`standard_methods` (register more on it)."""
    return HandlerTable(standard_methods())
