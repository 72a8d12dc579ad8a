"""The same tables built in Arrow and in R, for the Arrow conversion tests.

Each case is an R expression (``df()`` is a plain data.frame constructor that also takes data-frame
and list columns) and a function building the pyarrow table of the same data. Sources: the pyarrow
table itself, a polars DataFrame and a DuckDB relation made from it (each engine's own Arrow output
is what ``as_r`` reads); ``SKIP`` says where an engine cannot hold the case's types.
"""

from __future__ import annotations

import datetime as dt
import json
import subprocess
import tempfile
from collections.abc import Callable
from decimal import Decimal
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo

import numpy as np
import pyarrow as pa

from tests.conftest import RSCRIPT

NY = ZoneInfo("America/New_York")
PARIS = ZoneInfo("Europe/Paris")
NAN = float("nan")


def _ints() -> pa.Table:
    return pa.table(
        {
            "i8": pa.array([1, None, -3], pa.int8()),
            "i16": pa.array([1, None, -300], pa.int16()),
            "i32": pa.array([1, None, -2147483647], pa.int32()),
            "u8": pa.array([1, None, 255], pa.uint8()),
            "u16": pa.array([1, None, 65535], pa.uint16()),
            "i64": pa.array([1, None, 2147483647], pa.int64()),
            "u32": pa.array([1, None, 7], pa.uint32()),
            "u64": pa.array([1, None, 9], pa.uint64()),
        }
    )


def _floats() -> pa.Table:
    return pa.table(
        {
            "f32": pa.array([1.5, None, NAN, float("inf")], pa.float32()),
            "f64": pa.array([0.1, None, NAN, -1e-300], pa.float64()),
            "f16": pa.array(np.array([0.5, NAN, 0, -2.0], np.float16), mask=np.array([0, 0, 1, 0], bool)),
        }
    )


def _decimals() -> pa.Table:
    values = [Decimal("1.25"), None, Decimal("-3.10")]
    return pa.table(
        {
            "d9": pa.array(values, pa.decimal128(9, 2)),
            "d38": pa.array([Decimal("0.1"), None, Decimal("123456789.123456789")], pa.decimal128(38, 10)),
        }
    )


def _strings() -> pa.Table:
    values = ["a", None, 'é"\n\\', ""]
    return pa.table(
        {
            "s": pa.array(values, pa.string()),
            "ls": pa.array(values, pa.large_string()),
            "sv": pa.array(values, pa.string_view()),
        }
    )


def _factors() -> pa.Table:
    dictionary = pa.array(["b", "a", "c"])
    indices = pa.array([0, 1, None, 0], pa.int8())
    return pa.table(
        {
            "f": pa.DictionaryArray.from_arrays(indices, dictionary),
            "o": pa.DictionaryArray.from_arrays(indices, dictionary, ordered=True),
        }
    )


def _dates() -> pa.Table:
    days = [0, None, 18262, -1]
    return pa.table(
        {
            "d32": pa.array(days, pa.date32()),
            "d64": pa.array([None if d is None else d * 86_400_000 for d in days], pa.date64()),
        }
    )


def _timestamps() -> pa.Table:
    when = [dt.datetime(2020, 1, 2, 3, 4, 5, tzinfo=dt.UTC), None, dt.datetime(1960, 6, 1, tzinfo=dt.UTC)]
    return pa.table(
        {
            "naive": pa.array(
                [None if w is None else w.replace(tzinfo=None) for w in when], pa.timestamp("s")
            ),
            "utc": pa.array(when, pa.timestamp("ms", tz="UTC")),
            "ny": pa.array(when, pa.timestamp("us", tz="America/New_York")),
            "paris": pa.array(when, pa.timestamp("ns", tz="Europe/Paris")),
        }
    )


def _nested() -> pa.Table:
    return pa.table(
        {
            "id": pa.array([1, 2, 3], pa.int32()),
            "st": pa.array(
                [{"a": 1, "b": "x"}, {"a": None, "b": "y"}, {"a": 3, "b": None}],
                pa.struct([("a", pa.int32()), ("b", pa.string())]),
            ),
            "l": pa.array([[1, 2], None, []], pa.list_(pa.int32())),
            "ls": pa.array([["a"], ["b", None], None], pa.large_list(pa.string())),
            "fx": pa.array([[1.5, None], None, [0.5, 2.0]], pa.list_(pa.float64(), 2)),
        }
    )


def _nulls() -> pa.Table:
    return pa.table({"n": pa.nulls(3), "b": pa.array([True, None, False], pa.bool_())})


def _empty() -> pa.Table:
    schema = pa.schema(
        [
            ("i", pa.int32()),
            ("s", pa.string()),
            ("d", pa.date32()),
            ("t", pa.timestamp("us", tz="UTC")),
            ("f", pa.dictionary(pa.int32(), pa.string())),
            ("x", pa.float64()),
        ]
    )
    return schema.empty_table()


def _chunked() -> pa.Table:
    first = pa.record_batch(
        {
            "x": pa.array([1.5, None], pa.float64()),
            "f": pa.array(["b", "a"]).dictionary_encode(),
            "i": pa.array([None, 2], pa.int64()),
        }
    )
    second = pa.record_batch(
        {
            "x": pa.array([NAN, 4.0], pa.float64()),
            "f": pa.array(["c", None, "a"][:2]).dictionary_encode(),
            "i": pa.array([3, None], pa.int64()),
        }
    )
    return pa.Table.from_batches([first, second])


def _arrow_only() -> pa.Table:
    return pa.table(
        {
            "d256": pa.array([Decimal("2.5"), None, Decimal("-0.001")], pa.decimal256(40, 5)),
            "lv": pa.array([[True], [], None], pa.list_view(pa.bool_())),
        }
    )


def _views(offsets: list[int], sizes: list[int], values: Any, nulls: list[bool] | None = None) -> Any:
    """A list view made from its offsets and sizes as given (out of order, overlapping, ...)."""
    mask = None if nulls is None else pa.array(nulls, pa.bool_())
    return pa.ListViewArray.from_arrays(
        pa.array(offsets, pa.int32()), pa.array(sizes, pa.int32()), values, mask=mask
    )


def _list_views() -> pa.Table:
    return pa.table(
        {
            "plain": pa.array([[1], None, [2, 3], []], pa.list_view(pa.int32())),
            "large": pa.array([["a", None], [], None, ["b"]], pa.large_list_view(pa.string())),
            "sliced": pa.array([[9], [1], None, [2, 3], [], [8]], pa.list_view(pa.int32())).slice(1, 4),
            "unordered": _views([2, 0, 3, 3], [1, 2, 0, 1], pa.array([1.5, NAN, None, 4.0])),
            "overlapping": _views([0, 1, 0, 2], [3, 2, 1, 1], pa.array([1, 2, 3], pa.int64())),
            "null_backed": _views(
                [0, 0, 1, 2], [1, 3, 1, 1], pa.array([True, False, None]), [False, True, False, True]
            ),
            "sliced_views": _views([5, 3, 0, 1, 0], [1, 2, 3, 0, 2], pa.array(list("abcdef"))).slice(1),
            "hidden_big": pa.array(
                [[2**40], [1], None, [2], [], [-(2**41)]], pa.large_list_view(pa.int64())
            ).slice(1, 4),
        }
    )


def _list_views_nested() -> pa.Table:
    inner = _views([1, 0, 2, 0], [2, 1, 1, 3], pa.array([5, 6, 7], pa.int32())).slice(1)
    rows = pa.array(
        [{"a": None, "b": "y"}, {"a": 3, "b": None}, {"a": 1, "b": "x"}, None],
        pa.struct([("a", pa.int32()), ("b", pa.string())]),
    )
    codes = pa.DictionaryArray.from_arrays(pa.array([1, 0, None, 2], pa.int8()), pa.array(["b", "a", "c"]))
    days = pa.array([0, None, 18262], pa.date32())
    return pa.table(
        {
            "nested": pa.LargeListViewArray.from_arrays(pa.array([2, 0, 1]), pa.array([1, 2, 0]), inner),
            "structs": _views([2, 0, 0], [2, 0, 2], rows, [False, True, False]),
            "factors": _views([2, 0, 3], [2, 1, 0], codes),
            "dates": pa.LargeListViewArray.from_arrays(pa.array([1, 0, 0]), pa.array([2, 0, 3]), days),
            "in_struct": pa.StructArray.from_arrays(
                [
                    _views([3, 0, 9, 1], [1, 2, 0, 1], pa.array([1, 2, 3, 4], pa.int32())),
                    pa.array([0, 1, 2, 3]),
                ],
                names=["lv", "n"],
                mask=pa.array([False, False, True, False]),
            ).slice(1),
        }
    )


def _list_views_chunked() -> pa.Table:
    levels = pa.DictionaryArray.from_arrays(pa.array([0, 1], pa.int8()), pa.array(["p", "q"]))
    other = pa.DictionaryArray.from_arrays(pa.array([1, 0], pa.int8()), pa.array(["q", "r"]))
    first = pa.record_batch(
        {
            "v": pa.array([[1], None], pa.list_view(pa.int64())),
            "f": _views([1, 0], [1, 2], levels),
        }
    )
    empty = pa.record_batch({"v": first.column(0).slice(0, 0), "f": first.column(1).slice(0, 0)})
    second = pa.record_batch(
        {
            "v": _views([2, 0, 1], [1, 0, 2], pa.array([7, 8, 9], pa.int64()), [False, False, False]).slice(
                1
            ),
            "f": _views([0, 1, 0], [1, 1, 0], other).slice(1),
        }
    )
    return pa.Table.from_batches([first, empty, second])


def _durations() -> pa.Table:
    return pa.table({"d": pa.array([90_000_000, None, -1_500_000], pa.duration("us"))})


def _int64_big() -> pa.Table:
    return pa.table(
        {
            "i64": pa.array([2147483648, None, -5], pa.int64()),
            "u64": pa.array([2**53, None, 1], pa.uint64()),
            "u32": pa.array([4294967295, None, 0], pa.uint32()),
        }
    )


def _polars_native() -> Any:
    import polars as pl

    paris = pl.Series([dt.datetime(2020, 1, 2, 3, 4, 5), None, dt.datetime(1960, 6, 1)])
    return pl.DataFrame(
        {
            "i": [1, None, 3],
            "x": [1.5, None, NAN],
            "s": ["a", None, "c"],
            "e": pl.Series(["x", "y", None], dtype=pl.Enum(["y", "x"])),
            "d": [dt.date(2020, 1, 1), None, dt.date(1969, 12, 31)],
            "t": paris.dt.replace_time_zone("UTC").dt.convert_time_zone("Europe/Paris"),
            "l": [[1, 2], None, []],
            "st": [{"a": 1, "b": "x"}, {"a": None, "b": "y"}, None],
            "b": [True, None, False],
        }
    )


def _duckdb_native() -> Any:
    import duckdb

    con = duckdb.connect()
    con.execute("CREATE TYPE mood AS ENUM ('y', 'x')")
    return con.sql(
        "SELECT * FROM (VALUES "
        "(1, 1.5::DOUBLE, 'a', DATE '2020-01-01', TIMESTAMPTZ '2020-01-02 03:04:05+00', [1, 2], "
        "{'a': 1}, 1.25::DECIMAL(9, 2), 'x'::mood, 5::BIGINT, true), "
        "(NULL, 'NaN'::DOUBLE, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL, NULL), "
        "(3, NULL, 'c', DATE '1969-12-31', TIMESTAMPTZ '1960-06-01 00:00:00+00', [], {'a': NULL}, "
        "-3.1, 'y', -7, false)) t(i, x, s, d, ts, l, st, dec, e, big, b) ORDER BY i NULLS FIRST"
    )


R_PRELUDE = """
suppressMessages(library(jsonlite))
df <- function(...) {
  cols <- list(...)
  n <- if (length(cols)) NROW(cols[[1]]) else 0L
  structure(cols, class = "data.frame", row.names = .set_row_names(n))
}
utc <- function(...) as.POSIXct(c(...), tz = "UTC")
"""

_WHEN = '"2020-01-02 03:04:05", NA, "1960-06-01 00:00:00"'

CASES: dict[str, tuple[str, Callable[[], pa.Table]]] = {
    "ints": (
        "df(i8 = c(1L, NA, -3L), i16 = c(1L, NA, -300L), i32 = c(1L, NA, -2147483647L), "
        "u8 = c(1L, NA, 255L), u16 = c(1L, NA, 65535L), i64 = c(1L, NA, 2147483647L), "
        "u32 = c(1L, NA, 7L), u64 = c(1L, NA, 9L))",
        _ints,
    ),
    "floats": (
        "df(f32 = c(1.5, NA, NaN, Inf), f64 = c(0.1, NA, NaN, -1e-300), f16 = c(0.5, NaN, NA, -2))",
        _floats,
    ),
    "decimals": (
        "df(d9 = c(1.25, NA, -3.1), d38 = c(0.1, NA, 123456789.123456789))",
        _decimals,
    ),
    "strings": (
        'df(s = c("a", NA, "\\u00e9\\"\\n\\\\", ""), ls = c("a", NA, "\\u00e9\\"\\n\\\\", ""), '
        'sv = c("a", NA, "\\u00e9\\"\\n\\\\", ""))',
        _strings,
    ),
    "factors": (
        'df(f = factor(c("b", "a", NA, "b"), levels = c("b", "a", "c")), '
        'o = factor(c("b", "a", NA, "b"), levels = c("b", "a", "c"), ordered = TRUE))',
        _factors,
    ),
    "dates": (
        'df(d32 = as.Date(c("1970-01-01", NA, "2020-01-01", "1969-12-31")), '
        'd64 = as.Date(c("1970-01-01", NA, "2020-01-01", "1969-12-31")))',
        _dates,
    ),
    "timestamps": (
        f"df(naive = utc({_WHEN}), utc = utc({_WHEN}), "
        f'ny = .POSIXct(as.numeric(utc({_WHEN})), tz = "America/New_York"), '
        f'paris = .POSIXct(as.numeric(utc({_WHEN})), tz = "Europe/Paris"))',
        _timestamps,
    ),
    "nested": (
        'df(id = 1:3, st = df(a = c(1L, NA, 3L), b = c("x", "y", NA)), '
        'l = list(1:2, NULL, integer(0)), ls = list("a", c("b", NA), NULL), '
        "fx = list(c(1.5, NA), NULL, c(0.5, 2)))",
        _nested,
    ),
    "nulls": ("df(n = c(NA, NA, NA), b = c(TRUE, NA, FALSE))", _nulls),
    "empty": (
        "df(i = integer(0), s = character(0), d = as.Date(character(0)), t = utc(character(0)), "
        "f = factor(character(0)), x = numeric(0))",
        _empty,
    ),
    "chunked": (
        'df(x = c(1.5, NA, NaN, 4), f = factor(c("b", "a", "c", NA), levels = c("b", "a", "c")), '
        "i = c(NA, 2L, 3L, NA))",
        _chunked,
    ),
    "int64_big": (
        "df(i64 = c(2147483648, NA, -5), u64 = c(2^53, NA, 1), u32 = c(4294967295, NA, 0))",
        _int64_big,
    ),
    "arrow_only": ("df(d256 = c(2.5, NA, -0.001), lv = list(TRUE, logical(0), NULL))", _arrow_only),
    "durations": ('df(d = as.difftime(c(90, NA, -1.5), units = "secs"))', _durations),
    "list_views": (
        "df(plain = list(1L, NULL, 2:3, integer(0)), "
        'large = list(c("a", NA), character(0), NULL, "b"), '
        "sliced = list(1L, NULL, 2:3, integer(0)), "
        "unordered = list(NA_real_, c(1.5, NaN), numeric(0), 4), "
        "overlapping = list(1:3, 2:3, 1L, 3L), "
        "null_backed = list(TRUE, NULL, FALSE, NULL), "
        'sliced_views = list(c("d", "e"), c("a", "b", "c"), character(0), c("a", "b")), '
        "hidden_big = list(1L, NULL, 2L, integer(0)))",
        _list_views,
    ),
    "list_views_nested": (
        "df(nested = list(list(5:7), list(5L, 7L), list()), "
        'structs = list(df(a = c(1L, NA), b = c("x", NA)), NULL, df(a = c(NA, 3L), b = c("y", NA))), '
        'factors = list(factor(c(NA, "c"), levels = c("b", "a", "c")), '
        'factor("a", levels = c("b", "a", "c")), factor(character(0), levels = c("b", "a", "c"))), '
        'dates = list(as.Date(c(NA, "2020-01-01")), as.Date(character(0)), '
        'as.Date(c("1970-01-01", NA, "2020-01-01"))), '
        "in_struct = df(lv = list(1:2, NULL, 2L), n = c(1L, NA, 3L)))",
        _list_views_nested,
    ),
    "list_views_chunked": (
        "df(v = list(1L, NULL, integer(0), 8:9), "
        'f = list(factor("q", levels = c("p", "q", "r")), factor(c("p", "q"), levels = c("p", "q", "r")), '
        'factor("q", levels = c("p", "q", "r")), factor(character(0), levels = c("p", "q", "r"))))',
        _list_views_chunked,
    ),
}
LIST_VIEWS = ("list_views", "list_views_nested", "list_views_chunked")
"""Cases of list_view and large_list_view columns: sliced, out of order, overlapping, nested, chunked."""
WARNS = {"int64_big"}
"""Cases whose conversion warns (IntegerOverflowWarning), as R's integer range calls for."""

NATIVE: dict[str, tuple[str, Callable[[], Any]]] = {
    "polars": (
        'df(i = c(1L, NA, 3L), x = c(1.5, NA, NaN), s = c("a", NA, "c"), '
        'e = factor(c("x", "y", NA), levels = c("y", "x"), ordered = TRUE), '
        'd = as.Date(c("2020-01-01", NA, "1969-12-31")), '
        f't = .POSIXct(as.numeric(utc({_WHEN})), tz = "Europe/Paris"), '
        "l = list(1:2, NULL, integer(0)), "
        'st = df(a = c(1L, NA, NA), b = c("x", "y", NA)), b = c(TRUE, NA, FALSE))',
        _polars_native,
    ),
    "duckdb": (
        'df(i = c(NA, 1L, 3L), x = c(NaN, 1.5, NA), s = c(NA, "a", "c"), '
        'd = as.Date(c(NA, "2020-01-01", "1969-12-31")), '
        'ts = utc(NA, "2020-01-02 03:04:05", "1960-06-01 00:00:00"), '
        "l = list(NULL, 1:2, integer(0)), st = df(a = c(NA, 1L, NA)), dec = c(NA, 1.25, -3.1), "
        'e = factor(c(NA, "x", "y"), levels = c("y", "x")), big = c(NA, 5L, -7L), b = c(NA, TRUE, FALSE))',
        _duckdb_native,
    ),
}
"""Frames made by the engines themselves (polars constructors, a DuckDB query)."""

OPTIONS: dict[str, dict[str, Any]] = {
    "rows": {},
    "rows_na_string": {"na": "string"},
    "columns": {"dataframe": "columns"},
    "columns_na_string": {"dataframe": "columns", "na": "string"},
    "values": {"dataframe": "values"},
}
"""``to_json`` options (and ``digits = NA`` for exact doubles), the same in R."""


def _r_call(options: dict[str, Any]) -> str:
    given = "".join(f', {key} = "{value}"' for key, value in options.items())
    return f"toJSON(x{given}, digits = NA)"


def r_answers() -> dict[str, dict[str, str]]:
    """jsonlite's JSON of every case under every option, from one R process."""
    assert RSCRIPT is not None
    caught = 'error = function(e) paste("ERROR:", conditionMessage(e))'
    lines = []
    for name, (expr, _) in {**CASES, **{f"native_{k}": v for k, v in NATIVE.items()}}.items():
        calls = ", ".join(
            f'"{option}" = tryCatch(as.character({_r_call(given)}), {caught})'
            for option, given in OPTIONS.items()
        )
        lines.append(f'"{name}" = local({{ x <- {expr}; list({calls}) }})')
    script = R_PRELUDE + "out <- list(\n" + ",\n".join(lines) + ")\ncat(toJSON(out, auto_unbox = TRUE))\n"
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / "cases.R"
        path.write_text(script, encoding="utf-8")
        run = subprocess.run(
            [RSCRIPT, "--vanilla", str(path)],
            capture_output=True,
            text=True,
            check=True,
            env={"TZ": "UTC", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"},
        )
    return json.loads(run.stdout)  # type: ignore[no-any-return]
