"""The demo server's resources, prompt and completion over the penguins data.

* ``penguins://data``: the whole data frame, as jsonlite writes it (rows of objects, NA left out);
* ``penguins://columns/{name}``: one column (a resource template; ``name`` completes);
* the ``explore_column`` prompt, whose ``column`` argument completes too.

``frame`` is the function that gives the data (the demo's ``penguins``, read once and kept):

>>> import rvalues as rv
>>> server = McpServer("penguins")
>>> frame = rv.DataFrame(bill_length_mm=[39.1], sex=["male"])
>>> add_offer(server, lambda: frame)
>>> list(server.resources), list(server.resource_templates), list(server.prompts)
(['penguins://data'], ['penguins://columns/{name}'], ['explore_column'])
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from typing import Any

import rvalues as rv
from mcplite import McpServer, ResourceNotFound

Frame = Callable[[], rv.DataFrame]


def lifespan_loading(frame: Frame) -> Callable[[McpServer], contextlib.AbstractAsyncContextManager[Any]]:
    """A lifespan that reads the data once, when the server starts (off the event loop)."""

    @contextlib.asynccontextmanager
    async def load(server: McpServer) -> AsyncIterator[rv.DataFrame]:
        yield await asyncio.to_thread(frame)

    return load


def explore_column(column: str) -> str:
    """Start an analysis of one column of the penguins data."""
    return (
        f"Explore the column {column} of the penguins data. Read penguins://columns/{column}, "
        f"call column_stats for it, compare it across species with summarize_by_group, and plot a "
        f"histogram if it is numeric. Say what stands out."
    )


def add_offer(server: McpServer, frame: Frame) -> None:
    """Register the data resource, the column template, the prompt and column-name completion."""

    def complete_column(typed: str) -> list[str]:
        return [str(name) for name in frame().columns if str(name).startswith(typed)]

    def data() -> rv.DataFrame:
        """The Palmer penguins data: 344 penguins, 8 columns (NA marks missing values)."""
        return frame()

    def column(name: str) -> Any:
        """One column of the penguins data, as R would write it (a factor as its labels)."""
        columns = frame().columns
        if name not in columns:
            raise ResourceNotFound(f"no column {name!r}; the columns are: {', '.join(map(str, columns))}")
        return columns[name]

    server.resource("penguins://data", title="Penguins", mime_type="application/json")(data)
    server.resource("penguins://columns/{name}", title="A column", complete={"name": complete_column})(column)
    server.prompt(title="Explore a column", complete={"column": complete_column})(explore_column)
