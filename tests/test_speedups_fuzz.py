"""A seeded differential fuzz of the compiled writer: random inputs of every class the security
review named (NA/NaN/Inf, huge and tiny doubles, ties, integer extremes, unicode and control
characters, dates at the edges of years 1000-9999, odd strides and unaligned buffers) give the
pure writer's bytes (its oracle), and inputs outside the compiled module's contracts (wrong lengths,
dtypes, kinds, codes) raise an error instead of crashing.

A few seconds here; ``RVALUES_FUZZ_ROUNDS`` raises the budget (.ci/sanitize runs it under ASan/UBSan).
"""

from __future__ import annotations

import datetime as dt
import itertools
import json
import os
import warnings
from collections.abc import Callable, Iterator
from typing import Any

import numpy as np
import pytest

import mcplite
import rvalues as rv
from mcplite.payload.returned import encode_value_json
from mcplite.payload.rjson import options_in_force
from rvalues import _speedups
from rvalues._speedups import writer
from rvalues.json import numbers, signif, strings, to_json
from rvalues.json.plain import encode_plain_escaped
from rvalues.model.lists import MAX_DEPTH
from rvalues.na import NA_INTEGER, NA_REAL
from tests.conftest import pure_writer

core: Any = _speedups.load()
pytestmark = pytest.mark.skipif(
    core is None, reason="the compiled writer is not built (or RVALUES_PURE is set)"
)

ROUNDS = int(os.environ.get("RVALUES_FUZZ_ROUNDS", "60"))
DAY_MIN, DAY_MAX = -354285, 2932896  # 1000-01-01 and 9999-12-31
LAYOUT = ("[", ",", "]", "", ",", ":", "}")
SPECIAL_DOUBLES = np.array(
    [
        NA_REAL,
        np.nan,
        np.inf,
        -np.inf,
        0.0,
        -0.0,
        0.5,
        2.5,
        -1.5,
        1e-5,
        1.00001e-5,
        2147483646.5,
        2147483647.0,
        1e15,
        1e16,
        1e300,
        -1.7976931348623157e308,
        5e-324,
        2.2250738585072014e-308,
        0.1,
        1 / 3,
        123456.789,
    ]
)
TEXTS = [
    "",
    "a",
    "é",
    '"',
    "\\",
    "\n\t\x01\x1f",
    "</",
    "</script>",
    "<\\/",
    "☃",
    "𝄞",
    "\x7f\x80",
    "ÿ",
    "NA",
    " ",
]


def random_doubles(rng: np.random.Generator, n: int) -> np.ndarray:
    pick = rng.integers(0, 4, n)
    values = np.where(
        pick == 0,
        rng.choice(SPECIAL_DOUBLES, n),
        np.where(
            pick == 1,
            rng.normal(0, 1, n) * 10.0 ** rng.integers(-320, 308, n),
            np.where(pick == 2, rng.integers(-(10**6), 10**6, n) / 8, rng.normal(0, 1e4, n)),
        ),
    )
    return values.astype(np.float64)


def odd_layouts(values: np.ndarray, rng: np.random.Generator) -> Iterator[np.ndarray]:
    """``values`` itself, then the same items unaligned (offset 1..7) and spaced (stride 2-3 items)."""
    yield values
    n, size = len(values), values.dtype.itemsize
    offset, step = int(rng.integers(1, size)) if size > 1 else 0, int(rng.integers(2, 4))
    raw = bytearray(offset + size * step * max(n, 1))
    spaced = np.frombuffer(raw, dtype=values.dtype, offset=offset)[::step][:n]
    spaced[:] = values
    yield spaced
    yield values[::-1].copy()[::-1]  # a negative stride


def number_options(rng: np.random.Generator) -> tuple[Any, bool]:
    choice = int(rng.integers(0, 5))
    if choice == 0:
        return None, False
    if choice == 1:
        return int(rng.integers(1, 16)), True  # signif
    if choice == 2:
        return int(rng.integers(10, 20)), False  # decimals beyond 9: the %g branch
    return int(rng.integers(0, 10)), False


@pytest.mark.parametrize("seed", range(4))
def test_number_tokens_are_the_pure_writers(seed: int) -> None:
    rng = np.random.default_rng(seed)
    for _ in range(ROUNDS):
        values = random_doubles(rng, int(rng.integers(9, 60)))
        precision, use_signif = number_options(rng)
        na = str(rng.choice(["string", "null", "NA"]))
        always_decimal, prefix = bool(rng.integers(0, 2)), str(rng.choice(["", ",", '"k":']))
        with pure_writer():
            expected = numbers.num_to_char(values, precision, na, use_signif, always_decimal, prefix).tolist()
        for layout in odd_layouts(values, rng):
            got = writer.double_tokens(layout, precision, na, use_signif, always_decimal, prefix)
            assert got is not None and got.tolist() == expected, (precision, use_signif, na)
            cell = writer.number_cells(layout, precision, na, use_signif, always_decimal)
            if prefix == "":  # a cell column's tokens, NA ones written NA
                assert cell is not None
                text = core.cells_text(cell, "[", ",", "]")
                assert text == "[" + ",".join("NA" if t is None else t for t in expected) + "]"


@pytest.mark.parametrize("seed", range(2))
def test_integer_tokens_are_the_pure_writers(seed: int) -> None:
    rng = np.random.default_rng(100 + seed)
    for _ in range(ROUNDS):
        n = int(rng.integers(9, 50))
        dtype = np.int32 if rng.integers(0, 2) else np.int64
        values = rng.integers(-(2**31) + 1, 2**31, n).astype(dtype)
        values[rng.random(n) < 0.2] = NA_INTEGER
        values[rng.random(n) < 0.1] = np.iinfo(np.int32).max
        na, prefix = str(rng.choice(["string", "null", "NA"])), str(rng.choice(["", ","]))
        with pure_writer():
            expected = numbers.int_to_char(values, na, prefix).tolist()
        for layout in odd_layouts(values, rng):
            got = writer.int_tokens(layout, na, prefix)
            assert got is not None and got.tolist() == expected


def random_text(rng: np.random.Generator) -> str:
    pieces = [str(rng.choice(TEXTS)) for _ in range(int(rng.integers(0, 6)))]
    pieces += [chr(int(c)) for c in rng.integers(0x20, 0x3000, int(rng.integers(0, 4)))]
    rng.shuffle(pieces)
    return "".join(pieces)


def test_string_tokens_are_the_pure_writers_or_both_raise() -> None:
    rng = np.random.default_rng(7)
    for _ in range(ROUNDS * 4):
        texts = [random_text(rng) for _ in range(int(rng.integers(1, 8)))]
        if rng.random() < 0.1:
            texts[int(rng.integers(0, len(texts)))] += "\ud800"
        try:
            expected: list[str] | None = [strings.escape(t) for t in texts]
        except Exception:
            expected = None
        got = core.escape_list(texts, True, False)
        assert (got if isinstance(got, list) else None) == expected


def random_frame(rng: np.random.Generator) -> rv.DataFrame:
    n = int(rng.choice([1, 3, 9, 17, 70, 130]))
    days = rng.integers(DAY_MIN, DAY_MAX + 1, n).astype(np.float64)
    if rng.random() < 0.5:  # clustered: the day table's path
        days = (days[0] + rng.integers(0, 40, n)).clip(DAY_MIN, DAY_MAX)
    days[rng.random(n) < 0.15] = NA_REAL
    seconds = rng.integers(DAY_MIN * 86400, (DAY_MAX + 1) * 86400, n).astype(np.float64)
    seconds[rng.random(n) < 0.15] = NA_REAL
    ints = rng.integers(-(2**31) + 1, 2**31, n).astype(np.int32)
    ints[rng.random(n) < 0.2] = NA_INTEGER
    words = [None if rng.random() < 0.15 else random_text(rng) for _ in range(n)]
    levels = sorted({random_text(rng) or "x" for _ in range(3)})
    codes = rng.integers(1, len(levels) + 1, n).astype(np.int32)
    codes[rng.random(n) < 0.1] = NA_INTEGER
    utc = {"class": rv.Character(["POSIXct", "POSIXt"]), "tzone": rv.Character(["UTC"])}
    return rv.data_frame(
        d=rv.Double._wrap(random_doubles(rng, n)),
        i=rv.Integer._wrap(ints),
        s=rv.Character(words),
        t=rv.Double._wrap(days, {"class": rv.Character(["Date"])}),
        ct=rv.Double._wrap(seconds, utc),
        f=rv.Integer._wrap(codes, {"levels": rv.Character(levels), "class": rv.Character(["factor"])}),
        lg=rv.Logical([None if r < 0.2 else bool(r < 0.6) for r in rng.random(n)]),
    )


FRAME_OPTIONS: list[dict[str, Any]] = [
    {},
    {"dataframe": "values", "na": "null"},
    {"dataframe": "columns", "digits": None},
    {"digits": signif(6), "always_decimal": True, "na": "string"},
    {"pretty": True, "digits": 12, "posixt": "ISO8601"},
]


def test_frames_are_the_pure_writers_bytes_or_both_raise() -> None:
    rng = np.random.default_rng(11)
    for _ in range(max(ROUNDS // 4, 5)):
        frame = random_frame(rng)
        options = FRAME_OPTIONS[int(rng.integers(0, len(FRAME_OPTIONS)))]
        compiled = outcome(frame, options)
        with pure_writer():
            assert compiled == outcome(frame, options)


def outcome(frame: rv.DataFrame, options: dict[str, Any]) -> tuple[str, str]:
    """The text, or the name of the error (the same class from both writers)."""
    try:
        return "ok", to_json(frame, **options)
    except Exception as error:
        return "error", type(error).__name__


PAYLOAD_OPTION_SETS = [
    {"json_auto_unbox": unbox, "json_null": null, "json_na": na}
    for unbox, null, na in itertools.product([True, False], ["null", "list"], [None, "null", "string"])
]
"""Every combination of mcplite's payload options: 12 sets."""

KEYS = ["id", "", "a.b", "é", 'q"t', "</", "x", "1", "NA", "\u2028", "k\x01", "a_b"]
NUMPY_SCALARS: list[Callable[[np.random.Generator], Any]] = [
    lambda rng: np.float64(random_doubles(rng, 1)[0]),
    lambda rng: np.float32(random_doubles(rng, 1)[0]),
    lambda rng: np.float16(rng.normal(0, 100)),
    lambda rng: np.int64(rng.choice([0, -7, 2**31 - 1, -(2**31) + 1, -(2**31), 2**40])),
    lambda rng: np.int32(rng.integers(-(2**31), 2**31)),
    lambda rng: np.int8(rng.integers(-128, 128)),
    lambda rng: np.uint64(rng.choice([0, 5, 2**63])),
    lambda rng: np.uint8(rng.integers(0, 256)),
    lambda rng: np.bool_(rng.integers(0, 2)),
    lambda rng: np.str_(random_text(rng)),
]


def random_scalar(rng: np.random.Generator, odd: bool = True) -> Any:
    """A leaf: mostly kinds the compiled writer takes, now and then (``odd``) one it hands to the
    pure path."""
    pick = int(rng.integers(0, 20 if odd else 18))
    if pick < 3:
        return float(random_doubles(rng, 1)[0])  # NA, NaN, infinities, huge and tiny among them
    if pick < 6:
        return int(rng.choice([0, 1, -1, 2**31 - 1, -(2**31) + 1, int(rng.integers(-(10**6), 10**6))]))
    if pick == 6 and odd:
        return int(rng.choice([2**31, -(2**31), 10**20]))  # beyond R's integers: a double, warned
    if pick < 9:
        return bool(rng.integers(0, 2))
    if pick < 12:
        text = random_text(rng)
        if odd and rng.random() < 0.05:
            text += str(rng.choice(["\x00", "\ud800"]))  # R cannot hold these: the pure path refuses
        return text
    if pick < 14:
        return None
    if pick < 18:
        return NUMPY_SCALARS[int(rng.integers(0, len(NUMPY_SCALARS)))](rng)
    return [dt.date(2020, 1, 2), rv.NA, rv.c(1.5, 2.0), 1 + 2j, b"x", True][int(rng.integers(0, 6))]


def random_plain(rng: np.random.Generator, depth: int, odd: bool = True) -> Any:
    """A random tree of dicts, lists and tuples (or one scalar) at most ``depth`` levels deep."""
    if depth == 0 or rng.random() < 0.3:
        return random_scalar(rng, odd)
    n = int(rng.choice([0, 1, 2, 3, 5, 9]))
    kind = int(rng.integers(0, 4))
    if kind == 0:
        return tuple(random_plain(rng, depth - 1, odd) for _ in range(n))
    if kind == 1:
        return [random_plain(rng, depth - 1, odd) for _ in range(n)]
    names = KEYS if odd else [k for k in KEYS if k]  # "": jsonlite's position, the pure path's
    keys = [str(rng.choice(names)) for _ in range(n)]
    if odd and rng.random() < 0.05:
        keys.append(int(rng.integers(0, 3)))  # type: ignore[arg-type]  # not a name: refused
    if odd and rng.random() < 0.05:
        keys.append(np.str_("np"))  # type: ignore[arg-type]  # a str subclass: the pure path's
    return {key: random_plain(rng, depth - 1, odd) for key in keys}


def random_payload(rng: np.random.Generator) -> Any:
    """A non-empty list or dict: records sharing keys, a long flat list, or a random tree; half of
    them without the leaves and keys that send a value to the pure path."""
    shape, odd = int(rng.integers(0, 4)), bool(rng.integers(0, 2))
    if shape == 0:
        names = KEYS if odd else [k for k in KEYS if k]
        keys = [str(k) for k in rng.choice(names, int(rng.integers(1, 5)), replace=False)]
        return [{k: random_plain(rng, 1, odd) for k in keys} for _ in range(int(rng.integers(1, 30)))]
    if shape == 1:
        return [random_scalar(rng, odd) for _ in range(int(rng.integers(1, 60)))]
    value = random_plain(rng, int(rng.integers(1, 6)), odd)
    return value if isinstance(value, (list, dict)) and value else [value]


def plain_outcome(value: Any) -> tuple[str, str]:
    """mcplite's text of a returned value, or the name of its error."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "ok", encode_value_json(value, options=options_in_force())
    except Exception as error:
        return "error", type(error).__name__


@pytest.mark.parametrize("seed", range(len(PAYLOAD_OPTION_SETS)))
def test_plain_values_are_the_pure_writers_bytes(seed: int) -> None:
    """Random nested plain values, compiled == pure byte for byte (or the same error), under each
    payload option set."""
    rng = np.random.default_rng(300 + seed)
    written = 0
    with mcplite.options(**PAYLOAD_OPTION_SETS[seed]), np.errstate(over="ignore", invalid="ignore"):
        for _ in range(ROUNDS):
            value = random_payload(rng)
            compiled = plain_outcome(value)
            with pure_writer():
                assert compiled == plain_outcome(value), value
            escaped = encode_plain_escaped(value, options_in_force())
            if escaped is not None:  # the same text, escaped as json.dumps escapes it into a line
                written += 1
                assert escaped == json.dumps(compiled[1], ensure_ascii=False)[1:-1].encode("utf-8")
    assert written >= ROUNDS // 4  # the compiled writer wrote a fair share itself


def test_plain_values_nesting_at_the_limit() -> None:
    """Nesting just inside and just past rvalues.MAX_DEPTH, and a list that holds itself."""
    looped: list[Any] = [1]
    looped.append(looped)
    for value in (_nested(MAX_DEPTH - 1), _nested(MAX_DEPTH), _nested(MAX_DEPTH + 1), looped):
        compiled = plain_outcome(value)
        with pure_writer():
            assert compiled == plain_outcome(value)
    assert plain_outcome(_nested(MAX_DEPTH))[0] == "ok"
    assert plain_outcome(looped) == ("error", "TypeError")


def _nested(levels: int) -> Any:
    value: Any = [1.5, "x"]
    for k in range(levels - 1):
        value = [value] if k % 2 else {"k": value}
    return value


def broken_calls(rng: np.random.Generator) -> list[Callable[[], object]]:
    """Calls outside the compiled module's contracts, each of which must raise."""
    n = int(rng.integers(1, 40))
    short = int(rng.integers(0, n))
    doubles = random_doubles(rng, n)
    objects = np.full(n, "1", dtype=object)
    days = rng.integers(DAY_MIN, DAY_MAX, n).astype(np.int64)
    shown = np.ones(n, dtype=bool)
    wrong = [np.float32, np.int16, np.uint64, np.complex128][int(rng.integers(0, 4))]
    bad_day = float(rng.choice([np.inf, -np.inf, 1e300, DAY_MAX + 1.0, DAY_MIN - 1.0, -9e18]))
    return [
        lambda: core.double_tokens(doubles, np.empty(short, dtype=object), 0, 15, False, "", *[None] * 4),
        lambda: core.double_tokens(
            np.zeros(n, dtype=wrong), np.empty(n, dtype=object), 0, 15, False, "", *[None] * 4
        ),
        lambda: core.double_tokens(
            doubles, np.empty(n, dtype=object), 0, int(rng.integers(381, 2**31)), 0, "", *[None] * 4
        ),
        lambda: core.int_tokens(doubles, np.empty(n, dtype=object), "", None),
        lambda: core.rows_text([objects, objects[:short]], ['"a"', '"b"'], n, LAYOUT),
        lambda: core.rows_text([objects], ['"a"', '"b"'], n, LAYOUT),
        lambda: core.rows_text([("d", doubles.reshape(1, n), 0, 15, 0, *[None] * 4)], None, n, LAYOUT),
        lambda: core.rows_text([("D", np.where(np.arange(n) == short, bad_day, 0.0), None)], None, n, LAYOUT),
        lambda: core.rows_text([("T", objects, shown, days, np.full(n, 366000), b"T")], None, n, LAYOUT),
        lambda: core.rows_text([("T", objects, shown, days - 10**7, None, b" ")], None, n, LAYOUT),
        lambda: core.rows_text(
            [("T", objects, shown, days, None, "T".encode("latin-1") + b"x")], None, n, LAYOUT
        ),
        lambda: core.rows_text([("T", objects, shown[:short], days, None, b"T")], None, n, LAYOUT),
        lambda: core.rows_text(
            [("t", np.full(n, 5, dtype=np.int32), np.array(["x"], dtype=object))], None, n, LAYOUT
        ),
        lambda: core.rows_text(
            [("c", objects, [(objects, np.zeros(short, dtype=np.int64))])], None, n, LAYOUT
        ),
        lambda: core.rows_text([("c", objects, [(objects, np.full(n, n, dtype=np.int64))])], None, n, LAYOUT),
        lambda: core.rows_text([("s", [1] * n, None)], None, n, LAYOUT),
        lambda: core.rows_text([("?", doubles)], None, n, LAYOUT),
        lambda: core.rows_text([np.full(n, 3, dtype=object)], None, n, LAYOUT),
        lambda: core.cells_text(("i", doubles, None), "[", ",", "]"),
        lambda: core.join_rows([objects[:short]], n, ","),
        lambda: core.join_coded([(objects, np.zeros(short, dtype=np.int64))], np.empty(n, dtype=object)),
        lambda: core.join_coded([(objects, np.full(n, -1, dtype=np.int32))], np.empty(n, dtype=object)),
        lambda: core.date_days([1] * n, np.zeros(n, dtype=bool), np.empty(n)),
        lambda: core.date_days([1] * n, np.zeros(short, dtype=bool), np.empty(n)),
        lambda: core.r_integers(doubles, None),
        lambda: core.r_integers(days, np.zeros(short, dtype=bool)),
        lambda: core.object_kinds(list(objects), np.empty(short, dtype=np.uint8), {str: 2}, lambda t: 2),
        lambda: core.plain_json(
            [1.5], True, "null", 0, int(rng.integers(381, 2**31)), 0, 0, (None,) * 4, 9, *[()] * 4
        ),
        lambda: core.plain_json([1.5], True, "nul\u00e9", 1, 4, 0, 0, (None,) * 4, 9, *[()] * 4),
        lambda: core.plain_json([1.5], True, "null", 1, 4, 0, 0, (None, 1, None, None), 9, *[()] * 4),
        lambda: core.plain_json([1.5], True, "null", 1, 4, 0, 0, (None,) * 4, 9, [np.float64], (), (), ()),
    ]


def test_inputs_outside_the_contracts_raise() -> None:
    rng = np.random.default_rng(23)
    for _ in range(max(ROUNDS // 10, 3)):
        for index, call in enumerate(broken_calls(rng)):
            with pytest.raises((ValueError, TypeError, IndexError, OverflowError)):
                call()
                pytest.fail(f"broken call {index} did not raise")
