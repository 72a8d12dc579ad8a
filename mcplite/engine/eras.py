"""Which protocol version a request is served under, and in which era, or the error that refuses it.

A request whose ``params._meta`` names ``io.modelcontextprotocol/protocolVersion`` is served
statelessly under that version (2026-07-28), whatever came before it; any other request is served
under the version its connection agreed with ``initialize``. Which methods each era has is the
handler table's to say.

>>> from mcplite.engine.handlers import HandlerTable, Session
>>> table = HandlerTable()
>>> _ = table.register("ping", lambda request: {}, before_initialize=True)
>>> served_as(table, "ping", {}, Session())
('2025-11-25', 'legacy')
"""

from __future__ import annotations

from typing import Any

from mcplite.engine.handlers import Era, HandlerTable, Session
from mcplite.protocol.checks import cut
from mcplite.protocol.jsonrpc import INVALID_PARAMS, METHOD_NOT_FOUND, UNSUPPORTED_PROTOCOL_VERSION, RpcError
from mcplite.protocol.versions import (
    CLIENT_CAPABILITIES_KEY,
    LATEST_LEGACY_VERSION,
    LOG_LEVEL_KEY,
    LOG_LEVELS,
    MODERN_VERSIONS,
    PROTOCOL_VERSION_KEY,
    SUPPORTED_VERSIONS,
)


def served_as(table: HandlerTable, method: str, params: dict[str, Any], session: Session) -> tuple[str, Era]:
    """The version and era ``method`` is served in, or the RpcError that refuses it."""
    meta = params.get("_meta")
    if isinstance(meta, dict) and PROTOCOL_VERSION_KEY in meta:
        return modern_method(table, method, meta), "modern"
    entry = table.find(method, "legacy")
    if entry is None:
        raise RpcError(METHOD_NOT_FOUND, f"Method not found: {cut(method)}", cut(method))
    if session.legacy_version is None:
        if entry.before_initialize:
            return LATEST_LEGACY_VERSION, "legacy"
        raise RpcError(
            INVALID_PARAMS,
            f"Invalid request: {method} before initialize; send initialize first, or name a protocol "
            f"version in params._meta[{PROTOCOL_VERSION_KEY!r}] ({', '.join(MODERN_VERSIONS)})",
        )
    return session.legacy_version, "legacy"


def modern_method(table: HandlerTable, method: str, meta: dict[str, Any]) -> str:
    """The version a 2026-07-28 request names, once its ``_meta`` is checked and ``method`` found
    among the methods of that era (``initialize`` is not one: -32601).

    >>> from mcplite.engine.methods import standard_table
    >>> meta = {PROTOCOL_VERSION_KEY: "2026-07-28", CLIENT_CAPABILITIES_KEY: {}}
    >>> modern_method(standard_table(), "server/discover", meta)
    '2026-07-28'
    >>> modern_method(standard_table(), "initialize", meta)
    Traceback (most recent call last):
    ...
    mcplite.protocol.jsonrpc.RpcError: Method not found: initialize (protocol 2026-07-28)
    """
    version = modern_version(meta)
    if table.find(method, "modern") is None:
        raise RpcError(METHOD_NOT_FOUND, f"Method not found: {cut(method)} (protocol {version})", cut(method))
    return version


def modern_version(meta: dict[str, Any]) -> str:
    """The version a 2026-07-28 request names, once its ``_meta`` is checked."""
    requested = meta[PROTOCOL_VERSION_KEY]
    if not isinstance(requested, str):
        raise RpcError(INVALID_PARAMS, f"Invalid params: _meta[{PROTOCOL_VERSION_KEY!r}] must be a string")
    if requested not in MODERN_VERSIONS:
        data = {"supported": SUPPORTED_VERSIONS, "requested": cut(requested)}
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
