"""R's own formatting of numbers, strings and dates, as ``print``, ``format`` and ``as.character``
do it in R 4.2.2, and the time-zone look-ups dates need. It sits below the value model: it works on
numpy arrays and imports nothing from ``rvalues.model``.

>>> import numpy as np
>>> as_character_double(np.array([1e5, 0.1 + 0.2])).tolist()
['1e+05', '0.3']
>>> format_complex(np.array([3.14159265 - 1j]), 4).tolist()
['3.142-1i']
"""

from __future__ import annotations

from rvalues.format.complex_text import (
    ComplexFormat,
    as_character_complex,
    encode_complex,
    format_complex,
    format_complex_info,
    format_complex_vector,
)
from rvalues.format.datetime import format_date, format_posixct
from rvalues.format.real_text import (
    RealFormat,
    as_character_double,
    encode_real,
    format_real,
    format_real_info,
)
from rvalues.format.strings import display_width, encode_string, encoded_width

__all__ = [
    "ComplexFormat",
    "RealFormat",
    "as_character_complex",
    "as_character_double",
    "display_width",
    "encode_complex",
    "encode_real",
    "encode_string",
    "encoded_width",
    "format_complex",
    "format_complex_info",
    "format_complex_vector",
    "format_date",
    "format_posixct",
    "format_real",
    "format_real_info",
]
