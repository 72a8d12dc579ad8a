"""A server of typed tools, for the end-to-end tests with real clients (tests/test_typed_clients.py).

Run it as a script (``python tests/servers/typed.py``, or ``python tests/servers/typed.py http PORT``);
the tests import it too, to compute what each call must bring back (``registered.to_result(value)``).
``TYPED_JSON_NA`` sets the ``json_na`` payload option of the process.
"""

from __future__ import annotations

import math
import os
import sys
from typing import Annotated, Literal

import attrs
import pandas as pd

import mcplite
import rvalues as rv

CASES = ("values", "nan", "na", "empty", "one")
"""The frames the tools return: ordinary values, an all-NaN mean, NA everywhere, no rows, one row."""


@attrs.frozen
class GroupMean:
    group: str
    mean: float
    n: int


@attrs.frozen
class Summary:
    column: str
    kind: Literal["numeric", "text"]
    groups: Annotated[pd.DataFrame, mcplite.Rows(GroupMean)]
    values: rv.Double
    overall: float | None


def groups(case: str) -> pd.DataFrame:
    if case == "empty":
        return pd.DataFrame({"group": pd.Series([], dtype=object), "mean": [], "n": pd.Series([], dtype=int)})
    if case == "one":
        return pd.DataFrame({"group": ["Adelie"], "mean": [3700.7], "n": [151]})
    mean = {"values": [3700.7, 4200.0], "nan": [math.nan, math.nan], "na": [None, None]}[case]
    group = ["Adelie", None] if case == "na" else ["Adelie", "Gentoo"]
    return pd.DataFrame({"group": group, "mean": mean, "n": pd.array([151, None if case == "na" else 123])})


def summary(case: str) -> Summary:
    values = {"empty": [], "one": [1.5], "nan": [math.nan], "na": [None, math.inf]}.get(case, [1.5, 2.5])
    overall = {"nan": math.nan, "na": None}.get(case, 3950.3)
    return Summary("body_mass_g", "numeric", groups(case), rv.Double(values), overall)


server = mcplite.McpServer("typed", version="1.0.0", validate_output=True)


@server.tool
def summarize(case: Literal["values", "nan", "na", "empty", "one"] = "values") -> Summary:
    """Group means of body mass, with NaN, NA or no rows as asked."""
    return summary(case)


@server.tool
def group_means(
    case: Literal["values", "nan", "na", "empty", "one"] = "values",
) -> Annotated[pd.DataFrame, mcplite.Rows(GroupMean)]:
    """Group means as a frame (an array schema: listed from 2026-07-28)."""
    return groups(case)


@server.tool
def misfit() -> Summary:
    """A value that does not fit its declared type (a text mean in row 1)."""
    frame = pd.DataFrame({"group": ["a", "b"], "mean": [1.0, "high"], "n": [1, 2]})
    return Summary("x", "numeric", frame, rv.Double([]), None)


@server.tool(output_schema={"type": "object", "properties": {"mean": {"type": "number"}}})
def hand_written(nan: bool = True) -> dict[str, float]:
    """A hand-written schema that NaN does not fit (the server checks it: validate_output=True)."""
    return {"mean": math.nan if nan else 1.5}


if __name__ == "__main__":
    if os.environ.get("TYPED_JSON_NA"):
        mcplite.options(json_na=os.environ["TYPED_JSON_NA"])
    if sys.argv[1:2] == ["http"]:
        server.run(transport="http", port=int(sys.argv[2]))
    else:
        server.run()
