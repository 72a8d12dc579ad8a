"""The compiled pass over Arrow's buffers (``arrow_fill``) gives the pure path's R values, bit for bit:
int32, float64, date32, dictionary codes and timestamps of every unit, with and without nulls, sliced
at every bit offset, short and long (a buffer of Arrow's pool), and R's NA bit pattern among the values."""

from __future__ import annotations

import gc
import warnings
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np
import pytest

import rvalues as rv
from rvalues import _speedups
from rvalues._speedups import writer as compiled

pa = pytest.importorskip("pyarrow")

pytestmark = pytest.mark.skipif(_speedups.core is None, reason="the compiled extension is not built")

_SIZES = [1, 7, 8, 9, 63, 1023, 1024, 1025, 5000]
_INT32_MIN = np.iinfo(np.int32).min


def _bits(value: rv.RValue) -> Any:
    attributes = {k: _bits(v) for k, v in value.attributes.items()}
    if value.r_type == "list":
        return value.r_type, [_bits(column) for column in value.data], attributes
    assert not value.data.flags.writeable
    data = value.data.tolist() if value.r_type == "character" else value.data.tobytes()
    return type(value).__name__, value.r_type, data, attributes


def _converted(obj: Any) -> Any:
    with warnings.catch_warnings(record=True) as caught:
        warnings.simplefilter("always")
        value = rv.as_r(obj)
    return _bits(value), [str(w.message) for w in caught]


def _pure(obj: Any) -> Any:
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(_speedups, "core", None)
        return _converted(obj)


def _arrays(rng: np.random.Generator, n: int, null_share: float) -> dict[str, Any]:
    nulls = rng.random(n) < null_share
    ticks = rng.integers(-(2**62), 2**62, size=n)
    ticks[: n // 4] = rng.integers(-(10**12), 10**12, size=n // 4)  # sub-second parts that show
    doubles = rng.normal(0, 1e6, size=n)
    doubles[rng.random(n) < 0.05] = np.nan
    doubles[rng.random(n) < 0.05] = -0.0
    codes = rng.integers(0, 4, size=n).astype(np.int32)
    arrays = {
        "int32": pa.array(rng.integers(-(2**31) + 1, 2**31 - 1, size=n).astype(np.int32), mask=nulls),
        "float64": pa.array(doubles, mask=nulls),
        "date32": pa.array(rng.integers(-(10**6), 10**6, size=n).astype(np.int32), pa.date32(), mask=nulls),
        "dictionary": pa.DictionaryArray.from_arrays(pa.array(codes, mask=nulls), pa.array(list("abcd"))),
        "dictionary[int8]": pa.DictionaryArray.from_arrays(
            pa.array(codes.astype(np.int8), mask=nulls), pa.array(list("abcd"))
        ),
    }
    for unit in ("s", "ms", "us", "ns"):
        arrays[f"timestamp[{unit}]"] = pa.array(ticks, pa.timestamp(unit, tz="Europe/Paris"), mask=nulls)
    return arrays


@pytest.mark.parametrize("null_share", [0.0, 0.05, 0.5, 1.0])
@pytest.mark.parametrize("n", _SIZES)
def test_compiled_pass_is_the_pure_path_bit_for_bit(n: int, null_share: float) -> None:
    rng = np.random.default_rng(n * 10 + int(null_share * 100))
    for name, array in _arrays(rng, n + 9, null_share).items():
        for start in range(0, 9, 3 if n > 100 else 1):  # every bit offset of the validity bitmap
            part = array.slice(start, n)
            assert _converted(part) == _pure(part), (name, start)


def test_a_table_of_chunked_columns_is_the_pure_path() -> None:
    rng = np.random.default_rng(5)
    chunks = [_arrays(rng, 3000, 0.05), _arrays(rng, 2000, 0.2)]
    table = pa.table({name: pa.chunked_array([c[name] for c in chunks]) for name in chunks[0]})
    assert _converted(table) == _pure(table)


def test_r_na_bit_pattern_among_valid_int32_takes_the_general_path() -> None:
    values = np.arange(6000, dtype=np.int32)
    values[17] = _INT32_MIN
    array = pa.array(values, mask=np.arange(6000) % 11 == 0)
    ours, pure = _converted(array), _pure(array)
    assert ours == pure
    assert ours[0][1] == "double"  # the pure path's rule: such a value does not fit R's integer


def test_the_values_outlive_the_arrow_table() -> None:
    table = pa.table({"x": pa.array(np.arange(10_000, dtype=np.float64), mask=np.arange(10_000) % 7 == 0)})
    value = rv.as_r(table)
    expected = _pure(table)[0]
    del table
    gc.collect()
    pa.allocate_buffer(80_000).to_pybytes()  # the pool hands memory out again
    assert _bits(value) == expected


def test_the_kernel_refuses_buffers_too_short_for_the_items() -> None:
    core = _speedups.core
    assert core is not None
    array = pa.array([1.5, None, 2.5])
    values, validity = array.buffers()[1], array.buffers()[0]
    with pytest.raises(ValueError, match="values buffer has 24 bytes"):
        core.arrow_fill(np.empty(4), values, validity, 0, compiled.ARROW_FLOAT64, 0)
    with pytest.raises(ValueError, match="validity bitmap has 1 bytes"):
        core.arrow_fill(np.empty(3), np.zeros(100), validity, 6, compiled.ARROW_FLOAT64, 0)
    with pytest.raises(TypeError, match="format i"):
        core.arrow_fill(np.empty(3), values, validity, 0, compiled.ARROW_INT32, 0)
    with pytest.raises(ValueError, match="kind 9"):
        core.arrow_fill(np.empty(3), values, validity, 0, 9, 0)
    with pytest.raises(ValueError, match="contiguous"):
        core.arrow_fill(np.empty(6)[::2], values, validity, 0, compiled.ARROW_FLOAT64, 0)


def test_threads_converting_at_once_get_their_own_values() -> None:
    """The pass runs without the GIL: tables converted in four threads at once are what each gives alone."""
    rng = np.random.default_rng(11)
    tables = [pa.table(_arrays(rng, 200_000, 0.05)) for _ in range(4)]
    alone = [_bits(rv.as_r(table)) for table in tables]
    with ThreadPoolExecutor(4) as pool:
        for _ in range(3):
            assert list(pool.map(lambda table: _bits(rv.as_r(table)), tables)) == alone
