"""The demo: a tour of R values, JSON and tool results (``python -m mcplite.demo``,
:mod:`mcplite.demo.tour`) and a demo MCP server over the Palmer penguins (``mcplite demo``,
:mod:`mcplite.demo.server`)."""

from mcplite.demo.tour import main, show_results

__all__ = ["main", "show_results"]
