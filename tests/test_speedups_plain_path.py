"""A plain Python return takes one pass down the layers: mcplite decides once whether
``rvalues.json.plain`` takes it, and rvalues writes it once (compiled, or pure when declined).

>>> from mcplite import as_tool_result
>>> as_tool_result([1, 2]).content[0].text
'[1,2]'
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import Any

import pytest

import mcplite
from mcplite.payload import returned
from mcplite.payload.results import served_result
from mcplite.payload.rjson import options_in_force
from rvalues.json import plain

VALUE = [{"id": 1, "score": 0.5, "tags": ["a", None]}, {"id": 2, "score": 1.25, "tags": []}]

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
