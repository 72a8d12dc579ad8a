"""The head of a cut result and the pages after it are what R's jsonlite writes for those rows of
the same data frame (``toJSON(df[1:n, ])``), automatic and character row names alike."""

from __future__ import annotations

import pytest

import mcplite
import rvalues as rv
from mcplite.features.result_store import TRUNCATED_KEY
from mcplite.testing import Client
from tests.conftest import RSCRIPT, r_json_output, requires_r

ROWS = 3_000
R_FRAME = f"""
i <- 1:{ROWS}
df <- data.frame(
  x = ifelse(i %% 10 == 0, NA, i / 7),
  s = ifelse(i %% 7 == 0, NA, paste0("s", i)),
  f = factor(c("u", "v", "w")[(i %% 3) + 1], levels = c("u", "v", "w")),
  b = i %% 4 == 0,
  stringsAsFactors = FALSE
)
"""


def python_frame(named: bool) -> rv.DataFrame:
    i = range(1, ROWS + 1)
    frame = rv.DataFrame(
        x=rv.Double([rv.NA if k % 10 == 0 else k / 7 for k in i]),
        s=rv.Character([rv.NA if k % 7 == 0 else f"s{k}" for k in i]),
        f=rv.factor([("u", "v", "w")[k % 3] for k in i], levels=["u", "v", "w"]),
        b=rv.Logical([k % 4 == 0 for k in i]),
    )
    if named:
        return frame.with_attributes({"row.names": rv.Character([f"r{k}" for k in i])})
    return frame


def r_rows(named: bool, spans: list[tuple[int, int]]) -> list[str]:
    """jsonlite's JSON of rows a..b (1-based, inclusive) of the R frame, for each span."""
    assert RSCRIPT is not None
    names = f'rownames(df) <- paste0("r", 1:{ROWS})\n' if named else ""
    calls = ", ".join(f"as.character(jsonlite::toJSON(df[{a}:{b}, ]))" for a, b in spans)
    script = f"{R_FRAME}{names}cat(jsonlite::toJSON(list({calls}), auto_unbox = TRUE))\n"
    found: list[str] = r_json_output(script)
    return found


@requires_r
@pytest.mark.parametrize("named", [False, True], ids=["automatic-row-names", "character-row-names"])
def test_the_head_and_the_next_page_are_what_jsonlite_writes(named: bool) -> None:
    frame = python_frame(named)
    server = mcplite.McpServer("r", result_budget=8_000)

    @server.tool
    def table() -> rv.DataFrame:
        """The frame."""
        return frame

    with Client(server, protocol_version="2025-11-25") as client:
        result = client.call_tool("table", {})
        found = result.meta[TRUNCATED_KEY]
        page = client.request("resources/read", {"uri": found["next"]})
    n, then = found["shown"], page["_meta"][TRUNCATED_KEY]
    assert 0 < n < then["to"] < ROWS
    head, rest = r_rows(named, [(1, n), (n + 1, then["to"])])
    assert ('"_row"' in head) is named
    assert result.content[0].text == head  # type: ignore[union-attr]
    assert page["contents"][0]["text"] == rest
