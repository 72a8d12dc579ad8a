"""Benchmark: one ``tools/call`` of a tool returning a 2,000,000-row sales table, over stdio, with the
default result budget (an exact head, a note and a link to the rest) against ``result_budget=None``
(the whole table in one line, as before issue 35).

Each mode runs a server process of its own (``python benchmarks/bench_large_results.py --serve
budget|none``); the client here sends ``initialize``, ``notifications/initialized`` and the call over
the pipe, reads the answer's line as bytes (never parsing it, so the figures are the server's) and
reads the server's peak resident memory (``VmHWM``) before the table is built and after the answer.
Then it reads the first page the link names (``resources/read``).

Run: ``python benchmarks/bench_large_results.py [--rows 2000000] [--markdown
benchmarks/results/large_results.md]`` (about a minute on 2 cores).
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import subprocess
import sys
import time
from typing import Any

import numpy as np
import pandas as pd

import mcplite


def sales(rows: int) -> pd.DataFrame:
    """A sales table like the issue's: an id, a date, a store, a product, a quantity, a price, paid."""
    rng = np.random.default_rng(35)
    return pd.DataFrame(
        {
            "id": np.arange(rows, dtype=np.int64),
            "date": (np.datetime64("2024-01-01") + rng.integers(0, 730, rows)).astype("datetime64[D]"),
            "store": rng.choice(["Berlin", "Paris", "Lisbon", "Oslo", "Rome"], rows),
            "product": rng.choice([f"SKU-{i:04d}" for i in range(500)], rows),
            "quantity": rng.integers(1, 20, rows, dtype=np.int32),
            "price": rng.normal(40, 12, rows).round(2),
            "paid": rng.random(rows) < 0.9,
        }
    )


def serve(mode: str, rows: int) -> None:
    table = sales(rows)
    options: dict[str, Any] = (
        {} if mode == "budget" else {"result_budget": None, "max_result_bytes": 2**31 - 1}
    )
    server = mcplite.McpServer("sales", max_message_size=2**30, **options)

    @server.tool
    def all_sales() -> pd.DataFrame:
        """Every sale."""
        return table

    server.run()


def peak_kib(pid: int) -> int:
    with open(f"/proc/{pid}/status") as status:
        return next(int(line.split()[1]) for line in status if line.startswith("VmHWM:"))


def measure(mode: str, rows: int) -> dict[str, Any]:
    process = subprocess.Popen(
        [sys.executable, __file__, "--serve", mode, "--rows", str(rows)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
    )
    assert process.stdin is not None and process.stdout is not None

    def ask(message: dict[str, Any]) -> bytes:
        process.stdin.write(json.dumps(message).encode() + b"\n")  # type: ignore[union-attr]
        process.stdin.flush()  # type: ignore[union-attr]
        return process.stdout.readline() if "id" in message else b""  # type: ignore[union-attr]

    init = {
        "protocolVersion": "2025-11-25",
        "capabilities": {},
        "clientInfo": {"name": "bench", "version": "1"},
    }
    ask({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": init})
    ask({"jsonrpc": "2.0", "method": "notifications/initialized"})
    before = peak_kib(process.pid)
    started = time.perf_counter()
    line = ask(
        {"jsonrpc": "2.0", "id": 2, "method": "tools/call", "params": {"name": "all_sales", "arguments": {}}}
    )
    elapsed = time.perf_counter() - started
    after = peak_kib(process.pid)
    found: dict[str, Any] = {"mode": mode, "seconds": elapsed, "bytes": len(line), "peak_before": before}
    found["peak_after"] = after
    if mode == "budget":
        result = json.loads(line)["result"]
        truncated = result["_meta"]["io.github.mcplite/truncated"]
        head = result["content"][0]["text"]
        found.update(shown=truncated["shown"], estimated=truncated["bytes"], head_chars=len(head))
        started = time.perf_counter()
        page = ask(
            {"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": truncated["next"]}}
        )
        found.update(page_seconds=time.perf_counter() - started, page_bytes=len(page))
        found["page_rows"] = (
            json.loads(page)["result"]["_meta"]["io.github.mcplite/truncated"]["to"] - truncated["shown"]
        )
    process.stdin.close()
    process.wait(30)
    return found


def markdown(results: list[dict[str, Any]], rows: int) -> str:
    budget, whole = results
    per_row = budget["head_chars"] / budget["shown"]
    lines = [
        "# Large results: one call of a 2,000,000-row table",
        "",
        f"`python benchmarks/bench_large_results.py --rows {rows}` on {platform.python_version()}, "
        f"{os.cpu_count()} cores, {platform.machine()}; one stdio server process per mode, the answer "
        "read as bytes (never parsed); memory is the server's peak resident set (VmHWM).",
        "",
        "| mode | answer | time | server peak memory (before the call -> after) |",
        "|---|---:|---:|---:|",
    ]
    for found in results:
        lines.append(
            f"| {found['mode']} | {found['bytes']:,} bytes | {found['seconds']:.3f} s | "
            f"{found['peak_before'] / 1024:,.0f} MiB -> {found['peak_after'] / 1024:,.0f} MiB |"
        )
    lines += [
        "",
        f"With the budget the answer shows rows 1..{budget['shown']:,} of {rows:,} "
        f"({budget['head_chars']:,} characters of JSON, {per_row:.1f} a row) and estimates the whole at "
        f"{budget['estimated']:,} bytes of JSON (the line without a budget: {whole['bytes']:,} bytes). "
        f"The first page its link names ({budget['page_rows']:,} rows, {budget['page_bytes']:,} bytes) "
        f"took {budget['page_seconds']:.3f} s.",
        "",
    ]
    return "\n".join(lines)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--serve", choices=["budget", "none"])
    parser.add_argument("--rows", type=int, default=2_000_000)
    parser.add_argument("--markdown")
    args = parser.parse_args()
    if args.serve:
        serve(args.serve, args.rows)
        return
    results = [measure(mode, args.rows) for mode in ("budget", "none")]
    text = markdown(results, args.rows)
    print(text)
    if args.markdown:
        with open(args.markdown, "w", encoding="utf-8") as file:
            file.write(text)


if __name__ == "__main__":
    main()
