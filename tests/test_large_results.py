"""Results sized for the client: a budget for every result, the exact head of a value
past it, the rest as pages from a private, bounded store, and a hard cap on what goes out."""

from __future__ import annotations

import json
import logging
import time
from typing import Annotated, Any

import attrs
import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mcplite
import rvalues as rv
from mcplite.engine.sizing import largest_fit
from mcplite.features.result_store import TRUNCATED_KEY, DirectoryStore, MemoryStore, StoredResult
from mcplite.payload.budget import DEFAULT_RESULT_BUDGET, row_total, rows_between
from mcplite.testing import Client

VERSION = "2025-11-25"


def sales(n: int, seed: int = 7) -> pd.DataFrame:
    rng = np.random.default_rng(seed)
    return pd.DataFrame(
        {
            "id": np.arange(n, dtype=np.int64),
            "region": rng.choice(["north", "south", "east", "west"], n),
            "amount": rng.normal(100, 30, n).round(2),
            "paid": rng.random(n) < 0.8,
        }
    )


def line_size(response: dict[str, Any]) -> int:
    """The bytes of the response line a result came in (ASCII payloads: json.dumps writes the same)."""
    return (
        len(json.dumps({"jsonrpc": "2.0", "id": 2, "result": response}, separators=(",", ":")).encode()) + 1
    )


def server_with(value: Any, **options: Any) -> mcplite.McpServer:
    """A server whose one tool, ``table``, returns ``value`` (``options`` are the server's)."""
    server = mcplite.McpServer("big", **options)

    @server.tool
    def table() -> Any:
        """The table."""
        return value

    return server


def call(server: mcplite.McpServer, version: str = VERSION) -> dict[str, Any]:
    with Client(server, protocol_version=version) as client:
        return client.request("tools/call", {"name": "table", "arguments": {}})


# -- 1. the budget ------------------------------------------------------------------------------------


def test_within_the_budget_a_result_is_what_it_was() -> None:
    frame = sales(200)
    assert call(server_with(frame)) == call(server_with(frame, result_budget=None))
    assert TRUNCATED_KEY not in (call(server_with(frame)).get("_meta") or {})


def test_the_default_budget_fits_claude_codes_limit_at_two_bytes_a_token() -> None:
    assert DEFAULT_RESULT_BUDGET <= 25_000 * 2
    response = call(server_with(sales(20_000)))
    assert line_size(response) <= DEFAULT_RESULT_BUDGET


@pytest.mark.parametrize("budget", [0, -1, 1.5, True, "big"])
def test_a_budget_is_a_positive_integer_or_none(budget: Any) -> None:
    with pytest.raises(ValueError, match="result_budget must be a positive integer"):
        mcplite.McpServer("x", result_budget=budget)
    server = mcplite.McpServer("x")
    with pytest.raises(ValueError, match="result_budget must be a positive integer"):
        server.tool(name="t", description="One.", result_budget=budget)(lambda: 1)


def test_a_tools_budget_overrides_the_servers() -> None:
    frame = sales(5_000)
    server = mcplite.McpServer("big", result_budget=None)

    @server.tool(result_budget=4_000)
    def small() -> pd.DataFrame:
        """Small pages."""
        return frame

    @server.tool
    def whole() -> pd.DataFrame:
        """All of it."""
        return frame

    with Client(server, protocol_version=VERSION) as client:
        cut = client.request("tools/call", {"name": "small", "arguments": {}})
        full = client.request("tools/call", {"name": "whole", "arguments": {}})
    assert line_size(cut) <= 4_000 and cut["_meta"][TRUNCATED_KEY]["total"] == 5_000
    assert full["content"][0]["text"] == mcplite.as_tool_result(frame).content[0].text


def test_a_result_that_cannot_be_cut_is_an_error_past_the_cap(caplog: pytest.LogCaptureFixture) -> None:
    text = "x" * 300_000
    with caplog.at_level(logging.WARNING, logger="mcplite.server"):
        response = call(server_with(text, max_result_bytes=200_000))
    assert response["isError"] is True
    message = response["content"][0]["text"]
    assert "300,0" in message and "200,000" in message and "max_result_bytes" in message
    assert any(
        "table" in record.getMessage() and "max_result_bytes" in record.getMessage()
        for record in caplog.records
    )
    hand_built = mcplite.tool_result(mcplite.content_text("y" * 300_000))
    assert call(server_with(hand_built, max_result_bytes=200_000))["isError"] is True
    # under the cap, a string past the budget goes as it is (it cannot be cut)
    assert call(server_with(text))["content"][0]["text"] == text


def test_nothing_past_the_cap_even_without_a_budget() -> None:
    response = call(server_with(sales(20_000), result_budget=None, max_result_bytes=100_000))
    assert response["isError"] is True and "100,000" in response["content"][0]["text"]


# -- 2. the exact head ----------------------------------------------------------------------------------


def counts(response: dict[str, Any]) -> dict[str, Any]:
    found: dict[str, Any] = response["_meta"][TRUNCATED_KEY]
    return found


@pytest.mark.parametrize(
    "value",
    [
        sales(20_000),
        rv.from_pandas(sales(20_000)),
        list(range(30_000)),
        np.arange(30_000, dtype=np.float64) / 7,
        rv.Character([f"line {i}" for i in range(20_000)]),
        sales(20_000).to_dict("records"),
        rv.data_frame(x=list(range(9_000)), s=[f"r{i}" for i in range(9_000)]).with_attributes(
            {"row.names": rv.Character([f"row{i}" for i in range(9_000)])}
        ),
    ],
    ids=["pandas", "r-frame", "list", "numpy", "character", "records", "row-names"],
)
def test_past_the_budget_the_head_is_as_tool_result_of_those_rows(value: Any) -> None:
    budget = 20_000
    response = call(server_with(value, result_budget=budget))
    found = counts(response)
    n, total = found["shown"], found["total"]
    assert total == row_total(value) and 0 < n < total and (found["from"], found["to"]) == (1, n)
    assert response["content"][0]["text"] == mcplite.as_tool_result(rows_between(value, 0, n)).content[0].text
    assert response["content"][1]["text"].startswith(f"Showing rows 1..{n} of {total}")
    link = response["content"][2]
    assert link["type"] == "resource_link" and link["uri"] == found["next"]
    assert line_size(response) <= budget


def test_the_head_is_the_most_rows_that_fit() -> None:
    sizes = [10 + 3 * n for n in range(1001)]
    n, line = largest_fit(lambda n: b"x" * sizes[n], 1000, 500)
    assert n == 163 and len(line) == 499
    assert largest_fit(lambda n: b"x" * (600 + n), 1000, 500)[0] == 0
    assert largest_fit(lambda n: b"x" * n, 10, 500)[0] == 10


@settings(max_examples=300, deadline=None)
@given(st.lists(st.integers(1, 400), max_size=3_000), st.integers(1, 200_000))
def test_the_search_finds_the_most_rows_in_few_writes(row_sizes: list[int], budget: int) -> None:
    sizes = np.concatenate([[60], 60 + np.cumsum(row_sizes, dtype=np.int64)])
    written: list[int] = []

    def line_for(n: int) -> bytes:
        written.append(n)
        return b"x" * int(sizes[n])

    n, line = largest_fit(line_for, len(row_sizes), budget)
    assert n == int(np.searchsorted(sizes, budget, side="right")) - 1 or (n == 0 and sizes[0] > budget)
    assert len(line) == sizes[n] and len(written) <= 66
    assert max(written) <= 4 * n + 64 + 1  # never a line far past the head that fits


@attrs.frozen
class Sale:
    id: int
    region: str
    amount: float
    paid: bool


def test_the_head_of_a_typed_tool_fits_its_output_schema() -> None:
    frame = sales(10_000)
    server = mcplite.McpServer("typed", result_budget=8_000)

    @server.tool
    def typed() -> Annotated[pd.DataFrame, mcplite.Rows(Sale)]:
        """Typed rows."""
        return frame

    with Client(
        server, protocol_version="2026-07-28"
    ) as client:  # checks structured content against the schema
        (listed,) = client.list_tools()
        result = client.call_tool("typed", {})
    assert listed.output_schema is not None and not result.is_error
    n = result.meta[TRUNCATED_KEY]["shown"]
    assert 0 < n < 10_000 and result.structured_content == json.loads(
        mcplite.as_tool_result(frame.iloc[:n]).content[0].text
    )


def test_a_large_value_is_never_written_whole() -> None:
    frame = sales(200_000)
    server = server_with(frame)
    tool = server.get_tool("table")
    assert tool is not None
    rows_written: list[int] = []
    to_result = tool.to_result

    def counted(value: Any, options: Any) -> Any:
        rows_written.append(row_total(value) or 0)
        return to_result(value, options)

    tool.to_result = counted  # type: ignore[method-assign]
    started = time.perf_counter()
    response = call(server)
    assert counts(response)["total"] == 200_000
    assert max(rows_written) < 5_000 and sum(rows_written) < 50_000
    assert time.perf_counter() - started < 5


# -- 3. the rest, as pages --------------------------------------------------------------------------------


def read(client: Client, uri: str) -> dict[str, Any]:
    return client.request("resources/read", {"uri": uri})


@pytest.mark.parametrize("version", ["2025-06-18", "2025-11-25", "2026-07-28"])
def test_following_the_links_gives_every_row_exactly_once(version: str) -> None:
    frame = sales(3_000)
    server = server_with(frame, result_budget=12_000)
    with Client(server, protocol_version=version) as client:
        first = client.request("tools/call", {"name": "table", "arguments": {}})
        rows = json.loads(first["content"][0]["text"])
        uri = counts(first)["next"]
        pages = 0
        while uri is not None:
            page = read(client, uri)
            found = page["_meta"][TRUNCATED_KEY]
            (contents,) = page["contents"]
            assert contents["mimeType"] == "application/json"
            expected = mcplite.as_tool_result(frame.iloc[found["from"] - 1 : found["to"]]).content[0].text
            assert contents["text"] == expected and found["from"] == len(rows) + 1
            assert line_size(page) <= 12_000 + 200  # the page's own envelope
            rows += json.loads(contents["text"])
            uri, pages = found["next"], pages + 1
    assert rows == json.loads(mcplite.as_tool_result(frame).content[0].text) and pages > 2


def test_pages_as_csv_and_with_a_limit() -> None:
    frame = sales(3_000)
    server = server_with(frame, result_budget=12_000)
    with Client(server, protocol_version=VERSION) as client:
        uri = counts(client.request("tools/call", {"name": "table", "arguments": {}}))["next"]
        n = int(uri.rpartition("=")[2])
        page = read(client, uri + "&limit=5&format=csv")
        (contents,) = page["contents"]
        assert contents["mimeType"] == "text/csv"
        assert contents["text"] == frame.iloc[n : n + 5].to_csv(index=False, lineterminator="\n")
        assert page["_meta"][TRUNCATED_KEY]["next"].endswith(f"offset={n + 5}&limit=5&format=csv")
        with pytest.raises(Exception, match="offset must be one whole number"):
            read(client, uri.replace(f"offset={n}", "offset=-1"))
        with pytest.raises(Exception, match="past the result's 3000 rows"):
            read(client, uri.replace(f"offset={n}", "offset=3000"))


def test_a_value_that_is_not_a_table_has_no_csv_pages() -> None:
    server = server_with([[k, "x" * 20] for k in range(3_000)], result_budget=12_000)
    with Client(server, protocol_version=VERSION) as client:
        uri = counts(client.request("tools/call", {"name": "table", "arguments": {}}))["next"]
        assert json.loads(read(client, uri)["contents"][0]["text"])[0] == [
            int(uri.rpartition("=")[2]),
            "x" * 20,
        ]
        with pytest.raises(Exception, match=r"-32602.*cannot be written as CSV.*read it as JSON"):
            read(client, uri + "&format=csv")


def test_another_client_cannot_read_a_link_and_a_guess_is_not_found() -> None:
    server = server_with(sales(3_000), result_budget=12_000)
    with (
        Client(server, protocol_version=VERSION) as first,
        Client(server, protocol_version=VERSION) as second,
    ):
        uri = counts(first.request("tools/call", {"name": "table", "arguments": {}}))["next"]
        assert read(first, uri)["contents"]
        with pytest.raises(Exception, match=r"-32002.*no stored result"):
            read(second, uri)
        guessed = uri.replace(uri[len("mcplite://results/") : len("mcplite://results/") + 4], "0000")
        with pytest.raises(Exception, match=r"-32002.*no stored result"):
            read(first, guessed)


def test_an_expired_link_says_so() -> None:
    server = server_with(sales(3_000), result_budget=12_000, result_store=MemoryStore(ttl_seconds=0.2))
    with Client(server, protocol_version=VERSION) as client:
        uri = counts(client.request("tools/call", {"name": "table", "arguments": {}}))["next"]
        time.sleep(0.3)
        with pytest.raises(Exception, match=r"expired.*call the tool again"):
            read(client, uri)


def test_the_memory_store_is_bounded_by_count_and_bytes() -> None:
    store = MemoryStore(max_results=2, max_bytes=100)
    keys = [store.put(StoredResult([1], None, "t", 1, 10)) for _ in range(3)]
    assert len(store) == 2
    with pytest.raises(LookupError, match="no stored result"):
        store.get(keys[0], None)
    assert store.get(keys[2], None).total == 1
    store.put(StoredResult([1], None, "t", 1, 95))
    assert len(store) == 1


def test_a_directory_store_is_shared_by_its_workers(tmp_path: Any) -> None:
    one, other = DirectoryStore(tmp_path, max_results=2), DirectoryStore(tmp_path, max_results=2)
    frame = sales(50)
    key = one.put(StoredResult(frame, "token:a", "t", 50, 1_000))
    found = other.get(key, "token:a")
    assert found.total == 50
    assert (
        mcplite.as_tool_result(found.value).content[0].text == mcplite.as_tool_result(frame).content[0].text
    )
    with pytest.raises(LookupError, match="no stored result"):
        other.get(key, "token:b")
    with pytest.raises(LookupError, match="no stored result"):
        other.get("../../etc/passwd", "token:a")
    for _ in range(2):
        other.put(StoredResult([1], None, "t", 1, 1))
    with pytest.raises(LookupError, match="no stored result"):
        one.get(key, "token:a")


def test_a_directory_store_serves_pages(tmp_path: Any) -> None:
    frame = sales(3_000)
    server = server_with(frame, result_budget=12_000, result_store=DirectoryStore(tmp_path))
    with Client(server, protocol_version=VERSION) as client:
        uri = counts(client.request("tools/call", {"name": "table", "arguments": {}}))["next"]
        page = read(client, uri)
    found = page["_meta"][TRUNCATED_KEY]
    expected = mcplite.as_tool_result(frame.iloc[found["from"] - 1 : found["to"]]).content[0].text
    assert page["contents"][0]["text"] == expected
