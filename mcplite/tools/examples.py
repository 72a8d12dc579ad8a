"""``Examples(...)``: the marker that gives a parameter's input schema its ``examples``.

``Annotated[str, Examples("body_mass_g")]`` lists ``"examples": ["body_mass_g"]`` in the tool's
input schema, so that a client (or a model) can fill a required argument from the schema alone.
Each example must be a JSON value the parameter accepts; the tool is refused at registration
otherwise.

>>> Examples("body_mass_g", "year").values
('body_mass_g', 'year')
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen(init=False)
class Examples:
    """Example values of a parameter, as JSON (at least one)."""

    values: tuple[Any, ...]

    def __init__(self, *values: Any) -> None:
        if not values:
            raise ValueError("Examples(...) takes at least one example value")
        self.__attrs_init__(values)  # type: ignore[attr-defined]

    def __repr__(self) -> str:
        return f"Examples({', '.join(repr(value) for value in self.values)})"
