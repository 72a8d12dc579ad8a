"""A tool's return value checked against its output schema: a typed tool's as the R value its
declared type says (or a misfit naming the path), any structured result against a hand-written schema.

Each scalar field becomes ``unbox(x)``, each vector field ``I(x)``, each frame with declared rows a
data frame with the declared column types (:mod:`mcplite.tools.frames`), so jsonlite writes exactly
what :func:`mcplite.tools.output_schema.output_schema` says. A value that does not fit raises
:class:`Misfit`:

>>> import dataclasses
>>> @dataclasses.dataclass
... class Mean:
...     group: str
...     mean: float
>>> from mcplite.payload.rjson import encode_json, options_in_force
>>> encode_json(typed_value(read(Mean), Mean("a", float("nan"))), options=options_in_force())
'{"group":"a","mean":"NaN"}'
>>> typed_value(read(list[Mean]), [Mean("a", 1.0), {"group": "b"}])
Traceback (most recent call last):
...
mcplite.tools.frames.Misfit: [1].mean is missing, expected a number

A hand-written output schema is checked with ``validate_output=True``: jsonschema (Draft 2020-12)
does the checking; the message names the path of the first misfit as
a typed tool's misfits do (``groups[3].mean``) and what the schema expected there.

>>> schema = {"type": "object", "properties": {"mean": {"type": "number"}}}
>>> output_misfit(schema, {"mean": "NaN"})
"mean is str ('NaN'), expected type 'number'"
>>> output_misfit(schema, {"mean": 1.5}) is None
True
"""

from __future__ import annotations

import contextlib
import datetime
import enum
import functools
import importlib
import importlib.util
from collections.abc import Iterator, Mapping
from contextvars import ContextVar
from typing import Any

import numpy as np

import rvalues as rv
from mcplite.payload.returned import to_r
from mcplite.protocol.checks import shown
from mcplite.tools.annotations import Shape, read, record_fields, type_name
from mcplite.tools.failures import log
from mcplite.tools.frames import (
    INT_MAX,
    MISSING,
    Misfit,
    OutOfRange,
    as_class,
    check_range,
    frame_value,
    join,
)
from mcplite.tools.markers import pandas_class
from mcplite.tools.output_schema import r_class_of


def typed_value(shape: Shape, value: Any, path: str = "") -> rv.RValue:
    """The R value ``value`` stands for as ``shape`` declares it (raises :class:`Misfit`)."""
    kind = shape.kind
    if kind == "any":
        return to_r(value, path or "value")
    if kind == "null":
        if value is not None:
            raise Misfit(path, value, "null (None)")
        return rv.NULL
    if kind == "union":
        return _union(shape, value, path)
    if kind in ("scalar", "literal", "enum"):
        return rv.unbox(_scalar(shape, value, path))
    if kind == "vector":
        return rv.I(_vector(shape, value, path))
    if kind == "array":
        series = pandas_class("Series")
        sequence = isinstance(value, (list, tuple, np.ndarray)) or (series and isinstance(value, series))
        if isinstance(value, (str, bytes, Mapping)) or not sequence:
            raise Misfit(path, value, shape.expected())
        item = read(shape.item)
        return rv.List([typed_value(item, element, join(path, i)) for i, element in enumerate(value)])
    if kind == "mapping":
        if not isinstance(value, Mapping):
            raise Misfit(path, value, shape.expected())
        item = read(shape.args[1]) if shape.args else read(Any)
        return rv.List.from_pairs(
            [(str(k), typed_value(item, v, join(path, str(k)))) for k, v in value.items()]
        )
    if kind in ("record", "typeddict"):
        return _record(shape, value, path)
    if kind == "frame":
        return frame_value(shape, value, path)
    raise Misfit(path, value, shape.expected())


def misfit_message(tool: str, shape: Shape, misfit: Misfit) -> str:
    """What the client is told of a typed tool's value that does not fit its return type; the server's
    log gets it too (WARNING), since the tool's author reads the log, not the client's screen.

    >>> import dataclasses
    >>> @dataclasses.dataclass
    ... class Mean:
    ...     mean: float
    >>> print(misfit_message("means", read(list[Mean]), Misfit("[0].mean", "high", "a number")))
    Tool means returned a value that does not fit its return type list[Mean]: [0].mean is str ('high'), ...
    """
    declared = type_name(shape.annotation)
    if shape.kind == "frame":
        declared = f"{declared} of {type_name(shape.item)} rows"
    message = f"Tool {tool} returned a value that does not fit its return type {declared}: {misfit}"
    if not _unlogged.get():
        log.warning("%s", message)
    return message


_unlogged: ContextVar[bool] = ContextVar("mcplite_misfits_unlogged", default=False)


@contextlib.contextmanager
def misfits_unlogged() -> Iterator[None]:
    """Within the block, :func:`misfit_message` does not log: for results built only to measure
    samples of a value (the value's own result is built, and logged, after)."""
    token = _unlogged.set(True)
    try:
        yield
    finally:
        _unlogged.reset(token)


def _union(shape: Shape, value: Any, path: str) -> rv.RValue:
    arms = [read(arg) for arg in shape.args]
    if value is None and any(arm.kind == "null" for arm in arms):
        return rv.NULL
    deepest: Misfit | None = None
    for arm in arms:
        if arm.kind == "null":
            continue
        try:
            return typed_value(arm, value, path)
        except OutOfRange as misfit:  # no other arm takes it either: say why this one did not
            deepest = misfit
        except Misfit as misfit:
            if isinstance(deepest, OutOfRange):
                continue
            if misfit.path != path and (deepest is None or len(misfit.path) > len(deepest.path)):
                deepest = misfit
    raise deepest or Misfit(path, value, shape.expected())


def _record(shape: Shape, value: Any, path: str) -> rv.RValue:
    cls = shape.annotation
    fields = record_fields(cls)
    if isinstance(value, Mapping):
        extra = [key for key in value if key not in {name for name, _, _ in fields}]
        if extra:
            raise Misfit(
                join(path, str(extra[0])), value[extra[0]], f"no field {extra[0]!r} ({cls.__name__} has none)"
            )
        get: Any = value.get
    elif shape.kind == "record" and isinstance(value, cls):
        get = functools.partial(getattr, value)
    else:
        raise Misfit(path, value, shape.expected())
    pairs = []
    for name, annotation, required in fields:
        item = get(name, MISSING)
        if item is MISSING:
            if required or shape.kind == "record":
                raise Misfit(join(path, name), MISSING, read(annotation).expected())
            continue
        pairs.append((name, typed_value(read(annotation), item, join(path, name))))
    return rv.List.from_pairs(pairs)


def _scalar(shape: Shape, value: Any, path: str) -> rv.RValue:
    """A length-1 vector of the declared class (``Literal`` and enum values checked)."""
    r_class, levels = r_class_of(shape)
    if levels is not None:
        plain = value.value if isinstance(value, enum.Enum) else value
        if not any(type(plain) is type(level) and plain == level for level in levels):
            raise Misfit(path, value, shape.expected())
        value = plain
        r_class = "character" if r_class == "factor" else r_class
    x = _python_scalar(r_class, value) if not isinstance(value, rv.RValue) else value
    if x is None or not isinstance(x, rv.Vector) or len(x) != 1:
        raise Misfit(path, value, shape.expected())
    fitted = as_class(x, r_class)
    if fitted is None:
        raise Misfit(path, value, shape.expected())
    if r_class == "double":
        check_range(fitted, lambda _: path)
    return fitted


def _python_scalar(r_class: str, value: Any) -> rv.RValue | None:
    """The length-1 vector of a Python or numpy scalar that fits ``r_class``, else None."""
    if isinstance(value, (bool, np.bool_)):
        return rv.Logical([bool(value)]) if r_class == "logical" else None
    if isinstance(value, (int, np.integer)):
        if r_class == "integer" and abs(int(value)) <= INT_MAX:
            return rv.Integer([int(value)])
        return rv.Double([float(value)]) if r_class == "double" else None
    if isinstance(value, (float, np.floating)):
        return rv.Double([float(value)]) if r_class == "double" else None
    if isinstance(value, str):
        return rv.Character([value]) if r_class == "character" else None
    if isinstance(value, datetime.datetime):  # pd.Timestamp too
        return rv.as_r(value) if r_class == "POSIXct" else None
    if isinstance(value, datetime.date):
        return rv.as_r(value) if r_class == "Date" else None
    return None


def _vector(shape: Shape, value: Any, path: str) -> rv.RValue:
    r_class, _ = r_class_of(shape)
    try:
        x = value if isinstance(value, rv.RValue) else rv.as_r(value)
    except (rv.RValueError, TypeError, ValueError):
        raise Misfit(path, value, f"a vector ({shape.annotation.__name__})") from None
    fitted = as_class(x, r_class) if isinstance(x, rv.Vector) and "dim" not in x.attributes else None
    if fitted is None:
        raise Misfit(path, value, f"a vector ({shape.annotation.__name__})")
    if r_class == "double":
        check_range(fitted, lambda row: join(path, row))
    return fitted


def can_validate() -> bool:
    """Whether jsonschema (an optional dependency: only ``validate_output=True`` needs it) is there."""
    return importlib.util.find_spec("jsonschema") is not None


def _jsonschema() -> Any:
    """jsonschema, imported at the first check, not with mcplite: with its format checkers installed
    it takes a second or more to import, which every server would pay at start-up."""
    try:
        return importlib.import_module("jsonschema")
    except ImportError:
        raise RuntimeError("validate_output=True needs jsonschema (pip install jsonschema)") from None


def output_misfit(schema: dict[str, Any], value: Any) -> str | None:
    """Where and how ``value`` does not fit ``schema``, or None when it fits."""
    jsonschema = _jsonschema()
    validator = jsonschema.Draft202012Validator(schema)
    error = jsonschema.exceptions.best_match(validator.iter_errors(value))
    if error is None:
        return None
    path = ""
    for step in error.absolute_path:
        path = join(path, step)
    if error.validator in ("type", "enum", "const", "pattern"):
        expected = f"{error.validator} {error.validator_value!r}"
    else:
        expected = f"the schema's {error.validator!r} ({error.message})"
    return f"{path or 'the value'} is {shown(error.instance)}, expected {expected}"
