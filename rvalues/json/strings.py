"""jsonlite's string escaping (src/escape_chars.c), one C call per string.

jsonlite escapes ``"`` ``\\`` and the control characters (``\\n`` ``\\r`` ``\\t`` ``\\b`` ``\\f``,
others as lowercase ``\\u00xx``), ``/`` only right after ``<``, and copies everything else raw.
The stdlib's C ``encode_basestring`` does exactly the first part; ``</`` is fixed after. Long
arrays that repeat a few strings (labels, categories) escape each distinct one once.

>>> escape("</script>\\x01é")
'"<\\\\/script>\\\\u0001é"'
"""

from __future__ import annotations

from json.encoder import encode_basestring  # type: ignore[attr-defined]

import numpy as np

from rvalues.errors import RValueError
from rvalues.lazy import import_pandas


# jsonlite: src/escape_chars.c C_escape_chars_one
def escape(text: str) -> str:
    """One string as a JSON string token, escaped as jsonlite does."""
    if not text.isascii():
        check_encodable(text, "a string")
    out = encode_basestring(text)
    return out.replace("</", "<\\/") if "</" in text else out


# jsonlite: src/escape_chars.c C_escape_chars
def escape_array(values: np.ndarray, na: str | None = "null") -> np.ndarray:
    """Tokens for an object array of str (None is NA): NA becomes ``null``, ``"NA"`` or None.

    >>> escape_array(np.array(["a", None], dtype=object)).tolist()
    ['"a"', 'null']
    """
    if len(values) <= FEW:
        out = np.empty(len(values), dtype=object)
        out[:] = escape_few(values, na)
        return out
    if len(values) >= _FEW_DISTINCT_FROM and _looks_repetitive(values):
        codes, distinct = import_pandas().factorize(values, use_na_sentinel=True)
        table = np.empty(len(distinct) + 1, dtype=object)
        table[:-1] = _escape_list(distinct.tolist())
        table[-1] = na
        return table[codes]  # type: ignore[no-any-return]
    missing = np.equal(values, None)  # type: ignore[call-overload]  # numpy stubs lack None
    out = np.empty(len(values), dtype=object)
    if missing.any():
        present = values[~missing].tolist()
        out[missing] = None if na is None else na
        out[~missing] = _escape_list(present)
    else:
        out[:] = _escape_list(values.tolist())
    return out


FEW = 8
"""Up to this many strings are escaped in plain Python (:func:`escape_few`): numpy's per-call cost
would dominate."""


def escape_few(values: np.ndarray, na: str | None = "null") -> list[str | None]:
    """:func:`escape_array` of a few strings, as a list.

    >>> escape_few(np.array(["a", None], dtype=object), '"NA"')
    ['"a"', '"NA"']
    """
    items = values.tolist()
    if None not in items:
        return _escape_list(items)  # type: ignore[return-value]  # list is invariant; no None here
    escaped = iter(_escape_list([s for s in items if s is not None]))
    return [na if s is None else next(escaped) for s in items]


_FEW_DISTINCT_FROM = 4096
_SAMPLE = 1024


def _looks_repetitive(values: np.ndarray) -> bool:
    """Whether a sample repeats enough that escaping each distinct string once pays off."""
    step = max(1, len(values) // _SAMPLE)
    return len(set(values[::step][:_SAMPLE].tolist())) <= _SAMPLE // 4


def _escape_list(texts: list[str]) -> list[str]:
    joined = "\x00".join(texts)
    if not joined.isascii():
        try:
            joined.encode("utf-8")
        except UnicodeEncodeError:
            for i, text in enumerate(texts):  # name the string at fault, and where in it
                check_encodable(text, f"string {i + 1}")
    out = list(map(encode_basestring, texts))
    if "</" in joined:
        out = [t.replace("</", "<\\/") for t in out]
    return out


def check_encodable(text: str, what: str = "the JSON text") -> None:
    """Refuse text that is not valid Unicode (lone surrogates), naming where it is.

    >>> check_encodable("ab\\ud800", "a string")
    Traceback (most recent call last):
    ...
    rvalues.errors.RValueError: a string holds the lone surrogate '\\ud800' at position 2 (after 'ab'); R strings are valid UTF-8, so it cannot be serialized
    """  # noqa: E501
    try:
        text.encode("utf-8")
    except UnicodeEncodeError as err:
        bad = text[err.start]
        context = text[max(0, err.start - 20) : err.start]
        raise RValueError(
            f"{what} holds the lone surrogate {bad!r} at position {err.start} (after {context!r}); "
            "R strings are valid UTF-8, so it cannot be serialized"
        ) from None
