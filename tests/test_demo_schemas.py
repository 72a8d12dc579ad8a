"""The demo's tool listings: derived output schemas only, columns as enums, and an example for every
required argument, so that a client calls each tool from its listed schemas alone.

The calls go through the official SDK ``Client`` (it checks structured content against the listed
output schema and raises) and FastMCP's client, over stdio, in legacy and 2026-07-28 mode.
"""

from __future__ import annotations

import contextlib
import os
import sys
import typing
from collections.abc import AsyncIterator
from typing import Any, get_args

import anyio
import pytest
from mcp import Client, StdioServerParameters
from mcp.client.stdio import stdio_client

import mcplite
from mcplite.demo import server as demo
from mcplite.payload.rjson import options_in_force
from mcplite.protocol.types import CallToolResult

TIMEOUT = 30.0
DATA_TOOLS = (
    "describe_data",
    "filter_rows",
    "summarize_by_group",
    "column_stats",
    "fit_body_mass",
    "bootstrap_mean",
)


def test_the_column_enums_are_the_data_columns() -> None:
    frame = demo.penguins_pandas()
    assert list(get_args(demo.Column)) == list(frame.columns)
    assert set(get_args(demo.NumericColumn)) == set(frame.columns) - set(demo.FACTORS)
    assert set(get_args(demo.GroupColumn)) == {*demo.FACTORS, "year"}
    for name, annotation in typing.get_type_hints(demo.Penguin).items():
        if name in demo.FACTORS:  # Literal[...], or Literal[...] | None
            literal = (
                annotation if typing.get_origin(annotation) is typing.Literal else get_args(annotation)[0]
            )
            assert list(get_args(literal)) == list(frame[name].cat.categories)


def test_data_tools_have_derived_output_schemas_only() -> None:
    server = demo.build_server()
    for name, registered in server.tools.items():
        returns = typing.get_type_hints(registered.function, include_extras=True)["return"]
        listed = registered.listed(options_in_force()).output_schema
        if name in DATA_TOOLS:
            assert listed == mcplite.output_schema(returns), name
        else:
            assert returns is CallToolResult and listed is None  # the histogram: an image and a caption
    column_stats = server.get_tool("column_stats")
    assert column_stats is not None
    with mcplite.options(json_na="null"):
        assert column_stats.listed(options_in_force()).output_schema == mcplite.output_schema(
            demo.ColumnStats
        )


def test_every_required_argument_has_examples_that_fit() -> None:
    for registered in demo.build_server().tools.values():
        schema = registered.tool.input_schema
        for name in schema.get("required", []):
            assert schema["properties"][name].get("examples"), f"{registered.name}.{name} lists no example"
        for arguments in calls_from(schema):
            registered.bind(arguments)  # an ArgumentError if the examples do not fit together


def test_an_example_that_does_not_fit_is_refused_at_registration() -> None:
    def pick(column: typing.Annotated[demo.NumericColumn, mcplite.Examples("species")]) -> None: ...

    with pytest.raises(TypeError, match=r"tool 'pick': a listed example does not fit: argument 'column'"):
        mcplite.McpServer("x").tool(pick)

    def nan(x: typing.Annotated[float, mcplite.Examples(float("nan"))]) -> None: ...

    with pytest.raises(TypeError, match="gives the example nan; examples must be JSON values"):
        mcplite.McpServer("x").tool(nan)


# -- over stdio, from the listing alone ------------------------------------------------------------


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@contextlib.asynccontextmanager
async def connect(library: str, mode: str, errlog: Any) -> AsyncIterator[Any]:
    argv = ["-m", "mcplite", "demo"]
    if library == "sdk":
        params = StdioServerParameters(command=sys.executable, args=argv, env=dict(os.environ))
        client: Any = Client(stdio_client(params, errlog=errlog), mode=mode, read_timeout_seconds=TIMEOUT)  # type: ignore[arg-type]
    else:
        fastmcp = pytest.importorskip("fastmcp")
        from fastmcp.client.transports import StdioTransport

        transport = StdioTransport(command=sys.executable, args=argv, env=dict(os.environ))
        client = fastmcp.Client(transport, mode=mode, timeout=TIMEOUT, init_timeout=TIMEOUT)
    async with client:
        yield client


def calls_from(schema: dict[str, Any]) -> list[dict[str, Any]]:
    """Arguments read from an input schema alone: the i-th example of every required argument and
    of every optional one that lists examples (the first where it lists fewer), one call per example
    listed; other optional arguments keep their defaults (bootstrap_mean's resamples has an example
    smaller than its default, which takes seconds)."""
    properties = schema.get("properties", {})
    given = [
        name for name in properties if name in schema.get("required", []) or "examples" in properties[name]
    ]
    count = max((len(properties[name]["examples"]) for name in given), default=1)
    return [
        {name: properties[name]["examples"][min(i, len(properties[name]["examples"]) - 1)] for name in given}
        for i in range(count)
    ]


@pytest.mark.anyio
@pytest.mark.parametrize("mode", ["legacy", "2026-07-28"])
@pytest.mark.parametrize("library", ["sdk", "fastmcp"])
async def test_each_tool_is_called_from_its_listing_alone(library: str, mode: str, tmp_path: Any) -> None:
    with (tmp_path / "stderr.log").open("w", encoding="utf-8") as errlog:
        async with connect(library, mode, errlog) as client:
            with anyio.fail_after(TIMEOUT):
                listed = await client.list_tools()
            tools = getattr(listed, "tools", listed)
            assert [tool.name for tool in tools] == list(demo.build_server().tools)
            for tool in tools:
                for arguments in calls_from(tool.input_schema):
                    with anyio.fail_after(TIMEOUT):  # the clients raise on a result that does not fit
                        result = await client.call_tool(tool.name, arguments)
                    assert not result.is_error, (tool.name, arguments, result.content)
                    if tool.output_schema is not None:
                        assert result.structured_content is not None, tool.name
            # every column the enums list is one the tool takes (count works on factors too)
            schemas = {tool.name: tool.input_schema.get("properties", {}) for tool in tools}
            sweep = [("column_stats", {}), ("plot_histogram", {}), ("summarize_by_group", {"stat": "count"})]
            for name, extra in sweep:
                for value in schemas[name]["column"]["enum"]:
                    with anyio.fail_after(TIMEOUT):
                        result = await client.call_tool(name, {"column": value, **extra})
                    assert not result.is_error, (name, value, result.content)
            for by in schemas["summarize_by_group"]["by"]["enum"]:
                with anyio.fail_after(TIMEOUT):
                    result = await client.call_tool("summarize_by_group", {"column": "year", "by": by})
                assert not result.is_error, (by, result.content)
