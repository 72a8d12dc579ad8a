"""R's ``encodeString`` as ``print`` uses it in a UTF-8 locale, and display widths.

Printable characters pass through; ``\\``, the quote character and the ANSI control characters
are escaped (``\\n``, ``\\t``, ...), other ASCII controls are written in octal (``\\001``), and
non-printable non-ASCII characters as ``\\uXXXX``. Widths count display columns: East Asian
wide and full-width characters take 2, combining marks 0.

>>> encode_string('say "hi"\\n', quote='"')
'"say \\\\"hi\\\\"\\\\n"'
>>> display_width("日本")
4
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache

import numpy as np

NA_WIDTH = 2
"""Width of ``NA`` (a quoted context prints character NA bare)."""
NA_NOQUOTE = "<NA>"
"""How a character NA prints without quotes (data frames, factors, matrices with quote = FALSE)."""

_ANSI = {
    "\a": "\\a",
    "\b": "\\b",
    "\f": "\\f",
    "\n": "\\n",
    "\r": "\\r",
    "\t": "\\t",
    "\v": "\\v",
    "\0": "\\0",
}
_NON_PRINTING = frozenset({"Cc", "Cs", "Cn", "Zl", "Zp"})
_ZERO_WIDTH = frozenset({"Mn", "Me", "Cf"})


@lru_cache(maxsize=4096)
def _char_code(ch: str, quote: str) -> tuple[str, int]:
    """The escaped form of one character and its display width."""
    k = ord(ch)
    if 0x20 <= k < 0x7F:
        if ch == "\\":
            return "\\\\", 2
        if quote and ch == quote:
            return "\\" + ch, 2
        return ch, 1
    if k < 0x80:
        if ch in _ANSI:
            return _ANSI[ch], 2
        return f"\\{k:03o}", 4
    category = unicodedata.category(ch)
    if category in _NON_PRINTING:
        if k > 0xFFFF:
            return f"\\U{{{k:06x}}}", 10
        return f"\\u{k:04x}", 6
    return ch, char_width(ch)


# R: src/main/rlocale.c Ri18n_wcwidth
def char_width(ch: str) -> int:
    """Display width of one printable character: 0 (combining), 1, or 2 (East Asian wide)."""
    k = ord(ch)
    if k == 0xAD:  # the soft hyphen is a format character that still takes a column
        return 1
    if unicodedata.category(ch) in _ZERO_WIDTH or 0x1160 <= k <= 0x11FF:
        return 0
    return 2 if unicodedata.east_asian_width(ch) in ("W", "F") else 1


def _is_plain_ascii(s: str, quote: str) -> bool:
    return s.isascii() and s.isprintable() and "\\" not in s and not (quote and quote in s)


# R: src/main/printutils.c EncodeString
def encode_string(s: str | None, quote: str = "", na: str | None = None) -> str:
    """R's ``encodeString(s, quote = quote)`` without padding; NA as ``NA`` quoted, ``<NA>`` bare.

    >>> encode_string("tab\\there"), encode_string(None), encode_string(None, '"')
    ('tab\\\\there', '<NA>', 'NA')
    """
    if s is None:
        return na if na is not None else ("NA" if quote else NA_NOQUOTE)
    if _is_plain_ascii(s, quote):
        return f"{quote}{s}{quote}"
    return quote + "".join(_char_code(ch, quote)[0] for ch in s) + quote


def encoded_width(s: str | None, quote: str = "", na: str | None = None) -> int:
    """The display width of ``encode_string(s, quote)`` (R's ``Rstrlen`` plus the quotes)."""
    if s is None:
        return display_width(na if na is not None else ("NA" if quote else NA_NOQUOTE))
    extra = 2 if quote else 0
    if _is_plain_ascii(s, quote):
        return len(s) + extra
    return sum(_char_code(ch, quote)[1] for ch in s) + extra


# R: src/main/printutils.c Rstrlen
def display_width(s: str) -> int:
    """Display columns of an already encoded (printable) string.

    >>> display_width("e\\u0301"), display_width("a😀")
    (1, 3)
    """
    if s.isascii():
        return len(s)
    return sum(char_width(ch) for ch in s)


def pad(s: str, width: int, justify: str = "left") -> str:
    """Pad an encoded string to ``width`` display columns (``"left"``, ``"right"``, ``"centre"``)."""
    gap = width - display_width(s)
    if gap <= 0:
        return s
    if justify == "right":
        return " " * gap + s
    if justify == "centre":
        return " " * (gap // 2) + s + " " * (gap - gap // 2)
    return s + " " * gap


def encode_strings(values: np.ndarray, quote: str = "", na: str | None = None) -> tuple[list[str], list[int]]:
    """Encode each element (None is NA) and give its display width."""
    items = values.tolist() if isinstance(values, np.ndarray) else list(values)
    texts = [encode_string(v, quote, na) for v in items]
    widths = [len(t) if t.isascii() else display_width(t) for t in texts]
    return texts, widths
