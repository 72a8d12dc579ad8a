"""num_to_char's two paths (vectorized for arrays, per value for a few) agree on every value
and every digits setting; both are checked against R by the corpus and the differential test."""

from __future__ import annotations

import numpy as np
from hypothesis import given, settings
from hypothesis import strategies as st

from rvalues.json.numbers import SMALL, int_to_char, num_to_char
from rvalues.na import NA_INTEGER, NA_REAL

SPECIAL = [
    0.0,
    -0.0,
    0.5,
    1.5,
    2.5,
    -2.5,
    0.00015,
    1e-5,
    -1e-5,
    1.0000001e-5,
    9.99995,
    99999.99999,
    2147483646.5,
    2147483647.0,
    -2147483647.0,
    1e15,
    1e16,
    123456789012.345,
    5e-324,
    1.7976931348623157e308,
    float("inf"),
    float("-inf"),
    float("nan"),
    NA_REAL,
    0.125,
    0.375,
    1.005,
    -0.00002,
]
DIGITS = [(p, s) for p in (0, 1, 2, 3, 4, 5, 6, 7, 9, 10, 12, 15, -1, None) for s in (False,)] + [
    (p, True) for p in (0, 1, 3, 6, 15, 17)
]

values = st.lists(
    st.one_of(st.floats(width=64), st.sampled_from(SPECIAL), st.floats(-1e6, 1e6).map(lambda v: round(v, 4))),
    min_size=SMALL + 1,
    max_size=150,
)
"""Lengths on both sides of 64, where a few distinct whole parts are formatted once as a table."""


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(
    values,
    st.sampled_from(DIGITS),
    st.sampled_from(["string", "null", "NA"]),
    st.booleans(),
    st.sampled_from(["", '"k":']),
)
def test_vectorized_and_per_value_paths_agree(vals, digits, na, always_decimal, prefix):
    arr = np.array(vals, dtype=np.float64)
    precision, signif = digits
    whole = num_to_char(arr, precision, na, signif, always_decimal, prefix).tolist()
    one_by_one = [
        num_to_char(arr[i : i + 1], precision, na, signif, always_decimal, prefix)[0] for i in range(len(arr))
    ]
    assert whole == one_by_one


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(
    st.lists(
        st.one_of(st.integers(-10, 10), st.integers(-(2**31) + 1, 2**31 - 1), st.just(NA_INTEGER)),
        min_size=1,
        max_size=150,
    ),
    st.sampled_from(["string", "null", "NA"]),
    st.sampled_from(["", '"k":', "%"]),
)
def test_integer_tokens_are_each_value_formatted(vals, na, prefix):
    arr = np.array(vals, dtype=np.int32)
    na_token = {"string": prefix + '"NA"', "null": prefix + "null", "NA": None}[na]
    expected = [na_token if v == NA_INTEGER else prefix + str(v) for v in vals]
    assert int_to_char(arr, na, prefix).tolist() == expected


@settings(max_examples=150, deadline=None, derandomize=True, database=None)
@given(
    st.lists(
        st.one_of(
            st.floats(-15, 15),
            st.floats(-2, 2).map(lambda v: round(v, 5)),
            st.sampled_from([0.5, -0.5, 2.5, -0.00002, 0.99995, -0.99995, NA_REAL]),
        ),
        min_size=64,
        max_size=300,
    ),
    st.sampled_from([0, 1, 2, 4, 5]),
    st.sampled_from(["", '"k":']),
)
def test_table_of_whole_parts_matches_per_value(vals, precision, prefix):
    arr = np.array(vals, dtype=np.float64)
    whole = num_to_char(arr, precision, "null", False, False, prefix).tolist()
    one_by_one = [
        num_to_char(arr[i : i + 1], precision, "null", False, False, prefix)[0] for i in range(len(arr))
    ]
    assert whole == one_by_one
