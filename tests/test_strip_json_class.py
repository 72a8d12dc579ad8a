"""strip_json_class: class json is dropped wherever it sits in a list, and an untouched value is
returned as the same object (the per-call fast path)."""

from __future__ import annotations

import rvalues as rv
from mcplite.payload.rjson import strip_json_class
from rvalues import Character, List
from rvalues.model.classes import explicit_class, r_class


def _json(text: str, *more: str) -> Character:
    return Character([text], {"class": Character([*more, "json"])})


def test_untouched_values_are_the_same_object() -> None:
    frame = rv.data_frame(id=rv.Integer([1]), x=rv.NA_real_)
    value = rv.r_list(count=rv.Integer([1]), rows=frame, empty=List([]))
    assert strip_json_class(value) is value


def test_json_class_dropped_before_after_and_inside() -> None:
    inner = List([rv.Integer([2]), _json('{"b":2}', "keep")])
    value = List(
        [rv.Integer([1]), _json('{"a":1}'), inner, _json("[3]")], {"names": Character(["n", "a", "i", "c"])}
    )
    out = strip_json_class(value)
    assert out is not value and out.attributes["names"].data.tolist() == ["n", "a", "i", "c"]
    assert out.data[0] is value.data[0]
    assert [explicit_class(e.attributes) for e in (out.data[1], out.data[3])] == [(), ()]
    assert explicit_class(out.data[2].data[1].attributes) == ("keep",)
    assert out.data[2].data[0] is inner.data[0]


def test_class_tuples_follow_the_vector() -> None:
    a = rv.Integer([1]).with_attributes({"class": "myclass"})
    b = rv.Integer([1]).with_attributes({"class": Character(["other", "myclass"])})
    assert r_class(a) == ("myclass",) and r_class(b) == ("other", "myclass")
    assert r_class(rv.Double([1.5])) == ("numeric",) and r_class(List([])) == ("list",)
