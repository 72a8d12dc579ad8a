"""The examples table of docs/arrow.md, generated from ``rv.as_r`` (``python -m tests.test_docs_arrow``
rewrites it); the test fails when the page and the code disagree."""

from __future__ import annotations

import re
import warnings
from decimal import Decimal
from pathlib import Path
from typing import Any

import pyarrow as pa
import pytest

import rvalues as rv
from tests.test_docs import _code

pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")

PAGE = Path(__file__).resolve().parents[1] / "docs" / "arrow.md"
_MARKED = re.compile(r"(<!-- arrow examples -->\n)(.*?)(<!-- end arrow examples -->)", re.S)

#: Arrow data as spelled on the page (evaluated with these names).
ARROW_VALUES = [
    "pa.array([1, None], pa.int32())",
    "pa.array([1, None], pa.int64())",
    "pa.array([2**40, None], pa.uint64())",
    'pa.array([1.5, None, float("nan")], pa.float32())',
    'pa.array([Decimal("1.25"), None], pa.decimal128(5, 2))',
    "pa.array([True, None])",
    'pa.array(["a", None], pa.string_view())',
    'pa.array(["b", "a", None]).dictionary_encode()',
    'pa.DictionaryArray.from_arrays([1, 0], ["lo", "hi"], ordered=True)',
    "pa.array([0, None], pa.date32())",
    'pa.array([0, None], pa.timestamp("ms"))',
    'pa.array([0], pa.timestamp("us", tz="Europe/Paris"))',
    'pa.array([1500], pa.duration("ms"))',
    "pa.nulls(2)",
    'pa.array([{"a": 1, "b": "x"}, None])',
    "pa.array([[1, 2], None, []])",
    'pa.table({"x": [1, None], "y": ["a", "b"]})',
    "pl.Series([1.5, None])",
    'pl.DataFrame({"g": ["a", None]}).cast(pl.Categorical)',
    'duckdb.sql("SELECT 42 AS answer")',
]


def examples_table() -> str:
    """Arrow | R type | R class | as R prints it, from ``rv.as_r``."""
    names: dict[str, Any] = {"pa": pa, "pl": pl, "duckdb": duckdb, "Decimal": Decimal}
    rows = ["| Arrow | R type | R class | as R prints it |", "|---|---|---|---|"]
    for expression in ARROW_VALUES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", rv.ConversionWarning)
            value = rv.as_r(eval(expression, names))
        lines = repr(value).splitlines()
        shown = _code(lines[0].rstrip()) if len(lines) == 1 else f"{len(lines)} lines"
        kind, classes = rv.describe(value)["type"], ", ".join(rv.r_class(value))
        rows.append(f"| {_code(expression)} | {kind} | {classes} | {shown} |")
    return "\n".join(rows)


def _shown() -> str:
    found = _MARKED.search(PAGE.read_text(encoding="utf-8"))
    assert found, "docs/arrow.md has no <!-- arrow examples --> table"
    return found.group(2).strip()


def test_the_examples_table_is_what_the_code_does(utc: None) -> None:
    assert _shown() == examples_table(), "out of date: run python -m tests.test_docs_arrow"


if __name__ == "__main__":
    text = PAGE.read_text(encoding="utf-8")
    PAGE.write_text(_MARKED.sub(lambda m: f"{m.group(1)}\n{examples_table()}\n\n{m.group(3)}", text), "utf-8")
