"""Typed tools held to jsonlite where a fuzz found them apart (the typed path).

Each tool below returns a value the typed path once wrote differently from jsonlite, or with a
schema the official SDK client refused. The oracles: R builds the same value from a plain
description and writes it with jsonlite (tests/r/typed_cases.R, one Rscript run for the module),
and the official SDK client (over Streamable HTTP on loopback) checks every structured result
against the schema the server listed, raising when it does not fit.
"""

from __future__ import annotations

import datetime
import json
import math
import re
from collections.abc import Iterator
from typing import Annotated, Any, Literal, TypedDict

import attrs
import pandas as pd
import pytest

import mcplite
import rvalues as rv
from mcplite.testing import Client, RequestError
from tests.conftest import RSCRIPT
from tests.serving import served
from tests.typed_oracle import double_text, r_options, r_writes, sdk_client

pytestmark = pytest.mark.anyio

VERSIONS = ("2025-06-18", "2025-11-25", "2026-07-28")
HUGE = 1.7976931348623157e308  # .Machine$double.xmax: jsonlite writes 1.79769313486232e+308
BELOW_HUGE = 1.79769313486231e308  # the largest 15-digit double jsonlite writes as itself

OddRow = TypedDict("OddRow", {"_a": int, "a b": str, "1x": float, "if": bool, "plain": str})


class CategoryRow(TypedDict):
    s: str
    level: Literal["x", "y"]


class DateRow(TypedDict):
    d: datetime.date
    t: datetime.datetime


class NumberRow(TypedDict):
    f: float


@attrs.frozen
class OddNames:
    rows: Annotated[pd.DataFrame, mcplite.Rows(OddRow)]


@attrs.frozen
class Categories:
    rows: Annotated[pd.DataFrame, mcplite.Rows(CategoryRow)]


@attrs.frozen
class OldDates:
    rows: Annotated[rv.DataFrame, mcplite.Rows(DateRow)]
    day: datetime.date
    days: rv.Date
    times: rv.POSIXct


@attrs.frozen
class Numbers:
    rows: Annotated[pd.DataFrame, mcplite.Rows(NumberRow)]
    value: float
    values: rv.Double


@attrs.frozen
class MaybeNumber:
    value: float | None
    values: list[float | None]


# -- the values, each with the description R builds it from ------------------------------------------

DAYS = [-719893.0, -719528.0, -365.0 * 800, -354.0, 0.0 - 719162.0, 364.0 - 719162.0, 2932897.0, 1e8]
"""Days since 1970: years -1, 0, 1171, 1969, 1 (twice), 10000 and 275760."""
SECONDS = [-62198755200.0, -62167219200.0, -62135596800.0 + 3600 * 5, -31535000000.0, 253402300800.0, 1e13]
"""Seconds since 1970 in years -1, 0, 1 (5 am), 970, 10000 and 318857."""
ZONE = "America/New_York"


def odd_names() -> OddNames:
    rows = pd.DataFrame({"_a": [1, 2], "a b": ["x", None], "1x": [1.5, math.nan], "if": [True, False]})
    return OddNames(rows.assign(plain=["p", "q"]))


ODD_R = {
    "record": [
        {
            "name": "rows",
            "node": {
                "frame": [
                    {"name": "_a", "type": "integer", "values": [1, 2]},
                    {"name": "a b", "type": "character", "values": ["x", None]},
                    {"name": "1x", "type": "double", "values": ["1.5", "NaN"]},
                    {"name": "if", "type": "logical", "values": [True, False]},
                    {"name": "plain", "type": "character", "values": ["p", "q"]},
                ]
            },
        }
    ]
}


def categories() -> Categories:
    empty = pd.Categorical([None, None])  # all missing, no categories at all
    return Categories(pd.DataFrame({"s": empty, "level": empty}))


CATEGORIES_R = {
    "record": [
        {
            "name": "rows",
            "node": {
                "frame": [
                    {"name": "s", "type": "character", "values": [None, None]},
                    {"name": "level", "type": "factor", "values": [None, None], "levels": ["x", "y"]},
                ]
            },
        }
    ]
}


def old_dates() -> OldDates:
    n = len(SECONDS)
    rows = rv.data_frame(
        d=rv.as_date(rv.Double(DAYS[:n]), origin="1970-01-01"),
        t=rv.as_posixct(rv.Double(SECONDS), tz=ZONE, origin="1970-01-01"),
    )
    return OldDates(
        rows,
        datetime.date(999, 12, 31),
        rv.as_date(rv.Double(DAYS), origin="1970-01-01"),
        rv.as_posixct(rv.Double(SECONDS), tz="UTC", origin="1970-01-01"),
    )


def _dates(values: list[float]) -> dict[str, Any]:
    return {"type": "Date", "values": [double_text(v) for v in values]}


def _times(values: list[float], tz: str) -> dict[str, Any]:
    return {"type": "POSIXct", "values": [double_text(v) for v in values], "tz": tz}


OLD_DATES_R = {
    "record": [
        {
            "name": "rows",
            "node": {
                "frame": [
                    {"name": "d", **_dates(DAYS[: len(SECONDS)])},
                    {"name": "t", **_times(SECONDS, ZONE)},
                ]
            },
        },
        {"name": "day", "node": {"unbox": _dates([float(datetime.date(999, 12, 31).toordinal() - 719163)])}},
        {"name": "days", "node": {"I": _dates(DAYS)}},
        {"name": "times", "node": {"I": _times(SECONDS, "UTC")}},
    ]
}


def numbers(x: float) -> Numbers:
    return Numbers(pd.DataFrame({"f": [1.5, x]}), x, rv.Double([x]))


def numbers_r(x: float) -> dict[str, Any]:
    column = {"type": "double", "values": [double_text(x)]}
    return {
        "record": [
            {
                "name": "rows",
                "node": {"frame": [{"name": "f", "type": "double", "values": ["1.5", double_text(x)]}]},
            },
            {"name": "value", "node": {"unbox": column}},
            {"name": "values", "node": {"I": column}},
        ]
    }


server = mcplite.McpServer("typed-jsonlite", version="1.0.0")


@server.tool
def odd() -> OddNames:
    """Rows whose field names are no syntactic R names."""
    return odd_names()


@server.tool
def no_categories() -> Categories:
    """Rows of all-missing categoricals with no categories."""
    return categories()


@server.tool
def dates() -> OldDates:
    """Dates and date-times before year 1000, before year 1 and after year 9999."""
    return old_dates()


@server.tool
def huge() -> Numbers:
    """The largest double, which jsonlite writes beyond a double's range."""
    return numbers(HUGE)


@server.tool
def below_huge() -> Numbers:
    """The largest double jsonlite writes as itself."""
    return numbers(BELOW_HUGE)


@server.tool
def huge_optional() -> MaybeNumber:
    """The largest double in an optional field."""
    return MaybeNumber(HUGE, [1.5, None])


@server.tool
def huge_in_a_list() -> MaybeNumber:
    """The largest double in a list of optional numbers."""
    return MaybeNumber(None, [1.5, -HUGE])


R_CASES = {"odd": ODD_R, "no_categories": CATEGORIES_R, "dates": OLD_DATES_R}
R_CASES |= {"huge": numbers_r(HUGE), "below_huge": numbers_r(BELOW_HUGE)}


@pytest.fixture(scope="module")
def anyio_backend() -> str:
    return "asyncio"


@pytest.fixture(scope="module")
def url() -> Iterator[str]:
    with served(server.asgi_app()) as base:
        yield base + "/mcp"


@pytest.fixture(scope="module")
def r_json() -> dict[str, str]:
    """What jsonlite writes for each tool's value (default payload options)."""
    if RSCRIPT is None:
        pytest.skip("needs Rscript (R with jsonlite)")
    cases = [{"value": node, "options": r_options({})} for node in R_CASES.values()]
    answers = r_writes(cases)
    assert all("json" in answer for answer in answers), answers
    return {name: answer["json"] for name, answer in zip(R_CASES, answers, strict=True)}


async def _call(url: str, version: str, name: str) -> Any:
    async with sdk_client(url, version, {}) as client:
        return await client.call_tool(name, {})  # raises when the result does not fit the listed schema


@pytest.mark.parametrize("version", VERSIONS)
@pytest.mark.parametrize("name", ["odd", "no_categories", "dates", "below_huge"])
async def test_the_typed_result_is_jsonlites_and_fits_the_listed_schema(
    url: str, r_json: dict[str, str], name: str, version: str
) -> None:
    result = await _call(url, version, name)
    assert not result.is_error, result.content[0].text
    assert [block.text for block in result.content] == [r_json[name]]
    assert result.structured_content == json.loads(r_json[name])


def test_names_are_kept_as_jsonlite_keeps_them(r_json: dict[str, str]) -> None:
    """R's data.frame(check.names = FALSE) keeps `_a`, `a b`, `1x`, `if`: no make.names."""
    assert list(json.loads(r_json["odd"])["rows"][0]) == ["_a", "a b", "1x", "if", "plain"]


def test_an_all_missing_categorical_is_rows_without_fields(r_json: dict[str, str]) -> None:
    assert json.loads(r_json["no_categories"]) == {"rows": [{}, {}]}


def test_the_date_patterns_accept_every_date_jsonlite_writes_and_no_padded_year(
    r_json: dict[str, str],
) -> None:
    written = json.loads(r_json["dates"])
    date_pattern = mcplite.output_schema(datetime.date)["anyOf"][0]["pattern"]
    time_pattern = mcplite.output_schema(datetime.datetime)["anyOf"][0]["pattern"]
    days = [row["d"] for row in written["rows"]] + written["days"] + [written["day"]]
    times = [row["t"] for row in written["rows"]] + written["times"]
    assert {text.split("-")[1] if text.startswith("-") else text.split("-")[0] for text in days} >= {
        "0",
        "1",
        "999",
    }
    for text in days:
        assert re.search(date_pattern, text), text
        assert re.search(time_pattern, text), text  # a date-time vector all at midnight has no time
    for text in times:
        assert re.search(time_pattern, text), text
    # jsonlite never pads a year with zeros (R writes year 999 as "999"): the padded form is refused
    for text in days:
        sign, year, rest = re.fullmatch(r"(-?)([0-9]+)(-.*)", text).groups()  # type: ignore[union-attr]
        if len(year) < 4:
            assert not re.search(date_pattern, f"{sign}{year.zfill(4)}{rest}"), text


async def test_a_double_jsonlite_writes_beyond_range_is_an_error_saying_what_to_do(
    url: str, r_json: dict[str, str]
) -> None:
    assert json.loads(r_json["huge"])["value"] == math.inf  # R's 1.79769313486232e+308 reads back as Inf
    result = await _call(url, "2025-11-25", "huge")
    assert result.is_error
    text = result.content[0].text
    assert "rows[1].f" in text and "1.79769313486232e+308" in text
    assert "docs/typed-tools.md" in text


class DayRow(TypedDict):
    d: datetime.date


def test_a_frame_arguments_dates_are_read_as_its_input_schema_says() -> None:
    """The rows a tool takes: a date the listed input schema accepts is one the server reads, and one
    it refuses the server refuses (the output patterns' unpadded years are no ISO dates)."""
    jsonschema = pytest.importorskip("jsonschema")
    taking = mcplite.McpServer("rows-in")

    @taking.tool
    def first_day(rows: Annotated[pd.DataFrame, mcplite.Rows(DayRow)]) -> str:
        """The first row's date."""
        return str(rows["d"].iloc[0])

    with Client(taking, "2025-11-25") as client:
        schema = next(t for t in client.list_tools() if t.name == "first_day").input_schema
        validator = jsonschema.Draft202012Validator(schema, format_checker=jsonschema.FormatChecker())
        for text in ["2024-05-01", "0999-12-31", "999-12-31", "1-01-01", "-1-11-28", "10000-01-01"]:
            arguments = {"rows": [{"d": text}]}
            try:
                read = not client.call_tool("first_day", arguments).is_error
            except RequestError:
                read = False
            assert validator.is_valid(arguments) == read, text


@pytest.mark.parametrize(("name", "where"), [("huge_optional", "value"), ("huge_in_a_list", "values[1]")])
async def test_an_optional_double_beyond_range_says_so_too(url: str, name: str, where: str) -> None:
    """``float | None``: the union's message is the number's, not "expected a number or null"."""
    result = await _call(url, "2025-11-25", name)
    assert result.is_error
    text = result.content[0].text
    assert f"{where} is float" in text and "1.79769313486232e+308" in text and "docs/typed-tools.md" in text
