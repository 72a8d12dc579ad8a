"""Ask R many questions in one process (tests/r/batch.R), for the differential tests."""

from __future__ import annotations

import json
import subprocess
import tempfile
from pathlib import Path
from typing import Any

from tests.conftest import RSCRIPT

BATCH = Path(__file__).parent / "r" / "batch.R"


def ask_r(mode: str, cases: list[Any]) -> list[dict[str, Any]]:
    """Run ``batch.R MODE`` on ``cases`` and return R's answer for each, in order."""
    assert RSCRIPT is not None
    with tempfile.TemporaryDirectory() as tmp:
        given, answered = Path(tmp) / "in.json", Path(tmp) / "out.json"
        given.write_text(json.dumps(cases), encoding="utf-8")
        subprocess.run(
            [RSCRIPT, "--vanilla", str(BATCH), mode, str(given), str(answered)],
            check=True,
            env={"TZ": "UTC", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"},
            capture_output=True,
        )
        return json.loads(answered.read_text(encoding="utf-8"))  # type: ignore[no-any-return]
