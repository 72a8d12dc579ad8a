"""A server whose tools, prompt and resource ask the client (elicitation, sampling, roots), for the
end-to-end tests of tests/test_interactive_*.py.

Run it as a script (``python tests/servers/asking.py``: stdio), or serve ``make_server().asgi_app()``.
``RUNS`` counts how often each function started (a 2026-07-28 call re-runs in full every round).
"""

from __future__ import annotations

import collections
import enum
from typing import Literal

import attrs

import mcplite

RUNS: collections.Counter[str] = collections.Counter()


class Colour(enum.Enum):
    DEEP_BLUE = "blue"
    RED = "red"


@attrs.frozen
class Fit:
    column: Literal["bill_length_mm", "body_mass_g"] = "body_mass_g"
    proceed: bool = True
    rows: int = 100
    colour: Colour = Colour.RED
    extras: list[Literal["ci", "residuals"]] = attrs.field(factory=list)


NAME_SCHEMA = {"type": "object", "properties": {"name": {"type": "string"}}, "required": ["name"]}


def make_server(state_key: str | None = None, ask_timeout: float = 300.0) -> mcplite.McpServer:
    server = mcplite.McpServer("asking", version="1.0.0", state_key=state_key, ask_timeout=ask_timeout)

    @server.tool
    async def fit_async(ctx: mcplite.Context) -> str:
        """Ask which column to fit (async)."""
        RUNS["fit_async"] += 1
        answer = await ctx.elicit("Fit on which column?", Fit)
        if answer.action != "accept":
            return f"not fitted: {answer.action}"
        fit = answer.content
        return f"fit {fit.column} rows={fit.rows} colour={fit.colour.name} extras={fit.extras}"

    @server.tool
    def fit_sync(ctx: mcplite.Context) -> str:
        """Ask which column to fit (sync, in a worker thread)."""
        RUNS["fit_sync"] += 1
        answer = ctx.elicit("Fit on which column?", Fit)
        if answer.action != "accept":
            return f"not fitted: {answer.action}"
        return f"fit {answer.content.column} rows={answer.content.rows}"

    @server.tool
    def greet(ctx: mcplite.Context) -> str:
        """A hand-written schema; its content is a dict."""
        answer = ctx.elicit("What is your name?", NAME_SCHEMA)
        return f"Hello, {answer.content['name']}!" if answer.action == "accept" else answer.action

    @server.tool
    async def summarize(topic: str, ctx: mcplite.Context) -> str:
        """Sample the client's model."""
        reply = await ctx.sample(
            f"Summarize {topic}", max_tokens=50, system_prompt="Be brief.", temperature=0.2
        )
        return f"{reply.model}: {reply.text}"

    @server.tool
    def roots(ctx: mcplite.Context) -> list[str]:
        """The client's roots (sync)."""
        return ctx.list_roots().uris

    @server.tool
    async def all_at_once(ctx: mcplite.Context) -> str:
        """Three asks in one round."""
        RUNS["all_at_once"] += 1
        name, greeting, found = await ctx.ask_all(
            ctx.elicit("What is your name?", NAME_SCHEMA),
            ctx.sample("Generate a greeting", max_tokens=20),
            ctx.list_roots(),
        )
        return f"{greeting.text} {name.content['name']} ({len(found.roots)} roots)"

    @server.tool
    def all_at_once_sync(ctx: mcplite.Context) -> str:
        """Three asks in one round, from sync code."""
        RUNS["all_at_once_sync"] += 1
        with ctx.together():
            name = ctx.elicit("What is your name?", NAME_SCHEMA)
            greeting = ctx.sample("Generate a greeting", max_tokens=20)
            found = ctx.list_roots()
        return f"{greeting.text} {name.content['name']} ({len(found.roots)} roots)"

    @server.tool
    async def two_rounds(ctx: mcplite.Context) -> str:
        """Two asks one after the other: two rounds at 2026-07-28."""
        RUNS["two_rounds"] += 1
        first = await ctx.elicit("Step 1: your name?", NAME_SCHEMA)
        colour = await ctx.elicit(
            "Step 2: your colour?",
            {"type": "object", "properties": {"colour": {"type": "string"}}, "required": ["colour"]},
        )
        return f"{first.content['name']} likes {colour.content['colour']}"

    @server.tool
    async def swallowing(ctx: mcplite.Context) -> str:
        """A tool whose except Exception must not swallow the round."""
        try:
            answer = await ctx.elicit("Name?", NAME_SCHEMA)
        except Exception as err:  # the point of the fixture
            return f"swallowed {type(err).__name__}"
        return f"got {answer.content['name']}"

    @server.prompt
    def briefing(ctx: mcplite.Context) -> str:
        """A prompt that asks the user for context."""
        answer = ctx.elicit(
            "What context?", {"type": "object", "properties": {"context": {"type": "string"}}}
        )
        return f"Brief me on {answer.content['context']}"

    @server.resource("asking://choice")
    async def choice(ctx: mcplite.Context) -> str:
        """A resource that asks which choice to read."""
        answer = await ctx.elicit("Which?", {"type": "object", "properties": {"pick": {"type": "string"}}})
        return f"picked {answer.content['pick']}"

    return server


server = make_server()

if __name__ == "__main__":
    server.run()
