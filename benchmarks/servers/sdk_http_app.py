"""The official SDK's ``MCPServer`` over Streamable HTTP with the tools of ``benchmarks/bench_http.py``.

Two ASGI app factories, for ``uvicorn --factory --workers 2 --app-dir benchmarks/servers``:
``sdk_http_app:stateless`` (``stateless_http=True``) and ``sdk_http_app:sessions`` (its session
mode), both with ``json_response=True``: a request that sends no notifications gets one
``application/json`` answer, as mcplite's does. The frame tools return what an SDK user would
write, ``df.to_dict(orient="records")``.

>>> import asyncio
>>> asyncio.run(server.call_tool("add", {"a": 1, "b": 2})).content[0].text
'3'
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer
from starlette.applications import Starlette

sys.path.insert(0, str(Path(__file__).resolve().parent))

from frame import make_frame

SMALL_ROWS = 100
FRAME = make_frame()
SMALL_FRAME = make_frame(SMALL_ROWS)
server = MCPServer("bench-sdk-http")


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def small_frame() -> list[dict[str, Any]]:
    """The 100-row data frame."""
    return SMALL_FRAME.to_dict(orient="records")


@server.tool()
def frame() -> list[dict[str, Any]]:
    """The 10,000-row data frame."""
    return FRAME.to_dict(orient="records")


def stateless() -> Starlette:
    """The SDK's stateless mode: no session; 2026-07-28 requests take its single-exchange path."""
    return server.streamable_http_app(stateless_http=True, json_response=True)


def sessions() -> Starlette:
    """The SDK's session mode: ``initialize`` opens a session named by ``Mcp-Session-Id``."""
    return server.streamable_http_app(stateless_http=False, json_response=True)
