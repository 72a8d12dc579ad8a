"""The compiled writer of plain Python values (``_core.plain_json``): it writes what it knows in one
pass, hands everything else to the pure path (whose bytes, warnings and errors stay), and fails
with MemoryError, never a crash, when memory runs out.

The pure path (``_speedups.core`` None, as ``RVALUES_PURE=1``) is the oracle throughout.
"""

from __future__ import annotations

import datetime as dt
import subprocess
import sys
import textwrap
import warnings
from typing import Any, NamedTuple

import numpy as np
import pytest

import rvalues as rv
from mcplite import as_tool_result
from mcplite.payload.returned import encode_value_json
from mcplite.payload.rjson import options_in_force
from rvalues import _speedups
from rvalues._speedups import writer
from rvalues.json import JsonOptions, signif
from rvalues.json.plain import encode_plain
from rvalues.model.lists import MAX_DEPTH
from tests.conftest import pure_writer
from tests.test_speedups_fuzz import random_payload

core: Any = _speedups.load()
pytestmark = pytest.mark.skipif(
    core is None, reason="the compiled writer is not built (or RVALUES_PURE is set)"
)


def compiled_text(value: Any) -> str | None:
    """What the compiled writer alone writes under the default payload options (None: declined)."""
    options = options_in_force()
    digits = (options.precision, options.use_signif, options.always_decimal)
    return writer.plain_json(value, (True, "null", digits, "string", False, MAX_DEPTH, True))


def both(value: Any) -> tuple[str, str]:
    text = encode_value_json(value, options=options_in_force())
    with pure_writer():
        return text, encode_value_json(value, options=options_in_force())


TAKEN = [
    [{"id": i, "name": f"n{i}</", "score": i / 7, "ok": i % 2 == 0, "tag": None} for i in range(50)],
    list(range(-3, 3000, 7)),
    {
        "title": "r",
        "counts": {f"c{i}": i for i in range(10)},
        "groups": [[0.1 * k, -1e-7, 1e300] for k in range(9)],
    },
    [np.float64(1.25), np.float32(0.1), np.int16(-7), np.uint32(4_000_000), np.bool_(False)],
    [np.str_("é\n"), (), {}, [[]], {"k": ()}, float("nan"), float("-inf"), 1.0],
    [2**31 - 1, -(2**31) + 1, True, 1, 0.0, -0.0, 5e-324, "\u2028\x7f", "😀"],
    # Latin-1 text and keys, then a wider character: the text so far turns UTF-8, keys again
    [{"é": "ÿ", "a": "b"}, "\x80</", {"é": "☃", "a": "é"}, "𝄞", {"é": "ü"}],
    [{"ü": "x"}, {"☃": "ÿ"}],
]


@pytest.mark.parametrize("value", TAKEN, ids=range(len(TAKEN)))
def test_plain_values_are_written_in_one_pass_with_the_pure_bytes(value: Any) -> None:
    took = compiled_text(value)
    assert took is not None
    text, expected = both(value)
    assert text == took == expected


class Pair(NamedTuple):
    a: int
    b: int


DECLINED = {
    "int beyond R's range": [1, 2**31],
    "numpy int beyond R's range": [np.int64(-(2**31))],
    "NUL": ["a\x00b"],
    "lone surrogate": ["\ud800"],
    "empty key": [{"": 1, "a": 2}],
    "non-str key": [{1: 2}],
    "str subclass key": [{np.str_("k"): 2}],
    "float subclass": [type("F", (float,), {})(1.5)],
    "long double": [np.longdouble(1.5)],
    "date": [dt.date(2020, 1, 2)],
    "R value": [rv.NA],
    "namedtuple": [Pair(1, 2)],
    "too deep": [[[[1]]]],
}


@pytest.mark.parametrize("name", DECLINED)
def test_the_compiled_writer_declines_what_the_pure_path_does_more_with(name: str) -> None:
    value = DECLINED[name]
    options = options_in_force()
    digits = (options.precision, options.use_signif, options.always_decimal)
    depth = 3 if name == "too deep" else MAX_DEPTH
    assert writer.plain_json(value, (True, "null", digits, "string", False, depth, True)) is None


def test_declined_values_keep_the_pure_paths_warnings_and_errors() -> None:
    with pytest.warns(rv.IntegerOverflowWarning):
        text, expected = both([1, 2**31])
    assert text == expected
    for bad in (["a\x00b"], [{1: 2}], ["\ud800"]):
        compiled = error_of(bad)
        with pure_writer():
            assert compiled == error_of(bad) and compiled[0] in (TypeError, ValueError)


def error_of(value: Any) -> tuple[type, str]:
    try:
        encode_value_json(value, options=options_in_force())
    except Exception as error:
        return type(error), str(error)
    raise AssertionError(f"{value!r} was written")


def test_numpy_scalars_go_to_a_registered_converter() -> None:
    """as_r asks registered converters first: numpy scalars then take the pure path."""
    value = [np.float64(2.5), 1.5]
    remove = rv.register_converter(lambda x: isinstance(x, np.float64), lambda x: rv.Character(["conv"]))
    try:
        text, expected = both(value)
    finally:
        remove()
    assert text == expected and "conv" in text
    assert both(value)[0] == both(value)[1] and "conv" not in both(value)[0]


def test_keys_are_escaped_by_their_text_not_their_object() -> None:
    """Equal keys made one by one (distinct str objects) and keys in changing orders."""
    rows = [{"".join(["i", "d"]): i, f"k{i % 3}": str(i), "q" + '"': None} for i in range(300)]
    rows += [dict(reversed(list(r.items()))) for r in rows[:50]]
    took = compiled_text(rows)
    text, expected = both(rows)
    assert took == text == expected


def test_as_tool_result_writes_the_same_text_as_the_pure_path() -> None:
    for value in TAKEN:
        text = as_tool_result(value).content[0].text
        with pure_writer():
            assert text == as_tool_result(value).content[0].text


def test_a_value_holding_itself_is_the_pure_paths_error() -> None:
    looped: list[Any] = []
    looped.append(looped)
    with pytest.raises(TypeError, match="nests more than"):
        encode_value_json([looped], options=options_in_force())


CHILD = textwrap.dedent(
    """
    import _testcapi
    import sys

    import numpy as np

    from rvalues._speedups import _core as core

    value = [{"name": 'say "é" ' * 40 + str(i), "x": i / 3, "n": i, "k" + str(i % 5): [None, True]}
             for i in range(40)]
    args = (True, "null", 1, 4, False, False, ('"NA"', '"NaN"', '"Inf"', '"-Inf"'), 100,
            (np.float64,), (np.int64,), (np.bool_,), (np.str_,))
    for escape in (False, True):
        expected = core.plain_json(value, *args, escape)
        assert expected is not None
        failures = 0
        for start in range(int(sys.argv[1])):
            _testcapi.set_nomemory(start, 0)
            try:
                got = core.plain_json(value, *args, escape)
            except MemoryError:
                failures += 1
                continue
            finally:
                _testcapi.remove_mem_hooks()
            assert got == expected, (escape, start)
        assert failures
    print("ok")
    """
)


def test_every_failed_allocation_is_a_memory_error() -> None:
    pytest.importorskip("_testcapi")
    run = subprocess.run(
        [sys.executable, "-c", CHILD, "40"], capture_output=True, text=True, timeout=120, check=False
    )
    assert run.returncode == 0 and run.stdout.strip() == "ok", (run.returncode, run.stderr[-2000:])


def test_pure_mode_never_calls_the_compiled_writer() -> None:
    with pure_writer():
        assert compiled_text([1, 2]) is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert compiled_text([1, 2]) == "[1,2]"


WRITER_OPTIONS = [
    {"no_dots": True},
    {"digits": None, "always_decimal": True},
    {"digits": signif(6), "na": "null"},
    {"digits": 12, "auto_unbox": True, "null": "null"},
    {"digits": 0, "na": "string", "auto_unbox": True},
]


@pytest.mark.parametrize("opts", WRITER_OPTIONS, ids=range(len(WRITER_OPTIONS)))
def test_other_writer_options_are_the_pure_writers_bytes(opts: dict[str, Any]) -> None:
    """rvalues' encode_plain under options mcplite does not use (dots in names, other digits)."""
    rng = np.random.default_rng(41)
    options = JsonOptions(**opts)
    for _ in range(40):
        with np.errstate(over="ignore", invalid="ignore"):
            value = random_payload(rng)
            compiled = plain_outcome_with(value, options)
            with pure_writer():
                assert compiled == plain_outcome_with(value, options), value


def plain_outcome_with(value: Any, options: JsonOptions) -> tuple[str, str]:
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return "ok", encode_plain(value, options, lambda v, where: rv.as_r(v))
    except Exception as error:
        return "error", type(error).__name__
