"""Long float64 and int32 Arrow columns without nulls are read in place: R values share Arrow's
buffer, cannot be written, keep that buffer alive, and write the JSON jsonlite writes."""

from __future__ import annotations

import gc
import subprocess
import tempfile
import warnings
from pathlib import Path

import numpy as np
import pyarrow as pa
import pyarrow.compute as pc
import pytest

import rvalues as rv
from rvalues.model.storage import is_locked
from tests.conftest import RSCRIPT, requires_r

ROWS = 3000
START = 7
"""The columns are a slice from this row of a longer table, so Arrow's offset is read too."""


def _arrow_owned_doubles(n: int) -> pa.Array:
    """float64 values in memory Arrow allocated itself (not a numpy array it wraps)."""
    return pc.divide(pc.subtract(pa.array(np.arange(n, dtype=np.int64)), 100), pa.scalar(8.0))


def _buffer_view(array: pa.Array, dtype: type) -> np.ndarray:
    return np.frombuffer(array.buffers()[1], dtype=dtype)


@pytest.mark.parametrize(
    ("array", "dtype"),
    [
        (_arrow_owned_doubles(ROWS + 20).slice(START, ROWS), np.float64),
        (pa.array(np.arange(ROWS, dtype=np.int32) * 7 - 10_000), np.int32),
    ],
    ids=["float64", "int32"],
)
def test_long_columns_without_nulls_share_arrows_buffer_locked(array: pa.Array, dtype: type) -> None:
    value = rv.as_r(pa.table({"x": array})).data[0]
    assert np.shares_memory(value.data, _buffer_view(array, dtype))
    assert value.data.tolist() == array.to_pylist()
    assert is_locked(value.data)
    with pytest.raises(ValueError, match="read-only"):
        value.data[0] = 1
    with pytest.raises(ValueError, match="WRITEABLE"):
        value.data.flags.writeable = True
    with pytest.raises(ValueError, match="read-only"):
        np.asarray(value.data)[:1] = 1


def test_a_shared_column_keeps_arrows_memory_after_the_table_is_gone() -> None:
    table = pa.table({"x": _arrow_owned_doubles(200_000)})
    expected = table.column("x").to_pylist()
    before = pa.total_allocated_bytes()
    value = rv.as_r(table).data[0]
    assert pa.total_allocated_bytes() == before  # nothing copied into Arrow's pool or ours
    del table
    gc.collect()
    scratch = [pa.array(np.full(200_000, -1.0)) for _ in range(4)]  # memory a freed buffer would go to
    size = 200_000 * 8  # the column's buffer; Arrow's small allocations of a few bytes come and go
    assert (
        pa.total_allocated_bytes() > before - size // 2
    )  # the buffer is still allocated: the value holds it
    assert value.data.tolist() == expected
    del scratch, value
    gc.collect()
    assert pa.total_allocated_bytes() <= before - size // 2  # and it is freed with the value


def test_int32_holding_rs_na_pattern_is_not_shared() -> None:
    array = pa.array(np.r_[np.arange(ROWS, dtype=np.int32), np.int32(-(2**31))])
    with pytest.warns(rv.IntegerOverflowWarning):  # -2**31 is R's NA, not an R integer
        value = rv.as_r(array)
    assert not np.shares_memory(value.data, _buffer_view(array, np.int32))
    assert value.r_type == "double"


R_FRAME = f"""
suppressMessages(library(jsonlite))
i <- 0:{ROWS - 1}
x <- (i + {START} - 100) / 8; x[c(6, 101)] <- NaN
b <- i %% 3 == 0; b[i %% 5 == 0] <- NA
df <- data.frame(x = x, n = as.integer(i * 7L - 10000L), b = b)
cat(toJSON(df, dataframe = "columns", digits = NA, na = "string"), toJSON(df, digits = NA), sep = "\\n")
"""


@requires_r
def test_shared_columns_write_the_json_jsonlite_writes() -> None:
    assert RSCRIPT is not None
    with tempfile.TemporaryDirectory() as tmp:
        script = Path(tmp) / "frame.R"
        script.write_text(R_FRAME, encoding="utf-8")
        run = subprocess.run([RSCRIPT, "--vanilla", str(script)], capture_output=True, text=True, check=True)
    columns, rows = run.stdout.splitlines()
    i = np.arange(ROWS + 2 * START)  # the table is longer; the frame is its slice from START
    doubles = (i - 100) / 8
    doubles[[START + 5, START + 100]] = np.nan
    flags = pa.array((i - START) % 3 == 0, mask=(i - START) % 5 == 0)
    table = pa.table(
        {
            "x": doubles,
            "n": pa.array(((i - START) * 7 - 10_000).astype(np.int32)),
            "b": flags,
        }
    ).slice(START, ROWS)
    frame = rv.as_r(table)
    assert np.shares_memory(frame.data[0].data, _buffer_view(table.column("x").chunk(0), np.float64))
    assert rv.to_json(frame, dataframe="columns", digits=None, na="string") == columns
    assert rv.to_json(frame, digits=None) == rows


def test_rs_na_pattern_under_nulls_stays_an_integer_na() -> None:
    value = rv.Integer([1, None, -3] * 1000)
    arrow = rv.to_arrow(value)  # R's NA pattern stays under Arrow's nulls
    assert np.frombuffer(arrow.buffers()[1], dtype=np.int32).min() == -(2**31)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        again = rv.as_r(arrow)
    assert rv.identical(again, value)


@pytest.mark.parametrize("distinct", [5, 70_000], ids=["few distinct", "all distinct"])
def test_long_string_columns_are_arrows_strings_with_nulls_none(distinct: int) -> None:
    words = np.array([f"wörd {i}" for i in range(distinct)], dtype=object)
    picked = words[np.random.default_rng(3).integers(0, distinct, size=70_010)]
    array = pa.array(picked, mask=np.arange(70_010) % 7 == 0).slice(5, 70_000)
    value = rv.as_r(array)
    assert value.r_type == "character"
    assert value.data.tolist() == array.to_pylist()  # null -> None, which is R's NA_character_
    with pytest.raises(rv.RValueError, match="column 's'"):
        rv.as_r(pa.table({"s": pa.concat_arrays([array, pa.array(["a\x00b"])])}))
