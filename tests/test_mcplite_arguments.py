"""Tool arguments: JSON Schema's rules, structured with cattrs, and one clear ArgumentError otherwise.

The property tests hold the binder to the schema: arguments bind exactly when jsonschema finds them
valid against the tool's input schema.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import functools
import re
import types
import typing
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Literal, NotRequired, Optional, TypedDict, Union

import attrs
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from jsonschema import Draft202012Validator

from mcplite.tools.annotations import ARRAY_TYPES, MAPPING_TYPES, SET_TYPES, class_fields, type_hints, unwrap
from mcplite.tools.arguments import ArgumentBinder, ArgumentError


class Mode(str, enum.Enum):
    FAST = "fast"
    SLOW = "slow"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


class Weight(enum.Enum):
    LIGHT = 0.5
    NONE = None
    ONE = 1


@dataclasses.dataclass
class Point:
    x: float
    y: float = 0.0


@attrs.define
class Box:
    corner: Point
    label: str = "box"
    tags: list[str] = attrs.Factory(list)


@attrs.define
class Positive:
    n: int = attrs.field()

    @n.validator
    def _check(self, attribute: Any, value: int) -> None:
        if value <= 0:
            raise ValueError("n must be positive")


class Context:
    """Stands for mcplite.Context, which the server leaves out of the schema."""


Row = TypedDict("Row", {"id": int, "name": NotRequired[str]})  # noqa: UP013 - sees NotRequired


def tool(annotation: Any) -> Callable[..., None]:
    """A tool ``f(x)`` with the given annotation."""

    def f(x):  # type: ignore[no-untyped-def]
        pass

    f.__annotations__ = {"x": annotation}
    return f


def bind_x(annotation: Any, value: Any) -> Any:
    return ArgumentBinder(tool(annotation)).bind({"x": value})["x"]


def refusal(annotation: Any, value: Any) -> str:
    with pytest.raises(ArgumentError) as caught:
        ArgumentBinder(tool(annotation)).bind({"x": value})
    return str(caught.value)


# -- the messages ---------------------------------------------------------------------------------------


def top(column: str, top: int = 5) -> None:
    pass


def test_wrong_type() -> None:
    with pytest.raises(ArgumentError) as caught:
        ArgumentBinder(top).bind({"column": "city", "top": "five"})
    assert str(caught.value) == "argument 'top': expected an integer, got 'five' (str)"
    assert (caught.value.parameter, caught.value.path) == ("top", "top")
    assert isinstance(caught.value, ValueError)


def test_missing_and_unexpected_arguments() -> None:
    binder = ArgumentBinder(top)
    with pytest.raises(ArgumentError, match=r"^missing required argument 'column'$") as caught:
        binder.bind({"top": 3})
    assert caught.value.parameter == "column"
    with pytest.raises(ArgumentError, match=r"^unexpected argument 'colour'; the arguments are column, top$"):
        binder.bind({"colour": "red", "top": 1})
    with pytest.raises(
        ArgumentError, match=r"^unexpected arguments 'a', 'b'; the arguments are column, top$"
    ):
        binder.bind({"column": "x", "a": 1, "b": 2})
    with pytest.raises(ArgumentError, match=r"^missing required argument 'column'$"):
        binder.bind(None)


def test_a_tool_without_parameters() -> None:
    def ping() -> None:
        pass

    assert ArgumentBinder(ping).bind(None) == {}
    assert ArgumentBinder(ping).bind({}) == {}
    with pytest.raises(ArgumentError, match=r"^unexpected argument 'x'; the tool takes none$"):
        ArgumentBinder(ping).bind({"x": 1})


def test_arguments_that_are_not_an_object() -> None:
    with pytest.raises(
        ArgumentError, match=r"^the arguments must be an object, got \[1\] \(list\)$"
    ) as caught:
        ArgumentBinder(top).bind([1])  # type: ignore[arg-type]
    assert caught.value.parameter is None


def test_choices() -> None:
    def run(mode: Literal["fast", "slow"]) -> None:
        pass

    with pytest.raises(
        ArgumentError, match=r"^argument 'mode': expected one of 'fast', 'slow', got 'medium'$"
    ):
        ArgumentBinder(run).bind({"mode": "medium"})
    assert refusal(Mode, "medium") == "argument 'x': expected one of 'fast', 'slow', got 'medium'"
    assert refusal(Mode, 1) == "argument 'x': expected one of 'fast', 'slow', got 1 (int)"
    assert refusal(Literal["on"], "off") == "argument 'x': expected 'on', got 'off'"


def test_nested_paths() -> None:
    def place(point: Point, rows: list[Row], box: Box | None = None, weights: dict[str, float] | None = None):  # type: ignore[no-untyped-def]
        pass

    binder = ArgumentBinder(place)
    good: dict[str, Any] = {"point": {"x": 1}, "rows": [{"id": 1}]}

    def message(**change: Any) -> tuple[str, str | None, str | None]:
        with pytest.raises(ArgumentError) as caught:
            binder.bind({**good, **change})
        return str(caught.value), caught.value.parameter, caught.value.path

    assert message(point={"x": None}) == (
        "argument 'point.x': expected a number, got None",
        "point",
        "point.x",
    )
    assert message(point={"y": 1})[0] == "missing required argument 'point.x'"
    assert message(point={"x": 1, "z": 2})[0] == "unexpected argument 'point.z'; the keys of 'point' are x, y"
    assert message(point=[1, 2])[0] == "argument 'point': expected an object (Point), got [1, 2] (list)"
    rows = [{"id": 1}, {"id": 2}, {"id": "3"}]
    assert message(rows=rows)[0] == "argument 'rows[2].id': expected an integer, got '3' (str)"
    assert message(rows=[{"id": 1}, {"name": "x"}])[0] == "missing required argument 'rows[1].id'"
    assert (
        message(box={"corner": {"x": True}})[0]
        == "argument 'box.corner.x': expected a number, got True (bool)"
    )
    assert message(box={"corner": {"x": 1}, "tags": ["a", 2]})[0] == (
        "argument 'box.tags[1]': expected a string, got 2 (int)"
    )
    assert message(box=5)[0] == "argument 'box': expected an object (Box) or null, got 5 (int)"
    assert (
        message(weights={"a b": "heavy"})[0]
        == """argument 'weights["a b"]': expected a number, got 'heavy' (str)"""
    )


def test_long_values_are_cut() -> None:
    text = refusal(int, "x" * 500)
    assert text == f"argument 'x': expected an integer, got {'x' * 500!r:.80} (str)"
    assert len(text) < 140


def test_a_class_that_refuses_its_fields() -> None:
    assert refusal(Positive, {"n": 0}) == "argument 'x': invalid Positive: n must be positive"
    assert bind_x(Positive, {"n": 2}) == Positive(2)


def test_unknown_keys_are_reported_before_missing_ones() -> None:
    assert refusal(Point, {"X": 1}) == "unexpected argument 'x.X'; the keys of 'x' are x, y"


# -- the strict rules -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("annotation", "value", "expected"),
    [
        (int, 5, 5),
        (int, 5.0, 5),
        (int, -(2**70), -(2**70)),
        (float, 5, 5.0),
        (float, 2.5, 2.5),
        (str, "", ""),
        (bool, False, False),
        (None, None, None),
        (Any, {"a": [1]}, {"a": [1]}),
        (Literal[1], 1.0, 1),
        (Literal[Mode.FAST], "fast", Mode.FAST),
        (Mode, "slow", Mode.SLOW),
        (Level, 2, Level.HIGH),
        (Level, 2.0, Level.HIGH),
        (Weight, None, Weight.NONE),
        (Weight, 0.5, Weight.LIGHT),
        (list[int], [1, 2.0], [1, 2]),
        (Sequence[str], ["a"], ["a"]),
        (set[int], [1, 2], {1, 2}),
        (frozenset[str], ["a"], frozenset({"a"})),
        (tuple[int, ...], [1, 2], (1, 2)),
        (tuple[int, str], [1, "a"], (1, "a")),
        (dict[str, float], {"a": 1}, {"a": 1.0}),
        (Mapping[str, Any], {"a": None}, {"a": None}),
        (Row, {"id": 1}, {"id": 1}),
        (Point, {"x": 1}, Point(1.0, 0.0)),
        (Box, {"corner": {"x": 1, "y": 2}, "tags": []}, Box(Point(1.0, 2.0), "box", [])),
        (Annotated[int, "a count"], 3, 3),
        (Optional[Point], None, None),  # noqa: UP045
        (Optional[Point], {"x": 0}, Point(0.0)),  # noqa: UP045
        (datetime.date, "2024-02-29", datetime.date(2024, 2, 29)),
        (
            datetime.datetime,
            "2024-05-01T12:30:00.123456789+02:00",
            datetime.datetime(2024, 5, 1, 12, 30, 0, 123456, datetime.timezone(datetime.timedelta(hours=2))),
        ),
        (
            datetime.datetime,
            "2024-05-01t12:30:00z",
            datetime.datetime(2024, 5, 1, 12, 30, tzinfo=datetime.UTC),
        ),
    ],
)
def test_accepted(annotation: Any, value: Any, expected: Any) -> None:
    result = bind_x(annotation, value)
    assert result == expected
    assert type(result) is type(expected)


@pytest.mark.parametrize(
    ("annotation", "value", "message"),
    [
        (int, True, "expected an integer, got True (bool)"),
        (int, 5.5, "expected an integer, got 5.5 (float)"),
        (int, "5", "expected an integer, got '5' (str)"),
        (float, True, "expected a number, got True (bool)"),
        (float, "1", "expected a number, got '1' (str)"),
        (float, float("inf"), "expected a finite number, got inf (float)"),
        (float, float("nan"), "expected a finite number, got nan (float)"),
        (float, 10**400, "expected a number within the range of a float, got 1000"),
        (str, 1, "expected a string, got 1 (int)"),
        (bool, 1, "expected a boolean, got 1 (int)"),
        (bool, "true", "expected a boolean, got 'true' (str)"),
        (None, 0, "expected null, got 0 (int)"),
        (Literal[1], True, "expected 1, got True (bool)"),
        (Literal[True], 1, "expected True, got 1 (int)"),
        (Level, True, "expected one of 1, 2, got True (bool)"),
        (Level, 3, "expected one of 1, 2, got 3"),
        (list[int], "12", "expected an array, got '12' (str)"),
        (list[int], {"0": 1}, "expected an array, got {'0': 1} (dict)"),
        (set[int], [1, 1.0], "expected an array of unique items, got [1, 1.0] (list)"),
        (tuple[int, str], [1], "expected an array of 2 items, got [1] (list)"),
        (tuple[int, str], [1, "a", None], "expected an array of 2 items, got [1, 'a', None] (list)"),
        (dict[str, int], [], "expected an object, got [] (list)"),
        (Optional[int], "x", "expected an integer or null, got 'x' (str)"),  # noqa: UP045
        (int | str, None, "expected an integer or a string, got None"),
        (Literal["a", "b"] | int, "c", "expected one of 'a', 'b' or an integer, got 'c' (str)"),
        (datetime.date, "2024-02-30", "expected a date such as '2024-05-01', got '2024-02-30' (str)"),
        (datetime.date, "20240101", "expected a date such as '2024-05-01', got '20240101' (str)"),
        (
            datetime.datetime,
            "2024-05-01T12:00:00",
            "expected a date-time such as '2024-05-01T12:00:00Z', got",
        ),
        (datetime.datetime, "2024-05-01T23:59:60Z", "expected a date-time"),
        (datetime.datetime, "2024-05-01T12:00:00+24:00", "expected a date-time"),
    ],
)
def test_refused(annotation: Any, value: Any, message: str) -> None:
    assert refusal(annotation, value).startswith(f"argument 'x': {message}")


@pytest.mark.parametrize(
    ("annotation", "value", "expected"),
    [
        (int | float, 5, 5),
        (int | float, 5.0, 5.0),
        (float | int, 5, 5),
        (int | str, 5.0, 5),
        (str | int, "5", "5"),
        (bool | int, 1, 1),
        (int | bool, True, True),
        (Literal[1] | float, 1.0, 1.0),
        (Literal[1] | str, 1.0, 1),
        (Point | list[float], [1], [1.0]),
    ],
)
def test_unions_take_the_exact_type_first(annotation: Any, value: Any, expected: Any) -> None:
    result = bind_x(annotation, value)
    assert (result, type(result)) == (expected, type(expected))


def test_defaults_are_left_to_python() -> None:
    def f(a: int, b: list[int] | None = None, c: Mode = Mode.FAST) -> None:
        pass

    assert ArgumentBinder(f).bind({"a": 1}) == {"a": 1}
    assert ArgumentBinder(f).bind({"a": 1, "b": None, "c": "slow"}) == {"a": 1, "b": None, "c": Mode.SLOW}


def test_skipped_parameters_are_neither_in_the_schema_nor_accepted() -> None:
    def search(ctx: Context, query: str) -> None:
        pass

    binder = ArgumentBinder(search, skip={"ctx"})
    assert list(binder.schema["properties"]) == ["query"]
    assert binder.bind({"query": "q"}) == {"query": "q"}
    with pytest.raises(ArgumentError, match=r"^unexpected argument 'ctx'; the arguments are query$"):
        binder.bind({"query": "q", "ctx": {}})


def test_unsupported_annotations_fail_when_the_binder_is_built() -> None:
    with pytest.raises(TypeError, match=r"^tool 'f': parameter 'x' has type bytes"):
        ArgumentBinder(tool(bytes))


# -- the schema and the binder agree ----------------------------------------------------------------------

JSON = st.recursive(
    st.none()
    | st.booleans()
    | st.integers()
    | st.floats(allow_nan=False, allow_infinity=False)
    | st.text(max_size=6),
    lambda children: (
        st.lists(children, max_size=4) | st.dictionaries(st.text(max_size=4), children, max_size=4)
    ),
    max_leaves=10,
)
INTEGRAL_FLOATS = st.integers(-(10**6), 10**6).map(float)
DATE_TIME = r"\d{4}-[01]\d-[0-3]\dT[0-2]\d:[0-6]\d:[0-6]\d(\.\d{1,9})?(Z|z|[+-][0-2]\d:[0-6]\d)"


def near(annotation: Any, odds: int = 4) -> st.SearchStrategy[Any]:
    """JSON shaped like the annotation, each part replaced by any JSON value once in odds + 1 (0: never)."""
    if odds == 0:
        return shaped(annotation, odds)
    return st.integers(0, odds).flatmap(lambda i: JSON if i == 0 else shaped(annotation, odds))


def shaped(annotation: Any, odds: int) -> st.SearchStrategy[Any]:
    annotation = unwrap(annotation)[0]
    origin, args = typing.get_origin(annotation), typing.get_args(annotation)
    if annotation is Any:
        return JSON
    if annotation is None:
        return st.none()
    simple: dict[Any, st.SearchStrategy[Any]] = {
        str: st.text(max_size=6),
        int: st.integers() | INTEGRAL_FLOATS,
        float: st.floats(allow_nan=False, allow_infinity=False) | st.integers(),
        bool: st.booleans(),
        type(None): st.none(),
        datetime.date: st.dates().map(str) | st.from_regex(r"\d{4}-[01]\d-[0-3]\d", fullmatch=True),
        datetime.datetime: st.datetimes(timezones=st.just(datetime.UTC)).map(lambda d: d.isoformat())
        | st.from_regex(DATE_TIME, fullmatch=True),
    }
    if annotation in simple:
        return simple[annotation]
    if origin is Literal:
        return st.sampled_from([getattr(arg, "value", arg) for arg in args])
    if isinstance(annotation, type) and issubclass(annotation, enum.Enum):
        return st.sampled_from([member.value for member in annotation])
    if origin in (Union, types.UnionType):
        return st.one_of([near(arg, odds) for arg in args])
    if annotation in ARRAY_TYPES or origin in ARRAY_TYPES or origin in SET_TYPES:
        return st.lists(near(args[0] if args else Any, odds), max_size=4)
    if origin is tuple:
        if args[-1] is Ellipsis:
            return st.lists(near(args[0], odds), max_size=4)
        return st.tuples(*(near(arg, odds) for arg in args)).map(list)
    if annotation in MAPPING_TYPES or origin in MAPPING_TYPES:
        return st.dictionaries(st.text(max_size=4), near(args[1] if args else Any, odds), max_size=3)
    if typing.is_typeddict(annotation):
        hints = typing.get_type_hints(annotation)
        required = {
            key: near(hint, odds) for key, hint in hints.items() if key in annotation.__required_keys__
        }
        optional = {key: near(hint, odds) for key, hint in hints.items() if key not in required}
        return objects(required, optional, odds)
    fields = class_fields(annotation)
    required = {name: near(hint, odds) for name, hint, is_required, _ in fields if is_required}
    optional = {name: near(hint, odds) for name, hint, is_required, _ in fields if not is_required}
    return objects(required, optional, odds)


def objects(
    required: dict[str, st.SearchStrategy[Any]], optional: dict[str, st.SearchStrategy[Any]], odds: int
) -> st.SearchStrategy[dict[str, Any]]:
    """Objects with the required keys, or (unless odds is 0) with any of the keys and maybe an unknown one."""
    right = st.fixed_dictionaries(required, optional=optional)
    if odds == 0:
        return right
    return right | st.fixed_dictionaries({}, optional={**required, **optional, "extra": JSON})


def test_the_validator_checks_the_formats_our_schemas_use() -> None:
    """Without jsonschema's format extra, date-time goes unchecked and the agreement test below lies."""
    checker = Draft202012Validator.FORMAT_CHECKER
    assert not checker.conforms("0000-00-00T00:00:00Z", "date-time")
    assert not checker.conforms("2024-13-01", "date")


@functools.cache
def checked(func: Callable[..., Any]) -> tuple[ArgumentBinder, Draft202012Validator]:
    """A tool's binder, and a validator for its schema (which must be a valid 2020-12 schema)."""
    binder = ArgumentBinder(func)
    Draft202012Validator.check_schema(binder.schema)
    return binder, Draft202012Validator(binder.schema, format_checker=Draft202012Validator.FORMAT_CHECKER)


def agree(func: Callable[..., Any], arguments: dict[str, Any]) -> bool:
    """Check that arguments bind exactly when the schema validates them; say whether they did."""
    binder, validator = checked(func)
    valid = validator.is_valid(arguments)
    try:
        binder.bind(arguments)
    except ArgumentError as exc:
        assert not valid, f"refused valid arguments {arguments!r}: {exc}"
    else:
        assert valid, (
            f"accepted invalid arguments {arguments!r}: {next(validator.iter_errors(arguments)).message}"
        )
    return valid


TOOLS: dict[Any, Callable[..., None]] = {}


EVERY_KIND: list[Any] = [
    str,
    int,
    float,
    bool,
    None,
    Any,
    Optional[int],  # noqa: UP045
    int | float,
    int | str | None,
    bool | int,
    Literal["a", 1, None, True],
    Literal[1] | float,
    Mode,
    Level,
    Weight,
    list,
    list[int],
    Sequence[float],
    set[str],
    frozenset[int],
    frozenset[Level],
    tuple[int, ...],
    tuple[int, str | None],
    dict,
    dict[str, int],
    Mapping[str, list[bool]],
    Row,
    Point,
    Box,
    list[Point | None],
    Annotated[int, "a count"],
    datetime.date,
    datetime.datetime,
]


@pytest.mark.parametrize("annotation", EVERY_KIND, ids=[repr(a) for a in EVERY_KIND])
@settings(max_examples=40, derandomize=True, deadline=None)
@given(data=st.data())
def test_each_kind_binds_exactly_what_its_schema_validates(annotation: Any, data: st.DataObject) -> None:
    func = TOOLS.setdefault(annotation, tool(annotation))
    agree(func, {"x": data.draw(near(annotation))})


def every_kind(  # type: ignore[no-untyped-def]
    a: int,
    b: float,
    c: str,
    d: bool | None,
    e: Literal["fast", "slow"],
    f: Level,
    g: list[Point],
    h: tuple[int, str],
    i: set[int],
    j: dict[str, float],
    k: Row,
    m: Box | None = None,
    n: Annotated[datetime.date, "a day"] = datetime.date(2024, 1, 1),
    o: Any = None,
    p=None,
):
    pass


@settings(max_examples=200, derandomize=True, deadline=None)
@given(data=st.data())
def test_a_tool_with_every_kind_binds_exactly_what_its_schema_validates(data: st.DataObject) -> None:
    binder, _ = checked(every_kind)
    hints = type_hints(every_kind)
    odds = data.draw(st.sampled_from([0, 50, 4]))
    fields = {name: near(hints.get(name, Any), odds) for name in binder.schema["properties"]}
    required = {name: fields[name] for name in binder.schema["required"]}
    optional = {name: fields[name] for name in fields if name not in required}
    agree(every_kind, data.draw(objects(required, optional, odds)))


@settings(max_examples=100, derandomize=True, deadline=None)
@given(arguments=JSON)
def test_bind_raises_only_argument_errors(arguments: Any) -> None:
    try:
        ArgumentBinder(every_kind).bind(arguments)
    except ArgumentError as exc:
        assert re.match(r"^(argument '|missing|unexpected|the arguments)", str(exc))
