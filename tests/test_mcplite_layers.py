"""mcplite's modules form layers: no module imports, at its top level, one that imports it back.

Types declare; the converter and projection use them; nothing points back up. Imports inside
functions are listed too (``python -m tests.test_mcplite_layers`` prints both graphs), but only
top-level imports decide the layers.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

from tests.import_graphs import cycles

PACKAGE = Path(__file__).resolve().parent.parent / "mcplite"


def _imported(node: ast.AST) -> set[str]:
    if isinstance(node, ast.Import):
        return {alias.name for alias in node.names}
    if isinstance(node, ast.ImportFrom) and node.level == 0 and node.module is not None:
        return {node.module} | {f"{node.module}.{alias.name}" for alias in node.names}
    return set()


def import_graph(top_level_only: bool) -> dict[str, set[str]]:
    """Module -> the mcplite modules it imports (at its top level, or anywhere in it).

    ``if TYPE_CHECKING:`` blocks are skipped: they are never run.

    >>> "mcplite.types" in import_graph(True)["mcplite.projection"]
    True
    """
    modules = {f"mcplite.{path.stem}" for path in PACKAGE.glob("*.py") if path.stem != "__init__"}
    graph: dict[str, set[str]] = {}
    for name in sorted(modules):
        tree = ast.parse((PACKAGE / f"{name.split('.')[1]}.py").read_text(encoding="utf-8"))
        body = [stmt for stmt in tree.body if not _type_checking_only(stmt)]
        nodes = _top_level(body) if top_level_only else [n for stmt in body for n in ast.walk(stmt)]
        found: set[str] = set()
        for node in nodes:
            found |= _imported(node)
        graph[name] = (found & modules) - {name}
    return graph


def _type_checking_only(stmt: ast.stmt) -> bool:
    return isinstance(stmt, ast.If) and "TYPE_CHECKING" in ast.unparse(stmt.test)


def _top_level(body: list[ast.stmt]) -> list[ast.stmt]:
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, (ast.If, ast.Try)):
            out += _top_level(stmt.body) + _top_level(getattr(stmt, "orelse", []))
            for handler in getattr(stmt, "handlers", []):
                out += _top_level(handler.body)
        else:
            out.append(stmt)
    return out


def test_mcplite_modules_have_no_import_cycle_at_top_level() -> None:
    assert cycles(import_graph(top_level_only=True)) == []


PAYLOAD_LAYERS = ["types", "messages", "options", "converter", "payload", "projection", "results"]
"""mcplite's payload and protocol modules, lowest first: each imports only modules before it."""


def test_the_protocol_types_import_no_other_mcplite_module() -> None:
    graph = import_graph(top_level_only=False)
    assert graph["mcplite.types"] == set()
    assert graph["mcplite.messages"] == {"mcplite.types"}


def test_the_payload_and_protocol_modules_import_only_lower_layers_even_inside_functions() -> None:
    graph = import_graph(top_level_only=False)
    for i, name in enumerate(PAYLOAD_LAYERS):
        lower = {f"mcplite.{below}" for below in PAYLOAD_LAYERS[:i]}
        upward = graph[f"mcplite.{name}"] - lower
        assert not upward, f"mcplite.{name} imports {sorted(upward)}, which are not below it"


if __name__ == "__main__":
    for top in (True, False):
        print("top-level imports" if top else "all imports (functions included)")
        graph = import_graph(top)
        for module in sorted(graph):
            print(f"  {module} -> {', '.join(sorted(graph[module])) or '-'}")
        print("  cycles:", cycles(graph) or "none")
    sys.exit(0)
