"""R 4.2.2's console printing (``print(x)`` at width 80) of rvalues objects, and an HTML view.

>>> import numpy as np
>>> from rvalues.model.build import build
>>> print(format_value(build("double", np.array([1.5, np.nan]))))
[1] 1.5 NaN
"""

from __future__ import annotations

from typing import Any

from rvalues.printing.core import print_value
from rvalues.printing.html import format_html


def format_value(x: Any) -> str:
    """What ``capture.output(print(x))`` gives in R, joined with newlines.

    >>> from rvalues.model.lists import NULL
    >>> format_value(NULL)
    'NULL'
    """
    return "\n".join(print_value(x))


__all__ = ["format_html", "format_value", "print_value"]
