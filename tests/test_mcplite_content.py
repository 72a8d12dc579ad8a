"""Content constructors, protocol types in their wire form, and clear errors for bad input."""

from __future__ import annotations

import base64
import datetime as dt
import json
from collections.abc import Iterator
from typing import Any

import attrs
import pytest

import mcplite
from rvalues import Raw, r_list


@pytest.fixture(autouse=True)
def unset_options() -> Iterator[None]:
    mcplite.options(json_null=None, json_na=None, json_auto_unbox=None)
    yield
    mcplite.options(json_null=None, json_na=None, json_auto_unbox=None)


def wire(obj: Any) -> Any:
    return mcplite.converter.unstructure(obj)


# -- constructors and wire names


def test_content_text_wire_form() -> None:
    block = mcplite.content_text(
        "hi", annotations={"audience": ["user", "assistant"], "priority": 1}, meta={"k": 1}
    )
    assert wire(block) == {
        "type": "text",
        "text": "hi",
        "annotations": {"audience": ["user", "assistant"], "priority": 1},
        "_meta": {"k": 1},
    }
    assert wire(mcplite.content_text("")) == {"type": "text", "text": ""}


def test_content_image_and_audio_encode_bytes_as_base64() -> None:
    png = b"\x89PNG\r\n\x1a\n"
    image = mcplite.content_image(png, "image/png")
    assert wire(image) == {"type": "image", "data": base64.b64encode(png).decode(), "mimeType": "image/png"}
    assert mcplite.content_image(image.data, "image/png") == image  # base64 text is taken as it is
    assert mcplite.content_image(Raw(png), "image/png") == image  # an R raw vector too
    audio = mcplite.content_audio(b"RIFF", "audio/wav", annotations=mcplite.Annotations(priority=0))
    assert wire(audio) == {
        "type": "audio",
        "data": "UklGRg==",
        "mimeType": "audio/wav",
        "annotations": {"priority": 0},
    }


def test_content_resource_link_wire_form() -> None:
    link = mcplite.content_resource_link(
        "file:///tmp/r.csv",
        "r.csv",
        title="Report",
        description="Rows",
        mime_type="text/csv",
        size=10,
        annotations={"lastModified": "2025-01-02T03:04:05Z"},
        icons=[{"src": "https://x/i.png", "sizes": ["48x48"]}],
        meta={"m": True},
    )
    assert wire(link) == {
        "type": "resource_link",
        "uri": "file:///tmp/r.csv",
        "name": "r.csv",
        "title": "Report",
        "description": "Rows",
        "mimeType": "text/csv",
        "size": 10,
        "annotations": {"lastModified": "2025-01-02T03:04:05Z"},
        "icons": [{"src": "https://x/i.png", "sizes": ["48x48"]}],
        "_meta": {"m": True},
    }


def test_content_resource_text_and_blob() -> None:
    text = mcplite.content_resource(
        "file:///a.txt", text="hello", mime_type="text/plain", resource_meta={"r": 1}
    )
    assert wire(text) == {
        "type": "resource",
        "resource": {"uri": "file:///a.txt", "text": "hello", "mimeType": "text/plain", "_meta": {"r": 1}},
    }
    blob = mcplite.content_resource("file:///a.bin", blob=b"\x00\x01", meta={"b": 2})
    assert wire(blob) == {
        "type": "resource",
        "resource": {"uri": "file:///a.bin", "blob": "AAE="},
        "_meta": {"b": 2},
    }


def test_last_modified_accepts_a_datetime() -> None:
    when = dt.datetime(2025, 1, 2, 3, 4, 5, tzinfo=dt.UTC)
    block = mcplite.content_text("x", annotations={"last_modified": when})
    assert block.annotations.last_modified == "2025-01-02T03:04:05+00:00"


def test_protocol_objects_are_immutable() -> None:
    block = mcplite.content_text("x")
    with pytest.raises(attrs.exceptions.FrozenInstanceError):
        block.text = "y"  # type: ignore[misc]


def test_call_tool_result_wire_form_omits_unset_optional_fields() -> None:
    result = mcplite.tool_result([mcplite.content_text("x")])
    assert wire(result) == {"content": [{"type": "text", "text": "x"}]}
    assert result.structured_content is mcplite.ABSENT
    assert mcplite.tool_result().to_wire("2025-06-18") == {"content": []}
    flagged = mcplite.tool_result(mcplite.content_text("boom"), is_error=True, meta={"a": 1})
    assert wire(flagged) == {
        "content": [{"type": "text", "text": "boom"}],
        "isError": True,
        "_meta": {"a": 1},
    }


def test_explicit_content_wins_over_the_generated_fallback() -> None:
    result = mcplite.tool_result([mcplite.content_text("summary")], structured_content=r_list(n=1))
    assert [b.text for b in result.content] == ["summary"]
    assert result.structured_content == {"n": 1}
    empty = mcplite.tool_result([], structured_content={"n": 1})
    assert empty.content == []


def test_generated_fallback_is_one_text_block_of_the_structured_json() -> None:
    result = mcplite.tool_result(structured_content={"a": [1, 2], "b": "x"})
    assert len(result.content) == 1 and result.content[0].type == "text"
    assert json.loads(result.content[0].text) == result.structured_content == {"a": [1, 2], "b": "x"}


def test_tool_wire_form_and_annotations() -> None:
    tool = mcplite.Tool(
        "add",
        {"type": "object", "properties": {"a": {"type": "number"}}},
        description="Add",
        title="Adder",
        annotations=mcplite.ToolAnnotations(read_only_hint=True, open_world_hint=False),
    )
    assert wire(tool) == {
        "name": "add",
        "inputSchema": {"type": "object", "properties": {"a": {"type": "number"}}},
        "description": "Add",
        "title": "Adder",
        "annotations": {"readOnlyHint": True, "openWorldHint": False},
    }
    assert wire(mcplite.Tool("none"))["inputSchema"] == {"type": "object", "additionalProperties": False}


def test_users_register_hooks_for_their_own_classes_on_the_converter() -> None:
    @attrs.define
    class Point:
        x: float
        y: float

    class Temperature:
        def __init__(self, celsius: float) -> None:
            self.celsius = celsius

    assert mcplite.get_converter() is mcplite.converter
    mcplite.converter.register_unstructure_hook(Temperature, lambda t: r_list(celsius=t.celsius, unit="C"))
    assert mcplite.as_tool_result(Temperature(21.5)).content[0].text == '{"celsius":21.5,"unit":"C"}'
    # attrs classes and dataclasses without a hook: cattrs' default (a dict of fields)
    result = mcplite.tool_result(structured_content={"p": Point(1, 2), "t": Temperature(3)})
    assert result.structured_content == {"p": {"x": 1, "y": 2}, "t": {"celsius": 3, "unit": "C"}}


# -- bad input: clear errors, never a half-built result


class Opaque:
    def __repr__(self) -> str:
        return "<Opaque thing>"


@pytest.mark.parametrize(
    ("value", "named"),
    [
        (Opaque(), "Opaque"),
        (lambda x: x, "function"),
        ({"a": {1, 2}}, "set"),
        ({"nested": [1, Opaque()]}, "Opaque"),
        ({1: "a"}, "dict keys must be str"),
        (object(), "object"),
    ],
)
def test_values_that_cannot_be_json_are_refused_clearly(value: Any, named: str) -> None:
    with pytest.raises(TypeError, match=named) as err:
        mcplite.tool_result(structured_content=value)
    assert "structured_content" in str(err.value)
    with pytest.raises(TypeError, match=named):
        mcplite.as_tool_result(value)


def test_where_in_a_nested_value_the_bad_element_is_is_named() -> None:
    with pytest.raises(TypeError, match=r"structured_content\['nested'\]\[1\]"):
        mcplite.tool_result(structured_content={"nested": [1, Opaque()]})


@pytest.mark.parametrize(
    ("build", "error", "match"),
    [
        (lambda: mcplite.content_text(1), TypeError, "text must be a str"),
        (lambda: mcplite.content_image(b"x", 3), TypeError, "mime_type must be a str"),
        (lambda: mcplite.content_image(b"x", "png"), ValueError, "not a MIME type"),
        (lambda: mcplite.content_image(b"x", "audio/wav"), ValueError, "not an image type"),
        (lambda: mcplite.content_audio(b"x", "image/png"), ValueError, "not an audio type"),
        (lambda: mcplite.content_image("not base64!", "image/png"), ValueError, "not valid base64"),
        (lambda: mcplite.content_image("QUJD=", "image/png"), ValueError, "not valid base64"),
        (lambda: mcplite.content_audio(12, "audio/wav"), TypeError, "data must be bytes or a base64 str"),
        (lambda: mcplite.content_text("x", annotations={"audience": ["robot"]}), ValueError, "'robot'"),
        (lambda: mcplite.content_text("x", annotations={"audience": "user"}), TypeError, "audience"),
        (
            lambda: mcplite.content_text("x", annotations={"priority": 1.5}),
            ValueError,
            "between 0 and 1, not 1.5",
        ),
        (lambda: mcplite.content_text("x", annotations={"priority": -0.1}), ValueError, "between 0 and 1"),
        (lambda: mcplite.content_text("x", annotations={"priority": True}), TypeError, "priority"),
        (lambda: mcplite.content_text("x", annotations={"priority": "high"}), TypeError, "priority"),
        (
            lambda: mcplite.content_text("x", annotations={"lastModified": "yesterday"}),
            ValueError,
            "ISO 8601",
        ),
        (lambda: mcplite.content_text("x", annotations={"colour": "red"}), ValueError, "colour"),
        (lambda: mcplite.content_text("x", annotations=["user"]), TypeError, "annotations"),
        (lambda: mcplite.content_text("x", meta=["a"]), TypeError, "meta must be a dict"),
        (lambda: mcplite.content_text("x", meta={"a": float("nan")}), ValueError, "finite"),
        (lambda: mcplite.content_text("x", meta={"a": b"x"}), TypeError, r"meta\['a'\]"),
        (lambda: mcplite.content_resource_link("", "n"), ValueError, "uri must not be empty"),
        (lambda: mcplite.content_resource_link("file:///x", "n", size=-1), ValueError, "size"),
        (lambda: mcplite.content_resource_link("file:///x", "n", size="big"), TypeError, "size"),
        (lambda: mcplite.content_resource("file:///x"), ValueError, "exactly one of text or blob"),
        (lambda: mcplite.content_resource("file:///x", text="a", blob=b"b"), ValueError, "exactly one"),
        (lambda: mcplite.content_resource("file:///x", blob="%%%"), ValueError, "base64"),
        (lambda: mcplite.tool_result("plain text"), TypeError, "content must be a content block"),
        (lambda: mcplite.tool_result(["plain text"]), TypeError, r"content\[0\].*content_text"),
        (lambda: mcplite.tool_result(is_error="yes"), TypeError, "is_error"),
        (lambda: mcplite.tool_result(meta={"n": r_list(a=1)}), TypeError, "meta"),
        (lambda: mcplite.Tool("t", {"type": "array"}), ValueError, "input_schema"),
        (lambda: mcplite.Tool("", {"type": "object"}), ValueError, "name"),
        (lambda: mcplite.ToolAnnotations(read_only_hint="yes"), TypeError, "read_only_hint"),
        (lambda: mcplite.Icon("https://x", theme="blue"), ValueError, "theme"),
    ],
)
def test_bad_fields_are_refused_naming_the_value(build: Any, error: type[Exception], match: str) -> None:
    with pytest.raises(error, match=match):
        build()


def test_an_invalid_option_value_is_refused_before_anything_is_built() -> None:
    with pytest.raises(ValueError, match="json_na"):
        mcplite.options(json_na=False)
    assert mcplite.get_option("json_na") is None
