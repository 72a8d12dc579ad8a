"""R 4.2.2's formatting of complex numbers (``formatComplex``), kept in
:mod:`rvalues.model.complex_text` because ``as.character()`` of complex numbers is built on it.

>>> import numpy as np
>>> format_complex(np.array([1234567.891 + 0.000123j])).tolist()
['1234568+0i']
"""

from __future__ import annotations

from rvalues.model.complex_text import (
    ComplexFormat,
    as_character_complex,
    encode_complex,
    format_complex,
    format_complex_info,
    format_complex_vector,
    fround,
    signif_complex,
)

__all__ = [
    "ComplexFormat",
    "as_character_complex",
    "encode_complex",
    "format_complex",
    "format_complex_info",
    "format_complex_vector",
    "fround",
    "signif_complex",
]
