"""The dependencies rvalues imports where first needed, not when ``import rvalues`` runs.

pandas is a dependency, but importing it costs more than the rest of rvalues together, and most
values never meet it; pyarrow is optional (the ``arrow`` extra). Code that needs one calls the
function below where it needs it: after the first call, Python's module table answers.

>>> import_pandas().__name__
'pandas'
"""

from __future__ import annotations

import importlib
from typing import Any

__all__ = ["import_pandas", "import_pyarrow"]


def import_pandas() -> Any:
    """The ``pandas`` module (Any to the type checker: pandas ships no stubs we use)."""
    return importlib.import_module("pandas")


def import_pyarrow() -> Any:
    """The ``pyarrow`` module; ImportError where the ``arrow`` extra is not installed."""
    return importlib.import_module("pyarrow")
