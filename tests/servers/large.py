"""A server whose tool answers with two million rows, for the MCP Inspector's end-to-end test of result
budgets (tests/test_large_results_inspector.py). Run as a script, it serves on stdio.
"""

from __future__ import annotations

import numpy as np
import pandas as pd

import mcplite

ROWS = 2_000_000


def sales(n: int = ROWS) -> pd.DataFrame:
    """A sales table of ``n`` rows (seeded, so a test can rebuild the same rows)."""
    rng = np.random.default_rng(2026)
    return pd.DataFrame(
        {
            "id": np.arange(n, dtype=np.int64),
            "region": pd.Categorical(rng.choice(["north", "south", "east", "west"], n)),
            "amount": rng.normal(100, 30, n).round(2),
            "paid": rng.random(n) < 0.8,
        }
    )


server = mcplite.McpServer("large", version="1.0.0")
TABLE = sales()


@server.tool
def all_sales() -> pd.DataFrame:
    """Every sale, two million rows."""
    return TABLE


if __name__ == "__main__":
    server.run()
