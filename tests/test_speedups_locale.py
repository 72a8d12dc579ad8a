"""The compiled writer's numbers do not depend on the locale: under a locale whose decimal point is
a comma (de_DE, fr_FR), it writes what the pure writer (its oracle, Python's own formatting) writes.

Each check runs in a child process, so that the locale of the test session is left alone; it skips
when the locale is not installed (CI generates it: see .ci/run).
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap

import pytest

from rvalues import _speedups

CHILD = textwrap.dedent(
    """
    import json
    import locale
    import sys

    import numpy as np

    import rvalues as rv
    from rvalues import _speedups
    from rvalues.json import signif, to_json

    try:
        locale.setlocale(locale.LC_ALL, sys.argv[1])
    except locale.Error:
        sys.exit(3)
    numbers = rv.Double([1.5, -2.25e-7, 1e300, 123456.789, 3e9 + 0.5, 0.1 + 0.2, None])
    frame = rv.data_frame(x=numbers, y=rv.Double(np.linspace(-1, 1, 7) * 1e-3))
    options = [{}, {"digits": None}, {"digits": 12}, {"digits": signif(3)}, {"always_decimal": True},
               {"dataframe": "columns"}, {"dataframe": "values", "digits": None}]
    cases = [(value, option) for value in (numbers, frame) for option in options]
    compiled = [to_json(value, **option) for value, option in cases]
    _speedups.core = None
    pure = [to_json(value, **option) for value, option in cases]
    print(json.dumps({"point": locale.localeconv()["decimal_point"], "c": compiled, "python": pure}))
    """
)


@pytest.mark.skipif(
    _speedups.load() is None, reason="the compiled writer is not built (or RVALUES_PURE is set)"
)
@pytest.mark.parametrize("name", ["de_DE.UTF-8", "fr_FR.UTF-8"])
def test_numbers_under_a_comma_locale_are_the_pure_writers(name: str) -> None:
    run = subprocess.run(
        [sys.executable, "-c", CHILD, name], capture_output=True, text=True, timeout=120, check=False
    )
    if run.returncode == 3:
        pytest.skip(f"the locale {name} is not installed")
    assert run.returncode == 0, run.stderr
    result = json.loads(run.stdout)
    assert result["point"] == ",", "the locale did not take: the check would prove nothing"
    assert result["c"] == result["python"]
