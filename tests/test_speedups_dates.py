"""The compiled writer's dates cost work in proportion to their rows, not to the span of days they
cover: a table of every day's text is made only when the span is small for the rows (a date-time's
hidden NA rows, placeholders of day 0, do not count). Measured by the memory the call allocates
(tracemalloc sees the table), with a generous time bound besides; the bytes are the pure writer's."""

from __future__ import annotations

import time
import tracemalloc
from collections.abc import Callable

import numpy as np
import pytest

import rvalues as rv
from rvalues import _speedups
from rvalues.json import to_json

pytestmark = pytest.mark.skipif(
    _speedups.load() is None, reason="the compiled writer is not built (or RVALUES_PURE is set)"
)

DAY_1000 = -354285  # 1000-01-01
DAY_1200 = -280000  # in 1203


def dates(days: np.ndarray) -> rv.Double:
    return rv.Double._wrap(days.astype(np.float64), {"class": rv.Character(["Date"])})


def date_times(seconds: np.ndarray) -> rv.Double:
    attributes = {"class": rv.Character(["POSIXct", "POSIXt"]), "tzone": rv.Character(["UTC"])}
    return rv.Double._wrap(seconds, attributes)


def allocated_and_seconds(write: Callable[[], str]) -> tuple[int, float]:
    """The peak of memory allocated while ``write`` runs (after a warm-up call), and its time."""
    write()
    tracemalloc.start()
    try:
        tracemalloc.reset_peak()
        started = time.perf_counter()
        write()
        seconds = time.perf_counter() - started
        return tracemalloc.get_traced_memory()[1], seconds
    finally:
        tracemalloc.stop()


def pure(value: rv.Double) -> str:
    saved = _speedups.core
    _speedups.core = None
    try:
        return to_json(value)
    finally:
        _speedups.core = saved


CASES = {
    # 65 dates over 950 years: a table of their span would be 3.5 MB
    "dates over centuries": dates(np.linspace(DAY_1000, -7305, 65).round()),
    # 100 hourly date-times in 1203 and one NA: with the NA's day 0, the span was 280,000 days
    "date-times with an NA": date_times(
        np.where(np.arange(100) == 5, np.nan, DAY_1200 * 86400.0 + np.arange(100) * 3600.0)
    ),
}


@pytest.mark.parametrize("name", list(CASES))
def test_a_wide_span_of_days_costs_memory_by_the_rows(name: str) -> None:
    value = CASES[name]
    allocated, seconds = allocated_and_seconds(lambda: to_json(value))
    assert allocated < 200_000, f"{allocated} bytes for {len(value.data)} rows"
    assert seconds < 0.25  # generous (sanitizers, a loaded machine): the allocation is the real check
    assert to_json(value) == pure(value)


def test_many_dates_close_together_are_the_pure_writers_bytes() -> None:
    """5,000 dates within 3 years (where a day table pays) and a few from the edges of the years."""
    value = dates(np.concatenate([np.arange(5000) % 1000 + 18000.0, [DAY_1000, 2932896.0, np.nan]]))
    assert to_json(value) == pure(value)


@pytest.mark.parametrize("first_year", [1000, 1580, 1890, 1995, 2090, 9960])
def test_every_day_of_decades_around_leap_rules_is_the_pure_writers_bytes(first_year: int) -> None:
    """The day table counts days on from its first: every day of 40 years around a century's leap rule
    (1000, 1600, 1900, 2000, 2100) or the last years R writes with four digits, in a shuffled order."""
    start = np.datetime64(f"{first_year}-01-01", "D").astype(np.int64)
    stop = min(start + 40 * 366, np.datetime64("10000-01-01", "D").astype(np.int64))
    days = np.random.default_rng(first_year).permutation(np.arange(start, stop)).astype(np.float64)
    assert to_json(dates(days)) == pure(dates(days))
