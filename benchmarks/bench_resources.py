"""Benchmark: ``resources/read`` of a 10,000-row data frame, reads per second over stdio, mcplite's
``McpServer`` against the official SDK's ``MCPServer`` serving the same frame as ``df.to_json()``.

The servers are those of ``benchmarks/bench_server.py`` (``benchmarks/servers/``), each with a
``bench://frame`` resource: mcplite's returns the pandas frame (its jsonlite JSON, written by
mcplite), the SDK's returns ``FRAME.to_json()`` (pandas writes it; the SDK wraps the text).
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


def read_template(client: RawClient) -> bytes:
    """The resources/read line with ``%d`` where the id goes."""
    params: dict[str, Any] = {"uri": URI}
    if client.modern:
        params["_meta"] = {
            "io.modelcontextprotocol/protocolVersion": "2026-07-28",
            "io.modelcontextprotocol/clientCapabilities": {},
        }
    body = json.dumps(params, separators=(",", ":")).replace("%", "%%")
    return b'{"jsonrpc":"2.0","id":%d,"method":"resources/read","params":' + body.encode() + b"}\n"


def drive_raw(mode: str, calls: int, rounds: int) -> dict[str, list[float]]:
    clients = {server: RawClient(path, mode) for server, path in SERVERS.items()}
    times: dict[str, list[float]] = {server: [] for server in clients}
    try:
        templates = {}
        for server, client in clients.items():
            first = strict_loads(client.request("resources/read", {"uri": URI}))
            contents = first["result"]["contents"]
            assert len(contents) == 1 and contents[0]["mimeType"] == "application/json", first
            assert len(strict_loads(contents[0]["text"])) > 0
            templates[server] = read_template(client)
            client.timed(templates[server], max(1, calls // 5))
        for _ in range(rounds):
            for server, client in clients.items():
                times[server].append(client.timed(templates[server], calls)[0])
    finally:
        for client in clients.values():
            client.close()
    return times


async def _drive_sdk(mode: str, calls: int, rounds: int) -> dict[str, list[float]]:
    times: dict[str, list[float]] = {server: [] for server in SERVERS}
    async with AsyncExitStack() as stack:
        clients = {}
        for server, path in SERVERS.items():
            params = StdioServerParameters(command=sys.executable, args=[str(path)])
            clients[server] = await stack.enter_async_context(Client(params, mode=mode))  # type: ignore[arg-type]
        for client in clients.values():
            for _ in range(max(1, calls // 5)):
                await client.read_resource(URI, cache_mode="bypass")
        for _ in range(rounds):
            for server, client in clients.items():
                start = time.perf_counter()
                for _ in range(calls):
                    await client.read_resource(URI, cache_mode="bypass")
                times[server].append(time.perf_counter() - start)
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
            rate = {server: args.calls / min(seconds) for server, seconds in times.items()}
            rows.append((client, mode, rate["mcplite"], rate["sdk"], rate["mcplite"] / rate["sdk"]))
            print(
                f"{client:4} {mode:11} mcplite {rate['mcplite']:8.1f}/s  sdk {rate['sdk']:8.1f}/s  "
                f"ratio {rate['mcplite'] / rate['sdk']:.2f}x",
                flush=True,
            )
    if args.markdown:
        lines = [
            "# resources/read of a 10,000-row frame: mcplite vs the SDK's MCPServer (df.to_json())",
            "",
            f"Python {platform.python_version()}, mcp {metadata.version('mcp')}, "
            f"{args.calls} sequential reads per round, best of {args.rounds} rounds, stdio.",
            "",
            "| client | era | mcplite reads/s | SDK reads/s | ratio |",
            "|---|---|---|---|---|",
            *[f"| {c} | {m} | {a:,.1f} | {b:,.1f} | {r:.2f}x |" for c, m, a, b, r in rows],
            "",
        ]
        args.markdown.write_text("\n".join(lines), encoding="utf-8")


if __name__ == "__main__":
    main()
