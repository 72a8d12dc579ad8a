"""Typed tools: which tools are typed, their listings per version and option set, misfits as error
results naming the path, structured=/output_schema=/validate_output=, testing.Client's check of
listed schemas, and frames in arguments (round trip of what the output side writes).

Expected JSON comes from the system itself (mcplite's writer, checked against jsonlite in
tests/test_mcplite_typed_properties.py), and R is asked where a behaviour is R's.
"""

from __future__ import annotations

import dataclasses
import datetime
import itertools
import json
import math
import subprocess
import sys
from typing import Annotated, Any, Literal, NotRequired, TypedDict

import attrs
import jsonschema
import pandas as pd
import pytest

import mcplite
import rvalues as rv
from mcplite.payload.rjson import encode_json, options_in_force
from mcplite.testing import Client
from mcplite.tools.annotations import read
from mcplite.tools.frame_arguments import rows_to_frame
from mcplite.tools.typed_values import typed_value
from rvalues.json import JsonOptions
from tests.conftest import requires_r
from tests.rbatch import ask_r

OPTION_SETS = [
    {"json_na": na, "json_null": null, "json_auto_unbox": unbox}
    for na, null, unbox in itertools.product((None, "null", "string"), ("null", "list"), (True, False))
]


@attrs.frozen
class GroupMean:
    group: str
    mean: float
    n: int


@attrs.frozen
class Summary:
    column: str
    groups: Annotated[pd.DataFrame, mcplite.Rows(GroupMean)]
    values: rv.Double
    overall: float | None


# the functional form is evaluated at once, so NotRequired is seen under `from __future__ import annotations`
Movie = TypedDict("Movie", {"title": str, "year": NotRequired[int]})  # noqa: UP013


def frame(**columns: Any) -> pd.DataFrame:
    return pd.DataFrame(columns)


def summary(groups: pd.DataFrame | None = None, overall: float | None = 1.5) -> Summary:
    if groups is None:
        groups = frame(group=["a", "b"], mean=[1.5, math.nan], n=[2, 0])
    return Summary("mass", groups, rv.Double([1.0, None]), overall)


def server_with(function: Any, **options: Any) -> mcplite.McpServer:
    server = mcplite.McpServer("t", validate_output=options.pop("validate_output", False))
    server.tool(**options)(function) if options else server.tool(function)
    return server


# -- which tools are typed, and what they list -------------------------------------------------------------


def test_a_record_return_type_makes_a_typed_tool_with_a_derived_schema() -> None:
    def summarize() -> Summary:
        return summary()

    registered = server_with(summarize).get_tool("summarize")
    assert registered is not None and registered.returns is not None
    assert registered.tool.output_schema == mcplite.output_schema(Summary)
    assert registered.tool.output_schema["required"] == ["column", "groups", "values", "overall"]


@pytest.mark.parametrize(
    "annotation", [int, str, dict[str, Any], list[int], rv.DataFrame, pd.DataFrame, tuple[Summary, int]]
)
def test_untyped_return_types_keep_the_seeds_rules(annotation: Any) -> None:
    def tool() -> Any:
        return 1

    tool.__annotations__["return"] = annotation
    registered = server_with(tool).get_tool("tool")
    assert registered is not None
    assert registered.returns is None and registered.tool.output_schema is None
    assert registered.to_result(1, options_in_force()).structured is mcplite.ABSENT


@dataclasses.dataclass
class Node:
    children: list[Node]


def test_a_class_that_contains_itself_leaves_the_tool_untyped_unless_structured_is_asked() -> None:
    def tree() -> Node:
        return Node([])

    tree.__annotations__["return"] = Node
    assert server_with(tree).get_tool("tree").returns is None  # type: ignore[union-attr]
    with pytest.raises(TypeError, match="contains itself"):
        server_with(tree, structured=True)


def test_structured_false_opts_out() -> None:
    def summarize() -> Summary:
        return summary()

    registered = server_with(summarize, structured=False).get_tool("summarize")
    assert registered is not None and registered.tool.output_schema is None
    result = registered.to_result(summary(), options_in_force())
    assert result.structured is mcplite.ABSENT and not result.is_error


def test_structured_true_needs_a_typed_return() -> None:
    def count() -> int:
        return 1

    with pytest.raises(TypeError, match="structured=True needs a return annotation"):
        server_with(count, structured=True)


def test_output_schema_overrides_the_derived_one() -> None:
    schema = {"type": "object"}

    def summarize() -> Summary:
        return summary()

    registered = server_with(summarize, output_schema=schema).get_tool("summarize")
    assert registered is not None and registered.returns is None
    assert registered.tool.output_schema == schema


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_the_listing_follows_the_options_of_the_request(options: dict[str, Any]) -> None:
    def summarize() -> Summary:
        return summary()

    server = server_with(summarize)
    with mcplite.options(**options), Client(server, "2025-11-25") as client:
        listed = client.list_tools()[0].output_schema
        result = client.call_tool("summarize")
        assert listed == mcplite.output_schema(Summary)
    assert not result.is_error
    jsonschema.Draft202012Validator(listed).validate(result.structured_content)


def test_json_na_null_changes_the_schema_and_the_frame_rows() -> None:
    with mcplite.options(json_na="null"):
        schema = mcplite.output_schema(GroupMean)
        rows = mcplite.output_schema(Annotated[pd.DataFrame, mcplite.Rows(GroupMean)])
    assert schema["properties"]["mean"] == {"type": ["number", "null"]}
    assert rows["items"]["required"] == ["group", "mean", "n"]
    assert "required" not in mcplite.output_schema(Annotated[pd.DataFrame, mcplite.Rows(GroupMean)])["items"]


@pytest.mark.parametrize("version", mcplite.PROTOCOL_VERSIONS)
def test_each_version_lists_what_it_can_carry(version: str) -> None:
    server = mcplite.McpServer("t")

    @server.tool
    def record() -> Summary:
        return summary()

    @server.tool
    def rows() -> Annotated[pd.DataFrame, mcplite.Rows(GroupMean)]:
        return frame(group=["a"], mean=[1.0], n=[1])

    with Client(server, version) as client:
        listed = {tool.name: tool.output_schema for tool in client.list_tools()}
        results = {name: client.call_tool(name) for name in listed}
    modern, structured = version >= "2026-07-28", version >= "2025-06-18"
    assert (listed["record"] is not None) == structured
    assert (listed["rows"] is not None) == modern
    for name, schema in listed.items():
        result = results[name]
        assert not result.is_error
        if schema is None:
            assert result.structured_content is mcplite.ABSENT
        else:
            jsonschema.Draft202012Validator(schema).validate(result.structured_content)
            assert json.loads(result.text) == result.structured_content


# -- misfits -------------------------------------------------------------------------------------------


MISFITS: list[tuple[str, Any, str]] = [
    (
        "missing column",
        summary(frame(group=["a"], n=[1])),
        "groups[*].mean is missing, expected a column of a number",
    ),
    (
        "extra column",
        summary(frame(group=["a"], mean=[1.0], n=[1], sd=[0.1])),
        "groups[*].sd is present, expected no column 'sd'",
    ),
    (
        "wrong type in row 3",
        summary(frame(group=list("abcd"), mean=[1.0, 2.0, 3.0, "x"], n=[1] * 4)),
        "groups[3].mean is str ('x'), expected a number",
    ),
    (
        "not whole",
        summary(frame(group=["a", "b"], mean=[1.0, 2.0], n=[1, 2.5])),
        "groups[1].n is float (2.5), expected an integer",
    ),
    (
        "not a frame",
        Summary("m", [{"group": "a"}], rv.Double([]), None),
        "groups is list ([{'group': 'a'}]), expected a data frame",
    ),
    (
        "wrong field type",
        Summary(3, frame(group=[], mean=[], n=[]), rv.Double([]), None),  # type: ignore[arg-type]
        "column is int (3), expected a string",
    ),
    (
        "None where not optional",
        Summary("m", frame(group=[], mean=[], n=[]), None, None),  # type: ignore[arg-type]
        "values is NoneType (None), expected a vector (Double)",
    ),
]


@pytest.mark.parametrize(("label", "value", "message"), MISFITS, ids=[m[0] for m in MISFITS])
def test_a_misfit_is_an_error_result_naming_the_path_and_the_expected_type(
    label: str, value: Any, message: str
) -> None:
    def summarize() -> Summary:
        return value  # type: ignore[no-any-return]

    with Client(server_with(summarize), "2025-11-25") as client:
        result = client.call_tool("summarize")
    assert result.is_error and result.structured_content is mcplite.ABSENT
    assert message in result.text, result.text


@pytest.mark.parametrize(
    ("value", "message"),
    [
        ({"title": "Up", "year": "2009"}, "year is str ('2009'), expected an integer"),
        ({"year": 2009}, "title is missing, expected a string"),
        ({"title": "Up", "rating": 5}, "rating is int (5), expected no field 'rating'"),
    ],
)
def test_typeddict_misfits(value: Any, message: str) -> None:
    def movie() -> Movie:
        return value  # type: ignore[no-any-return]

    with Client(server_with(movie), "2025-11-25") as client:
        result = client.call_tool("movie")
    assert result.is_error and message in result.text, result.text


def test_a_value_outside_a_literal_is_a_misfit() -> None:
    @dataclasses.dataclass
    class Pick:
        side: Literal["left", "right"]

    def pick() -> Pick:
        return Pick("up")  # type: ignore[arg-type]

    pick.__annotations__["return"] = Pick
    with Client(server_with(pick), "2025-11-25") as client:
        result = client.call_tool("pick")
    assert result.is_error
    assert "side is str ('up'), expected one of 'left', 'right'" in result.text
    frame_type = Annotated[pd.DataFrame, mcplite.Rows(Pick)]
    with pytest.raises(ValueError, match=r"\[1\]\.side is str \('up'\), expected one of 'left', 'right'"):
        typed_value(read(frame_type), frame(side=["left", "up"]))


def test_a_not_required_typeddict_key_may_be_absent() -> None:
    assert encode_json(typed_value(read(Movie), {"title": "Up"}), options=JsonOptions()) == '{"title":"Up"}'


def test_typing_extensions_typeddicts_are_typeddicts() -> None:
    """pydantic (so the MCP SDK and FastMCP) wants typing_extensions.TypedDict before Python 3.12."""
    import typing_extensions

    Row = typing_extensions.TypedDict("Row", {"group": str, "mean": float})  # noqa: UP013
    PlainRow = TypedDict("PlainRow", {"group": str, "mean": float})  # noqa: UP013
    frame_type = Annotated[pd.DataFrame, mcplite.Rows(Row)]
    assert mcplite.output_schema(frame_type) == mcplite.output_schema(
        Annotated[pd.DataFrame, mcplite.Rows(PlainRow)]
    )
    assert mcplite.output_schema(Row)["required"] == ["group", "mean"]
    value = typed_value(read(frame_type), frame(group=["a"], mean=[math.nan]))
    assert encode_json(value, options=JsonOptions()) == '[{"group":"a"}]'


# -- hand-written schemas: validate_output and testing.Client ------------------------------------------


def nan_mean() -> dict[str, float]:
    return {"mean": math.nan}


HAND_WRITTEN = {"type": "object", "properties": {"mean": {"type": "number"}}, "required": ["mean"]}


def test_validate_output_checks_a_hand_written_schema_on_each_call() -> None:
    server = server_with(nan_mean, output_schema=HAND_WRITTEN, validate_output=True)
    registered = server.get_tool("nan_mean")
    assert registered is not None
    result = registered.to_result(nan_mean(), options_in_force())
    assert result.is_error
    assert "mean is str ('NaN'), expected type 'number'" in result.content[0].text  # type: ignore[union-attr]
    fine = registered.to_result({"mean": 1.5}, options_in_force())
    assert not fine.is_error and fine.structured_content == {"mean": 1.5}


def test_jsonschema_is_imported_at_the_first_check_not_with_mcplite() -> None:
    """With its format checkers installed, jsonschema takes a second or more to import: a server
    that never checks a hand-written schema does not pay it at start-up."""
    code = (
        "import sys, mcplite\n"
        "server = mcplite.McpServer('t')\n"
        "print('jsonschema' in sys.modules)\n"
        "mcplite.tools.typed_values.output_misfit({'type': 'object'}, {})\n"
        "print('jsonschema' in sys.modules)"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.split() == ["False", "True"]


def test_without_validate_output_the_server_sends_what_the_schema_forbids() -> None:
    registered = server_with(nan_mean, output_schema=HAND_WRITTEN).get_tool("nan_mean")
    assert registered is not None
    result = registered.to_result(nan_mean(), options_in_force())
    assert not result.is_error and result.structured_content == {"mean": "NaN"}


def test_testing_client_checks_every_call_against_the_listed_schema() -> None:
    """What the official SDK's client would refuse, mcplite.testing.Client reports as an error result."""
    with Client(server_with(nan_mean, output_schema=HAND_WRITTEN), "2025-11-25") as client:
        result = client.call_tool("nan_mean")
    assert result.is_error
    assert "does not fit its output schema: mean is str ('NaN'), expected type 'number'" in result.text

    def missing() -> dict[str, float]:
        return None  # type: ignore[return-value]

    with Client(server_with(missing, output_schema=HAND_WRITTEN), "2025-11-25") as client:
        result = client.call_tool("missing")
    assert result.is_error and "returned no structured content" in result.text


# -- frames in arguments -------------------------------------------------------------------------------


@dataclasses.dataclass
class Obs:
    species: Literal["Adelie", "Gentoo"]
    mass: float
    n: int
    ok: bool
    day: datetime.date


OBS = rv.data_frame_from_pairs(
    [
        ("species", rv.factor(rv.Character(["Adelie", None, "Gentoo"]), levels=["Adelie", "Gentoo"])),
        ("mass", rv.Double([3700.5, None, math.nan])),
        ("n", rv.Integer([1, None, 3])),
        ("ok", rv.Logical([True, None, False])),
        ("day", rv.Date(["2024-05-01", None, "2024-05-03"])),
    ]
)


OBS_NAN_AS_NA = rv.data_frame_from_pairs(
    [
        (name, rv.Double([3700.5, None, None]) if name == "mass" else column)
        for name, column in zip(OBS.names.tolist(), OBS.data)
    ]
)


@pytest.mark.parametrize("options", OPTION_SETS, ids=str)
def test_frames_written_by_a_typed_tool_come_back_as_the_same_frame(options: dict[str, Any]) -> None:
    """Rows in, frame out: what the output side writes under any option set is read back with the
    declared column types (NaN stays NaN where the option set writes it; else it is NA, as in R)."""
    frame_type = Annotated[rv.DataFrame, mcplite.Rows(Obs)]
    with mcplite.options(**options):
        text = encode_json(typed_value(read(frame_type), OBS), options=options_in_force())
    back = rows_to_frame(read(frame_type), json.loads(text))
    kept = OBS if options["json_na"] == "string" else OBS_NAN_AS_NA  # only "string" writes NaN apart from NA
    exact = JsonOptions(na="string")
    assert encode_json(back, options=exact) == encode_json(typed_value(read(frame_type), kept), options=exact)
    assert [type(column).__name__ for column in back.data] == [
        "Factor",
        "Double",
        "Integer",
        "Logical",
        "Date",
    ]


def test_a_tool_takes_rows_and_gets_a_pandas_frame_with_the_declared_types() -> None:
    server = mcplite.McpServer("t")
    seen: list[pd.DataFrame] = []

    @server.tool
    def count(rows: Annotated[pd.DataFrame, mcplite.Rows(Obs)]) -> int:
        seen.append(rows)
        return len(rows)

    schema = server.get_tool("count").tool.input_schema["properties"]["rows"]  # type: ignore[union-attr]
    rows = [{"species": "Adelie", "mass": "NaN", "n": 1, "ok": True, "day": "2024-05-01"}, {"mass": None}, {}]
    jsonschema.Draft202012Validator(schema).validate(rows)
    with Client(server, "2025-11-25") as client:
        assert client.call_tool("count", {"rows": rows}).text == "3"
        bad = client.call_tool("count", {"rows": [{"species": "Emperor"}]})
    got = seen[0]
    assert [str(t) for t in got.dtypes] == [str(t) for t in rv.to_pandas(OBS).dtypes]
    assert got["n"].isna().tolist() == [False, True, True]
    assert bad.is_error and "rows[0].species" in bad.text


@requires_r
def test_an_na_field_is_absent_from_a_frames_rows_as_jsonlite_writes_it() -> None:
    """R's own answer for the rule the schema encodes: NA (and NaN) fields are left out of a row."""
    frame_type = Annotated[rv.DataFrame, mcplite.Rows(Obs)]
    x = typed_value(read(frame_type), OBS)
    asked = [{"x": rv.describe(x), "options": {"auto_unbox": True, "null": "null"}}]
    (answer,) = ask_r("tojson", asked)
    assert answer["json"] == encode_json(x, options=JsonOptions(auto_unbox=True, null="null"))
    assert json.loads(answer["json"])[1] == {}
