"""The general date-time formatter (``rvalues.format.strftime``, what ``utc``, ``time_format`` and
``digits_secs`` use) writes R's default formats exactly as the vectorized formatter does, whose
text tests/test_format_datetime.py holds to R's: the two agree on random date-times in many zones
(years 700 to 10200, fractions, second 60, midnights, NA and the other non-finite values)."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rvalues.format.datetime import format_posixct
from rvalues.format.strftime import posixct_fields, r_strftime
from tests.test_format_datetime import _SECONDS, ZONES


@settings(max_examples=300, derandomize=True, deadline=None)
@given(
    seconds=st.lists(_SECONDS, min_size=1, max_size=24),
    tzone=st.sampled_from(["UTC", *ZONES]),
)
def test_default_formats_agree_with_the_vectorized_formatter(seconds: list[float], tzone: str) -> None:
    values = np.array(seconds, dtype=np.float64)
    fields = posixct_fields(values, tzone)
    assert r_strftime(fields, "").tolist() == format_posixct(values, tzone, "string").tolist()
    iso = format_posixct(values, tzone, "ISO8601")
    assert r_strftime(fields, "%Y-%m-%dT%H:%M:%S").tolist() == iso.tolist()
