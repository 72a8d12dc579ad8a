"""Reads of R values are written once and sent again; anything else is written on every read."""

from __future__ import annotations

import json

import pandas as pd
from hypothesis import given, settings
from hypothesis import strategies as st
from test_writers import frames

import mcplite
import rvalues as rv
from mcplite.features.contents import contents_of, contents_wire
from mcplite.features.written import write_contents
from mcplite.payload.returned import encode_value_json, escaped_frame_json
from mcplite.payload.rjson import options_in_force
from mcplite.testing import Client
from rvalues.json import JsonOptions


def test_an_r_value_is_written_once_and_a_pandas_frame_every_time() -> None:
    server = mcplite.McpServer("reads")
    state = {"r": rv.data_frame(x=[1.5, rv.NA_real_]), "pandas": pd.DataFrame({"x": [1.0, 2.0]})}

    @server.resource("data://r")
    def r_frame() -> rv.DataFrame:
        return state["r"]

    @server.resource("data://pandas")
    def pandas_frame() -> pd.DataFrame:
        return state["pandas"]

    entry = server.resources["data://r"]
    with Client(server, "2025-11-25") as client:
        first = client.read_resource("data://r")[0].text
        assert first == encode_value_json(state["r"], options=options_in_force()) == '[{"x":1.5},{}]'
        assert len(entry.written._written) == 1
        assert client.read_resource("data://r")[0].text == first
        assert len(entry.written._written) == 1  # the same value: the same bytes
        state["r"] = rv.data_frame(x=[2.5])  # a new value: written anew
        assert client.read_resource("data://r")[0].text == '[{"x":2.5}]'
        assert client.read_resource("data://pandas")[0].text == '[{"x":1},{"x":2}]'
        state["pandas"].loc[0, "x"] = 7.0  # changed in place: the read sees it
        assert client.read_resource("data://pandas")[0].text == '[{"x":7},{"x":2}]'
        assert len(server.resources["data://pandas"].written._written) == 0


def test_the_written_bytes_follow_the_payload_options_and_version() -> None:
    server = mcplite.McpServer("reads")
    value = rv.data_frame(x=[1.5, rv.NA_real_])

    @server.resource("data://x")
    def x() -> rv.DataFrame:
        return value

    with Client(server, "2025-11-25") as client:
        assert client.read_resource("data://x")[0].text == '[{"x":1.5},{}]'
        with mcplite.options(json_na="null"):
            assert client.read_resource("data://x")[0].text == '[{"x":1.5},{"x":null}]'
        assert client.read_resource("data://x")[0].text == '[{"x":1.5},{}]'
    with Client(server, "2026-07-28") as client:
        result = client.request("resources/read", {"uri": "data://x"})
        assert result["contents"][0]["text"] == '[{"x":1.5},{}]' and result["cacheScope"] == "public"


def test_tools_read_resources_sync_and_async() -> None:
    server = mcplite.McpServer("reads")

    @server.resource("data://sync/{n}")
    def sync_rows(n: int) -> list[int]:
        return list(range(n))

    @server.resource("data://async")
    async def async_rows(ctx: mcplite.Context) -> str:
        return f"async at {ctx.protocol_version}"

    @server.tool
    def sync_tool(uri: str, ctx: mcplite.Context) -> str:
        """Read a resource from a sync tool."""
        return str(ctx.read_resource(uri)[0].text)

    @server.tool
    async def async_tool(uri: str, ctx: mcplite.Context) -> str:
        """Read a resource from an async tool."""
        return str(ctx.read_resource(uri)[0].text)

    @server.tool
    def missing(ctx: mcplite.Context) -> str:
        """Read a resource nothing serves."""
        try:
            ctx.read_resource("data://nothing")
        except mcplite.ResourceNotFound as err:
            return str(err)
        return "found"

    with Client(server, "2025-11-25") as client:
        for tool in ("sync_tool", "async_tool"):
            assert client.call_tool(tool, {"uri": "data://sync/3"}).text == "[0,1,2]"
            assert client.call_tool(tool, {"uri": "data://async"}).text == "async at 2025-11-25"
        assert "no resource or template serves 'data://nothing'" in client.call_tool("missing").text


VERSIONS = ("2024-11-05", "2025-06-18", "2026-07-28")


def _dumped(value: object, uri: str, options: JsonOptions, version: str) -> bytes:
    """The oracle: the contents as ``json.dumps`` writes them, text escaped a second time."""
    wire = [contents_wire(item, version) for item in contents_of(value, uri, None, options)]
    return json.dumps(wire, ensure_ascii=False, allow_nan=False, separators=(",", ":")).encode()


@settings(max_examples=40, deadline=None, derandomize=True, database=None)
@given(frames(), st.sampled_from(["rows", "columns"]), st.sampled_from(VERSIONS))
def test_a_frame_read_is_the_bytes_json_dumps_writes(df: pd.DataFrame, layout: str, version: str) -> None:
    """A frame of more than a few rows is spliced in as the compiled writer escaped it (the pure
    writer writes it and json.dumps escapes it): the same bytes either way."""
    options = JsonOptions(dataframe=layout, auto_unbox=True, null="null")
    for value in (df, rv.as_r(df)):
        assert write_contents(value, "data://x", None, options, version) == _dumped(
            value, "data://x", options, version
        )


def test_a_large_frame_read_is_spliced_under_the_compiled_writer() -> None:
    df = pd.DataFrame({"s": ['q"\\\n\u2028é😀', None] * 20, "x": [1.5, float("nan")] * 20})
    x = rv.as_r(df)
    options = JsonOptions(auto_unbox=True, null="null")
    spliced = escaped_frame_json(x, "resource data://x", options)
    assert (spliced is not None) == (rv.json.backend() == "c")
    got = write_contents(df, "data://x", None, options, "2025-11-25")
    assert got == _dumped(df, "data://x", options, "2025-11-25")
    assert json.loads(got)[0]["text"] == encode_value_json(df, options=options)
