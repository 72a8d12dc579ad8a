"""The vendored R expectations (tests/data/mcplite-r.json) are what R gives today."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

HERE = Path(__file__).parent
SCRIPT = HERE / "r" / "mcplite_cases.R"
VENDORED = HERE / "data" / "mcplite-r.json"


@pytest.mark.r
@pytest.mark.skipif(shutil.which("Rscript") is None, reason="needs Rscript (R with jsonlite)")
def test_r_regenerates_the_vendored_expectations_unchanged(tmp_path: Path) -> None:
    out = tmp_path / "mcplite-r.json"
    subprocess.run(
        ["Rscript", str(SCRIPT), str(out)],
        check=True,
        env={**os.environ, "TZ": "UTC"},
        capture_output=True,
        timeout=300,
    )
    assert out.read_text(encoding="utf-8") == VENDORED.read_text(encoding="utf-8")
