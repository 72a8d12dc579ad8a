"""Property tests: the generated text fallback parses to the structured content, under every option set."""

from __future__ import annotations

import json
import math
from collections.abc import Iterator
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mcplite
from rvalues import (
    NA,
    Character,
    Double,
    I,
    Integer,
    Logical,
    NA_character_,
    NA_integer_,
    NA_real_,
    data_frame,
    unbox,
)

try:
    from rvalues.json import to_json  # noqa: F401
except ImportError:
    pytest.skip("rvalues.json (the jsonlite layer) is not there yet", allow_module_level=True)

OPTION_SETS = [
    {},
    {"json_na": "null"},
    {"json_na": "string"},
    {"json_null": "list"},
    {"json_auto_unbox": False},
    {"json_na": "null", "json_auto_unbox": False},
]

# Doubles jsonlite writes beyond a double's range (1.79769313486232e+308) have no JSON-ready value;
# mcplite refuses them (test_numbers_rounded_beyond_a_double_are_refused).
_floats = st.one_of(
    st.floats(allow_nan=True, allow_infinity=True, width=64).filter(
        lambda v: not 1.7975e308 <= abs(v) < math.inf
    ),
    st.sampled_from([0.0, -0.0, 1e5, 1e-5, 123456.789, 1 / 3, 2.5, 1e15, 1e300]),
)
_ints = st.integers(-(2**31) + 1, 2**31 - 1)
_text = st.text(alphabet='ab "\\\n\té\u65e5{}[]:,', max_size=5)

python_scalars = st.one_of(st.none(), st.booleans(), _ints, _floats, _text)
r_atomics = st.one_of(
    st.lists(st.one_of(st.none(), _floats), max_size=4).map(Double),
    st.lists(st.one_of(st.none(), _ints), max_size=4).map(Integer),
    st.lists(st.one_of(st.none(), st.booleans()), max_size=4).map(Logical),
    st.lists(st.one_of(st.none(), _text), max_size=4).map(Character),
    st.sampled_from([NA, NA_integer_, NA_real_, NA_character_]),
    _floats.map(lambda v: unbox(Double([v]))),
    st.lists(_ints, min_size=1, max_size=3).map(lambda v: I(Integer(v))),
)
frames = st.lists(st.one_of(st.none(), _floats), min_size=1, max_size=3).flatmap(
    lambda col: st.lists(st.one_of(st.none(), _text), min_size=len(col), max_size=len(col)).map(
        lambda other: data_frame(x=Double(col), y=Character(other))
    )
)
keys = st.text(alphabet="abcxyz_", min_size=1, max_size=3)
values = st.recursive(
    st.one_of(python_scalars, r_atomics, frames),
    lambda children: st.one_of(
        st.lists(children, max_size=3),
        st.dictionaries(keys, children, max_size=3),
    ),
    max_leaves=8,
)


@pytest.fixture(autouse=True)
def unset_options() -> Iterator[None]:
    mcplite.options(json_null=None, json_na=None, json_auto_unbox=None)
    yield
    mcplite.options(json_null=None, json_na=None, json_auto_unbox=None)


def same_json(a: Any, b: Any) -> bool:
    """Equality of JSON values (1 == 1.0 as JSON numbers; lists and dicts element-wise)."""
    if isinstance(a, dict) and isinstance(b, dict):
        return list(a) == list(b) and all(same_json(a[k], b[k]) for k in a)
    if isinstance(a, list) and isinstance(b, list):
        return len(a) == len(b) and all(same_json(x, y) for x, y in zip(a, b, strict=True))
    if isinstance(a, bool) or isinstance(b, bool):
        return a is b
    if isinstance(a, (int, float)) and isinstance(b, (int, float)):
        return a == b or (math.isnan(a) and math.isnan(b))
    return type(a) is type(b) and a == b


def strict_loads(text: str) -> Any:
    def refuse(token: str) -> Any:
        raise AssertionError(f"not RFC 8259 JSON: {token}")

    return json.loads(text, parse_constant=refuse)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=values, option_set=st.sampled_from(OPTION_SETS))
def test_generated_text_fallback_parses_to_the_structured_content(
    value: Any, option_set: dict[str, Any]
) -> None:
    with mcplite.options(**option_set):
        result = mcplite.tool_result(structured_content=value)
    if result.structured_content is mcplite.ABSENT:
        assert value is None and result.content == []
        return
    assert len(result.content) == 1
    assert same_json(strict_loads(result.content[0].text), result.structured_content)
    wire = result.to_wire("2026-07-28")
    assert same_json(wire["structuredContent"], result.structured_content)
    assert same_json(
        strict_loads(json.dumps(wire, allow_nan=False))["content"][0]["text"], result.content[0].text
    )


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=values, option_set=st.sampled_from(OPTION_SETS))
def test_ordinary_json_text_agrees_with_structured_content(value: Any, option_set: dict[str, Any]) -> None:
    """Ordinary noncharacter values and structured content share the encoding (apart from the roots)."""
    with mcplite.options(**option_set):
        text = mcplite.as_tool_result(value).content[0].text
        structured = mcplite.tool_result(structured_content=value)
    if value is None or value == [] or value == {} or isinstance(value, (str, Character)):
        return
    assert text == structured.content[0].text


@settings(max_examples=200, deadline=None)
@given(value=values, option_set=st.sampled_from(OPTION_SETS))
def test_projection_sends_structured_content_only_where_the_version_allows(
    value: Any, option_set: dict[str, Any]
) -> None:
    with mcplite.options(**option_set):
        result = mcplite.tool_result(structured_content=value)
    for version in mcplite.PROTOCOL_VERSIONS:
        wire = result.to_wire(version)
        assert wire["content"] == mcplite.converter.unstructure(result)["content"]
        if version < "2025-06-18" or result.structured_content is mcplite.ABSENT:
            assert "structuredContent" not in wire
        elif version < "2026-07-28":
            assert ("structuredContent" in wire) == isinstance(result.structured_content, dict)
        else:
            assert "structuredContent" in wire


def test_numbers_written_beyond_a_double_are_refused_as_structured_content() -> None:
    """jsonlite writes .Machine$double.xmax as 1.79769313486232e+308, which parses as infinity.

    As ordinary text it is sent as R writes it (test_mcplite_return_rules: double_max); as structured
    content it has no JSON-ready value, so it is refused with a clear error.
    """
    big = Double([1.7976931348623157e308])
    with pytest.raises(ValueError, match=r"writes structured_content\['x'\] as a number beyond a double"):
        mcplite.tool_result(structured_content={"x": big})
