"""A smoke run of ``benchmarks/bench_arrow.py`` on a small table: it writes its results file, and where R
is present, rvalues' JSON of the Arrow table is byte-identical to jsonlite's."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from tests.conftest import RSCRIPT

pytest.importorskip("polars")

BENCH = Path(__file__).resolve().parents[1] / "benchmarks" / "bench_arrow.py"


def test_the_arrow_benchmark_runs_and_matches_jsonlite(tmp_path: Path) -> None:
    out = tmp_path / "arrow.md"
    run = [sys.executable, str(BENCH), "--rows", "3000", "--repeat", "1", "--markdown", str(out)]
    subprocess.run(run, check=True, capture_output=True, text=True, timeout=300)
    text = out.read_text(encoding="utf-8")
    assert "`as_r(table)` / `table.to_pandas()`" in text and "polars `write_json()`" in text
    assert "With another process spinning on each core" in text
    if RSCRIPT is not None:
        assert "(byte-identical to jsonlite: yes)" in text
