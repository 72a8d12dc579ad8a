"""The demo server's tools, called directly; expected values are computed with pandas from the same CSV."""

from __future__ import annotations

import base64
import doctest
import json
import threading
from importlib import resources
from typing import Any

import numpy as np
import pandas as pd
import pytest

import mcplite
import rvalues as rv
from mcplite.demo import server as demo
from mcplite.payload.rjson import options_in_force
from mcplite.tools.context import Context, ToolCancelled

CSV = resources.files("mcplite").joinpath("data").joinpath("penguins.csv")
NUMERIC = ["bill_length_mm", "bill_depth_mm", "flipper_length_mm", "body_mass_g", "year"]


@pytest.fixture(scope="module")
def raw() -> pd.DataFrame:
    """The CSV as plain pandas reads it (its own NA handling, no dtypes given)."""
    with CSV.open("rb") as file:
        return pd.read_csv(file)


def strict_json(text: str) -> Any:
    def refuse(constant: str) -> Any:
        raise ValueError(f"not JSON: {constant}")

    return json.loads(text, parse_constant=refuse)


def payload(value: Any) -> Any:
    """What a client parses from the tool result of ``value``."""
    block = mcplite.as_tool_result(value).content[0]
    assert isinstance(block, mcplite.TextContent)
    return strict_json(block.text)


def jsonlite_number(x: float) -> Any:
    """A double as jsonlite writes it (4 decimal digits), parsed back."""
    return strict_json(rv.to_json(rv.unbox(float(x))))


def make_context(token: str | None = "tok") -> tuple[Context, list[tuple[str, dict[str, Any]]]]:
    sent: list[tuple[str, dict[str, Any]]] = []
    ctx = Context(
        request_id=1,
        protocol_version="2025-06-18",
        notify=lambda method, params: sent.append((method, params)),
        progress_token=token,
    )
    return ctx, sent


# -- the data ---------------------------------------------------------------------------------------


def test_data_as_r_types(raw: pd.DataFrame) -> None:
    frame = demo.penguins()
    assert frame.nrow == len(raw) == 344
    classes = {name: column.r_class[0] for name, column in frame.columns.items()}
    assert classes == {
        "species": "factor",
        "island": "factor",
        "bill_length_mm": "numeric",
        "bill_depth_mm": "numeric",
        "flipper_length_mm": "integer",
        "body_mass_g": "integer",
        "sex": "factor",
        "year": "integer",
    }
    sex = frame.columns["sex"]
    assert isinstance(sex, rv.Factor)
    assert sex.levels.tolist() == ["female", "male"]
    assert sex.labels() == [None if pd.isna(x) else x for x in raw["sex"]]
    assert frame.columns["body_mass_g"].tolist() == [
        None if pd.isna(x) else int(x) for x in raw["body_mass_g"]
    ]
    assert demo.penguins() is frame  # read once


# -- describe_data ----------------------------------------------------------------------------------


def test_describe_data(raw: pd.DataFrame) -> None:
    described = demo.describe_data()
    assert described.nrow == 8
    cols = described.columns
    assert cols["column"].tolist() == list(raw.columns)
    assert cols["missing"].tolist() == [int(n) for n in raw.isna().sum()]
    for i, name in enumerate(raw.columns):
        if name in NUMERIC:
            present = raw[name].dropna()
            assert cols["min"].tolist()[i] == present.min()
            assert cols["mean"].tolist()[i] == pytest.approx(present.mean(), rel=1e-15)
            assert cols["max"].tolist()[i] == present.max()
        else:
            assert [cols[stat].tolist()[i] for stat in ("min", "mean", "max")] == [None, None, None]
    rows = payload(described)
    assert rows[0] == {"column": "species", "class": "factor", "missing": 0}  # NA fields left out
    assert rows[5]["mean"] == jsonlite_number(raw["body_mass_g"].mean())


# -- filter_rows ------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("column", "op", "value"),
    [
        ("body_mass_g", ">=", 6000),
        ("bill_length_mm", "<", 35.0),
        ("bill_depth_mm", "!=", 18.0),
        ("year", "==", 2008),
        ("flipper_length_mm", "<=", "180"),
        ("sex", "!=", "male"),
        ("species", "==", "Chinstrap"),
    ],
)
def test_filter_rows_as_subset(raw: pd.DataFrame, column: str, op: str, value: Any) -> None:
    target = float(value) if isinstance(value, str) and column in NUMERIC else value
    keep = (
        raw[column].notna()
        & {
            "==": raw[column] == target,
            "!=": raw[column] != target,
            "<": raw[column] < target,
            "<=": raw[column] <= target,
            ">": raw[column] > target,
            ">=": raw[column] >= target,
        }[op]
    )
    expected = raw[keep].head(5)
    got = demo.filter_rows(column, op, value, limit=5)  # type: ignore[arg-type]
    assert got.row_names.tolist() == [i + 1 for i in expected.index]  # subset() keeps row numbers
    for name in raw.columns:
        want = [None if pd.isna(x) else x for x in expected[name]]
        have = got.columns[name]
        assert (have.labels() if isinstance(have, rv.Factor) else have.tolist()) == want


def test_filter_rows_json_and_limit(raw: pd.DataFrame) -> None:
    rows = payload(demo.filter_rows("sex", "==", "female", limit=3))
    assert len(rows) == 3 and all(row["sex"] == "female" for row in rows)
    assert payload(demo.filter_rows("species", "==", "Emperor")) == []
    heavy = demo.filter_rows("body_mass_g", ">", 0, limit=1000)
    assert heavy.nrow == int(raw["body_mass_g"].notna().sum())  # the 2 NA rows are left out
    assert demo.filter_rows("year", ">", 0).nrow == 20  # default limit


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("wingspan", "==", 1), "unknown column 'wingspan'; the columns are: species, island"),
        (("species", "<", "Gentoo"), "'<' is not meaningful for factors"),
        (
            ("island", "==", 3),
            "column 'island' is a factor; compare it with a label (Biscoe, Dream, Torgersen)",
        ),
        (("body_mass_g", ">", "heavy"), "column 'body_mass_g' is numeric; compare it with a number"),
        (("year", "==", 2007, -1), "limit must be 0 or more"),
    ],
)
def test_filter_rows_errors(args: tuple[Any, ...], message: str) -> None:
    with pytest.raises(mcplite.ToolError) as caught:
        demo.filter_rows(*args)
    assert message in str(caught.value)


# -- summarize_by_group -----------------------------------------------------------------------------


@pytest.mark.parametrize("stat", ["mean", "median", "min", "max", "count"])
@pytest.mark.parametrize(
    ("column", "by"), [("body_mass_g", "species"), ("bill_length_mm", "sex"), ("sex", "year")]
)
def test_summarize_by_group(raw: pd.DataFrame, column: str, by: str, stat: str) -> None:
    ctx, sent = make_context()
    if stat != "count" and column == "sex":
        with pytest.raises(mcplite.ToolError, match="column 'sex' is a factor, not numeric"):
            demo.summarize_by_group(column, ctx, by=by, stat=stat)  # type: ignore[arg-type]
        return
    got = demo.summarize_by_group(column, ctx, by=by, stat=stat)  # type: ignore[arg-type]
    clean = raw[[column, by]].dropna()
    expected = clean.groupby(by, sort=True)[column].agg("count" if stat == "count" else stat)
    assert got.columns["group"].tolist() == [str(label) for label in expected.index]  # as split() names
    value = got.columns["value"]
    if stat == "count" or (stat in ("min", "max") and column == "body_mass_g"):  # R's types
        assert isinstance(value, rv.Integer)
        assert value.tolist() == [int(x) for x in expected]
    else:
        assert isinstance(value, rv.Double)
        assert value.tolist() == pytest.approx(list(expected), rel=1e-15)
    assert [params["progress"] for _, params in sent] == list(range(1, len(expected) + 1))
    assert {(m, p["total"]) for m, p in sent} == {("notifications/progress", len(expected))}
    assert sent[0][1]["message"] == f"{by} = {expected.index[0]}"


def test_summarize_by_group_json_and_errors(raw: pd.DataFrame) -> None:
    ctx, _ = make_context(token=None)  # no progress token: nothing is sent, nothing fails
    rows = payload(demo.summarize_by_group("flipper_length_mm", ctx))
    means = raw.groupby("species")["flipper_length_mm"].mean()
    assert rows == [{"group": g, "value": jsonlite_number(m)} for g, m in means.items()]
    with pytest.raises(mcplite.ToolError, match="unknown column 'colour'"):
        demo.summarize_by_group("body_mass_g", ctx, by="colour")
    cancelled = threading.Event()
    cancelled.set()
    stopped = Context(
        request_id=2, protocol_version="2025-06-18", notify=lambda m, p: None, cancelled=cancelled
    )
    with pytest.raises(ToolCancelled):
        demo.summarize_by_group("body_mass_g", stopped)


# -- plot_histogram ---------------------------------------------------------------------------------


def test_plot_histogram(raw: pd.DataFrame) -> None:
    result = demo.plot_histogram("body_mass_g", bins=10)
    image, caption = result.content
    assert isinstance(image, mcplite.ImageContent) and isinstance(caption, mcplite.TextContent)
    assert image.mime_type == "image/png"
    assert base64.b64decode(image.data).startswith(b"\x89PNG\r\n\x1a\n")
    present = raw["body_mass_g"].dropna()
    assert caption.text == (
        f"Histogram of body_mass_g: {len(present)} values in 10 bins from {present.min():g} "
        f"to {present.max():g} ({raw['body_mass_g'].isna().sum()} NA removed)."
    )
    wire = result.to_wire("2025-06-18")
    assert [block["type"] for block in wire["content"]] == ["image", "text"] and "isError" not in wire
    with pytest.raises(mcplite.ToolError, match="bins must be between 1 and 200"):
        demo.plot_histogram("body_mass_g", bins=0)
    with pytest.raises(mcplite.ToolError, match="column 'island' is a factor"):
        demo.plot_histogram("island")


# -- column_stats -----------------------------------------------------------------------------------


def validate(value: Any, schema: dict[str, Any]) -> None:
    """Check against the schema with jsonschema (Draft 2020-12)."""
    jsonschema = pytest.importorskip("jsonschema")
    jsonschema.Draft202012Validator(schema).validate(value)


@pytest.mark.parametrize("column", NUMERIC)
def test_column_stats(raw: pd.DataFrame, column: str) -> None:
    present = raw[column].dropna().astype(float)
    registered = demo.build_server().get_tool("column_stats")
    assert registered is not None
    result = registered.to_result(demo.column_stats(column), options_in_force())
    data = result.structured_content
    validate(data, mcplite.output_schema(demo.ColumnStats))
    assert data == {
        "name": column,
        "n": len(present),
        "missing": int(raw[column].isna().sum()),
        "mean": jsonlite_number(present.mean()),
        "sd": jsonlite_number(np.std(present.to_numpy(), ddof=1)),
    }
    block = result.content[0]
    assert isinstance(block, mcplite.TextContent) and strict_json(block.text) == data


def test_column_stats_keeps_its_schema_under_other_options() -> None:
    registered = demo.build_server().get_tool("column_stats")
    assert registered is not None
    with mcplite.options(json_auto_unbox=False, json_na="null"):
        data = registered.to_result(demo.column_stats("year"), options_in_force()).structured_content
        schema = mcplite.output_schema(demo.ColumnStats)
    validate(data, schema)
    with pytest.raises(mcplite.ToolError, match="column 'species' is a factor"):
        demo.column_stats("species")


# -- the server -------------------------------------------------------------------------------------


def test_docstring_examples() -> None:
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    for test in doctest.DocTestFinder().find(demo, demo.__name__):
        runner.run(test)
    assert runner.failures == 0
