"""Values pickle and (deep-)copy to identical values with locked arrays, for caches and worker pools."""

from __future__ import annotations

import copy
import pickle
from typing import Any

import pandas as pd
import pytest
from hypothesis import given, settings
from strategies import values
from test_model_memory import assert_locked

import rvalues as rv

EXAMPLES = [
    rv.NULL,
    rv.NA,
    rv.NA_character_,
    rv.c(1.5, rv.NA_real_, float("nan"), -0.0),
    rv.Complex([1 + 2j, None]),
    rv.Raw(b"\x00\xff"),
    rv.factor(["b", "a", None], ordered=True),
    rv.as_date(["2020-01-02", None]),
    rv.as_posixct(["2020-01-02 03:04:05"], tz="Europe/Paris"),
    rv.matrix([1, 2, 3, 4], nrow=2, dimnames=[["a", "b"], None]),
    rv.I(rv.c(1, 2)),
    rv.unbox(rv.c("x")),
    rv.r_list(a=1, b=rv.r_list(c="é", d=rv.NULL)),
    rv.data_frame(x=rv.Integer([1, 2]), y=["a", None], row_names=["r1", "r2"]),
    rv.from_pandas(pd.DataFrame({"when": pd.to_datetime(["2020-01-01"]), "f": pd.Categorical(["u"])})),
]


def _round_trips(value: Any) -> None:
    for protocol in range(pickle.HIGHEST_PROTOCOL + 1):
        back = pickle.loads(pickle.dumps(value, protocol=protocol))
        assert type(back) is type(value)
        assert rv.identical(back, value) and hash(back) == hash(value)
        assert rv.to_json(back) == rv.to_json(value)
        assert_locked(back)
    assert copy.deepcopy(value) is value and copy.copy(value) is value
    nested = copy.deepcopy({"key": [value]})
    assert nested["key"][0] is value


@pytest.mark.parametrize("value", EXAMPLES, ids=lambda v: type(v).__name__)
def test_examples_round_trip(value: Any) -> None:
    _round_trips(value)


def test_null_stays_the_singleton() -> None:
    assert pickle.loads(pickle.dumps(rv.NULL)) is rv.NULL
    assert pickle.loads(pickle.dumps(rv.r_list(a=rv.NULL)))["a"] is rv.NULL


@settings(max_examples=80, derandomize=True, deadline=None)
@given(values())
def test_generated_values_round_trip(description: dict[str, Any]) -> None:
    _round_trips(rv.from_description(description))


def test_a_pickled_payload_is_locked_again() -> None:
    value = rv.c(1.5, 2.5)
    back = pickle.loads(pickle.dumps(value))
    with pytest.raises(ValueError):
        back.data.flags.writeable = True
