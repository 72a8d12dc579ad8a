"""The one reader of type annotations: what a parameter's annotation asks of a JSON value.

:func:`read` turns an annotation into a :class:`Shape` once; the input schema
(:mod:`mcplite.tools.schema`) and argument structuring (:mod:`mcplite.tools.arguments`) both work
from shapes, so they cannot disagree about what an annotation means. A shape knows its ``kind``,
the annotation without ``Annotated``/``Required`` wrappers, the description found in ``Annotated``,
the JSON types it takes (:meth:`Shape.json_types`) and how messages say what it expects
(:meth:`Shape.expected`).

>>> shape = read(Annotated[list[int], "row numbers"])
>>> shape.kind, shape.item, shape.note
('array', <class 'int'>, 'row numbers')
>>> read(int | None).expected(), sorted(read(float).json_types()[0])
('an integer or null', ['number'])
"""

from __future__ import annotations

import collections.abc
import dataclasses
import datetime
import enum
import inspect
import sys
import types
import typing
from collections.abc import Callable
from typing import Annotated, Any, Literal, NotRequired, Required, TypeVar, Union

import attrs

import rvalues as rv
from mcplite.tools.markers import Examples, Rows, is_frame_class

Kind = Literal[
    "any", "null", "scalar", "literal", "enum", "union", "array", "set", "tuple", "mapping", "typeddict",
    "record", "frame", "vector", "other",
]  # fmt: skip
"""What an annotation is, as JSON sees it (``other``: it has no JSON form; ``frame``: a data frame
with declared rows, its row class in ``args``; ``vector``: an R vector class such as ``rv.Double``)."""

REQUIREDNESS: tuple[Any, ...] = (Required, NotRequired)
ARRAY_TYPES: frozenset[Any] = frozenset({list, collections.abc.Sequence, collections.abc.MutableSequence})
SET_TYPES: frozenset[Any] = frozenset({set, frozenset, collections.abc.Set, collections.abc.MutableSet})
MAPPING_TYPES: frozenset[Any] = frozenset({dict, collections.abc.Mapping, collections.abc.MutableMapping})
SCALAR_TYPES: tuple[type, ...] = (str, int, float, bool, datetime.date, datetime.datetime)
"""The scalar annotations, each one JSON type (dates are strings)."""

VECTOR_TYPES: tuple[type, ...] = (
    rv.Logical, rv.Integer, rv.Double, rv.Character, rv.Factor, rv.Date, rv.POSIXct,
)  # fmt: skip
"""The R vector classes a field may be declared as (written as ``I(x)``: always an array)."""

M = TypeVar("M", Rows, Examples)

_LAZY_HINT = {"LazyFrame": " (declare pl.DataFrame and return lazy_frame.collect())"}

JSON_TYPES = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})

_SCALAR_JSON_TYPES: dict[Any, str] = {
    str: "string",
    int: "integer",
    float: "number",
    bool: "boolean",
    datetime.date: "string",
    datetime.datetime: "string",
}
_LOOSE = {"integer": "number", "number": "integer"}
"""JSON Schema takes 5.0 as an integer and 5 as a number."""

EXPECTED: dict[Any, str] = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
    datetime.date: "a date such as '2024-05-01'",
    datetime.datetime: "a date-time such as '2024-05-01T12:00:00Z'",
}


def json_type(value: Any) -> str:
    """A value's JSON type: null, boolean, integer, number, string, array, object (or other).

    >>> json_type(True), json_type(2), json_type([])
    ('boolean', 'integer', 'array')
    """
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "boolean"
    if isinstance(value, int):
        return "integer"
    if isinstance(value, float):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, list):
        return "array"
    return "object" if isinstance(value, dict) else "other"


def json_value(literal: Any) -> Any:
    """The JSON value of a ``Literal`` choice or an enum member (its ``value``)."""
    return literal.value if isinstance(literal, enum.Enum) else literal


@attrs.frozen
class Shape:
    """One annotation as read by :func:`read`.

    ``annotation`` is the annotation without ``Annotated``, ``Required`` and ``NotRequired``;
    ``args`` its type arguments; ``note`` the first str among the ``Annotated`` extras;
    ``examples`` the values of an ``Examples(...)`` among them.
    """

    kind: Kind
    annotation: Any
    args: tuple[Any, ...]
    note: str | None = None
    examples: tuple[Any, ...] = ()

    @property
    def item(self) -> Any:
        """The item annotation of an array or a set (``Any`` when bare)."""
        return self.args[0] if self.args else Any

    @property
    def values(self) -> list[Any]:
        """The JSON values of a ``Literal`` or an enum."""
        if self.kind == "enum":
            return [member.value for member in self.annotation]
        return [json_value(arg) for arg in self.args]

    @property
    def variadic(self) -> bool:
        """A tuple of any length: bare ``tuple`` or ``tuple[T, ...]``."""
        return self.annotation is tuple or (len(self.args) == 2 and self.args[1] is Ellipsis)

    def json_types(self) -> tuple[frozenset[str], frozenset[str]]:
        """The JSON types taken as they are, and those also taken (5.0 for int, 5 for float)."""
        if self.kind == "any":
            return JSON_TYPES, frozenset()
        if self.kind == "union":
            pairs = [read(arg).json_types() for arg in self.args]
            exact = frozenset().union(*(pair[0] for pair in pairs))
            return exact, frozenset().union(*(pair[1] for pair in pairs)) - exact
        if self.kind in ("literal", "enum"):
            exact = frozenset(json_type(value) for value in self.values)
            return exact, frozenset(_LOOSE[kind] for kind in exact if kind in _LOOSE) - exact
        if self.kind == "null":
            return frozenset({"null"}), frozenset()
        if self.kind == "scalar":
            exact_type = _SCALAR_JSON_TYPES[self.annotation]
            return frozenset({exact_type}), frozenset({_LOOSE[exact_type]} if exact_type in _LOOSE else ())
        if self.kind in ("mapping", "typeddict", "record"):
            return frozenset({"object"}), frozenset()
        return frozenset({"array"}), frozenset()  # arrays, sets, tuples, frames (rows), vectors

    def expected(self) -> str:
        """What the annotation expects, as error messages say it: "an integer", "one of 'a', 'b'"."""
        if self.kind == "any":
            return "any value"
        if self.kind == "union":
            return either([read(arg).expected() for arg in self.args])
        if self.kind in ("literal", "enum"):
            values = self.values
            return repr(values[0]) if len(values) == 1 else f"one of {', '.join(repr(v) for v in values)}"
        if self.kind == "null":
            return "null"
        if self.kind == "scalar":
            return EXPECTED[self.annotation]
        if self.kind in ("typeddict", "record"):
            return f"an object ({self.annotation.__name__})"
        if self.kind == "mapping":
            return "an object"
        if self.kind == "tuple" and self.args and not self.variadic:
            return f"an array of {len(self.args)} item{'s' if len(self.args) > 1 else ''}"
        if self.kind == "set":
            return "an array of unique items"
        if self.kind == "frame":
            return f"an array of rows ({self.item.__name__})"
        return "an array"


def either(choices: list[str]) -> str:
    """``a, b or c`` (each choice once)."""
    choices = list(dict.fromkeys(choices))
    return choices[0] if len(choices) == 1 else f"{', '.join(choices[:-1])} or {choices[-1]}"


def read(annotation: Any) -> Shape:
    """What ``annotation`` asks of a JSON value.

    >>> read(dict[str, float]).kind, read(Literal["a", "b"]).values, read(bytes).kind
    ('mapping', ['a', 'b'], 'other')
    """
    bare, note = unwrap(annotation)
    rows = marker(annotation, Rows)
    examples = marker(annotation, Examples)
    shown = examples.values if examples is not None else ()
    if rows is not None:
        frames = typing.get_args(bare) if typing.get_origin(bare) in (Union, types.UnionType) else (bare,)
        if not frames or not all(is_frame_class(frame) for frame in frames):
            raise TypeError(
                f"Rows({type_name(rows.row)}) declares the rows of rv.DataFrame, pd.DataFrame, "
                f"pl.DataFrame, pa.Table or duckdb.DuckDBPyRelation, not of {type_name(bare)}"
                + _LAZY_HINT.get(type_name(bare), "")
            )
        if not (is_record_class(rows.row) or is_typeddict(rows.row)):
            raise TypeError(
                f"Rows(...) takes a dataclass, attrs class or TypedDict, not {type_name(rows.row)}"
            )
        return Shape("frame", bare, (rows.row,), note, shown)
    origin, args = typing.get_origin(bare), typing.get_args(bare)
    return Shape(_kind(bare, origin), bare, args, note, shown)


def marker(annotation: Any, cls: type[M]) -> M | None:
    """The first ``cls`` marker (``Rows``, ``Examples``) among an annotation's ``Annotated`` extras.

    >>> marker(Annotated[int, "rows", Examples(3)], Examples)
    Examples(3)
    """
    while typing.get_origin(annotation) in (Annotated, *REQUIREDNESS):
        if typing.get_origin(annotation) is Annotated:
            found = next((extra for extra in annotation.__metadata__ if isinstance(extra, cls)), None)
            if found is not None:
                return found
        annotation = typing.get_args(annotation)[0]
    return None


def holds_frame(annotation: Any, seen: frozenset[Any] = frozenset()) -> bool:
    """Whether a value of ``annotation`` can hold a data frame with declared rows, at any depth
    (reading one costs what its rows cost: it is read off the event loop).

    >>> holds_frame(int), holds_frame(list[dict[str, float]])
    (False, False)
    """
    shape = read(annotation)
    if shape.kind == "frame":
        return True
    if shape.kind in ("record", "typeddict"):
        inner = seen | {shape.annotation}
        return shape.annotation not in seen and any(
            holds_frame(field, inner) for _, field, _ in record_fields(shape.annotation)
        )
    if shape.kind in ("union", "array", "set", "tuple", "mapping"):
        return any(holds_frame(arg, seen) for arg in shape.args if arg is not Ellipsis)
    return False


def record_fields(cls: Any) -> list[tuple[str, Any, bool]]:
    """The fields of a dataclass, attrs class or TypedDict: (name, annotation, required).

    >>> class Pair(typing.TypedDict):
    ...     a: int
    >>> record_fields(Pair)
    [('a', <class 'int'>, True)]
    """
    if is_typeddict(cls):
        hints = typing.get_type_hints(cls, include_extras=True)
        return [(key, hint, key in cls.__required_keys__) for key, hint in hints.items()]
    return [(name, annotation, required) for name, annotation, required, _ in class_fields(cls)]


def _kind(bare: Any, origin: Any) -> Kind:
    if origin is Literal:  # first: a Literal of unhashable values cannot be looked up below
        return "literal"
    if bare is Any:
        return "any"
    if bare is None or bare is type(None):
        return "null"
    if bare in SCALAR_TYPES:
        return "scalar"
    if origin in (Union, types.UnionType):
        return "union"
    if isinstance(bare, type) and issubclass(bare, enum.Enum):
        return "enum"
    if bare in ARRAY_TYPES or origin in ARRAY_TYPES:
        return "array"
    if bare in SET_TYPES or origin in SET_TYPES:
        return "set"
    if bare is tuple or origin is tuple:
        return "tuple"
    if bare in MAPPING_TYPES or origin in MAPPING_TYPES:
        return "mapping"
    if is_typeddict(bare):
        return "typeddict"
    if isinstance(bare, type) and issubclass(bare, VECTOR_TYPES):  # before records: vectors are attrs classes
        return "vector"
    if is_record_class(bare):
        return "record"
    return "other"


def unwrap(annotation: Any) -> tuple[Any, str | None]:
    """An annotation without ``Annotated``, ``Required`` and ``NotRequired``, and its description (the first
    str among the ``Annotated`` extras).

    >>> unwrap(Annotated[int, "how many rows"])
    (<class 'int'>, 'how many rows')
    """
    note: str | None = None
    while True:
        origin = typing.get_origin(annotation)
        if origin is Annotated:
            if note is None:
                note = next((extra for extra in annotation.__metadata__ if isinstance(extra, str)), None)
            annotation = typing.get_args(annotation)[0]
        elif origin in REQUIREDNESS:
            annotation = typing.get_args(annotation)[0]
        else:
            return annotation, note


def tool_name(func: Callable[..., Any]) -> str:
    """The name error messages give a tool: its function's ``__name__``.

    >>> tool_name(len)
    'len'
    """
    return str(getattr(func, "__name__", None) or repr(func))


def type_hints(func: Callable[..., Any]) -> dict[str, Any]:
    """A function's resolved type hints, ``Annotated`` kept, string annotations evaluated.

    >>> def f(x: "int") -> None: ...
    >>> type_hints(f)
    {'x': <class 'int'>, 'return': <class 'NoneType'>}
    """
    target: Any = func
    if not (inspect.isfunction(func) or inspect.ismethod(func)) and callable(func):
        target = type(func).__call__  # a callable object: its __call__ has the hints
    try:
        return typing.get_type_hints(target, include_extras=True)
    except Exception as exc:  # NameError for an undefined forward reference, TypeError for odd callables
        raise TypeError(f"tool {tool_name(func)!r}: cannot resolve its type hints: {exc}") from None


def unhinted_parameters(func: Callable[..., Any]) -> list[str]:
    """The parameters of a tool function that have no type hint (the model is told they take any
    JSON value, and nothing checks what they get).

    >>> def scale(x, factor: float = 2.0): ...
    >>> unhinted_parameters(scale)
    ['x']
    """
    try:
        parameters = inspect.signature(func).parameters.values()
    except (TypeError, ValueError):  # a callable without a signature: nothing to say
        return []
    variadic = (inspect.Parameter.VAR_POSITIONAL, inspect.Parameter.VAR_KEYWORD)
    return [p.name for p in parameters if p.annotation is inspect.Parameter.empty and p.kind not in variadic]


def type_name(annotation: Any) -> str:
    """An annotation as messages show it: ``list[int]``, ``int | None``, ``Literal['a', 'b']``.

    >>> type_name(dict[str, typing.Optional[int]])
    'dict[str, int | None]'
    """
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if annotation is None or annotation is type(None):
        return "None"
    if annotation is Ellipsis:
        return "..."
    if isinstance(annotation, list):  # the parameters of a Callable
        return f"[{', '.join(type_name(arg) for arg in annotation)}]"
    if origin is Annotated:
        rows = next((extra for extra in annotation.__metadata__ if isinstance(extra, Rows)), None)
        return type_name(args[0]) if rows is None else f"{type_name(args[0])} of {type_name(rows.row)} rows"
    if origin in (Union, types.UnionType):
        return " | ".join(type_name(arg) for arg in args)
    if origin is Literal:
        return f"Literal[{', '.join(repr(arg) for arg in args)}]"
    if origin is not None and args:
        return f"{type_name(origin)}[{', '.join(type_name(arg) for arg in args)}]"
    if isinstance(annotation, type):
        return annotation.__qualname__.rsplit("<locals>.", 1)[-1]
    return repr(annotation).replace("typing.", "")


def class_fields(cls: type) -> list[tuple[str, Any, bool, Any]]:
    """The fields a dataclass or attrs class is built from: (name, annotation, required, default).

    The default is ``inspect.Parameter.empty`` when there is none or it comes from a factory.

    >>> @dataclasses.dataclass
    ... class Point:
    ...     x: float
    ...     y: float = 0.0
    >>> class_fields(Point)
    [('x', <class 'float'>, True, <class 'inspect._empty'>), ('y', <class 'float'>, False, 0.0)]
    """
    hints = typing.get_type_hints(cls, include_extras=True)
    empty = inspect.Parameter.empty
    fields: list[tuple[str, Any, bool, Any]] = []
    if attrs.has(cls):
        for field in attrs.fields(cls):
            if not field.init:
                continue
            annotation = hints.get(field.name, field.type if field.type is not None else Any)
            if field.default is attrs.NOTHING:
                fields.append((field.name, annotation, True, empty))
            else:
                default = empty if isinstance(field.default, attrs.Factory) else field.default  # type: ignore[arg-type]
                fields.append((field.name, annotation, False, default))
    else:
        for dfield in dataclasses.fields(cls):
            if not dfield.init:
                continue
            annotation = hints.get(dfield.name, Any)
            if dfield.default is not dataclasses.MISSING:
                fields.append((dfield.name, annotation, False, dfield.default))
            else:
                required = dfield.default_factory is dataclasses.MISSING
                fields.append((dfield.name, annotation, required, empty))
    return fields


def is_typeddict(annotation: Any) -> bool:
    """Whether an annotation is a TypedDict, ``typing``'s or ``typing_extensions``' (which pydantic, and so
    the MCP SDK, asks for before Python 3.12).

    >>> import typing_extensions
    >>> is_typeddict(typing_extensions.TypedDict("Row", {"n": int}))
    True
    """
    if typing.is_typeddict(annotation):
        return True
    # a typing_extensions TypedDict exists only once typing_extensions is imported
    extensions = sys.modules.get("typing_extensions")
    return extensions is not None and bool(extensions.is_typeddict(annotation))


def is_record_class(annotation: Any) -> bool:
    """Whether an annotation is a (non-generic) dataclass or attrs class."""
    return isinstance(annotation, type) and (attrs.has(annotation) or dataclasses.is_dataclass(annotation))
