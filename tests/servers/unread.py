"""A server for tests/test_stdio_writes.py: large answers, and a tool that leaves a mark on disk.

``UNREAD_LIMIT`` sets ``mcplite.transports.stdio.MAX_UNWRITTEN`` (bytes) for the process.
"""

from __future__ import annotations

import asyncio
import os
from pathlib import Path

import mcplite
from mcplite.transports import stdio

server = mcplite.McpServer("unread")


@server.tool
def big(size: int) -> str:
    """A text of ``size`` bytes."""
    return "x" * size


@server.tool
async def mark_after(path: str, delay: float) -> str:
    """Waits ``delay`` seconds on the event loop, then creates the file ``path``: proof that the
    event loop went on serving meanwhile."""
    await asyncio.sleep(delay)
    Path(path).touch()
    return "marked"


if __name__ == "__main__":
    if "UNREAD_LIMIT" in os.environ:
        stdio.MAX_UNWRITTEN = int(os.environ["UNREAD_LIMIT"])
    server.run(shutdown_grace=1.0)
