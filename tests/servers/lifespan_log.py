"""A server whose lifespan writes ``enter <pid>`` and ``leave <pid>`` lines to the file named by
``MCPLITE_LIFESPAN_LOG``, for tests/test_server_lifespan.py (``uvicorn --workers 2 --factory
tests.servers.lifespan_log:http_app``)."""

from __future__ import annotations

import contextlib
import os
from collections.abc import AsyncIterator
from typing import Any

import mcplite


def _log(event: str) -> None:
    with open(os.environ["MCPLITE_LIFESPAN_LOG"], "a", encoding="utf-8") as log:
        log.write(f"{event} {os.getpid()}\n")


@contextlib.asynccontextmanager
async def lifespan(server: mcplite.McpServer) -> AsyncIterator[dict[str, Any]]:
    _log("enter")
    try:
        yield {"pid": os.getpid()}
    finally:
        _log("leave")


server = mcplite.McpServer("lifespan-log", lifespan=lifespan)


@server.tool
def worker(ctx: mcplite.Context) -> list[int]:
    """This process's id, and the one the lifespan state holds."""
    return [os.getpid(), ctx.lifespan_state["pid"]]


def http_app() -> mcplite.http.McpHttpApp:
    return server.asgi_app()


if __name__ == "__main__":
    server.run()
