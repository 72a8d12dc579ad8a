"""A typed tool's date-time fields say their zone in the output schema's description (jsonlite
writes the clock time with no offset, so the text cannot say it), and what the description says of
naive pandas and DuckDB date-times is what is written."""

from __future__ import annotations

import dataclasses
import datetime
import zoneinfo
from typing import Annotated, Any

import pandas as pd
import pytest

import mcplite
import rvalues as rv
from mcplite.testing import Client
from mcplite.tools.annotations import read
from mcplite.tools.output_schema import schema_of
from rvalues.json import JsonOptions


@dataclasses.dataclass
class Sale:
    at: datetime.datetime
    closed: datetime.datetime | None
    day: datetime.date
    stamps: rv.POSIXct
    when: Annotated[datetime.datetime, "when the sale was booked"]


def date_time_schemas(schema: dict[str, Any]) -> dict[str, dict[str, Any]]:
    properties = schema["properties"] if "properties" in schema else schema["items"]["properties"]
    return {name: properties[name] for name in ("at", "closed", "stamps", "when")}


def description_in(schema: dict[str, Any]) -> str:
    """The schema's description, or that of its one described ``anyOf`` arm (``X | None``)."""
    if "description" in schema:
        return str(schema["description"])
    (note,) = [arm["description"] for arm in schema.get("anyOf", []) if "description" in arm]
    return str(note)


@pytest.mark.parametrize("frame", [False, True])
@pytest.mark.parametrize("utc", [False, True])
def test_each_date_time_field_says_its_zone(frame: bool, utc: bool) -> None:
    annotation: Any = Annotated[pd.DataFrame, mcplite.Rows(FrameSale)] if frame else Sale
    schema = schema_of(read(annotation), JsonOptions(utc=utc))
    for name, field in date_time_schemas(schema).items():
        if frame and name == "stamps":
            continue
        note = description_in(field["items"] if name == "stamps" else field)
        assert "time zone" in note or "UTC" in note, (name, note)
        assert ("clock time in UTC" in note) == utc, (name, note)
    day = (schema["properties"] if not frame else schema["items"]["properties"])["day"]
    assert "description" not in day
    if not frame:
        assert schema["properties"]["when"]["description"].startswith("when the sale was booked. A date-time")


@dataclasses.dataclass
class FrameSale:
    at: datetime.datetime
    closed: datetime.datetime | None
    day: datetime.date
    stamps: datetime.datetime
    when: datetime.datetime


@dataclasses.dataclass
class Moment:
    at: datetime.datetime


def served_rows(frame: Any) -> list[dict[str, Any]]:
    server = mcplite.McpServer("moments")

    @server.tool
    def moments() -> Annotated[pd.DataFrame | rv.DataFrame, mcplite.Rows(Moment)]:
        """Moments."""
        return frame

    result = Client(server, protocol_version="2026-07-28").call_tool("moments", {})
    assert not result.is_error, result
    rows: list[dict[str, Any]] = result.structured_content
    return rows


def test_a_naive_pandas_date_time_is_written_as_utc_clock_time() -> None:
    naive = datetime.datetime(2024, 1, 1, 0, 0, 6)
    rows = served_rows(pd.DataFrame({"at": pd.to_datetime([naive])}))
    assert rows == [{"at": naive.replace(tzinfo=datetime.UTC).strftime("%Y-%m-%d %H:%M:%S")}]


def test_a_duckdb_date_time_is_written_in_its_sessions_zone() -> None:
    duckdb = pytest.importorskip("duckdb")
    instant = datetime.datetime(2024, 1, 1, 0, 0, 6, tzinfo=datetime.UTC)
    con = duckdb.connect()
    con.sql("SET TimeZone = 'Europe/Berlin'")
    relation = con.sql(f"SELECT TIMESTAMPTZ '{instant.isoformat()}' AS at")
    rows = served_rows(rv.as_r(relation))
    berlin = instant.astimezone(zoneinfo.ZoneInfo("Europe/Berlin"))
    assert rows == [{"at": berlin.strftime("%Y-%m-%d %H:%M:%S")}]
    assert rows != [{"at": instant.strftime("%Y-%m-%d %H:%M:%S")}]  # an hour off UTC: the zone matters
