"""The typed-tool mapping as a table for the docs: each declared type, how it is written, and its
schema under each ``json_na`` setting, all produced by :mod:`mcplite.tools.output_schema`.

>>> mapping_table().splitlines()[0]
'| declared type | written as | json_na unset | json_na="null" | json_na="string" |'
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import json
from typing import Annotated, Any, Literal

import pandas as pd

import rvalues as rv
from mcplite.tools.annotations import read
from mcplite.tools.markers import Rows
from mcplite.tools.output_schema import cell_schema, schema_of
from rvalues.json import JsonOptions


class Colour(enum.Enum):
    """An enum as the table shows one."""

    RED = "red"
    BLUE = "blue"


_FIELDS: list[tuple[str, Any, str]] = [
    ("`bool`", bool, "`unbox()`"),
    ("`int`", int, "`unbox()`"),
    ("`float`", float, "`unbox()`"),
    ("`str`", str, "`unbox()`"),
    ("`datetime.date`", datetime.date, "`unbox()` of a Date"),
    ("`datetime.datetime`", datetime.datetime, "`unbox()` of a POSIXct"),
    ('`Literal["a", "b"]`', Literal["a", "b"], "`unbox()`"),
    ("an `Enum` (values `red`, `blue`)", Colour, "`unbox()` of its value"),
    ("`None` (in `X \\| None`), json_null `null`", None, "`NULL`"),
    ("`rv.Logical`", rv.Logical, "`I()`"),
    ("`rv.Integer`", rv.Integer, "`I()`"),
    ("`rv.Double`", rv.Double, "`I()`"),
    ("`rv.Character`", rv.Character, "`I()`"),
    ("`rv.Factor`", rv.Factor, "`I()`"),
    ("`rv.Date`", rv.Date, "`I()`"),
    ("`rv.POSIXct`", rv.POSIXct, "`I()`"),
    ("`list[int]`", list[int], "a list of `unbox()`"),
    ("`dict[str, bool]`", dict[str, bool], "a named list"),
]
_CELLS: list[tuple[str, Any]] = [
    ("`bool`", bool),
    ("`int`", int),
    ("`float`", float),
    ("`str`", str),
    ("`datetime.date`", datetime.date),
    ("`datetime.datetime`", datetime.datetime),
    ('`Literal["a", "b"]`', Literal["a", "b"]),
]
_NA: list[str | None] = [None, "null", "string"]


def _shown(schema: Any) -> str:
    return "`" + json.dumps(_undescribed(schema), separators=(",", ":")).replace("|", "\\|") + "`"


def _undescribed(schema: Any) -> Any:
    """``schema`` without its ``description`` keys (a date-time's zone note, told once below the table)."""
    if isinstance(schema, dict):
        return {key: _undescribed(value) for key, value in schema.items() if key != "description"}
    if isinstance(schema, list):
        return [_undescribed(item) for item in schema]
    return schema


def mapping_table() -> str:
    """The markdown table of the mapping: one row per declared type (fields of a record, then the
    columns of a frame with declared rows), one column per ``json_na`` setting."""
    rows = [
        '| declared type | written as | json_na unset | json_na="null" | json_na="string" |',
        "|---|---|---|---|---|",
    ]
    for label, annotation, written in _FIELDS:
        cells = [_shown(schema_of(read(annotation), JsonOptions(na=na, null="null"))) for na in _NA]
        rows.append(f"| {label} | {written} | " + " | ".join(cells) + " |")
    cells = [_shown(schema_of(read(None), JsonOptions(na=na, null="list"))) for na in _NA]
    rows.append("| `None`, json_null `list` | `NULL` | " + " | ".join(cells) + " |")
    for label, annotation in _CELLS:
        cells = []
        for na in _NA:
            schema, required = cell_schema(read(annotation), JsonOptions(na=na))
            cells.append(_shown(schema) + ("" if required else " (absent when NA)"))
        rows.append(f"| frame column {label} | a data frame's rows | " + " | ".join(cells) + " |")

    @dataclasses.dataclass
    class Row:
        n: int

    frame = schema_of(read(Annotated[pd.DataFrame, Rows(Row)]), JsonOptions())
    rows.append(f"| `Annotated[pd.DataFrame, Rows(Row)]` (`n: int`) | rows | {_shown(frame)} | | |")
    return "\n".join(rows)
