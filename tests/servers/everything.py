"""An MCP server with every kind of tool, for the end-to-end tests (tests/test_server_*.py).

Run it as a script (``python tests/servers/everything.py``); the tests import it too, to compute the
text a tool's value must arrive as (``mcplite.as_tool_result(value)``) instead of typing it by hand.

Environment variables (for the raw-protocol tests):

* ``EVERYTHING_PAGE_SIZE``: tools per ``tools/list`` page (default 100: one page);
* ``EVERYTHING_MAX_MESSAGE_SIZE``: the largest incoming message in bytes (default 16 MiB);
* ``EVERYTHING_SHUTDOWN_GRACE``: seconds calls in flight get after end of input or a signal (default 5).
"""

from __future__ import annotations

import asyncio
import dataclasses
import enum
import os
import sys
import threading
import time
from typing import Any, Literal, TypedDict

import mcplite
import rvalues as rv
from mcplite import Context, Icon, McpServer, ToolAnnotations
from mcplite.http import McpHttpApp

PNG = bytes.fromhex(
    "89504e470d0a1a0a0000000d4948445200000001000000010806000000"
    "1f15c4890000000d49444154789c6360f8cfc000000301010018dd8db40000000049454e44ae426082"
)
WAV = b"RIFF$\x00\x00\x00WAVEfmt "
ICON = Icon("data:image/png;base64,iVBORw0KGgo=", mime_type="image/png", sizes=("16x16",))

server = McpServer(
    "everything",
    version="1.2.3",
    title="Everything",
    instructions="A server with every kind of tool, for tests.",
    page_size=int(os.environ.get("EVERYTHING_PAGE_SIZE", "100")),
    max_message_size=int(os.environ.get("EVERYTHING_MAX_MESSAGE_SIZE", str(16 * 2**20))),
)


# -- arguments of many kinds --------------------------------------------------------------------------


class Color(enum.Enum):
    RED = "red"
    BLUE = "blue"


@dataclasses.dataclass
class Point:
    x: float
    y: float


class Movie(TypedDict):
    title: str
    year: int


@server.tool
def add(a: int, b: int = 2) -> int:
    """Add two integers.

    This paragraph is not part of the description.
    """
    return a + b


@server.tool
async def async_add(a: float, b: float) -> float:
    """Add two numbers, asynchronously."""
    await asyncio.sleep(0)
    return a + b


@server.tool
def kinds(
    i: int,
    x: float,
    s: str,
    flag: bool,
    maybe: int | None = None,
    mode: Literal["fast", "slow"] = "fast",
    color: Color = Color.RED,
    items: list[int] | None = None,
    weights: dict[str, float] | None = None,
    point: Point | None = None,
    movie: Movie | None = None,
) -> dict[str, Any]:
    """Echo every argument back, with the Python type each one arrived as."""
    return {
        "i": i,
        "x": x,
        "s": s,
        "flag": flag,
        "maybe": maybe,
        "mode": mode,
        "color": color.value,
        "items": items,
        "weights": weights,
        "point": None if point is None else dataclasses.asdict(point),
        "movie": movie,
        "types": {
            "i": type(i).__name__,
            "x": type(x).__name__,
            "color": type(color).__name__,
            "point": type(point).__name__,
            "movie": type(movie).__name__,
        },
    }


# -- return values of every kind ----------------------------------------------------------------------


def data_frame() -> rv.DataFrame:
    """An R data frame with NA and NaN (jsonlite leaves NA cells out of row objects)."""
    return rv.data_frame(
        x=rv.c(1.5, rv.NA_real_, float("nan")),
        s=rv.c("a", rv.NA_character_, "c"),
        n=rv.c(1, rv.NA_integer_, 3),
    )


def numpy_array() -> Any:
    import numpy as np  # imported on first use: the server starts faster without pandas and numpy

    return np.array([1.0, np.nan, 3.0, np.inf])


def pandas_frame() -> Any:
    import pandas as pd

    return pd.DataFrame({"a": [1.0, None, 3.5], "b": ["x", None, "z"]})


RETURNS: dict[str, Any] = {
    "return_str": lambda: "plain text\nwith a second line, ünïcode and \u2603",
    "return_character": lambda: rv.c("a", "b"),
    "return_dict": lambda: {"a": 1, "b": [1, 2], "c": {"d": None}, "e": "x"},
    "return_list": lambda: [1, "x", None, 2.5, True],
    "return_none": lambda: None,
    "return_frame": data_frame,
    "return_numpy": numpy_array,
    "return_pandas": pandas_frame,
    "return_nan": lambda: float("nan"),
}
"""Tools that take no arguments and return one value each, by tool name."""


def _returning(name: str) -> None:
    make = RETURNS[name]

    def tool() -> Any:
        return make()

    tool.__name__ = name
    tool.__doc__ = f"Return the value {name} stands for."
    server.add_tool(tool)


for _name in RETURNS:
    _returning(_name)


@server.tool
async def async_frame() -> rv.DataFrame:
    """The data frame, from an async tool."""
    return data_frame()


STATS_SCHEMA: dict[str, Any] = {
    "type": "object",
    "properties": {"n": {"type": "integer"}, "squares": {"type": "array", "items": {"type": "integer"}}},
    "required": ["n", "squares"],
}


def stats_value(n: int) -> dict[str, Any]:
    return {"n": n, "squares": [i * i for i in range(n)]}


@server.tool(output_schema=STATS_SCHEMA)
def stats(n: int = 3) -> dict[str, Any]:
    """Structured content that matches the output schema."""
    return stats_value(n)


@server.tool
def array_structured() -> mcplite.CallToolResult:
    """Structured content that is not an object (kept only from 2026-07-28 on)."""
    return mcplite.tool_result(structured_content=[1, 2])


def blocks_value() -> mcplite.CallToolResult:
    return mcplite.tool_result(
        [
            mcplite.content_text("some text", annotations={"audience": ["user"], "priority": 0.5}),
            mcplite.content_image(PNG, "image/png"),
            mcplite.content_audio(WAV, "audio/wav"),
            mcplite.content_resource_link(
                "file:///tmp/report.csv", "report.csv", description="The report", mime_type="text/csv"
            ),
            mcplite.content_resource("file:///tmp/a.txt", text="embedded text", mime_type="text/plain"),
            mcplite.content_resource("file:///tmp/b.bin", blob=b"\x00\x01\x02", mime_type="application/x-b"),
        ]
    )


@server.tool
def blocks() -> mcplite.CallToolResult:
    """One content block of each kind."""
    return blocks_value()


@server.tool
def fail(message: str = "it broke") -> str:
    """Raise ToolError with this message (for the client)."""
    raise mcplite.ToolError(message)


@server.tool
async def async_fail(message: str = "async broke") -> str:
    """Raise ToolError with this message, asynchronously."""
    raise mcplite.ToolError(message)


@server.tool
def crash(message: str = "db password is hunter2") -> str:
    """Raise RuntimeError with this message (unexpected: masked for the client)."""
    raise RuntimeError(message)


@server.tool
def noisy() -> str:
    """Write to stdout three ways (print, sys.stdout.buffer, file descriptor 1) and return 'quiet'."""
    print("print() from a tool")
    sys.stdout.write('{"jsonrpc":"2.0","id":"fake","result":{}}\n')
    sys.stdout.flush()
    sys.stdout.buffer.write(b"bytes to stdout\n")
    sys.stdout.flush()
    os.write(1, b"os.write to fd 1\n")
    return "quiet"


@server.tool
def progress(steps: int, ctx: Context) -> str:
    """Report progress ``steps`` times and log at several levels."""
    ctx.debug("debug line")
    for i in range(steps):
        ctx.report_progress(i + 1, total=steps, message=f"step {i + 1}")
    ctx.info({"done": steps}, logger="everything")
    ctx.warning("careful")
    return f"{steps} steps"


@server.tool
async def async_progress(steps: int, ctx: Context) -> str:
    """Report progress from an async tool."""
    for i in range(steps):
        ctx.report_progress(i + 1, total=steps)
        await asyncio.sleep(0)
    ctx.info("async done")
    return f"{steps} steps"


@server.tool
def version(ctx: Context) -> str:
    """The protocol version the call is served under."""
    return ctx.protocol_version


_seen_lock = threading.Lock()
_cancelled_seen: dict[str, int] = {"hang": 0, "async_hang": 0}
_started: dict[str, int] = {"hang": 0, "async_hang": 0}


def _count(counts: dict[str, int], name: str) -> None:
    with _seen_lock:
        counts[name] += 1


@server.tool
def hang(ctx: Context, limit: float = 30.0) -> str:
    """Loop until cancelled (or ``limit`` seconds pass)."""
    _count(_started, "hang")
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        if ctx.cancelled:
            _count(_cancelled_seen, "hang")
            return "cancelled (this answer must never be sent)"
        time.sleep(0.005)
    return "not cancelled"


@server.tool
async def async_hang(limit: float = 30.0) -> str:
    """Sleep until cancelled (or ``limit`` seconds pass)."""
    _count(_started, "async_hang")
    try:
        await asyncio.sleep(limit)
    except asyncio.CancelledError:
        _count(_cancelled_seen, "async_hang")
        raise
    return "not cancelled"


@server.tool
def cancelled_seen() -> dict[str, int]:
    """How many hanging calls have seen their cancellation so far."""
    with _seen_lock:
        return dict(_cancelled_seen)


@server.tool
def calls_started() -> dict[str, int]:
    """How many hanging calls have started so far (a test cancels a call only once it runs)."""
    with _seen_lock:
        return dict(_started)


@server.tool
def slow(seconds: float) -> str:
    """Sleep, then answer."""
    time.sleep(seconds)
    return f"slept {seconds}"


def na_value() -> rv.RValue:
    return rv.r_list(x=rv.NA_real_, s=rv.NA_character_)


@server.tool
def options_sync(na: Literal["null", "string"], delay: float = 0.3) -> mcplite.CallToolResult:
    """Build the result under ``with mcplite.options(json_na=na)``, sleeping inside the block."""
    with mcplite.options(json_na=na):
        time.sleep(delay)
        return mcplite.as_tool_result(na_value())


@server.tool
async def options_async(na: Literal["null", "string"], delay: float = 0.3) -> mcplite.CallToolResult:
    """The async twin of options_sync."""
    with mcplite.options(json_na=na):
        await asyncio.sleep(delay)
        return mcplite.as_tool_result(na_value())


@server.tool
def unsendable() -> Any:
    """Return a value that cannot become JSON."""
    return object()


@server.tool(
    name="fancy.tool-1",
    title="Fancy tool",
    description="A tool with every listing field.",
    annotations=ToolAnnotations(title="Fancy (annotation)", read_only_hint=True, open_world_hint=False),
    output_schema={"type": "object", "properties": {"ok": {"type": "boolean"}}, "required": ["ok"]},
    icons=[ICON],
    meta={"com.example/owner": "tests"},
)
def fancy() -> dict[str, bool]:
    return {"ok": True}


@server.tool
def pid() -> int:
    """The id of the answering process (tells the workers of a multi-worker HTTP server apart)."""
    return os.getpid()


def http_app() -> McpHttpApp:
    """The server's Streamable HTTP app: ``uvicorn --factory tests.servers.everything:http_app``.

    ``EVERYTHING_SSE_KEEPALIVE`` sets the seconds between SSE keep-alive comments (default 15).
    """
    return server.asgi_app(sse_keepalive=float(os.environ.get("EVERYTHING_SSE_KEEPALIVE", "15")))


if __name__ == "__main__":
    server.run(shutdown_grace=float(os.environ.get("EVERYTHING_SHUTDOWN_GRACE", "5")))
