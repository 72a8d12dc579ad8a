"""rvalues' subpackages form layers, counting every import (in functions and ``TYPE_CHECKING`` too).

The layers, lowest first, are :data:`ORDER`: a module imports only from its own subpackage or one
below it, so no circle runs between subpackages. The value classes reach what is defined above them
(``build``, ``as_r``, the constructors, printing) through ``rvalues.model.bindings``, bound by the
package ``__init__`` files; JSON encoders reach the generic through ``ctx.encode``. Inside a
subpackage, modules form no circle (:data:`LARGEST_CIRCLE`), counting every import too: where the
type checker needs a class from above, a ``Protocol`` describes it (``model.base.Names``,
``model.classes.Classed``); imports made inside functions are few and say why. Above the model,
values are made with ``rvalues.model.build.build``, never ``SomeClass._wrap``.
``python -m tests.test_rvalues_layers`` prints the graph, the circles and the late imports.
"""

from __future__ import annotations

import ast
import sys
from collections.abc import Iterator
from pathlib import Path
from typing import NamedTuple

import numpy as np

from rvalues.json.frames import _posixct
from rvalues.model import Double, POSIXct
from rvalues.model.build import build
from tests.import_graphs import cycles

ROOT = Path(__file__).resolve().parent.parent
PACKAGE = ROOT / "rvalues"

ORDER = (
    "errors",
    "lazy",
    "na",
    "_speedups",
    "format",
    "model",
    "convert",
    "construct",
    "json",
    "printing",
    "constants",
    "description",
    "demo",
)
"""rvalues' subpackages and top-level modules, lowest first; ``rvalues/__init__.py`` sits on top."""

FUNCTION_LEVEL_IMPORTS_AT_MOST = 1
"""Imports of rvalues modules made inside functions; lower it when one goes, never raise it."""

LARGEST_CIRCLE: dict[str, int] = {}
"""Subpackage -> the most modules in one import circle inside it (every import); others have none.
Lower a number when a circle shrinks, never raise it (``convert/numpy`` <-> ``objects`` went: the
typed readers live in ``convert/typed``)."""

LONGEST_MODULE = 450


class Import(NamedTuple):
    """One import statement's target, with where it stands."""

    module: str
    target: str
    line: int
    in_function: bool
    type_checking: bool


def _module_name(path: Path) -> str:
    parts = path.relative_to(ROOT).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _targets(node: ast.AST, module: str, is_package: bool) -> list[str]:
    if isinstance(node, ast.Import):
        return [alias.name for alias in node.names]
    assert isinstance(node, ast.ImportFrom)
    if node.level:
        base = module.split(".")
        base = base[: len(base) - node.level + (1 if is_package else 0)]
        target = ".".join([*base, node.module] if node.module else base)
    else:
        target = node.module or ""
    return [target]


def _walk(
    node: ast.AST, in_function: bool, type_checking: bool
) -> Iterator[tuple[ast.Import | ast.ImportFrom, bool, bool]]:
    for child in ast.iter_child_nodes(node):
        if isinstance(child, (ast.Import, ast.ImportFrom)):
            yield child, in_function, type_checking
        elif isinstance(child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            yield from _walk(child, True, type_checking)
        elif isinstance(child, ast.If) and "TYPE_CHECKING" in ast.unparse(child.test):
            for stmt in child.body:
                yield from _walk(ast.Module(body=[stmt], type_ignores=[]), in_function, True)
            for stmt in child.orelse:
                yield from _walk(ast.Module(body=[stmt], type_ignores=[]), in_function, type_checking)
        else:
            yield from _walk(child, in_function, type_checking)


def imports() -> list[Import]:
    """Every import statement in rvalues: top-level, in functions and under ``TYPE_CHECKING``.

    >>> any(i.module == "rvalues.model.lists" and i.target == "rvalues.model.base" for i in imports())
    True
    """
    found = []
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node, in_function, type_checking in _walk(tree, False, False):
            for target in _targets(node, module, path.name == "__init__.py"):
                found.append(Import(module, target, node.lineno, in_function, type_checking))
    return found


def subpackage(module: str) -> str:
    """The layer a module belongs to: ``rvalues.model.base`` -> ``model``, ``rvalues.errors`` -> ``errors``.

    >>> subpackage("rvalues.model.base"), subpackage("rvalues")
    ('model', 'rvalues')
    """
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "rvalues"


def subpackage_graph() -> dict[str, set[str]]:
    """Subpackage -> the rvalues subpackages it imports, counting every import."""
    graph: dict[str, set[str]] = {}
    for found in imports():
        if not found.target.startswith("rvalues."):
            continue
        source, dest = subpackage(found.module), subpackage(found.target)
        graph.setdefault(source, set())
        if source != dest and source != "rvalues":
            graph[source].add(dest)
    return graph


def module_graph(within: str, type_checking: bool = True) -> dict[str, set[str]]:
    """Module -> the modules of the same subpackage it imports (with ``type_checking`` False, only
    those it imports when it runs).

    ``from rvalues.json import numbers`` counts as importing ``rvalues.json.numbers`` and the
    package ``rvalues.json`` (whose ``__init__`` imports most of the subpackage).
    """
    modules = {_module_name(p) for p in PACKAGE.rglob("*.py")}
    graph: dict[str, set[str]] = {m: set() for m in modules if subpackage(m) == within}
    for path in sorted(PACKAGE.rglob("*.py")):
        module = _module_name(path)
        if module not in graph:
            continue
        tree = ast.parse(path.read_text(encoding="utf-8"))
        for node, _, for_the_checker in _walk(tree, False, False):
            if for_the_checker and not type_checking:
                continue
            for target in _targets(node, module, path.name == "__init__.py"):
                names = [a.name for a in node.names] if isinstance(node, ast.ImportFrom) else []  # type: ignore[attr-defined]
                named = [f"{target}.{n}" for n in names if f"{target}.{n}" in modules]
                for dest in {*named, target}:
                    if dest in graph and dest != module:
                        graph[module].add(dest)
    return graph


def circles(graph: dict[str, set[str]]) -> list[list[str]]:
    """The strongly connected sets of more than one node (Tarjan's algorithm), each sorted.

    >>> circles({"a": {"b"}, "b": {"a", "c"}, "c": set()})
    [['a', 'b']]
    """
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    found: list[list[str]] = []

    def visit(node: str) -> None:
        index[node] = low[node] = len(index)
        stack.append(node)
        for nxt in sorted(graph.get(node, ())):
            if nxt not in index:
                visit(nxt)
                low[node] = min(low[node], low[nxt])
            elif nxt in stack:
                low[node] = min(low[node], index[nxt])
        if low[node] == index[node]:
            members = []
            while True:
                member = stack.pop()
                members.append(member)
                if member == node:
                    break
            if len(members) > 1:
                found.append(sorted(members))

    for node in sorted(graph):
        if node not in index:
            visit(node)
    return sorted(found)


def function_level_imports() -> list[Import]:
    """Each import made inside a function (of an rvalues module or of a dependency: pandas and
    pyarrow come through ``rvalues.lazy`` instead)."""
    return [i for i in imports() if i.in_function]


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
    offending = [i for i in imports() if i.target == "mcplite" or i.target.startswith("mcplite.")]
    assert offending == []


def test_every_subpackage_is_in_the_declared_order() -> None:
    assert {subpackage(_module_name(p)) for p in PACKAGE.rglob("*.py")} - {"rvalues"} == set(ORDER)


def test_every_import_points_down_the_declared_order() -> None:
    """Counting imports in functions and under ``TYPE_CHECKING``: none reaches a layer above."""
    rank = {name: i for i, name in enumerate(ORDER)}
    upward = [
        f"{i.module}:{i.line} imports {i.target}"
        for i in imports()
        if i.target.startswith("rvalues.")
        and i.module != "rvalues"
        and rank[subpackage(i.target)] > rank[subpackage(i.module)]
    ]
    assert upward == []


def test_no_cycle_between_subpackages_counting_every_import() -> None:
    assert cycles(subpackage_graph()) == []


def test_circles_inside_subpackages_do_not_grow() -> None:
    """Counting imports under ``TYPE_CHECKING`` and in functions: a circle kept only for the type
    checker is a circle a reader still has to follow."""
    largest = {}
    for name in ORDER:
        found = circles(module_graph(name))
        if found:
            largest[name] = max(len(c) for c in found)
    assert all(largest.get(name, 0) <= most for name, most in LARGEST_CIRCLE.items()), largest
    assert set(largest) <= set(LARGEST_CIRCLE), largest


def test_function_level_imports_are_few_and_say_why() -> None:
    late = function_level_imports()
    assert len(late) <= FUNCTION_LEVEL_IMPORTS_AT_MOST, [f"{i.module}:{i.line}" for i in late]
    for found in late:
        lines = (ROOT / _path(found.module)).read_text(encoding="utf-8").splitlines()
        before = lines[found.line - 2].strip()
        assert before.startswith("# late:"), f"{found.module}:{found.line}: say why above it ('# late: ...')"


def _path(module: str) -> str:
    path = Path(*module.split("."))
    return str(path / "__init__.py") if (ROOT / path).is_dir() else f"{path}.py"


def test_no_module_is_over_450_lines() -> None:
    long = {
        p.relative_to(ROOT).as_posix(): n
        for p in PACKAGE.rglob("*.py")
        if (n := len(p.read_text(encoding="utf-8").splitlines())) > LONGEST_MODULE
    }
    assert long == {}


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


def test_the_graph_readers_find_what_is_there() -> None:
    assert cycles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": set()}) == [["a", "b", "c", "a"]]
    assert cycles({"a": {"b"}, "b": set()}) == []
    assert circles({"a": {"b"}, "b": {"c"}, "c": {"a"}, "d": {"a"}}) == [["a", "b", "c"]]
    source = "import x\nif TYPE_CHECKING:\n    import y\ndef f():\n    import z\n"
    walked = [(ast.unparse(n), f, t) for n, f, t in _walk(ast.parse(source), False, False)]
    assert walked == [("import x", False, False), ("import y", False, True), ("import z", True, False)]


if __name__ == "__main__":
    graph = subpackage_graph()
    print("rvalues subpackages, every import:")
    for source in sorted(graph):
        print(f"  {source} -> {', '.join(sorted(graph[source])) or '-'}")
    print("  cycles:", cycles(graph) or "none")
    for name in ORDER:
        found = circles(module_graph(name))
        print(f"{name}: {len(module_graph(name))} modules, circles {[len(c) for c in found] or 'none'}")
        for circle in found:
            print("   ", ", ".join(circle))
    late = function_level_imports()
    print(f"function-level imports of rvalues modules: {len(late)}")
    for one in late:
        print(f"  {one.module}:{one.line} -> {one.target}")
    sys.exit(0)
