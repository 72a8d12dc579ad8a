"""A smoke run of ``benchmarks/typed_side_by_side.py``: the same typed tool on mcplite, the SDK's
``MCPServer`` and FastMCP, called by the official SDK client; mcplite's results all pass its checks."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

pytest.importorskip("fastmcp")

SCRIPT = Path(__file__).resolve().parents[1] / "benchmarks" / "typed_side_by_side.py"


def test_the_side_by_side_runs_and_mcplite_passes_every_case(tmp_path: Path) -> None:
    out = tmp_path / "typed_side_by_side.md"
    run = [sys.executable, str(SCRIPT), "--markdown", str(out)]
    subprocess.run(run, check=True, capture_output=True, text=True, timeout=300)
    text = out.read_text(encoding="utf-8")
    assert "Results the client accepts: mcplite 4/4, SDK `MCPServer` " in text
    rows = [line for line in text.splitlines() if line.startswith("| ")]
    assert [row.split(" | ")[0] for row in rows[1:]] == [
        "| ordinary values",
        "| a group's mean is NaN",
        "| NA in `mean` (float) and `n` (Int64)",
        "| no rows",
        "| listed schema of a row's `mean`",
    ]
    for row in rows[1:5]:
        assert row.split(" | ")[1].startswith("ok: "), row  # mcplite's column
    nan_row = rows[2]
    assert '{"group":"Gentoo","n":123}' in nan_row  # NaN in a row is left out, as jsonlite writes it
