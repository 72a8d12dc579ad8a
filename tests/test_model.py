"""The value model's own rules: storage, immutability, attributes and validation."""

from __future__ import annotations

import math

import numpy as np
import pytest

import rvalues as rv
from rvalues import (
    NA,
    NULL,
    Character,
    Double,
    Integer,
    List,
    Logical,
    NA_integer_,
    NA_real_,
    RValueError,
    c,
    data_frame,
    factor,
    matrix,
    r_list,
    unbox,
)
from rvalues.na import NA_INTEGER, real_is_na


def test_storage_uses_r_encodings() -> None:
    assert Logical([True, None]).data.tolist() == [1, NA_INTEGER]
    assert Integer([None]).data.dtype == np.int32
    bits = Double([None]).data.view(np.uint64)[0]
    assert int(bits) & 0xFFFFFFFF == 1954
    assert real_is_na(NA_real_.data).tolist() == [True]
    assert not real_is_na(Double([math.nan]).data)[0]
    assert Character(["a", None]).data.tolist() == ["a", None]
    assert rv.NA_complex_.tolist() == [None]


def test_values_are_immutable() -> None:
    x = Double([1.0, 2.0])
    with pytest.raises(ValueError):
        x.data[0] = 5.0
    with pytest.raises(AttributeError):
        x._data = np.zeros(2)  # type: ignore[misc]
    with pytest.raises(TypeError):
        x.attributes["names"] = Character(["a", "b"])  # type: ignore[index]


def test_with_attributes_sets_removes_and_keeps_order() -> None:
    x = Integer([1, 2]).with_attributes({"names": ["a", "b"], "foo": "bar"})
    assert list(x.attributes) == ["names", "foo"]
    y = x.with_attributes({"names": ["c", "d"]})
    assert list(y.attributes) == ["names", "foo"]
    assert y.names.tolist() == ["c", "d"]
    assert list(y.with_attributes({"foo": None}).attributes) == ["names"]
    assert list(y.with_attributes({"foo": NULL}).attributes) == ["names"]


def test_meaning_follows_the_class_attribute() -> None:
    listed = r_list(a=Integer([1, 2]))
    frame = listed.with_attributes({"class": "data.frame", "row.names": Integer([1, 2])})
    assert isinstance(frame, rv.DataFrame)
    assert frame.attributes["row.names"].data.tolist() == [1, 2]
    longer = r_list(a=Integer([1, 2, 3])).with_attributes({"class": "data.frame", "row.names": [1, 2, 3]})
    assert longer.attributes["row.names"].data.tolist() == [NA_INTEGER, 3]
    assert isinstance(frame.with_attributes({"class": None}), List)
    assert isinstance(Integer([1]).with_attributes({"levels": ["a"], "class": "factor"}), rv.Factor)
    assert isinstance(c(1.0).with_attributes({"class": "Date"}), rv.Date)


def test_names_are_padded_with_na_or_refused_when_too_long() -> None:
    assert Integer([1, 2, 3]).with_names(["a"]).names.tolist() == ["a", None, None]
    with pytest.raises(
        RValueError, match=r"'names' attribute \[3\] must be the same length as the vector \[2\]"
    ):
        Integer([1, 2]).with_names(["a", "b", "c"])


def test_dim_must_match_the_length() -> None:
    with pytest.raises(RValueError, match=r"dims \[product 4\] do not match the length of object \[3\]"):
        Integer([1, 2, 3]).with_attributes({"dim": [2, 2]})
    assert Integer([1, 2, 3, 4]).with_attributes({"dim": [2.0, 2.0]}).attributes["dim"].r_type == "integer"


def test_factor_class_needs_integer_codes_in_range() -> None:
    with pytest.raises(RValueError, match="factor"):
        Double([1.0]).with_attributes({"levels": ["a"], "class": "factor"})
    with pytest.raises(RValueError, match=r"codes must lie in 1\.\.1"):
        Integer([2]).with_attributes({"levels": ["a"], "class": "factor"})


def test_constructors_name_the_bad_element() -> None:
    with pytest.raises(RValueError, match=r"Integer: element 1 \(1.5\) is not a whole number"):
        Integer([1, 1.5])
    with pytest.raises(RValueError, match="outside R's integer range"):
        Integer([2**31 - 1, -(2**31)])
    with pytest.raises(RValueError, match=r"Logical: element 0 \('yes'\)"):
        Logical(["yes"])
    with pytest.raises(RValueError, match="Character: element 0"):
        Character([1])
    with pytest.raises(RValueError, match="lone surrogate"):
        Character(["ok", "bad\udc80"])
    with pytest.raises(RValueError, match=r"element 1 \('a\\x00b'\) holds an embedded nul"):
        Character(["ok", "a\x00b"])
    with pytest.raises(RValueError, match="raw vectors have no NA"):
        rv.Raw([1, None])


def test_every_constructor_takes_none_and_na_constants_as_na() -> None:
    assert Integer([None, NA, NA_integer_]).na_mask().all()
    assert Double([None, NA, NA_real_]).na_only_mask().all()
    assert factor(["a", None, NA]).tolist() == [1, None, None]
    assert data_frame(x=[1, None]).columns["x"].tolist() == [1, None]
    assert rv.as_date(["2020-01-01", None, NA]).na_mask().tolist() == [False, True, True]
    assert matrix([1, None, NA, 4], 2).na_mask().tolist() == [False, True, True, False]


def test_unbox_refuses_as_jsonlite_does() -> None:
    with pytest.raises(RValueError, match=r"^Tried to unbox a vector of length 2$"):
        unbox(c(1, 2))
    with pytest.raises(RValueError, match=r"^Tried to unbox dataframe with 2 rows\.$"):
        unbox(data_frame(a=[1, 2]))
    with pytest.raises(RValueError, match=r"^Only atomic vectors of length 1 or data frames with 1 row"):
        unbox(matrix([1], 1))
    assert unbox(NULL) is NULL


def test_i_is_idempotent_and_prepends() -> None:
    x = rv.I(rv.I(factor("a")))
    assert x.attributes["class"].tolist() == ["AsIs", "factor"]


def test_data_frame_recycles_and_refuses_as_r_does() -> None:
    frame = data_frame(x=[1, 2, 3, 4], y=[1, 2], z="k")
    assert frame.columns["y"].tolist() == [1, 2, 1, 2]
    assert frame.columns["z"].tolist() == ["k"] * 4
    with pytest.raises(RValueError, match=r"^arguments imply differing number of rows: 2, 3$"):
        data_frame(x=[1, 2], y=[1, 2, 3])
    with pytest.raises(RValueError, match=r"^duplicate row.names: a$"):
        data_frame(x=[1, 2], row_names=["a", "a"])
    assert rv.construct.make_names(["a b", "1x", "if", None]) == ["a.b", "X1x", "if.", "NA."]
    assert rv.construct.make_unique(["a", "a", "a.1"]) == ["a", "a.2", "a.1"]


def test_data_frame_takes_row_names_from_the_first_named_vector() -> None:
    frame = data_frame(x=c(a=1.0, b=2.0))
    assert frame.row_names.tolist() == ["a", "b"]
    assert frame.columns["x"].names is None


def test_elements_read_back_as_python_values() -> None:
    assert Double([1.5, None, math.nan]).tolist()[:2] == [1.5, None]
    assert Integer([3, None])[1] is None
    assert Integer([3, None])[-2] == 3
    assert r_list(a=1, b="x")["b"] == c("x")
    assert list(Logical([True, None])) == [True, None]


def test_identical_ignores_attribute_order_and_equality_uses_it() -> None:
    x = c(a=1.0)
    assert x == Double([1.0]).with_names(["a"])
    assert x != Double([1.0])
    assert len({x, Double([1.0]).with_names(["a"])}) == 1


def test_null_has_no_attributes() -> None:
    with pytest.raises(RValueError, match="NULL cannot have attributes"):
        NULL.with_attributes({"names": "a"})
    assert rv.NULLType() is NULL
