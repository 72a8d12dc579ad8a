"""An MCP server whose tools say that its resources, prompts and tools changed, for the
``subscriptions/listen`` tests (tests/test_mcplite_listen.py).

Run it as a script (``python tests/servers/listening.py``: stdio; ``... http PORT``: HTTP), or serve
``server.asgi_app()``.
"""

from __future__ import annotations

import os
import signal
import sys

import mcplite

server = mcplite.McpServer("listening", version="1.0.0")


@server.resource("notes://one", mime_type="text/plain")
def one() -> str:
    return "one"


@server.resource("notes://two", mime_type="text/plain")
def two() -> str:
    return "two"


@server.resource("notes://pages/{n}", mime_type="text/plain")
def page(n: str) -> str:
    return f"page {n}"


@server.prompt
def summarize(topic: str) -> str:
    """Summarize a topic."""
    return f"Summarize {topic}."


@server.tool
def change(what: str, uri: str = "") -> int:
    """Say that something changed (``resources``, ``prompts``, ``tools`` or ``updated`` with a
    URI): how many listeners were told."""
    if what == "updated":
        return server.notify_resource_updated(uri)
    return {
        "resources": server.notify_resources_changed,
        "prompts": server.notify_prompts_changed,
        "tools": server.notify_tools_changed,
    }[what]()


@server.tool
def listeners() -> int:
    """How many subscriptions/listen requests are open."""
    return server.engine.offer.subscriptions.streams


@server.tool
def stop() -> bool:
    """Stop this server as SIGTERM does (stdio only: it signals its own process)."""
    os.kill(os.getpid(), signal.SIGTERM)
    return True


if __name__ == "__main__":
    if sys.argv[1:2] == ["http"]:  # python tests/servers/listening.py http PORT
        server.run(transport="http", port=int(sys.argv[2]), shutdown_grace=60)
    else:
        server.run()
