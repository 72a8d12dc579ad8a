"""The examples in the README and in the docstrings run and print what they show."""

from __future__ import annotations

import doctest
import importlib
import pkgutil
import re
from pathlib import Path

import pytest

import rvalues

README = Path(__file__).parent.parent / "README.md"


def test_readme_examples() -> None:
    blocks = re.findall(r"```python\n(.*?)```", README.read_text(encoding="utf-8"), flags=re.S)
    parser = doctest.DocTestParser()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    for i, block in enumerate(blocks):
        test = parser.get_doctest(block, {}, f"README block {i}", str(README), 0)
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} README example(s) failed; see the output above"


MODULES = sorted(
    info.name
    for info in pkgutil.walk_packages(rvalues.__path__, "rvalues.")
    if not info.name.endswith("demo")
)


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str, utc: None) -> None:
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    for test in finder.find(module, name):
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} example(s) in {name} failed; see the output above"
