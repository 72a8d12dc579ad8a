"""The one check every R string passes: R holds no NUL, and JSON carries only valid UTF-8.

Character storage is checked when it is locked (:func:`rvalues.model.storage.freeze`), so no path
into a value (constructors, ``c()``, names, numpy, pandas, arrow) can skip it. Other text that
becomes JSON (MCP text content, attribute names) calls :func:`check_text`.

>>> check_text("a\\x00b", "a name")
Traceback (most recent call last):
...
rvalues.errors.RValueError: a name ('a\\x00b') holds an embedded nul at position 1; R strings cannot hold NUL
"""

from __future__ import annotations

import numpy as np

from rvalues.errors import SHOWN, RValueError, shorten

__all__ = ["SHOWN", "check_strings", "check_text", "check_unicode_array", "clip", "shorten"]


def clip(text: str, limit: int = SHOWN) -> str:
    """``text`` itself where short, else its start and its length (for R's unquoted messages)."""
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def check_text(text: str, what: str) -> str:
    """Refuse a string R cannot hold (a NUL) or UTF-8 cannot encode (a lone surrogate); return it."""
    if "\x00" in text:
        raise RValueError(
            f"{what} ({shorten(text)}) holds an embedded nul at position {text.index(chr(0))}; "
            "R strings cannot hold NUL"
        )
    if not text.isascii():
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as err:
            raise RValueError(
                f"{what} ({shorten(text)}) holds the lone surrogate {text[err.start]!r} at position "
                f"{err.start}, which has no UTF-8 encoding; R strings must be valid UTF-8"
            ) from None
    return text


_SURROGATES = (0xD800, 0xDFFF)


def check_unicode_array(strings: np.ndarray, what: str = "Character") -> None:
    """The same check, vectorized, for a numpy ``U`` array (UTF-32 code points; NUL-padded)."""
    if not strings.size or not strings.dtype.itemsize:
        return
    native = np.ascontiguousarray(strings, dtype=strings.dtype.newbyteorder("="))
    codes = native.view(np.uint32).reshape(len(strings), -1)
    bad = ((codes >= _SURROGATES[0]) & (codes <= _SURROGATES[1])).any(axis=1)
    if codes.shape[1]:
        # a NUL that a later non-NUL code point follows is embedded (trailing ones are padding)
        nul = codes == 0
        later = np.flip(np.logical_or.accumulate(np.flip(~nul, axis=1), axis=1), axis=1)
        bad |= (nul & later).any(axis=1)
    if bad.any():
        i = int(np.flatnonzero(bad)[0])
        check_text(str(strings[i]), f"{what}: element {i}")


def check_strings(strings: np.ndarray, what: str = "Character") -> None:
    """Check an object array of ``str`` and ``None`` (NA) with one join: no NUL, no lone surrogate."""
    items = strings.tolist()
    try:
        joined = "".join(filter(None, items))
    except TypeError:
        bad = next(i for i, s in enumerate(items) if s is not None and not isinstance(s, str))
        raise RValueError(
            f"{what}: element {bad} ({shorten(items[bad])}) is not a string (a str or None for NA)"
        ) from None
    if "\x00" in joined or not joined.isascii():
        try:
            joined.encode("utf-8")
            clean = "\x00" not in joined
        except UnicodeEncodeError:
            clean = False
        if not clean:
            for i, s in enumerate(items):
                if s:
                    check_text(s, f"{what}: element {i}")
