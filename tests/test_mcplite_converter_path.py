"""One payload path: ``mcplite.converter``'s R-value hook and tool results encode R values alike.

The hook reads the payload options in force when it runs (no converter per option set), refuses
what has no JSON-ready value exactly as tool results do, and never sees another thread's or
task's ``with mcplite.options(...)``.
"""

from __future__ import annotations

import asyncio
import itertools
import subprocess
import threading
from collections.abc import Callable
from typing import Any

import cattrs
import pytest
from hypothesis import given, settings

import mcplite
import rvalues as rv
from mcplite.payload.converter import make_converter, unstructure_r_value
from mcplite.payload.returned import is_bare_empty_list
from mcplite.payload.rjson import encode, encode_json, options_in_force
from rvalues.description import from_description
from tests.conftest import RSCRIPT, requires_r
from tests.strategies import values

OPTION_SETS = [
    {"json_null": null, "json_na": na, "json_auto_unbox": unbox}
    for null, na, unbox in itertools.product(("null", "list"), (None, "null", "string"), (True, False))
]

XMAX = 1.7976931348623157e308


def _outcome(run: Callable[[], Any], root: str) -> Any:
    """What ``run`` gives, or its error as (type, message with the root name made ``value``)."""
    try:
        return run()
    except (TypeError, ValueError) as err:
        return type(err), str(err).replace(root, "value")


@settings(max_examples=60, derandomize=True, deadline=None)
@given(desc=values())
def test_the_hook_and_tool_results_agree_under_every_option_set(desc: dict[str, Any]) -> None:
    x = from_description(desc)
    for changes in OPTION_SETS:
        with mcplite.options(**changes):
            hooked = _outcome(lambda: mcplite.converter.unstructure(x), "value")
            result = _outcome(lambda: mcplite.tool_result(structured_content=x), "structured_content")
            text = _outcome(lambda: encode_json(x, options=options_in_force()), "value")
        if x is rv.NULL:
            assert result.structured_content is mcplite.ABSENT
        elif is_bare_empty_list(x):
            assert result.structured_content == {}
        elif isinstance(result, tuple):
            assert hooked == result, changes
        else:
            assert (hooked, text) == (result.structured_content, result.content[0].text), changes


def test_there_is_one_hook_for_every_r_value_class() -> None:
    hook = unstructure_r_value
    for x in (rv.c(1.5), rv.c("a"), rv.r_list(a=1), rv.factor(["a"]), rv.data_frame(x=[1]), rv.NULL):
        assert mcplite.converter.get_unstructure_hook(type(x)) is hook
    assert mcplite.get_converter() is mcplite.converter


def test_make_converter_gives_an_independent_converter_with_the_same_hooks() -> None:
    made = make_converter()
    assert isinstance(made, cattrs.Converter) and made is not mcplite.converter
    result = mcplite.tool_result(structured_content=rv.data_frame(x=[1.5, rv.NA]))
    assert made.unstructure(result) == mcplite.converter.unstructure(result)
    with mcplite.options(json_na="null"):
        assert made.unstructure(rv.c(1, rv.NA)) == [1, None]


OVERFLOWING: list[Any] = [
    rv.Double([XMAX]),
    rv.c(1, XMAX),
    rv.r_list(a=rv.c(-XMAX)),
    rv.data_frame(x=[1.0, XMAX]),
]


@pytest.mark.parametrize("x", OVERFLOWING, ids=["double", "vector", "list", "frame"])
def test_overflow_beyond_a_double_is_refused_on_both_paths_with_the_same_error(x: Any) -> None:
    with pytest.raises(ValueError, match="beyond a double's range") as hooked:
        mcplite.converter.unstructure(x)
    with pytest.raises(ValueError, match="beyond a double's range") as direct:
        encode(x, options=options_in_force())
    with pytest.raises(ValueError, match="beyond a double's range") as result:
        mcplite.tool_result(structured_content=x)
    assert str(hooked.value) == str(direct.value)
    assert str(result.value) == str(hooked.value).replace("value", "structured_content")


def test_overflow_inside_python_data_is_refused_with_the_same_error() -> None:
    with pytest.raises(ValueError, match="beyond a double's range") as plain:
        mcplite.tool_result(structured_content={"a": [1.0, XMAX]})
    with pytest.raises(ValueError, match="beyond a double's range") as hooked:
        mcplite.converter.unstructure({"a": rv.c(1.0, XMAX)})
    # the same check and message; each names the place from the root it was given
    assert str(plain.value) == "structured_content" + _OVERFLOW.format("structured_content['a'][1]")
    assert str(hooked.value) == "value" + _OVERFLOW.format("value[1]")


_OVERFLOW = (
    " cannot be represented as JSON: jsonlite writes {} as a number beyond a double's range "
    "(it parses as infinity)"
)


@requires_r
def test_jsonlite_writes_the_largest_double_beyond_a_doubles_range() -> None:
    assert RSCRIPT is not None
    run = subprocess.run(
        [RSCRIPT, "--vanilla", "-e", "cat(jsonlite::toJSON(.Machine$double.xmax, auto_unbox = TRUE))"],
        capture_output=True,
        text=True,
        check=True,
    )
    assert run.stdout == encode_json(rv.Double([XMAX]), options=options_in_force())
    assert float(run.stdout) == float("inf")


def _encode_many(changes: dict[str, Any], start: threading.Barrier, seen: list[Any]) -> None:
    with mcplite.options(**changes):
        start.wait()
        for _ in range(200):
            seen.append(mcplite.converter.unstructure(rv.c(1, rv.NA)))


def test_options_set_in_one_thread_do_not_leak_to_another_through_the_hook() -> None:
    start = threading.Barrier(2)
    nulls: list[Any] = []
    strings: list[Any] = []
    threads = [
        threading.Thread(target=_encode_many, args=({"json_na": "null"}, start, nulls)),
        threading.Thread(target=_encode_many, args=({}, start, strings)),
    ]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    assert nulls == [[1, None]] * 200
    assert strings == [[1, "NA"]] * 200


def test_options_set_in_one_task_do_not_leak_to_another_through_the_hook() -> None:
    async def encode_in_turns(changes: dict[str, Any]) -> list[Any]:
        seen = []
        with mcplite.options(**changes):
            for _ in range(50):
                seen.append(mcplite.converter.unstructure(rv.r_list(a=rv.NULL, b=rv.c(2))))
                await asyncio.sleep(0)
        return seen

    async def both() -> tuple[list[Any], list[Any]]:
        return await asyncio.gather(
            encode_in_turns({"json_null": "list", "json_auto_unbox": False}), encode_in_turns({})
        )

    as_list, defaults = asyncio.run(both())
    assert as_list == [{"a": {}, "b": [2]}] * 50
    assert defaults == [{"a": None, "b": 2}] * 50
    assert mcplite.converter.unstructure(rv.r_list(a=rv.NULL, b=rv.c(2))) == {"a": None, "b": 2}
