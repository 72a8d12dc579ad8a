"""Property tests for typed tools: random records of random declared types, random values (NA, NaN,
the infinities, empty and one-row frames), under all 12 option sets and the 5 protocol versions.

- the JSON a typed tool writes validates against the schema derived for those options (jsonschema,
  Draft 2020-12), and against the schema each protocol version lists;
- the bytes are jsonlite's for the same R value (with its unbox() and I() marks), on a sample asked
  of R in one batch.
"""

from __future__ import annotations

import dataclasses
import datetime
import enum
import itertools
import json
import math
from typing import Annotated, Any, Literal

import jsonschema
import pandas as pd
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mcplite
import rvalues as rv
from mcplite.payload.rjson import encode_json
from mcplite.protocol.projection import project_tool, structured_for
from mcplite.tools.annotations import read
from mcplite.tools.output_schema import schema_of
from mcplite.tools.registry import ToolRegistry
from mcplite.tools.typed_values import typed_value
from rvalues.json import JsonOptions
from tests.conftest import requires_r
from tests.rbatch import ask_r

OPTION_SETS = [
    JsonOptions(na=na, null=null, auto_unbox=auto_unbox)
    for na, null, auto_unbox in itertools.product((None, "null", "string"), ("null", "list"), (True, False))
]
"""The 12 option sets: json_na unset/null/string x json_null null/list x json_auto_unbox."""


class Colour(enum.Enum):
    RED = "red"
    BLUE = "blue"


_floats = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=64).filter(
        lambda v: not 1.7975e308 <= abs(v) < math.inf
    ),
    st.sampled_from([0.0, -0.0, 1e15, 1 / 3, 2.5, 1e-5, math.nan, math.inf, -math.inf]),
)
_ints = st.integers(-(2**31) + 1, 2**31 - 1)
_text = st.text(alphabet='ab "\\\né\u65e5', max_size=4)
_dates = st.dates(datetime.date(1900, 1, 1), datetime.date(2100, 12, 31))
_datetimes = st.datetimes(datetime.datetime(1900, 1, 1), datetime.datetime(2100, 1, 1)).map(
    lambda d: d.replace(microsecond=0, tzinfo=datetime.UTC)
)

# each declared type: (annotation, strategy of values that fit it)
SCALARS: dict[str, tuple[Any, st.SearchStrategy[Any]]] = {
    "bool": (bool, st.booleans()),
    "int": (int, _ints),
    "float": (float, _floats),
    "str": (str, _text),
    "date": (datetime.date, _dates),
    "datetime": (datetime.datetime, _datetimes),
    "literal": (Literal["a", "b"], st.sampled_from(["a", "b"])),
    "enum": (Colour, st.sampled_from(list(Colour))),
    "float|None": (float | None, st.one_of(st.none(), _floats)),
}
VECTORS: dict[str, tuple[Any, st.SearchStrategy[Any]]] = {
    "Double": (rv.Double, st.lists(st.one_of(st.none(), _floats), max_size=3).map(rv.Double)),
    "Integer": (rv.Integer, st.lists(st.one_of(st.none(), _ints), max_size=3).map(rv.Integer)),
    "Logical": (rv.Logical, st.lists(st.one_of(st.none(), st.booleans()), max_size=3).map(rv.Logical)),
    "Character": (rv.Character, st.lists(st.one_of(st.none(), _text), max_size=3).map(rv.Character)),
    "Date": (rv.Date, st.lists(st.one_of(st.none(), _dates), max_size=3).map(rv.Date)),
}
# frame columns: (annotation, strategy of one cell, None for NA)
COLUMNS: dict[str, tuple[Any, st.SearchStrategy[Any]]] = {
    "bool": (bool, st.one_of(st.none(), st.booleans())),
    "int": (int, st.one_of(st.none(), _ints)),
    "float": (float, st.one_of(st.none(), _floats)),
    "str": (str, st.one_of(st.none(), _text)),
    "date": (datetime.date, st.one_of(st.none(), _dates)),
    "literal": (Literal["x", "y"], st.one_of(st.none(), st.sampled_from(["x", "y"]))),
}
_COLUMN_CLASSES = {
    "bool": rv.Logical,
    "int": rv.Integer,
    "float": rv.Double,
    "str": rv.Character,
    "date": rv.Date,
    "literal": rv.Character,
}


def _names(n: int) -> list[str]:
    return [f"f{i}" for i in range(n)]


@st.composite
def frames(draw: st.DrawFn) -> tuple[Any, Any]:
    """A frame type with declared rows and a frame of 0 to 3 rows (an R frame or a pandas frame)."""
    keys = draw(st.lists(st.sampled_from(sorted(COLUMNS)), min_size=1, max_size=3))
    names = _names(len(keys))
    row = dataclasses.make_dataclass("Row", [(name, COLUMNS[key][0]) for name, key in zip(names, keys)])
    nrow = draw(st.sampled_from([0, 1, 1, 2, 3]))
    cells = {
        name: draw(st.lists(COLUMNS[key][1], min_size=nrow, max_size=nrow)) for name, key in zip(names, keys)
    }
    if draw(st.booleans()):
        frame: Any = rv.data_frame_from_pairs(
            [(name, _COLUMN_CLASSES[key](cells[name])) for name, key in zip(names, keys)]
        )
    else:
        frame = pd.DataFrame({name: pd.Series(cells[name], dtype=object) for name in names})
    return Annotated[pd.DataFrame, mcplite.Rows(row)], frame


def _field(depth: int) -> st.SearchStrategy[tuple[Any, Any]]:
    leaves = st.one_of(
        st.sampled_from(sorted(SCALARS)).flatmap(lambda k: SCALARS[k][1].map(lambda v: (SCALARS[k][0], v))),
        st.sampled_from(sorted(VECTORS)).flatmap(lambda k: VECTORS[k][1].map(lambda v: (VECTORS[k][0], v))),
        frames(),
    )
    if depth == 0:
        return leaves
    return st.one_of(
        leaves,
        records(depth - 1),
        _field(depth - 1).flatmap(
            lambda tv: st.lists(st.just(tv[1]), max_size=2).map(lambda vs: (list[tv[0]], vs))  # type: ignore[valid-type]
        ),
        _field(depth - 1).map(lambda tv: (dict[str, tv[0]], {"k": tv[1]})),  # type: ignore[valid-type,misc]
    )


@st.composite
def records(draw: st.DrawFn, depth: int = 1) -> tuple[Any, Any]:
    """A dataclass of random field types, and an instance of it."""
    fields = draw(st.lists(_field(depth), min_size=1, max_size=4))
    names = _names(len(fields))
    cls = dataclasses.make_dataclass("Record", [(name, t) for name, (t, _) in zip(names, fields)])
    return cls, cls(*(v for _, v in fields))


typed_cases = st.one_of(records(), frames(), records(0).map(lambda tv: (list[tv[0]], [tv[1]])))  # type: ignore[valid-type]


def _written(annotation: Any, value: Any, options: JsonOptions) -> tuple[rv.RValue, str, dict[str, Any]]:
    x = typed_value(read(annotation), value)
    text = encode_json(x, options=options)
    return x, text, schema_of(read(annotation), options)


def _strict(text: str) -> Any:
    def refuse(token: str) -> Any:
        raise AssertionError(f"not RFC 8259 JSON: {token}")

    return json.loads(text, parse_constant=refuse)


@settings(max_examples=150, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=typed_cases, options=st.sampled_from(OPTION_SETS))
def test_written_json_validates_against_the_derived_schema(
    case: tuple[Any, Any], options: JsonOptions
) -> None:
    annotation, value = case
    _, text, schema = _written(annotation, value, options)
    jsonschema.Draft202012Validator.check_schema(schema)
    jsonschema.Draft202012Validator(schema).validate(_strict(text))


@settings(max_examples=60, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(case=typed_cases, options=st.sampled_from(OPTION_SETS))
def test_every_version_lists_a_schema_its_structured_content_fits(
    case: tuple[Any, Any], options: JsonOptions
) -> None:
    annotation, value = case

    def tool() -> Any:
        return value

    tool.__annotations__["return"] = annotation
    registered = ToolRegistry().add_tool(tool)
    assert registered.returns is not None
    result = registered.to_result(value, options)
    assert not result.is_error, result.content
    for version in mcplite.PROTOCOL_VERSIONS:
        listed = project_tool(registered.listed(options), version).output_schema
        structured = structured_for(result, version)
        if listed is None:  # before 2025-06-18, and a non-object schema before 2026-07-28
            assert version < "2025-06-18" or not listed_object(registered.listed(options))
            continue
        assert structured is not None, (version, listed)
        jsonschema.Draft202012Validator(listed).validate(_strict(structured.text))


def listed_object(tool: Any) -> bool:
    return bool(tool.output_schema.get("type") == "object")


@requires_r
def test_bytes_are_jsonlites_for_the_same_r_value() -> None:
    """A sample of the cases, each under a sampled option set, written by R's jsonlite in one batch."""
    cases: list[tuple[rv.RValue, JsonOptions, str]] = []

    @settings(max_examples=60, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
    @given(case=typed_cases, options=st.sampled_from(OPTION_SETS))
    def collect(case: tuple[Any, Any], options: JsonOptions) -> None:
        x, text, _ = _written(*case, options)
        cases.append((x, options, text))

    collect()
    asked = [
        {
            "x": rv.describe(x),
            "options": {"auto_unbox": o.auto_unbox, "null": o.null, **({"na": o.na} if o.na else {})},
        }
        for x, o, _ in cases
    ]
    answers = ask_r("tojson", asked)
    mismatches = [
        (text, answer)
        for (_, _, text), answer in zip(cases, answers, strict=True)
        if answer.get("json") != text
    ]
    assert not mismatches, mismatches[:3]


def test_there_are_twelve_option_sets() -> None:
    assert len(set(OPTION_SETS)) == 12


@pytest.mark.parametrize("options", OPTION_SETS)
def test_empty_and_one_row_frames_validate(options: JsonOptions) -> None:
    @dataclasses.dataclass
    class Row:
        g: Literal["a", "b"]
        mean: float
        n: int

    frame_type = Annotated[pd.DataFrame, mcplite.Rows(Row)]
    for frame in (
        pd.DataFrame({"g": [], "mean": [], "n": []}),
        pd.DataFrame({"g": ["a"], "mean": [math.nan], "n": [1]}),
        pd.DataFrame({"g": [None], "mean": [None], "n": [None]}),
    ):
        _, text, schema = _written(frame_type, frame, options)
        jsonschema.Draft202012Validator(schema).validate(_strict(text))
