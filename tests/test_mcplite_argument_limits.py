"""Tool arguments off the event loop, and the bounds and messages of frame arguments: a
frame argument is read in a worker thread (a 15 MiB table held every other client 3.5-10 s), within
``max_frame_argument_cells``; an integer beyond R's range and a cell that is none of its factor's
levels say where they are and what to send instead.
"""

from __future__ import annotations

import dataclasses
import subprocess
import threading
import time
from typing import Annotated, Any, Literal

import pytest

import mcplite
import rvalues as rv
from mcplite.testing import Client, RequestError
from mcplite.tools import structuring
from mcplite.tools.annotations import holds_frame
from tests.conftest import RSCRIPT, requires_r

SLOW = 1.0
"""How long reading the frame argument takes in the stall test (a sleep: it lets the GIL go)."""


@dataclasses.dataclass
class Row:
    g: str
    n: int
    size: Literal["low", "high"] | None = None


Rows = Annotated[rv.DataFrame, mcplite.Rows(Row)]


def frame_server(**options: Any) -> mcplite.McpServer:
    server = mcplite.McpServer("frames", **options)

    @server.tool
    def count(rows: Rows) -> int:
        """How many rows."""
        return len(rows.row_names)

    @server.tool
    async def count_async(rows: Rows) -> int:
        """How many rows (an async tool)."""
        return len(rows.row_names)

    return server


@pytest.mark.parametrize("tool", ["count", "count_async"])
def test_a_frame_argument_is_read_in_a_worker_while_the_loop_serves_others(
    tool: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Reading the rows is made slow: the call's own thread reads them, and a ping sent meanwhile is
    answered at once (it waited for the whole read when the loop read the rows)."""
    read_in: list[str] = []
    read = structuring.rows_to_frame

    def slow_read(shape: Any, value: Any) -> Any:
        read_in.append(threading.current_thread().name)
        time.sleep(SLOW)
        return read(shape, value)

    monkeypatch.setattr(structuring, "rows_to_frame", slow_read)
    results: list[Any] = []
    with Client(frame_server(), "2025-11-25") as client:
        call = threading.Thread(
            target=lambda: results.append(client.call_tool(tool, {"rows": [{"g": "a", "n": 1}]}))
        )
        call.start()
        deadline = time.monotonic() + 10
        while not read_in:
            assert time.monotonic() < deadline, "the frame argument was never read"
            time.sleep(0.01)
        start = time.monotonic()
        client.request("ping")
        waited = time.monotonic() - start
        call.join(10)
    assert read_in[0].startswith("mcplite-worker")
    assert waited < SLOW / 2
    assert results[0].text == "1" and not results[0].is_error


def test_a_frame_past_max_frame_argument_cells_is_refused_naming_the_limit() -> None:
    """3 columns: 2 rows are 6 cells, at the limit; 3 rows are 9, past it."""
    server = frame_server(max_frame_argument_cells=6)
    two = [{"g": "a", "n": 1}, {"g": "b", "n": 2}]
    three = [*two, {"g": "c", "n": 3}]
    with Client(server, "2025-06-18") as client:
        assert client.call_tool("count", {"rows": two}).text == "2"
        with pytest.raises(RequestError) as caught:
            client.call_tool("count", {"rows": three})
    assert caught.value.code == -32602
    assert "argument 'rows': expected at most 6 cells (rows times columns)" in caught.value.message
    assert "(max_frame_argument_cells), got 3 rows of 3 columns; send fewer rows" in caught.value.message
    with Client(server, "2025-11-25") as client:  # from 2025-11-25 the model reads it as a tool error
        result = client.call_tool("count_async", {"rows": three})
    assert result.is_error and "(max_frame_argument_cells)" in result.text
    with pytest.raises(ValueError, match="max_frame_argument_cells must be a positive integer, not 0"):
        mcplite.McpServer("x", max_frame_argument_cells=0)


@requires_r
def test_an_integer_beyond_rs_range_names_its_cell_the_range_and_what_to_send() -> None:
    """The range is R's own (``.Machine$integer.max``); the message named the whole argument and told
    the caller to "use a Double", which is the tool author's business."""
    assert RSCRIPT is not None
    asked = [RSCRIPT, "-e", "cat(.Machine$integer.max)"]
    largest = int(subprocess.run(asked, capture_output=True, text=True, check=True, timeout=60).stdout)
    rows = [{"g": "a", "n": -largest}, {"g": "b", "n": largest}]
    with Client(frame_server(), "2025-11-25") as client:
        assert client.call_tool("count", {"rows": rows}).text == "2"
        for beyond in (largest + 1, -largest - 1):
            result = client.call_tool("count", {"rows": [*rows, {"g": "c", "n": beyond}]})
            assert result.is_error
            assert f"argument 'rows[2].n': expected an integer from -{largest} to {largest}" in result.text
            assert f"got {beyond}; send one within it, or null for NA" in result.text


def test_a_cell_that_is_none_of_its_levels_names_them_and_what_to_send() -> None:
    with Client(frame_server(), "2025-11-25") as client:
        ok = client.call_tool("count", {"rows": [{"g": "a", "n": 1, "size": "low"}, {"g": "b", "n": 2}]})
        result = client.call_tool("count", {"rows": [{"g": "a", "n": 1, "size": "mid"}]})
    assert ok.text == "2"
    assert result.is_error
    assert (
        "argument 'rows[0].size': expected one of the levels 'low', 'high', got 'mid' (str); "
        "send one of them, or null for NA"
    ) in result.text


@dataclasses.dataclass
class Holder:
    name: str
    rows: Rows | None


@dataclasses.dataclass
class Tree:
    label: str
    children: list[Tree]


def test_only_arguments_that_may_hold_a_frame_are_read_off_the_event_loop() -> None:
    # a thread hop costs a small call more than binding it (about 45 us of 240 per async call)
    assert all(holds_frame(a) for a in (Rows, Rows | None, list[Rows], Holder, dict[str, Holder]))
    assert not any(holds_frame(a) for a in (int, list[Row], Tree, dict[str, float]))
