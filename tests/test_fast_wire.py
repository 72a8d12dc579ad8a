"""Projection touches the envelope, not the payload; a result's structured JSON reaches the wire
as it was encoded (the text fallback and structuredContent are one serialization)."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mcplite
from mcplite import types
from mcplite.converter import Payload, read_back
from mcplite.jsonrpc import encode_line, response
from mcplite.projection import PROTOCOL_VERSIONS, result_wire_parts, splice_structured


@pytest.fixture(scope="module")
def big_result() -> mcplite.CallToolResult:
    n = 10_000
    frame = pd.DataFrame(
        {"id": np.arange(n), "x": np.linspace(0, 1, n), "s": [f"r{i % 13}" for i in range(n)]}
    )
    return mcplite.tool_result(structured_content=frame)


def test_to_wire_shares_the_payload(
    big_result: mcplite.CallToolResult, monkeypatch: pytest.MonkeyPatch
) -> None:
    def walked(*args: object) -> None:
        raise AssertionError("the payload was walked again")

    monkeypatch.setattr(types, "check_plain_json", walked)
    wire = big_result.to_wire("2026-07-28")
    assert wire["structuredContent"] is big_result.structured_content
    assert wire["content"][0]["text"] is big_result.content[0].text


def test_structured_json_is_the_fallback_text() -> None:
    result = mcplite.tool_result(structured_content={"big": 1e15, "small": 1e-7, "x": [0.1 + 0.2, None]})
    assert result.structured_json == result.content[0].text == '{"big":1e+15,"small":1e-07,"x":[0.3,null]}'
    # json.dumps of the data read back is another serialization: exactly what the wire must not send
    assert json.dumps(result.structured_content, separators=(",", ":")) != result.structured_json
    assert mcplite.tool_result(structured_content=None).structured_json is None
    assert mcplite.as_tool_result({"a": 1}).structured_json is None


@pytest.mark.parametrize("version", PROTOCOL_VERSIONS)
@pytest.mark.parametrize("value", [{"big": 1e15, "t": "é"}, [1, 2.5], {}])
def test_spliced_lines_read_back_as_the_wire_dict(version: str, value: object) -> None:
    result = mcplite.tool_result(structured_content=value, meta={"k": 1})
    wire, text = result_wire_parts(result, version)
    line = encode_line(response(7, wire))
    if text is not None:
        line = splice_structured(line, text)
        assert b'"structuredContent":' + text.encode() + b"}}\n" == line[-(len(text.encode()) + 23) :]
    assert json.loads(line)["result"] == result.to_wire(version)
    assert ("structuredContent" in result.to_wire(version)) == (text is not None)


def test_a_result_built_by_hand_keeps_its_dict() -> None:
    result = mcplite.CallToolResult([mcplite.content_text("ok")], structured_content={"a": 1})
    wire, text = result_wire_parts(result, "2026-07-28")
    assert text is None and wire["structuredContent"] == {"a": 1}


def test_splice_refuses_what_is_not_a_response_line() -> None:
    with pytest.raises(ValueError, match="not a response line"):
        splice_structured(b"[1,2]\n", "{}")
    with pytest.raises(ValueError, match="not a response line"):
        splice_structured(
            b'{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"data":{"a":"\\"result\\":{"}}}', "{}"
        )
    assert splice_structured(b'{"result":{}}', "[1]") == b'{"result":{"structuredContent":[1]}}'


_RESULT_VALUES = [
    {"ok": True},
    [1.5, None, "é"],
    pd.DataFrame({"id": np.array([1, 2], dtype=np.int32), "s": ["a", None]}),
]


@pytest.mark.parametrize("value", _RESULT_VALUES, ids=["dict", "list", "frame"])
@pytest.mark.parametrize("is_error", [False, True])
def test_results_built_without_validators_equal_validated_ones(value: object, is_error: bool) -> None:
    """tool_result sets the fields of blocks and results it made itself; the validated
    constructors, given the same fields, make an equal result."""
    fast = mcplite.tool_result(structured_content=value, is_error=is_error)
    text = fast.content[0].text
    checked = types.CallToolResult(
        [types.TextContent(text)], structured_content=json.loads(text), is_error=is_error
    )
    assert fast == checked
    assert type(fast.content[0]) is types.TextContent
    assert (fast.meta, fast.result_type, fast.structured_json) == (None, None, text)
    assert fast.to_wire("2025-06-18") == checked.to_wire("2025-06-18")
    plain = mcplite.as_tool_result(value)
    assert plain == types.CallToolResult([types.TextContent(plain.content[0].text)])


def test_a_result_holds_its_own_list_of_blocks() -> None:
    blocks = [mcplite.content_text("a")]
    result = types.CallToolResult.from_encoded(blocks, types.ABSENT)
    blocks.append(mcplite.content_text("b"))
    assert [block.text for block in result.content] == ["a"]


@pytest.mark.parametrize(
    ("fields", "message"),
    [
        ({"is_error": "yes"}, "is_error"),
        ({"is_error": 1}, "is_error"),
        ({"meta": {"k": object()}}, "meta"),
        ({"meta": ["not", "a", "dict"]}, "meta"),
        ({"result_type": 3}, "result_type"),
        ({"content": ["plain text"]}, "content"),
        ({"content": (mcplite.content_text("a"),)}, "content"),
    ],
)
def test_from_encoded_still_checks_what_it_did_not_make(fields: dict[str, object], message: str) -> None:
    content = fields.pop("content", [mcplite.content_text("a")])
    if isinstance(content, tuple):  # a tuple of blocks is converted to a list, as the constructor does
        result = types.CallToolResult.from_encoded(content, types.ABSENT)  # type: ignore[arg-type]
        assert result.content == [mcplite.content_text("a")]
        return
    with pytest.raises(TypeError, match=message):
        types.CallToolResult.from_encoded(content, types.ABSENT, **fields)  # type: ignore[arg-type]


_JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers() | st.floats(allow_nan=False) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=3), inner, max_size=4),
    max_leaves=12,
)


@settings(max_examples=150, derandomize=True, deadline=None)
@given(value=_JSON_VALUES, indent=st.sampled_from([None, 2]), pad=st.sampled_from(["", " ", "\n"]))
def test_payload_text_reads_back_as_json_loads_reads_it(value: object, indent: int | None, pad: str) -> None:
    text = pad + json.dumps(value, indent=indent, ensure_ascii=False) + pad
    assert read_back(text) == Payload(json.loads(text), text)


@pytest.mark.parametrize("text", ["", "[1] x", "[1]]", "\ufeff[1]", "{'a': 1}", "[1,]", "tru"])
def test_text_that_is_not_one_json_value_is_refused(text: str) -> None:
    with pytest.raises(ValueError, match="cannot be represented as JSON"):
        read_back(text)
