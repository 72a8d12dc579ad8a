"""The elements of an atomic vector as R's print encodes them, with their common field width.

Numbers come back right-justified to the common width (R pads them as it encodes them); strings
come back unpadded with the width of the widest, since R pads them left or right by context.

>>> import numpy as np
>>> encode_atomic("integer", np.array([1, -20], dtype=np.int32))
(['  1', '-20'], 3)
"""

from __future__ import annotations

import numpy as np

from rvalues.format.complex_text import encode_complex, format_complex_info
from rvalues.format.real_text import encode_real, format_real_info
from rvalues.format.strings import encode_strings
from rvalues.na import NA_INTEGER

DIGITS = 7
"""R's ``getOption("digits")`` default."""


# R: src/main/format.c IndexWidth
def index_width(n: int) -> int:
    """R's ``IndexWidth``: the number of decimal digits of n (as R computes it, n >= 0)."""
    return len(str(n)) if n > 0 else 1


# R: src/main/format.c formatLogical
def format_logical_width(data: np.ndarray) -> int:
    """R's ``formatLogical``: 5 with any FALSE, else 4 with any TRUE, 2 with NA, else 1."""
    if (data == 0).any():
        return 5
    w = 1
    if (data == NA_INTEGER).any():
        w = 2
    if ((data != 0) & (data != NA_INTEGER)).any():
        w = 4
    return w


# R: src/main/format.c formatInteger
def format_integer_width(data: np.ndarray) -> int:
    """R's ``formatInteger``: the widest element, counting the sign, NA as 2."""
    na = data == NA_INTEGER
    w = 2 if na.any() else 1
    valid = data[~na]
    if len(valid):
        lo, hi = int(valid.min()), int(valid.max())
        if lo < 0:
            w = max(w, index_width(-lo) + 1)
        if hi > 0:
            w = max(w, index_width(hi))
    return w


def encode_complex_cells(data: np.ndarray, total_width: int, digits: int = DIGITS) -> list[str]:
    """Complex elements as print writes them in a field of ``total_width``: the real part padded to
    what the imaginary part leaves (``EncodeComplex(x, w - wi - 2, ...)``), NA right-justified.

    An element may come out wider than the field (a 3-digit exponent R did not plan for), as in R.
    """
    cf = format_complex_info(data, digits)
    real_width = total_width - cf.imag.width - 2
    return encode_complex(
        data, cf, digits, na_string="NA", real_width=real_width, na_width=total_width
    ).tolist()


def encode_atomic(
    r_type: str, data: np.ndarray, quote: bool = True, digits: int = DIGITS, na_string: str | None = None
) -> tuple[list[str], int]:
    """Each element encoded as ``print`` would, and the common width.

    ``na_string`` overrides how a character NA shows (``NA`` quoted, ``<NA>`` bare by default).
    """
    if r_type == "logical":
        w = format_logical_width(data)
        words = np.where(data == NA_INTEGER, "NA", np.where(data != 0, "TRUE", "FALSE"))
        return [s.rjust(w) for s in words.tolist()], w
    if r_type == "integer":
        w = format_integer_width(data)
        na = (data == NA_INTEGER).tolist()
        return ["NA".rjust(w) if m else str(v).rjust(w) for v, m in zip(data.tolist(), na, strict=True)], w
    if r_type == "double":
        fmt = format_real_info(data, digits)
        return encode_real(data, fmt).tolist(), fmt.width
    if r_type == "complex":
        cf = format_complex_info(data, digits)
        w = cf.real.width + cf.imag.width + 2
        return [s.rjust(w) for s in encode_complex(data, cf, digits).tolist()], w
    if r_type == "character":
        texts, widths = encode_strings(data, '"' if quote else "", na_string)
        return texts, max(widths, default=0)
    if r_type == "raw":
        return [f"{v:02x}" for v in data.tolist()], 2
    raise TypeError(f"not an atomic type: {r_type}")
