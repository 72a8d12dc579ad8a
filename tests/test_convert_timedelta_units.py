"""Durations in day and week units (numpy's ``timedelta64[D]`` and ``[W]``) convert to R's
difftime in seconds from every frame shape, as finer units do; they were a bare ``KeyError: 'D'``
naming neither the column nor the unit. Units with no fixed length (months, years) are refused
with the column named.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import numpy as np
import pandas as pd
import pytest

import rvalues as rv

FRAMES: dict[str, Callable[[np.ndarray], Any]] = {
    "data_frame": lambda a: rv.data_frame(n=np.arange(len(a)), wait=a),
    "dict": lambda a: rv.as_r({"n": np.arange(len(a)), "wait": a}),
    "record array": lambda a: rv.as_r(np.rec.fromarrays([np.arange(len(a)), a], names="n,wait")),
    "object column": lambda a: rv.as_r(
        pd.DataFrame({"n": range(len(a)), "wait": pd.Series(list(a), dtype=object)})
    ),
}


@pytest.mark.parametrize("unit", ["D", "W"])
@pytest.mark.parametrize("shape", list(FRAMES))
def test_day_and_week_durations_convert_as_seconds(shape: str, unit: str) -> None:
    durations = np.array([1, -3, 10_000, "NaT"], dtype=f"timedelta64[{unit}]")
    # the reference: numpy's own conversion of the same durations to seconds, converted as before
    in_seconds = FRAMES[shape](durations.astype("timedelta64[s]"))
    assert rv.identical(FRAMES[shape](durations), in_seconds)


@pytest.mark.parametrize("unit", ["M", "Y"])
@pytest.mark.parametrize("shape", list(FRAMES))
def test_durations_without_a_fixed_length_name_the_column(shape: str, unit: str) -> None:
    durations = np.array([1, 2], dtype=f"timedelta64[{unit}]")
    with pytest.raises(rv.RValueError, match=rf"'wait'.*timedelta64\[{unit}\] has no fixed length"):
        FRAMES[shape](durations)
