"""Arrow data from pyarrow, polars, DuckDB and pandas' ArrowDtype columns, written by ``to_json`` as
jsonlite writes the same data built in R (the R expressions are in :mod:`tests.arrow_cases`), under
every layout and NA option."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import pandas as pd
import pyarrow as pa
import pytest

import rvalues as rv
from tests.arrow_cases import CASES, LIST_VIEWS, NATIVE, OPTIONS, WARNS, r_answers
from tests.conftest import requires_r

pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")

pytestmark = [pytest.mark.r, requires_r, pytest.mark.usefixtures("utc")]


def _polars(table: pa.Table) -> Any:
    return pl.from_arrow(table, rechunk=False)


def _duckdb(table: pa.Table) -> Any:
    return duckdb.from_arrow(table)  # a relation: its rows stream out as Arrow when read


SOURCES: dict[str, Callable[[pa.Table], Any]] = {
    "pyarrow": lambda table: table,
    "record_batches": lambda table: pa.RecordBatchReader.from_batches(table.schema, table.to_batches()),
    "polars": _polars,
    "duckdb": _duckdb,
    "pandas_arrow": lambda table: table.to_pandas(types_mapper=pd.ArrowDtype),
}

SKIP = {
    ("floats", "duckdb"): "DuckDB has no float16",
    ("timestamps", "duckdb"): "DuckDB's TIMESTAMPTZ holds the instant, not the zone (see NATIVE)",
    ("arrow_only", "duckdb"): "DuckDB reads neither decimal256 nor list_view",
    ("arrow_only", "polars"): "polars reads neither decimal256 nor list_view",
    ("durations", "duckdb"): "DuckDB makes a duration an INTERVAL (months, days, ns): no R equivalent",
    **{(case, "polars"): "polars reads no list_view" for case in LIST_VIEWS},
}
"""(case, source) pairs an engine cannot hold as it is."""


@pytest.fixture(scope="module")
def answers() -> dict[str, dict[str, str]]:
    return r_answers()


def _convert(source: Any, warns: bool = False) -> rv.RValue:
    if warns:
        with pytest.warns(rv.IntegerOverflowWarning):
            return rv.as_r(source)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        return rv.as_r(source)


@pytest.mark.parametrize("source", list(SOURCES))
@pytest.mark.parametrize("case", list(CASES))
def test_to_json_of_arrow_data_is_jsonlite_of_the_same_data_in_r(
    case: str, source: str, answers: dict[str, dict[str, str]]
) -> None:
    if (case, source) in SKIP:
        pytest.skip(SKIP[case, source])
    value = _convert(SOURCES[source](CASES[case][1]()), warns=case in WARNS)
    for option, given in OPTIONS.items():
        expected = answers[case][option]
        if expected.startswith("ERROR: "):  # jsonlite refuses the value (difftime): so must to_json
            with pytest.raises(rv.RValueError) as info:
                rv.to_json(value, digits=None, **given)
            assert expected.removeprefix("ERROR: ") in str(info.value)
            continue
        assert rv.to_json(value, digits=None, **given) == expected, (option, source)


@pytest.mark.parametrize("engine", list(NATIVE))
def test_frames_the_engines_make_themselves_are_what_r_writes(
    engine: str, answers: dict[str, dict[str, str]]
) -> None:
    value = _convert(NATIVE[engine][1]())
    for option, given in OPTIONS.items():
        assert rv.to_json(value, digits=None, **given) == answers[f"native_{engine}"][option], option


def test_the_r_side_answers_every_case(answers: dict[str, dict[str, str]]) -> None:
    assert set(answers) == set(CASES) | {f"native_{k}" for k in NATIVE}
    refused = {name for name, a in answers.items() for v in a.values() if v.startswith("ERROR")}
    assert refused == {"durations"}


@pytest.mark.parametrize("case", ["ints", "floats", "chunked"])
def test_where_the_pandas_path_differs_the_arrow_path_is_rs_answer(
    case: str, answers: dict[str, dict[str, str]]
) -> None:
    """``Table.to_pandas()`` turns null into NaN (and integers with nulls into floats); R keeps NA."""
    table = CASES[case][1]()
    arrow = rv.to_json(_convert(table), dataframe="columns", digits=None)
    pandas = rv.to_json(_convert(table.to_pandas()), dataframe="columns", digits=None)
    assert arrow == answers[case]["columns"] != pandas
