"""The compiled pass over Arrow's string buffers (``_core.arrow_strings``) against the pure path it
replaces (Arrow's ``to_numpy``, NUL looked for in Python): the same strings and NAs, the same NUL
report and error, for string and large_string arrays, slices, chunked pandas columns; repeated short
strings made once; bad buffers refused with an error, never a crash."""

from __future__ import annotations

import numpy as np
import pandas as pd
import pyarrow as pa
import pytest

import rvalues as rv
from rvalues import _speedups
from rvalues._speedups import writer
from rvalues.convert.arrow_columns import _python_strings
from rvalues.errors import RValueError

pytestmark = pytest.mark.skipif(
    _speedups.load() is None, reason="the compiled writer is not built (or RVALUES_PURE is set)"
)


@pytest.fixture(autouse=True)
def compiled_for_any_length(monkeypatch: pytest.MonkeyPatch) -> None:
    """The pass itself, for short arrays too (in use, fewer than 40 strings are made by Arrow)."""
    monkeypatch.setattr(writer, "_ARROW_STRINGS_FROM", 0)


POOL = [
    "",
    "a",
    "alpha",
    "épsilon",
    "日本語",
    "emoji \U0001f600",
    "x" * 15,
    "y" * 16,
    "z" * 17,
    "0123456789abcdef" + "tail",  # shares 16 bytes with the next: the rest decides
    "0123456789abcdef" + "tall",
    "w" * 64,
    "v" * 65,
    "long " * 40,
    "m" * 70 + "A" + "e" * 10,  # the same hash (first 64 bytes, last word): memcmp decides
    "m" * 70 + "B" + "e" * 10,
    "ü" * 40,  # 80 bytes: past the cache
]


def random_strings(rng: np.random.Generator, n: int) -> list[str | None]:
    """Strings from the pool (repeats) and fresh random ones (unicode too), with nulls."""
    out: list[str | None] = []
    for _ in range(n):
        pick = rng.random()
        if pick < 0.1:
            out.append(None)
        elif pick < 0.7:
            out.append(POOL[rng.integers(len(POOL))])
        else:
            codes = rng.integers(1, 0x3000, size=rng.integers(0, 30))
            out.append("".join(chr(c) for c in codes if not 0xD800 <= c < 0xE000))
    return out


def pure(value: object) -> rv.RValue:
    saved = _speedups.core
    _speedups.core = None
    try:
        return rv.as_r(value)
    finally:
        _speedups.core = saved


def compiled(array: pa.Array) -> tuple[np.ndarray, bool]:
    made = writer.arrow_strings(array)
    assert made is not None
    return made


def check_same(array: pa.Array) -> None:
    out, nul = compiled(array)
    expected = _python_strings(array).tolist()
    assert out.tolist() == expected
    assert all(type(s) is str for s in expected if s is not None)
    assert nul == any("\x00" in s for s in expected if s)


@pytest.mark.parametrize("kind", [pa.string(), pa.large_string()])
def test_random_arrays_and_slices_match_arrow(kind: pa.DataType) -> None:
    rng = np.random.default_rng(11)
    for size in (0, 1, 7, 64, 1000, 5000):
        array = pa.array(random_strings(rng, size), kind)
        check_same(array)
        for _ in range(5):
            start = int(rng.integers(0, size + 1))
            stop = int(rng.integers(start, size + 1))
            check_same(array.slice(start, stop - start))  # offsets into the buffers and the bitmap


def test_repeated_strings_are_made_once() -> None:
    words = np.array(["alpha", "beta", "", "épsilon", "0123456789abcdef-17"], dtype=object)
    rng = np.random.default_rng(3)
    array = pa.array(words[rng.integers(0, len(words), size=20_000)], mask=rng.random(20_000) < 0.05)
    out, nul = compiled(array)
    assert out.tolist() == array.to_pylist() and not nul
    assert len({id(s) for s in out.tolist() if s is not None}) <= len(words)


def test_strings_at_the_data_buffers_end() -> None:
    """Short strings read by whole words where 16 bytes follow, byte by byte at the buffer's end."""
    for text in ["", "a", "abcdefg", "abcdefgh", "abcdefghi", "x" * 16, "x" * 17, "a\x00", "a"]:
        data = text.encode()
        offsets = np.array([0, len(data)], dtype=np.int32)
        array = pa.Array.from_buffers(pa.string(), 1, [None, pa.py_buffer(offsets), pa.py_buffer(data)])
        check_same(array)
    # same first bytes, other lengths (the key's zero padding must not make them equal)
    check_same(pa.array(["a", "a\x00", "a", "a\x00\x00", "", "\x00"]))


def test_nul_is_reported_and_named_as_before() -> None:
    for size in (3, 5000):  # below and above the byte check's threshold
        values = ["ok"] * size
        values[size // 2] = "bad\x00here"
        for array in (
            pa.array(values),
            pa.array(values, pa.large_string()),
            pa.array(values, pa.string_view()),
        ):
            with pytest.raises(RValueError) as fast:
                rv.as_r(array)
            with pytest.raises(RValueError) as slow:
                pure(array)
            assert str(fast.value) == str(slow.value)
            assert f"element {size // 2}" in str(fast.value)


def test_invalid_utf8_names_the_element() -> None:
    offsets = np.array([0, 1, 3, 4], dtype=np.int32)
    array = pa.Array.from_buffers(pa.string(), 3, [None, pa.py_buffer(offsets), pa.py_buffer(b"a\xff\xfeb")])
    with pytest.raises(RValueError, match=r"Arrow array: element 1 is not valid UTF-8"):
        rv.as_r(array)


def test_tables_and_chunked_pandas_columns_match_the_pure_path() -> None:
    rng = np.random.default_rng(5)
    chunks = [pa.array(random_strings(rng, n), pa.large_string()) for n in (0, 300, 1, 2000)]
    chunks[2] = pa.array(random_strings(rng, 50), pa.large_string()).slice(17, 1)
    chunked = pa.chunked_array(chunks)
    series = pd.Series(pd.arrays.ArrowStringArray(chunked))
    table = pa.table(
        {
            "s": chunked.cast(pa.string()),
            "l": chunked,
            # built, not cast: pyarrow 17 cannot cast large_string to string_view
            "v": pa.chunked_array(
                [pa.array(c.to_pylist(), pa.string_view()) for c in chunks], pa.string_view()
            ),
        }
    )
    for value in (series, series.iloc[5:], pd.DataFrame({"x": series}), table):
        fast, slow = rv.as_r(value), pure(value)
        assert fast == slow
    assert rv.as_r(series).data.tolist() == chunked.to_pylist()


def test_bad_buffers_raise_instead_of_crashing() -> None:
    core = _speedups.core
    assert core is not None
    offsets = pa.py_buffer(np.array([0, 2, 4], dtype=np.int32))
    data = pa.py_buffer(b"abcd")
    out = np.empty(2, dtype=object)
    core.arrow_strings(None, offsets, data, 0, 2, False, out, 0)
    assert out.tolist() == ["ab", "cd"]
    bad_offsets = pa.py_buffer(np.array([0, 2, 9], dtype=np.int32))
    cases = [
        (None, bad_offsets, data, 0, 2, False, out, 0),  # past the data
        (None, pa.py_buffer(np.array([0, 3, 2], dtype=np.int32)), data, 0, 2, False, out, 0),  # backwards
        (None, offsets, data, 1, 2, False, out, 0),  # offsets too short for the slice
        (None, offsets, data, 0, 2, True, out, 0),  # int64 offsets: too short
        (pa.py_buffer(b""), offsets, data, 0, 2, False, out, 0),  # empty bitmap
        (None, offsets, data, 0, 2, False, out, 1),  # output too short
        (None, offsets, data, -1, 2, False, out, 0),
        (None, offsets, data, 0, 2, False, np.empty(2, dtype=np.int64), 0),
        (None, 5, data, 0, 2, False, out, 0),
    ]
    for args in cases:
        with pytest.raises((ValueError, TypeError)):
            core.arrow_strings(*args)
    assert writer.arrow_strings(pa.array([1, 2] * 30)) is None  # not strings: the caller's own path


def test_a_few_strings_are_made_by_arrow_and_many_by_the_pass(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(writer, "_ARROW_STRINGS_FROM", 40)
    few, many = pa.array(["a", None] * 19), pa.array(["a", None] * 20)
    assert writer.arrow_strings(few) is None
    made = writer.arrow_strings(many)
    assert made is not None and made[0].tolist() == many.to_pylist()
    assert rv.as_r(few).data.tolist() == few.to_pylist()
    assert rv.as_r(pd.Series(few.to_pylist(), dtype="string[pyarrow]")).data.tolist() == few.to_pylist()
