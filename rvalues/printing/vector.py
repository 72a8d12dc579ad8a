"""R's ``printVector`` and ``printNamedVector``: ``[1]`` index labels, wrapping, names above values.

>>> import numpy as np
>>> print_vector("integer", np.arange(1, 4, dtype=np.int32))
['[1] 1 2 3']
"""

from __future__ import annotations

import numpy as np

import rvalues.printing.options as options
from rvalues.format.complex_text import format_complex_info
from rvalues.format.real_text import RealFormat, encode_real
from rvalues.format.strings import encode_strings, pad
from rvalues.na import real_is_na
from rvalues.printing.atomic import DIGITS, encode_atomic, encode_complex_cells, index_width
from rvalues.printing.options import GAP

EMPTY = {
    "logical": "logical(0)",
    "integer": "integer(0)",
    "double": "numeric(0)",
    "complex": "complex(0)",
    "character": "character(0)",
    "raw": "raw(0)",
}


def _omitted(n: int, shown: int) -> list[str]:
    if shown < n:
        return [f' [ reached getOption("max.print") -- omitted {n - shown} entries ]']
    return []


def _shown(n: int) -> int:
    return n if n <= options.MAX_PRINT + 1 else options.MAX_PRINT


# R: src/main/printvector.c printVector
def print_vector(r_type: str, data: np.ndarray, quote: bool = True, digits: int = DIGITS) -> list[str]:
    """The lines R prints for an unnamed atomic vector (``[1] ...``, wrapped at width 80)."""
    n = len(data)
    if n == 0:
        return [EMPTY[r_type]]
    n_pr = _shown(n)
    texts, w = encode_atomic(r_type, data[:n_pr], quote, digits)
    labwidth = index_width(n_pr) + 2
    lines: list[str] = []
    current = [_label(1, labwidth)]
    width = labwidth
    if r_type == "character":
        for i, text in enumerate(texts):
            if i > 0 and width + w + GAP > options.WIDTH:
                lines.append("".join(current))
                current, width = [_label(i + 1, labwidth)], labwidth
            current.append(" " * GAP + pad(text, w, "left"))
            width += w + GAP
    else:
        cell = w + GAP
        if r_type == "complex":
            texts = encode_complex_cells(data[:n_pr], cell, digits)
        for i, text in enumerate(texts):
            if i > 0 and width + cell > options.WIDTH:
                lines.append("".join(current))
                current, width = [_label(i + 1, labwidth)], labwidth
            current.append(text.rjust(cell))
            width += cell
    lines.append("".join(current))
    return lines + _omitted(n, n_pr)


def _label(i: int, labwidth: int) -> str:
    return f"[{i}]".rjust(labwidth)


# R: src/main/printvector.c printNamedVector
def print_named_vector(
    r_type: str, data: np.ndarray, names: np.ndarray, quote: bool = True, digits: int = DIGITS
) -> list[str]:
    """The lines R prints for a named atomic vector: rows of names above rows of values."""
    n = len(data)
    if n == 0:
        return ["named " + EMPTY[r_type]]
    n_pr = _shown(n)
    data = data[:n_pr]
    name_texts, name_widths = encode_strings(names[:n_pr], "")
    wn = max(name_widths)
    complex_na: list[bool] = []
    if r_type == "complex":
        values, w, complex_na = _named_complex(data, digits)
    else:
        values, w = encode_atomic(r_type, data, quote, digits)
    w = max(w, wn)
    per_line = max(options.WIDTH // (w + GAP), 1)
    lines: list[str] = []
    gap = " " * GAP
    for start in range(0, n_pr, per_line):
        stop = min(start + per_line, n_pr)
        lines.append("".join(pad(t, w, "right") + gap for t in name_texts[start:stop]))
        if r_type == "complex":
            # R pads only NA to the common width here; other elements keep their own width
            row = zip(values[start:stop], complex_na[start:stop], strict=True)
            lines.append(gap.join("NA".rjust(w) if m else t for t, m in row))
        elif r_type == "raw":
            lines.append("".join(" " * (w - 2) + t + gap for t in values[start:stop]))
        else:
            lines.append("".join(pad(t, w, "right") + gap for t in values[start:stop]))
    return lines + _omitted(n, n_pr)


def _named_complex(data: np.ndarray, digits: int) -> tuple[list[str], int, list[bool]]:
    """Named complex vectors print each part with ``EncodeReal0`` directly (no joint rounding)."""
    cf = format_complex_info(data, digits)
    w = cf.real.width + cf.imag.width + 2
    na = real_is_na(data.real) | real_is_na(data.imag)
    re = encode_real(data.real, cf.real).tolist()
    neg = (data.imag < 0).tolist()
    im = encode_real(np.abs(data.imag), RealFormat(*cf.imag)).tolist()
    out = []
    for k in range(len(data)):
        if na[k]:
            out.append("NA")
        elif np.isnan(data.imag[k]):
            out.append(f"{re[k]}+NaNi")
        else:
            out.append(f"{re[k]}{'-' if neg[k] else '+'}{im[k]}i")
    return out, w, na.tolist()
