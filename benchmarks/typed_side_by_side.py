"""The same typed tool on mcplite, the SDK's ``MCPServer`` and FastMCP, called by the official SDK client.

Each library serves one tool, ``summarize(case)``, that returns a record with a frame of group means,
declared by its return annotation: for mcplite ``Summary`` with ``Annotated[pd.DataFrame, Rows(GroupMean)]``,
for the SDK and FastMCP the same fields with ``list[GroupMean]``, filled from the frame with
``frame.to_dict("records")`` (what their users write; neither takes a DataFrame annotation). Each library
derives the tool's ``outputSchema`` from that annotation. The cases are the values data brings: ordinary
values, an all-NaN mean, NA in a float and a nullable integer column, and a frame with no rows.

The official SDK ``Client`` (stdio, legacy handshake) checks each structured result against the listed
schema and raises when it does not fit. The table says what the client gets for each case. Run::

    python benchmarks/typed_side_by_side.py --markdown benchmarks/results/typed_side_by_side.md

(``python benchmarks/typed_side_by_side.py serve LIBRARY`` is the server each row starts.)
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import sys
from pathlib import Path
from typing import Annotated, Any

import attrs
import pandas as pd
from typing_extensions import TypedDict  # pydantic (the SDK, FastMCP) wants it before Python 3.12

import mcplite

CASES = {
    "values": "ordinary values",
    "nan": "a group's mean is NaN",
    "na": "NA in `mean` (float) and `n` (Int64)",
    "empty": "no rows",
}
LIBRARIES = {"mcplite": "mcplite", "sdk": "SDK `MCPServer`", "fastmcp": "FastMCP"}


def frame(case: str) -> pd.DataFrame:
    """The group means of one case, as a pandas frame (NA: pandas' missing values)."""
    if case == "empty":
        return pd.DataFrame(
            {
                "group": pd.Series([], dtype=object),
                "mean": pd.Series([], dtype=float),
                "n": pd.array([], "Int64"),
            }
        )
    mean = {"values": [3700.66, 5076.02], "nan": [3700.66, math.nan], "na": [3700.66, None]}[case]
    n = pd.array([151, None if case == "na" else 123], dtype="Int64")
    return pd.DataFrame({"group": ["Adelie", "Gentoo"], "mean": mean, "n": n})


class GroupMean(TypedDict):
    group: str
    mean: float
    n: int


# -- the three servers ------------------------------------------------------------------------------


@attrs.frozen
class FrameSummary:
    """mcplite's return type: the frame itself, its rows declared."""

    column: str
    groups: Annotated[pd.DataFrame, mcplite.Rows(GroupMean)]


def serve_mcplite() -> None:
    server = mcplite.McpServer("side-by-side")

    @server.tool
    def summarize(case: str) -> FrameSummary:
        """Group means of body mass for one case."""
        return FrameSummary("body_mass_g", frame(case))

    server.run()


class Summary(TypedDict):
    column: str
    groups: list[GroupMean]


def summarize_records(case: str) -> Summary:
    """Group means of body mass for one case (records, as the SDK's and FastMCP's users return them)."""
    return {"column": "body_mass_g", "groups": frame(case).to_dict("records")}  # type: ignore[typeddict-item]


def serve_sdk() -> None:
    from mcp.server import MCPServer

    server = MCPServer("side-by-side", log_level="ERROR")
    server.tool(name="summarize")(summarize_records)
    server.run("stdio")


def serve_fastmcp() -> None:
    from fastmcp import FastMCP

    server = FastMCP("side-by-side")
    server.tool(name="summarize")(summarize_records)
    server.run("stdio", show_banner=False)


SERVE = {"mcplite": serve_mcplite, "sdk": serve_sdk, "fastmcp": serve_fastmcp}


# -- the client -----------------------------------------------------------------------------------


async def observe(library: str, errlog: Any) -> dict[str, Any]:
    """What the official SDK client gets from one library: the listed schema of ``mean`` and each case."""
    from mcp import Client, StdioServerParameters
    from mcp.client.stdio import stdio_client

    params = StdioServerParameters(
        command=sys.executable, args=[str(Path(__file__).resolve()), "serve", library], env=dict(os.environ)
    )
    seen: dict[str, Any] = {}
    async with Client(stdio_client(params, errlog=errlog), mode="legacy", read_timeout_seconds=30) as client:  # type: ignore[arg-type]
        [tool] = (await client.list_tools()).tools
        row = (tool.output_schema or {}).get("properties", {}).get("groups", {}).get("items", {})
        row = _resolve(row, tool.output_schema or {})
        seen["schema"] = {"mean": row.get("properties", {}).get("mean"), "required": row.get("required", [])}
        seen["version"] = str(client.protocol_version)
        for case in CASES:
            try:
                result = await client.call_tool("summarize", {"case": case})
            except Exception as exc:  # the client refuses what the server sent
                seen[case] = ("raises", f"{type(exc).__name__}: {_first_line(exc)}")
                continue
            if result.is_error:
                text = " ".join(getattr(block, "text", "") for block in result.content)
                seen[case] = ("error", _first_line(text))
            else:
                seen[case] = ("ok", json.dumps(result.structured_content, separators=(",", ":")))
    return seen


def _resolve(schema: dict[str, Any], root: dict[str, Any]) -> dict[str, Any]:
    """A ``$ref`` to ``$defs`` resolved (pydantic's schemas refer to their definitions)."""
    ref = schema.get("$ref")
    if isinstance(ref, str) and ref.startswith("#/$defs/"):
        return dict(root.get("$defs", {}).get(ref.rsplit("/", 1)[1], {}))
    return schema


def _first_line(message: Any, limit: int = 150) -> str:
    text = " ".join(str(message).split())
    return text if len(text) <= limit else text[: limit - 3] + "..."


def _cell(seen: tuple[str, str]) -> str:
    kind, text = seen
    text = text.replace("|", "\\|")
    if kind == "ok":
        return f"ok: `{text}`"
    return f"**client raises**: {text}" if kind == "raises" else f"**error result**: {text}"


def table(observed: dict[str, dict[str, Any]]) -> str:
    """The results as markdown: one row per case, one column per library."""
    lines = [
        "| case | " + " | ".join(LIBRARIES[name] for name in observed) + " |",
        "|---|" + "---|" * len(observed),
    ]
    for case, label in CASES.items():
        lines.append(f"| {label} | " + " | ".join(_cell(seen[case]) for seen in observed.values()) + " |")
    schema = " | ".join(
        f"`{json.dumps(seen['schema']['mean'], separators=(',', ':'))}`, "
        f"required: {seen['schema']['required']}"
        for seen in observed.values()
    )
    lines.append(f"| listed schema of a row's `mean` | {schema} |")
    return "\n".join(lines)


def report(observed: dict[str, dict[str, Any]]) -> str:
    versions = ", ".join(f"{LIBRARIES[name]} {seen['version']}" for name, seen in observed.items())
    fits = {name: sum(seen[case][0] == "ok" for case in CASES) for name, seen in observed.items()}
    summary = ", ".join(f"{LIBRARIES[name]} {n}/{len(CASES)}" for name, n in fits.items())
    return (
        "# The same typed tool on three servers\n\n"
        "Produced by `python benchmarks/typed_side_by_side.py --markdown "
        "benchmarks/results/typed_side_by_side.md`. One tool, `summarize(case)`, returns a record "
        "whose `groups` are a frame of group means (`group: str`, `mean: float`, `n: int`); each "
        "library derives the `outputSchema` from the return annotation (mcplite: a frame with "
        "declared rows; the SDK's `MCPServer` and FastMCP: `list[GroupMean]` filled with "
        '`frame.to_dict("records")`). The official SDK `Client` calls each case over stdio '
        f"(negotiated: {versions}) and checks the structured content against the listed schema.\n\n"
        f"Results the client accepts: {summary}.\n\n{table(observed)}\n"
    )


async def main_async(libraries: list[str], errlog: Any) -> dict[str, dict[str, Any]]:
    return {library: await observe(library, errlog) for library in libraries}


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0] if __doc__ else None)
    parser.add_argument("--markdown", type=Path, help="write the results there")
    parser.add_argument("--library", action="append", choices=list(LIBRARIES), help="only these (repeatable)")
    args, rest = parser.parse_known_args(argv)
    if rest[:1] == ["serve"]:
        SERVE[rest[1]]()
        return 0
    with open(os.devnull, "w", encoding="utf-8") as errlog:
        observed = asyncio.run(main_async(args.library or list(LIBRARIES), errlog))
    text = report(observed)
    if args.markdown:
        args.markdown.write_text(text, encoding="utf-8")
    print(text)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
