"""``@server.tool(...)`` and ``server.add_tool(function, ...)`` take one set of keyword arguments,
written once (:class:`mcplite.server.ToolOptions`), and every one of them reaches the registry."""

from __future__ import annotations

import inspect
import typing

import mcplite
import mcplite.server
from mcplite.server import McpServer
from mcplite.tools.registry import ToolOptions, ToolRegistry


def _keywords(function: typing.Callable[..., typing.Any]) -> set[str]:
    return {
        name
        for name, parameter in inspect.signature(function).parameters.items()
        if parameter.kind is inspect.Parameter.KEYWORD_ONLY
    }


def test_the_tool_options_are_written_once() -> None:
    """Neither ``add_tool`` nor the decorator's overloads spell a keyword of their own."""
    assert _keywords(McpServer.add_tool) == set()
    for overload in typing.get_overloads(McpServer.tool):
        assert _keywords(overload) == set()


def test_the_registry_takes_the_same_one_definition() -> None:
    """The registry spells no tool option of its own: it takes :class:`ToolOptions` as they are
    (only ``validate_output``, the server's, is its own keyword)."""
    assert ToolOptions is mcplite.server.ToolOptions
    assert _keywords(ToolRegistry.add_tool) == {"validate_output"}
    options = inspect.signature(ToolRegistry.add_tool, eval_str=True).parameters["options"]
    assert options.kind is inspect.Parameter.VAR_KEYWORD
    assert typing.get_args(options.annotation) == (ToolOptions,)


def test_the_decorator_and_add_tool_register_the_same_tool() -> None:
    def mean(x: list[float]) -> float:
        """The mean."""
        return sum(x) / len(x)

    options: ToolOptions = {"name": "average", "title": "Average", "wrap_rows": True, "task": "optional"}
    decorated, added = mcplite.McpServer("a"), mcplite.McpServer("b")
    decorated.tool(**options)(mean)
    added.add_tool(mean, **options)
    for server in (decorated, added):
        tool = server.get_tool("average")
        assert tool is not None
        assert tool.tool.to_wire("2025-11-25")["title"] == "Average"
        assert server.handlers.find("tasks/get") is not None
    assert decorated.get_tool("average").tool.to_wire("2025-11-25") == added.get_tool(  # type: ignore[union-attr]
        "average"
    ).tool.to_wire("2025-11-25")
