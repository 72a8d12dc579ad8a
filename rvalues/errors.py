"""The one error type rvalues raises for values R would refuse."""

from __future__ import annotations


class RValueError(ValueError):
    """A value or an argument that R (or jsonlite) would refuse.

    The message names the offending value and the rule it breaks:

    >>> from rvalues import Integer
    >>> Integer([1.5])
    Traceback (most recent call last):
    ...
    rvalues.errors.RValueError: Integer: element 0 (1.5) is not a whole number; ...
    """
