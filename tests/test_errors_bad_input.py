"""Bad input raises only RValueError or TypeError, with a short message naming the value and the rule."""

from __future__ import annotations

import warnings
from collections.abc import Callable
from typing import Any

import numpy as np
import pytest
from bad_inputs import bad_inputs, scalars
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import rvalues as rv

MAX_MESSAGE = 600

CONSTRUCTORS: dict[str, Callable[[Any], Any]] = {
    "Logical": rv.Logical,
    "Integer": rv.Integer,
    "Double": rv.Double,
    "Complex": rv.Complex,
    "Character": rv.Character,
    "Raw": rv.Raw,
    "List": rv.List,
    **{
        f"{name}(attributes)": (lambda make: lambda x: make([1], attributes=x))(getattr(rv, name))
        for name in ("Logical", "Integer", "Double", "Complex", "Character", "Raw", "List")
    },
    "Factor(levels)": lambda x: rv.Factor(["a"], levels=x),
    "Factor(ordered)": lambda x: rv.Factor(["a"], ordered=x),
    "POSIXct(tz)": lambda x: rv.POSIXct([0], tz=x),
    "as_posixct(origin)": lambda x: rv.as_posixct([1], tz="UTC", origin=x),
    "data_frame(check_names)": lambda x: rv.data_frame(col=[1], check_names=x),
    "matrix(byrow)": lambda x: rv.matrix([1, 2], nrow=1, byrow=x),
    "array(dimnames)": lambda x: rv.array([1, 2], dim=[1, 2], dimnames=x),
    "from_numpy(where)": lambda x: rv.from_numpy(np.array([1]), where=x),
    "List.from_pairs": rv.List.from_pairs,
    "Factor": rv.Factor,
    "Date": rv.Date,
    "POSIXct": lambda x: rv.POSIXct(x, tz="UTC"),
    "c": lambda x: rv.c(x),
    "c(*x)": lambda x: rv.c(*x) if isinstance(x, (list, tuple)) else rv.c(x),
    "r_list": lambda x: rv.r_list(x, a=x),
    "data_frame": lambda x: rv.data_frame(col=x),
    "data_frame(row_names)": lambda x: rv.data_frame(col=[1], row_names=x),
    "data_frame_from_pairs": rv.data_frame_from_pairs,
    "factor": rv.factor,
    "factor(levels)": lambda x: rv.factor(["a"], levels=x),
    "factor(ordered)": lambda x: rv.factor(["a"], ordered=x),
    "as_date": rv.as_date,
    "as_date(origin)": lambda x: rv.as_date([1], origin=x),
    "as_posixct": lambda x: rv.as_posixct(x, tz="UTC"),
    "as_posixct(tz)": lambda x: rv.as_posixct(["2020-01-01"], tz=x),
    "matrix": rv.matrix,
    "matrix(nrow)": lambda x: rv.matrix([1, 2], nrow=x),
    "matrix(ncol)": lambda x: rv.matrix([1, 2], ncol=x),
    "matrix(dimnames)": lambda x: rv.matrix([1, 2], nrow=1, dimnames=x),
    "array(dim)": lambda x: rv.array([1, 2], dim=x),
    "I": rv.I,
    "unbox": rv.unbox,
    "as_r": rv.as_r,
    "from_numpy": rv.from_numpy,
    "from_pandas": rv.from_pandas,
    "with_attributes": lambda x: (
        rv.c(1, 2).with_attributes(x) if isinstance(x, dict) else rv.c(1, 2).with_attributes({"names": x})
    ),
    "with_attributes(dim)": lambda x: rv.c(1, 2).with_attributes(dim=x),
    "with_attributes(class)": lambda x: rv.c(1, 2).with_attributes({"class": x}),
    "with_attributes(levels)": lambda x: rv.Integer([1]).with_attributes({"levels": x, "class": "factor"}),
    "with_attributes(row.names)": lambda x: rv.r_list(a=1).with_attributes(
        {"class": "data.frame", "row.names": x}
    ),
}


def _call(constructor: Callable[[Any], Any], value: Any) -> BaseException | None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            constructor(value)
        except (rv.RValueError, TypeError) as err:
            return err
    return None


@pytest.mark.parametrize("name", sorted(CONSTRUCTORS))
@settings(max_examples=30, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(value=bad_inputs)
def test_constructors_raise_only_the_promised_errors(name: str, value: Any) -> None:
    err = _call(CONSTRUCTORS[name], value)
    if err is not None:
        assert len(str(err)) <= MAX_MESSAGE, str(err)[:2000]


@settings(max_examples=80, derandomize=True, deadline=None, suppress_health_check=list(HealthCheck))
@given(values=st.lists(scalars, min_size=1, max_size=3))
def test_c_of_several_odd_arguments(values: list[Any]) -> None:
    err = _call(lambda v: rv.c(*v), values)
    if err is not None:
        assert len(str(err)) <= MAX_MESSAGE


def test_a_huge_bad_string_gives_a_short_message() -> None:
    huge = "x" * 10_000_000
    for constructor in (
        rv.Integer,
        rv.Double,
        rv.Logical,
        rv.Raw,
        rv.as_date,
        lambda v: rv.as_r(["\x00" + v[0]]),
    ):
        with pytest.raises(rv.RValueError) as info:
            constructor([huge])
        assert len(str(info.value)) < MAX_MESSAGE


HUGE = "x" * 10_000_000
HUGE_IN_MESSAGES: dict[str, Callable[[], Any]] = {
    "to_json(pretty)": lambda: rv.to_json(1, pretty=HUGE),
    "to_json(rownames)": lambda: rv.to_json(1, rownames=HUGE),
    "to_json(dataframe)": lambda: rv.to_json(1, dataframe=[HUGE]),
    "register(r_class)": lambda: rv.json.register([HUGE], lambda x, options: x),
    "data frame column": lambda: rv.r_list(**{HUGE: rv.c(1, 2)}).with_attributes(
        {"class": "data.frame", "row.names": [1]}
    ),
    "from_description(type)": lambda: rv.from_description({"type": HUGE, "values": []}),
    "as_r(type name)": lambda: rv.as_r(type("T" * 1_000_000, (), {})()),
    "to_json(dict key)": lambda: rv.to_json({HUGE: 10**400}),
    "time zone": lambda: rv.as_posixct(["2020-01-01"], tz=HUGE),
}


@pytest.mark.parametrize("name", sorted(HUGE_IN_MESSAGES))
def test_a_huge_value_is_cut_short_wherever_a_message_quotes_it(name: str) -> None:
    with pytest.raises((rv.RValueError, TypeError)) as info:
        HUGE_IN_MESSAGES[name]()
    assert len(str(info.value)) < MAX_MESSAGE, str(info.value)[:300]
    assert "characters)" in str(info.value) or "..." in str(info.value)


@pytest.mark.parametrize(
    "make",
    [
        lambda: rv.as_r(10**400),
        lambda: rv.c(1, -(10**400)),
        lambda: rv.Double([10**400]),
        lambda: rv.Complex([10**400]),
        lambda: rv.as_r(np.array([10**400, 1], dtype=object)),
        lambda: rv.as_r({"a": [10**400]}),
    ],
)
def test_integers_beyond_a_double_are_refused(make: Callable[[], Any]) -> None:
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        with pytest.raises(rv.RValueError, match="largest double"):
            make()


def _nested(depth: int) -> Any:
    out: Any = 1
    for _ in range(depth):
        out = [out]
    return out


def test_nesting_is_refused_past_the_documented_depth() -> None:
    assert rv.MAX_DEPTH == 100
    assert rv.as_r(_nested(rv.MAX_DEPTH)) is not None
    for depth in (rv.MAX_DEPTH + 1, 5_000, 100_000):
        with pytest.raises(rv.RValueError, match="at most 100 levels") as info:
            rv.as_r(_nested(depth))
        assert len(str(info.value)) < 300
    value: Any = rv.Integer([1])
    for _ in range(rv.MAX_DEPTH):
        value = rv.List([value])
    with pytest.raises(rv.RValueError, match="at most 100 levels"):
        rv.List([value])
    with pytest.raises(rv.RValueError, match="at most 100 levels"):
        rv.r_list(a=value)


def test_the_deepest_value_still_prints_serializes_and_pickles() -> None:
    import pickle

    value: Any = rv.Integer([1])
    for _ in range(rv.MAX_DEPTH):
        value = rv.List([value])
    assert rv.to_json(value).startswith("[" * rv.MAX_DEPTH)
    assert rv.identical(pickle.loads(pickle.dumps(value)), value)
    assert hash(value) == hash(pickle.loads(pickle.dumps(value)))
    assert repr(value)


@pytest.mark.parametrize(
    ("make", "error", "message"),
    [
        (lambda: rv.matrix([1], nrow=2**31), rv.RValueError, "invalid 'nrow' value .too large or NA."),
        (lambda: rv.matrix([1], ncol=float("nan")), rv.RValueError, "invalid 'ncol' value .too large or NA."),
        (lambda: rv.matrix([1], nrow=-1), rv.RValueError, r"invalid 'nrow' value \(< 0\)"),
        (lambda: rv.matrix([1], nrow=2**20, ncol=2**20), rv.RValueError, "cannot allocate vector of size"),
        (lambda: rv.array([1], dim=[2**20, 2**20, 2**10]), rv.RValueError, "cannot allocate vector of size"),
        (lambda: rv.array([1], dim=[]), rv.RValueError, "'dims' cannot be of length 0"),
        (lambda: rv.matrix([1], nrow="a"), TypeError, "'nrow' must be a number"),
        (lambda: rv.array([1], dim="ab"), TypeError, "'dim' must be a sequence of extents"),
    ],
)
def test_extents_are_checked_before_anything_is_allocated(
    make: Callable[[], Any], error: type[Exception], message: str
) -> None:
    with pytest.raises(error, match=message):
        make()


def test_fractional_extents_truncate_as_r_does() -> None:
    assert rv.matrix([1, 2, 3, 4, 5, 6], nrow=2.5).dim == (2, 3)  # R: matrix(1:6, nrow = 2.5) is 2 x 3
    assert rv.array([1], dim=[1.5, 2]).dim == (1, 2)
    assert rv.matrix([1], nrow=True).dim == (1, 1)


@pytest.mark.parametrize(
    "description",
    [
        {"type": "integer", "values": ["1.5"]},
        {"type": "integer", "values": [2**40]},
        {"type": "double", "values": ["not a number"]},
        {"type": "raw", "values": [256]},
        {"type": "list", "values": [{"type": "logical", "values": ["yes"]}]},
        {"values": [1]},
    ],
)
def test_descriptions_r_could_not_hold_are_refused(description: dict[str, Any]) -> None:
    with pytest.raises(rv.RValueError, match="from_description: not a value R could hold"):
        rv.from_description(description)


@pytest.mark.parametrize("name", ["Logical", "Integer", "Double", "Complex", "Character", "Raw", "List"])
@pytest.mark.parametrize("attributes", [5, "names", [("names", "a")], np.array([])])
def test_attributes_that_are_no_mapping_are_named_in_a_type_error(name: str, attributes: Any) -> None:
    with pytest.raises(TypeError, match=rf"^{name}\(attributes=\): expected a mapping of attribute names"):
        getattr(rv, name)([True] if name == "Logical" else [1], attributes=attributes)
    with pytest.raises(TypeError, match=r"^with_attributes: expected a mapping"):
        rv.c(1).with_attributes(attributes)
