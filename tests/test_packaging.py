"""Packaging: the metadata a package index shows, the README's links, and what the sdist carries.

The build itself (``python -m build``, the wheel in a fresh virtualenv, the tests run from the
unpacked sdist) is in ``.ci/run``; these tests catch the mistakes that would only show there.
"""

from __future__ import annotations

import re
import shutil
import subprocess
import tomllib
from pathlib import Path
from typing import Any

import pytest

ROOT = Path(__file__).parent.parent


def _project() -> dict[str, Any]:
    with (ROOT / "pyproject.toml").open("rb") as handle:
        return tomllib.load(handle)["project"]  # type: ignore[no-any-return]


def test_licence_is_declared_and_shipped() -> None:
    project = _project()
    assert project["license"] == "MIT"
    assert project["license-files"] == ["LICENSE"]
    assert (ROOT / "LICENSE").read_text(encoding="utf-8").startswith("MIT License")
    classifiers = " ".join(project["classifiers"])
    assert "License ::" not in classifiers, "the SPDX licence expression replaces licence classifiers"


def test_extras_match_the_features() -> None:
    extras = _project()["optional-dependencies"]
    assert {"http", "sdk", "notebook", "docs", "dev"} <= set(extras)
    names = {
        extra: {re.split(r"[<>=;\[ ]", requirement, maxsplit=1)[0] for requirement in requirements}
        for extra, requirements in extras.items()
    }
    assert "uvicorn" in names["http"] and "mcp" in names["sdk"] and "mkdocs" in names["docs"]
    assert {"ipykernel", "nbclient", "nbformat", "matplotlib"} <= names["notebook"]
    assert any(r.startswith("rvalues-mcplite[") for r in extras["dev"]), "dev pulls in the other extras"


def test_console_script_points_at_a_function() -> None:
    target = _project()["scripts"]["mcplite"]
    module, _, attribute = target.partition(":")
    imported = __import__(module, fromlist=[attribute])
    assert callable(getattr(imported, attribute))


def test_readme_links_work_on_a_package_index() -> None:
    """A package index shows the README away from the repository: only absolute links work there."""
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    targets = re.findall(r"\]\(([^)\s]+)\)", readme) + re.findall(r"^\[[^\]]+\]:\s*(\S+)", readme, re.M)
    relative = [t for t in targets if not t.startswith(("https://", "http://", "mailto:"))]
    assert not relative, f"README links that break on a package index: {relative}"


def test_sdist_template_covers_what_the_tests_and_docs_read(monkeypatch: pytest.MonkeyPatch) -> None:
    """Every tracked file the tests, the docs build or the notebooks need is in the sdist's file list."""
    if not (ROOT / ".git").exists() or shutil.which("git") is None:
        pytest.skip("needs a git checkout (the sdist itself has no .git)")
    monkeypatch.chdir(ROOT)
    filelist = pytest.importorskip("setuptools.command.egg_info").FileList()
    filelist.findall()
    for line in (ROOT / "MANIFEST.in").read_text(encoding="utf-8").splitlines():
        if line.strip() and not line.startswith("#"):
            filelist.process_template_line(line)
    shipped = set(filelist.files)
    tracked = subprocess.run(
        [
            "git",
            "ls-files",
            "tests",
            "docs",
            "notebooks",
            "benchmarks",
            "rvalues/_speedups/*.[ch]",
            "setup.py",
        ],
        cwd=ROOT,
        capture_output=True,
        text=True,
        check=True,
    ).stdout.split()
    missing = sorted(set(tracked) - shipped)
    assert not missing, f"not in the sdist (MANIFEST.in): {missing[:20]}"
    assert any(name.endswith(".h") for name in shipped) and "setup.py" in shipped, "the C sources"
    for name in ("mkdocs.yml", "CHANGELOG.md", "LICENSE", "README.md"):
        assert name in shipped
