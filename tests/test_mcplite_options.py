"""mcplite.options() / get_option(): R's options() semantics, validation, context manager."""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Iterator

import pytest

import mcplite
from mcplite.payload.options import jsonlite_options
from rvalues import NA_real_, r_list

NAMES = ("json_null", "json_na", "json_auto_unbox")


@pytest.fixture(autouse=True)
def unset_options() -> Iterator[None]:
    mcplite.options(json_null=None, json_na=None, json_auto_unbox=None)
    yield
    mcplite.options(json_null=None, json_na=None, json_auto_unbox=None)


def test_defaults() -> None:
    assert [mcplite.get_option(n) for n in NAMES] == ["null", None, True]
    assert jsonlite_options() == {"auto_unbox": True, "null": "null"}  # na omitted, not na=None


def test_options_returns_the_old_values_and_restores_them() -> None:
    old = mcplite.options(json_na="null", json_auto_unbox=False)
    assert old == {"json_na": None, "json_auto_unbox": None}  # unset before, as R's options() gives NULL
    assert jsonlite_options() == {"auto_unbox": False, "null": "null", "na": "null"}
    again = mcplite.options(json_na="string")
    assert again == {"json_na": "null"}
    mcplite.options(**again)
    assert mcplite.get_option("json_na") == "null"
    mcplite.options(**old)
    assert [mcplite.get_option(n) for n in NAMES] == ["null", None, True]
    assert "na" not in jsonlite_options()


def test_none_removes_an_option_and_its_default_returns() -> None:
    mcplite.options(json_null="list")
    assert mcplite.options(json_null=None) == {"json_null": "list"}
    assert mcplite.get_option("json_null") == "null"
    mcplite.options(json_na="string")
    mcplite.options(json_na=None)
    assert mcplite.get_option("json_na") is None and "na" not in jsonlite_options()


def test_bare_options_returns_every_value_in_force() -> None:
    mcplite.options(json_null="list")
    assert mcplite.options() == {"json_null": "list", "json_na": None, "json_auto_unbox": True}


def test_options_work_as_a_context_manager() -> None:
    with mcplite.options(json_auto_unbox=False, json_na="string") as old:
        assert old == {"json_auto_unbox": None, "json_na": None}
        assert mcplite.get_option("json_auto_unbox") is False
        with mcplite.options(json_na="null"):
            assert mcplite.get_option("json_na") == "null"
        assert mcplite.get_option("json_na") == "string"
    assert mcplite.get_option("json_auto_unbox") is True and mcplite.get_option("json_na") is None


def test_context_manager_restores_after_an_error() -> None:
    with pytest.raises(RuntimeError), mcplite.options(json_null="list"):
        raise RuntimeError("tool failed")
    assert mcplite.get_option("json_null") == "null"


@pytest.mark.parametrize(
    ("name", "value", "allowed"),
    [
        ("json_null", "NULL", "'null' or 'list'"),
        ("json_null", 1, "'null' or 'list'"),
        ("json_na", "NA", "'null' or 'string'"),
        ("json_na", True, "'null' or 'string'"),
        ("json_auto_unbox", 1, "True or False"),
        ("json_auto_unbox", "TRUE", "True or False"),
    ],
)
def test_invalid_values_are_refused_naming_the_option_and_the_allowed_values(
    name: str, value: object, allowed: str
) -> None:
    with pytest.raises(ValueError, match=name) as err:
        mcplite.options(**{name: value})
    assert allowed in str(err.value) and repr(value) in str(err.value)
    assert mcplite.get_option(name) == {"json_null": "null", "json_na": None, "json_auto_unbox": True}[name]


def test_nothing_changes_unless_every_value_is_valid() -> None:
    with pytest.raises(ValueError, match="json_na"):
        mcplite.options(json_null="list", json_na="bad")
    assert mcplite.get_option("json_null") == "null"


def test_unknown_options_are_refused() -> None:
    with pytest.raises(ValueError, match="unknown mcplite option 'json_digits'"):
        mcplite.options(json_digits=4)
    with pytest.raises(ValueError, match="unknown mcplite option"):
        mcplite.get_option("digits")


# -- isolation: `with options(...)` is scoped to its thread or asyncio task --------------------------


def test_with_blocks_in_concurrent_tasks_do_not_see_each_other() -> None:
    seen: dict[str, list[str]] = {"a": [], "b": [], "plain": []}

    async def scoped(name: str, na: str, delay: float) -> None:
        with mcplite.options(json_na=na):
            for _ in range(5):
                await asyncio.sleep(delay)
                seen[name].append(mcplite.as_tool_result(r_list(x=NA_real_)).content[0].text)

    async def plain() -> None:
        for _ in range(5):
            await asyncio.sleep(0.001)
            seen["plain"].append(mcplite.as_tool_result(r_list(x=NA_real_)).content[0].text)

    async def main() -> None:
        await asyncio.gather(scoped("a", "null", 0.001), scoped("b", "string", 0.0015), plain())

    asyncio.run(main())
    assert seen["a"] == ['{"x":null}'] * 5
    assert seen["b"] == ['{"x":"NA"}'] * 5
    assert seen["plain"] == ['{"x":"NA"}'] * 5  # jsonlite's default for a double NA
    assert mcplite.get_option("json_na") is None


def test_with_blocks_in_threads_do_not_leak_and_exit_in_any_order() -> None:
    entered = [threading.Event(), threading.Event()]
    release = [threading.Event(), threading.Event()]
    seen: list[object] = [None, None]

    def worker(i: int, value: str) -> None:
        with mcplite.options(json_null=value):
            entered[i].set()
            release[i].wait(5)
            seen[i] = mcplite.get_option("json_null")

    threads = [threading.Thread(target=worker, args=(i, v)) for i, v in enumerate(("list", "null"))]
    for t in threads:
        t.start()
    for e in entered:
        assert e.wait(5)
    assert mcplite.get_option("json_null") == "null"  # the main thread sees neither block
    release[0].set()  # the first block exits first, the other later: nothing is left behind
    threads[0].join(5)
    release[1].set()
    threads[1].join(5)
    assert seen == ["list", "null"]
    assert mcplite.options() == {"json_null": "null", "json_na": None, "json_auto_unbox": True}


def test_plain_options_call_inside_a_block_changes_only_that_block() -> None:
    with mcplite.options(json_na="null"):
        old = mcplite.options(json_na="string")  # R's options() inside the scope
        assert mcplite.get_option("json_na") == "string" and old == {"json_na": "null"}
    assert mcplite.get_option("json_na") is None


def test_a_bare_with_block_inside_a_block_keeps_that_blocks_values() -> None:
    with mcplite.options(json_na="null"):
        with mcplite.options() as old:  # it once fell back to the package-wide values
            assert mcplite.get_option("json_na") == "null" and old["json_na"] == "null"
            mcplite.options(json_null="list")
        assert mcplite.get_option("json_null") == "null" and mcplite.get_option("json_na") == "null"
    assert mcplite.get_option("json_na") is None


def test_global_options_reach_every_thread() -> None:
    mcplite.options(json_auto_unbox=False)
    seen: list[object] = []
    t = threading.Thread(target=lambda: seen.append(mcplite.get_option("json_auto_unbox")))
    t.start()
    t.join(5)
    assert seen == [False]
