"""The common mistakes of a typed tool's author, each told where the author looks.

A value that does not fit its return type reaches the client and the server's log (WARNING, with the
tool's name), naming the row class; NaN in an int column suggests pandas' nullable ``Int64``; a tool
whose parameters have no type hints warns at registration; a date-time argument with no offset is
told that one is needed.
"""

from __future__ import annotations

import dataclasses
import datetime
import logging
import warnings
from typing import Annotated

import pandas as pd
import pytest

import mcplite
from mcplite.testing import Client

MODERN = "2026-07-28"


@dataclasses.dataclass
class Tally:
    region: str
    units: int


def tally_server(frame: pd.DataFrame) -> mcplite.McpServer:
    server = mcplite.McpServer("tallies")

    @server.tool
    def tallies() -> Annotated[pd.DataFrame, mcplite.Rows(Tally)]:
        """Units by region."""
        return frame

    return server


def test_a_misfit_is_logged_with_the_tools_name_and_the_row_class(caplog: pytest.LogCaptureFixture) -> None:
    server = tally_server(pd.DataFrame({"region": ["north", "south"], "units": [3, "many"]}))
    with caplog.at_level(logging.WARNING, logger="mcplite"):
        result = Client(server, protocol_version=MODERN).call_tool("tallies", {})
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    assert "DataFrame of Tally rows" in text and "column 'units' of Tally rows" in text
    logged = [record for record in caplog.records if record.levelno == logging.WARNING]
    assert [record.getMessage() for record in logged] == [text]
    assert "Tool tallies" in logged[0].getMessage()


def test_a_misfit_in_a_frame_past_the_result_budget_is_logged_once(caplog: pytest.LogCaptureFixture) -> None:
    # past the budget the head is cut by trying several row counts: each try meets the misfit
    rows = 20_000
    units = pd.Series(range(rows), dtype="float64")
    units[10] = 2.5
    server = tally_server(pd.DataFrame({"region": ["somewhere"] * rows, "units": units}))
    with caplog.at_level(logging.WARNING, logger="mcplite"):
        result = Client(server, protocol_version=MODERN).call_tool("tallies", {})
    assert result.is_error and "[10].units is float (2.5)" in result.content[0].text  # type: ignore[union-attr]
    logged = [record.getMessage() for record in caplog.records if record.levelno == logging.WARNING]
    assert logged == [result.content[0].text]  # type: ignore[union-attr]


def test_nan_in_an_int_column_suggests_pandas_nullable_int64() -> None:
    # what pandas makes of an int column with a missing value: float64 with NaN
    frame = pd.DataFrame({"region": ["north", "south"], "units": [3, None]})
    assert frame["units"].dtype == "float64"
    result = Client(tally_server(frame), protocol_version=MODERN).call_tool("tallies", {})
    assert result.is_error
    text = result.content[0].text  # type: ignore[union-attr]
    assert "[1].units is float (nan)" in text and 'astype("Int64")' in text
    # and the suggestion works: the same column as Int64 fits, its missing value NA
    fixed = frame.assign(units=frame["units"].astype("Int64"))
    result = Client(tally_server(fixed), protocol_version=MODERN).call_tool("tallies", {})
    assert not result.is_error, result
    assert result.structured_content == [{"region": "north", "units": 3}, {"region": "south"}]


def test_a_misfit_that_is_not_nan_gets_no_int64_advice() -> None:
    frame = pd.DataFrame({"region": ["north"], "units": [2.5]})
    result = Client(tally_server(frame), protocol_version=MODERN).call_tool("tallies", {})
    assert result.is_error and "Int64" not in result.content[0].text  # type: ignore[union-attr]


def test_a_tool_without_type_hints_warns_at_registration_naming_the_parameters() -> None:
    server = mcplite.McpServer("hints")
    with pytest.warns(UserWarning, match=r"tool 'scale' has no type hints for x, factor") as caught:

        @server.tool
        def scale(x, factor=2):  # type: ignore[no-untyped-def]
            """Scale x."""
            return x * factor

    assert caught[0].filename == __file__  # pointed at the registration, as the docstring warning is


def test_a_tool_with_type_hints_registers_without_a_warning() -> None:
    server = mcplite.McpServer("hints")
    with warnings.catch_warnings():
        warnings.simplefilter("error")

        @server.tool
        def scale(x: float, factor: float = 2.0) -> float:
            """Scale x."""
            return x * factor


def test_a_naive_date_time_argument_is_told_an_offset_is_needed() -> None:
    server = mcplite.McpServer("times")

    @server.tool
    def hour(at: datetime.datetime) -> int:
        """The hour of a moment."""
        return at.hour

    client = Client(server)
    for naive in ("2024-05-01T12:00:00", "2024-05-01 12:00", "2024-05-01T12:00:00.5"):
        result = client.call_tool("hour", {"at": naive})
        assert result.is_error
        text = result.content[0].text  # type: ignore[union-attr]
        assert "no offset" in text and "'Z'" in text and "'+02:00'" in text, text
    assert client.call_tool("hour", {"at": "2024-05-01T12:00:00+02:00"}).content[0].text == "12"  # type: ignore[union-attr]


def test_an_offset_that_is_wrong_is_not_called_naive() -> None:
    server = mcplite.McpServer("times")

    @server.tool
    def hour(at: datetime.datetime) -> int:
        """The hour of a moment."""
        return at.hour

    result = Client(server).call_tool("hour", {"at": "yesterday"})
    assert result.is_error and "no offset" not in result.content[0].text  # type: ignore[union-attr]
