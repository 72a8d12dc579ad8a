"""Serving an :class:`~mcplite.transports.http.app.McpHttpApp` on uvicorn (the ``http`` extra)."""

from __future__ import annotations

import logging
import math
import sys
from types import FrameType

from mcplite.transports.http.app import McpHttpApp
from mcplite.transports.http.headers import is_loopback
from mcplite.transports.logs import log_to_stderr

log = logging.getLogger("mcplite.server")

STARTUP_FAILURE = 3
"""The exit status of a server that did not start (uvicorn's own)."""


def serve_http(
    app: McpHttpApp,
    *,
    host: str = "127.0.0.1",
    port: int = 8000,
    shutdown_grace: float = 5.0,
    log_level: str = "info",
) -> None:
    """Serve the app on uvicorn until SIGINT or SIGTERM (blocking); needs the ``http`` extra.

    Requests in flight get ``shutdown_grace`` seconds to finish; ``subscriptions/listen``
    requests are answered (their graceful end) as soon as the signal arrives.
    """
    try:
        import uvicorn  # late: an optional dependency, imported only when HTTP is served
    except ImportError:
        raise RuntimeError("serving over HTTP needs uvicorn: pip install 'rvalues-mcplite[http]'") from None
    if isinstance(port, bool) or not isinstance(port, int) or not 0 <= port <= 65535:
        raise ValueError(f"port must be an integer from 0 to 65535, not {port!r}")
    log_to_stderr()
    if not is_loopback(host) and app.options.authenticate is None:
        warn_everywhere(exposure_warning(host, port))
    subscriptions = app.engine.offer.subscriptions

    class Server(uvicorn.Server):
        """uvicorn's server, which first ends the listen streams when told to stop: uvicorn tells an
        application nothing until the requests in flight are over."""

        def handle_exit(self, sig: int, frame: FrameType | None) -> None:
            if not self.should_exit:
                subscriptions.end_streams()
            super().handle_exit(sig, frame)

    config = uvicorn.Config(
        app,
        host=host,
        port=port,
        log_level=log_level,
        timeout_graceful_shutdown=max(0, math.ceil(shutdown_grace)),
        lifespan="on",
    )
    server = Server(config)
    try:
        server.run()
    except KeyboardInterrupt:  # uvicorn raises a captured SIGINT again as it exits
        pass
    if not server.started:  # the port was taken, or the lifespan failed: as uvicorn.run exits
        sys.exit(STARTUP_FAILURE)


def exposure_warning(host: str, port: int) -> str:
    """What to say when a server with no authentication listens beyond this machine.

    >>> exposure_warning("0.0.0.0", 8000)[:60]
    'serving http://0.0.0.0:8000 beyond this machine with no auth'
    """
    shown = f"[{host}]" if ":" in host else host
    return (
        f"serving http://{shown}:{port} beyond this machine with no authentication: anyone who can "
        "reach the port can call every tool. Require a bearer token (mcplite serve --http --token-env "
        "NAME, or authenticate= in Python), or serve on 127.0.0.1 behind a proxy that checks callers."
    )


def warn_everywhere(message: str) -> None:
    """Log a warning, and write it to stderr as well unless the log already goes there."""
    log.warning(message)
    if not _logs_to_stderr(log):
        print(f"mcplite: warning: {message}", file=sys.stderr)


def _logs_to_stderr(logger: logging.Logger) -> bool:
    """Whether a warning of ``logger`` is written to ``sys.stderr`` by a handler on its way up."""
    if not logger.isEnabledFor(logging.WARNING):
        return False
    current: logging.Logger | None = logger
    while current is not None:
        for handler in current.handlers:
            stream = getattr(handler, "stream", None)
            if stream is sys.stderr and handler.level <= logging.WARNING:
                return True
        current = current.parent if current.propagate else None
    return False
