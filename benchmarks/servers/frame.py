"""The 10,000-row data frame both benchmark servers return (built once, at server start)."""

from __future__ import annotations

import numpy as np
import pandas as pd

ROWS = 10_000
SECONDS_2024 = 366 * 86400


def make_frame(rows: int = ROWS) -> pd.DataFrame:
    """int, float with ~10% NaN, str, bool and datetime columns; the same on every call."""
    rng = np.random.default_rng(20240601)
    x = rng.normal(100.0, 15.0, rows).round(3)
    x[rng.random(rows) < 0.1] = np.nan
    return pd.DataFrame(
        {
            "id": np.arange(1, rows + 1, dtype=np.int64),
            "x": x,
            "label": [f"item-{i % 97}" for i in range(rows)],
            "flag": rng.random(rows) < 0.5,
            "when": pd.Timestamp("2024-01-01")
            + pd.to_timedelta(rng.integers(0, SECONDS_2024, rows), unit="s"),
        }
    )
