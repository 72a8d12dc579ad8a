"""Strict JSON structure hooks for tool arguments (cattrs), one per kind of annotation.

Which hook an annotation gets is decided by :func:`mcplite.tools.annotations.read`, the same
reading the input schema comes from; JSON Schema's rules decide what a hook accepts (5.0 is an
integer, ``True`` is not 1). A value that does not fit raises
:class:`~mcplite.tools.failures.Invalid` with its path.

>>> CONVERTER.structure([1, 2.0], list[float])
[1.0, 2.0]
"""

from __future__ import annotations

import collections.abc
import datetime
import enum
import math
import re
import typing
from collections.abc import Callable
from typing import Any

import cattrs
from cattrs.errors import AttributeValidationNote, ClassValidationError, ForbiddenExtraKeysError
from cattrs.gen import make_dict_structure_fn
from cattrs.gen.typeddicts import make_dict_structure_fn as make_typeddict_structure_fn

from mcplite.tools.annotations import EXPECTED, class_fields, json_type, json_value, read, unwrap
from mcplite.tools.failures import Hook, Invalid, Step, mismatch
from mcplite.tools.frame_arguments import rows_to_frame


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
    converter.register_structure_hook_func(_is("enum"), _structure_enum)
    converter.register_structure_hook_factory(_is("literal"), _literal_hook)
    converter.register_structure_hook_factory(_is("union"), _union_hook)
    converter.register_structure_hook_factory(_is("array"), _list_hook)
    converter.register_structure_hook_factory(_is("set"), _set_hook)
    converter.register_structure_hook_factory(_is("tuple"), _tuple_hook)
    converter.register_structure_hook_factory(_is("mapping"), _mapping_hook)
    converter.register_structure_hook_factory(_is("typeddict"), _typeddict_hook)
    converter.register_structure_hook_factory(_is("record"), _record_hook)
    converter.register_structure_hook_factory(lambda t: unwrap(t)[0] is not t, _unwrapped_hook)
    converter.register_structure_hook_factory(
        _is("frame"), _frame_hook
    )  # last: before Annotated is unwrapped


def _item(hook: Hook, value: Any, annotation: Any, step: Step) -> Any:
    try:
        return hook(value, annotation)
    except Invalid as exc:
        raise exc.under(step) from None


# -- what a value is, and what an annotation expects --------------------------------------------------


def _json_equal(a: Any, b: Any) -> bool:
    """Equality as JSON Schema's ``enum`` and ``const`` see it: 1 == 1.0, but True != 1."""
    kinds = {json_type(a), json_type(b)}
    return (len(kinds) == 1 or kinds == {"integer", "number"}) and a == b


def _kinds(annotation: Any) -> tuple[frozenset[str], frozenset[str]]:
    return read(annotation).json_types()


def _expected(annotation: Any) -> str:
    return read(annotation).expected()


def _is(kind: str) -> Callable[[Any], bool]:
    """The cattrs predicate of one kind of annotation (``Annotated`` is unwrapped before it is asked)."""
    return lambda annotation: read(annotation).kind == kind


# -- scalar hooks -------------------------------------------------------------------------------------


def _to_str(value: Any) -> str:
    if isinstance(value, str):
        return value
    raise mismatch("a string", value)


def _to_int(value: Any) -> int:
    if isinstance(value, int) and not isinstance(value, bool):
        return value
    if isinstance(value, float) and value.is_integer():  # JSON Schema: 5.0 is an integer
        return int(value)
    raise mismatch("an integer", value)


def _to_float(value: Any) -> float:
    if isinstance(value, float) and math.isfinite(value):
        return value
    if isinstance(value, int) and not isinstance(value, bool):
        try:
            return float(value)
        except OverflowError:
            raise mismatch("a number within the range of a float", value) from None
    raise mismatch("a finite number" if isinstance(value, float) else "a number", value)


def _to_bool(value: Any) -> bool:
    if isinstance(value, bool):
        return value
    raise mismatch("a boolean", value)


def _to_none(value: Any) -> None:
    if value is not None:
        raise mismatch("null", value)


_DATE = re.compile(r"\d{4}-\d{2}-\d{2}", re.ASCII)
_DATE_TIME = re.compile(
    r"(\d{4})-(\d{2})-(\d{2})[Tt](\d{2}):(\d{2}):(\d{2})(?:\.(\d+))?(?:[Zz]|([+-])(\d{2}):(\d{2}))", re.ASCII
)

_NAIVE_DATE_TIME = re.compile(r"\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}(:\d{2}(\.\d+)?)?", re.ASCII)
"""A date-time without an offset, as people and models often write one (RFC 3339 needs one)."""


def _to_date(value: Any) -> datetime.date:
    if isinstance(value, str) and _DATE.fullmatch(value):
        try:
            return datetime.date.fromisoformat(value)
        except ValueError:
            pass
    raise mismatch(EXPECTED[datetime.date], value)


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
    if isinstance(value, str) and _NAIVE_DATE_TIME.fullmatch(value):
        raise Invalid(
            f"expected {EXPECTED[datetime.datetime]}, got {value!r}, which has no offset: add one "
            "('Z' for UTC, or such as '+02:00') to say which time zone it is in"
        )
    raise mismatch(EXPECTED[datetime.datetime], value)


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
    kinds = {json_type(member.value) for member in cls}
    raise mismatch(_expected(cls), value, with_type=json_type(value) not in kinds)


# -- hook factories -----------------------------------------------------------------------------------


def _literal_hook(annotation: Any) -> Hook:
    choices = typing.get_args(annotation)
    expected = _expected(annotation)
    kinds = {json_type(json_value(choice)) for choice in choices}

    def structure(value: Any, _: Any) -> Any:
        for choice in choices:
            if _json_equal(value, json_value(choice)):
                return choice
        raise mismatch(expected, value, with_type=json_type(value) not in kinds)

    return structure


def _union_hook(annotation: Any, converter: cattrs.Converter) -> Hook:
    """Try the branches that take the value's JSON type as it is first, then those that convert it."""
    branches = [(arg, converter.get_structure_hook(arg), *_kinds(arg)) for arg in typing.get_args(annotation)]
    expected = _expected(annotation)

    def structure(value: Any, _: Any) -> Any:
        kind = json_type(value)
        tried = [branch for branch in branches if kind in branch[2]]
        tried += [branch for branch in branches if kind in branch[3]]
        failures: list[Invalid] = []
        for arg, hook, _exact, _loose in tried:
            try:
                return hook(value, arg)
            except Invalid as exc:
                failures.append(exc)
        if len(failures) == 1 and failures[0].path:  # one branch fits the value's type: its own detail
            raise failures[0]
        raise mismatch(expected, value)

    return structure


def _list_hook(annotation: Any, converter: cattrs.Converter) -> Hook:
    args = typing.get_args(annotation)
    item_type = args[0] if args else Any
    item = converter.get_structure_hook(item_type)

    def structure(value: Any, _: Any) -> list[Any]:
        if not isinstance(value, list):
            raise mismatch("an array", value)
        return [_item(item, element, item_type, i) for i, element in enumerate(value)]

    return structure


def _set_hook(annotation: Any, converter: cattrs.Converter) -> Hook:
    items = _list_hook(annotation, converter)
    mutable = (typing.get_origin(annotation) or annotation) in (set, collections.abc.MutableSet)
    build: Callable[[list[Any]], Any] = set if mutable else frozenset

    def structure(value: Any, _: Any) -> Any:
        elements = items(value, annotation)
        result = build(elements)
        if len(result) != len(elements):
            raise mismatch("an array of unique items", value)
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
            raise mismatch(expected, value)
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
            raise mismatch("an object", value)
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
    """A JSON object structured by cattrs' generated ``fields``, its error group made one Invalid."""
    expected = _expected(cls)

    def structure(value: Any, _: Any) -> Any:
        if not isinstance(value, dict):
            raise mismatch(expected, value)
        try:
            return fields(value, cls)
        except ClassValidationError as group:
            raise _first_failure(group, cls, value, keys) from None

    return structure


def _first_failure(group: ClassValidationError, cls: Any, value: dict[str, Any], keys: list[str]) -> Invalid:
    """The failure to report from cattrs' group: an unknown key (often a misspelt one) first."""
    for failure in group.exceptions:
        if isinstance(failure, ForbiddenExtraKeysError):
            unknown = next(key for key in value if key in failure.extra_fields)
            return Invalid(", ".join(keys), kind="unexpected", path=[unknown])
    failure = group.exceptions[0]
    notes = [note for note in getattr(failure, "__notes__", ()) if isinstance(note, AttributeValidationNote)]
    if not notes:  # the class itself refused the structured fields (an attrs validator, __post_init__)
        return Invalid(f"invalid {cls.__name__}: {failure}")
    name = notes[-1].name  # the note cattrs added at this level (a nested class added its own before)
    if isinstance(failure, Invalid):
        return failure.under(name)
    if isinstance(failure, KeyError):
        return Invalid("", kind="missing", path=[name])
    return Invalid(str(failure), path=[name])


def _frame_hook(annotation: Any) -> Hook:
    shape = read(annotation)
    return lambda value, _: rows_to_frame(shape, value)


def _unwrapped_hook(annotation: Any, converter: cattrs.Converter) -> Hook:
    inner = unwrap(annotation)[0]
    hook = converter.get_structure_hook(inner)
    return lambda value, _: hook(value, inner)


CONVERTER = cattrs.Converter(detailed_validation=True, forbid_extra_keys=True)
"""The converter tool arguments are structured with."""
configure_converter(CONVERTER)
