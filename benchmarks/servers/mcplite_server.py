"""mcplite's ``McpServer`` on stdio with the two benchmark tools (see ``benchmarks/bench_server.py``)."""

from __future__ import annotations

import sys
from pathlib import Path

import pandas as pd

sys.path.insert(0, str(Path(__file__).resolve().parents[2]))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from frame import make_frame

import rvalues as rv
from mcplite import McpServer

FRAME = make_frame()
R_FRAME = rv.as_r(FRAME)  # the same frame as an R value, converted once at start-up
server = McpServer("bench-mcplite", version="1.0.0", result_budget=None)  # the whole frame, as the SDK sends


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


@server.resource("bench://rframe", mime_type="application/json")
def rframe_resource() -> rv.DataFrame:
    """The 10,000-row data frame as an R value, converted once (immutable: written once)."""
    return R_FRAME


if __name__ == "__main__":
    server.run()
