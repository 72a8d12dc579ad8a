"""The compiled writer checks its own contracts: an input the Python gate would never send raises
ValueError or TypeError naming what was wrong (or the callback's own error), and never crashes or
writes a corrupt str. Callbacks that change a list mid-call leave the call with the list as it was."""

from __future__ import annotations

import sys
from typing import Any

import numpy as np
import pytest

from rvalues import _speedups

core: Any = _speedups.load()
pytestmark = pytest.mark.skipif(
    core is None, reason="the compiled writer is not built (or RVALUES_PURE is set)"
)

LAYOUT = ("[", ",", "]", "", ",", ":", "}")  # open, row separator, close, leads, colon, object close
DAY_MIN, DAY_MAX = -354285, 2932896  # 1000-01-01 and 9999-12-31


def one_column(cell: object, nrow: int) -> str:
    return core.rows_text([cell], None, nrow, LAYOUT)  # type: ignore[no-any-return]


def clock(days: list[int], times: list[int] | None, sep: bytes = b"T") -> tuple[object, ...]:
    n = len(days)
    shown = np.ones(n, dtype=bool)
    times_array = None if times is None else np.array(times, dtype=np.int64)
    return ("T", np.full(n, None, dtype=object), shown, np.array(days, dtype=np.int64), times_array, sep)


def test_coded_text_with_codes_of_another_length_is_a_value_error() -> None:
    labels = np.array(["a", "b"], dtype=object)
    cell = ("c", np.full(3, None, dtype=object), [(labels, np.zeros(2, dtype=np.int64))])
    with pytest.raises(ValueError, match="2 codes for 3 rows"):
        one_column(cell, 3)


@pytest.mark.parametrize("day", [np.inf, -np.inf, 1e300, -1e18, DAY_MIN - 1.0, DAY_MAX + 1.0])
def test_a_date_outside_years_1000_to_9999_is_a_value_error(day: float) -> None:
    days = np.full(100, 18000.0)
    days[50] = day
    with pytest.raises(ValueError, match="outside years 1000 to 9999"):
        one_column(("D", days, None), 100)
    assert one_column(("D", days[:50], None), 50).startswith('[["2019-04-14"]')


@pytest.mark.parametrize(
    ("days", "times", "message"),
    [
        ([DAY_MIN - 1], None, "outside years 1000 to 9999"),
        ([DAY_MAX + 1], [0], "outside years 1000 to 9999"),
        ([0], [100 * 60 * 61], "hours 0 to 99"),
        ([0], [-5], "hours 0 to 99"),
    ],
    ids=["day-low", "day-high", "hour-100", "negative-time"],
)
def test_a_date_time_outside_its_ranges_is_a_value_error(
    days: list[int], times: list[int] | None, message: str
) -> None:
    with pytest.raises(ValueError, match=message):
        one_column(clock(days, times), len(days))
    assert one_column(clock([DAY_MAX], [99 * 60 * 61 + 59 * 61 + 60]), 1) == '[["9999-12-31T99:59:60"]]'


@pytest.mark.parametrize("sep", [b"\xe9", b"\n", b"\x7f"])
def test_a_date_time_separator_that_is_not_printable_ascii_is_a_value_error(sep: bytes) -> None:
    with pytest.raises(ValueError, match="separator"):
        one_column(clock([0], [0], sep), 1)


@pytest.mark.parametrize("precision", [-1, 381, 10_000, 2**31 - 1])
def test_a_precision_outside_0_to_380_is_a_value_error(precision: int) -> None:
    values = np.array([1 / 3, 1e-300, 5e-324])
    with pytest.raises(ValueError, match="precision"):
        one_column(("d", values, 0, precision, False, None, None, None, None), 3)
    with pytest.raises(ValueError, match="precision"):
        core.double_tokens(values, np.empty(3, dtype=object), 0, precision, False, "", None, None, None, None)
    with pytest.raises(ValueError, match="mode 7"):
        core.double_tokens(values, np.empty(3, dtype=object), 7, 4, False, "", None, None, None, None)


def test_the_most_digits_are_pythons_own_text() -> None:
    values = np.array([1 / 3, -1e-300, 5e-324, 1.7976931348623157e308])
    out = np.empty(4, dtype=object)
    core.double_tokens(values, out, 0, 380, False, "", None, None, None, None)
    assert out.tolist() == ["%.380g" % v for v in values.tolist()]


class Mutating:
    """An int whose __index__ (or a truth value whose __bool__) clears a list first."""

    def __init__(self, victim: list[Any], value: int) -> None:
        self.victim, self.value = victim, value

    def __index__(self) -> int:
        self.victim.clear()
        return self.value

    def __bool__(self) -> bool:
        self.victim.clear()
        return bool(self.value)


def test_a_cell_list_cleared_while_its_cells_open_is_read_as_it_was() -> None:
    tokens = ["1", "2", None]
    cells: list[Any] = [tokens]
    cells.append(("d", np.array([0.5, 1.5, 2.5]), 0, Mutating(cells, 15), Mutating(tokens, 0), *[None] * 4))
    cells.append(["x", "y", "z"])
    assert core.rows_text(cells, ['"a"', '"b"', '"c"'], 3, LAYOUT) == (
        '[{"a":1,"b":0.5,"c":x},{"a":2,"b":1.5,"c":y},{"b":2.5,"c":z}]'
    )


def test_keys_changed_by_the_cells_callback_are_used_as_they_were() -> None:
    keys = ['"a"', '"b"']

    def chunk(start: int, stop: int) -> list[np.ndarray]:
        keys[:] = ['"z"'] * 50 if start else []
        return [np.full(stop - start, "1", dtype=object), np.full(stop - start, "2", dtype=object)]

    assert core.rows_text(chunk, keys, 3, LAYOUT, 2) == '[{"a":1,"b":2},{"a":1,"b":2},{"a":1,"b":2}]'


def test_object_kinds_with_values_cleared_by_classify_reads_them_as_they_were() -> None:
    values: list[Any] = [1, "a", 2.5, None]
    cache: dict[type, Any] = {}
    codes = {int: 4, str: 2, float: 5, type(None): 0}

    def classify(kind: type) -> int:
        values.clear()
        cache[kind] = codes[kind]
        return codes[kind]

    out = np.empty(4, dtype=np.uint8)
    core.object_kinds(values, out, cache, classify)
    assert out.tolist() == [4, 2, 5, 0]


@pytest.mark.parametrize("kind", ["int", 256, -1, 2**70, 1.0, None])
def test_a_kind_that_is_not_a_code_is_a_type_error_naming_it(kind: object) -> None:
    with pytest.raises(TypeError, match=r"the kind of <class 'int'> is .*expected an int code from 0 to 255"):
        core.object_kinds([1], np.empty(1, dtype=np.uint8), {int: kind}, lambda t: 0)


def test_object_kinds_fill_only_a_uint8_array() -> None:
    with pytest.raises(TypeError, match="format B"):
        core.object_kinds([1], np.empty(1, dtype=object), {int: 4}, lambda t: 0)
    with pytest.raises(TypeError, match="format B"):
        core.object_kinds([1], np.empty(1, dtype=np.int16), {int: 4}, lambda t: 0)


def test_a_classify_that_caches_nothing_is_a_runtime_error() -> None:
    with pytest.raises(RuntimeError, match="did not cache the kind of <class 'int'>"):
        core.object_kinds([1], np.empty(1, dtype=np.uint8), {}, lambda t: 4)


def test_r_integers_reads_items_by_their_size_not_their_letter() -> None:
    testbuffer = pytest.importorskip("_testbuffer")
    standard = testbuffer.ndarray([1, -2, 3], shape=[3], format="=l")  # "=l": 4 bytes, where long has 8
    assert memoryview(standard).itemsize == 4
    assert np.frombuffer(core.r_integers(standard, None), dtype=np.int32).tolist() == [1, -2, 3]
    small = testbuffer.ndarray([1, 0, 255], shape=[3], format="=B")
    assert np.frombuffer(core.r_integers(small, None), dtype=np.int32).tolist() == [1, 0, 255]


def test_buffers_in_the_other_byte_order_are_refused() -> None:
    testbuffer = pytest.importorskip("_testbuffer")
    foreign, native = (">", "<") if sys.byteorder == "little" else ("<", ">")
    for prefix in (foreign, "!" if foreign == ">" else foreign):
        with pytest.raises(TypeError, match="native byte order"):
            core.r_integers(testbuffer.ndarray([1, 2], shape=[2], format=prefix + "i"), None)
        with pytest.raises(TypeError, match="native byte order"):
            one_column(
                ("d", testbuffer.ndarray([1.5], shape=[1], format=prefix + "d"), 0, 15, 0, *[None] * 4), 1
            )
    for prefix in (native, "=", "@"):
        text = one_column(
            ("d", testbuffer.ndarray([1.5], shape=[1], format=prefix + "d"), 0, 15, 0, *[None] * 4), 1
        )
        assert text == "[[1.5]]"


def test_unaligned_and_strided_buffers_are_read_as_their_aligned_copies() -> None:
    rng = np.random.default_rng(3)
    values = rng.normal(size=50) * 1e5
    raw = bytearray(8 * 50 * 2 + 1)
    unaligned = np.frombuffer(raw, dtype=np.float64, offset=1)[::2]
    unaligned[:] = values
    assert not unaligned.flags.aligned
    cell = ("d", unaligned, 1, 4, False, *[None] * 4)
    assert one_column(cell, 50) == one_column(("d", values, 1, 4, False, *[None] * 4), 50)
    ints = np.frombuffer(bytearray(4 * 50 + 3), dtype=np.int32, offset=3)
    ints[:] = np.arange(50) - 25
    assert np.frombuffer(core.r_integers(ints, None), dtype=np.int32).tolist() == list(range(-25, 25))


@pytest.mark.parametrize(
    "text", ["é" * 40, "snow ☃ man", "astral 𝄞", "</tag> ü"], ids=["latin1", "bmp", "astral", "solidus"]
)
def test_writing_a_non_ascii_str_leaves_no_utf8_copy_in_it(text: str) -> None:
    texts = [text[:-1] + c for c in "abc"]  # new str objects, no UTF-8 cached yet
    sizes = [sys.getsizeof(t) for t in texts]
    out = (
        core.rows_text([("s", texts, None)], None, 3, LAYOUT),
        core.rows_text([np.array(texts, dtype=object)], ['"é"'], 3, LAYOUT, 0, True),
        core.cells_text(
            ("c", np.full(3, None, dtype=object), [(np.array(texts, dtype=object), np.arange(3))]),
            "[",
            ",",
            "]",
        ),
    )
    assert [sys.getsizeof(t) for t in texts] == sizes
    assert all(text[-2] in part for part in (out[0], out[1].decode("utf-8"), out[2]))


def test_a_lone_surrogate_is_a_unicode_error() -> None:
    with pytest.raises(UnicodeEncodeError, match="surrogates not allowed"):
        core.rows_text([("s", ["a\ud800b"], None)], None, 1, LAYOUT)
    with pytest.raises(UnicodeEncodeError, match="surrogates not allowed"):
        core.rows_text([["x\udfff"]], None, 1, LAYOUT)
