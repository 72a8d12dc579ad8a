"""One test per rule of the return values (return-value mappings and payload JSON options).

Every expected JSON comes from R 4.2.2 + jsonlite 1.8.4 via ``tests/r/mcplite_cases.R``
(vendored in ``tests/data/mcplite-r.json``). Each case is built here with rvalues' constructors
and checked to be the very R value R described, before mcplite's output is compared with R's.
"""

from __future__ import annotations

import json
import math
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import mcplite
from mcplite.payload.returned import to_r
from rvalues import (
    NA,
    NULL,
    Character,
    I,
    Integer,
    Logical,
    NA_character_,
    NA_complex_,
    NA_integer_,
    NA_real_,
    as_date,
    c,
    data_frame,
    factor,
    from_description,
    identical,
    matrix,
    r_list,
    unbox,
)

DATA = Path(__file__).parent / "data" / "mcplite-r.json"
R_DATA: dict[str, Any] = json.loads(DATA.read_text(encoding="utf-8"))
OPTION_SETS: dict[str, dict[str, Any]] = R_DATA["option_sets"]
CASES: dict[tuple[str, str], dict[str, Any]] = {(case["kind"], case["id"]): case for case in R_DATA["cases"]}

try:
    from rvalues.json import to_json  # noqa: F401
except ImportError:
    pytest.skip("rvalues.json (the jsonlite layer) is not there yet", allow_module_level=True)


def json_object(text: str) -> Character:
    return Character([text], {"class": "json"})


# The Python spelling of each R expression in tests/r/mcplite_cases.R.
ORDINARY: dict[str, Callable[[], Any]] = {
    "character_scalar": lambda: "done",
    "json_looking_string": lambda: '{"a": 1}',
    "character_vector": lambda: c("a", "b", "c"),
    "character_vector_with_na": lambda: c("a", NA, "c"),
    "character_na": lambda: NA_character_,
    "character_empty": lambda: Character([]),
    "character_named": lambda: c(first="x", second="y"),
    "character_multiline": lambda: c("one\ntwo", "three"),
    "jsonlite_json_object": lambda: json_object('{"a":1}'),
    "own_json_text": lambda: '{"x":[null]}',
    "null": lambda: None,
    "empty_list": lambda: [],
    "empty_named_list": lambda: {},
    "empty_asis_list": lambda: I([]),
    "integer_scalar": lambda: 1,
    "double_scalar": lambda: 1.5,
    "double_digits": lambda: math.pi,
    "double_vector": lambda: c(1.0, 2.5, 3.0),
    "logical_scalar": lambda: True,
    "logical_na": lambda: NA,
    "integer_na": lambda: NA_integer_,
    "double_na": lambda: NA_real_,
    "non_finite": lambda: c(NA_real_, math.nan, math.inf, -math.inf),
    "named_list": lambda: {"ok": True, "n": 2},
    "nested_list": lambda: {"a": 1.0, "b": [], "c": {"d": "x"}},
    "list_with_null": lambda: {"a": None, "b": 1.0},
    "unnamed_list": lambda: [1.0, "a", True],
    "list_of_strings": lambda: ["a", "b"],
    "data_frame": lambda: data_frame(id=Integer([1, 2]), missing=c(NA, 1.5)),
    "factor": lambda: factor(["b", "a", "b"]),
    "date": lambda: as_date(["2024-01-02"]),
    "matrix": lambda: matrix(Integer([1, 2, 3, 4]), nrow=2),
    "asis_scalar": lambda: I(1),
    "unboxed_scalar": lambda: unbox(2),
    "named_vector": lambda: c(a=1.0, b=2.0),
    "nested_json_object": lambda: {"x": json_object('{"a":1}')},
    "raw_bytes": lambda: b"\x01\x02\xff",
    "complex_scalar": lambda: 1 + 2j,
    "double_max": lambda: 1.7976931348623157e308,
    "numpy_vector": lambda: np.array([1.5, 2.0, np.nan]),
    "numpy_matrix": lambda: np.array([[1, 3, 5], [2, 4, 6]]),
    "numpy_scalar": lambda: np.int64(5),
    "pandas_frame": lambda: pd.DataFrame({"id": [1, 2], "name": ["a", None]}),
}

STRUCTURED: dict[str, Callable[[], Any]] = {
    "object": lambda: {"ok": True},
    "character_vector": lambda: c("a", "b"),
    "string_scalar": lambda: "done",
    "json_looking_string": lambda: '{"a": 1}',
    "jsonlite_json_object": lambda: json_object('{"a":1}'),
    "nested_json_object": lambda: {"payload": json_object("[1,2]")},
    "empty_list": lambda: [],
    "empty_named_list": lambda: {},
    "asis_empty_list": lambda: I([]),
    "nested_empty_list": lambda: {"items": []},
    "nested_asis_empty_list": lambda: {"items": I([])},
    "list_of_empty_list": lambda: [[]],
    "logical_na": lambda: NA,
    "character_na": lambda: NA_character_,
    "integer_na": lambda: NA_integer_,
    "double_na": lambda: NA_real_,
    "complex_na": lambda: NA_complex_,
    "null": lambda: NULL,
    "named_null_field": lambda: {"a": None, "b": 1},
    "na_fields": lambda: r_list(a=NA, b=NA_integer_, c=NA_real_, d=math.nan, e=math.inf, f=NA_character_),
    "non_finite": lambda: c(NA_real_, math.nan, math.inf, -math.inf),
    "data_frame_missing": lambda: data_frame(id=Integer([1, 2]), missing=c(NA_real_, 2.0)),
    "seed_example": lambda: r_list(
        count=Integer([1]),
        values=c(NA_real_, math.nan, math.inf, -math.inf),
        rows=data_frame(id=Integer([1]), missing=NA_real_),
    ),
    "integer_scalar": lambda: 1,
    "double_digits": lambda: {"x": 3.14159265, "y": 1e10, "z": 0.000012345},
    "asis_scalar": lambda: I(1),
    "asis_string": lambda: I("done"),
    "unboxed_scalar": lambda: {"x": unbox(1), "y": 2},
    "unboxed_data_frame": lambda: unbox(data_frame(x=Integer([1]), y="a")),
    "named_vector": lambda: c(a=1.0, b=2.0),
    "factor": lambda: {"f": factor(["b", "a"])},
    "date": lambda: {"d": as_date(["2024-01-02"])},
    "matrix": lambda: matrix(Integer([1, 2, 3, 4]), nrow=2),
    "data_frame": lambda: data_frame(x=Integer([1, 2]), y=Character(["a", None])),
    "unnamed_list": lambda: [1, "a"],
    "nested_object": lambda: {"a": {"b": {"c": 1}}},
    "logical_vector": lambda: Logical([True, None, False]),
    "numpy_vector": lambda: {"x": np.array([1.5, 2.0, np.nan])},
    "pandas_frame": lambda: pd.DataFrame({"id": [1, 2], "name": ["a", None]}),
    "pandas_series": lambda: {"s": pd.Series([1.5, None])},
}


@pytest.fixture(autouse=True)
def default_options(utc: None) -> Iterator[None]:
    """Every test starts and ends with the options unset."""
    mcplite.options(json_null=None, json_na=None, json_auto_unbox=None)
    yield
    mcplite.options(json_null=None, json_na=None, json_auto_unbox=None)


def case(kind: str, case_id: str) -> dict[str, Any]:
    return CASES[(kind, case_id)]


def value_of(kind: str, case_id: str) -> Any:
    """The Python value of a case, checked to be exactly the R value R described."""
    value = (ORDINARY if kind == "ordinary" else STRUCTURED)[case_id]()
    expected = from_description(case(kind, case_id)["value"])
    assert identical(to_r(value), expected), (
        f"{case_id}: the Python value is not R's {case(kind, case_id)['expr']}"
    )
    return value


def ordinary_text(value: Any) -> str:
    result = mcplite.as_tool_result(value)
    assert len(result.content) == 1 and result.content[0].type == "text"
    assert result.structured_content is mcplite.ABSENT
    return result.content[0].text


def check_structured(case_id: str, option_set: str) -> mcplite.CallToolResult:
    """Build the case under the option set; compare structured content and fallback with R."""
    expected = case("structured", case_id)["outputs"][option_set]
    value = value_of("structured", case_id)
    with mcplite.options(**OPTION_SETS[option_set]):
        result = mcplite.tool_result(structured_content=value)
    if not expected["present"]:
        assert result.structured_content is mcplite.ABSENT
        assert result.content == []
        return result
    assert [block.type for block in result.content] == ["text"]
    assert result.content[0].text == expected["json"]
    assert result.structured_content == json.loads(expected["json"])
    return result


def test_vendored_r_data_is_from_r_4_2_2_and_jsonlite_1_8_4() -> None:
    assert R_DATA["r"].startswith("R version 4.2.2") and R_DATA["jsonlite"] == "1.8.4"
    assert {k for k, _ in CASES} == {"ordinary", "structured"}
    assert set(ORDINARY) == {i for k, i in CASES if k == "ordinary"}
    assert set(STRUCTURED) == {i for k, i in CASES if k == "structured"}


# -- "Tools can return ordinary R values for text conversion, or tool_result() for explicit MCP
#     content and structured data."


def test_ordinary_values_become_one_text_block() -> None:
    result = mcplite.as_tool_result(r_list(ok=True))
    assert isinstance(result, mcplite.CallToolResult)
    assert result.to_wire("2025-06-18") == {"content": [{"type": "text", "text": '{"ok":true}'}]}


def test_tool_result_passes_through_as_tool_result() -> None:
    explicit = mcplite.tool_result([mcplite.content_text("hi")], structured_content={"n": 1})
    assert mcplite.as_tool_result(explicit) is explicit


# -- Ordinary return values


def test_character_scalar_becomes_literal_text() -> None:
    for case_id in ("character_scalar", "json_looking_string"):
        value = value_of("ordinary", case_id)
        expected = case("ordinary", case_id)["outputs"]["defaults"]["text"]
        assert ordinary_text(value) == expected == value
        assert ordinary_text(Character([value])) == expected


@pytest.mark.parametrize(
    "case_id",
    [
        "character_vector",
        "character_vector_with_na",
        "character_na",
        "character_empty",
        "character_named",
        "character_multiline",
    ],
)
def test_character_vectors_are_joined_with_newlines(case_id: str) -> None:
    """NA elements are written NA, as R's paste(x, collapse = "\\n") writes them."""
    value = value_of("ordinary", case_id)
    assert ordinary_text(value) == case("ordinary", case_id)["outputs"]["defaults"]["text"]


@pytest.mark.parametrize("option_set", list(OPTION_SETS))
def test_character_text_does_not_depend_on_the_payload_options(option_set: str) -> None:
    for case_id in ("character_vector_with_na", "character_scalar", "jsonlite_json_object"):
        value = value_of("ordinary", case_id)
        with mcplite.options(**OPTION_SETS[option_set]):
            text = ordinary_text(value)
        assert text == case("ordinary", case_id)["outputs"][option_set]["text"]
        assert text == case("ordinary", case_id)["outputs"]["defaults"]["text"]


NONCHARACTER = [
    i
    for (k, i), c_ in CASES.items()
    if k == "ordinary" and c_["value"]["type"] != "character" and i not in ("null", "empty_list")
]


@pytest.mark.parametrize("option_set", list(OPTION_SETS))
@pytest.mark.parametrize("case_id", NONCHARACTER)
def test_other_values_become_json_in_one_text_block(case_id: str, option_set: str) -> None:
    value = value_of("ordinary", case_id)
    with mcplite.options(**OPTION_SETS[option_set]):
        text = ordinary_text(value)
    assert text == case("ordinary", case_id)["outputs"][option_set]["text"]


def test_bare_lists_are_ordinary_values_not_result_objects() -> None:
    looks_like_a_result = {"content": [{"type": "text", "text": "x"}], "isError": True}
    result = mcplite.as_tool_result(looks_like_a_result)
    assert result.is_error is False
    assert result.content[0].text == '{"content":[{"type":"text","text":"x"}],"isError":true}'
    blocks = [mcplite.content_text("a")]
    assert mcplite.as_tool_result(blocks).content[0].text == '[{"type":"text","text":"a"}]'
    assert (
        mcplite.as_tool_result(["a", "b"]).content[0].text
        == case("ordinary", "list_of_strings")["outputs"]["defaults"]["text"]
    )


@pytest.mark.parametrize("option_set", list(OPTION_SETS))
def test_ordinary_null_becomes_empty_object_text(option_set: str) -> None:
    value_of("ordinary", "null")
    expected = case("ordinary", "null")["outputs"][option_set]["text"]
    with mcplite.options(**OPTION_SETS[option_set]):
        assert ordinary_text(None) == ordinary_text(NULL) == expected == "{}"


@pytest.mark.parametrize("option_set", list(OPTION_SETS))
def test_ordinary_unnamed_empty_list_becomes_empty_array_text(option_set: str) -> None:
    value_of("ordinary", "empty_list")
    expected = case("ordinary", "empty_list")["outputs"][option_set]["text"]
    with mcplite.options(**OPTION_SETS[option_set]):
        assert ordinary_text([]) == ordinary_text(()) == ordinary_text(r_list()) == expected == "[]"
        named = case("ordinary", "empty_named_list")["outputs"][option_set]["text"]
        assert ordinary_text(value_of("ordinary", "empty_named_list")) == named


def test_own_json_returned_as_character_text_is_sent_verbatim() -> None:
    """The seed's as.character(jsonlite::toJSON(value, na = "null")): R made the text."""
    value = value_of("ordinary", "own_json_text")
    assert ordinary_text(value) == case("ordinary", "own_json_text")["outputs"]["defaults"]["text"]
    with mcplite.options(json_na="string", json_auto_unbox=False):
        assert ordinary_text(value) == '{"x":[null]}'


def test_json_looking_strings_and_json_objects_are_never_parsed() -> None:
    for case_id in ("json_looking_string", "jsonlite_json_object", "nested_json_object"):
        value = value_of("ordinary", case_id)
        assert ordinary_text(value) == case("ordinary", case_id)["outputs"]["defaults"]["text"]
    assert ordinary_text('{"a": 1}') == '{"a": 1}'  # not re-serialized: the spaces stay


JSON_STRINGS = {
    "json_looking_string": '{"a": 1}',
    "jsonlite_json_object": '{"a":1}',
    "nested_json_object": "[1,2]",
}


@pytest.mark.parametrize("option_set", list(OPTION_SETS))
@pytest.mark.parametrize("case_id", list(JSON_STRINGS))
def test_json_strings_remain_string_values_in_structured_content(case_id: str, option_set: str) -> None:
    data = check_structured(case_id, option_set).structured_content
    if isinstance(data, dict):
        data = data["payload"]
    if isinstance(data, list):  # json_auto_unbox=False keeps the singleton an array
        (data,) = data
    assert data == JSON_STRINGS[case_id]


# -- Structured-content mappings


@pytest.mark.parametrize("option_set", list(OPTION_SETS))
@pytest.mark.parametrize("case_id", list(STRUCTURED))
def test_structured_values_follow_jsonlite_and_the_payload_options(case_id: str, option_set: str) -> None:
    check_structured(case_id, option_set)


@pytest.mark.parametrize("option_set", list(OPTION_SETS))
def test_bare_empty_list_at_the_structured_root_is_an_empty_object(option_set: str) -> None:
    for case_id in ("empty_list", "empty_named_list"):
        result = check_structured(case_id, option_set)
        assert result.structured_content == {}
        assert result.content[0].text == "{}"
    assert mcplite.tool_result(structured_content=r_list()).structured_content == {}
    assert mcplite.tool_result(structured_content=()).structured_content == {}


@pytest.mark.parametrize("option_set", list(OPTION_SETS))
def test_nested_unnamed_empty_lists_keep_jsonlite_empty_array(option_set: str) -> None:
    assert check_structured("nested_empty_list", option_set).structured_content == {"items": []}
    assert check_structured("list_of_empty_list", option_set).structured_content == [[]]
    assert check_structured("nested_asis_empty_list", option_set).structured_content == {"items": []}


@pytest.mark.parametrize("option_set", list(OPTION_SETS))
def test_structured_null_means_no_field_not_json_null(option_set: str) -> None:
    check_structured("null", option_set)
    for empty in (None, NULL):
        with mcplite.options(**OPTION_SETS[option_set]):
            result = mcplite.tool_result(structured_content=empty)
        assert result.structured_content is mcplite.ABSENT
        for version in mcplite.PROTOCOL_VERSIONS:
            assert "structuredContent" not in result.to_wire(version)
    # while NA is JSON null, which is sent where any JSON may be
    na = mcplite.tool_result(structured_content=NA)
    assert na.structured_content is None
    assert na.to_wire("2026-07-28")["structuredContent"] is None


TABLE = [
    ("object", {"ok": True}),
    ("character_vector", ["a", "b"]),
    ("string_scalar", "done"),
    ("empty_list", {}),
    ("empty_named_list", {}),
    ("asis_empty_list", []),
    ("logical_na", None),
    ("character_na", None),
    ("integer_na", "NA"),
    ("double_na", "NA"),
    ("complex_na", "NA"),
]


@pytest.mark.parametrize(("case_id", "meaning"), TABLE)
def test_structured_content_mapping_table_with_default_options(case_id: str, meaning: Any) -> None:
    result = check_structured(case_id, "defaults")
    assert result.structured_content == meaning
    assert type(result.structured_content) is type(meaning)


def test_structured_content_mapping_table_null_row() -> None:
    assert check_structured("null", "defaults").structured_content is mcplite.ABSENT


@pytest.mark.parametrize("option_set", list(OPTION_SETS))
@pytest.mark.parametrize(
    "case_id",
    [
        "asis_scalar",
        "asis_string",
        "unboxed_scalar",
        "unboxed_data_frame",
        "named_vector",
        "factor",
        "date",
        "matrix",
        "data_frame",
        "data_frame_missing",
    ],
)
def test_classes_dimensions_asis_and_unbox_keep_their_jsonlite_mappings(
    case_id: str, option_set: str
) -> None:
    check_structured(case_id, option_set)


def test_output_schema_conformance_is_the_tool_authors_responsibility() -> None:
    """mcplite does not check structured content against a schema: a mismatch is still built and sent."""
    tool = mcplite.Tool("t", output_schema={"type": "object", "required": ["n"], "properties": {"n": {}}})
    result = mcplite.tool_result(structured_content={"other": 1})
    assert tool.to_wire("2025-06-18")["outputSchema"]["required"] == ["n"]
    assert result.to_wire("2025-06-18")["structuredContent"] == {"other": 1}


# -- Payload JSON options


def test_options_in_force_at_construction_decide_the_encoding() -> None:
    value = value_of("structured", "seed_example")
    with mcplite.options(**OPTION_SETS["na_null_boxed"]):
        result = mcplite.tool_result(structured_content=value)
    expected = case("structured", "seed_example")["outputs"]["na_null_boxed"]["json"]
    mcplite.options(json_na="string")
    assert result.content[0].text == expected
    assert result.to_wire("2025-06-18")["structuredContent"] == json.loads(expected)


@pytest.mark.parametrize("option_set", ["defaults", "null_list"])
def test_json_null_option_keeps_named_null_fields_present(option_set: str) -> None:
    result = check_structured("named_null_field", option_set)
    assert "a" in result.structured_content
    assert result.structured_content["a"] == (None if option_set == "defaults" else {})
    with mcplite.options(**OPTION_SETS[option_set]):
        text = ordinary_text(value_of("ordinary", "list_with_null"))
    assert text == case("ordinary", "list_with_null")["outputs"][option_set]["text"]


def test_json_na_unset_keeps_jsonlite_class_specific_defaults() -> None:
    assert mcplite.get_option("json_na") is None
    result = check_structured("na_fields", "defaults")
    assert result.structured_content == {"a": None, "b": "NA", "c": "NA", "d": "NaN", "e": "Inf", "f": None}


@pytest.mark.parametrize("option_set", ["na_null", "na_string"])
def test_json_na_selects_that_jsonlite_mapping(option_set: str) -> None:
    for case_id in ("na_fields", "non_finite", "logical_vector", "integer_na", "character_na"):
        check_structured(case_id, option_set)


def test_json_na_null_maps_nan_and_infinities_to_null_and_keeps_missing_data_frame_fields() -> None:
    assert check_structured("non_finite", "na_null").structured_content == [None, None, None, None]
    default = check_structured("data_frame_missing", "defaults").structured_content
    kept = check_structured("data_frame_missing", "na_null").structured_content
    assert "missing" not in default[0]
    assert kept[0] == {"id": 1, "missing": None}


def test_json_auto_unbox_false_keeps_singletons_as_arrays() -> None:
    assert check_structured("integer_scalar", "boxed").structured_content == [1]
    assert check_structured("object", "boxed").structured_content == {"ok": [True]}
    with mcplite.options(json_auto_unbox=False):
        assert ordinary_text(1) == case("ordinary", "integer_scalar")["outputs"]["boxed"]["text"] == "[1]"


@pytest.mark.parametrize("option_set", ["defaults", "boxed"])
def test_explicit_asis_and_unbox_apply_whatever_auto_unbox_says(option_set: str) -> None:
    assert check_structured("asis_scalar", option_set).structured_content == [1]
    assert check_structured("unboxed_scalar", option_set).structured_content["x"] == 1
    assert check_structured("unboxed_data_frame", option_set).structured_content == {"x": 1, "y": "a"}


def test_removing_an_option_with_none_restores_its_default() -> None:
    mcplite.options(json_na="null", json_null="list", json_auto_unbox=False)
    mcplite.options(json_na=None, json_null=None, json_auto_unbox=None)
    assert (
        mcplite.get_option("json_na"),
        mcplite.get_option("json_null"),
        mcplite.get_option("json_auto_unbox"),
    ) == (None, "null", True)
    # removing json_na omits na (class defaults), it does not forward na = NULL
    check_structured("na_fields", "defaults")
    check_structured("double_na", "defaults")


def test_options_apply_to_ordinary_json_fallback_and_projection() -> None:
    value = value_of("structured", "seed_example")
    with mcplite.options(**OPTION_SETS["na_null_boxed"]):
        result = mcplite.tool_result(structured_content=value)
        ordinary = ordinary_text(value)
    expected = case("structured", "seed_example")["outputs"]["na_null_boxed"]["json"]
    assert ordinary == result.content[0].text == expected
    for version in ("2025-06-18", "2025-11-25", "2026-07-28"):
        assert result.to_wire(version)["structuredContent"] == json.loads(expected)
    assert "structuredContent" not in result.to_wire("2025-03-26")
    assert result.to_wire("2025-03-26")["content"][0]["text"] == expected


@pytest.mark.parametrize("option_set", list(OPTION_SETS))
def test_protocol_fields_schemas_annotations_and_metadata_keep_a_fixed_encoding(option_set: str) -> None:
    meta = {"n": 1, "x": None, "list": [], "nested": {"a": [1.5]}}
    schema = {"type": "object", "properties": {"n": {"type": "integer"}}}
    with mcplite.options(**OPTION_SETS[option_set]):
        block = mcplite.content_text("t", annotations={"audience": ["user"], "priority": 0.5}, meta=meta)
        result = mcplite.tool_result([block], structured_content={"n": 1}, is_error=True, meta=meta)
        tool = mcplite.Tool("t", schema, output_schema=schema, meta=meta)
        wire = result.to_wire("2026-07-28")
        tool_wire = tool.to_wire("2026-07-28")
    assert wire["_meta"] == meta and wire["content"][0]["_meta"] == meta
    assert wire["content"][0]["annotations"] == {"audience": ["user"], "priority": 0.5}
    assert wire["isError"] is True and wire["resultType"] == "complete"
    assert tool_wire["inputSchema"] == schema == tool_wire["outputSchema"] and tool_wire["_meta"] == meta
    with pytest.raises(TypeError, match="meta"):
        mcplite.tool_result(meta={"n": Integer([1])})


def test_seed_example_prints_exactly_the_seeds_output() -> None:
    old = mcplite.options(json_na="null", json_auto_unbox=False)
    try:
        result = mcplite.tool_result(
            structured_content=r_list(
                count=Integer([1]),
                values=c(NA_real_, math.nan, math.inf, -math.inf),
                rows=data_frame(id=Integer([1]), missing=NA_real_),
            )
        )
        text = result.content[0].text
    finally:
        mcplite.options(**old)
    assert text == '{"count":[1],"values":[null,null,null,null],"rows":[{"id":1,"missing":null}]}'
    assert text == case("structured", "seed_example")["outputs"]["na_null_boxed"]["json"]
    assert mcplite.get_option("json_na") is None and mcplite.get_option("json_auto_unbox") is True


@pytest.mark.parametrize("option_set", list(OPTION_SETS))
def test_numpy_and_pandas_objects_are_converted_with_as_r(option_set: str) -> None:
    for case_id in ("numpy_vector", "numpy_matrix", "numpy_scalar", "pandas_frame"):
        with mcplite.options(**OPTION_SETS[option_set]):
            text = ordinary_text(value_of("ordinary", case_id))
        assert text == case("ordinary", case_id)["outputs"][option_set]["text"]
    for case_id in ("numpy_vector", "pandas_frame", "pandas_series"):
        check_structured(case_id, option_set)
