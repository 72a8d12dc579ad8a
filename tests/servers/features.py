"""An MCP server with resources, a template, prompts, completion and a lifespan, for the
end-to-end tests with real clients (tests/test_server_features_clients.py).

Run it as a script (``python tests/servers/features.py``: stdio), or serve ``server.asgi_app()``.
"""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from typing import Any

import mcplite

COLUMNS = {"species": ["Adelie", "Gentoo"], "mass": [3750, 5400]}
LOGO = b"\x89PNG\r\n\x1a\n"


@contextlib.asynccontextmanager
async def load(server: mcplite.McpServer) -> AsyncIterator[dict[str, Any]]:
    yield {"columns": COLUMNS, "started": True}


server = mcplite.McpServer("features", version="1.0.0", lifespan=load)


@server.resource("penguins://data", title="Penguins", description="The data.", mime_type="application/json")
def data(ctx: mcplite.Context) -> dict[str, list[Any]]:
    return dict(ctx.lifespan_state["columns"])


@server.resource("penguins://logo", mime_type="image/png")
def logo() -> bytes:
    return LOGO


@server.resource(
    "penguins://columns/{name}",
    description="One column.",
    complete={"name": lambda typed: [c for c in COLUMNS if c.startswith(typed)]},
)
def column(name: str) -> list[Any]:
    if name not in COLUMNS:
        raise KeyError(f"no column {name!r}")
    return COLUMNS[name]


@server.prompt(title="Explore a column")
def explore(column: str) -> str:
    """Start exploring one column."""
    return f"Explore the column {column}."


@server.completion
def complete(ref: dict[str, Any], argument: str, value: str) -> list[str]:
    return [c for c in COLUMNS if c.startswith(value)]


@server.prompt
def compare(ctx: mcplite.Context, first: str, second: str = "mass") -> list[Any]:
    """Compare two columns (a list of messages: text, an image, an embedded resource)."""
    columns = ctx.lifespan_state["columns"]
    return [
        f"Compare {first} and {second} over {len(columns[first])} rows.",
        mcplite.content_image(LOGO, "image/png"),
        {"role": "assistant", "content": mcplite.content_resource("penguins://data", text="{}")},
    ]


@server.tool
def peek(uri: str, ctx: mcplite.Context) -> str:
    """The text of one of this server's resources, read from inside a tool."""
    return str(ctx.read_resource(uri)[0].text)


@server.tool
def touch() -> list[int]:
    """Say that the resources changed and penguins://data was updated: how many clients were told."""
    return [server.notify_resources_changed(), server.notify_resource_updated("penguins://data")]


@server.tool
def started(ctx: mcplite.Context) -> bool:
    """Whether the lifespan ran before this call."""
    return bool(ctx.lifespan_state and ctx.lifespan_state["started"])


if __name__ == "__main__":
    server.run()
