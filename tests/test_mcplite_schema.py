"""Tool input schemas from type hints: every supported annotation, defaults, descriptions, refusals."""

from __future__ import annotations

import dataclasses
import datetime
import enum
from collections.abc import Callable, Mapping, Sequence
from typing import Annotated, Any, Literal, NotRequired, Optional, TypedDict, Union

import attrs
import pytest
from jsonschema import Draft202012Validator

from mcplite.tools.schema import description, input_schema


class Mode(str, enum.Enum):
    FAST = "fast"
    SLOW = "slow"


class Level(enum.IntEnum):
    LOW = 1
    HIGH = 2


@dataclasses.dataclass
class Point:
    x: float
    y: float = 0.0
    tags: list[str] = dataclasses.field(default_factory=list)
    hidden: int = dataclasses.field(default=0, init=False)


@attrs.define
class Box:
    corner: Point
    label: Annotated[str, "what the box holds"] = "box"
    size: int = attrs.Factory(lambda: 1)


# The functional syntax evaluates its types now, so NotRequired is seen under string annotations.
Row = TypedDict("Row", {"id": int, "name": NotRequired[str]})  # noqa: UP013


class Loose(TypedDict, total=False):
    note: str


@dataclasses.dataclass
class Node:
    value: int
    children: list[Node]


class Opaque:
    pass


def tool(annotation: Any, default: Any = dataclasses.MISSING) -> Callable[..., None]:
    """A one-parameter tool ``f(x)`` whose annotation (and default) are given."""

    def f(x):  # type: ignore[no-untyped-def]
        pass

    f.__annotations__ = {"x": annotation}
    if default is not dataclasses.MISSING:
        f.__defaults__ = (default,)
    return f


POINT = {
    "type": "object",
    "properties": {
        "x": {"type": "number"},
        "y": {"type": "number", "default": 0.0},
        "tags": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["x"],
    "additionalProperties": False,
}

KINDS: list[tuple[Any, dict[str, Any]]] = [
    (str, {"type": "string"}),
    (int, {"type": "integer"}),
    (float, {"type": "number"}),
    (bool, {"type": "boolean"}),
    (None, {"type": "null"}),
    (Any, {}),
    (Optional[int], {"anyOf": [{"type": "integer"}, {"type": "null"}]}),  # noqa: UP045
    (int | str | None, {"anyOf": [{"type": "integer"}, {"type": "string"}, {"type": "null"}]}),
    (Union[Point, list[int]], {"anyOf": [POINT, {"type": "array", "items": {"type": "integer"}}]}),  # noqa: UP007
    (Literal["fast"], {"const": "fast"}),
    (Literal["fast", "slow", 1, None, True], {"enum": ["fast", "slow", 1, None, True]}),
    (Literal[Mode.FAST, Level.HIGH], {"enum": ["fast", 2]}),
    (Mode, {"title": "Mode", "type": "string", "enum": ["fast", "slow"]}),
    (Level, {"title": "Level", "enum": [1, 2]}),
    (list, {"type": "array"}),
    (list[int], {"type": "array", "items": {"type": "integer"}}),
    (Sequence[str], {"type": "array", "items": {"type": "string"}}),
    (set[str], {"type": "array", "items": {"type": "string"}, "uniqueItems": True}),
    (frozenset[Level], {"type": "array", "items": {"title": "Level", "enum": [1, 2]}, "uniqueItems": True}),
    (tuple[float, ...], {"type": "array", "items": {"type": "number"}}),
    (
        tuple[int, str],
        {
            "type": "array",
            "prefixItems": [{"type": "integer"}, {"type": "string"}],
            "items": False,
            "minItems": 2,
            "maxItems": 2,
        },
    ),
    (dict, {"type": "object"}),
    (dict[str, Any], {"type": "object"}),
    (dict[str, int], {"type": "object", "additionalProperties": {"type": "integer"}}),
    (
        Mapping[str, list[bool]],
        {"type": "object", "additionalProperties": {"type": "array", "items": {"type": "boolean"}}},
    ),
    (
        Row,
        {
            "type": "object",
            "properties": {"id": {"type": "integer"}, "name": {"type": "string"}},
            "required": ["id"],
            "additionalProperties": False,
        },
    ),
    (Loose, {"type": "object", "properties": {"note": {"type": "string"}}, "additionalProperties": False}),
    (Point, POINT),
    (
        Box,
        {
            "type": "object",
            "properties": {
                "corner": POINT,
                "label": {"type": "string", "description": "what the box holds", "default": "box"},
                "size": {"type": "integer"},
            },
            "required": ["corner"],
            "additionalProperties": False,
        },
    ),
    (Annotated[int, {"not": "a description"}, "how many"], {"type": "integer", "description": "how many"}),
    (
        list[Annotated[int, "a count"]],
        {"type": "array", "items": {"type": "integer", "description": "a count"}},
    ),
    (datetime.date, {"type": "string", "format": "date"}),
    (datetime.datetime, {"type": "string", "format": "date-time"}),
]


@pytest.mark.parametrize(("annotation", "expected"), KINDS, ids=[repr(k[0]) for k in KINDS])
def test_each_supported_annotation(annotation: Any, expected: dict[str, Any]) -> None:
    schema = input_schema(tool(annotation))
    assert schema == {
        "type": "object",
        "properties": {"x": expected},
        "required": ["x"],
        "additionalProperties": False,
    }
    Draft202012Validator.check_schema(schema)


def test_a_typical_tool() -> None:
    def top(column: str, n: Annotated[int, "how many values"] = 5, mode: Mode = Mode.FAST) -> list[str]:
        """The most frequent values
        of a column.

        Ties are broken alphabetically.
        """
        return []

    assert input_schema(top) == {
        "type": "object",
        "properties": {
            "column": {"type": "string"},
            "n": {"type": "integer", "description": "how many values", "default": 5},
            "mode": {"title": "Mode", "type": "string", "enum": ["fast", "slow"], "default": "fast"},
        },
        "required": ["column"],
        "additionalProperties": False,
    }
    assert description(top) == "The most frequent values of a column."


def test_no_parameters_and_skipped_parameters() -> None:
    def ping() -> str:
        return "pong"

    def search(ctx: Opaque, query: str) -> None:
        pass

    assert input_schema(ping) == {"type": "object", "additionalProperties": False}
    assert input_schema(search, skip={"ctx"}) == {
        "type": "object",
        "properties": {"query": {"type": "string"}},
        "required": ["query"],
        "additionalProperties": False,
    }
    assert input_schema(search, skip=["ctx", "query"]) == {"type": "object", "additionalProperties": False}


def test_unannotated_parameters_take_any_value() -> None:
    def f(a, b=None):  # type: ignore[no-untyped-def]
        pass

    assert input_schema(f) == {
        "type": "object",
        "properties": {"a": {}, "b": {"default": None}},
        "required": ["a"],
        "additionalProperties": False,
    }


@pytest.mark.parametrize(
    ("default", "shown"),
    [
        ("a", "a"),
        (0, 0),
        (2.5, 2.5),
        (False, False),
        (None, None),
        ([1, "a", None], [1, "a", None]),
        ({"k": [1.5]}, {"k": [1.5]}),
        ((1, 2), [1, 2]),
        (Mode.SLOW, "slow"),
    ],
)
def test_plain_json_defaults_are_shown(default: Any, shown: Any) -> None:
    property_ = input_schema(tool(Any, default))["properties"]["x"]
    assert property_ == {"default": shown}


@pytest.mark.parametrize(
    "default", [float("nan"), float("inf"), Opaque(), {1, 2}, {1: "a"}, b"x", [object()]]
)
def test_other_defaults_are_left_out_but_still_optional(default: Any) -> None:
    assert input_schema(tool(Any, default)) == {
        "type": "object",
        "properties": {"x": {}},
        "additionalProperties": False,
    }


def test_string_annotations_give_the_same_schema_as_objects() -> None:
    # This module uses ``from __future__ import annotations``: ``strings`` has string annotations.
    def strings(a: int, b: list[Point] | None = None, c: Literal["x"] = "x") -> None:
        pass

    def objects(a, b=None, c="x"):  # type: ignore[no-untyped-def]
        pass

    objects.__annotations__ = {"a": int, "b": Optional[list[Point]], "c": Literal["x"]}  # noqa: UP045
    assert isinstance(strings.__annotations__["a"], str)
    assert input_schema(strings) == input_schema(objects)


def test_methods_and_callable_objects() -> None:
    class Tools:
        def count(self, table: str, limit: int = 10) -> int:
            """Count rows."""
            return 0

        def __call__(self, text: str) -> str:
            return text

    expected = {"type": "string"}
    assert input_schema(Tools().count)["properties"]["table"] == expected
    assert input_schema(Tools())["properties"] == {"text": expected}
    assert description(Tools().count) == "Count rows."


def test_description_is_the_first_paragraph() -> None:
    def none() -> None:
        pass

    def blank() -> None:
        """ """

    def one_line() -> None:
        """Add two numbers."""

    def paragraphs() -> None:
        """
        Add two
           numbers together.

        Returns their sum.
        """

    assert description(none) is None
    assert description(blank) is None
    assert description(one_line) == "Add two numbers."
    assert description(paragraphs) == "Add two numbers together."


REFUSED: list[tuple[Any, str]] = [
    (bytes, "has type bytes, which has no JSON Schema; use str (base64 for bytes)"),
    (complex, "has type complex, which has no JSON Schema; use float, or tuple[float, float]"),
    (Opaque, "has type Opaque, which has no JSON Schema; use str, int, float, bool, None, Literal"),
    (list[bytes], "has type list[bytes], and bytes has no JSON Schema; use str"),
    (Optional[Opaque], "has type Opaque | None, and Opaque has no JSON Schema"),  # noqa: UP045
    (dict[int, str], "has type dict[int, str], which has no JSON Schema; use dict[str, ...]"),
    (set[list[int]], "has type set[list[int]], which has no JSON Schema; use list[...]"),
    (set, "has type set, which has no JSON Schema; use list[...]"),
    (tuple[int, ..., str], "has no JSON Schema; use tuple[T, ...] or a tuple of fixed length"),
    (Literal[b"x"], "has type Literal[b'x'], which has no JSON Schema; use a Literal of str, int"),
    (Node, "has type Node, which refers to itself, and an inlined JSON Schema cannot nest"),
    (list[Node], "has type list[Node], and Node refers to itself"),
    (Callable[[int], int], "has type Callable[[int], int], which has no JSON Schema"),
]


@pytest.mark.parametrize(("annotation", "message"), REFUSED, ids=[repr(r[0]) for r in REFUSED])
def test_unsupported_annotations_are_refused_at_registration(annotation: Any, message: str) -> None:
    with pytest.raises(TypeError, match=r"^tool 'f': parameter 'x' ") as caught:
        input_schema(tool(annotation))
    assert message in str(caught.value)


def test_enums_with_non_json_values_are_refused() -> None:
    class Pair(enum.Enum):
        A = (1, 2)

    with pytest.raises(TypeError, match="which has no JSON Schema; use an Enum whose values are all"):
        input_schema(tool(Pair))


def test_typeddict_requiredness_lost_to_string_annotations_is_refused() -> None:
    class Hidden(TypedDict):  # string annotations: Python 3.11 takes ``name`` as required
        id: int
        name: NotRequired[str]

    with pytest.raises(
        TypeError, match=r"type Hidden, which marks 'name' NotRequired, but Python does not see it"
    ):
        input_schema(tool(Hidden))


def test_parameter_kinds_that_are_not_named_values_are_refused() -> None:
    def star(*values: int) -> None:
        pass

    def stars(**options: int) -> None:
        pass

    def positional(x: int, /) -> None:
        pass

    with pytest.raises(TypeError, match=r"^tool 'star': parameter '\*values' .*; use a list parameter$"):
        input_schema(star)
    with pytest.raises(
        TypeError, match=r"^tool 'stars': parameter '\*\*options' .*; use a dict\[str, \.\.\.\]"
    ):
        input_schema(stars)
    with pytest.raises(TypeError, match=r"^tool 'positional': parameter 'x' is positional-only"):
        input_schema(positional)
    assert input_schema(positional, skip={"x"}) == {"type": "object", "additionalProperties": False}


def test_unresolvable_hints_are_refused() -> None:
    def f(x: Undefined) -> None:  # type: ignore[name-defined]  # noqa: F821
        pass

    with pytest.raises(TypeError, match=r"^tool 'f': cannot resolve its type hints: name 'Undefined'"):
        input_schema(f)
