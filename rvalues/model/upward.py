"""The few functions of upper layers that model's conveniences call, registered by those layers.

``List([1, "a"])`` and ``attr<-`` convert plain Python values with ``as_r`` (convert), and
``Factor([...])``, ``Date([...])``, ``POSIXct([...])`` and ``DataFrame(...)`` are R's
constructors (construct). model sits below both, so it cannot import them: ``rvalues.convert``
and ``rvalues.construct`` hand them over here when they are imported, which importing
``rvalues`` (or any of its modules) always does first.

>>> upward("as_r")(1.5).data.tolist()
[1.5]
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

_PROVIDED: dict[str, Callable[..., Any]] = {}


def provide(**functions: Callable[..., Any]) -> None:
    """Register upper-layer functions by name (called once, at the upper layer's import)."""
    _PROVIDED.update(functions)


def upward(name: str) -> Callable[..., Any]:
    """The registered function ``name``; a clear error when its layer has not been imported."""
    try:
        return _PROVIDED[name]
    except KeyError:
        raise RuntimeError(
            f"rvalues.model needs {name!r} from an upper layer that is not imported yet; import rvalues first"
        ) from None
