"""Typed parameters bound from strings: URI template values and prompt arguments arrive as text,
and are bound with the same rules as tool arguments once each is read as what its parameter takes.

A parameter whose schema does not take a string gets the JSON its text spells (``"3"`` -> 3,
``"true"`` -> True), or the decimal number it spells with leading zeros or a ``+`` (``"05"`` -> 5,
as both ``int("05")`` and R's ``as.integer("05")`` read it); anything else stays text, so the tool
rules give the error:

>>> def rows(n: int, label: str) -> None: ...
>>> StringBinder(rows).bind({"n": "3", "label": "3"})
{'n': 3, 'label': '3'}
>>> StringBinder(rows).bind({"n": "05", "label": "05"})
{'n': 5, 'label': '05'}
>>> StringBinder(rows).bind({"n": "three", "label": "x"})
Traceback (most recent call last):
...
mcplite.tools.failures.ArgumentError: argument 'n': expected an integer, got 'three' (str)
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Collection, Mapping
from typing import Any

from mcplite.tools.arguments import ArgumentBinder

_DECIMAL = re.compile(r"[+-]?[0-9]+(?P<fraction>\.[0-9]+)?(?P<exponent>[eE][+-]?[0-9]+)?")
"""A decimal number as R's ``as.numeric`` and Python's ``float`` both read it (no spaces, no hex)."""


def _takes_text(schema: dict[str, Any]) -> bool:
    if not schema:
        return True
    kinds = schema.get("type")
    if kinds == "string" or (isinstance(kinds, list) and "string" in kinds):
        return True
    if any(isinstance(item, str) for item in schema.get("enum", ())):
        return True
    return any(_takes_text(option) for option in schema.get("anyOf", ()))


class StringBinder:
    """The keyword arguments of a call from string values (raises ``ArgumentError``)."""

    def __init__(self, function: Callable[..., Any], *, skip: Collection[str] = ()) -> None:
        self.binder = ArgumentBinder(function, skip=skip)
        properties: dict[str, Any] = self.binder.schema.get("properties", {})
        self.parameters: tuple[str, ...] = tuple(properties)
        self.required: frozenset[str] = frozenset(self.binder.schema.get("required", ()))
        self.descriptions = {name: prop.get("description") for name, prop in properties.items()}
        self._parsed = frozenset(name for name, prop in properties.items() if not _takes_text(prop))

    def bind(self, values: Mapping[str, Any]) -> dict[str, Any]:
        arguments = {name: self._read(name, value) for name, value in values.items()}
        return self.binder.bind(arguments)

    def _read(self, name: str, value: Any) -> Any:
        if name not in self._parsed or not isinstance(value, str):
            return value
        try:
            return json.loads(value)
        except ValueError:
            pass
        number = _DECIMAL.fullmatch(value)
        if number is None:
            return value
        try:
            return float(value) if number["fraction"] or number["exponent"] else int(value)
        except ValueError:  # more digits than int() reads
            return value
