"""Tool arguments checked against the parameters' annotations and structured with cattrs.

The rules are JSON Schema's: a call's arguments are accepted exactly when they validate against
the tool's :func:`~mcplite.schema.input_schema`, and anything else is one :class:`ArgumentError`
that names the argument, what was expected and what was given:

>>> def top(column: str, n: int = 5) -> None: ...
>>> binder = ArgumentBinder(top)
>>> binder.bind({"column": "city", "n": 3.0})
{'column': 'city', 'n': 3}
>>> binder.bind({"column": "city", "n": "five"})
Traceback (most recent call last):
...
mcplite.arguments.ArgumentError: argument 'n': expected an integer, got 'five' (str)
"""

from __future__ import annotations

import collections.abc
import datetime
import enum
import json
import math
import re
import types
import typing
from collections.abc import Callable, Collection, Mapping
from typing import Any, Literal, Union

import cattrs
from cattrs.errors import AttributeValidationNote, ClassValidationError, ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn
from cattrs.gen.typeddicts import make_dict_structure_fn as make_typeddict_structure_fn

from mcplite.schema import (
    ARRAY_TYPES,
    MAPPING_TYPES,
    SET_TYPES,
    class_fields,
    input_schema,
    is_record_class,
    type_hints,
    unwrap,
)

Hook = Callable[[Any, Any], Any]
Step = str | int


class ArgumentError(ValueError):
    """Arguments that do not fit the tool's parameters.

    ``parameter`` is the argument at fault (None when the arguments are not an object at all) and
    ``path`` the place inside it, as in ``rows[2].id``.

    >>> error = ArgumentError("argument 'rows[2].id': expected an integer, got None", parameter="rows",
    ...                       path="rows[2].id")
    >>> error.parameter, error.path
    ('rows', 'rows[2].id')
    """

    def __init__(self, message: str, *, parameter: str | None = None, path: str | None = None) -> None:
        super().__init__(message)
        self.parameter = parameter
        self.path = parameter if path is None else path


class ArgumentBinder:
    """A tool's input schema, and the keyword arguments for a call from the JSON arguments it got.

    >>> def scale(x: float, label: str = "") -> None: ...
    >>> binder = ArgumentBinder(scale)
    >>> binder.schema["required"], binder.bind({"x": 2})
    (['x'], {'x': 2.0})
    """

    def __init__(self, func: Callable[..., Any], *, skip: Collection[str] = ()) -> None:
        self.schema: dict[str, Any] = input_schema(func, skip=skip)
        hints = type_hints(func)
        self._hooks: dict[str, tuple[Hook, Any]] = {}
        for name in self.schema.get("properties", {}):
            annotation = hints.get(name, Any)
            self._hooks[name] = (_CONVERTER.get_structure_hook(annotation), annotation)
        self._required: list[str] = self.schema.get("required", [])

    def bind(self, arguments: Mapping[str, Any] | None) -> dict[str, Any]:
        """Keyword arguments for the call (parameters left out take their defaults), or ArgumentError."""
        if arguments is None:
            arguments = {}
        if not isinstance(arguments, Mapping):
            raise ArgumentError(f"the arguments must be an object, got {_given(arguments)}")
        unexpected = [key for key in arguments if key not in self._hooks]
        if unexpected:
            known = f"the arguments are {', '.join(self._hooks)}" if self._hooks else "the tool takes none"
            raise ArgumentError(
                f"unexpected {_plural('argument', unexpected)}; {known}", parameter=str(unexpected[0])
            )
        missing = [name for name in self._required if name not in arguments]
        if missing:
            raise ArgumentError(f"missing required {_plural('argument', missing)}", parameter=missing[0])
        bound: dict[str, Any] = {}
        for name, (hook, annotation) in self._hooks.items():
            if name not in arguments:
                continue
            try:
                bound[name] = hook(arguments[name], annotation)
            except _Invalid as exc:
                raise exc.error(name) from None
            except Exception as exc:  # hooks raise _Invalid; this keeps the promise for anything else
                raise ArgumentError(f"argument {name!r}: {exc}", parameter=name) from exc
        return bound


def configure_converter(converter: cattrs.Converter) -> None:
    """Register the strict JSON structure hooks on a converter (as cattrs' ``preconf`` modules do).

    >>> converter = cattrs.Converter()
    >>> configure_converter(converter)
    >>> converter.structure(5.0, int), converter.structure([1, 2], tuple[int, float])
    (5, (1, 2.0))
    """
    for cls, structure in _SCALARS.items():
        converter.register_structure_hook(cls, _exactly(cls, structure))
    converter.register_structure_hook_func(lambda t: t is Any, _structure_any)
    converter.register_structure_hook_func(_is_enum, _structure_enum)
    converter.register_structure_hook_factory(_is_literal, _literal_hook)
    converter.register_structure_hook_factory(_is_union, _union_hook)
    converter.register_structure_hook_factory(
        lambda t: t in ARRAY_TYPES or _origin(t) in ARRAY_TYPES, _list_hook
    )
    converter.register_structure_hook_factory(lambda t: t in SET_TYPES or _origin(t) in SET_TYPES, _set_hook)
    converter.register_structure_hook_factory(lambda t: t is tuple or _origin(t) is tuple, _tuple_hook)
    converter.register_structure_hook_factory(
        lambda t: t in MAPPING_TYPES or _origin(t) in MAPPING_TYPES, _mapping_hook
    )
    converter.register_structure_hook_factory(typing.is_typeddict, _typeddict_hook)
    converter.register_structure_hook_factory(is_record_class, _record_hook)
    converter.register_structure_hook_factory(lambda t: unwrap(t)[0] is not t, _unwrapped_hook)


# -- failures ---------------------------------------------------------------------------------------


class _Invalid(Exception):
    """A value that does not fit, at ``path`` below the argument (filled in on the way up).

    ``kind`` is "value" (``problem`` says what is wrong), "missing" (a required key) or "unexpected"
    (an unknown key; ``problem`` lists the known ones).
    """

    def __init__(self, problem: str, kind: str = "value", path: list[Step] | None = None) -> None:
        super().__init__(problem)
        self.problem = problem
        self.kind = kind
        self.path: list[Step] = path or []

    def under(self, step: Step) -> _Invalid:
        self.path.insert(0, step)
        return self

    def error(self, parameter: str) -> ArgumentError:
        where = _path_text([parameter, *self.path])
        if self.kind == "missing":
            message = f"missing required argument '{where}'"
        elif self.kind == "unexpected":
            message = (
                f"unexpected argument '{where}'; the keys of '{_path_text([parameter, *self.path[:-1]])}'"
            )
            message += f" are {self.problem}" if self.problem else " are none"
        else:
            message = f"argument '{where}': {self.problem}"
        return ArgumentError(message, parameter=parameter, path=where)


def _path_text(steps: list[Step]) -> str:
    text = str(steps[0])
    for step in steps[1:]:
        if isinstance(step, int):
            text += f"[{step}]"
        elif step.isidentifier():
            text += f".{step}"
        else:
            text += f"[{json.dumps(step)}]"
    return text


def _plural(noun: str, names: list[Any]) -> str:
    return f"{noun}{'s' if len(names) > 1 else ''} {', '.join(repr(name) for name in names)}"


def _given(value: Any, with_type: bool = True) -> str:
    if value is None or not with_type:
        return f"{value!r:.80}"
    return f"{value!r:.80} ({type(value).__name__})"


def _mismatch(expected: str, value: Any, with_type: bool = True) -> _Invalid:
    return _Invalid(f"expected {expected}, got {_given(value, with_type)}")


def _item(hook: Hook, value: Any, annotation: Any, step: Step) -> Any:
    try:
        return hook(value, annotation)
    except _Invalid as exc:
        raise exc.under(step) from None


# -- what a value is, and what an annotation expects --------------------------------------------------


def _kind(value: Any) -> str:
    """A value's JSON type: null, boolean, integer, number, string, array, object (or other)."""
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


def _json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON Schema's ``enum`` and ``const`` see it: 1 == 1.0, but True != 1."""
    kinds = {_kind(a), _kind(b)}
    return (len(kinds) == 1 or kinds == {"integer", "number"}) and a == b


_ALL_KINDS = frozenset({"null", "boolean", "integer", "number", "string", "array", "object"})


def _kinds(annotation: Any) -> tuple[frozenset[str], frozenset[str]]:
    """The JSON types an annotation takes as they are, and those it also takes (5.0 for int, 5 for float)."""
    annotation = unwrap(annotation)[0]
    origin, args = _origin(annotation), typing.get_args(annotation)
    if annotation is Any:
        return _ALL_KINDS, frozenset()
    if _is_union(annotation):
        pairs = [_kinds(arg) for arg in args]
        exact = frozenset().union(*(pair[0] for pair in pairs))
        return exact, frozenset().union(*(pair[1] for pair in pairs)) - exact
    if origin is Literal or _is_enum(annotation):
        values = [_json_value(arg) for arg in args] if origin is Literal else [m.value for m in annotation]
        exact = frozenset(_kind(value) for value in values)
        loose = {"integer": "number", "number": "integer"}
        return exact, frozenset(loose[kind] for kind in exact if kind in loose) - exact
    if annotation is int:
        return frozenset({"integer"}), frozenset({"number"})
    if annotation is float:
        return frozenset({"number"}), frozenset({"integer"})
    if annotation in _SCALAR_KINDS:
        return frozenset({_SCALAR_KINDS[annotation]}), frozenset()
    if annotation in MAPPING_TYPES or origin in MAPPING_TYPES:
        return frozenset({"object"}), frozenset()
    if typing.is_typeddict(annotation) or is_record_class(annotation):
        return frozenset({"object"}), frozenset()
    return frozenset({"array"}), frozenset()


_SCALAR_KINDS: dict[Any, str] = {
    str: "string",
    bool: "boolean",
    type(None): "null",
    datetime.date: "string",
    datetime.datetime: "string",
}


def _expected(annotation: Any) -> str:
    """What an annotation expects, as error messages say it: "an integer", "one of 'a', 'b'"."""
    annotation = unwrap(annotation)[0]
    origin, args = _origin(annotation), typing.get_args(annotation)
    if annotation is Any:
        return "any value"
    if _is_union(annotation):
        return _either([_expected(arg) for arg in args])
    if origin is Literal or _is_enum(annotation):
        values = [_json_value(arg) for arg in args] if origin is Literal else [m.value for m in annotation]
        return repr(values[0]) if len(values) == 1 else f"one of {', '.join(repr(v) for v in values)}"
    if annotation in _EXPECTED:
        return _EXPECTED[annotation]
    if typing.is_typeddict(annotation) or is_record_class(annotation):
        return f"an object ({annotation.__name__})"
    if annotation in MAPPING_TYPES or origin in MAPPING_TYPES:
        return "an object"
    if origin is tuple and args and Ellipsis not in args:
        return f"an array of {len(args)} item{'s' if len(args) > 1 else ''}"
    if annotation in SET_TYPES or origin in SET_TYPES:
        return "an array of unique items"
    return "an array"


_EXPECTED: dict[Any, str] = {
    str: "a string",
    int: "an integer",
    float: "a number",
    bool: "a boolean",
    type(None): "null",
    datetime.date: "a date such as '2024-05-01'",
    datetime.datetime: "a date-time such as '2024-05-01T12:00:00Z'",
}


def _either(choices: list[str]) -> str:
    choices = list(dict.fromkeys(choices))
    return choices[0] if len(choices) == 1 else f"{', '.join(choices[:-1])} or {choices[-1]}"


def _json_value(literal: Any) -> Any:
    return literal.value if isinstance(literal, enum.Enum) else literal


def _origin(annotation: Any) -> Any:
    return typing.get_origin(annotation)


def _is_union(annotation: Any) -> bool:
    return _origin(annotation) in (Union, types.UnionType)


def _is_literal(annotation: Any) -> bool:
    return _origin(annotation) is Literal


def _is_enum(annotation: Any) -> bool:
    return isinstance(annotation, type) and issubclass(annotation, enum.Enum)


# -- scalar hooks -------------------------------------------------------------------------------------


def _to_str(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise _mismatch("a string", value)


def _to_int(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():  # JSON Schema: 5.0 is an integer
        return int(value)
    raise _mismatch("an integer", value)


def _to_float(value: Any) -> float:
    if isinstance(value, float) and math.isfinite(value):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            raise _mismatch("a number within the range of a float", value) from None
    raise _mismatch("a finite number" if isinstance(value, float) else "a number", value)


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise _mismatch("a boolean", value)


def _to_none(value: Any) -> None:
    if value is not None:
        raise _mismatch("null", value)


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
_DATE_TIME = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))", re.ASCII
)


def _to_date(value: Any) -> datetime.date:
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    raise _mismatch(_EXPECTED[datetime.date], value)


def _to_datetime(value: Any) -> datetime.datetime:
    """An RFC 3339 date-time (JSON Schema's ``date-time``); it always has an offset."""
    match = _DATE_TIME.fullmatch(value) if isinstance(value, str) else None
    if match is not None:
        year, month, day, hour, minute, second, fraction, sign, off_hours, off_minutes = match.groups()
        if sign is None or (int(off_hours) < 24 and int(off_minutes) < 60):
            offset = datetime.timedelta(hours=int(off_hours or 0), minutes=int(off_minutes or 0))
            zone = datetime.timezone(-offset if sign == "-" else offset)
            micro = int((fraction or "0")[:6].ljust(6, "0"))
            try:
                return datetime.datetime(
                    int(year), int(month), int(day), int(hour), int(minute), int(second), micro, zone
                )
            except ValueError:  # out of range, such as a leap second or February 30
                pass
    raise _mismatch(_EXPECTED[datetime.datetime], value)


_SCALARS: dict[type, Callable[[Any], Any]] = {
    str: _to_str,
    int: _to_int,
    float: _to_float,
    bool: _to_bool,
    type(None): _to_none,
    datetime.date: _to_date,
    datetime.datetime: _to_datetime,
}


def _exactly(cls: type, structure: Callable[[Any], Any]) -> Hook:
    def hook(value: Any, annotation: Any) -> Any:
        if annotation is not cls:  # cattrs dispatches subclasses here too: enums such as (str, Enum)
            return _structure_enum(value, annotation)
        return structure(value)

    return hook


def _structure_any(value: Any, _: Any) -> Any:
    return value


def _structure_enum(value: Any, cls: type[enum.Enum]) -> enum.Enum:
    for member in cls:
        if _json_equal(value, member.value):
            return member
    kinds = {_kind(member.value) for member in cls}
    raise _mismatch(_expected(cls), value, with_type=_kind(value) not in kinds)


# -- hook factories -----------------------------------------------------------------------------------


def _literal_hook(annotation: Any) -> Hook:
    choices = typing.get_args(annotation)
    expected = _expected(annotation)
    kinds = {_kind(_json_value(choice)) for choice in choices}

    def structure(value: Any, _: Any) -> Any:
        for choice in choices:
            if _json_equal(value, _json_value(choice)):
                return choice
        raise _mismatch(expected, value, with_type=_kind(value) not in kinds)

    return structure


def _union_hook(annotation: Any, converter: cattrs.Converter) -> Hook:
    """Try the branches that take the value's JSON type as it is first, then those that convert it."""
    branches = [(arg, converter.get_structure_hook(arg), *_kinds(arg)) for arg in typing.get_args(annotation)]
    expected = _expected(annotation)

    def structure(value: Any, _: Any) -> Any:
        kind = _kind(value)
        tried = [branch for branch in branches if kind in branch[2]]
        tried += [branch for branch in branches if kind in branch[3]]
        failures: list[_Invalid] = []
        for arg, hook, _exact, _loose in tried:
            try:
                return hook(value, arg)
            except _Invalid as exc:
                failures.append(exc)
        if len(failures) == 1 and failures[0].path:  # one branch fits the value's type: its own detail
            raise failures[0]
        raise _mismatch(expected, value)

    return structure


def _list_hook(annotation: Any, converter: cattrs.Converter) -> Hook:
    args = typing.get_args(annotation)
    item_type = args[0] if args else Any
    item = converter.get_structure_hook(item_type)

    def structure(value: Any, _: Any) -> list[Any]:
        if not isinstance(value, list):
            raise _mismatch("an array", value)
        return [_item(item, element, item_type, i) for i, element in enumerate(value)]

    return structure


def _set_hook(annotation: Any, converter: cattrs.Converter) -> Hook:
    items = _list_hook(annotation, converter)
    mutable = (_origin(annotation) or annotation) in (set, collections.abc.MutableSet)
    build: Callable[[list[Any]], Any] = set if mutable else frozenset

    def structure(value: Any, _: Any) -> Any:
        elements = items(value, annotation)
        result = build(elements)
        if len(result) != len(elements):
            raise _mismatch("an array of unique items", value)
        return result

    return structure


def _tuple_hook(annotation: Any, converter: cattrs.Converter) -> Hook:
    args = typing.get_args(annotation)
    if annotation is tuple or (len(args) == 2 and args[1] is Ellipsis):
        items = _list_hook(annotation, converter)
        return lambda value, _: tuple(items(value, annotation))
    hooks = [converter.get_structure_hook(arg) for arg in args]
    expected = _expected(annotation) if args else "an empty array"

    def structure(value: Any, _: Any) -> tuple[Any, ...]:
        if not isinstance(value, list) or len(value) != len(args):
            raise _mismatch(expected, value)
        return tuple(
            _item(hook, element, arg, i) for i, (hook, arg, element) in enumerate(zip(hooks, args, value))
        )

    return structure


def _mapping_hook(annotation: Any, converter: cattrs.Converter) -> Hook:
    args = typing.get_args(annotation)
    value_type = args[1] if args else Any
    item = converter.get_structure_hook(value_type)

    def structure(value: Any, _: Any) -> dict[str, Any]:
        if not isinstance(value, dict):
            raise _mismatch("an object", value)
        return {key: _item(item, element, value_type, key) for key, element in value.items()}

    return structure


def _record_hook(cls: type, converter: cattrs.Converter) -> Hook:
    fields: Hook = make_dict_structure_fn(
        cls, converter, _cattrs_forbid_extra_keys=True, _cattrs_detailed_validation=True
    )
    return _object_hook(cls, fields, [name for name, *_ in class_fields(cls)])


def _typeddict_hook(cls: Any, converter: cattrs.Converter) -> Hook:
    fields = make_typeddict_structure_fn(
        cls, converter, _cattrs_forbid_extra_keys=True, _cattrs_detailed_validation=True
    )
    return _object_hook(cls, fields, list(typing.get_type_hints(cls)))


def _object_hook(cls: Any, fields: Callable[[Any, Any], Any], keys: list[str]) -> Hook:
    """A JSON object structured by cattrs' generated ``fields``, its error group made one _Invalid."""
    expected = _expected(cls)

    def structure(value: Any, _: Any) -> Any:
        if not isinstance(value, dict):
            raise _mismatch(expected, value)
        try:
            return fields(value, cls)
        except ClassValidationError as group:
            raise _first_failure(group, cls, value, keys) from None

    return structure


def _first_failure(group: ClassValidationError, cls: Any, value: dict[str, Any], keys: list[str]) -> _Invalid:
    """The failure to report from cattrs' group: an unknown key (often a misspelt one) first."""
    for failure in group.exceptions:
        if isinstance(failure, ForbiddenExtraKeysError):
            unknown = next(key for key in value if key in failure.extra_fields)
            return _Invalid(", ".join(keys), kind="unexpected", path=[unknown])
    failure = group.exceptions[0]
    notes = [note for note in getattr(failure, "__notes__", ()) if isinstance(note, AttributeValidationNote)]
    if not notes:  # the class itself refused the structured fields (an attrs validator, __post_init__)
        return _Invalid(f"invalid {cls.__name__}: {failure}")
    name = notes[-1].name  # the note cattrs added at this level (a nested class added its own before)
    if isinstance(failure, _Invalid):
        return failure.under(name)
    if isinstance(failure, KeyError):
        return _Invalid("", kind="missing", path=[name])
    return _Invalid(str(failure), path=[name])


def _unwrapped_hook(annotation: Any, converter: cattrs.Converter) -> Hook:
    inner = unwrap(annotation)[0]
    hook = converter.get_structure_hook(inner)
    return lambda value, _: hook(value, inner)


_CONVERTER = cattrs.Converter(detailed_validation=True, forbid_extra_keys=True)
configure_converter(_CONVERTER)
