"""The one error type rvalues raises for values R would refuse."""

from __future__ import annotations


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
