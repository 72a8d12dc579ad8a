"""Large frames are written in chunks of rows (rvalues.json.frames.CHUNK_ROWS): the bytes are the
same as one piece, in every layout, pretty or compact, with NA cells, factors (NA levels too),
dates, raw and row names."""

from __future__ import annotations

import warnings
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings

import rvalues as rv
from rvalues.format import datetime as datetime_format
from rvalues.json import (
    JsonOptions,
    atomic,
    classed,
    dispatch,
    factor_cells,
    frames,
    numbers,
    strings,
    time_cells,
    to_json,
)
from rvalues.json.api import encode_with
from rvalues.json.context import Ctx
from rvalues.na import NA_INTEGER, NA_REAL
from tests.test_json_differential import option_set, wrapped_value


def frame(n: int, seed: int = 1) -> rv.DataFrame:
    rng = np.random.default_rng(seed)
    dbl = rng.normal(0, 1e3, n)
    dbl[rng.random(n) < 0.2] = NA_REAL
    dbl[rng.random(n) < 0.05] = np.nan
    ints = rng.integers(-5, 5, n).astype(np.int32)
    ints[rng.random(n) < 0.2] = NA_INTEGER
    words = np.array(["a", "é", 'q"', "</x>", None], dtype=object)[rng.integers(0, 5, n)]
    codes = rng.integers(1, 4, n).astype(np.int32)
    codes[rng.random(n) < 0.1] = NA_INTEGER
    levels = rv.Character(["lo", None, "hi"])
    days = rng.integers(-1000, 30000, n).astype(np.float64)
    days[rng.random(n) < 0.1] = NA_REAL
    lgl = np.array([True, False, None], dtype=object)[rng.integers(0, 3, n)]
    # _wrap: R's own encodings (NA_integer_ is INT32_MIN), as the JSON layer sees them
    return rv.data_frame(
        d=rv.Double._wrap(dbl),
        i=rv.Integer._wrap(ints),
        s=rv.Character(words.tolist()),
        f=rv.Integer._wrap(codes, {"levels": levels, "class": rv.Character(["factor"])}),
        t=rv.Double._wrap(days, {"class": rv.Character(["Date"])}),
        l=rv.Logical(lgl.tolist()),
        r=rv.Raw(rng.integers(0, 256, n).astype(np.uint8)),
    )


OPTIONS: list[dict[str, Any]] = [
    {},
    {"dataframe": "values"},
    {"pretty": True},
    {"na": "string", "auto_unbox": True},
    {"rownames": True, "digits": None},
    {"dataframe": "values", "pretty": True, "na": "null"},
]


@pytest.mark.parametrize("options", OPTIONS)
@pytest.mark.parametrize("n", [1, 7, 8, 9, 23])
def test_chunked_rows_are_the_same_bytes(
    monkeypatch: pytest.MonkeyPatch, options: dict[str, Any], n: int
) -> None:
    x = frame(n)
    whole = to_json(x, **options)
    monkeypatch.setattr(frames, "CHUNK_ROWS", 4)
    assert to_json(x, **options) == whole


def test_whole_column_formats_are_not_split(monkeypatch: pytest.MonkeyPatch) -> None:
    # POSIXct text drops the seconds when no element has any: a column decision, so never chunked
    times = rv.as_posixct(["2020-01-01 10:00:00"] * 5 + ["2020-01-01 10:00:30"], tz="UTC")
    x = rv.data_frame(t=times, n=rv.Integer([1, 2, 3, 4, 5, 6]))
    whole = to_json(x)
    monkeypatch.setattr(frames, "CHUNK_ROWS", 2)
    assert to_json(x) == whole
    assert '"t":"2020-01-01 10:00:00"' in whole


def _outcome(desc: dict[str, Any], options: dict[str, Any]) -> str:
    try:
        value = rv.from_description(desc)
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return encode_with(value, JsonOptions.from_jsonlite(options))
    except rv.RValueError as err:
        return f"error: {err}"


@settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(desc=wrapped_value(), options=option_set())
def test_every_row_path_gives_the_same_bytes(desc: dict[str, Any], options: dict[str, Any]) -> None:
    """Row by row (small frames), column-wise (ObjectRows) and in chunks: one text, on the random R
    values of the differential test (nested frames, list columns, POSIXlt, NA levels, names)."""
    small = _outcome(desc, options)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(frames, "SMALL_ROWS", 0)
        assert _outcome(desc, options) == small
        patch.setattr(frames, "CHUNK_ROWS", 1)
        assert _outcome(desc, options) == small


@settings(max_examples=300, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(desc=wrapped_value(), options=option_set())
def test_a_few_elements_in_plain_python_give_the_same_bytes(
    desc: dict[str, Any], options: dict[str, Any]
) -> None:
    """Numbers, strings and date-times up to a few elements are written one by one in Python; the
    vectorized paths give the same text, on the random R values of the differential test."""
    few = _outcome(desc, options)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(frames, "SMALL_ROWS", 0)  # column-wise rows: the tokens carry the row keys
        assert _outcome(desc, options) == few
        patch.setattr(strings, "FEW", -1)
        patch.setattr(time_cells, "FEW_TIMES", -1)
        patch.setattr(datetime_format, "_TINY", -1)
        patch.setattr(numbers, "SMALL", -1)
        patch.setattr(classed, "_FEW_DATES", -1)
        patch.setattr(factor_cells, "FEW_CODES", -1)
        assert _outcome(desc, options) == few


@pytest.mark.parametrize("dataframe", ["rows", "columns", "values"])
@pytest.mark.parametrize("na", ["null", "string"])
@pytest.mark.parametrize("posixt", ["string", "ISO8601"])
def test_a_few_date_times_with_na_and_infinities_in_every_layout(
    dataframe: str, na: str, posixt: str
) -> None:
    seconds = [1577872800.5, NA_REAL, np.inf, -np.inf, np.nan, 1e15, 0.0]
    times = rv.Double._wrap(
        np.array(seconds), {"class": rv.Character(["POSIXct", "POSIXt"]), "tzone": rv.Character(["UTC"])}
    )
    value = rv.data_frame(t=times, s=rv.Character(["a", None, "</b>", "é", None, "c", "d"]))
    options = {"dataframe": dataframe, "na": na, "posixt": posixt}
    few = to_json(value, **options)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(frames, "SMALL_ROWS", 0)  # column-wise rows: the tokens carry the row keys
        assert to_json(value, **options) == few
        patch.setattr(strings, "FEW", -1)
        patch.setattr(time_cells, "FEW_TIMES", -1)
        patch.setattr(datetime_format, "_TINY", -1)
        patch.setattr(numbers, "SMALL", -1)
        patch.setattr(classed, "_FEW_DATES", -1)
        patch.setattr(factor_cells, "FEW_CODES", -1)
        assert to_json(value, **options) == few


@pytest.mark.parametrize("zone", ["UTC", "Europe/Paris", "America/New_York"])
@pytest.mark.parametrize("style", ["string", "ISO8601"])
def test_a_few_date_times_at_the_edges_of_years_1000_to_9999(zone: str, style: str) -> None:
    """Around the years the plain-Python path writes (a day either side, in every zone's local
    time), it gives what the vectorized path gives, or leaves the value to it."""
    low, high = datetime_format._FAST_LOW, datetime_format._FAST_HIGH
    edges = [
        low - 86400.0,
        low - 3601.5,
        low - 1.0,
        low,
        low + 0.25,
        high,
        high + 1.0,
        high + 3600.0,
        high + 86400.0,
    ]
    for value in edges:
        seconds = np.array([value, NA_REAL])
        few = datetime_format.format_posixct(seconds, zone, style).tolist()
        with pytest.MonkeyPatch.context() as patch:
            patch.setattr(datetime_format, "_TINY", -1)
            assert datetime_format.format_posixct(seconds, zone, style).tolist() == few, value


def test_token_lists_stop_at_classes_that_do_not_make_tokens(monkeypatch: pytest.MonkeyPatch) -> None:
    """Small-frame cells may come back as lists; encoders that consume their parts' tokens
    (matrices, lists) hand their parts the usual arrays."""
    seen: list[bool] = []
    real = atomic.finish

    def recording(tokens: Any, ctx: Ctx, prefixed: bool = False) -> Any:
        seen.append(ctx.list_tokens)
        return real(tokens, ctx, prefixed)

    monkeypatch.setattr(atomic, "finish", recording)
    ctx = dispatch.top(JsonOptions()).but(collapse=False, list_tokens=True)
    assert dispatch.encode(rv.Integer([1, 2]), ctx) == ["1", "2"]
    assert seen == [True]
    seen.clear()
    matrix = rv.Integer([1, None, 3, 4], {"dim": rv.Integer([2, 2])})
    for value in (matrix, rv.r_list(rv.Integer([1]), "a")):
        assert not isinstance(dispatch.encode(value, ctx), list)
    assert seen and not any(seen)
    assert not isinstance(dispatch.encode(rv.data_frame(a=rv.Double([1.5])), ctx), list)
