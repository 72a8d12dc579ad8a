"""rvalues' subpackages form layers, counting every import (those inside functions too).

Bottom to top: errors < model < format, convert < json, construct < printing; rvalues never
imports mcplite. ``if TYPE_CHECKING:`` blocks are skipped: they never run. The only imports
allowed to point down-to-up are the late ones listed in ``LATE_UPWARD``, which print a value.
Above the model, values are made with ``rvalues.model.build.build``, never ``SomeClass._wrap``.
``python -m tests.test_rvalues_layers`` prints the graph between subpackages.
"""

from __future__ import annotations

import ast
import itertools
import sys
from collections.abc import Iterator
from pathlib import Path

import numpy as np

from rvalues.json.frames import _posixct
from rvalues.model import Double, POSIXct
from rvalues.model.build import build
from tests.import_graphs import cycles

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rvalues"

LATE_UPWARD = {
    ("rvalues.model.base", "rvalues.printing"),
    ("rvalues.model.classed", "rvalues.printing"),
}
"""(module, imported) pairs that point up a layer: ``RValue.__repr__`` and ``DataFrame._repr_html_``
print through ``rvalues.printing``, imported when called."""

FUNCTION_LEVEL_IMPORTS_AT_MOST = 20
"""Imports of rvalues modules made inside functions; lower it when one goes, never raise it."""


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _imported(node: ast.AST, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    if isinstance(node, ast.ImportFrom):
        if node.level:
            base = module.split(".")
            base = base[: len(base) - node.level + (1 if is_package else 0)]
            target = ".".join([*base, node.module] if node.module else base)
        else:
            target = node.module or ""
        return [target]
    return []


def _walk(body: list[ast.stmt], in_function: bool) -> Iterator[tuple[ast.AST, bool]]:
    for stmt in body:
        if isinstance(stmt, ast.If) and "TYPE_CHECKING" in ast.unparse(stmt.test):
            yield from _walk(stmt.orelse, in_function)
            continue
        for node in ast.walk(stmt):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                yield node, in_function or _inside_function(stmt, node)


def _inside_function(stmt: ast.stmt, target: ast.AST) -> bool:
    for node in ast.walk(stmt):
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            if any(inner is target for inner in ast.walk(node)):
                return True
    return False


def imports() -> list[tuple[str, str, bool]]:
    """(module, imported module, whether inside a function) for every import in rvalues.

    >>> ("rvalues.model.lists", "rvalues.model.base", False) in imports()
    True
    """
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node, in_function in _walk(tree.body, False):
            for target in _imported(node, module, path.name == "__init__.py"):
                found.append((module, target, in_function))
    return found


def subpackage(module: str) -> str:
    """The layer a module belongs to: ``rvalues.model.base`` -> ``model``, ``rvalues.errors`` -> ``errors``.

    >>> subpackage("rvalues.model.base"), subpackage("rvalues")
    ('model', 'rvalues')
    """
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "rvalues"


def subpackage_graph(skip: set[tuple[str, str]] = LATE_UPWARD) -> dict[str, set[str]]:
    """Subpackage -> the rvalues subpackages it imports, without the ``skip`` (module, imported) pairs."""
    graph: dict[str, set[str]] = {}
    for module, target, _ in imports():
        if not target.startswith("rvalues.") or (module, target) in skip:
            continue
        source, dest = subpackage(module), subpackage(target)
        graph.setdefault(source, set())
        if source != dest and source != "rvalues":
            graph[source].add(dest)
    return graph


def function_level_imports() -> list[tuple[str, str]]:
    """(module, imported) for each import of an rvalues module made inside a function."""
    return [(m, t) for m, t, inside in imports() if inside and t.startswith("rvalues")]


def wrap_calls() -> list[tuple[str, int]]:
    """(path, line) of every call of an attribute named ``_wrap`` in rvalues outside ``rvalues/model/``.

    >>> any(path.startswith("rvalues/model/") for path, _ in wrap_calls())
    False
    """
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        if path.parent.name == "model" and path.parent.parent == PACKAGE:
            continue
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr == "_wrap"
            ):
                found.append((path.relative_to(ROOT).as_posix(), node.lineno))
    return found


def test_rvalues_never_imports_mcplite() -> None:
    offending = [(m, t) for m, t, _ in imports() if t == "mcplite" or t.startswith("mcplite.")]
    assert offending == []


def test_no_cycle_between_subpackages_counting_every_import() -> None:
    assert cycles(subpackage_graph()) == []


def test_the_late_upward_imports_are_exactly_the_listed_ones() -> None:
    late = {(m, t) for m, t, inside in imports() if inside and (m, t) in LATE_UPWARD}
    assert late == LATE_UPWARD
    top = {(m, t) for m, t, inside in imports() if not inside and (m, t) in LATE_UPWARD}
    assert top == set()


def test_every_cycle_with_the_late_upward_imports_goes_through_them() -> None:
    found = cycles(subpackage_graph(skip=set()))
    assert found
    assert all(("model", "printing") in itertools.pairwise(cycle) for cycle in found)


def test_function_level_imports_do_not_grow() -> None:
    assert len(function_level_imports()) <= FUNCTION_LEVEL_IMPORTS_AT_MOST


def test_only_the_model_calls_wrap() -> None:
    """Other layers make values with ``rvalues.model.build.build``, which picks the Python class."""
    assert wrap_calls() == []


def test_build_gives_the_python_class_the_class_attribute_calls_for() -> None:
    when = _posixct(np.array([0.0, 1.5]), "UTC")
    assert type(when) is POSIXct
    assert when.r_class == ("POSIXct", "POSIXt")
    assert not when.data.flags.writeable
    assert type(build("double", np.array([1.0]))) is Double
    assert type(build("double", np.array([1.0]), {"class": when.attributes["class"]})) is POSIXct


def test_the_cycle_finder_finds_cycles() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []


if __name__ == "__main__":
    views = (("every import", subpackage_graph(set())), ("without LATE_UPWARD", subpackage_graph()))
    for name, graph in views:
        print(f"rvalues subpackages, {name}:")
        for source in sorted(graph):
            print(f"  {source} -> {', '.join(sorted(graph[source])) or '-'}")
        print("  cycles:", cycles(graph) or "none")
    late = function_level_imports()
    print(f"function-level imports of rvalues modules: {len(late)}")
    for module, target in late:
        print(f"  {module} -> {target}")
    sys.exit(0)
