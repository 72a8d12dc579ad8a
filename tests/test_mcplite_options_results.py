"""Which payload options a tool's result is written under, and that it is one set for the whole result.

The rule (docs/mcplite.md, "Payload options"): a value is written under the options in force where
it is turned into a result. For a value a tool returns, that is when its request arrived; a tool
that wants options of its own turns its value into a result inside its ``with mcplite.options()``
block (``as_tool_result``, ``tool_result``). A block the tool body leaves by returning has ended
before the value is written. Checked through ``mcplite.testing.Client`` and through the official SDK
client talking to a server process over stdio. What each result must say is what
``mcplite.as_tool_result`` gives for the same value under the same options, and R values inside an
object of the tool's own are written as R's jsonlite writes the R list they stand for.
"""

from __future__ import annotations

import itertools
import json
import os
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import anyio
import pytest

import mcplite
import rvalues as rv
from mcplite import testing
from tests.conftest import RSCRIPT, requires_r
from tests.servers import options_rule

SERVER = Path(options_rule.__file__)
TIMEOUT = 30.0
OPTION_SETS = [
    {"json_null": null, "json_na": na, "json_auto_unbox": unbox}
    for null, na, unbox in itertools.product(("null", "list"), (None, "null", "string"), (True, False))
]


@pytest.fixture(autouse=True)
def unset_options() -> Iterator[None]:
    mcplite.options(json_null=None, json_na=None, json_auto_unbox=None)
    yield
    mcplite.options(json_null=None, json_na=None, json_auto_unbox=None)


def text_of(value: Any, **changes: Any) -> str:
    """The text ``as_tool_result`` gives ``value`` under ``changes`` to the payload options."""
    with mcplite.options(**changes):
        return mcplite.as_tool_result(value).content[0].text  # type: ignore[union-attr,no-any-return]


def expected_texts() -> dict[str, str]:
    """The text each tool of the options_rule server must answer with, options unset by the caller."""
    value = options_rule.value()
    with mcplite.options(json_na="null"):
        structured = mcplite.tool_result(structured_content=rv.r_list(x=value)).content[0].text  # type: ignore[union-attr]
    return {
        "returned_in_block": text_of(value),  # the request's options, not the ended block's
        "built_in_block": text_of(value, json_na="null"),
        "structured_in_block": structured,
        "held_values": text_of(options_rule.held_as_r_list()),
    }


def test_the_rule_through_the_testing_client() -> None:
    expected = expected_texts()
    assert expected["returned_in_block"] != expected["built_in_block"]  # the rule is visible
    with testing.Client(options_rule.server) as client:
        got = {name: client.call_tool(name).content[0].text for name in expected}  # type: ignore[union-attr]
        # the caller's own block is in force when the request arrives: it applies to the whole value
        with mcplite.options(json_na="null"):
            returned = client.call_tool("returned_in_block").content[0].text  # type: ignore[union-attr]
    assert got == expected
    assert returned == expected["built_in_block"]


def test_the_rule_through_the_official_sdk_client_over_stdio() -> None:
    pytest.importorskip("mcp")
    from mcp import ClientSession, StdioServerParameters
    from mcp.client.stdio import stdio_client

    expected = expected_texts()

    async def call_all() -> dict[str, str]:
        params = StdioServerParameters(command=sys.executable, args=[str(SERVER)], env=dict(os.environ))
        got: dict[str, str] = {}
        with anyio.fail_after(TIMEOUT), open(os.devnull, "w") as errlog:
            async with (
                stdio_client(params, errlog=errlog) as (read, write),
                ClientSession(read, write) as session,
            ):
                await session.initialize()
                for name in expected:
                    result = await session.call_tool(name, {})
                    assert not result.is_error, result
                    got[name] = result.content[0].text  # type: ignore[union-attr]
        return got

    assert anyio.run(call_all) == expected


def test_r_values_in_an_object_are_written_with_the_rest_of_the_value_under_every_option_set() -> None:
    # once written under the options and read back, then written again, c(1.5, NA) and c(1) came
    # out boxed twice ([[1.5],["NA"]]) and NA as {} (a null read back became NULL)
    held, as_list = options_rule.held(), options_rule.held_as_r_list()
    for changes in OPTION_SETS:
        with mcplite.options(**changes):
            assert mcplite.as_tool_result(held).content[0].text == text_of(as_list, **changes)  # type: ignore[union-attr]
            structured = mcplite.tool_result(structured_content=held).structured_content
            assert structured == mcplite.tool_result(structured_content=as_list).structured_content, changes


@requires_r
def test_r_values_in_an_object_are_written_as_jsonlite_writes_the_list() -> None:
    assert RSCRIPT is not None
    sets = [{"json_auto_unbox": False}, {"json_null": "list", "json_na": "null"}, {"json_na": "string"}]
    calls = [
        "list(a = c(1.5, NA), b = 1), auto_unbox = FALSE, null = 'null'",
        "list(a = c(1.5, NA), b = 1), auto_unbox = TRUE, null = 'list', na = 'null'",
        "list(a = c(1.5, NA), b = 1), auto_unbox = TRUE, null = 'null', na = 'string'",
    ]
    script = "".join(f"cat(jsonlite::toJSON({call}), '\\n', sep = '')\n" for call in calls)
    run = subprocess.run(
        [RSCRIPT, "--vanilla", "-e", script], capture_output=True, text=True, check=True, timeout=60
    )
    written = [text_of(options_rule.held(), **changes) for changes in sets]
    assert written == run.stdout.splitlines()


def test_a_tool_that_changes_the_global_options_gets_one_set_for_its_whole_value() -> None:
    server = mcplite.McpServer("global-change")

    @server.tool
    def changes_globals() -> Any:
        """Sets the package-wide options while its request is running."""
        mcplite.options(json_na="null")
        return {"held": options_rule.held(), "plain": options_rule.value()}

    with testing.Client(server) as client:
        text = client.call_tool("changes_globals").content[0].text  # type: ignore[union-attr]
    mcplite.options(json_na=None)
    whole = rv.r_list(held=options_rule.held_as_r_list(), plain=options_rule.value())
    assert text == text_of(whole)  # the request's options (unset), for the held values too
    assert json.loads(text)["held"]["a"] == json.loads(text)["plain"]


def test_concurrent_calls_with_their_own_blocks_never_see_each_others_options() -> None:
    server = mcplite.McpServer("concurrent")

    @server.tool
    async def slow_held() -> Any:
        """Yields to the other calls before it returns."""
        await anyio.sleep(0.01)
        return options_rule.held()

    async def call(client: testing.Client, na: str | None) -> list[str]:
        seen = []
        with mcplite.options(json_na=na):
            for _ in range(5):
                seen.append((await client.acall_tool("slow_held")).content[0].text)  # type: ignore[union-attr]
        return seen

    async def both(client: testing.Client) -> list[list[str]]:
        results: list[list[str]] = [[], [], []]

        async def run(i: int, na: str | None) -> None:
            results[i] = await call(client, na)

        async with anyio.create_task_group() as group:
            for i, na in enumerate(("null", "string", None)):
                group.start_soon(run, i, na)
        return results

    with testing.Client(server) as client:
        nulls, strings, unset = anyio.run(both, client)
    as_list = options_rule.held_as_r_list()
    assert nulls == [text_of(as_list, json_na="null")] * 5
    assert strings == [text_of(as_list, json_na="string")] * 5
    assert unset == [text_of(as_list)] * 5
    assert len({nulls[0], strings[0]}) == 2
