"""The one error type rvalues raises for values R would refuse, and the short repr its messages use."""

from __future__ import annotations

import reprlib


class RValueError(ValueError):
    """A value or an argument that R (or jsonlite) would refuse.

    Bad input raises this, or ``TypeError`` where an argument is of the wrong type, and nothing
    else (no ``OverflowError``, ``RecursionError`` or numpy errors). The message names the offending
    value, cut to about 60 characters, and the rule it breaks:

    >>> from rvalues import Integer
    >>> Integer([1.5])
    Traceback (most recent call last):
    ...
    rvalues.errors.RValueError: Integer: element 0 (1.5) is not a whole number; ...
    """


SHOWN = 60
"""How many characters of an offending string an error message shows."""


_REPR = reprlib.Repr()
_REPR.maxlevel, _REPR.maxstring, _REPR.maxother, _REPR.maxlong = 3, SHOWN, SHOWN, SHOWN
_REPR.maxlist = _REPR.maxtuple = _REPR.maxdict = _REPR.maxset = 6


def shorten(value: object, limit: int = SHOWN) -> str:
    """A short ``repr(value)``, so a huge or deep bad value gives a short message.

    >>> shorten("x" * 1000, 10)
    "'xxxxxxxxxx'... (1000 characters)"
    """
    if isinstance(value, str):
        if len(value) > limit:
            return f"{value[:limit]!r}... ({len(value)} characters)"
        text = repr(value)
        if len(text) <= limit:  # what reprlib gives, without its dispatch
            return text
    try:
        text = _REPR.repr(value)
    except Exception:  # a broken __repr__ must not hide the real error
        return f"<{type(value).__name__}>"
    return text if len(text) <= 2 * limit else f"{text[: 2 * limit]}..."
