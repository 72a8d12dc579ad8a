"""Classed values R builds on the base types: factors, dates, date-times and data frames.

Each is its base type plus attributes; the Python class only adds conveniences. Giving any
value the attributes of one of these yields that class (``with_attributes``).
"""

from __future__ import annotations

from typing import Any

import attrs

from rvalues.format.timezones import tzone_of
from rvalues.model.bindings import BOUND
from rvalues.model.frames import automatic_row_names, expanded_row_names, row_count
from rvalues.model.lists import List
from rvalues.model.vectors import Character, Double, Integer


@attrs.define(frozen=True, init=False, eq=False, repr=False, slots=True)
class Factor(Integer):
    """An R factor: integer codes (1-based, NA as NA) with ``levels`` and class ``factor``.

    >>> Factor(["b", "a", None, "b"]).levels
    [1] "a" "b"
    """

    def __new__(cls, values: Any = (), levels: Any = None, ordered: bool = False) -> Any:
        return BOUND.factor(values, levels=levels, ordered=ordered)

    @property
    def levels(self) -> Character:
        """The ``levels`` attribute."""
        return self.attributes["levels"]  # type: ignore[return-value]

    @property
    def ordered(self) -> bool:
        """Whether the factor is ordered (class ``c("ordered", "factor")``)."""
        return "ordered" in self.r_class

    def labels(self) -> list[str | None]:
        """The level of each element (None for NA), as ``as.character(f)`` gives."""
        levels = self.levels.data.tolist()
        return [None if code is None else levels[code - 1] for code in Integer.tolist(self)]


@attrs.define(frozen=True, init=False, eq=False, repr=False, slots=True)
class Date(Double):
    """An R Date: days since 1970-01-01 as doubles, class ``Date``.

    >>> Date(["2020-01-02", None]).data.tolist()[0]
    18263.0
    """

    def __new__(cls, values: Any = ()) -> Any:
        return BOUND.as_date(values)


@attrs.define(frozen=True, init=False, eq=False, repr=False, slots=True)
class POSIXct(Double):
    """An R POSIXct: seconds since the epoch as doubles, class ``c("POSIXct", "POSIXt")``.

    The ``tzone`` attribute names the zone it displays in ("" or absent: the process zone).
    """

    def __new__(cls, values: Any = (), tz: str | None = None) -> Any:
        return BOUND.as_posixct(values, tz=tz)

    @property
    def tzone(self) -> str | None:
        """The ``tzone`` attribute's first element, or None where it is absent."""
        return tzone_of(self.attributes)


@attrs.define(frozen=True, init=False, eq=False, repr=False, slots=True)
class DataFrame(List):
    """An R data frame: a list of equal-length columns with ``names``, ``class`` and ``row.names``.

    >>> DataFrame(x=[1, 2], y=["a", "b"]).nrow
    2
    """

    def __new__(cls, **columns: Any) -> Any:
        return BOUND.data_frame(**columns)

    @property
    def nrow(self) -> int:
        """The number of rows."""
        row_names = self.attributes.get("row.names")
        return 0 if row_names is None else row_count(row_names)

    @property
    def ncol(self) -> int:
        """The number of columns."""
        return len(self.data)

    @property
    def row_names(self) -> Integer | Character:
        """The row names as R's ``attr(x, "row.names")`` shows them (compact forms expanded)."""
        row_names = self.attributes.get("row.names", automatic_row_names(0))
        return expanded_row_names(row_names)  # type: ignore[no-any-return]

    @property
    def columns(self) -> dict[str | None, Any]:
        """The columns by name (a later duplicate name shadows an earlier one)."""
        return dict(zip(self.keys(), self.data))

    def _repr_html_(self) -> str:
        return BOUND.format_html(self)  # type: ignore[no-any-return]
