"""Typed frame tools as users write them: polars, pyarrow and DuckDB frames with declared rows.

``Annotated[pl.DataFrame | pa.Table | duckdb.DuckDBPyRelation, mcplite.Rows(Row)]`` is accepted at
registration, and what each tool answers (text and structured content, through mcplite's testing
client and through the official SDK's client) is what the same rows answer as a pandas frame.
"""

# no `from __future__ import annotations`: the tools below name frame classes held in local variables

import dataclasses
import datetime
import json
from typing import Annotated, Any

import anyio
import pandas as pd
import pytest

import mcplite
import rvalues as rv
from mcplite.testing import Client

MODERN = "2026-07-28"


@dataclasses.dataclass
class Sale:
    region: str
    units: int
    price: float
    day: datetime.date


def sales_pandas() -> pd.DataFrame:
    return pd.DataFrame(
        {
            "region": ["north", "south", None],
            "units": pd.array([3, None, 7], dtype="Int64"),
            "price": [2.5, float("nan"), 1e-3],
            "day": [datetime.date(2024, 1, 1), datetime.date(2024, 2, 29), None],
        }
    )


def sales_arrow() -> Any:
    pa = pytest.importorskip("pyarrow")
    return pa.Table.from_pandas(sales_pandas(), preserve_index=False)


def frame_in(library: str) -> tuple[Any, Any]:
    """The frame class of ``library`` and the sales rows as one of them."""
    if library == "pandas":
        return pd.DataFrame, sales_pandas()
    if library == "polars":
        pl = pytest.importorskip("polars")
        return pl.DataFrame, pl.from_arrow(sales_arrow())
    if library == "pyarrow":
        pa = pytest.importorskip("pyarrow")
        return pa.Table, sales_arrow()
    duckdb = pytest.importorskip("duckdb")
    table = sales_arrow()
    return duckdb.DuckDBPyRelation, duckdb.from_arrow(table)


LIBRARIES = ["polars", "pyarrow", "duckdb"]


def server_returning(library: str) -> mcplite.McpServer:
    """A server with ``sales`` returning the rows in ``library``'s frame and ``reference`` in pandas'."""
    frame_class, _ = frame_in(library)
    server = mcplite.McpServer(f"sales-{library}")

    @server.tool
    def sales() -> Annotated[frame_class, mcplite.Rows(Sale)]:  # type: ignore[valid-type]
        """The sales rows."""
        return frame_in(library)[1]

    @server.tool
    def reference() -> Annotated[pd.DataFrame, mcplite.Rows(Sale)]:
        """The same rows as a pandas frame."""
        return sales_pandas()

    return server


@pytest.mark.parametrize("library", LIBRARIES)
def test_a_frame_of_each_library_registers_and_answers_as_the_pandas_frame(library: str) -> None:
    server = server_returning(library)
    client = Client(server, protocol_version=MODERN)
    tools = {tool.name: tool for tool in client.list_tools()}
    assert tools["sales"].output_schema == tools["reference"].output_schema
    got, want = client.call_tool("sales", {}), client.call_tool("reference", {})
    assert not got.is_error, got
    assert got.content[0].text == want.content[0].text  # type: ignore[union-attr]
    assert got.structured_content == want.structured_content
    assert len(want.structured_content) == 3


@pytest.mark.parametrize("library", LIBRARIES)
def test_a_union_of_frame_classes_is_one_typed_tool(library: str) -> None:
    frame_class, _ = frame_in(library)
    server = mcplite.McpServer("union")

    @server.tool
    def sales() -> Annotated[pd.DataFrame | frame_class, mcplite.Rows(Sale)]:  # type: ignore[valid-type]
        """The sales rows."""
        return frame_in(library)[1]

    result = Client(server, protocol_version=MODERN).call_tool("sales", {})
    assert not result.is_error, result
    assert result.structured_content[0]["region"] == "north"


@pytest.mark.parametrize("library", LIBRARIES)
def test_a_frame_parameter_of_each_library_gets_that_librarys_frame(library: str) -> None:
    frame_class, _ = frame_in(library)
    server = mcplite.McpServer("argument")
    seen: list[Any] = []

    @server.tool
    def count(rows: Annotated[frame_class, mcplite.Rows(Sale)]) -> int:  # type: ignore[valid-type]
        """How many rows arrived."""
        seen.append(rows)
        return len(rv.as_r(rows).data[0])

    rows = [{"region": "north", "units": 3, "price": 2.5, "day": "2024-01-01"}]
    result = Client(server).call_tool("count", {"rows": rows})
    assert not result.is_error, result
    assert isinstance(seen[0], frame_class)


def test_a_lazy_frame_returned_is_told_to_call_collect() -> None:
    pl = pytest.importorskip("polars")
    server = mcplite.McpServer("lazy")

    @server.tool
    def sales() -> Annotated[pl.DataFrame, mcplite.Rows(Sale)]:
        """The sales rows, lazily (a mistake)."""
        return pl.from_arrow(sales_arrow()).lazy()

    result = Client(server, protocol_version=MODERN).call_tool("sales", {})
    assert result.is_error
    assert "call `.collect()`" in result.content[0].text  # type: ignore[union-attr]


def test_a_lazy_frame_returned_by_an_untyped_tool_is_told_to_call_collect() -> None:
    pl = pytest.importorskip("polars")
    server = mcplite.McpServer("lazy")

    @server.tool
    def sales() -> object:
        """The sales rows, lazily (a mistake)."""
        return pl.from_arrow(sales_arrow()).lazy()

    result = Client(server).call_tool("sales", {})
    assert result.is_error
    assert "call `.collect()`" in result.content[0].text  # type: ignore[union-attr]
    with pytest.raises(rv.RValueError, match=r"is a query, not data: call `\.collect\(\)`"):
        rv.as_r(pl.DataFrame({"n": [1]}).lazy())


def test_a_lazy_frame_declared_is_refused_naming_collect() -> None:
    pl = pytest.importorskip("polars")
    server = mcplite.McpServer("lazy")
    with pytest.raises(TypeError, match=r"collect\(\)"):

        @server.tool
        def sales() -> Annotated[pl.LazyFrame, mcplite.Rows(Sale)]:
            """The sales rows, lazily."""
            return pl.from_arrow(sales_arrow()).lazy()


# -- the official SDK's client -------------------------------------------------------------------


@pytest.fixture
def anyio_backend() -> str:
    return "asyncio"


@pytest.mark.anyio
@pytest.mark.parametrize("library", LIBRARIES)
async def test_the_sdk_client_reads_each_librarys_frame_as_the_pandas_one(library: str) -> None:
    from mcp import Client as SdkClient

    from tests.serving import served

    server = server_returning(library)
    with served(server.asgi_app()) as base:
        async with SdkClient(base + "/mcp", mode=MODERN) as client:  # type: ignore[arg-type]
            with anyio.fail_after(20):
                got = await client.call_tool("sales", {})  # checks it against the listed schema
                want = await client.call_tool("reference", {})
    assert not got.is_error
    assert [block.text for block in got.content] == [block.text for block in want.content]  # type: ignore[union-attr]
    assert got.structured_content == want.structured_content == json.loads(want.content[0].text)  # type: ignore[union-attr]
