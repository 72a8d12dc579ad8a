"""The official SDK's ``MCPServer`` on stdio with the benchmark tools (see ``benchmarks/bench_server.py``)
and the frame as a resource (``benchmarks/bench_resources.py``).

The frame tool returns what an SDK user would write, ``df.to_dict(orient="records")``: the SDK
serialises the records itself (pydantic), with no say on NaN or time stamps. ``frame_text`` is the
fastest way found to return the same frame: pandas' own JSON text, without a structured copy.
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

from mcp.server.mcpserver import MCPServer

sys.path.insert(0, str(Path(__file__).resolve().parent))

from frame import make_frame

FRAME = make_frame()
server = MCPServer("bench-sdk")


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def frame() -> list[dict[str, Any]]:
    """The 10,000-row data frame."""
    return FRAME.to_dict(orient="records")


@server.tool(structured_output=False)
def frame_text() -> str:
    """The 10,000-row data frame as pandas' JSON records (one text block, no structured copy)."""
    return FRAME.to_json(orient="records", date_format="iso", date_unit="s")


@server.resource("bench://frame", mime_type="application/json")
def frame_resource() -> str:
    """The 10,000-row data frame as a resource: ``df.to_json()``, as an SDK user would write it
    (time stamps as ISO text, as mcplite writes them, not pandas' epoch milliseconds)."""
    return FRAME.to_json(date_format="iso")


if __name__ == "__main__":
    server.run()
