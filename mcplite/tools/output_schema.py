"""Output schemas derived from a return annotation: exactly what jsonlite writes for each declared type.

A typed tool's value is written field by field as its declared type says: a scalar field as
jsonlite's ``unbox(x)``, a vector field (``rv.Double``, ...) as ``I(x)``, a frame with declared rows
as an array of row objects. The schema depends on the payload options (``json_na``, ``json_null``),
never on a vector's length or ``json_auto_unbox``:

>>> import dataclasses
>>> @dataclasses.dataclass
... class Mean:
...     group: str
...     mean: float
>>> output_schema(Mean)["properties"]["mean"]
{'anyOf': [{'type': 'number'}, {'enum': ['NA', 'NaN', 'Inf', '-Inf']}]}
>>> from mcplite.payload.options import options
>>> with options(json_na="null"):
...     output_schema(Mean)["properties"]["mean"]
{'type': ['number', 'null']}

:func:`object_schema` is the closed object schema input schemas share with them.
"""

from __future__ import annotations

import datetime
from typing import Any

import rvalues as rv
from mcplite.payload.rjson import options_in_force
from mcplite.tools.annotations import Shape, read, record_fields, type_name
from rvalues.json import JsonOptions

_YEAR = "(0|-?[1-9][0-9]*)"
_DAY = "(0[1-9]|1[0-2])-(0[1-9]|[12][0-9]|3[01])"
_TIME = "([01][0-9]|2[0-3]):[0-5][0-9]:[0-5][0-9]"
DATE_PATTERN = f"^{_YEAR}-{_DAY}$"
"""A Date as jsonlite writes it (``format(x)``): ``2024-05-01``; R writes the year as a number,
unpadded and signed: ``999-12-31``, ``1-01-01``, ``0-01-01``, ``-1-11-28``, ``10000-01-01``."""
DATETIME_PATTERN = f"^{_YEAR}-{_DAY}( {_TIME})?$"
"""A POSIXct as jsonlite writes it (``format(x)`` in its time zone, whole seconds; the time is left
out when every value of the vector is at midnight): ``2024-05-01 12:00:00``, ``999-01-01 00:30:00``."""

R_CLASSES: dict[Any, str] = {
    bool: "logical",
    int: "integer",
    float: "double",
    str: "character",
    datetime.date: "Date",
    datetime.datetime: "POSIXct",
    rv.Logical: "logical",
    rv.Integer: "integer",
    rv.Double: "double",
    rv.Character: "character",
    rv.Factor: "factor",
    rv.Date: "Date",
    rv.POSIXct: "POSIXct",
}
"""The R class each scalar annotation and R vector class is written as."""

_VALUES: dict[str, dict[str, Any]] = {
    "logical": {"type": "boolean"},
    "integer": {"type": "integer"},
    "double": {"type": "number"},
    "character": {"type": "string"},
    "factor": {"type": "string"},
    "Date": {"type": "string", "pattern": DATE_PATTERN},
    "POSIXct": {"type": "string", "pattern": DATETIME_PATTERN},
}
_NOT_FINITE = ["NA", "NaN", "Inf", "-Inf"]

ZONE_NOTES = {
    False: (
        "A date-time: the clock time in the value's own time zone (its tzone, else the server's "
        "local zone; a naive pandas or Python date-time is UTC, a DuckDB one is in its session's "
        "zone), with no offset"
    ),
    True: "A date-time: the clock time in UTC, with no offset",
}
"""What a date-time field's schema says of its zone, by ``utc`` (jsonlite's ``UTC``): the text
carries no offset, so only the schema can say it."""


EPOCH_NOTE = "A date-time: milliseconds since 1970-01-01 00:00:00 UTC"
"""What a date-time field's schema says under ``posixt="epoch"`` (jsonlite's ``POSIXt``)."""


def zone_note(options: JsonOptions) -> str:
    """The description of a date-time field's zone under ``options`` (a tool's ``to_json``
    arguments included: ``posixt``, ``utc``, ``time_format``).

    >>> zone_note(JsonOptions(utc=True))
    'A date-time: the clock time in UTC, with no offset'
    >>> zone_note(JsonOptions(posixt="ISO8601", utc=True))
    'A date-time: the clock time in UTC, marked Z'
    """
    if options.posixt == "epoch":
        return EPOCH_NOTE
    if options.time_format is not None:
        zone = "in UTC" if options.utc else "in the value's own time zone"
        return f"A date-time written with R's format {options.time_format!r}, {zone}"
    if options.posixt == "ISO8601" and options.utc:
        return "A date-time: the clock time in UTC, marked Z"
    return ZONE_NOTES[bool(options.utc)]


def written_class(r_class: str, options: JsonOptions) -> str:
    """The class jsonlite writes a value of ``r_class`` as under ``options``: a Date or date-time as
    a number under ``date``/``posixt="epoch"``, a factor as its codes under ``factor="integer"``.

    >>> written_class("Date", JsonOptions(date="epoch")), written_class("factor", JsonOptions())
    ('double', 'factor')
    """
    if (r_class == "Date" and options.date == "epoch") or (
        r_class == "POSIXct" and options.posixt == "epoch"
    ):
        return "double"
    if r_class == "factor" and options.factor == "integer":
        return "integer"
    return r_class


def _datetime_schema(options: JsonOptions) -> dict[str, Any]:
    """A date-time's string as ``posixt``, ``utc``, ``time_format`` and ``digits_secs`` write it."""
    if options.time_format is not None:
        return {"type": "string"}  # any strftime format: no pattern can say it
    seconds = "(\\.[0-9]+)?" if options.digits_secs else ""
    if options.posixt == "ISO8601":
        zone = "Z" if options.utc else ""
        return {"type": "string", "pattern": f"^{_YEAR}-{_DAY}T{_TIME}{seconds}{zone}$"}
    if not seconds:
        return dict(_VALUES["POSIXct"])
    return {"type": "string", "pattern": f"^{_YEAR}-{_DAY}( {_TIME}{seconds})?$"}


def _noted(schema: dict[str, Any], r_class: str, options: JsonOptions) -> dict[str, Any]:
    """``schema`` with the zone note when ``r_class`` is a date-time."""
    return {**schema, "description": zone_note(options)} if r_class == "POSIXct" else schema


class NoOutputSchema(TypeError):
    """A return annotation (or a part of it) has no output schema."""


def output_schema(annotation: Any) -> dict[str, Any]:
    """The JSON Schema of what a typed tool returning ``annotation`` writes, under the payload
    options in force here (:func:`schema_of` takes them as an argument).

    >>> output_schema(list[int]) == {"type": "array", "items": output_schema(int)}
    True
    """
    return schema_of(read(annotation), options_in_force())


WRAP_KEY = "result"
"""The one property a wrapped result's structured content has (``wrap_rows``), as FastMCP and the
official SDK name it."""


OBJECT_KINDS = frozenset({"record", "typeddict", "mapping"})
"""The shapes whose output schema is an object: every protocol version carries their structured
content, so ``wrap_rows`` leaves them as they are."""


def wrapped_schema(schema: dict[str, Any]) -> dict[str, Any]:
    """The schema of ``{"result": value}`` for a value of ``schema`` that is not an object (clients
    before 2026-07-28 take objects only as structured content); an object's schema as it is (a
    union's ``anyOf`` is wrapped whatever its arms).

    >>> wrapped_schema({"type": "array"})
    {'type': 'object', 'properties': {'result': {'type': 'array'}}, 'required': ['result']}
    >>> wrapped_schema({"type": "object"})
    {'type': 'object'}
    """
    if schema.get("type") == "object":
        return schema
    return {"type": "object", "properties": {WRAP_KEY: schema}, "required": [WRAP_KEY]}


def wrapped_text(text: str) -> str:
    """The JSON text of ``{"result": value}`` from the value's JSON text (written once, not re-read).

    >>> wrapped_text('[{"n":1}]')
    '{"result":[{"n":1}]}'
    """
    return f'{{"{WRAP_KEY}":{text}}}'


def na_forms(r_class: str, na: str | None) -> list[Any]:
    """What jsonlite writes for NA (and NaN, Inf, -Inf for doubles) of ``r_class`` under ``na=``.

    >>> na_forms("double", None), na_forms("logical", None), na_forms("integer", "null")
    (['NA', 'NaN', 'Inf', '-Inf'], [None], [None])
    """
    if na == "null":
        return [None]
    if r_class == "double":
        return list(_NOT_FINITE)
    if na == "string" or r_class == "integer":
        return ["NA"]
    return [None]


def r_class_of(shape: Shape) -> tuple[str, list[Any] | None]:
    """The R class a scalar, ``Literal``, enum or vector shape is written as, and its levels (the
    allowed values of a ``Literal`` or an enum, written as a factor in a frame)."""
    if shape.kind in ("scalar", "vector"):
        cls = next(c for c in R_CLASSES if shape.annotation is c) if shape.kind == "scalar" else None
        if cls is None:
            cls = next(c for c in reversed(list(R_CLASSES)) if issubclass(shape.annotation, c))
        return R_CLASSES[cls], None
    if shape.kind in ("literal", "enum"):
        values = shape.values
        kinds = {type(value) for value in values}
        if kinds == {str}:
            return "factor", values
        if kinds <= {int} or kinds == {bool}:
            return ("logical" if kinds == {bool} else "integer"), values
        if kinds <= {int, float}:
            return "double", values
    raise NoOutputSchema(f"{type_name(shape.annotation)} has no output schema")


def value_schema(
    r_class: str, levels: list[Any] | None = None, options: JsonOptions | None = None
) -> dict[str, Any]:
    """The schema of one non-NA value of ``r_class`` (``levels``: the only values allowed) as
    jsonlite writes it under ``options`` (jsonlite's defaults when None).

    >>> value_schema("factor", ["a", "b"], JsonOptions(factor="integer"))
    {'enum': [1, 2]}
    """
    written = r_class if options is None else written_class(r_class, options)
    if levels is not None:
        return {"enum": list(range(1, len(levels) + 1)) if written != r_class else list(levels)}
    if r_class == "POSIXct" and written == r_class and options is not None:
        return _datetime_schema(options)
    return dict(_VALUES[written])


def with_forms(schema: dict[str, Any], forms: list[Any]) -> dict[str, Any]:
    """``schema``, or one of the JSON values ``forms`` (NA as jsonlite writes it)."""
    if not forms:
        return schema
    if "enum" in schema:
        return {"enum": [*schema["enum"], *(f for f in forms if f not in schema["enum"])]}
    if forms == [None] and set(schema) == {"type"}:
        return {"type": [schema["type"], "null"]}
    if schema == {"type": "string"} and all(isinstance(f, str) for f in forms):
        return schema
    return {"anyOf": [schema, {"enum": forms}]}


def null_schema(options: JsonOptions) -> dict[str, Any]:
    """What jsonlite writes for NULL (a ``None`` field): ``null``, or ``{}`` under ``null="list"``."""
    return {"type": "null"} if options.null == "null" else {"type": "object", "maxProperties": 0}


def cell_schema(shape: Shape, options: JsonOptions) -> tuple[dict[str, Any], bool]:
    """The schema of one field of a frame's row, and whether the field is always there (an NA field
    is left out by default, ``null`` under ``na="null"``, ``"NA"`` under ``na="string"``)."""
    arms = [read(arg) for arg in shape.args] if shape.kind == "union" else [shape]
    arms = [arm for arm in arms if arm.kind != "null"]
    if len(arms) != 1:
        raise NoOutputSchema(
            "a frame's column must be one scalar type, a Literal or an Enum, "
            f"not {type_name(shape.annotation)}"
        )
    r_class, levels = r_class_of(arms[0]) if arms[0].kind != "vector" else ("", None)
    if not r_class:
        raise NoOutputSchema(f"a frame's column holds scalars, not {type_name(arms[0].annotation)}")
    schema = value_schema(r_class, levels, options)
    if options.na is None:
        return _noted(schema, r_class, options), False
    forms = na_forms(written_class(r_class, options), options.na)
    return _noted(with_forms(schema, forms), r_class, options), True


def schema_of(shape: Shape, options: JsonOptions, within: tuple[Any, ...] = ()) -> dict[str, Any]:
    """The output schema of one shape under ``options`` (``within``: the records around it), with the
    description an ``Annotated`` str gives it."""
    schema = _schema_of(shape, options, within)
    if shape.note is None:
        return schema
    zone = schema.get("description")  # a date-time's zone: kept after the field's own description
    return {**schema, "description": shape.note if zone is None else f"{shape.note}. {zone}"}


def _schema_of(shape: Shape, options: JsonOptions, within: tuple[Any, ...]) -> dict[str, Any]:
    kind = shape.kind
    if kind in ("record", "typeddict"):
        if shape.annotation in within:
            raise NoOutputSchema(f"{type_name(shape.annotation)} contains itself; an inlined schema cannot")
        within = (*within, shape.annotation)
    if kind == "any":
        return {}
    if kind == "null":
        return null_schema(options)
    if kind in ("scalar", "vector"):
        r_class, _ = r_class_of(shape)
        forms = na_forms(written_class(r_class, options), options.na)
        item = _noted(with_forms(value_schema(r_class, None, options), forms), r_class, options)
        return {"type": "array", "items": item} if kind == "vector" else item
    if kind in ("literal", "enum"):
        r_class_of(shape)  # refuses values of mixed types
        return {"enum": shape.values}
    if kind == "union":
        return {"anyOf": [schema_of(read(arg), options, within) for arg in shape.args]}
    if kind == "array":
        return {"type": "array", "items": schema_of(read(shape.item), options, within)}
    if kind == "mapping":
        if shape.args and read(shape.args[0]).annotation is not str:
            raise NoOutputSchema(
                f"{type_name(shape.annotation)} has no output schema: JSON names are strings"
            )
        items = schema_of(read(shape.args[1]), options, within) if shape.args else {}
        return {"type": "object", "additionalProperties": items}
    if kind in ("record", "typeddict"):
        fields = record_fields(shape.annotation)
        properties = {name: schema_of(read(annotation), options, within) for name, annotation, _ in fields}
        required = [name for name, _, is_required in fields if is_required or kind == "record"]
        return object_schema(properties, required)
    if kind == "frame":
        cells = {
            name: cell_schema(read(annotation), options) for name, annotation, _ in record_fields(shape.item)
        }
        row = object_schema(
            {name: cell for name, (cell, _) in cells.items()}, [n for n, (_, r) in cells.items() if r]
        )
        return {"type": "array", "items": row}
    raise NoOutputSchema(f"{type_name(shape.annotation)} has no output schema")


def object_schema(properties: dict[str, Any], required: list[str]) -> dict[str, Any]:
    """A closed object schema: these properties, the ``required`` ones (if any), no others.

    >>> object_schema({"n": {"type": "integer"}}, ["n"])["required"]
    ['n']
    """
    schema: dict[str, Any] = {"type": "object", "properties": properties}
    if required:
        schema["required"] = required
    schema["additionalProperties"] = False
    return schema
