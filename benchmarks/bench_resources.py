"""Benchmark: ``resources/read`` of a 10,000-row data frame, reads per second over stdio, mcplite's
``McpServer`` against the official SDK's ``MCPServer`` serving the same frame as ``df.to_json()``.

The servers are those of ``benchmarks/bench_server.py`` (``benchmarks/servers/``). Three resources:

* mcplite, ``bench://frame``: returns the pandas frame; mcplite converts it and writes its jsonlite
  JSON on every read (a pandas frame can change in place, so nothing is kept);
* mcplite, ``bench://rframe``: returns the same frame as an R value converted once at start-up
  (as a lifespan loads data); an R value is immutable, so mcplite writes it on the first read and
  sends those bytes again (``mcplite.features.written``);
* the SDK, ``bench://frame``: returns ``FRAME.to_json(date_format="iso")`` (pandas writes it on
  every read; the SDK wraps the text).

Two clients (the official SDK ``Client`` and a raw pipe) and two eras (legacy, 2026-07-28); the
servers' rounds alternate; each figure is the best of ``--rounds`` rounds after a warm-up, and the
SDK's server, measured in the same run with the same client, is the anchor of every ratio.

The SDK client caches reads for the ``ttlMs`` a 2026-07-28 server gives: every read here bypasses
the cache (``cache_mode="bypass"``), so each one reaches the server.

Run: ``python benchmarks/bench_resources.py [--calls N] [--rounds N]
[--markdown benchmarks/results/resources.md]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import platform
import sys
import time
from contextlib import AsyncExitStack
from importlib import metadata
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

sys.path.insert(0, str(Path(__file__).resolve().parent))

from bench_server import MODES, SERVERS, RawClient, strict_loads

URI = "bench://frame"
SUBJECTS = {
    "mcplite pandas": ("mcplite", "bench://frame"),
    "mcplite R": ("mcplite", "bench://rframe"),
    "sdk": ("sdk", URI),
}
"""Each measured resource: its server and its URI."""


def read_template(client: RawClient, uri: str) -> bytes:
    """The resources/read line with ``%d`` where the id goes."""
    params: dict[str, Any] = {"uri": uri}
    if client.modern:
        params["_meta"] = {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }
    body = json.dumps(params, separators=(",", ":")).replace("%", "%%")
    return b'{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":' + body.encode() + b"}\n"


def drive_raw(mode: str, calls: int, rounds: int) -> dict[str, list[float]]:
    clients = {name: RawClient(SERVERS[server], mode) for name, (server, _) in SUBJECTS.items()}
    times: dict[str, list[float]] = {name: [] for name in clients}
    try:
        templates = {}
        for server, client in clients.items():
            uri = SUBJECTS[server][1]
            first = strict_loads(client.request("resources/read", {"uri": uri}))
            contents = first["result"]["contents"]
            assert len(contents) == 1 and contents[0]["mimeType"] == "application/json", first
            assert len(strict_loads(contents[0]["text"])) > 0
            templates[server] = read_template(client, uri)
            client.timed(templates[server], max(1, calls // 5))
        for _ in range(rounds):
            for server, client in clients.items():
                times[server].append(client.timed(templates[server], calls)[0])
    finally:
        for client in clients.values():
            client.close()
    return times


async def _drive_sdk(mode: str, calls: int, rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {name: [] for name in SUBJECTS}
    async with AsyncExitStack() as stack:
        clients = {}
        for name, (server, _) in SUBJECTS.items():
            params = StdioServerParameters(command=sys.executable, args=[str(SERVERS[server])])
            clients[name] = await stack.enter_async_context(Client(params, mode=mode))  # type: ignore[arg-type]
        for name, client in clients.items():
            for _ in range(max(1, calls // 5)):
                await client.read_resource(SUBJECTS[name][1], cache_mode="bypass")
        for _ in range(rounds):
            for name, client in clients.items():
                uri = SUBJECTS[name][1]
                start = time.perf_counter()
                for _ in range(calls):
                    await client.read_resource(uri, cache_mode="bypass")
                times[name].append(time.perf_counter() - start)
    return times


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=40)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--markdown", type=Path)
    args = parser.parse_args()
    rows = []
    for client in ("raw", "sdk"):
        for mode in MODES:
            if client == "raw":
                times = drive_raw(mode, args.calls, args.rounds)
            else:
                times = asyncio.run(_drive_sdk(mode, args.calls, args.rounds))
            rate = {name: args.calls / min(seconds) for name, seconds in times.items()}
            pandas, r_value, sdk = rate["mcplite pandas"], rate["mcplite R"], rate["sdk"]
            rows.append((client, mode, pandas, r_value, sdk))
            print(
                f"{client:4} {mode:11} mcplite pandas {pandas:8.1f}/s  mcplite R {r_value:8.1f}/s  "
                f"sdk {sdk:8.1f}/s  ratios {pandas / sdk:.2f}x {r_value / sdk:.2f}x",
                flush=True,
            )
    if args.markdown:
        lines = [
            "# resources/read of a 10,000-row frame: mcplite vs the SDK's MCPServer (df.to_json())",
            "",
            f"Python {platform.python_version()}, mcp {metadata.version('mcp')}, "
            f"{args.calls} sequential reads per round, best of {args.rounds} rounds, stdio.",
            "",
            "| client | era | SDK reads/s | mcplite reads/s, pandas frame | ratio | "
            "mcplite reads/s, R frame | ratio |",
            "|---|---|---:|---:|---|---:|---|",
            *[
                f"| {c} | {m} | {sdk:,.1f} | {p:,.1f} | {p / sdk:.2f}x | {r:,.1f} | {r / sdk:.2f}x |"
                for c, m, p, r, sdk in rows
            ],
            "",
            "- pandas frame: the resource returns the pandas frame; mcplite converts it and writes "
            "its jsonlite JSON on every read (a pandas frame can change in place, so nothing is kept).",
            "- R frame: the resource returns the same frame as an R value converted once at start-up; "
            "R values are immutable, so mcplite writes it on the first read and sends those bytes "
            "again. An SDK user could keep `to_json()`'s text in the same way; the SDK does not.",
            "- SDK: `FRAME.to_json(date_format='iso')` on every read, the text wrapped by the SDK.",
            "",
        ]
        args.markdown.write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
