"""Assemble a value from checked storage and attributes, choosing its Python class."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from rvalues.model.base import RValue
from rvalues.model.classes import python_class
from rvalues.model.lists import NULL


def build(r_type: str, data: Any, attributes: Mapping[str, RValue]) -> Any:
    """The R value of type ``r_type`` with this storage and these (already valid) attributes."""
    if r_type == "NULL":
        return NULL
    return python_class(r_type, attributes)._wrap(data, attributes)
