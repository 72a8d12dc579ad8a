"""Differential fuzz: the compiled writer against the pure Python/numpy one (its oracle), byte for
byte, on the leaf calls (number tokens, string tokens, row assembly) and on whole documents.

The pure writer is checked against R by the corpus and tests/test_json_differential.py; here every
input goes through both writers, which must agree exactly (errors included).
"""

from __future__ import annotations

import datetime as dt
import json
import math
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rvalues
from rvalues import _speedups
from rvalues._speedups import writer as compiled
from rvalues.convert import from_pandas
from rvalues.errors import RValueError
from rvalues.json import frame_text, signif, to_json
from rvalues.json import frames as frame_encoder
from rvalues.json.collapse import RowPieces
from rvalues.json.numbers import SMALL, int_to_char, num_to_char
from rvalues.json.strings import escape_array
from rvalues.model.build import build
from rvalues.na import NA_INTEGER, NA_REAL

CORE = _speedups.load()
pytestmark = pytest.mark.skipif(
    CORE is None, reason="the compiled writer is not built (or RVALUES_PURE is set)"
)

FUZZ = settings(max_examples=250, deadline=None, derandomize=True, database=None)


@contextmanager
def writer(core: Any) -> Iterator[None]:
    saved = _speedups.core
    _speedups.core = core
    try:
        yield
    finally:
        _speedups.core = saved


def outcome(fn: Callable[[], Any]) -> tuple[str, Any]:
    """What a call gives: its value (lists for arrays), or its error's type and message."""
    try:
        out = fn()
    except Exception as err:  # both writers must fail alike
        return "error", (type(err).__name__, str(err))
    return "value", out.tolist() if isinstance(out, np.ndarray) else out


def agree(fn: Callable[[], Any]) -> Any:
    """Run ``fn`` under each writer; they must give the same value or the same error."""
    with writer(CORE):
        fast = outcome(fn)
    with writer(None):
        pure = outcome(fn)
    assert fast == pure
    return pure


SPECIAL = [
    0.0, -0.0, 0.5, 1.5, 2.5, -2.5, 0.125, 0.375, 1.005, 2.675, 0.00015, 1e-5, -1e-5, 1.0000001e-5,
    9.99995, 99999.99999, 2147483646.5, 2147483647.0, -2147483647.0, 2147483648.0, 1e15, 1e16, 1e17,
    123456789012.345, 5e-324, 2.2250738585072014e-308, 1e-310, 1.7976931348623157e308, 1e-300,
    999.9999999999999, 1e22, 1e23, float("inf"), float("-inf"), float("nan"), NA_REAL, -NA_REAL,
]  # fmt: skip

doubles = st.one_of(
    st.floats(width=64),
    st.sampled_from(SPECIAL),
    st.floats(-1e6, 1e6).map(lambda v: round(v, 4)),
    st.integers(-(10**6), 10**6).map(lambda v: v / 8),
    st.integers(-300, 300).map(lambda e: 10.0**e),
)
digits = st.one_of(
    st.none(),
    st.integers(-3, 22),
    st.sampled_from([2**31 - 1, -(2**31) + 1, 10**5]),
    st.integers(0, 17).map(signif),
)
prefixes = st.sampled_from(["", '{"a":', ',"é":', '{"😀%":'])


def precision_of(d: Any) -> tuple[int | None, bool]:
    return (d.digits, True) if hasattr(d, "digits") else (d, False)


@FUZZ
@given(
    st.lists(doubles, min_size=SMALL + 1, max_size=120),
    digits,
    st.sampled_from(["string", "null", "NA"]),
    st.booleans(),
    prefixes,
)
def test_number_tokens(values: list[float], d: Any, na: str, always_decimal: bool, prefix: str) -> None:
    precision, use_signif = precision_of(d)
    array = np.array(values, dtype=np.float64)
    agree(lambda: num_to_char(array, precision, na, use_signif, always_decimal, prefix))
    agree(lambda: num_to_char(array[::-2], precision, na, use_signif, always_decimal, prefix))


@FUZZ
@given(
    st.lists(
        st.one_of(st.integers(-(2**31) + 1, 2**31 - 1), st.just(NA_INTEGER), st.integers(-5, 5)),
        min_size=SMALL + 1,
    ),
    st.sampled_from([np.int32, np.int64]),
    st.sampled_from(["string", "null", "NA"]),
    prefixes,
)
def test_integer_tokens(values: list[int], dtype: Any, na: str, prefix: str) -> None:
    array = np.array(values, dtype=dtype)
    agree(lambda: int_to_char(array, na, prefix))


texts = st.text(
    st.one_of(
        st.characters(codec="utf-8"),
        st.sampled_from(list('"\\/<\x00\x01\x07\x08\t\n\x0b\x0c\r\x1f\x7f\x80é€😀\u2028')),
    ),
    max_size=12,
)


@FUZZ
@given(
    st.lists(st.one_of(st.none(), texts), min_size=SMALL + 1, max_size=60),
    st.sampled_from(["null", '"NA"', None]),
)
def test_string_tokens(values: list[str | None], na: str | None) -> None:
    array = np.empty(len(values), dtype=object)
    array[:] = values
    agree(lambda: escape_array(array, na))


def test_a_lone_surrogate_is_the_same_error() -> None:
    array = np.array(["ok"] * 10 + ["bad \ud800 here"], dtype=object)
    kind, (name, message) = agree(lambda: escape_array(array))
    assert (kind, name) == ("error", RValueError.__name__)
    assert "lone surrogate" in message


@FUZZ
@given(st.lists(texts, max_size=20))
def test_ascii_escapes_are_json_dumps_ensure_ascii(values: list[str]) -> None:
    expected = [json.dumps(t, ensure_ascii=True).replace("</", "<\\/") for t in values]
    with writer(CORE):
        assert compiled.escape_list(values, ascii=True) == expected


@FUZZ
@given(
    st.integers(0, 30).flatmap(
        lambda n: st.lists(
            st.one_of(
                texts, st.lists(texts, min_size=n, max_size=n).map(lambda c: np.array(c, dtype=object))
            ),
            min_size=1,
            max_size=6,
        ).map(lambda pieces: (n, pieces))
    ),
    st.sampled_from([",", ",\n  ", ",é"]),
)
def test_row_assembly(rows: tuple[int, list[Any]], sep: str) -> None:
    nrow, pieces = rows

    def assembled() -> RowPieces:
        out = RowPieces(nrow)
        for piece in pieces:
            out.add(piece)
        return out

    agree(lambda: assembled().body(None if sep == "," else 0))
    agree(lambda: assembled().rows())


def _frame(draw: st.DrawFn, n: int) -> pd.DataFrame:
    def pick(strategy: st.SearchStrategy[Any]) -> list[Any]:
        return draw(st.lists(strategy, min_size=n, max_size=n))

    stamps = pd.to_datetime(pick(st.integers(-(9 * 10**9), 9 * 10**9)), unit="s")  # pandas 2 ends in 2262
    missing = np.array(pick(st.booleans()), dtype=bool)
    frame = pd.DataFrame(
        {
            "id": np.arange(n, dtype=np.int64),
            "x": np.array(pick(doubles), dtype=np.float64),
            "n": pd.array(pick(st.one_of(st.none(), st.integers(-(2**31) + 1, 2**31 - 1))), dtype="Int32"),
            "flag": pd.array(pick(st.one_of(st.none(), st.booleans())), dtype="boolean"),
            "s": pd.Series(
                pick(st.one_of(st.none(), texts.map(lambda t: t.replace("\x00", "")))), dtype=object
            ),
            "g": pd.Categorical(pick(st.sampled_from(["a", "b", "é", None]))),
            "when": pd.Series(stamps).where(~missing),
            "day": pd.Series([None if m else d.date() for d, m in zip(stamps, missing)], dtype=object),
        }
    )
    return frame


@st.composite
def frames(draw: st.DrawFn) -> pd.DataFrame:
    return _frame(draw, draw(st.sampled_from([0, 1, 3, 17, 40, 70])))


@settings(max_examples=60, deadline=None, derandomize=True, database=None)
@given(
    frames(),
    st.sampled_from(["rows", "columns", "values"]),
    digits,
    st.booleans(),
    st.sampled_from([None, "null", "string"]),
    st.booleans(),
)
def test_whole_frames(
    df: pd.DataFrame, layout: str, d: Any, pretty: bool, na: str | None, always_decimal: bool
) -> None:
    x = from_pandas(df)
    agree(lambda: to_json(x, dataframe=layout, digits=d, pretty=pretty, na=na, always_decimal=always_decimal))
    agree(lambda: to_json(x, dataframe=layout, digits=d, POSIXt="ISO8601", Date="epoch"))


def test_a_long_frame_in_chunks_is_the_same(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(frame_encoder, "CHUNK_ROWS", 7)
    monkeypatch.setattr(frame_text, "CHUNK_ROWS", 7)
    when = pd.Series(pd.to_datetime(np.arange(50) * 7777, unit="s")).where(np.arange(50) % 5 > 0)
    df = pd.DataFrame({"a": np.arange(50) / 3, "b": [None, "x</y", "é"] * 16 + ["z", "w"], "t": when})
    x = from_pandas(df)
    text = agree(lambda: to_json(x))[1]
    assert json.loads(text)[1] == {"a": round(1 / 3, 4), "b": "x</y", "t": "1970-01-01 02:09:37"}
    agree(lambda: to_json(x, dataframe="values", pretty=True))


def test_the_backend_names_the_writer() -> None:
    with writer(CORE):
        assert rvalues.json.backend() == "c"
    with writer(None):
        assert rvalues.json.backend() == "python"
    assert not math.isnan(0.0)


@FUZZ
@given(
    st.lists(doubles, min_size=SMALL + 1, max_size=60),
    st.sampled_from(["double", "integer", "logical"]),
    digits,
    st.sampled_from([None, "null", "string", "NA"]),
    st.booleans(),
    st.booleans(),
)
def test_long_vectors(
    values: list[float], r_type: str, d: Any, na: str | None, pretty: bool, always_decimal: bool
) -> None:
    array = np.array(values, dtype=np.float64)
    if r_type == "integer":
        finite = np.isfinite(array)
        data = np.where(finite, np.clip(np.where(finite, array, 0), -1e9, 1e9), NA_INTEGER).astype(np.int32)
    elif r_type == "logical":
        data = np.where(np.isnan(array), NA_INTEGER, array > 0).astype(np.int32)
    else:
        data = array
    x = build(r_type, data)
    agree(lambda: to_json(x, digits=d, na=na, pretty=pretty, always_decimal=always_decimal))
    agree(lambda: to_json(rvalues.r_list(a=x, b=x), digits=d, na=na, pretty=pretty))


class Day(dt.date):
    """A date subclass: still a date to the conversion."""


elements = st.one_of(
    st.dates(),
    st.dates().map(lambda d: Day(d.year, d.month, d.day)),
    st.sampled_from([None, float("nan"), pd.NA, pd.NaT, dt.date(1, 1, 1), dt.date(9999, 12, 31)]),
    st.sampled_from(["a", 1, 2.5, True, dt.datetime(2020, 1, 2, 3, 4, 5)]),
)


@FUZZ
@given(st.lists(elements, max_size=40), st.booleans())
def test_object_columns_convert_alike(values: list[Any], only_dates: bool) -> None:
    if only_dates:
        values = [
            v for v in values if (isinstance(v, dt.date) and not isinstance(v, dt.datetime)) or v is None
        ]
    column = pd.Series(values, dtype=object)

    def converted() -> Any:
        return rvalues.as_r(pd.DataFrame({"v": column}))

    with writer(CORE):
        fast = outcome(converted)
    with writer(None):
        pure = outcome(converted)
    assert fast[0] == pure[0]
    if fast[0] == "error":
        assert fast == pure
    else:
        assert rvalues.identical(fast[1], pure[1]), (fast[1], pure[1])


day_numbers = st.one_of(
    st.integers(-800_000, 3_000_000).map(float),
    st.floats(-400_000, 3_000_000),
    st.sampled_from(
        [NA_REAL, float("nan"), float("inf"), -354285.0, -354285.5, 2932896.0, 2932897.0, 0.0, -0.5]
    ),
)


@FUZZ
@given(
    st.lists(day_numbers, min_size=1, max_size=80), st.sampled_from([None, "null", "string"]), st.booleans()
)
def test_dates(days: list[float], na: str | None, pretty: bool) -> None:
    x = build("double", np.array(days), {"class": rvalues.Character(["Date"])})
    frame = rvalues.data_frame(d=x, n=np.arange(len(days)))
    agree(lambda: to_json(x, na=na, pretty=pretty))
    agree(lambda: to_json(frame, na=na, pretty=pretty))
    agree(lambda: to_json(frame, dataframe="columns"))


@FUZZ
@given(texts, st.booleans())
def test_one_pass_escape_is_json_dumps(text: str, ascii: bool) -> None:
    with writer(CORE):
        assert compiled.escape_json(text, ascii=ascii) == json.dumps(text, ensure_ascii=ascii)


def test_one_pass_escape_declines_a_lone_surrogate() -> None:
    with writer(CORE):
        assert compiled.escape_json("a\udc00b") is None
    with writer(None):
        assert compiled.escape_json("plain") is None


instants = st.one_of(
    st.integers(-(10**10), 10**10).map(float),
    st.integers(-(10**5), 10**5).map(lambda d: d * 86400.0),
    st.floats(-1e10, 1e10),
    st.integers(0, 10**9).map(lambda s: s + 0.9999999999),
    st.sampled_from([NA_REAL, float("nan"), float("inf"), -float("inf"), 1e15, -1e13, 0.0, -0.5]),
)


@FUZZ
@given(
    st.lists(instants, min_size=17, max_size=60),
    st.sampled_from(["UTC", "America/New_York", "Asia/Kolkata", "Europe/London", None]),
    st.sampled_from(["string", "ISO8601"]),
    st.sampled_from([None, "null", "string"]),
    st.booleans(),
)
def test_date_times(seconds: list[float], tz: str | None, style: str, na: str | None, midnight: bool) -> None:
    values = np.array(seconds)
    if midnight:
        with np.errstate(invalid="ignore"):  # R's NA is a signalling NaN to some CPUs' division
            values = np.floor(values / 86400) * 86400
    attrs = {"class": rvalues.Character(["POSIXct", "POSIXt"])}
    if tz is not None:
        attrs["tzone"] = rvalues.Character([tz])
    x = build("double", values, attrs)
    frame = rvalues.data_frame(t=x, n=np.arange(len(values)))
    agree(lambda: to_json(x, POSIXt=style, na=na))
    agree(lambda: to_json(frame, POSIXt=style, na=na))
    agree(lambda: to_json(frame, POSIXt=style, dataframe="columns"))
