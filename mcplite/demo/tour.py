"""The tour: R values printed as R prints them, JSON as jsonlite writes it, and the MCP tool
results mcplite builds from them, projected for an old and a new client.

Run it with ``python -m mcplite.demo``.
"""

from __future__ import annotations

import json
import math

import mcplite
import rvalues as rv
from rvalues.demo import main as show_values


def show_results() -> None:
    """Print the tool results a few ordinary return values and one structured result become."""
    returned = {
        '"done"': "done",
        'c("a", "b")': rv.c("a", "b"),
        "list(count = 2L, ok = TRUE)": {"count": 2, "ok": True},
        "NULL": None,
    }
    for expression, value in returned.items():
        block = mcplite.as_tool_result(value).content[0]
        assert isinstance(block, mcplite.TextContent)  # an ordinary value gives one text block
        text = block.text
        print(f"tool returns {expression:<28} -> text {text!r}")
    print()
    with mcplite.options(json_na="null", json_auto_unbox=False):
        result = mcplite.tool_result(
            structured_content=rv.r_list(
                count=1,
                values=rv.c(rv.NA_real_, math.nan, math.inf, -math.inf),
                rows=rv.data_frame(id=1, missing=rv.NA_real_),
            )
        )
    print("with json_na='null', json_auto_unbox=False, a list with NA, NaN, Inf and a one-row frame gives:")
    block = result.content[0]
    assert isinstance(block, mcplite.TextContent)
    print(block.text)
    for version in ("2024-11-05", "2026-07-28"):
        print(f"on the wire for {version}: {json.dumps(result.to_wire(version))}")


def main() -> None:
    """The whole tour."""
    show_values()
    show_results()
