"""The features server (tests/servers/features.py) and the demo server seen through the MCP
Inspector's CLI mode: ``resources/list``, ``resources/read`` and ``prompts/get`` in both eras.

Skipped, saying why, when the Inspector cannot be had (see tests/test_server_inspector.py)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

from mcplite.demo.server import penguins
from mcplite.features.contents import contents_of
from mcplite.payload.returned import encode_value_json
from mcplite.payload.rjson import options_in_force
from tests.servers import features
from tests.test_server_inspector import _needs_the_inspector, inspect  # noqa: F401  (the skip fixture)

SERVER = [sys.executable, str(Path(features.__file__))]
ERAS = ["legacy", "modern"]


@pytest.mark.parametrize("era", ERAS)
def test_resources_list_and_read(tmp_path: Path, era: str) -> None:
    code, listing, stderr = inspect(tmp_path, era, SERVER, "--method", "resources/list")
    assert code == 0, stderr[-2000:]
    assert [r["uri"] for r in listing["result"]["resources"]] == list(features.server.resources)
    for uri, value, mime in [
        ("penguins://data", features.COLUMNS, "application/json"),
        ("penguins://logo", features.LOGO, "image/png"),
        ("penguins://columns/species", features.COLUMNS["species"], None),
    ]:
        code, answer, stderr = inspect(tmp_path, era, SERVER, "--method", "resources/read", "--uri", uri)
        assert code == 0, stderr[-2000:]
        (contents,) = answer["result"]["contents"]
        written = contents_of(value, uri, mime, options_in_force())[0]
        assert contents.get("text") == getattr(written, "text", None)
        assert contents.get("blob") == getattr(written, "blob", None)


@pytest.mark.parametrize("era", ERAS)
def test_prompts_get(tmp_path: Path, era: str) -> None:
    args = ["--method", "prompts/get", "--prompt-name", "explore", "--prompt-args", "column=mass"]
    code, answer, stderr = inspect(tmp_path, era, SERVER, *args)
    assert code == 0, stderr[-2000:]
    assert answer["result"]["messages"] == [
        {"role": "user", "content": {"type": "text", "text": features.explore("mass")}}
    ]


def test_the_demo_serves_a_column_and_the_prompt(tmp_path: Path) -> None:
    demo = [sys.executable, "-m", "mcplite"]
    code, answer, stderr = inspect(
        tmp_path, "legacy", demo, "--method", "resources/read", "--uri", "penguins://columns/island"
    )
    assert code == 0, stderr[-2000:]
    assert answer["result"]["contents"][0]["text"] == encode_value_json(
        penguins().columns["island"], options=options_in_force()
    )
    code, answer, stderr = inspect(
        tmp_path,
        "auto",
        demo,
        "--method",
        "prompts/get",
        "--prompt-name",
        "explore_column",
        "--prompt-args",
        "column=sex",
    )
    assert code == 0, stderr[-2000:]
    assert "penguins://columns/sex" in answer["result"]["messages"][0]["content"]["text"]
