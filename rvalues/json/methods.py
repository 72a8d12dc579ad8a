"""The table of ``asJSON`` methods, one per class, below the encoders that ask about it.

:mod:`rvalues.json.dispatch` fills it with jsonlite's own methods and reads it;
:mod:`rvalues.json.registry` adds users' methods. The frame writer asks :func:`builtin_method`
whether a column's class is still written by jsonlite's method (then it may write the column
straight from its array) without importing the dispatch that imports it.

>>> import rvalues.json
>>> builtin_method("numeric"), builtin_method("no-such-class")
(True, False)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rvalues.json.context import Ctx
from rvalues.model.base import RValue

Method = Callable[[RValue, Ctx, tuple[str, ...]], Any]
"""``method(x, ctx, cls)``: jsonlite's ``asJSON`` method for the first class of ``cls``."""

METHODS: dict[str, Method] = {}
"""One method per class; :func:`rvalues.json.register` adds users' methods here."""

BUILTIN: dict[str, Method] = {}
"""jsonlite's own methods (filled once by the dispatch), which ``unregister`` restores."""


def builtin_method(cls: str) -> bool:
    """Whether class ``cls`` has a jsonlite method that no user's method replaces."""
    method = METHODS.get(cls)
    return method is not None and method is BUILTIN.get(cls)
