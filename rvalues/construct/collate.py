"""Sorting strings as R 4.2.2 does with ICU in a UTF-8 locale (``sort()``, ``factor()`` levels).

ICU's root collation compares the base letters first (case and accents ignored), then the
accents, then the case (lower before upper). Punctuation is not ignored and sorts before
digits, digits before letters. The ASCII order below is what R printed for the printable
ASCII characters; characters outside it fall back to their code points after ASCII.
"""

from __future__ import annotations

import unicodedata

_ASCII_ORDER = (
    " _-,;:!?.'\"()[]{}@*/\\&#%`^+<=>|~$0123456789aAbBcCdDeEfFgGhHiIjJkKlLmMnNoOpPqQrRsStTuUvVwWxXyYzZ"
)
_PRIMARY: dict[str, int] = {}
for _rank, _ch in enumerate(_ASCII_ORDER):
    _PRIMARY.setdefault(_ch.lower(), _rank)


def collation_key(text: str) -> tuple[tuple[int, ...], tuple[int, ...], tuple[int, ...]]:
    """A sort key ordering strings as R's ``sort()`` does (primary, accent, case levels).

    >>> sorted(["b", "B", "a", "A"], key=collation_key)
    ['a', 'A', 'b', 'B']
    """
    primary: list[int] = []
    accents: list[int] = []
    case: list[int] = []
    for ch in unicodedata.normalize("NFD", text):
        if unicodedata.combining(ch):
            if accents:
                accents[-1] = accents[-1] * 1000 + ord(ch)
            continue
        base = ch.lower()
        primary.append(_PRIMARY.get(base, 1000 + ord(base)))
        accents.append(0)
        case.append(0 if ch == base else 1)
    return tuple(primary), tuple(accents), tuple(case)
