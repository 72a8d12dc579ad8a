"""``Rows(Row)``: the marker that declares the rows of a data frame in an annotation.

``Annotated[pd.DataFrame, Rows(Row)]`` (or ``rv.DataFrame``) is a frame whose rows are ``Row``, a
dataclass, attrs class or TypedDict: one column per field, of the field's type. jsonlite writes
such a frame as an array of row objects, and a tool parameter so typed accepts one.

>>> import dataclasses
>>> @dataclasses.dataclass
... class Point:
...     x: float
>>> Rows(Point).row.__name__
'Point'
"""

from __future__ import annotations

from typing import Any

import attrs


@attrs.frozen
class Rows:
    """The rows of a frame: each a ``row`` (a dataclass, attrs class or TypedDict)."""

    row: Any

    def __repr__(self) -> str:
        return f"Rows({getattr(self.row, '__name__', self.row)})"
