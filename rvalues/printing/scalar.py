"""The JSON jsonlite's ``print.scalar`` shows after ``[x]`` for an unboxed atomic value.

It is ``asJSON(x, collapse = FALSE)`` with asJSON's own defaults (``digits = 5``), written by
rvalues' jsonlite encoder.

>>> import numpy as np
>>> from rvalues.model.build import build
>>> scalar_json(build("logical", np.array([1], dtype=np.int32)))
'true'
"""

from __future__ import annotations

from typing import Any

from rvalues.json import to_json


def scalar_json(x: Any) -> str:
    """The JSON text of a length-1 atomic value (several values are joined with commas)."""
    return str(to_json(x, auto_unbox=True, digits=5))
