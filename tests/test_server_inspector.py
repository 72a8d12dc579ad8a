"""The everything server and the demo server seen through the MCP Inspector's CLI mode (a Node client).

Skipped unless the Inspector is installed: set ``MCP_INSPECTOR`` to its ``mcp-inspector`` executable, or
install it where these tests look by default::

    npm install --prefix /tmp/mcp-inspector --no-audit --no-fund @modelcontextprotocol/inspector@2.12.0

(it declares node >= 22.19 but its CLI runs on node 20 too).
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.servers import everything

DEFAULT = Path("/tmp/mcp-inspector/node_modules/.bin/mcp-inspector")
INSPECTOR = os.environ.get("MCP_INSPECTOR") or (str(DEFAULT) if DEFAULT.exists() else None)
SERVER = str(Path(everything.__file__))

pytestmark = pytest.mark.skipif(
    INSPECTOR is None or shutil.which("node") is None,
    reason="needs the MCP Inspector (set MCP_INSPECTOR, or npm install it under /tmp/mcp-inspector)",
)

TOOL_IS_ERROR = 5  # the Inspector CLI's exit code for an isError result or an unknown tool


def inspect(home: Path, era: str, target: list[str], *args: str) -> tuple[int, Any, str]:
    """Run the Inspector CLI once: its exit code, the JSON it printed, and its stderr."""
    assert INSPECTOR is not None
    command = [INSPECTOR, "--cli", "--format", "json", "--protocol-era", era, *target, *args]
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
