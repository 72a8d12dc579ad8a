"""Typed frames keep the names their row type declares, both ways, and a column named twice is refused."""

from __future__ import annotations

from typing import Annotated, TypedDict

import pandas as pd

import mcplite
import rvalues as rv
from mcplite.testing import Client

Row = TypedDict("Row", {"_a": int, "a b": str, "if": float})
"""Field names that are not syntactic R names: R's make.names would write X_a, a.b and if."""


def test_a_frame_argument_reaches_the_tool_under_the_names_its_rows_declare() -> None:
    server = mcplite.McpServer("names")
    seen: list[list[str]] = []

    @server.tool
    def columns(rows: Annotated[pd.DataFrame, mcplite.Rows(Row)]) -> list[str]:
        """The column names the tool received."""
        seen.append(list(rows.columns))
        return list(rows.columns)

    result = Client(server).call_tool("columns", {"rows": [{"_a": 1, "a b": "x", "if": 0.5}]})
    assert not result.is_error, result
    assert seen == [["_a", "a b", "if"]]


def test_a_typed_frame_with_a_column_named_twice_is_an_error_naming_it() -> None:
    server = mcplite.McpServer("twice")

    @server.tool
    def twice() -> Annotated[pd.DataFrame, mcplite.Rows(Row)]:
        """Two columns named _a."""
        return pd.DataFrame([[1, "x", 0.5, 2]], columns=["_a", "a b", "if", "_a"])

    @server.tool
    def r_twice() -> Annotated[rv.DataFrame, mcplite.Rows(Row)]:
        """The same as an R frame (data.frame(check.names = FALSE) keeps both)."""
        pairs = [("_a", rv.Integer([1])), ("a b", ["x"]), ("if", [0.5]), ("_a", rv.Integer([2]))]
        return rv.data_frame_from_pairs(pairs, check_names=False)

    for name in ("twice", "r_twice"):
        result = Client(server, protocol_version="2026-07-28").call_tool(name, {})
        assert result.is_error, result
        text = result.content[0].text  # type: ignore[union-attr]
        assert "[*]._a" in text and "one column '_a', not 2 of that name" in text
