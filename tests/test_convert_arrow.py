"""Arrow in and back: what ``as_r`` accepts, NA versus NaN, errors, the pandas path, ``to_arrow``."""

from __future__ import annotations

import datetime as dt
import re
import subprocess
import sys
import warnings
from decimal import Decimal
from typing import Any

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import mcplite
import rvalues as rv
from mcplite.testing import Client
from tests.arrow_cases import CASES

pl = pytest.importorskip("polars")
duckdb = pytest.importorskip("duckdb")


def test_import_rvalues_imports_no_arrow_engine() -> None:
    code = (
        "import sys, rvalues, mcplite\n"
        "engines = {'pyarrow', 'polars', 'duckdb', 'pandas'}\n"
        "print(sorted({m.split('.')[0] for m in sys.modules} & engines))"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"


def test_a_list_is_not_mistaken_for_arrow_data() -> None:
    code = "import sys, rvalues as rv\nrv.as_r([1, 'a', None])\nprint('pyarrow' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "False"


TABLE = pa.table({"x": pa.array([1, None, 3], pa.int32()), "y": ["a", "b", None]})


@pytest.mark.parametrize(
    "make",
    [
        lambda: TABLE,
        lambda: TABLE.to_batches()[0],
        lambda: pa.RecordBatchReader.from_batches(TABLE.schema, TABLE.to_batches()),
        lambda: pl.from_arrow(TABLE),
        lambda: duckdb.from_arrow(TABLE),
        lambda: duckdb.sql("SELECT * FROM (VALUES (1, 'a'), (NULL, 'b'), (3, NULL)) t(x, y) ORDER BY y"),
    ],
    ids=["Table", "RecordBatch", "RecordBatchReader", "polars", "duckdb_from_arrow", "duckdb_sql"],
)
def test_every_tabular_kind_is_the_same_data_frame(make: Any) -> None:
    expected = rv.data_frame(x=rv.Integer([1, None, 3]), y=rv.Character(["a", "b", None]))
    assert rv.identical(rv.as_r(make()), expected)


@pytest.mark.parametrize(
    "make",
    [
        lambda: pa.array([1.5, None, float("nan")]),
        lambda: pa.chunked_array([[1.5], [], [None, float("nan")]]),
        lambda: pl.Series([1.5, None, float("nan")]),
        lambda: pd.Series(pd.arrays.ArrowExtensionArray(pa.array([1.5, None, float("nan")]))),
    ],
    ids=["Array", "ChunkedArray", "polars_Series", "pandas_ArrowDtype"],
)
def test_every_vector_kind_keeps_null_apart_from_nan(make: Any) -> None:
    value = rv.as_r(make())
    assert rv.identical(value, rv.Double([1.5, None, float("nan")]))
    assert rv.to_json(value, na="string") == '[1.5,"NA","NaN"]'


def test_a_scalar_is_a_vector_of_one() -> None:
    assert rv.identical(rv.as_r(pa.scalar(3, pa.int16())), rv.Integer([3]))
    assert rv.identical(rv.as_r(pa.scalar(None, pa.string())), rv.Character([None]))


class _Capsules:
    """Only the PyCapsule interface, as another Arrow library would offer it."""

    def __init__(self, data: Any) -> None:
        self._data = data

    def __arrow_c_array__(self, requested_schema: Any = None) -> Any:
        return self._data.__arrow_c_array__(requested_schema)


def test_any_object_with_the_array_capsule_is_read() -> None:
    assert rv.identical(rv.as_r(_Capsules(pa.array(["a", None]))), rv.Character(["a", None]))
    frame = rv.as_r(_Capsules(pa.record_batch({"a": [1, 2]})))
    assert rv.identical(frame, rv.data_frame(a=rv.Integer([1, 2])))


def test_sliced_arrays_read_their_own_window() -> None:
    ints = pa.array([9, 1, None, 3, 9], pa.int64()).slice(1, 3)
    assert rv.identical(rv.as_r(ints), rv.Integer([1, None, 3]))
    strings = pa.array(["z", "a", None, "c", "z"]).slice(1, 3)
    assert rv.identical(rv.as_r(strings), rv.Character(["a", None, "c"]))
    lists = pa.array([[0], [1, 2], None, []], pa.list_(pa.int8())).slice(1)
    assert rv.identical(rv.as_r(lists), rv.r_list(rv.Integer([1, 2]), rv.NULL, rv.Integer([])))
    days = pa.array([0, 1, None], pa.date32()).slice(1)
    assert rv.identical(rv.as_r(days), rv.as_date(["1970-01-02", None]))


def test_chunked_dictionaries_are_unified_in_first_seen_order() -> None:
    chunks = pa.chunked_array(
        [pa.array(["b", "a"]).dictionary_encode(), pa.array(["c", "a"]).dictionary_encode()]
    )
    value = rv.as_r(chunks)
    assert value.attributes["levels"].data.tolist() == ["b", "a", "c"]
    assert value.data.tolist() == [1, 2, 3, 2]


def test_a_null_in_the_dictionary_is_na_not_a_level() -> None:
    array = pa.DictionaryArray.from_arrays(pa.array([0, 1, 2, None], pa.int32()), pa.array(["a", None, "b"]))
    assert rv.identical(rv.as_r(array), rv.factor(["a", None, "b", None], levels=["a", "b"]))


def test_an_integer_dictionary_has_rs_character_levels() -> None:
    array = pa.DictionaryArray.from_arrays(pa.array([1, 0], pa.int8()), pa.array([10, 2], pa.int64()))
    assert rv.identical(rv.as_r(array), rv.factor(["2", "10"], levels=["10", "2"]))


def test_large_decimals_round_to_the_nearest_double() -> None:
    for digits, kind in (
        (["12345678901234567890.123456789", "0.3"], pa.decimal128(38, 9)),
        (["-0.1000000000000000055511151231257827"], pa.decimal128(38, 36)),
    ):
        array = pa.array([Decimal(d) for d in digits], kind)
        assert rv.as_r(array).data.tolist() == [float(Decimal(d)) for d in digits]  # Python rounds exactly
    few = pa.array([Decimal("0.3"), Decimal("-1234567.89"), None], pa.decimal128(9, 2))
    assert rv.as_r(few).data.tolist()[:2] == [0.3, -1234567.89]
    negative_scale = pa.array([Decimal("1.23E+5"), Decimal("-1E+2")], pa.decimal128(5, -2))
    assert rv.as_r(negative_scale).data.tolist() == [123000.0, -100.0]


def test_int64_past_rs_range_is_double_with_numpys_warning() -> None:
    with pytest.warns(rv.IntegerOverflowWarning, match="do not fit R's integer range"):
        value = rv.as_r(pa.array([2**40, None], pa.int64()))
    assert value.r_type == "double" and rv.to_json(value, na="string") == '[1099511627776,"NA"]'


def test_fixed_offsets_and_naive_times_are_utc() -> None:
    when = dt.datetime(2020, 1, 1, tzinfo=dt.UTC)
    for kind in (pa.timestamp("s"), pa.timestamp("s", tz="+01:00")):
        value = rv.as_r(pa.array([when], kind))
        assert value.attributes["tzone"].data.tolist() == ["UTC"]
        assert value.data.tolist() == [when.timestamp()]


def test_a_duration_is_difftime_as_pandas_gives() -> None:
    array = pa.array([1_500_000, None], pa.duration("us"))
    expected = rv.as_r(pd.Series([pd.Timedelta(microseconds=1_500_000), pd.NaT], dtype="timedelta64[us]"))
    assert rv.identical(rv.as_r(array), expected)


@pytest.mark.parametrize(
    ("array", "type_name"),
    [
        (pa.array([[("a", 1)]], pa.map_(pa.string(), pa.int64())), "map<string, int64>"),
        (pa.UnionArray.from_sparse(pa.array([0], pa.int8()), [pa.array([1])]), "sparse_union"),
        (pa.array([pa.MonthDayNano([1, 2, 3])], pa.month_day_nano_interval()), "month_day_nano_interval"),
        (pa.array([b"x"]), "binary"),
        (pa.array([1], pa.time32("s")), "time32[s]"),
    ],
    ids=["map", "union", "interval", "binary", "time"],
)
def test_types_without_an_r_equivalent_name_the_column_and_type(array: Any, type_name: str) -> None:
    with pytest.raises(rv.RValueError, match=re.escape(f"column 'odd one': Arrow type {type_name}")):
        rv.as_r(pa.table({"ok": pa.array([1] * len(array)), "odd one": array}))
    with pytest.raises(rv.RValueError, match="column 'st' field 'inner': Arrow type"):
        rv.as_r(pa.table({"st": pa.StructArray.from_arrays([array], names=["inner"])}))


def test_nul_in_a_string_is_refused_as_r_refuses_it() -> None:
    with pytest.raises(rv.RValueError, match="column 's'"):
        rv.as_r(pa.table({"s": ["ok"] * 2000 + ["a\x00b"]}))


def test_short_numbers_without_nulls_are_copied_not_shared() -> None:
    # long ones share Arrow's buffer, read-only: tests/test_convert_arrow_zero_copy.py
    array = pa.array(np.arange(100, dtype=np.float64))
    value = rv.as_r(array)
    assert not np.shares_memory(value.data, np.frombuffer(array.buffers()[1], dtype=np.float64))
    assert not value.data.flags.writeable


# -- against the pandas path ----------------------------------------------------------------------

EXACT_IN_PANDAS = pa.table(
    {
        "i": pa.array([1, -2, 3], pa.int32()),
        "x": pa.array([1.5, float("nan"), -0.0]),
        "b": [True, False, True],
        "s": ["a", None, "é"],
        "f": pa.array(["u", "v", "u"]).dictionary_encode(),
        "d": pa.array([0, None, 18262], pa.date32()),
        "t": pa.array([0, None, 1_700_000_000_123_456], pa.timestamp("us", tz="UTC")),
        "ny": pa.array([0, 1, None], pa.timestamp("s", tz="America/New_York")),
    }
)


def test_where_pandas_holds_the_data_exactly_both_paths_agree() -> None:
    assert rv.identical(rv.as_r(EXACT_IN_PANDAS), rv.as_r(EXACT_IN_PANDAS.to_pandas()))


@pytest.mark.parametrize("case", ["strings", "factors", "dates", "timestamps", "nulls"])
def test_each_case_pandas_holds_exactly_is_identical_both_ways(case: str) -> None:
    """Cases whose nulls pandas keeps as None or NaT (not NaN) give the same R value both ways."""
    table = CASES[case][1]()
    assert rv.identical(rv.as_r(table), rv.as_r(table.to_pandas()))


def test_pandas_turns_null_into_nan_where_arrow_keeps_it_apart() -> None:
    """(tests/test_convert_arrow_r.py shows the Arrow side is R's answer.)"""
    table = pa.table({"x": pa.array([1.5, None, float("nan")]), "i": pa.array([1, None, 3], pa.int32())})
    arrow, pandas = rv.as_r(table), rv.as_r(table.to_pandas())
    assert [c.na_only_mask().tolist() for c in (arrow.data[0], pandas.data[0])] == [
        [False, True, False],
        [False, False, False],
    ]
    assert (arrow.data[1].r_type, pandas.data[1].r_type) == ("integer", "double")


# -- to_arrow ------------------------------------------------------------------------------------


ROUND_TRIP = [name for name in CASES if name != "decimals"]
"""decimals: a double holds 15 digits, so a decimal of more is the nearest double (tested above)."""
NULL_STRUCTS = {"list_views_nested"}
"""Cases with a null struct, which comes back as a struct of nulls (R has no null row): types only."""


@pytest.mark.parametrize("case", ROUND_TRIP)
def test_a_round_trip_keeps_every_value_na_and_type(case: str) -> None:
    table = CASES[case][1]()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", rv.IntegerOverflowWarning)
        value = rv.as_r(table)
        back = rv.to_arrow(value)
        again = rv.as_r(back)
    expected = table.combine_chunks() if case != "chunked" else table.unify_dictionaries().combine_chunks()
    assert back.schema == expected.schema
    if case not in NULL_STRUCTS:
        assert back.to_pydict().__repr__() == expected.to_pydict().__repr__()  # NaN compares in the repr
    assert rv.identical(again, value)


def test_a_list_view_reaching_past_its_child_is_refused() -> None:
    """An array Arrow's own validation refuses (here built from raw buffers) is an error, not garbage."""
    offsets, sizes = (pa.py_buffer(np.array(v, np.int32).tobytes()) for v in ([0, 2], [1, 5]))
    child = pa.array([1, 2, 3], pa.int32())
    bad = pa.Array.from_buffers(pa.list_view(pa.int32()), 2, [None, offsets, sizes], children=[child])
    with pytest.raises(pa.ArrowInvalid):
        bad.validate(full=True)
    with pytest.raises(rv.RValueError, match="reach items 0 to 6 of a child of 3 items"):
        rv.as_r(bad)


def test_a_null_struct_comes_back_as_a_struct_of_nulls() -> None:
    """R has no null data-frame row: a null struct is a row of NA in every field."""
    table = pa.table({"st": pa.array([{"a": 1}, None], pa.struct([("a", pa.int64())]))})
    back = rv.to_arrow(rv.as_r(table))
    assert back.schema == table.schema
    assert back.column("st").to_pylist() == [{"a": 1}, {"a": None}]


def test_decimals_of_fifteen_digits_round_trip() -> None:
    table = CASES["decimals"][1]().select(["d9"])
    assert rv.to_arrow(rv.as_r(table)).equals(table)


def test_values_born_in_r_get_the_default_arrow_types() -> None:
    frame = rv.data_frame(
        lgl=rv.Logical([True, None]),
        int=rv.Integer([1, None]),
        dbl=rv.Double([float("nan"), None]),
        chr=rv.Character(["a", None]),
        fct=rv.factor(["b", None], levels=["b", "a"]),
        date=rv.as_date(["2020-01-01", None]),
        time=rv.as_posixct(["2020-01-01 00:00:01", None], tz="Asia/Tokyo"),
    )
    back = rv.to_arrow(frame)
    assert [str(t) for t in back.schema.types] == [
        "bool",
        "int32",
        "double",
        "string",
        "dictionary<values=string, indices=int32, ordered=0>",
        "date32[day]",
        "timestamp[us, tz=Asia/Tokyo]",
    ]
    assert back.column("dbl").null_count == 1 and np.isnan(back.column("dbl")[0].as_py())
    assert all(back.column(n).null_count == 1 for n in back.column_names)
    assert rv.identical(rv.as_r(back), frame)


def test_polars_and_duckdb_read_what_to_arrow_gives() -> None:
    frame = rv.data_frame(x=rv.Integer([1, None, 3]), s=rv.Character(["a", "b", None]))
    arrow_table = rv.to_arrow(frame)
    assert pl.from_arrow(arrow_table).to_dict(as_series=False) == {"x": [1, None, 3], "s": ["a", "b", None]}
    assert duckdb.sql("SELECT sum(x) AS n, count(s) AS k FROM arrow_table").fetchall() == [(4, 2)]


def test_to_arrow_refuses_what_arrow_cannot_hold() -> None:
    with pytest.raises(rv.RValueError, match="complex"):
        rv.to_arrow(rv.Complex([1j]))
    with pytest.raises(rv.RValueError, match="share one Arrow type"):
        rv.to_arrow(rv.r_list(rv.Integer([1]), rv.Character(["a"])))
    with pytest.raises(rv.RValueError, match="expected an R value"):
        rv.to_arrow([1, 2])  # type: ignore[arg-type]


# -- the tool path -------------------------------------------------------------------------------


def test_a_tool_returning_a_polars_frame_sends_its_r_json() -> None:
    frame = pl.DataFrame({"x": [1.5, None, float("nan")], "s": ["a", None, "c"]})
    result = mcplite.as_tool_result(frame)
    born_in_r = rv.data_frame(x=rv.Double([1.5, None, float("nan")]), s=rv.Character(["a", None, "c"]))
    assert result.content[0].text == rv.to_json(born_in_r) == rv.to_json(rv.as_r(frame))


def test_tools_annotated_with_arrow_types_serve_their_r_json() -> None:
    server = mcplite.McpServer("arrow")

    @server.tool
    def table() -> pa.Table:
        """A pyarrow table."""
        return TABLE

    @server.tool
    def relation() -> object:
        """A DuckDB relation."""
        return duckdb.from_arrow(TABLE).filter("x IS NULL OR x > 0")

    expected = rv.to_json(rv.data_frame(x=rv.Integer([1, None, 3]), y=rv.Character(["a", "b", None])))
    with Client(server) as client:
        assert client.call_tool("table").text == expected
        assert client.call_tool("relation").text == expected


def test_long_date_time_columns_are_converted_block_by_block_to_the_same_bits() -> None:
    rng = np.random.default_rng(7)
    ticks = rng.integers(-(2**62), 2**62, 600_001)
    nulls = rng.random(len(ticks)) < 0.1
    value = rv.as_r(pa.array(ticks, pa.timestamp("ns", tz="UTC"), mask=nulls))
    whole, rest = np.divmod(ticks, 10**9)  # whole seconds and the rest, as for a short column
    expected = whole.astype(np.float64) + rest.astype(np.float64) / 10**9
    assert (value.data.view(np.uint64)[~nulls] == expected.view(np.uint64)[~nulls]).all()
    assert (value.na_only_mask() == nulls).all()


def test_without_pyarrow_arrow_data_asks_for_the_extra() -> None:
    code = (
        "import sys\n"
        "sys.modules['pyarrow'] = None  # as if it were not installed\n"
        "import rvalues as rv\n"
        "class Stream:\n"
        "    def __arrow_c_stream__(self, requested_schema=None): ...\n"
        "try:\n"
        "    rv.as_r(Stream())\n"
        "except rv.RValueError as err:\n"
        "    print(err)\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert "pip install 'rvalues-mcplite[arrow]'" in out.stdout


def test_pandas_arrowdtype_columns_follow_the_arrow_table() -> None:
    table = CASES["nested"][1]().append_column("f", pa.array(["b", None, "a"]).dictionary_encode())
    frame = table.to_pandas(types_mapper=pd.ArrowDtype)
    assert all(isinstance(dtype, pd.ArrowDtype) for dtype in frame.dtypes)
    assert rv.identical(rv.as_r(frame), rv.as_r(table))


def test_a_decimal_past_2_53_is_rounded_once_not_twice() -> None:
    """446673754019253275 as a double, then over 10**6, is one ulp off the nearest double."""
    digits = "446673754019.253275"
    exact = float(Decimal(digits))
    assert float(446673754019253275) / 10**6 != exact  # the shortcut would be wrong here
    assert rv.as_r(pa.array([Decimal(digits)], pa.decimal128(18, 6))).data.tolist() == [exact]
