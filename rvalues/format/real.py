"""R 4.2.2's formatting of doubles (``formatReal``), kept in :mod:`rvalues.model.real_text`
because ``as.character()`` of doubles, a coercion rule of the model, is built on it.

>>> import numpy as np
>>> format_real(np.array([1.0, 2.5, 3.0]))
array(['1.0', '2.5', '3.0'], dtype=object)
"""

from __future__ import annotations

from rvalues.model.real_text import (
    KP_MAX,
    RealFormat,
    Scientific,
    as_character_double,
    check_digits,
    drop_trailing_zeros,
    encode_real,
    format_real,
    format_real_info,
    scientific,
)

__all__ = [
    "KP_MAX",
    "RealFormat",
    "Scientific",
    "as_character_double",
    "check_digits",
    "drop_trailing_zeros",
    "encode_real",
    "format_real",
    "format_real_info",
    "scientific",
]
