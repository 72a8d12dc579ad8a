"""``c()`` and ``identical()``: R's rules, on fixed examples and on generated ones checked by R."""

from __future__ import annotations

import math
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import rvalues as rv
from rvalues import NA, NA_character_, NA_integer_, NA_real_, c, identical
from rvalues.construct.dispatch import c_tagged
from rvalues.errors import RValueError
from rvalues.model.coerce import TYPE_ORDER
from tests.conftest import requires_r
from tests.rbatch import ask_r
from tests.strategies import atomic, values

TAGS = st.sampled_from(["", "", "", "x", "a", "b"])
ARGS = st.lists(st.tuples(TAGS, values()), min_size=1, max_size=4)


def combine_described(args: list[tuple[str, dict[str, Any]]]) -> dict[str, Any] | str:
    """Python's c() over described arguments: the result's description, or the error message."""
    try:
        result = c_tagged([(tag or None, rv.from_description(d)) for tag, d in args])
    except RValueError as err:
        return f"error: {err}"
    return rv.describe(result)


@settings(max_examples=150, derandomize=True, database=None, deadline=None)
@given(args=ARGS)
def test_c_takes_the_highest_type_and_keeps_every_element(args: list[tuple[str, dict[str, Any]]]) -> None:
    result = combine_described(args)
    if isinstance(result, str):
        return
    types = [d["type"] for _, d in args if d["type"] != "NULL"]
    first_is_factor = bool(types) and "factor" in str(args[0][1].get("attributes", {}))
    if not types:
        assert result == {"type": "NULL"}
    elif not first_is_factor:
        assert result["type"] == max(types, key=TYPE_ORDER.index)
        expected_length = sum(len(d["values"]) for _, d in args if d["type"] != "NULL")
        assert len(result["values"]) == expected_length


def test_na_kinds_are_coerced_as_r_does() -> None:
    assert rv.describe(c(NA, 1.0)) == {"type": "double", "values": ["NA", "1"]}
    assert rv.describe(c(NA, "a")) == {"type": "character", "values": [None, "a"]}
    assert rv.describe(c(1, 2.5)) == {"type": "double", "values": ["1", "2.5"]}
    assert rv.describe(c(NA_integer_, 1j)) == {"type": "complex", "values": [None, ["0", "1"]]}
    assert rv.describe(c(None, 1)) == {"type": "integer", "values": [None, 1]}
    assert c(NA_real_, NA_character_).r_type == "character"


def test_names_from_keywords_and_inner_names() -> None:
    assert c(1.0, a=2.0).names.tolist() == ["", "a"]
    assert c(x=c(a=1.0, b=2.0)).names.tolist() == ["x.a", "x.b"]
    assert c(x=rv.Integer([1, 2])).names.tolist() == ["x1", "x2"]


def test_c_of_nothing_is_null() -> None:
    assert c() is rv.NULL
    assert c(rv.NULL, rv.NULL) is rv.NULL


def test_identical_tells_na_from_nan_but_not_zero_from_negative_zero() -> None:
    assert identical(NA_real_, rv.Double([None]))
    assert not identical(NA_real_, rv.Double([math.nan]))
    assert identical(rv.Double([0.0]), rv.Double([-0.0]))
    assert not identical(rv.Integer([1]), rv.Double([1.0]))
    x = rv.Integer([1, 2]).with_attributes({"a": "x", "b": "y"})
    y = rv.Integer([1, 2]).with_attributes({"b": "y", "a": "x"})
    assert identical(x, y)
    assert x == y and hash(x) == hash(y)


@requires_r
@pytest.mark.r
def test_c_agrees_with_r_on_generated_arguments() -> None:
    cases: list[list[tuple[str, dict[str, Any]]]] = []

    @settings(max_examples=400, derandomize=True, database=None, deadline=None)
    @given(args=ARGS)
    def collect(args: list[tuple[str, dict[str, Any]]]) -> None:
        cases.append(args)

    collect()
    answers = ask_r("c", [[{"tag": tag, "value": d} for tag, d in args] for args in cases])
    mismatches = []
    for args, answer in zip(cases, answers):
        ours = combine_described(args)
        theirs = answer["value"] if "value" in answer else f"error: {answer['error']}"
        if isinstance(ours, str) and isinstance(theirs, str):
            continue
        if ours != theirs:
            mismatches.append((args, ours, theirs))
    print(f"c(): compared {len(cases)} generated calls with R")
    assert not mismatches, mismatches[:3]


PAIRS = st.one_of(
    st.tuples(values(), values()),
    values().map(lambda d: (d, d)),
    atomic(types=("double",)).map(
        lambda d: (d, {**d, "values": ["NA" if v == "NaN" else v for v in d["values"]]})
    ),
    atomic(types=("double",)).map(
        lambda d: (d, {**d, "values": ["0" if v == "-0" else v for v in d["values"]]})
    ),
)


@requires_r
@pytest.mark.r
def test_identical_agrees_with_r_on_generated_pairs() -> None:
    cases: list[tuple[dict[str, Any], dict[str, Any]]] = []

    @settings(max_examples=300, derandomize=True, database=None, deadline=None)
    @given(pair=PAIRS)
    def collect(pair: tuple[dict[str, Any], dict[str, Any]]) -> None:
        cases.append(pair)

    collect()
    answers = ask_r("identical", [{"x": x, "y": y} for x, y in cases])
    mismatches = [
        (x, y, a)
        for (x, y), a in zip(cases, answers)
        if identical(rv.from_description(x), rv.from_description(y)) != a["identical"]
    ]
    print(f"identical(): compared {len(cases)} generated pairs with R")
    assert not mismatches, mismatches[:3]
