"""Conversion edge cases found with ordinary data: what R does where R has an answer, else a clear error."""

from __future__ import annotations

import datetime as dt
import enum
import json
import warnings
from collections.abc import Callable
from typing import Any, NamedTuple

import numpy as np
import pandas as pd
import pytest

import rvalues as rv
from tests.conftest import r_json_output, requires_r


def r_answers(expressions: list[str]) -> list[dict[str, Any]]:
    """Evaluate each R expression; its value as text (``as.character``), or its error message."""
    script = (
        "library(jsonlite); exprs <- fromJSON(file('stdin'));"
        "text <- function(v) if (inherits(v, c('Date', 'POSIXct'))) format(v) else as.character(v);"
        "out <- lapply(exprs, function(e) tryCatch(list(ok = TRUE, value = text(eval(parse(text = e)))),"
        " error = function(err) list(ok = FALSE, message = conditionMessage(err))));"
        "cat(toJSON(out, auto_unbox = TRUE))"
    )
    answers: list[dict[str, Any]] = r_json_output(script, stdin=json.dumps(expressions))
    return answers


def _dates(value: Any) -> list[str]:
    return ["NA" if d is None else str(np.datetime64(int(d), "D")) for d in value.tolist()]


def _classes(value: Any) -> list[str]:
    return list(value.r_class)


def _dim(value: Any) -> list[str]:
    return [str(d) for d in value.dim]


# (R expression, the same in rvalues, the rvalues result shown as R's format() shows it)
R_CASES: list[tuple[str, Callable[[], Any], Callable[[Any], Any]]] = [
    ('as.Date("2020-13-45")', lambda: rv.as_date("2020-13-45"), _dates),
    ('as.Date("2020-02-30")', lambda: rv.as_date("2020-02-30"), _dates),
    ('as.Date(c("2020-01-01", "2020-13-45"))', lambda: rv.as_date(["2020-01-01", "2020-13-45"]), _dates),
    ('as.Date(c(NA, "2020-13-45"))', lambda: rv.as_date([None, "2020-13-45"]), _dates),
    ('as.Date(c(NA, "2020-01-05", "x"))', lambda: rv.as_date([None, "2020-01-05", "x"]), _dates),
    ('as.Date(c("2020/01/01", "2020-01-02"))', lambda: rv.as_date(["2020/01/01", "2020-01-02"]), _dates),
    ('as.Date(" 2020-1-2")', lambda: rv.as_date(" 2020-1-2"), _dates),
    ('as.Date("12345-01-01")', lambda: rv.as_date("12345-01-01"), _dates),
    ('as.Date("-5-01-01")', lambda: rv.as_date("-5-01-01"), _dates),
    ('as.POSIXct("2020-02-30 10:00", tz = "UTC")', lambda: rv.as_posixct("2020-02-30 10:00", tz="UTC"), str),
    (
        'attr(data.frame(x = 1:2, row.names = c(1.5, 2.5)), "row.names")',
        lambda: rv.data_frame(x=rv.Integer([1, 2]), row_names=[1.5, 2.5]).attributes["row.names"],
        lambda v: v.tolist(),
    ),
    (
        'attr(data.frame(x = 1:2, row.names = c(1, 2)), "row.names")',
        lambda: rv.data_frame(x=rv.Integer([1, 2]), row_names=[1.0, 2.0]).attributes["row.names"],
        lambda v: v.tolist(),
    ),
    ('class(factor("a", ordered = "yes"))', lambda: rv.factor(["a"], ordered="yes"), _classes),
    ('class(factor("a", ordered = "TRUE"))', lambda: rv.factor(["a"], ordered="TRUE"), _classes),
    ('class(factor("a", ordered = 1))', lambda: rv.factor(["a"], ordered=1), _classes),
    ('class(factor("a", ordered = NA))', lambda: rv.factor(["a"], ordered=None), _classes),
    ("dim(matrix(1:6, nrow = 2.5))", lambda: rv.matrix(list(range(1, 7)), nrow=2.5), _dim),
    ("dim(matrix(1, nrow = -1))", lambda: rv.matrix([1], nrow=-1), _dim),
    ("dim(matrix(1, nrow = NA))", lambda: rv.matrix([1], nrow=rv.NA), _dim),
    ("dim(array(1, dim = c(1.5, 2)))", lambda: rv.array([1], dim=[1.5, 2]), _dim),
    ("dim(array(1, dim = integer(0)))", lambda: rv.array([1], dim=[]), _dim),
]


@requires_r
def test_edge_cases_follow_r() -> None:
    answers = r_answers([expression for expression, _, _ in R_CASES])
    for (expression, make, shown), answer in zip(R_CASES, answers):
        if not answer["ok"]:
            with pytest.raises(rv.RValueError):
                print(expression, "R says:", answer["message"], "rvalues gives:", make())
            continue
        expected = answer["value"] if isinstance(answer["value"], list) else [answer["value"]]
        assert shown(make()) == ["NA" if e is None else e for e in expected], expression


class Mode(str, enum.Enum):
    FAST = "fast"


class Level(enum.IntEnum):
    HIGH = 3


class Colour(enum.Enum):
    RED = "red"


class Point(NamedTuple):
    x: int
    label: str


def test_enum_members_become_their_values() -> None:
    assert rv.as_r(Mode.FAST).tolist() == ["fast"]
    assert rv.c(Mode.FAST, "b").tolist() == ["fast", "b"]
    assert rv.Character([Mode.FAST]).tolist() == ["fast"]
    assert rv.as_r({Mode.FAST: 1}).names.tolist() == ["fast"]
    assert rv.as_r(np.array([Mode.FAST, "x"], dtype=object)).tolist() == ["fast", "x"]
    assert rv.as_r(pd.Series([Mode.FAST, "x"])).tolist() == ["fast", "x"]
    assert rv.identical(rv.as_r(Level.HIGH), rv.Integer([3]))
    assert rv.as_r(Colour.RED).tolist() == ["red"]
    assert rv.to_json(rv.as_r({"mode": Mode.FAST})) == '{"mode":["fast"]}'


def test_namedtuples_keep_their_field_names() -> None:
    value = rv.as_r(Point(1, "a"))
    assert value.names.tolist() == ["x", "label"]
    assert rv.to_json(value) == '{"x":[1],"label":["a"]}'
    assert rv.as_r([Point(1, "a")]).data[0].names.tolist() == ["x", "label"]


class MyFrame(pd.DataFrame):
    pass


class MySeries(pd.Series):
    pass


def test_pandas_subclasses_convert_as_their_base() -> None:
    frame = MyFrame({"a": [1, 2]})
    assert rv.identical(rv.as_r(frame), rv.as_r(pd.DataFrame({"a": [1, 2]})))
    assert rv.identical(rv.as_r(MySeries([1.5])), rv.Double([1.5]))


@pytest.mark.parametrize("number", [2**31, -(2**40), 2**53 + 1, 2**63 - 1, 2**64])
def test_python_ints_warn_as_arrays_do(number: int) -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        value = rv.as_r(number)
    with warnings.catch_warnings(record=True) as seen_array:
        warnings.simplefilter("always")
        rv.as_r(np.array([number], dtype=object))
    assert {w.category for w in seen} == {w.category for w in seen_array}
    assert rv.IntegerOverflowWarning in {w.category for w in seen}
    assert value.data.tolist() == [float(number)]
    with warnings.catch_warnings(record=True) as through_c:
        warnings.simplefilter("always")
        rv.c(1, number)
    assert rv.IntegerOverflowWarning in {w.category for w in through_c}


def test_exact_ints_beyond_2_53_do_not_claim_rounding() -> None:
    with warnings.catch_warnings(record=True) as seen:
        warnings.simplefilter("always")
        rv.as_r(2**60)
    assert {w.category for w in seen} == {rv.IntegerOverflowWarning}


@pytest.mark.parametrize("unit", ["", "s", "ns", "D"])
def test_nat_is_na(unit: str) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", DeprecationWarning)  # numpy 2.5: NaT without a unit
        nat = np.datetime64("NaT", unit) if unit else np.datetime64("NaT")
        generic_delta = np.timedelta64("NaT")
    value = rv.as_r(nat)
    assert value.na_mask().tolist() == [True]
    assert value.inherits("POSIXct") or value.inherits("Date")
    delta = rv.as_r(generic_delta)
    assert delta.na_mask().tolist() == [True] and delta.inherits("difftime")


def test_attosecond_datetimes_convert() -> None:
    value = rv.as_r(np.array([1_500_000_000_000_000_000, "NaT"], dtype="datetime64[as]"))
    assert value.data[0] == 1.5 and value.na_mask().tolist() == [False, True]
    fine = rv.as_r(np.array([1, 2], dtype="datetime64[20ms]"))
    assert fine.data.tolist() == [0.02, 0.04]


def test_membership_tests_names_as_dict_does() -> None:
    value = rv.r_list(a=1, b=2)
    assert "a" in value and "z" not in value and 1 not in value
    assert ("a" in value) == ("a" in dict(value))
    assert "a" not in rv.List([1])


def test_object_arrays_with_nan_convert_without_numpy_warnings() -> None:
    import decimal

    with warnings.catch_warnings():
        warnings.simplefilter("error")
        doubles = rv.as_r(np.array([1.5, np.nan, None], dtype=object))
        assert doubles.na_mask().tolist() == [False, True, True]
        assert doubles.na_only_mask().tolist() == [False, True, True]  # in an object array NaN is NA
        decimals = rv.as_r(np.array([decimal.Decimal("NaN"), 1.0], dtype=object))
        assert decimals.na_mask().tolist() == [True, False]
        assert rv.as_r(pd.Series([1.5, None, "x"], dtype=object)).r_type == "list"


def test_timedelta_objects_beyond_numpys_microseconds_keep_their_value() -> None:
    longest = dt.timedelta(days=999_999_999)  # numpy's cast to timedelta64[us] wraps this around
    column = rv.as_r(pd.DataFrame({"d": pd.Series([longest, None, -longest], dtype=object)})).data[0]
    assert column.inherits("difftime") and column.attributes["units"].tolist() == ["secs"]
    assert column.tolist() == [longest.total_seconds(), None, -longest.total_seconds()]


def test_numpy_timedelta_objects_are_durations_not_integers() -> None:
    # np.timedelta64 subclasses np.signedinteger: an object column of them is still a difftime
    column = rv.as_r(pd.Series([np.timedelta64(5, "s"), None], dtype=object))
    assert column.inherits("difftime") and column.tolist() == [5.0, None]
    with pytest.raises(rv.RValueError, match=r"column 'd'.*timedelta64\[M\] has no fixed length"):
        rv.as_r(
            pd.DataFrame({"d": pd.Series([np.timedelta64(1, "M"), np.timedelta64(1, "D")], dtype=object)})
        )
