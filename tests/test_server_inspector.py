"""The everything server and the demo server seen through the MCP Inspector's CLI mode (a Node client).

The Inspector is found, in this order: ``MCP_INSPECTOR`` (its ``mcp-inspector`` executable); an
install under /tmp/mcp-inspector (what .ci/run makes); else ``npx``, which fetches version
``VERSION`` once into its cache (later runs find it there, offline). Only when none of these can run
it do the tests skip, saying why. Node 20 runs its CLI although it declares node >= 22.19; a bare
``npx @modelcontextprotocol/inspector`` on Node 20 picks the old 0.15 instead, which sends numbers
as strings.
"""

from __future__ import annotations

import functools
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any

import pytest

from tests.servers import everything

VERSION = "2.12.0"
DEFAULT = Path("/tmp/mcp-inspector/node_modules/.bin/mcp-inspector")
SERVER = str(Path(everything.__file__))
NPX_TIMEOUT = 180  # the first fetch; from the cache npx answers in about a second


@functools.cache
def find_inspector() -> tuple[str | None, str]:
    """The ``mcp-inspector`` executable, or None and why it cannot be had."""
    if os.environ.get("MCP_INSPECTOR"):
        return os.environ["MCP_INSPECTOR"], ""
    if DEFAULT.exists():
        return str(DEFAULT), ""
    npx = shutil.which("npx")
    if npx is None or shutil.which("node") is None:
        return None, "needs the MCP Inspector: no npx (Node.js) here; or set MCP_INSPECTOR"
    package = f"@modelcontextprotocol/inspector@{VERSION}"
    command = [npx, "--yes", "--prefer-offline", "-p", package, "-c", "command -v mcp-inspector"]
    with tempfile.TemporaryDirectory() as cwd:  # npx must not pick up a package.json around here
        try:
            done = subprocess.run(command, capture_output=True, timeout=NPX_TIMEOUT, cwd=cwd)
        except subprocess.TimeoutExpired:
            return (
                None,
                f"npx could not fetch {package} within {NPX_TIMEOUT} s (offline?); or set MCP_INSPECTOR",
            )
    found = done.stdout.decode("utf-8", "replace").strip().splitlines()
    if done.returncode or not found or not Path(found[-1]).exists():
        why = (done.stderr.decode("utf-8", "replace").strip().splitlines() or ["no output"])[-1]
        return None, f"npx could not run {package} (offline?): {why}; or set MCP_INSPECTOR"
    return found[-1], ""


@pytest.fixture(autouse=True)
def _needs_the_inspector() -> None:
    inspector, why = find_inspector()
    if inspector is None:
        pytest.skip(why)


TOOL_IS_ERROR = 5  # the Inspector CLI's exit code for an isError result or an unknown tool


def inspect(home: Path, era: str, target: list[str], *args: str) -> tuple[int, Any, str]:
    """Run the Inspector CLI once: its exit code, the JSON it printed, and its stderr."""
    inspector, _ = find_inspector()
    assert inspector is not None
    command = [inspector, "--cli", "--format", "json", "--protocol-era", era, *target, *args]
    done = subprocess.run(
        command,
        capture_output=True,
        timeout=60,
        env={**os.environ, "HOME": str(home)},  # it may keep a catalog under ~/.mcp-inspector
        cwd=home,
    )
    stdout = done.stdout.decode("utf-8")
    return done.returncode, json.loads(stdout) if stdout.strip() else None, done.stderr.decode("utf-8")


@pytest.mark.parametrize("era", ["legacy", "modern"])
def test_tools_list_passes_the_strict_portability_check(tmp_path: Path, era: str) -> None:
    code, listing, stderr = inspect(
        tmp_path, era, [sys.executable, SERVER], "--method", "tools/list", "--strict"
    )
    assert code == 0, stderr[-2000:]
    tools = listing["result"]["tools"]
    assert [tool["name"] for tool in tools] == list(everything.server.tools)
    fancy = next(tool for tool in tools if tool["name"] == "fancy.tool-1")
    assert fancy["title"] == "Fancy tool" and fancy["annotations"]["readOnlyHint"] is True
    assert fancy["icons"][0]["src"] == everything.ICON.src  # 2025-11-25 and 2026-07-28 both carry icons


@pytest.mark.parametrize(("era", "version"), [("legacy", "2025-11-25"), ("auto", "2026-07-28")])
def test_calls_are_served_under_the_negotiated_version(tmp_path: Path, era: str, version: str) -> None:
    target = [sys.executable, SERVER]
    code, answer, stderr = inspect(tmp_path, era, target, "--method", "tools/call", "--tool-name", "version")
    assert code == 0, stderr[-2000:]
    assert answer["result"]["content"] == [{"type": "text", "text": version}]
    code, answer, stderr = inspect(
        tmp_path, era, target, "--method", "tools/call", "--tool-name", "array_structured"
    )
    assert code == 0, stderr[-2000:]
    assert answer["result"]["content"] == [{"type": "text", "text": "[1,2]"}]
    assert answer["result"].get("structuredContent") == ([1, 2] if version == "2026-07-28" else None)


def test_structured_content_and_errors(tmp_path: Path) -> None:
    target = [sys.executable, SERVER]
    code, answer, stderr = inspect(
        tmp_path,
        "modern",
        target,
        "--method",
        "tools/call",
        "--tool-name",
        "stats",
        "--tool-args-json",
        '{"n":3}',
    )
    assert code == 0, stderr[-2000:]  # the Inspector validates structuredContent against outputSchema
    assert answer["result"]["structuredContent"] == everything.stats_value(3)
    code, answer, stderr = inspect(
        tmp_path,
        "legacy",
        target,
        "--method",
        "tools/call",
        "--tool-name",
        "fail",
        "--tool-arg",
        "message=nope",
    )
    assert code == TOOL_IS_ERROR
    assert answer["result"] == {"content": [{"type": "text", "text": "nope"}], "isError": True}
    code, answer, stderr = inspect(tmp_path, "legacy", target, "--method", "tools/call", "--tool-name", "zzz")
    assert code == TOOL_IS_ERROR and "zzz" in stderr


def test_the_demo_server(tmp_path: Path) -> None:
    target = [sys.executable, "-m", "mcplite"]
    code, listing, stderr = inspect(tmp_path, "auto", target, "--method", "tools/list", "--strict")
    assert code == 0, stderr[-2000:]
    assert "column_stats" in [tool["name"] for tool in listing["result"]["tools"]]
    code, answer, stderr = inspect(
        tmp_path, "legacy", target, "--method", "tools/call", "--tool-name", "column_stats",
        "--tool-arg", "column=bill_depth_mm",
    )  # fmt: skip
    assert code == 0, stderr[-2000:]
    stats = answer["result"]["structuredContent"]
    assert (stats["name"], stats["n"], stats["missing"]) == ("bill_depth_mm", 342, 2)
    assert json.loads(answer["result"]["content"][0]["text"]) == stats
