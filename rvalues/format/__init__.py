"""R's own formatting of numbers and strings, as ``print``, ``format`` and ``as.character`` do it.

>>> from rvalues.format import as_character_double
>>> as_character_double(np.array([1e5])).tolist()
['1e+05']
"""

from __future__ import annotations

import numpy as np

from rvalues.format.real import (
    RealFormat,
    as_character_double,
    encode_real,
    format_real,
    format_real_info,
)

__all__ = [
    "RealFormat",
    "as_character_double",
    "encode_real",
    "format_real",
    "format_real_info",
    "np",
]
