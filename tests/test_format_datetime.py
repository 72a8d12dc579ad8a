"""Date-time formatting: the vectorized paths agree with zoneinfo and with R's format()."""

from __future__ import annotations

import json
import subprocess
from datetime import UTC, datetime
from zoneinfo import ZoneInfo

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rvalues.format import datetime as datetime_format
from rvalues.format.datetime import format_posixct, utc_offsets
from rvalues.na import NA_REAL
from tests.conftest import RSCRIPT, requires_r

ZONES = ["America/New_York", "Europe/Paris", "Australia/Lord_Howe", "Asia/Kolkata", "America/St_Johns"]


def _instants(n: int, seed: int) -> np.ndarray:
    rng = np.random.default_rng(seed)
    return rng.integers(-2_200_000_000, 4_100_000_000, size=n)


@pytest.mark.parametrize("zone_name", ZONES)
def test_vectorized_offsets_agree_with_zoneinfo(zone_name: str) -> None:
    seconds = _instants(3000, 7)
    tz = ZoneInfo(zone_name)
    expected = [
        int(datetime.fromtimestamp(int(s), UTC).astimezone(tz).utcoffset().total_seconds())  # type: ignore[union-attr]
        for s in seconds.tolist()
    ]
    assert utc_offsets(seconds, zone_name).tolist() == expected


@requires_r
@pytest.mark.r
def test_formatting_in_zones_agrees_with_r() -> None:
    # beyond R's years, second 60 (-1e-16 is 23:59:59 plus a fraction that rounds up), years
    # past 9999 and before 1000 (beyond numpy's text)
    odd = [1e18, -1e18, -1e-16, 1e12 + 0.5, -1e11 - 0.75]
    seconds = np.concatenate([_instants(2000, 11).astype(np.float64) + 0.25, odd])
    ours = {
        f"{zone_name}/{style}": format_posixct(seconds, zone_name, style).tolist()
        for zone_name in ZONES
        for style in ("string", "ISO8601")
    }
    # fewer than 256 elements are formatted one by one, more as distinct days and times of day
    chunks = [seconds[i : i + 100] for i in range(0, len(seconds), 100)]
    one_by_one = {
        key: [text for chunk in chunks for text in format_posixct(chunk, *key.rsplit("/", 1)).tolist()]
        for key in ours
    }
    assert one_by_one == ours
    ours["beyond/string"] = format_posixct(np.array([1e18]), "UTC").tolist()
    script = (
        "x <- jsonlite::fromJSON(file('stdin')); out <- list();"
        "for (z in x$zones) { t <- .POSIXct(x$seconds, tz = z);"
        " out[[paste0(z, '/string')]] <- format(t);"
        " out[[paste0(z, '/ISO8601')]] <- format(t, '%Y-%m-%dT%H:%M:%S') };"
        "out[['beyond/string']] <- I(format(.POSIXct(1e18, tz = 'UTC')));"
        "cat(jsonlite::toJSON(out))"
    )
    answer = subprocess.run(
        [RSCRIPT, "--vanilla", "-e", script],
        input=json.dumps({"zones": ZONES, "seconds": seconds.tolist()}),
        capture_output=True, text=True, check=True,
    )  # fmt: skip
    assert ours == json.loads(answer.stdout)


_SECONDS = st.one_of(
    st.integers(-40_000_000_000, 260_000_000_000).map(float),  # years 700 to 10200: both sides of 1000-9999
    st.floats(-3e9, 5e9),
    st.sampled_from([np.nan, np.inf, -np.inf]),
    st.integers(-3_000_000_000, 5_000_000_000).map(lambda s: s + 0.9999999999999999),  # shows second 60
    st.integers(0, 20_000).map(lambda d: d * 86400.0),  # midnights: the date-only form
    st.just(NA_REAL),
)


@settings(max_examples=400, derandomize=True, deadline=None)
@given(
    seconds=st.lists(_SECONDS, min_size=1, max_size=16),
    tzone=st.sampled_from(["UTC", *ZONES]),
    style=st.sampled_from(["string", "ISO8601"]),
)
def test_a_few_date_times_format_as_many_do(seconds: list[float], tzone: str, style: str) -> None:
    """Up to 16 elements are formatted one by one in Python: the text is the vectorized path's."""
    values = np.array(seconds, dtype=np.float64)
    few = format_posixct(values, tzone, style)
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(datetime_format, "_TINY", 0)
        many = format_posixct(values, tzone, style)
    assert few.tolist() == many.tolist()
