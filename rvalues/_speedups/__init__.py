"""rvalues' compiled JSON writer: loads ``rvalues._speedups._core`` (built from the C sources here)
and says which writer runs.

The pure Python/numpy writer stays: it runs where the extension is missing (no compiler at install
time) or disabled (``RVALUES_PURE=1``), and it is the oracle the compiled one is tested against.
The writer's modules read :data:`core` when called, so a test may set it to None.

>>> backend() in ("c", "python")
True
"""

from __future__ import annotations

import contextlib
import importlib
import os
from collections.abc import Iterator
from types import ModuleType

__all__ = ["backend", "core", "load", "pure_writer"]


def load() -> ModuleType | None:
    """The compiled module, or None when it is missing or ``RVALUES_PURE`` is set (not "" or "0")."""
    if os.environ.get("RVALUES_PURE", "") not in ("", "0"):
        return None
    try:
        return importlib.import_module("rvalues._speedups._core")
    except ImportError:
        return None


core: ModuleType | None = load()
"""The compiled module the writer calls, or None (the pure path)."""


def backend() -> str:
    """Which JSON writer runs: ``"c"`` (the compiled extension) or ``"python"`` (pure Python/numpy).

    >>> import rvalues.json
    >>> rvalues.json.backend() == backend()
    True
    """
    return "c" if core is not None else "python"


@contextlib.contextmanager
def pure_writer() -> Iterator[None]:
    """Run the block with the pure Python/numpy writer (the oracle): :data:`core` is None inside it.
    It changes a module global: for tests and benchmarks, not for code that runs beside others.

    >>> with pure_writer():
    ...     backend()
    'python'
    """
    global core
    saved = core
    core = None
    try:
        yield
    finally:
        core = saved
