"""A tool's own toJSON arguments (``@server.tool(to_json={...})``) keep a typed tool's types.

Each tool below returns the same typed value under one set of arguments. The oracles: R builds the
value from a plain description and writes it with jsonlite under the same arguments (one Rscript run,
tests/r/typed_cases.R), and the official SDK client (over Streamable HTTP on loopback) checks every
structured result against the schema the server listed, at 2025-06-18, 2025-11-25 and 2026-07-28.
"""

from __future__ import annotations

import datetime
import json
import zoneinfo
from collections.abc import Iterator
from typing import Annotated, Any, Literal, TypedDict

import attrs
import pandas as pd
import pytest

import mcplite
import rvalues as rv
from mcplite.features.result_store import TRUNCATED_KEY
from mcplite.testing import Client
from tests.conftest import RSCRIPT
from tests.serving import served
from tests.typed_oracle import double_text, r_options, r_writes, sdk_client

jsonschema = pytest.importorskip("jsonschema")

pytestmark = pytest.mark.anyio

VERSIONS = ("2025-06-18", "2025-11-25", "2026-07-28")
ZONE = "Europe/Berlin"
LEVELS = ["low", "high"]


class Row(TypedDict):
    x: float
    at: datetime.datetime
    day: datetime.date
    kind: Literal["low", "high"]


@attrs.frozen
class Reading:
    rows: Annotated[pd.DataFrame, mcplite.Rows(Row)]
    x: float
    xs: rv.Double
    at: datetime.datetime
    stamps: rv.POSIXct
    day: datetime.date
    days: rv.Date
    kinds: rv.Factor


XS = [1 / 3, 2.0, 12345.678901234]
SECONDS = [1704063606.5, 1719792000.0, 1704067200.0]
"""2024-01-01 00:00:06.5 in Berlin (23:00:06.5 UTC the day before), a summer midnight, a winter one."""
DAYS = [19723.0, 0.0, -1.0]
KINDS = ["high", "low", "high"]


def _instant(seconds: float) -> datetime.datetime:
    return datetime.datetime.fromtimestamp(seconds, zoneinfo.ZoneInfo(ZONE))


def reading() -> Reading:
    rows = pd.DataFrame(
        {
            "x": XS,
            "at": pd.to_datetime(SECONDS, unit="s", utc=True).tz_convert(ZONE),
            "day": [datetime.date(1970, 1, 1) + datetime.timedelta(days=d) for d in DAYS],
            "kind": KINDS,
        }
    )
    return Reading(
        rows,
        XS[0],
        rv.Double(XS),
        _instant(SECONDS[0]),
        rv.as_posixct(rv.Double(SECONDS), tz=ZONE, origin="1970-01-01"),
        datetime.date(2024, 1, 1),
        rv.as_date(rv.Double(DAYS), origin="1970-01-01"),
        rv.factor(rv.Character(KINDS), levels=rv.Character(LEVELS)),
    )


def _column(kind: str, values: list[Any], **more: Any) -> dict[str, Any]:
    texts = [double_text(v) for v in values] if kind in ("double", "Date", "POSIXct") else values
    return {"type": kind, "values": texts, **more}


READING_R = {
    "record": [
        {
            "name": "rows",
            "node": {
                "frame": [
                    {"name": "x", **_column("double", XS)},
                    {"name": "at", **_column("POSIXct", SECONDS, tz=ZONE)},
                    {"name": "day", **_column("Date", DAYS)},
                    {"name": "kind", **_column("factor", KINDS, levels=LEVELS)},
                ]
            },
        },
        {"name": "x", "node": {"unbox": _column("double", XS[:1])}},
        {"name": "xs", "node": {"I": _column("double", XS)}},
        {"name": "at", "node": {"unbox": _column("POSIXct", SECONDS[:1], tz=ZONE)}},
        {"name": "stamps", "node": {"I": _column("POSIXct", SECONDS, tz=ZONE)}},
        {"name": "day", "node": {"unbox": _column("Date", DAYS[:1])}},
        {"name": "days", "node": {"I": _column("Date", DAYS)}},
        {"name": "kinds", "node": {"I": _column("factor", KINDS, levels=LEVELS)}},
    ]
}

CASES: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    # tool name: (the tool's to_json, jsonlite's arguments for R)
    "plain": ({}, {}),
    "digits_na": ({"digits": None}, {"digits": {"NA": True}}),
    "digits_signif": ({"digits": rv.signif(3)}, {"digits": {"I": 3}}),
    "iso_utc": ({"posixt": "ISO8601", "utc": True}, {"POSIXt": "ISO8601", "UTC": True}),
    "time_format": ({"time_format": "%Y-%m-%dT%H:%M:%S%z"}, {"time_format": "%Y-%m-%dT%H:%M:%S%z"}),
    "iso_secs": ({"posixt": "ISO8601", "digits_secs": 3}, {"POSIXt": "ISO8601", "digits.secs": 3}),
    "string_secs": ({"digits_secs": 3}, {"digits.secs": 3}),
    "posixt_epoch": ({"posixt": "epoch"}, {"POSIXt": "epoch"}),
    "date_epoch": ({"date": "epoch"}, {"Date": "epoch"}),
    "factor_integer": ({"factor": "integer"}, {"factor": "integer"}),
    "always_decimal": ({"always_decimal": True}, {"always_decimal": True}),
}
TYPE_CHANGING = (
    "iso_utc",
    "time_format",
    "iso_secs",
    "string_secs",
    "posixt_epoch",
    "date_epoch",
    "factor_integer",
)
"""The cases whose R text the default arguments' schema refuses (a field's type or pattern changes)."""

MANY = 400
WIDE = [i / 7 for i in range(MANY)]
MANY_SECONDS = [1704063606.0 + 3600 * i for i in range(MANY)]

MORE_R: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {
    "many": (
        {
            "frame": [
                {"name": "x", **_column("double", WIDE)},
                {"name": "at", **_column("POSIXct", MANY_SECONDS, tz=ZONE)},
            ]
        },
        CASES["iso_utc"][1] | CASES["digits_na"][1],
    ),
    "wrapped": (READING_R["record"][0]["node"], CASES["factor_integer"][1] | CASES["date_epoch"][1]),
}
"""R's cases for the cut result's rows and for the wrapped rows' tool."""


server = mcplite.McpServer("to-json", version="1.0.0")
for _name, (_arguments, _) in CASES.items():
    server.add_tool(reading, name=_name, description=f"A reading under {_arguments}.", to_json=_arguments)


@server.tool(wrap_rows=True, to_json={"factor": "integer", "date": "epoch"})
def wrapped() -> Annotated[pd.DataFrame, mcplite.Rows(Row)]:
    """A reading's rows, wrapped for clients before 2026-07-28."""
    return reading().rows


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with served(server.asgi_app()) as base:
        yield base + "/mcp"


@pytest.fixture(scope="module")
def r_json() -> dict[str, str]:
    """What jsonlite writes for each tool's value under its arguments (default payload options), and
    for the other tools below: one Rscript run for the module."""
    if RSCRIPT is None:
        pytest.skip("needs Rscript (R with jsonlite)")
    cases = {name: (READING_R, r) for name, (_, r) in CASES.items()}
    cases |= {name: (node, r) for name, (node, r) in MORE_R.items()}
    answers = r_writes([{"value": node, "options": r_options({}), "args": r} for node, r in cases.values()])
    assert all("json" in answer for answer in answers), answers
    return {name: answer["json"] for name, answer in zip(cases, answers, strict=True)}


def listed_schema(client: Client, name: str) -> dict[str, Any]:
    schema: dict[str, Any] = next(t for t in client.list_tools() if t.name == name).output_schema
    return schema


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name", list(CASES))
def test_each_argument_through_the_testing_client(r_json: dict[str, str], name: str, version: str) -> None:
    with Client(server, protocol_version=version) as client:
        result = client.call_tool(name, {})
        schema = listed_schema(client, name)
    assert not result.is_error, result.content[0].text
    assert [block.text for block in result.content] == [r_json[name]]
    assert result.structured_content == json.loads(r_json[name])
    jsonschema.validate(result.structured_content, schema)


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name", list(CASES))
async def test_each_argument_through_the_sdk_client(
    url: str, r_json: dict[str, str], name: str, version: str
) -> None:
    async with sdk_client(url, version, {}) as client:
        result = await client.call_tool(name, {})  # raises when the result does not fit the listed schema
    assert not result.is_error, result.content[0].text
    assert [block.text for block in result.content] == [r_json[name]]
    assert result.structured_content == json.loads(r_json[name])


def test_every_argument_changes_what_r_writes(r_json: dict[str, str]) -> None:
    """Each case is a real test of its argument: R writes this value differently under it."""
    for name in CASES:
        if name != "plain":
            assert r_json[name] != r_json["plain"], name


@pytest.mark.parametrize("name", TYPE_CHANGING)
def test_the_schema_follows_the_arguments(r_json: dict[str, str], name: str) -> None:
    """The default arguments' schema refuses what R writes under the tool's: the derived schema
    had to change with them (and the tool's own schema takes it, above)."""
    with Client(server, protocol_version="2025-11-25") as client:
        plain = listed_schema(client, "plain")
    assert not jsonschema.Draft202012Validator(plain).is_valid(json.loads(r_json[name]))


def test_a_date_times_description_says_what_is_written() -> None:
    with Client(server, protocol_version="2025-11-25") as client:
        notes = {name: listed_schema(client, name)["properties"]["at"]["description"] for name in CASES}
    assert "UTC, marked Z" in notes["iso_utc"]
    assert "%Y-%m-%dT%H:%M:%S%z" in notes["time_format"]
    assert "milliseconds since 1970" in notes["posixt_epoch"]
    assert notes["digits_na"] == notes["plain"]


@pytest.mark.parametrize(
    ("to_json", "message"),
    [
        ({"na": "null"}, "to_json cannot set 'na': the payload option json_na does"),
        ({"auto_unbox": False}, "to_json cannot set 'auto_unbox'"),
        (
            {"POSIXt": "ISO8601"},
            "no argument 'POSIXt' \\(did you mean 'posixt'\\?\\); the arguments are date, ",
        ),
        ({"posixt": "iso"}, "to_json\\['posixt'\\]: 'arg' should be one of .string., .ISO8601."),
        ({"digits": "3"}, "to_json\\['digits'\\]: is.numeric\\(digits\\) is not TRUE"),
        ({"pretty": True}, "cannot set 'pretty'"),
        ({"dataframe": "columns"}, "cannot set 'dataframe' for a typed tool"),
        ({"posixt": "mongo"}, "cannot set posixt='mongo' for a typed tool"),
    ],
)
def test_bad_arguments_are_refused_at_registration_by_name(to_json: dict[str, Any], message: str) -> None:
    refusing = mcplite.McpServer("refusing")
    with pytest.raises(ValueError, match=message):
        refusing.tool(to_json=to_json)(reading)
    assert not refusing.tools


def test_an_untyped_tool_may_shape_its_text() -> None:
    """Without a derived schema nothing has to follow the shape: dataframe='columns' is jsonlite's."""
    shaping = mcplite.McpServer("shaping")

    @shaping.tool(to_json={"dataframe": "columns"})
    def table() -> pd.DataFrame:
        """A table."""
        return pd.DataFrame({"x": [1, 2]})

    with Client(shaping, protocol_version="2025-11-25") as client:
        text = client.call_tool("table", {}).content[0].text
    assert text == rv.to_json(
        rv.as_r(pd.DataFrame({"x": [1, 2]})), dataframe="columns", auto_unbox=True, null="null"
    )


@pytest.mark.parametrize("version", VERSIONS)
def test_a_cut_results_head_and_pages_are_written_with_the_tools_arguments(
    r_json: dict[str, str], version: str
) -> None:
    frame = pd.DataFrame({"x": WIDE, "at": pd.to_datetime(MANY_SECONDS, unit="s", utc=True).tz_convert(ZONE)})
    paged = mcplite.McpServer("paged")

    @paged.tool(to_json={"digits": None, "posixt": "ISO8601", "utc": True}, result_budget=6_000)
    def table() -> pd.DataFrame:
        """Many rows."""
        return frame

    rows: list[Any] = []
    with Client(paged, protocol_version=version) as client:
        first = client.request("tools/call", {"name": "table", "arguments": {}})
        found = first["_meta"][TRUNCATED_KEY]
        assert found["shown"] < MANY
        texts = [first["content"][0]["text"]]
        uri = found["next"]
        while uri is not None:
            page = client.request("resources/read", {"uri": uri})
            texts.append(page["contents"][0]["text"])
            uri = page["_meta"][TRUNCATED_KEY]["next"]
    for text in texts:
        rows += json.loads(text)
    assert len(texts) > 2
    r_many = r_json["many"]
    assert rows == json.loads(r_many)
    # each piece is jsonlite's text of its rows: the pieces joined are R's text of the whole
    assert ",".join(text[1:-1] for text in texts) == r_many[1:-1]


@pytest.mark.parametrize("version", VERSIONS)
async def test_wrapped_rows_take_the_tools_arguments(url: str, r_json: dict[str, str], version: str) -> None:
    """``wrap_rows``: the text is R's text of the rows, the structured content ``{"result": rows}``,
    and the SDK client takes it under the listed (wrapped) schema."""
    async with sdk_client(url, version, {}) as client:
        result = await client.call_tool("wrapped", {})
    assert not result.is_error, result.content[0].text
    assert [block.text for block in result.content] == [r_json["wrapped"]]
    assert result.structured_content == {"result": json.loads(r_json["wrapped"])}
