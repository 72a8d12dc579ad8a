"""The demo server's resources, prompt and completion over the penguins data.

* ``penguins://data``: the whole data frame, as jsonlite writes it (rows of objects, NA left out);
* ``penguins://columns/{name}``: one column (a resource template; ``name`` completes);
* ``penguins://species/{species}``: the rows of one species (a template; ``species`` completes);
* the ``explore_column`` prompt, whose ``column`` and ``species`` arguments complete too.

``frame`` is the function that gives the data (the demo's ``penguins``, read once and kept):

>>> import rvalues as rv
>>> server = McpServer("penguins")
>>> frame = rv.DataFrame(bill_length_mm=[39.1], species=rv.factor(["Adelie"]))
>>> add_offer(server, lambda: frame)
>>> list(server.resources), list(server.resource_templates), list(server.prompts)
(['penguins://data'], ['penguins://columns/{name}', 'penguins://species/{species}'], ['explore_column'])
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
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


def explore_column(column: str, species: str | None = None) -> str:
    """Start an analysis of one column of the penguins data (of one species, if given)."""
    if species is not None:
        return (
            f"Explore the column {column} for the {species} penguins. Read "
            f"penguins://species/{species}, describe {column} there (its range, its missing values), "
            f"and compare it with the other species using summarize_by_group. Say what stands out."
        )
    return (
        f"Explore the column {column} of the penguins data. Read penguins://columns/{column}, "
        f"call column_stats for it, compare it across species with summarize_by_group, and plot a "
        f"histogram if it is numeric. Say what stands out."
    )


def species_names(frame: rv.DataFrame) -> list[str]:
    """The species of the data (the levels of its ``species`` factor)."""
    species = frame.columns["species"]
    return [str(name) for name in species.levels] if isinstance(species, rv.Factor) else []


def rows_of(frame: rv.DataFrame, species: str) -> rv.DataFrame:
    """The rows of one species (``ResourceNotFound`` for a name that is not one)."""
    names = species_names(frame)
    if species not in names:
        raise ResourceNotFound(f"no species {species!r}; the species are: {', '.join(names)}")
    table = rv.to_pandas(frame)
    value = rv.from_pandas(table[table["species"] == species].reset_index(drop=True))
    assert isinstance(value, rv.DataFrame)
    return value


def add_offer(server: McpServer, frame: Frame) -> None:
    """Register the data resource, the column template, the prompt and column-name completion."""

    def complete_column(typed: str) -> list[str]:
        return [str(name) for name in frame().columns if str(name).startswith(typed)]

    def complete_species(typed: str) -> list[str]:
        return [name for name in species_names(frame()) if name.lower().startswith(typed.lower())]

    @functools.cache  # the data is read once and values are immutable: each species' rows once
    def species(species: str) -> rv.DataFrame:
        """The rows of one species of the penguins data."""
        return rows_of(frame(), species)

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
    server.resource(
        "penguins://species/{species}", title="One species", complete={"species": complete_species}
    )(species)
    completions = {"column": complete_column, "species": complete_species}
    server.prompt(title="Explore a column", complete=completions)(explore_column)
