"""A server whose tools set payload options of their own, for tests/test_mcplite_options_results.py.

Run it as a script to serve it on stdio; the tests import it too, to know each tool's value.
"""

from __future__ import annotations

from typing import Any

import attrs

import mcplite
import rvalues as rv

server = mcplite.McpServer("options-rule")


def value() -> rv.RValue:
    """What every tool here returns, in one form or another: a double with a missing value."""
    return rv.c(1.5, rv.NA_real_)


@attrs.define
class Held:
    """R values inside an object of the tool's own, reached through mcplite.converter's hooks."""

    a: Any
    b: Any


def held() -> Held:
    return Held(value(), rv.c(1))


def held_as_r_list() -> rv.RValue:
    """The R list the held object stands for (what R's jsonlite is given for it)."""
    return rv.r_list(a=value(), b=rv.c(1))


@server.tool
def returned_in_block() -> Any:
    """Returns its value from inside a with block: the block has ended when the value is written."""
    with mcplite.options(json_na="null"):
        return value()


@server.tool
def built_in_block() -> Any:
    """Turns its value into a result inside the block: the block's options apply."""
    with mcplite.options(json_na="null"):
        return mcplite.as_tool_result(value())


@server.tool
def structured_in_block() -> Any:
    """Builds an explicit result with structured content inside the block."""
    with mcplite.options(json_na="null"):
        return mcplite.tool_result(structured_content=rv.r_list(x=value()))


@server.tool
def held_values() -> Any:
    """R values inside an attrs object."""
    return held()


if __name__ == "__main__":
    server.run()
