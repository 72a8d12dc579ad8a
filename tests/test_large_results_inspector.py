"""The MCP Inspector (a real client) calls a tool that answers with two million rows: it gets the exact
head within the default budget, the counts, and a link to the rest, in a few seconds."""

from __future__ import annotations

import json
import sys
import time
from pathlib import Path

import pytest

import mcplite
from mcplite.features.result_store import TRUNCATED_KEY
from mcplite.payload.budget import DEFAULT_RESULT_BUDGET
from tests.servers import large
from tests.test_server_inspector import find_inspector, inspect

SERVER = str(Path(large.__file__))


@pytest.fixture(autouse=True)
def _needs_the_inspector() -> None:
    inspector, why = find_inspector()
    if inspector is None:
        pytest.skip(why)


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_two_million_rows_reach_the_inspector_as_an_exact_head_and_a_link(tmp_path: Path, era: str) -> None:
    began = time.monotonic()
    code, answer, stderr = inspect(
        tmp_path, era, [sys.executable, SERVER], "--method", "tools/call", "--tool-name", "all_sales"
    )
    took = time.monotonic() - began
    assert code == 0, stderr[-2000:]
    result = answer["result"]
    head, note, link = result["content"]
    counts = result["_meta"][TRUNCATED_KEY]
    n = counts["shown"]
    assert counts["total"] == large.ROWS and (counts["from"], counts["to"]) == (1, n) and 0 < n < 5_000
    expected = mcplite.as_tool_result(large.TABLE.iloc[:n]).content[0]
    assert isinstance(expected, mcplite.TextContent)
    assert head == {"type": "text", "text": expected.text}
    assert note["type"] == "text" and note["text"].startswith(f"Showing rows 1..{n} of {large.ROWS}")
    assert link["type"] == "resource_link" and link["uri"] == counts["next"]
    line = json.dumps({"jsonrpc": "2.0", "id": 1, "result": result}, separators=(",", ":"))
    assert len(line.encode()) <= DEFAULT_RESULT_BUDGET + 200  # the Inspector's own id and stamps aside
    assert took < 30, took  # the server building its table and Node starting included
