"""``completion/complete``: the values that complete what the user is typing for an argument of a
prompt or a parameter of a resource template.

A ``complete=`` callable of the prompt or template (one per argument, given what is typed so far)
answers first; else the server's ``@server.completion`` function (given the request's ``ref``,
the argument's name and what is typed so far); else there are no values. At most 100 values are
sent, with ``total`` and ``hasMore`` saying how many there were:

>>> completion_wire(["adelie", "chinstrap"])
{'values': ['adelie', 'chinstrap'], 'total': 2, 'hasMore': False}
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import Any

from mcplite.protocol.checks import shown

MAX_VALUES = 100
"""The most values one completion result carries (the protocol's limit)."""

ServerCompletion = Callable[[dict[str, Any], str, str], Iterable[str]]
"""``complete(ref, argument, value)``: the server-wide completion function."""


def as_values(found: Any, owner: str) -> list[str]:
    """The values a completion function returned, checked to be strings."""
    if found is None:
        return []
    if isinstance(found, str) or not isinstance(found, Iterable):
        raise TypeError(f"{owner} must return a list of str, not {shown(found)}")
    values = list(found)
    wrong = next((value for value in values if not isinstance(value, str)), None)
    if wrong is not None:
        raise TypeError(f"{owner} must return a list of str; it returned {shown(wrong)} among them")
    return values


def completion_wire(values: list[str]) -> dict[str, Any]:
    """The ``completion`` object of a result: the first 100 values, ``total`` and ``hasMore``."""
    return {"values": values[:MAX_VALUES], "total": len(values), "hasMore": len(values) > MAX_VALUES}
