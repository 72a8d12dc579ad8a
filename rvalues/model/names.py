"""R's rules for names: which are syntactic, ``make.names()`` and ``make.unique()``."""

from __future__ import annotations

from collections.abc import Sequence

RESERVED_WORDS = frozenset(
    {
        "if", "else", "repeat", "while", "function", "for", "next", "break", "in",
        "TRUE", "FALSE", "NULL", "Inf", "NaN", "NA",
        "NA_integer_", "NA_real_", "NA_character_", "NA_complex_",
    }
)  # fmt: skip
"""R's reserved words (``?Reserved``), which are never syntactic names."""


def _name_char(ch: str) -> bool:
    return ch.isalnum() or ch in "._"


# R: src/main/gram.y isValidName
def is_syntactic_name(name: str) -> bool:
    """R's ``isValidName``: a syntactic name, usable without backticks.

    >>> [is_syntactic_name(n) for n in ("a.b_1", "a b", ".2x", "if")]
    [True, False, False, False]
    """
    if not name:
        return False
    first = name[0]
    if first != "." and not first.isalpha():
        return False
    if first == "." and len(name) > 1 and name[1].isdigit():
        return False
    if not all(_name_char(ch) for ch in name[1:]):
        return False
    return name == "..." or name not in RESERVED_WORDS


# R: src/main/character.c do_makenames
def make_names(names: Sequence[str | None]) -> list[str]:
    """R's ``make.names()``: syntactic names ("a b" -> "a.b", "1x" -> "X1x", "if" -> "if.").

    >>> make_names(["a b", "1x", "if", None])
    ['a.b', 'X1x', 'if.', 'NA.']
    """
    out = []
    for name in names:
        text = "NA" if name is None else name
        fixed = "".join(ch if _name_char(ch) else "." for ch in text)
        if not fixed or not (fixed[0].isalpha() or (fixed[0] == "." and not fixed[1:2].isdigit())):
            fixed = "X" + fixed
        if fixed in RESERVED_WORDS or name is None:
            fixed += "."
        out.append(fixed)
    return out


# R: src/main/unique.c do_makeunique
def make_unique(names: Sequence[str], sep: str = ".") -> list[str]:
    """R's ``make.unique()``: later duplicates get ``.1``, ``.2``, ... skipping names already in use.

    >>> make_unique(["a", "a", "a.1", "a"])
    ['a', 'a.2', 'a.1', 'a.3']
    """
    taken = set(names)
    counts: dict[str, int] = {}
    first: set[str] = set()
    out = []
    for name in names:
        if name not in first:
            first.add(name)
            out.append(name)
            continue
        k = counts.get(name, 0)
        while True:
            k += 1
            candidate = f"{name}{sep}{k}"
            if candidate not in taken:
                break
        counts[name] = k
        taken.add(candidate)
        out.append(candidate)
    return out
