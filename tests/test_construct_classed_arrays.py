"""Classed values with a ``dim`` in ``data_frame()``, and Dates stored as integers: as R builds them."""

from __future__ import annotations

import json
import os
import subprocess
import warnings

import pytest

import rvalues as rv
from tests.conftest import RSCRIPT, requires_r

R_CASES = r"""
f <- factor(c("a", "b", "a", "b")); dim(f) <- c(2L, 2L)
d <- as.Date(1:4, origin = "1970-01-01"); dim(d) <- c(2L, 2L)
m <- matrix(1:4, 2L)
day <- as.Date(structure(5L, class = "Date"))
out <- list(
  factor = as.character(jsonlite::toJSON(data.frame(m = f))),
  date = as.character(jsonlite::toJSON(data.frame(m = d))),
  matrix = as.character(jsonlite::toJSON(data.frame(m = m))),
  day = c(typeof(day), class(day), as.character(jsonlite::toJSON(day)))
)
cat(jsonlite::toJSON(out, auto_unbox = TRUE))
"""


def _with_dim(value: rv.RValue) -> rv.RValue:
    return value.with_attributes({"dim": rv.Integer([2, 2])})  # type: ignore[no-any-return]


@pytest.fixture(scope="module")
def from_r() -> dict[str, object]:
    answer = subprocess.run(
        [RSCRIPT, "--vanilla", "-e", R_CASES],
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "TZ": "UTC"},  # R finds its libraries through the caller's environment
    )
    return json.loads(answer.stdout)  # type: ignore[no-any-return]


@requires_r
@pytest.mark.r
def test_classed_arrays_are_one_column_and_plain_matrices_split(from_r: dict[str, object]) -> None:
    factor = _with_dim(rv.factor(["a", "b", "a", "b"]))
    dates = _with_dim(rv.as_date(["1970-01-02", "1970-01-03", "1970-01-04", "1970-01-05"]))
    matrix = _with_dim(rv.Integer([1, 2, 3, 4]))
    assert rv.to_json(rv.data_frame(m=factor)) == from_r["factor"]
    assert rv.to_json(rv.data_frame(m=dates)) == from_r["date"]
    assert rv.to_json(rv.data_frame(m=matrix)) == from_r["matrix"]


@requires_r
@pytest.mark.r
def test_as_date_keeps_an_integer_date_integer(from_r: dict[str, object]) -> None:
    day = rv.as_date(rv.Integer([5]).with_attributes({"class": rv.Character(["Date"])}))
    assert [day.r_type, *day.attributes["class"].data.tolist(), rv.to_json(day)] == from_r["day"]
    assert day.inherits("Date")


def test_numbers_with_na_become_dates_and_times_without_a_floating_point_warning() -> None:
    # R's NA_real_ is a signalling NaN: adding the origin raised numpy's "invalid value" warning
    with warnings.catch_warnings():
        warnings.simplefilter("error", RuntimeWarning)
        dates = rv.as_date(rv.c(1.0, rv.NA_real_), origin="1970-01-01")
        times = rv.as_posixct(rv.c(1.0, rv.NA_real_), origin="1970-01-01", tz="UTC")
    assert dates.na_mask().tolist() == [False, True] and times.na_mask().tolist() == [False, True]
