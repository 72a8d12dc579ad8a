"""Benchmark: tools/call round trips per second over stdio, mcplite's ``McpServer`` against the
official SDK's ``MCPServer`` serving the same two tools, driven by the same client in the same run.

The tools (``benchmarks/servers/``): ``add(a, b)``, and ``frame()``, a 10,000-row pandas data frame
built at server start (int, float with ~10% NaN, str, bool, datetime). mcplite's tool returns the
frame; the SDK's returns ``df.to_dict(orient="records")``, as an SDK user would write it.

Two clients: the official SDK ``Client`` over stdio, and a raw pipe (write one JSON line, read one
line), which leaves out the client's own parsing and validation. Two protocol eras: ``legacy`` (the
initialize handshake; 2025-11-25 is negotiated) and stateless ``2026-07-28``. Calls are sequential;
each figure is the best of ``--rounds`` rounds after a warm-up, in calls per second, and the SDK's
server, measured in the same run with the same client, is the anchor of every ratio.

Run: ``python benchmarks/bench_server.py [--calls N] [--large-calls N] [--sdk-large-calls N]
[--markdown benchmarks/results/server.md]``.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import math
import os
import platform
import subprocess
import sys
import time
from collections.abc import Callable
from contextlib import AsyncExitStack
from importlib import metadata
from pathlib import Path
from typing import Any

from mcp import Client, StdioServerParameters

HERE = Path(__file__).resolve().parent
SERVERS = {"mcplite": HERE / "servers" / "mcplite_server.py", "sdk": HERE / "servers" / "sdk_server.py"}
MODES = ("legacy", "2026-07-28")
LEGACY_VERSION = "2025-11-25"  # what the SDK client asks for in the handshake; the raw client does too
MODERN_META = {
    "io.modelcontextprotocol/protocolVersion": "2026-07-28",
    "io.modelcontextprotocol/clientCapabilities": {},
}
ROWS = 10_000


def _no_constants(name: str) -> Any:
    raise ValueError(f"not JSON: {name}")


def strict_loads(text: str | bytes) -> Any:
    """``json.loads`` that refuses NaN / Infinity, which are not JSON."""
    return json.loads(text, parse_constant=_no_constants)


# -- the raw pipe client ---------------------------------------------------------------------------


class RawClient:
    """One JSON line out, one JSON line back: no validation beyond finding the response's id."""

    def __init__(self, script: Path, mode: str, *, command: list[str] | None = None) -> None:
        """Start ``python script`` (or ``command``: e.g. the server under a profiler) and connect."""
        self.proc = subprocess.Popen(
            command or [sys.executable, str(script)],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            bufsize=1 << 20,
        )
        assert self.proc.stdin is not None and self.proc.stdout is not None
        self._in = self.proc.stdin
        self._out = self.proc.stdout
        self.modern = mode != "legacy"
        self._id = 0
        if not self.modern:
            init = {
                "protocolVersion": LEGACY_VERSION,
                "capabilities": {},
                "clientInfo": {"name": "raw", "version": "0"},
            }
            reply = strict_loads(self.request("initialize", init))
            assert reply["result"]["protocolVersion"] == LEGACY_VERSION, reply
            self._send(b'{"jsonrpc":"2.0","method":"notifications/initialized"}\n')

    def _send(self, line: bytes) -> None:
        self._in.write(line)
        self._in.flush()

    def request(self, method: str, params: dict[str, Any]) -> bytes:
        self._id += 1
        if self.modern:
            params = {**params, "_meta": MODERN_META}
        message = {"jsonrpc": "2.0", "id": self._id, "method": method, "params": params}
        self._send(json.dumps(message, separators=(",", ":")).encode() + b"\n")
        return self._response(self._id)

    def call_template(self, name: str, arguments: dict[str, Any]) -> bytes:
        """The tools/call line with ``%d`` where the id goes (built once, filled per call)."""
        params: dict[str, Any] = {"name": name, "arguments": arguments}
        if self.modern:
            params["_meta"] = MODERN_META
        body = json.dumps(params, separators=(",", ":")).replace("%", "%%")
        return b'{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":' + body.encode() + b"}\n"

    def _response(self, request_id: int) -> bytes:
        expected = b'"id":%d' % request_id
        while True:
            line = self._out.readline()
            if not line:
                raise RuntimeError(f"server closed stdout (exit code {self.proc.wait()})")
            head = line[:120]
            if expected in head:
                if b'"error":' in head:
                    raise RuntimeError(f"JSON-RPC error: {line[:300]!r}")
                return line
            if b'"method"' not in head:  # a notification would carry a method; anything else is wrong
                raise RuntimeError(f"unexpected line: {line[:300]!r}")

    def timed(self, template: bytes, calls: int) -> tuple[float, float | None]:
        """Seconds for ``calls`` sequential calls, and the server's CPU seconds meanwhile (Linux)."""
        send, response = self._send, self._response
        cpu = self.cpu_seconds()
        start = time.perf_counter()
        for _ in range(calls):
            self._id += 1
            send(template % self._id)
            response(self._id)
        elapsed = time.perf_counter() - start
        after = self.cpu_seconds()
        return elapsed, (after - cpu if after is not None and cpu is not None else None)

    def cpu_seconds(self) -> float | None:
        """User + system CPU time of the server process so far, all threads (from /proc; else None)."""
        try:
            fields = Path(f"/proc/{self.proc.pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            return None
        return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

    def close(self) -> None:
        self._in.close()
        self.proc.wait(timeout=30)


# -- the two drivers -------------------------------------------------------------------------------

# case -> (the server's tool for it, arguments, warm-up calls, calls per round)
Plan = dict[str, tuple[str, dict[str, Any], int, int]]
# server -> tool -> {"times": seconds of each round, "calls": calls per round, + the first answer}
Measured = dict[str, dict[str, dict[str, Any]]]

# Both servers run side by side and their rounds alternate, so that a burst of load on this
# (shared, 2-core) machine falls on both rather than on whichever happened to be measured then.


def drive_raw(mode: str, plans: dict[str, Plan], rounds: int) -> Measured:
    clients = {server: RawClient(SERVERS[server], mode) for server in plans}
    out: Measured = {server: {} for server in plans}
    try:
        for tool in next(iter(plans.values())):
            templates = {}
            for server, client in clients.items():
                name, arguments, warm, calls = plans[server][tool]
                line = client.request("tools/call", {"name": name, "arguments": arguments})
                templates[server] = client.call_template(name, arguments)
                client.timed(templates[server], warm)
                out[server][tool] = {"times": [], "cpu": [], "calls": calls, "line": line}
            for _ in range(rounds):
                for server, client in clients.items():
                    cell = out[server][tool]
                    seconds, cpu = client.timed(templates[server], cell["calls"])
                    cell["times"].append(seconds)
                    if cpu is not None:
                        cell["cpu"].append(cpu)
    finally:
        for client in clients.values():
            client.close()
    return out


async def _timed_sdk(client: Client, tool: str, arguments: dict[str, Any], calls: int) -> float:
    start = time.perf_counter()
    for _ in range(calls):
        result = await client.call_tool(tool, arguments)
        if result.is_error:
            raise RuntimeError(f"{tool} failed: {result.content}")
    return time.perf_counter() - start


async def _drive_sdk(mode: str, plans: dict[str, Plan], rounds: int) -> Measured:
    out: Measured = {server: {} for server in plans}
    async with AsyncExitStack() as stack:
        clients = {}
        for server in plans:
            params = StdioServerParameters(command=sys.executable, args=[str(SERVERS[server])])
            clients[server] = await stack.enter_async_context(Client(params, mode=mode))
        for tool in next(iter(plans.values())):
            for server, client in clients.items():
                name, arguments, warm, calls = plans[server][tool]
                first = await client.call_tool(name, arguments)
                await _timed_sdk(client, name, arguments, warm)
                out[server][tool] = {"times": [], "calls": calls, "result": first}
            for _ in range(rounds):
                for server, client in clients.items():
                    name, arguments, _, calls = plans[server][tool]
                    out[server][tool]["times"].append(await _timed_sdk(client, name, arguments, calls))
    return out


def drive_sdk(mode: str, plans: dict[str, Plan], rounds: int) -> Measured:
    return asyncio.run(_drive_sdk(mode, plans, rounds))


# -- checking that both servers answer with the same data ------------------------------------------


def rows_from_line(line: bytes) -> tuple[list[dict[str, Any]], str]:
    """The frame's rows from a raw tools/call response, and where they were found."""
    result = strict_loads(line)["result"]
    structured = result.get("structuredContent")
    if structured is not None:
        rows = structured["result"] if isinstance(structured, dict) and "result" in structured else structured
        blocks = [block["text"] for block in result["content"]]
        return rows, (
            f"structuredContent (+ {len(blocks):,} text blocks, {invalid_json(blocks):,} of them not valid "
            "JSON)"
        )
    return strict_loads(result["content"][0]["text"]), "one text block (valid JSON)"


def invalid_json(texts: list[str]) -> int:
    """How many of ``texts`` strict JSON refuses (the SDK writes NaN as ``NaN`` in its text blocks)."""
    bad = 0
    for text in texts:
        try:
            strict_loads(text)
        except ValueError:
            bad += 1
    return bad


def compare_frames(ours: list[dict[str, Any]], theirs: list[dict[str, Any]]) -> list[str]:
    """Differences between mcplite's rows and the SDK's, once NaN and time-stamp spelling are set aside."""
    problems = []
    if len(ours) != ROWS or len(theirs) != ROWS:
        problems.append(f"row counts {len(ours)} / {len(theirs)}")
    for a, b in zip(ours, theirs):
        x_a, x_b = a.get("x"), b.get("x")
        same_x = (x_a is None and x_b is None) or (
            x_a is not None and x_b is not None and math.isclose(x_a, x_b, rel_tol=1e-12)
        )
        rest_a = (a["id"], a["label"], a["flag"], a["when"])
        rest_b = (b["id"], b["label"], b["flag"], b["when"].replace("T", " "))
        if not same_x or rest_a != rest_b:
            problems.append(f"row {a.get('id')}: {a} vs {b}")
            break
    return problems


def check_answers(raw: dict[str, Measured], sdk_client: dict[str, Measured]) -> list[str]:
    """Notes on what each server sent for the same calls (raises if the data differ)."""
    notes = []
    for mode in MODES:
        added = [
            strict_loads(raw[mode][server]["add"]["line"])["result"]["content"][0]["text"]
            for server in SERVERS
        ]
        if added != ["3", "3"]:
            raise AssertionError(f"add(1, 2) answered {added} ({mode})")
        ours, where_ours = rows_from_line(raw[mode]["mcplite"]["frame"]["line"])
        theirs, where_theirs = rows_from_line(raw[mode]["sdk"]["frame"]["line"])
        problems = compare_frames(ours, theirs)
        if problems:
            raise AssertionError(f"the frames differ ({mode}): {problems}")
        sizes = {server: len(raw[mode][server]["frame"]["line"]) for server in SERVERS}
        missing_ours = sum("x" not in row for row in ours)
        null_theirs = sum(row.get("x") is None for row in theirs)
        notes.append(
            f"{mode}: both frames have {len(ours):,} rows with the same values. mcplite: {where_ours}, "
            f"{sizes['mcplite']:,} bytes on the wire, {missing_ours:,} NaN left out of their rows "
            f"(jsonlite's rule); SDK: {where_theirs}, {sizes['sdk']:,} bytes, {null_theirs:,} NaN as "
            "null in structuredContent."
        )
        text_rows, _ = rows_from_line(raw[mode]["sdk"]["frame_text"]["line"])
        problems = compare_frames(ours, text_rows)
        if problems:
            raise AssertionError(f"the frames differ from the SDK's text tool ({mode}): {problems}")
    for mode in MODES:  # the SDK client's view of the same answers
        ours_text = sdk_client[mode]["mcplite"]["frame"]["result"].content[0].text
        theirs_result = sdk_client[mode]["sdk"]["frame"]["result"]
        problems = compare_frames(strict_loads(ours_text), theirs_result.structured_content["result"])
        if problems:
            raise AssertionError(f"the frames differ through the SDK client ({mode}): {problems}")
    return notes


def client_cost_note(measured: dict[str, dict[str, Measured]]) -> str:
    """What the SDK Client adds to each add() call, and the ratio it leaves room for."""
    parts = []
    for mode in MODES:
        per_call = {
            (client, server): min(cell["times"]) / cell["calls"]
            for client in measured
            for server, tools in measured[client][mode].items()
            for cell in [tools["add"]]
        }
        ours = per_call["SDK Client", "mcplite"] - per_call["raw pipe", "mcplite"]
        theirs = per_call["SDK Client", "sdk"] - per_call["raw pipe", "sdk"]
        parts.append(
            f"{mode}: {ours * 1e3:.2f} ms with mcplite's server, {theirs * 1e3:.2f} ms with the SDK's, so "
            f"even a server answering in no time would be at most about "
            f"{per_call['SDK Client', 'sdk'] / ours:.1f}x the SDK's through this client"
        )
    return (
        "- The SDK Client's own cost per `add` call (its time minus the raw pipe's, same server): "
        + "; ".join(parts)
        + "."
    )


# -- the run ---------------------------------------------------------------------------------------


def machine() -> str:
    versions = ", ".join(f"{name} {metadata.version(name)}" for name in ("mcp", "pandas", "numpy"))
    return f"Python {platform.python_version()}, {platform.machine()}, {os.cpu_count()} CPUs; {versions}"


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--calls", type=int, default=1000, help="add() calls per round")
    parser.add_argument("--large-calls", type=int, default=20, help="frame() calls per round, mcplite")
    parser.add_argument("--sdk-large-calls", type=int, default=3, help="frame() calls per round, SDK server")
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--markdown", help="write the results table here")
    args = parser.parse_args()

    def plan(server: str) -> Plan:
        large = args.large_calls if server == "mcplite" else args.sdk_large_calls
        return {
            "add": ("add", {"a": 1, "b": 2}, max(1, args.calls // 10), args.calls),
            "frame": ("frame", {}, 1, large),
            # the SDK's fastest way to the same frame; mcplite's tool is the same frame() as above
            "frame_text": ("frame" if server == "mcplite" else "frame_text", {}, 1, args.large_calls),
        }

    drivers: dict[str, Callable[[str, dict[str, Plan], int], Measured]] = {
        "SDK Client": drive_sdk,
        "raw pipe": drive_raw,
    }
    began = time.perf_counter()
    measured: dict[str, dict[str, Measured]] = {}
    for client_name, drive in drivers.items():
        measured[client_name] = {}
        for mode in MODES:
            measured[client_name][mode] = drive(
                mode, {server: plan(server) for server in SERVERS}, args.rounds
            )
            print(f"  {client_name}, {mode}: done", file=sys.stderr, flush=True)
    notes = check_answers(measured["raw pipe"], measured["SDK Client"])
    elapsed = time.perf_counter() - began

    lines = [
        "# MCP server round trips over stdio (`benchmarks/bench_server.py`)",
        "",
        f"tools/call round trips per second, sequential, the best of {args.rounds} rounds after a warm-up; "
        f"the SDK's `MCPServer` with the same client in the same run is the anchor. {machine()}. "
        f"Whole run: {elapsed:.0f} s.",
        "",
        "| client | protocol | tool | calls per round (mcplite / SDK) | mcplite calls/s | SDK calls/s | "
        "mcplite / SDK | worst round vs best (mcplite / SDK) | server CPU ms per call (mcplite / SDK) |",
        "|---|---|---|---|---:|---:|---|---|---|",
    ]
    tools = {
        "add": "`add(a, b)`",
        "frame": f"`frame()`, {ROWS:,} rows",
        "frame_text": f"`frame()` / SDK `frame_text()` (pandas' JSON text), {ROWS:,} rows",
    }
    for client_name, cells in measured.items():
        for mode in MODES:
            for tool, label in tools.items():
                ours, theirs = cells[mode]["mcplite"][tool], cells[mode]["sdk"][tool]
                rate_ours = ours["calls"] / min(ours["times"])
                rate_theirs = theirs["calls"] / min(theirs["times"])
                spread = " / ".join(f"+{max(c['times']) / min(c['times']) - 1:.0%}" for c in (ours, theirs))
                cpu = "n/a"
                if ours.get("cpu") and theirs.get("cpu"):
                    cpu = " / ".join(f"{min(c['cpu']) / c['calls'] * 1e3:,.2f}" for c in (ours, theirs))
                lines.append(
                    f"| {client_name} | {mode} | {label} | {ours['calls']:,} / {theirs['calls']:,} | "
                    f"{rate_ours:,.1f} | {rate_theirs:,.1f} | {rate_ours / rate_theirs:.1f}x | {spread} | "
                    f"{cpu} |"
                )
                print(lines[-1], flush=True)
    lines += [
        "",
        "- SDK Client: `mcp.Client(StdioServerParameters(...), mode=...)` and "
        "`await client.call_tool(...)`; its own parsing and validation of every result (pydantic models) "
        "is part of each round trip.",
        "- raw pipe: a subprocess with pipes; writes one JSON line and reads lines until the one carrying "
        "the call's id, without parsing it: close to the server's own cost per call. Its rows also give "
        "the server process's CPU time per call (all threads, from /proc, the lowest of the rounds; "
        "clock-tick resolution).",
        f"- legacy: initialize handshake ({LEGACY_VERSION} negotiated); 2026-07-28: no handshake, the "
        "protocol version and client capabilities in every request's `_meta` (both servers serve it on "
        "stdio).",
        "- The same data: " + " ".join(notes),
        "- What the SDK tool had to do: return `FRAME.to_dict(orient='records')` under "
        "`-> list[dict[str, Any]]` (nothing else: the SDK accepted the records, NaN and `Timestamp`s "
        "included). It answers with the list as `structuredContent: {'result': [...]}` *and* one indented "
        "JSON text block per row (10,000 blocks); in the structured copy NaN became `null`, in the text "
        "blocks a bare `NaN` (not JSON), and pandas `Timestamp`s ISO strings (`2024-05-13T01:29:37`), with "
        "no say from the tool. "
        "The SDK's `frame_text()` returns `FRAME.to_json(orient='records', date_format='iso', "
        "date_unit='s')` as `-> str` with `structured_output=False`: one text block, the fastest SDK tool "
        "found for the same frame (NaN as null, times as `2024-05-13T01:29:37`). "
        "mcplite's tool returns the data frame itself: one text block, jsonlite's rows (NaN left out of "
        "its row, times as `2024-05-13 01:29:37`), no output schema so no structured copy.",
    ]
    lines.append(client_cost_note(measured))
    if args.markdown:
        Path(args.markdown).write_text("\n".join(lines) + "\n")
    else:
        print("\n".join(lines))


if __name__ == "__main__":
    main()
