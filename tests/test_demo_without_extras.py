"""The README's first command (``python -m pip install . && python -m mcplite``) gives a demo whose
every listed tool works: the demo is served over stdio by a process where matplotlib cannot be
imported (as after a plain ``pip install .``), each listed tool is called with the examples its
input schema gives, and the histogram's PNG, decoded by Pillow, has one bar per bin whose heights
follow numpy's counts.
"""

from __future__ import annotations

import base64
import io
import json
import os
import subprocess
import sys
import textwrap
from importlib import resources
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

ROOT = Path(__file__).parent.parent

# A process where `import matplotlib` fails, as it does where the package is not installed.
WITHOUT_MATPLOTLIB = textwrap.dedent(
    """
    import sys
    from importlib.abc import MetaPathFinder

    class NoMatplotlib(MetaPathFinder):
        def find_spec(self, name, path=None, target=None):
            if name == "matplotlib" or name.startswith("matplotlib."):
                raise ModuleNotFoundError(f"No module named {name!r}", name=name)
            return None

    sys.meta_path.insert(0, NoMatplotlib())
    from mcplite.cli import main
    raise SystemExit(main(sys.argv[1:]))
    """
)


def request(id: int, method: str, params: dict[str, Any] | None = None) -> dict[str, Any]:
    return {"jsonrpc": "2.0", "id": id, "method": method, **({"params": params} if params else {})}


def converse(messages: list[dict[str, Any]]) -> dict[int, dict[str, Any]]:
    """The demo's replies by id, served on stdio by a process that cannot import matplotlib."""
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(ROOT), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run(
        [sys.executable, "-c", WITHOUT_MATPLOTLIB],
        input="".join(json.dumps(m) + "\n" for m in messages),
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
        env=env,
    )
    assert done.returncode == 0, done.stderr
    replies = [json.loads(line) for line in done.stdout.splitlines()]
    return {reply["id"]: reply for reply in replies if "id" in reply}


HANDSHAKE = [
    request(
        0,
        "initialize",
        {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "t", "version": "1"}},
    ),
    {"jsonrpc": "2.0", "method": "notifications/initialized"},
]


def example_arguments(tool: dict[str, Any]) -> dict[str, Any]:
    """Each required argument's first example, and each optional one's that lists examples (a
    smaller count of resamples than bootstrap_mean's default), as a client reading only the schema
    would send."""
    schema = tool["inputSchema"]
    required = schema.get("required", [])
    return {
        name: found["examples"][0]
        for name, found in schema.get("properties", {}).items()
        if name in required or "examples" in found
    }


def test_every_listed_tool_answers_without_matplotlib() -> None:
    listed = converse([*HANDSHAKE, request(1, "tools/list")])[1]["result"]["tools"]
    assert "plot_histogram" in [tool["name"] for tool in listed]
    calls = [
        request(10 + i, "tools/call", {"name": tool["name"], "arguments": example_arguments(tool)})
        for i, tool in enumerate(listed)
    ]
    replies = converse([*HANDSHAKE, *calls])
    for i, tool in enumerate(listed):
        result = replies[10 + i]["result"]
        assert not result.get("isError"), (tool["name"], result)


def penguins_column(name: str) -> np.ndarray:
    """A column of the demo's data, read straight from its CSV (NA left out)."""
    with resources.files("mcplite").joinpath("data", "penguins.csv").open("rb") as file:
        return pd.read_csv(file, na_values=["NA"], keep_default_na=False)[name].dropna().to_numpy(float)


def bar_heights(png: bytes) -> list[int]:
    """The height in pixels of each bar of a histogram picture (Pillow decodes it)."""
    image = pytest.importorskip("PIL.Image")
    pixels = np.asarray(image.open(io.BytesIO(png)).convert("RGB")).astype(int)
    flat = pixels.reshape(-1, 3)
    colours, counts = np.unique(flat[(flat != 255).any(axis=1)], axis=0, return_counts=True)
    colour = colours[counts.argmax()]  # the bars': the most common colour but white
    is_bar = np.all(pixels == colour, axis=-1)
    columns = is_bar.sum(axis=0)
    runs: list[int] = []  # one height per run of adjacent bar columns
    inside = False
    for height in columns.tolist():
        if height and not inside:
            runs.append(height)
        inside = bool(height)
    return runs


@pytest.mark.parametrize(("column", "bins"), [("bill_depth_mm", 5), ("body_mass_g", 20)])
def test_the_histogram_is_drawn_without_matplotlib(column: str, bins: int) -> None:
    call = request(1, "tools/call", {"name": "plot_histogram", "arguments": {"column": column, "bins": bins}})
    result = converse([*HANDSHAKE, call])[1]["result"]
    assert not result.get("isError"), result
    image, caption = result["content"]
    assert image["type"] == "image" and image["mimeType"] == "image/png"
    assert caption["type"] == "text" and caption["text"].startswith(f"Histogram of {column}:")
    counts, _ = np.histogram(penguins_column(column), bins=bins)
    heights = bar_heights(base64.b64decode(image["data"]))
    nonempty = counts[counts > 0]
    assert len(heights) == len(nonempty)
    tallest = max(heights)
    expected = nonempty / nonempty.max() * tallest
    assert np.all(np.abs(np.array(heights) - expected) <= 1), (heights, expected.round(1).tolist())
