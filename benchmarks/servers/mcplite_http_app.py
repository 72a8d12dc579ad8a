"""mcplite's ``McpServer`` over Streamable HTTP with the benchmark tools (``benchmarks/bench_http.py``).

An ASGI app factory, for ``uvicorn --factory --workers 2 --app-dir benchmarks/servers
mcplite_http_app:app``: one app serves both eras, stateless 2026-07-28 requests and legacy
sessions opened by ``initialize``.

>>> from mcplite.payload.rjson import options_in_force
>>> server.get_tool("add").to_result(add(1, 2), options_in_force()).content[0].text
'3'
"""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from frame import make_frame

from mcplite import McpServer
from mcplite.http import McpHttpApp

SMALL_ROWS = 100
FRAME = make_frame()
SMALL_FRAME = make_frame(SMALL_ROWS)
server = McpServer("bench-mcplite-http", version="1.0.0", result_budget=None)  # the whole frame, as the SDK


@server.tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool
def small_frame() -> pd.DataFrame:
    """The 100-row data frame."""
    return SMALL_FRAME


@server.tool
def frame() -> pd.DataFrame:
    """The 10,000-row data frame."""
    return FRAME


def app() -> McpHttpApp:
    """The ASGI app (endpoint ``/mcp``)."""
    return server.asgi_app()
