"""Results past the budget from Arrow data (pyarrow, polars, DuckDB), and pages kept as Arrow IPC files
by a directory store: the head and every page are what the same rows write as."""

from __future__ import annotations

import json
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest

import mcplite
import rvalues as rv
from mcplite.features.result_store import TRUNCATED_KEY, DirectoryStore
from mcplite.testing import Client

pa = pytest.importorskip("pyarrow")

BUDGET = 12_000


def sales_table(n: int) -> Any:
    rng = np.random.default_rng(11)
    return pa.table(
        {
            "id": pa.array(np.arange(n, dtype=np.int64)),
            "region": pa.array(rng.choice(["north", "south", "east", "west"], n)).dictionary_encode(),
            "amount": pa.array(np.where(rng.random(n) < 0.1, np.nan, rng.normal(100, 30, n).round(2))),
            "paid": pa.array(rng.random(n) < 0.8, mask=rng.random(n) < 0.05),
            "day": pa.array(np.datetime64("2024-01-01") + np.arange(n) % 365, type=pa.date32()),
        }
    )


def polars_frame(n: int) -> Any:
    pl = pytest.importorskip("polars")
    return pl.from_arrow(sales_table(n))


def duckdb_relation(n: int) -> Any:
    duckdb = pytest.importorskip("duckdb")
    sales = sales_table(n)  # noqa: F841 (DuckDB reads the local by its name)
    return duckdb.sql("select * from sales order by id")


KINDS: dict[str, Callable[[int], Any]] = {
    "pyarrow": sales_table,
    "polars": polars_frame,
    "duckdb": duckdb_relation,
}


def expected_rows(start: int, stop: int) -> str:
    """What the same rows write as, from the Arrow table itself."""
    block = mcplite.as_tool_result(sales_table(3_000).slice(start, stop - start)).content[0]
    assert isinstance(block, mcplite.TextContent)
    return block.text


@pytest.mark.parametrize("kind", list(KINDS))
@pytest.mark.parametrize("store", ["memory", "directory"])
def test_an_arrow_result_past_the_budget_is_an_exact_head_and_exact_pages(
    kind: str, store: str, tmp_path: Any
) -> None:
    value = KINDS[kind](3_000)
    server = mcplite.McpServer(
        "arrow-results",
        result_budget=BUDGET,
        **({"result_store": DirectoryStore(tmp_path)} if store == "directory" else {}),
    )

    @server.tool
    def table() -> Any:
        """The table."""
        return value

    with Client(server, protocol_version="2025-11-25") as client:
        first = client.request("tools/call", {"name": "table", "arguments": {}})
        found = first["_meta"][TRUNCATED_KEY]
        assert (found["from"], found["total"]) == (1, 3_000) and found["to"] < 3_000
        assert first["content"][0]["text"] == expected_rows(0, found["to"])
        rows = json.loads(first["content"][0]["text"])
        uri = found["next"]
        while uri is not None:
            page = client.request("resources/read", {"uri": uri})
            found = page["_meta"][TRUNCATED_KEY]
            assert page["contents"][0]["text"] == expected_rows(found["from"] - 1, found["to"])
            rows += json.loads(page["contents"][0]["text"])
            uri = found["next"]
    assert rows == json.loads(expected_rows(0, 3_000))
    if store == "directory":
        assert list(tmp_path.glob("*.arrow")) and not list(tmp_path.glob("*.pickle"))


def named_rows(start: int, stop: int) -> rv.RValue:
    """Rows ``start..stop-1`` of a frame with character row names, built from scratch."""
    frame = rv.data_frame(x=list(range(start, stop)), s=[f"r{i}" for i in range(start, stop)])
    return frame.with_attributes({"row.names": rv.Character([f"row{i}" for i in range(start, stop)])})


def test_a_frame_with_row_names_keeps_them_through_a_directory_store(tmp_path: Any) -> None:
    server = mcplite.McpServer("names", result_budget=BUDGET, result_store=DirectoryStore(tmp_path))

    @server.tool
    def table() -> Any:
        """The table."""
        return named_rows(0, 2_000)

    with Client(server, protocol_version="2025-11-25") as client:
        first = client.request("tools/call", {"name": "table", "arguments": {}})
        page = client.request("resources/read", {"uri": first["_meta"][TRUNCATED_KEY]["next"]})
    found = page["_meta"][TRUNCATED_KEY]
    block = mcplite.as_tool_result(named_rows(found["from"] - 1, found["to"])).content[0]
    assert isinstance(block, mcplite.TextContent)
    assert page["contents"][0]["text"] == block.text and '"_row":"row' in block.text
