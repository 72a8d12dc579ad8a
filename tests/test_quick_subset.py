"""The quick subset of the suite (``python -m pytest -m "not slow"``) and the lighter ``test`` extra.

``slow`` marks the benchmarks, the notebooks, the documentation site's build, the MCP Inspector and
the fuzz tests (tests/conftest.py marks them by file, and the site build by name); pytest itself
collects the suite here, so what it selects is what ``-m`` selects. The ``test`` extra holds what
the tests need without the docs, notebook and lint tools, and ``dev`` holds all of it and more.
"""

from __future__ import annotations

import re
import subprocess
import sys
import tomllib
from pathlib import Path

ROOT = Path(__file__).parent.parent

SLOW = [
    "tests/test_bench_arrow.py",
    "tests/test_bench_http.py",
    "tests/test_bench_typed.py",
    "tests/test_notebooks.py",
    "tests/test_server_inspector.py",
    "tests/test_server_features_inspector.py",
    "tests/test_server_fuzz.py",
    "tests/test_speedups_fuzz.py",
    "tests/test_typed_fuzz.py",
]
QUICK = ["tests/test_cli.py"]
SITE_BUILD = "tests/test_docs.py::test_site_builds_strictly"


def collected(marks: str, *paths: str) -> set[str]:
    """The node ids ``pytest --collect-only -m MARKS`` selects among ``paths``."""
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "pytest",
            "--collect-only",
            "-p",
            "no:cacheprovider",
            "-m",
            marks,
            *paths,
        ],
        capture_output=True,
        text=True,
        timeout=240,
        cwd=ROOT,
    )
    assert done.returncode in (0, 5), done.stdout[-2000:] + done.stderr[-2000:]  # 5: nothing selected
    return {line.split("[")[0] for line in done.stdout.splitlines() if "::" in line}


def test_slow_marks_the_benchmarks_notebooks_site_inspector_and_fuzz() -> None:
    """One collection with ``-m slow``: what it lists is slow, everything else runs under ``not slow``."""
    paths = [*SLOW, *QUICK, "tests/test_docs.py"]
    slow = collected("slow", *paths)
    assert SITE_BUILD in slow
    assert {node.split("::")[0] for node in slow} <= set(SLOW) | {"tests/test_docs.py"}
    assert {node for node in slow if node.startswith("tests/test_docs.py")} == {SITE_BUILD}
    for path in ("tests/test_bench_http.py", "tests/test_speedups_fuzz.py", "tests/test_typed_fuzz.py"):
        assert any(node.startswith(path + "::") for node in slow), path


def _extras() -> dict[str, list[str]]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)["project"]["optional-dependencies"]  # type: ignore[no-any-return]


def resolved(extra: str, extras: dict[str, list[str]]) -> set[str]:
    """The distributions an extra installs, its references to other extras followed."""
    names: set[str] = set()
    for requirement in extras[extra]:
        name = re.split(r"[<>=;\[ ]", requirement, maxsplit=1)[0].lower()
        if name == "rvalues-mcplite":
            inner = requirement[requirement.index("[") + 1 : requirement.index("]")]
            for other in inner.split(","):
                names |= resolved(other.strip(), extras)
        else:
            names.add(name)
    return names


def test_the_test_extra_is_lighter_than_dev_and_within_it() -> None:
    extras = _extras()
    test, dev = resolved("test", extras), resolved("dev", extras)
    assert {"pytest", "hypothesis", "uvicorn", "mcp", "jsonschema", "pyarrow", "httpx"} <= test
    assert test <= dev
    left_out = dev - test
    assert {"mkdocs", "ipykernel", "nbclient", "ruff", "mypy"} <= left_out


def test_the_readme_shows_the_quick_subset_next_to_the_full_run() -> None:
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    block = re.search(r"```bash\n(python -m pip install -e \"\.\[dev\]\" && python -m pytest\n)```", readme)
    assert block is not None  # the test command stays one line a user can copy
    assert '`python -m pytest -m "not slow"`' in readme[block.end() :]
