"""The commands and client configurations the README, the docs and the notebooks tell users to copy."""

from __future__ import annotations

import json
import re
from pathlib import Path

from tests.test_server_inspector import VERSION

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"


def test_every_inspector_command_names_the_tested_version() -> None:
    command = re.compile(r"(bare `)?(?:npx|npm install)[^\n`]*?@modelcontextprotocol/inspector(@[0-9.]+)?")
    pages = [ROOT / "README.md", ROOT / ".ci" / "run", *DOCS.rglob("*.md")]
    found = [(page.name, m) for page in pages for m in command.finditer(page.read_text(encoding="utf-8"))]
    assert len(found) > 5
    for page, m in found:
        assert m.group(1) or m.group(2) == f"@{VERSION}", f"{page}: {m.group(0)}"  # bare: the warning


def test_client_configurations_give_full_paths() -> None:
    """Claude Desktop starts a server with its own PATH: every configuration shown names the full path."""
    texts = [(p.name, p.read_text(encoding="utf-8")) for p in [ROOT / "README.md", *DOCS.rglob("*.md")]]
    for notebook in (ROOT / "notebooks").glob("*.ipynb"):
        cells = json.loads(notebook.read_text(encoding="utf-8"))["cells"]
        texts += [(notebook.name, "".join(c["source"])) for c in cells if c["cell_type"] == "markdown"]
    blocks = [(name, b) for name, text in texts for b in re.findall(r"```json\n(.*?)```", text, re.S)]
    servers = [
        (name, s) for name, b in blocks if "mcpServers" in b for s in json.loads(b)["mcpServers"].values()
    ]
    assert len(servers) >= 5
    for name, server in servers:
        assert server["command"].startswith("/"), f"{name}: {server}"
