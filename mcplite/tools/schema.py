"""Input schemas: JSON Schemas (2020-12) for tool parameters, read from a function's type hints, and
the HTTP header marks of a hand-written one.

Every parameter becomes a property of one object schema; nested classes are inlined, so the schema
stands alone. Annotations without a JSON form are refused when the tool is registered, not when it
is called:

>>> def top(column: str, n: int = 5) -> list[str]:
...     '''The most frequent values of a column.'''
>>> input_schema(top)
{'type': 'object', 'properties': {'column': {'type': 'string'}, 'n': {'type': 'integer', 'default': 5}}, \
'required': ['column'], 'additionalProperties': False}
>>> def save(data: bytes) -> None: ...
>>> input_schema(save)
Traceback (most recent call last):
...
TypeError: tool 'save': parameter 'data' has type bytes, which has no JSON Schema; use str (base64 for bytes)

Parameters mirrored into HTTP headers (2026-07-28, SEP-2243) are the ``x-mcp-header`` marks of a
hand-written input schema, checked as the specification constrains them when the tool is registered.

A mark names the ``Mcp-Param-{name}`` header a client sends with the value at the mark's property
path; it may sit only on a string, integer or boolean property reached from the root through
``properties`` alone, and names are unique regardless of case.

>>> schema = {"type": "object", "properties": {"region": {"type": "string", "x-mcp-header": "Region"}}}
>>> header_params(schema, "tool 'query'")
(HeaderParam(header='Region', path=('region',), type='string'),)
>>> header_params({"type": "object", "items": {"x-mcp-header": "X"}}, "tool 'query'")
Traceback (most recent call last):
...
TypeError: tool 'query': x-mcp-header at items is not on a property reached through 'properties' alone
"""

from __future__ import annotations

import datetime
import enum
import inspect
import math
import re
import typing
from collections.abc import Callable, Collection, Iterator
from typing import Annotated, Any, NamedTuple

from mcplite.protocol.checks import is_plain_json
from mcplite.tools.annotations import (
    REQUIREDNESS,
    Shape,
    class_fields,
    read,
    tool_name,
    type_hints,
    type_name,
)
from mcplite.tools.frame_arguments import frame_input_schema
from mcplite.tools.output_schema import object_schema

_SCALARS: dict[Any, dict[str, Any]] = {
    str: {"type": "string"},
    int: {"type": "integer"},
    float: {"type": "number"},
    bool: {"type": "boolean"},
    type(None): {"type": "null"},
    datetime.datetime: {"type": "string", "format": "date-time"},
    datetime.date: {"type": "string", "format": "date"},
}

_SUPPORTED = (
    "str, int, float, bool, None, Literal, an Enum, list, tuple, dict[str, ...], a TypedDict, "
    "a dataclass or an attrs class"
)
_RECURSIVE = (
    "refers to itself, and an inlined JSON Schema cannot nest a type in itself; "
    "use dict[str, Any] for the nested part"
)
_HINTS: dict[Any, str] = {
    bytes: "str (base64 for bytes)",
    bytearray: "str (base64 for bytes)",
    complex: "float, or tuple[float, float] for the real and imaginary parts",
}


class _Unsupported(Exception):
    """``part`` (of a parameter's annotation) cannot be a JSON Schema, for ``reason``."""

    def __init__(self, part: Any, reason: str) -> None:
        super().__init__(part, reason)
        self.part = part
        self.reason = reason

    @classmethod
    def no_schema(cls, part: Any, use: str) -> _Unsupported:
        return cls(part, f"has no JSON Schema; use {use}")


def input_schema(func: Callable[..., Any], *, skip: Collection[str] = ()) -> dict[str, Any]:
    """The JSON Schema of a tool's arguments: one property per parameter, except those in ``skip``.

    >>> from typing import Literal
    >>> def f(mode: Literal["fast", "slow"] = "fast"): ...
    >>> input_schema(f)["properties"]
    {'mode': {'enum': ['fast', 'slow'], 'default': 'fast'}}
    """
    name = tool_name(func)
    try:
        signature = inspect.signature(func)
    except (TypeError, ValueError) as exc:
        raise TypeError(f"tool {name!r}: cannot read its signature: {exc}") from None
    hints = type_hints(func)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for parameter in signature.parameters.values():
        if parameter.name in skip:
            continue
        _check_kind(name, parameter)
        annotation = hints.get(parameter.name, Any)
        try:
            schema = _schema(annotation, ())
        except _Unsupported as exc:
            raise TypeError(_unsupported_message(name, parameter.name, annotation, exc)) from None
        if parameter.default is inspect.Parameter.empty:
            required.append(parameter.name)
        else:
            _add_default(schema, parameter.default)
        properties[parameter.name] = schema
    if not properties:
        return {"type": "object", "additionalProperties": False}
    return object_schema(properties, required)


def description(func: Callable[..., Any]) -> str | None:
    """The first paragraph of a function's docstring on one line, or None when it has none.

    >>> def f():
    ...     '''Count the rows
    ...     of a table.
    ...
    ...     More details.'''
    >>> description(f)
    'Count the rows of a table.'
    """
    doc = inspect.getdoc(func)
    if not doc or not doc.strip():
        return None
    paragraph = doc.strip().split("\n\n", 1)[0]
    return " ".join(line.strip() for line in paragraph.splitlines() if line.strip())


def _check_kind(tool: str, parameter: inspect.Parameter) -> None:
    kind = parameter.kind
    if kind is inspect.Parameter.VAR_POSITIONAL:
        raise TypeError(
            f"tool {tool!r}: parameter '*{parameter.name}' takes positional values, but tool arguments "
            f"are named; use a list parameter"
        )
    if kind is inspect.Parameter.VAR_KEYWORD:
        raise TypeError(
            f"tool {tool!r}: parameter '**{parameter.name}' takes any names, but a tool's arguments are "
            f"fixed by its schema; use a dict[str, ...] parameter"
        )
    if kind is inspect.Parameter.POSITIONAL_ONLY:
        raise TypeError(
            f"tool {tool!r}: parameter {parameter.name!r} is positional-only, but tool arguments are "
            f"named; remove the '/'"
        )


def _unsupported_message(tool: str, parameter: str, annotation: Any, exc: _Unsupported) -> str:
    whole, part = type_name(annotation), type_name(exc.part)
    subject = "which" if part == whole else f"and {part}"
    return f"tool {tool!r}: parameter {parameter!r} has type {whole}, {subject} {exc.reason}"


def _schema(annotation: Any, classes: tuple[type, ...]) -> dict[str, Any]:
    """The schema of one annotation; ``classes`` are those being inlined around it (to catch recursion)."""
    shape = read(annotation)
    schema = _bare_schema(shape, classes)
    if shape.note is not None:
        schema["description"] = shape.note
    if shape.examples:
        odd = next((example for example in shape.examples if not is_plain_json(example)), None)
        if odd is not None:
            raise _Unsupported(annotation, f"gives the example {odd!r}; examples must be JSON values")
        schema["examples"] = list(shape.examples)
    return schema


def _bare_schema(shape: Shape, classes: tuple[type, ...]) -> dict[str, Any]:
    kind, annotation, args = shape.kind, shape.annotation, shape.args
    if kind == "literal":
        values = [_literal_value(annotation, arg) for arg in args]
        return {"const": values[0]} if len(values) == 1 else {"enum": values}
    if kind == "any":
        return {}
    if kind in ("null", "scalar"):
        return dict(_SCALARS[type(None) if annotation is None else annotation])
    if kind == "union":
        return {"anyOf": [_schema(arg, classes) for arg in args]}
    if kind == "enum":
        return _enum_schema(annotation)
    if kind == "array":
        return _array_schema(shape.item, classes)
    if kind == "set":
        if not _hashable(shape.item):
            raise _Unsupported.no_schema(
                annotation,
                "list[...]: the items of a set must be strings, numbers, "
                "booleans, null, dates, enums or tuples of those",
            )
        return {**_array_schema(shape.item, classes), "uniqueItems": True}
    if kind == "tuple":
        return _tuple_schema(shape, classes)
    if kind == "mapping":
        if args and read(args[0]).annotation is not str:
            raise _Unsupported.no_schema(annotation, "dict[str, ...]: the keys of a JSON object are strings")
        value_schema = _schema(args[1], classes) if args else {}
        if not value_schema:
            return {"type": "object"}
        return {"type": "object", "additionalProperties": value_schema}
    if kind == "typeddict":
        return _typeddict_schema(annotation, classes)
    if kind == "record":
        return _class_schema(annotation, classes)
    if kind == "frame":
        return frame_input_schema(shape)
    raise _Unsupported.no_schema(annotation, _HINTS.get(annotation, _SUPPORTED))


def _literal_value(annotation: Any, value: Any) -> Any:
    if isinstance(value, enum.Enum):
        value = value.value
    if not _is_json_scalar(value):
        raise _Unsupported.no_schema(annotation, "a Literal of str, int, float, bool or None values")
    return value


def _enum_schema(cls: type[enum.Enum]) -> dict[str, Any]:
    values = [member.value for member in cls]
    if not all(_is_json_scalar(value) for value in values):
        raise _Unsupported.no_schema(cls, "an Enum whose values are all str, int, float, bool or None")
    schema: dict[str, Any] = {"title": cls.__name__}
    if all(isinstance(value, str) for value in values):
        schema["type"] = "string"
    schema["enum"] = values
    return schema


def _array_schema(item: Any, classes: tuple[type, ...]) -> dict[str, Any]:
    items = _schema(item, classes)
    return {"type": "array", "items": items} if items else {"type": "array"}


def _tuple_schema(shape: Shape, classes: tuple[type, ...]) -> dict[str, Any]:
    annotation, args = shape.annotation, shape.args
    if annotation is tuple:  # bare ``tuple``: any items
        return {"type": "array"}
    if shape.variadic:
        return _array_schema(args[0], classes)
    if Ellipsis in args:
        raise _Unsupported.no_schema(annotation, "tuple[T, ...] or a tuple of fixed length")
    if not args:  # tuple[()]
        return {"type": "array", "maxItems": 0}
    return {
        "type": "array",
        "prefixItems": [_schema(arg, classes) for arg in args],
        "items": False,
        "minItems": len(args),
        "maxItems": len(args),
    }


def _typeddict_schema(cls: Any, classes: tuple[type, ...]) -> dict[str, Any]:
    if cls in classes:
        raise _Unsupported(cls, _RECURSIVE)
    hints = typing.get_type_hints(cls, include_extras=True)
    for key, hint in hints.items():
        marked = _marked_required(hint)
        if marked is not None and marked != (key in cls.__required_keys__):
            raise _Unsupported(
                cls,
                f"marks {key!r} {'Required' if marked else 'NotRequired'}, but Python does not see it "
                f"when annotations are strings; define {cls.__name__} without "
                f"`from __future__ import annotations`",
            )
    properties = {key: _schema(hint, (*classes, cls)) for key, hint in hints.items()}
    required = [key for key in hints if key in cls.__required_keys__]
    return object_schema(properties, required)


def _marked_required(hint: Any) -> bool | None:
    """True for ``Required[...]``, False for ``NotRequired[...]`` (also inside ``Annotated``), else None."""
    while typing.get_origin(hint) in (Annotated, *REQUIREDNESS):
        if typing.get_origin(hint) is not Annotated:
            return bool(typing.get_origin(hint) is REQUIREDNESS[0])
        hint = typing.get_args(hint)[0]
    return None


def _class_schema(cls: type, classes: tuple[type, ...]) -> dict[str, Any]:
    if cls in classes:
        raise _Unsupported(cls, _RECURSIVE)
    properties: dict[str, Any] = {}
    required: list[str] = []
    for name, annotation, is_required, default in class_fields(cls):
        schema = _schema(annotation, (*classes, cls))
        if is_required:
            required.append(name)
        elif default is not inspect.Parameter.empty:
            _add_default(schema, default)
        properties[name] = schema
    return object_schema(properties, required)


def _add_default(schema: dict[str, Any], default: Any) -> None:
    """Add ``"default"`` to a schema when the Python default is plain JSON (or an enum of such)."""
    if isinstance(default, enum.Enum):
        default = default.value
    if isinstance(default, tuple):
        default = list(default)
    if is_plain_json(default):
        schema["default"] = default


def _is_json_scalar(value: Any) -> bool:
    if type(value) is float:
        return math.isfinite(value)
    return value is None or type(value) in (str, int, bool)


def _hashable(annotation: Any) -> bool:
    """Whether values structured to this annotation can go in a set."""
    shape = read(annotation)
    if shape.kind in ("null", "scalar", "literal", "enum"):
        return True
    if shape.kind == "union":
        return all(_hashable(arg) for arg in shape.args)
    if shape.kind == "tuple" and shape.annotation is not tuple:
        return all(arg is Ellipsis or _hashable(arg) for arg in shape.args)
    return False


MARK = "x-mcp-header"
_TOKEN = re.compile(r"^[!#$%&'*+.^_`|~0-9A-Za-z-]+$")
"""RFC 9110 field-name token (``1*tchar``)."""
_HEADER_TYPES = ("string", "integer", "boolean")


class HeaderParam(NamedTuple):
    """One mirrored parameter: the header's name part, the property path to its value, its type."""

    header: str
    path: tuple[str, ...]
    type: str


_ONE_SCHEMA = frozenset(
    {"items", "contains", "additionalProperties", "propertyNames", "unevaluatedItems"}
    | {"unevaluatedProperties", "not", "if", "then", "else", "contentSchema"}
)
_SCHEMA_LISTS = frozenset({"allOf", "anyOf", "oneOf", "prefixItems"})
_SCHEMA_MAPS = frozenset({"$defs", "definitions", "patternProperties", "dependentSchemas"})


def _marks(schema: Any) -> Iterator[tuple[tuple[str, ...] | None, str, Any, dict[str, Any]]]:
    """Every ``x-mcp-header`` mark on a schema (not in data such as ``default`` or ``const``): the
    chain of ``properties`` keys to it (None once another keyword is crossed), where it is, the mark
    and the schema holding it."""
    stack: list[tuple[tuple[str, ...] | None, str, Any]] = [((), "", schema)]
    while stack:
        path, where, node = stack.pop()
        if not isinstance(node, dict):
            continue
        if MARK in node:
            yield path, where or "the root", node[MARK], node
        for key, child in node.items():
            inner = f"{where}.{key}" if where else key
            if key == "properties" and isinstance(child, dict):
                for name, sub in child.items():
                    stack.append((None if path is None else (*path, name), f"{inner}.{name}", sub))
            elif key in _ONE_SCHEMA:
                stack.append((None, inner, child))
            elif key in _SCHEMA_LISTS and isinstance(child, list):
                stack.extend((None, f"{inner}[{i}]", sub) for i, sub in enumerate(child))
            elif key in _SCHEMA_MAPS and isinstance(child, dict):
                stack.extend((None, f"{inner}.{name}", sub) for name, sub in child.items())


def header_params(schema: dict[str, Any], owner: str) -> tuple[HeaderParam, ...]:
    """The parameters ``schema`` mirrors into headers; a TypeError for a mark the specification forbids."""
    found: list[HeaderParam] = []
    seen: dict[str, str] = {}
    for path, where, name, node in sorted(_marks(schema), key=lambda mark: mark[1]):
        if not path:
            raise TypeError(
                f"{owner}: {MARK} at {where} is not on a property reached through 'properties' alone"
            )
        if not isinstance(name, str) or not _TOKEN.match(name):
            raise TypeError(
                f"{owner}: {MARK} at {where} is {name!r}, not an HTTP header name token "
                "(letters, digits and !#$%&'*+.^_`|~-)"
            )
        kind = node.get("type")
        if kind not in _HEADER_TYPES:
            raise TypeError(
                f"{owner}: {MARK} {name!r} is on a property of type {kind!r}; only a string, integer or "
                "boolean property is mirrored into a header"
            )
        if name.lower() in seen:
            raise TypeError(f"{owner}: {MARK} {name!r} is used twice (also at {seen[name.lower()]})")
        seen[name.lower()] = where
        found.append(HeaderParam(name, path, kind))
    return tuple(found)
