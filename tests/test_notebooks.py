"""The notebooks in notebooks/ run top to bottom and still show the outputs they were committed with.

Each notebook runs in a fresh kernel, in a temporary copy of notebooks/ (so files a notebook
writes never land in the source tree), and must leave that copy as it found it: a notebook that
writes files writes them to a temporary directory, so that running it in place leaves nothing
behind. A code cell must produce the same outputs as the committed notebook, after this
normalization, which is the whole list of what may legitimately vary:

* stderr is not compared (warnings and server logs differ between machines and library versions);
* memory addresses (``0x7f...``) are replaced by ``0x...``;
* a cell tagged ``output-varies`` is not compared (it must still run without error).

Everything else (printed text, the plain and HTML representations of results) must match exactly,
under pandas 2 and pandas 3 alike. After changing a notebook, re-execute and save it with
``python tests/test_notebooks.py`` (all notebooks) or ``python tests/test_notebooks.py NAME.ipynb``.
"""

from __future__ import annotations

import re
import shutil
import sys
from pathlib import Path
from typing import Any

import pytest

nbformat = pytest.importorskip("nbformat")
nbclient = pytest.importorskip("nbclient")

FOLDER = Path(__file__).parent.parent / "notebooks"
NOTEBOOKS = sorted(FOLDER.glob("*.ipynb"))
VARIES_TAG = "output-varies"
COMPARED_DATA = ("text/plain", "text/html")
_ADDRESS = re.compile(r"0x[0-9a-fA-F]{6,}")


def execute(path: Path, workdir: Path) -> Any:
    """The notebook at ``path``, executed in a copy of its folder under ``workdir``."""
    copy = workdir / "notebooks"
    shutil.copytree(path.parent, copy, ignore=shutil.ignore_patterns(".ipynb_checkpoints", "__pycache__"))
    notebook = nbformat.read(copy / path.name, as_version=4)
    client = nbclient.NotebookClient(
        notebook,
        timeout=180,
        kernel_name="python3",
        record_timing=False,
        allow_errors=True,
        resources={"metadata": {"path": str(copy)}},
    )
    client.execute()
    return notebook


def _files(folder: Path) -> list[str]:
    """The files under ``folder`` that :func:`execute` copies (no caches or checkpoints)."""
    paths = (p.relative_to(folder) for p in folder.rglob("*"))
    return sorted(str(p) for p in paths if not {".ipynb_checkpoints", "__pycache__"} & set(p.parts))


def errors(notebook: Any) -> list[str]:
    return [
        f"cell {index}: {output.get('ename')}: {output.get('evalue')}"
        for index, cell in enumerate(notebook.cells)
        if cell.cell_type == "code"
        for output in cell.get("outputs", [])
        if output.get("output_type") == "error"
    ]


def comparable(cell: Any) -> list[tuple[str, str]]:
    """A code cell's outputs as (kind, text) pairs, normalized as the module docstring says."""
    found: list[tuple[str, str]] = []
    for output in cell.get("outputs", []):
        kind = output.get("output_type")
        if kind == "stream":
            if output.get("name") == "stdout":
                found.append(("stdout", output.get("text", "")))
        elif kind in ("execute_result", "display_data"):
            data = output.get("data", {})
            found += [(mime, data[mime]) for mime in COMPARED_DATA if mime in data]
        else:
            found.append((str(kind), ""))
    merged: list[tuple[str, str]] = []
    for kind, text in found:  # consecutive stdout chunks are split arbitrarily by the kernel
        text = _ADDRESS.sub("0x...", text if isinstance(text, str) else "".join(text))
        if merged and kind == "stdout" and merged[-1][0] == "stdout":
            merged[-1] = ("stdout", merged[-1][1] + text)
        else:
            merged.append((kind, text))
    return merged


def changed_cells(committed: Any, executed: Any) -> list[str]:
    """Where the executed notebook's outputs differ from the committed ones."""
    assert len(committed.cells) == len(executed.cells)
    report = []
    for index, (old, new) in enumerate(zip(committed.cells, executed.cells)):
        if old.cell_type != "code" or VARIES_TAG in old.metadata.get("tags", []):
            continue
        want, got = comparable(old), comparable(new)
        if want != got:
            report.append(
                f"cell {index} ({old.source.splitlines()[0][:60]!r}):\n  committed {want}\n  now       {got}"
            )
    return report


@pytest.mark.parametrize("path", NOTEBOOKS, ids=[p.name for p in NOTEBOOKS])
def test_notebook_runs_and_its_outputs_did_not_change(path: Path, tmp_path: Path) -> None:
    committed = nbformat.read(path, as_version=4)
    assert any(cell.get("outputs") for cell in committed.cells), f"{path.name} was committed without outputs"
    executed = execute(path, tmp_path)
    assert not errors(executed), errors(executed)
    left = _files(tmp_path / "notebooks")
    before = _files(FOLDER)
    assert left == before, (
        f"{path.name} wrote next to itself (use a temporary directory): {set(left) ^ set(before)}"
    )
    changes = changed_cells(committed, executed)
    assert not changes, (
        f"{path.name}: outputs changed (re-run `python tests/test_notebooks.py {path.name}` if intended):\n"
        + "\n".join(changes)
    )


def test_the_comparison_catches_a_changed_output() -> None:
    cell = nbformat.v4.new_code_cell("print(1)")
    cell.outputs = [nbformat.v4.new_output("stream", name="stdout", text="1\n")]
    changed = nbformat.v4.new_code_cell("print(1)")
    changed.outputs = [nbformat.v4.new_output("stream", name="stdout", text="2\n")]
    noisy = nbformat.v4.new_code_cell("print(1)")
    noisy.outputs = [
        nbformat.v4.new_output("stream", name="stdout", text="1"),
        nbformat.v4.new_output("stream", name="stderr", text="a warning\n"),
        nbformat.v4.new_output("stream", name="stdout", text="\n"),
    ]
    one = nbformat.v4.new_notebook(cells=[cell])
    assert changed_cells(one, nbformat.v4.new_notebook(cells=[changed]))
    assert not changed_cells(one, nbformat.v4.new_notebook(cells=[noisy]))
    varies = nbformat.v4.new_code_cell("print(1)", metadata={"tags": [VARIES_TAG]}, outputs=cell.outputs)
    assert not changed_cells(
        nbformat.v4.new_notebook(cells=[varies]), nbformat.v4.new_notebook(cells=[changed])
    )


def update(names: list[str]) -> None:
    """Execute the notebooks and save them with their outputs."""
    import tempfile

    for path in NOTEBOOKS:
        if names and path.name not in names:
            continue
        with tempfile.TemporaryDirectory() as workdir:
            executed = execute(path, Path(workdir))
        problems = errors(executed)
        if problems:
            raise SystemExit(f"{path.name} failed: {problems}")
        nbformat.write(executed, path)
        print(f"saved {path.relative_to(FOLDER.parent)}")


if __name__ == "__main__":
    update(sys.argv[1:])
