"""The Streamable HTTP transport: an ASGI application serving one MCP endpoint (``/mcp``).

Both eras are served on the same endpoint, chosen per request as the specification says:

* a request whose ``params._meta`` names a protocol version (2026-07-28) is served statelessly,
  by whichever process receives it; its ``MCP-Protocol-Version``, ``Mcp-Method`` and ``Mcp-Name``
  headers must agree with the body (else 400, error -32020);
* ``initialize`` (2025-03-26 to 2025-11-25, and 2024-11-05 clients that speak Streamable HTTP)
  starts a session: the response carries ``Mcp-Session-Id``, later requests carry it back, an
  unknown session gets 404 and DELETE ends one. Sessions live in the memory of one process.

A request is answered with JSON, or with an SSE stream when it sends notifications (progress, log
messages) before its result. GET opens a legacy session's own stream, which carries what the
server sends of its accord (resource list changes and updates). At 2025-11-25 those SSE streams
are resumable (event ids, a priming event, replay on ``Last-Event-ID`` from an :class:`EventStore`,
a :class:`MemoryEventStore` by default), and a tool may end its own with ``ctx.close_sse_stream()``.

>>> import mcplite
>>> app = mcplite.McpServer("demo").asgi_app()
>>> app.path
'/mcp'

Run it with any ASGI server (``uvicorn module:app``), or with ``server.run(transport="http")``.
The transport lives in :mod:`mcplite.transports.http`; this module is where its public names are.
"""

from mcplite.transports.http.app import McpHttpApp
from mcplite.transports.http.events import EventStore, MemoryEventStore
from mcplite.transports.http.guards import Authenticate
from mcplite.transports.http.options import HttpOptions
from mcplite.transports.http.serve import serve_http

__all__ = ["Authenticate", "EventStore", "HttpOptions", "McpHttpApp", "MemoryEventStore", "serve_http"]
