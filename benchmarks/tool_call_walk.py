"""The walk of one ``tools/call``: from the request line in to the response bytes out, every call
into mcplite's and rvalues' own functions, traced with ``sys.settrace``.

Prints, for a tool whose output schema makes its dict the structured content and for one returning
an R list as plain text: the stops (function calls), the files they are in, and how often the walk
returns to a file it had left. Run it on any checkout (``PYTHONPATH=<checkout> python
benchmarks/tool_call_walk.py``): it drives whichever ``Connection`` that checkout has.
"""

from __future__ import annotations

import asyncio
import json
import sys
import threading
from pathlib import Path
from types import FrameType
from typing import Any

import mcplite
import rvalues as rv

try:  # the layered mcplite
    from mcplite.engine.connection import Connection

    def connect(server: Any, write: Any) -> Any:
        return Connection(server.engine, write)
except ImportError:  # the flat mcplite before it
    from mcplite.dispatch import Connection  # type: ignore[import-not-found,no-redef]

    def connect(server: Any, write: Any) -> Any:
        return Connection(server, write)


ROOTS = tuple(str(Path(module.__file__).parent) for module in (mcplite, rv))  # type: ignore[arg-type]
META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}


def server() -> mcplite.McpServer:
    made = mcplite.McpServer("walk")

    @made.tool(output_schema={"type": "object"})
    def structured() -> Any:
        return {"id": 1, "name": "a", "ok": None}

    @made.tool
    def plain() -> Any:
        return rv.r_list(id=1, name="a", x=rv.NA_real_)

    return made


def counts(stops: list[str]) -> dict[str, int]:
    """Stops, files, and returns to a file the walk had left (consecutive stops in one file are one visit)."""
    visits = stops[:1]
    for name in stops[1:]:
        if name != visits[-1]:
            visits.append(name)
    returns = sum(1 for i, name in enumerate(visits) if name in visits[:i])
    return {"stops": len(stops), "files": len(set(stops)), "returns to a file left": returns}


def walk(tool: str) -> dict[str, dict[str, int]]:
    """Trace one call of ``tool``, after a warm-up call on another server (so imports and caches are
    not counted, and the traced server starts its worker thread while the trace is on)."""
    stops: list[str] = []

    def tracer(frame: FrameType, event: str, arg: Any) -> Any:
        if event == "call" and frame.f_code.co_filename.startswith(ROOTS):
            stops.append(f"{frame.f_code.co_filename}:{frame.f_code.co_name}")
        return None

    async def main() -> None:
        lines: list[bytes] = []
        for request_id, traced in ((1, False), (2, True)):
            connection = connect(server(), lines.append)
            params = {"name": tool, "arguments": {}, "_meta": META}
            line = json.dumps({"jsonrpc": "2.0", "id": request_id, "method": "tools/call", "params": params})
            if traced:
                threading.settrace(tracer)
                sys.settrace(tracer)
            connection.receive(line.encode())
            while len(lines) < request_id:
                await asyncio.sleep(0.001)
            sys.settrace(None)
            threading.settrace(None)  # type: ignore[arg-type]

    asyncio.run(main())
    files = [stop.rpartition(":")[0] for stop in stops]
    # the tool-return walk: from the return value (to_result) to the bytes written
    returned = next(i for i, stop in enumerate(stops) if stop.endswith(":to_result"))
    mcplite_only = [name for name in files if name.startswith(ROOTS[0])]
    return {
        "request": counts(files),
        "request, mcplite only": counts(mcplite_only),
        "tool return": counts(files[returned:]),
        "tool return, mcplite only": counts([name for name in files[returned:] if name.startswith(ROOTS[0])]),
        "hidden state": {
            "payload option reads": sum(stop.endswith(":jsonlite_options") for stop in stops),
            "JSON read back": sum(stop.endswith(":read_json") for stop in stops),
        },
    }


if __name__ == "__main__":
    for tool in ("structured", "plain"):
        for part, found in walk(tool).items():
            print(f"{tool:<10} {part:<26} {found}")
