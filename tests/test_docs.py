"""The examples in the README and in the docstrings run and print what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import mcplite
import rvalues

ROOT = Path(__file__).parent.parent
DOCUMENTS = [ROOT / "README.md", *sorted((ROOT / "docs").glob("*.md"))]


@pytest.mark.parametrize("document", DOCUMENTS, ids=[d.name for d in DOCUMENTS])
def test_document_examples(document: Path, utc: None) -> None:
    blocks = re.findall(r"```python\n(.*?)```", document.read_text(encoding="utf-8"), flags=re.S)
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, document.name, str(document), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} example(s) in {document.name} failed; see above"


MODULES = sorted(
    info.name
    for package in (rvalues, mcplite)
    for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
    if not info.name.endswith(("demo", "__main__"))
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str, utc: None) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    for test in finder.find(module, name):
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} example(s) in {name} failed; see the output above"
