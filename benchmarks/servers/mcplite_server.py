"""mcplite's ``McpServer`` on stdio with the two benchmark tools (see ``benchmarks/bench_server.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from frame import make_frame

from mcplite import McpServer

FRAME = make_frame()
server = McpServer("bench-mcplite", version="1.0.0")


@server.tool
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool
def frame() -> pd.DataFrame:
    """The 10,000-row data frame."""
    return FRAME


@server.resource("bench://frame", mime_type="application/json")
def frame_resource() -> pd.DataFrame:
    """The 10,000-row data frame as a resource (its jsonlite JSON)."""
    return FRAME


if __name__ == "__main__":
    server.run()
