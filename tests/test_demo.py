"""The README's demo command runs and shows the example output the README shows."""

from __future__ import annotations

import subprocess
import sys


def test_demo_runs_and_prints_the_seed_example() -> None:
    shown = subprocess.run(
        [sys.executable, "-m", "mcplite.demo"], capture_output=True, text=True, check=True, timeout=60
    ).stdout
    assert '{"count":[1],"values":[null,null,null,null],"rows":[{"id":1,"missing":null}]}' in shown
    assert "[1] 1.5  NA NaN" in shown
