"""Object keys as jsonlite makes them (R/cleannames.R): positions for empty or NA names, then
R's ``make.unique``.

>>> cleannames(["a", "", None, "a", "a.1"])
['a', '2', '3', 'a.2', 'a.1']
"""

from __future__ import annotations

from collections.abc import Sequence

from rvalues.model.names import make_unique


def cleannames(names: Sequence[str | None], no_dots: bool = False) -> list[str]:
    """jsonlite's ``cleannames``: "" and NA become the 1-based position, then ``make.unique``."""
    fixed = [str(i + 1) if (n is None or n == "") else n for i, n in enumerate(names)]
    if no_dots:
        fixed = [n.replace(".", "_") for n in fixed]
    return make_unique(fixed)
