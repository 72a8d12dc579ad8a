"""The compiled writer out of memory: every allocation it makes may fail (``_testcapi.set_nomemory``
fails the k-th one on), and each time it raises MemoryError and frees what it held, never crashes.

It runs in a child process: a crash there (as a failed ``_PyBytes_Resize`` once made, freeing a
dangling pointer) is a failed test, not a lost session.
"""

from __future__ import annotations

import subprocess
import sys
import textwrap

import pytest

from rvalues import _speedups

pytest.importorskip("_testcapi")

CHILD = textwrap.dedent(
    """
    import _testcapi
    import sys

    import numpy as np

    from rvalues._speedups import _core as core

    LAYOUT = ("[", ",", "]", "{", ",", ":", "}")
    rows = 40
    words = np.array(['say "é" ' * 60 + str(i) for i in range(rows)], dtype=object)
    numbers = np.linspace(-1e6, 1e6, rows)
    days = np.linspace(-300000, 2900000, rows)
    calls = {
        "escaped rows": lambda: core.rows_text([words, ("d", numbers, 0, 15, False, None, None, None, None)],
                                               ['"w"', '"x"'], rows, LAYOUT, 0, True),
        "rows": lambda: core.rows_text([("s", list(words), None), ("D", days, None)], ['"w"', '"d"'], rows,
                                       LAYOUT),
        "chunked rows": lambda: core.rows_text(lambda a, b: [words[a:b]], None, rows, LAYOUT, 16, True),
        "cells": lambda: core.cells_text(("d", numbers, 1, 4, True, None, None, None, None), "[", ",", "]"),
        "tokens": lambda: core.double_tokens(numbers, np.empty(rows, dtype=object), 0, 15, False, "",
                                             None, None, None, None),
        "join": lambda: core.join_rows([words, ",", words], rows, "\\n"),
        "escape": lambda: core.escape_list(list(words), True, True),
    }
    for name, call in calls.items():
        expected = call()
        failures = 0
        for start in range(int(sys.argv[1])):
            _testcapi.set_nomemory(start, 0)
            try:
                got = call()
            except MemoryError:
                failures += 1
                continue
            finally:
                _testcapi.remove_mem_hooks()
            assert got is None or got == expected, (name, start)
        assert failures, name  # the allocations did fail
    print("ok")
    """
)


CONTROL = textwrap.dedent(
    """
    import _testcapi
    import json

    words = ['say "é" ' * 60 + str(i) for i in range(40)]
    for start in range(60):
        _testcapi.set_nomemory(start, 0)
        try:
            json.dumps(words, ensure_ascii=False)
        except MemoryError:
            pass
        finally:
            _testcapi.remove_mem_hooks()
    print("ok")
    """
)
"""The same injection around the standard library's json.dumps: where CPython itself crashes under it
(3.13.0 does), a crash of the writer's child would prove nothing about the writer."""


def _survives_failed_allocations() -> bool:
    run = subprocess.run(
        [sys.executable, "-c", CONTROL], capture_output=True, text=True, timeout=60, check=False
    )
    return run.returncode == 0 and run.stdout.strip() == "ok"


@pytest.mark.skipif(
    _speedups.load() is None, reason="the compiled writer is not built (or RVALUES_PURE is set)"
)
def test_every_failed_allocation_is_a_memory_error() -> None:
    if not _survives_failed_allocations():
        pytest.skip(
            f"CPython {sys.version.split()[0]} itself crashes when allocations fail (json.dumps does)"
        )
    run = subprocess.run(
        [sys.executable, "-c", CHILD, "60"], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0 and run.stdout.strip() == "ok", (run.returncode, run.stderr[-2000:])
