"""Serving an :class:`~mcplite.transports.http.app.McpHttpApp` on uvicorn (the ``http`` extra)."""

from __future__ import annotations

import math

from mcplite.transports.http.app import McpHttpApp
from mcplite.transports.logs import log_to_stderr


def serve_http(
    app: McpHttpApp,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    shutdown_grace: float = 5.0,
    log_level: str = "info",
) -> None:
    """Serve the app on uvicorn until SIGINT or SIGTERM (blocking); needs the ``http`` extra.

    Requests in flight get ``shutdown_grace`` seconds to finish.
    """
    try:
        import uvicorn  # an optional dependency: imported only when HTTP is served
    except ImportError:
        raise RuntimeError("serving over HTTP needs uvicorn: pip install 'rvalues-mcplite[http]'") from None
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ValueError(f"port must be an integer from 0 to 65535, not {port!r}")
    log_to_stderr()
    uvicorn.run(
        app,
        host=host,
        port=port,
        log_level=log_level,
        timeout_graceful_shutdown=max(0, math.ceil(shutdown_grace)),
        lifespan="on",
    )
