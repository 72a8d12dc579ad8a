"""Projection touches the envelope, not the payload; a result's structured JSON reaches the wire
as it was encoded (the text fallback and structuredContent are one serialization), spliced into
the response line as bytes, never read back or escaped again."""

from __future__ import annotations

import json

import numpy as np
import pandas as pd
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import mcplite
from mcplite.engine.calls import written
from mcplite.payload.rjson import Payload, read_back
from mcplite.protocol import types
from mcplite.protocol.jsonrpc import encode_result_line
from mcplite.protocol.projection import result_parts
from mcplite.protocol.versions import PROTOCOL_VERSIONS


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
    assert isinstance(result.structured, types.EncodedJson)
    assert result.structured.text == result.content[0].text == '{"big":1e+15,"small":1e-07,"x":[0.3,null]}'
    # json.dumps of the data read back is another serialization: exactly what the wire must not send
    assert json.dumps(result.structured_content, separators=(",", ":")) != result.structured.text
    assert mcplite.tool_result(structured_content=None).structured is types.ABSENT
    assert mcplite.as_tool_result({"a": 1}).structured is types.ABSENT


def test_the_structured_json_is_not_read_back_until_asked(monkeypatch: pytest.MonkeyPatch) -> None:
    def read(*args: object) -> None:
        raise AssertionError("the structured JSON was read back")

    result = mcplite.tool_result(structured_content={"n": [1, 2, 3]})
    monkeypatch.setattr(json, "loads", read)
    line = encode_result_line(7, *_parts(written(result, "2026-07-28")))
    assert line.endswith(b'"structuredContent":{"n":[1,2,3]}}}\n')


def _parts(reply: object) -> tuple[dict[str, object], dict[str, bytes]]:
    return reply.result, reply.raw  # type: ignore[attr-defined]


@pytest.mark.parametrize("version", PROTOCOL_VERSIONS)
@pytest.mark.parametrize("value", [{"big": 1e15, "t": "é"}, [1, 2.5], {}])
def test_spliced_lines_read_back_as_the_wire_dict(version: str, value: object) -> None:
    result = mcplite.tool_result(structured_content=value, meta={"k": 1})
    wire, raw = _parts(written(result, version))
    line = encode_result_line(7, wire, raw)
    if raw:
        text = raw["structuredContent"]
        assert b'"structuredContent":' + text + b"}}\n" == line[-(len(text) + 23) :]
    assert json.loads(line)["result"] == result.to_wire(version)
    assert ("structuredContent" in result.to_wire(version)) == bool(raw)


def test_a_result_built_by_hand_is_written_once_too() -> None:
    result = mcplite.CallToolResult([mcplite.content_text("ok")], structured_content={"a": 1})
    wire, encoded = result_parts(result, "2026-07-28")
    assert "structuredContent" not in wire and encoded is not None and encoded.text == '{"a":1}'
    assert result.to_wire("2026-07-28")["structuredContent"] == {"a": 1}


def test_members_written_already_join_any_result_object() -> None:
    assert encode_result_line(1, {}, {"x": b"[1]"}) == b'{"jsonrpc":"2.0","id":1,"result":{"x":[1]}}\n'
    assert encode_result_line("a", {"b": "}}"}, {}) == b'{"jsonrpc":"2.0","id":"a","result":{"b":"}}"}}\n'
    line = encode_result_line(2, {"t": '"result":{'}, {"x": b"{}"})
    assert json.loads(line)["result"] == {"t": '"result":{', "x": {}}


_RESULT_VALUES = [
    {"ok": True},
    [1.5, None, "é"],
    pd.DataFrame({"id": np.array([1, 2], dtype=np.int32), "s": ["a", None]}),
]


@pytest.mark.parametrize("value", _RESULT_VALUES, ids=["dict", "list", "frame"])
@pytest.mark.parametrize("is_error", [False, True])
def test_results_equal_those_built_by_hand(value: object, is_error: bool) -> None:
    """tool_result builds its blocks and result with the validated constructors; given the same
    fields by hand, they make an equal result."""
    built = mcplite.tool_result(structured_content=value, is_error=is_error)
    text = built.content[0].text
    checked = types.CallToolResult(
        [types.TextContent(text)], structured_content=json.loads(text), is_error=is_error
    )
    assert built == checked
    assert type(built.content[0]) is types.TextContent
    assert (built.meta, built.result_type, built.structured.text) == (None, None, text)  # type: ignore[union-attr]
    assert built.to_wire("2025-06-18") == checked.to_wire("2025-06-18")
    plain = mcplite.as_tool_result(value)
    assert plain == types.CallToolResult([types.TextContent(plain.content[0].text)])


def test_a_result_holds_its_own_list_of_blocks() -> None:
    blocks = [mcplite.content_text("a")]
    result = types.CallToolResult(blocks)
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
        ({"structured_content": {"k": {1, 2}}}, "structured_content"),
    ],
)
def test_a_result_checks_every_field(fields: dict[str, object], message: str) -> None:
    content = fields.pop("content", [mcplite.content_text("a")])
    with pytest.raises(TypeError, match=message):
        types.CallToolResult(content, **fields)  # type: ignore[arg-type]


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
