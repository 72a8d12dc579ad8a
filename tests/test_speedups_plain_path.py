"""A plain Python return takes one pass down the layers: mcplite decides once whether
``rvalues.json.plain`` takes it, and rvalues writes it once (compiled, or pure when declined).

>>> from mcplite import as_tool_result
>>> as_tool_result([1, 2]).content[0].text
'[1,2]'
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import mcplite
from mcplite.payload import returned
from mcplite.payload.results import served_result
from mcplite.payload.returned import encode_value_json
from mcplite.payload.rjson import options_in_force
from mcplite.protocol import checks
from mcplite.protocol.jsonrpc import object_pieces
from mcplite.protocol.projection import result_parts
from mcplite.protocol.spliced import SplicedText
from mcplite.protocol.types import TextContent
from rvalues.json import backend, plain

VALUE = [{"id": 1, "score": 0.5, "tags": ["a", None, "é☃"]}, {"id": 2, "score": 1.25, "tags": []}]

CALLS: dict[str, Callable[[], Any]] = {
    "as_tool_result": lambda: mcplite.as_tool_result(VALUE),
    "served_result": lambda: served_result(VALUE, options_in_force()),
    "tool_result": lambda: mcplite.tool_result(structured_content=VALUE),
}


@pytest.mark.parametrize("name", CALLS)
def test_a_plain_return_is_decided_and_written_once(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    seen: Counter[str] = Counter()

    def counted(label: str, fn: Callable[..., Any]) -> Callable[..., Any]:
        def call(*args: Any, **kwargs: Any) -> Any:
            seen[label] += 1
            return fn(*args, **kwargs)

        return call

    monkeypatch.setattr(returned, "can_encode_plain", counted("decided", returned.can_encode_plain))
    monkeypatch.setattr(returned, "encode_plain", counted("written", returned.encode_plain))
    monkeypatch.setattr(returned, "to_r", counted("to_r", returned.to_r))
    monkeypatch.setattr(plain, "plain_json", counted("compiled", plain.plain_json))
    CALLS[name]()
    assert seen == {"decided": 1, "written": 1, "compiled": 1}


@pytest.mark.parametrize("name", CALLS)
def test_the_written_text_is_not_scanned_again(name: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """The writers refuse lone surrogates: their text goes into the block without a second pass."""
    scanned: list[str] = []
    monkeypatch.setattr(checks, "utf8_encodable", lambda text: scanned.append(text) or True)
    block = CALLS[name]().content[0]
    assert scanned == []
    assert type(block) is TextContent and block == TextContent(block.text)
    assert block.text == encode_value_json(VALUE, options=options_in_force())


@pytest.mark.parametrize("value", [["\udcff"], [{"a": 1, "k\udcff": 2}], {"k": ["x", "y\ud800"]}])
@pytest.mark.parametrize("name", ["as_tool_result", "tool_result"])
def test_a_lone_surrogate_is_still_refused_by_name(name: str, value: Any) -> None:
    call = {"as_tool_result": mcplite.as_tool_result, "tool_result": _structured}[name]
    with pytest.raises(ValueError, match="lone surrogate"):
        call(value)


def _structured(value: Any) -> Any:
    return mcplite.tool_result(structured_content=value)


RECORDS = [{"id": i, "s": f'say "hi" é☃ </{i}\n', "x": i / 3, "ok": None} for i in range(40)]


def test_a_served_plain_return_is_written_escaped_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """A server's line takes the compiled writer's escaped bytes as they are: json.dumps' escape
    of the very text as_tool_result gives, with no second escaping pass."""
    block = served_result(RECORDS, options_in_force()).content[0]
    text = mcplite.as_tool_result(RECORDS).content[0].text
    if backend() != "c":
        assert not isinstance(block, SplicedText) and block.text == text
        return
    assert isinstance(block, SplicedText) and block.spliceable is not None
    assert block.spliceable == json.dumps(text, ensure_ascii=False)[1:-1].encode("utf-8")
    assert block.text == text
    wire, _ = result_parts(served_result(RECORDS, options_in_force()), "2025-11-25")
    assert json.loads(b"".join(object_pieces(wire)))["content"][0]["text"] == text
