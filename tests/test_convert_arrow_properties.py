"""Properties of the Arrow path on generated data: any chunking and slicing, nulls anywhere, list views
laid out anyhow.

The reference is computed in the test from Arrow's own Python values (``to_pylist``): null -> NA,
a NaN stays NaN, and ``to_arrow`` gives back the same values and type.
"""

from __future__ import annotations

import datetime as dt
import math
from decimal import Decimal
from typing import Any

import pyarrow as pa
from hypothesis import given, settings
from hypothesis import strategies as st

import rvalues as rv

EPOCH = dt.date(1970, 1, 1)

KINDS: dict[str, tuple[pa.DataType, st.SearchStrategy[Any]]] = {
    "int32": (pa.int32(), st.integers(-(2**31) + 1, 2**31 - 1)),
    "int8": (pa.int8(), st.integers(-128, 127)),
    "int64": (pa.int64(), st.integers(-(2**31) + 1, 2**31 - 1)),
    "float64": (pa.float64(), st.floats(allow_nan=True, allow_infinity=True)),
    "bool": (pa.bool_(), st.booleans()),
    "string": (
        pa.string(),
        st.text(st.characters(blacklist_categories=("Cs",), blacklist_characters="\x00")),
    ),
    "date32": (pa.date32(), st.integers(-(10**5), 10**5)),
}


@st.composite
def chunked(draw: st.DrawFn) -> tuple[str, pa.ChunkedArray]:
    kind = draw(st.sampled_from(sorted(KINDS)))
    arrow_type, values = KINDS[kind]
    chunks = []
    for _ in range(draw(st.integers(0, 3))):
        items = draw(st.lists(st.none() | values, max_size=20))
        array = pa.array(items, arrow_type)
        start = draw(st.integers(0, len(items)))
        chunks.append(array.slice(start, draw(st.integers(0, len(items) - start))))
    return kind, pa.chunked_array(chunks, arrow_type)


def _same(ours: list[Any], theirs: list[Any]) -> bool:
    return len(ours) == len(theirs) and all(
        (isinstance(a, float) and isinstance(b, float) and math.isnan(a) and math.isnan(b)) or a == b
        for a, b in zip(ours, theirs, strict=True)
    )


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(chunked())
def test_any_chunking_and_slicing_reads_arrows_values(case: tuple[str, pa.ChunkedArray]) -> None:
    kind, data = case
    value = rv.as_r(data)
    expected = data.to_pylist()
    if kind == "date32":  # R's Date is days since the epoch
        expected = [
            None if d is None else (d - __import__("datetime").date(1970, 1, 1)).days for d in expected
        ]
    assert _same(value.tolist(), expected)
    back = rv.to_arrow(value)
    assert back.type == data.type
    assert _same(back.to_pylist(), data.to_pylist())


# decimal32 and decimal64 arrived in pyarrow 18; the oldest pyarrow supported (17) has the wide two.
DECIMAL_TYPES = [
    (getattr(pa, name), precision)
    for name, precision in [("decimal32", 9), ("decimal64", 18), ("decimal128", 38), ("decimal256", 76)]
    if hasattr(pa, name)
]


@settings(max_examples=300, derandomize=True, database=None, deadline=None)
@given(st.sampled_from(DECIMAL_TYPES), st.data())
def test_decimals_are_the_nearest_doubles(kind: Any, data: st.DataObject) -> None:
    make, precision = kind
    scale = data.draw(st.integers(0, min(precision, 30)))  # pyarrow itself reads no wider scales
    digits = st.integers(-(10**precision) + 1, 10**precision - 1)
    unscaled = data.draw(st.lists(st.none() | digits, max_size=12))
    values = [None if u is None else Decimal(f"{u}E{-scale}") for u in unscaled]  # exact
    array = pa.array(values, make(precision, scale))
    assert rv.as_r(array).tolist() == [None if v is None else float(v) for v in values]


@st.composite
def list_views(draw: st.DrawFn) -> tuple[pa.Array, list[Any]]:
    """A list view whose elements are any stretches of its child (out of order, overlapping, with
    unused items between, nulls over anything), sliced; and the lists it stands for."""
    arrow_type, values = KINDS[draw(st.sampled_from(sorted(KINDS)))]
    child = draw(st.lists(st.none() | values, max_size=12))
    offsets, sizes, nulls = [], [], []
    for _ in range(draw(st.integers(0, 8))):
        offset = draw(st.integers(0, len(child)))
        offsets.append(offset)
        sizes.append(draw(st.integers(0, len(child) - offset)))
        nulls.append(draw(st.booleans()))
    large = draw(st.booleans())
    width, views = (pa.int64(), pa.LargeListViewArray) if large else (pa.int32(), pa.ListViewArray)
    view = views.from_arrays(
        pa.array(offsets, width),
        pa.array(sizes, width),
        pa.array(child, arrow_type),
        mask=pa.array(nulls, pa.bool_()),
    )
    start = draw(st.integers(0, len(offsets)))
    stop = draw(st.integers(start, len(offsets)))
    lists = [None if null else child[o : o + n] for o, n, null in zip(offsets, sizes, nulls, strict=True)]
    return view.slice(start, stop - start), lists[start:stop]


@settings(max_examples=200, derandomize=True, database=None, deadline=None)
@given(list_views())
def test_a_list_view_is_the_list_of_the_stretches_it_views(case: tuple[pa.Array, list[Any]]) -> None:
    view, lists = case
    plain = pa.array(lists, pa.list_(view.type.value_type))  # the same lists laid out in order
    assert repr(view.to_pylist()) == repr(plain.to_pylist())  # Arrow agrees (NaN compares in the repr)
    assert rv.identical(rv.as_r(view), rv.as_r(plain))
