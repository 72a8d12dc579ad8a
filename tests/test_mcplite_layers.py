"""mcplite's layers, read from its source: every import is counted (top-level, inside functions and
under ``TYPE_CHECKING``), and each must point down the declared order

    protocol < payload < tools < engine < transports < (server, http, testing, sdk, cli, demo)

No module imports one that imports it back at its top level, no two subpackages import each other
in any way, function-level imports are few and each says why, and no module is over 450 lines.
``python -m tests.test_mcplite_layers`` prints the graphs and the counts.
"""

from __future__ import annotations

import ast
import re
import sys
from pathlib import Path

import pytest

from tests.import_graphs import cycles

PACKAGE = Path(__file__).resolve().parent.parent / "mcplite"
ARCHITECTURE = PACKAGE.parent / "docs" / "architecture.md"

LAYERS: list[set[str]] = [
    {"protocol"},
    {"payload"},
    {"tools"},
    {"features"},
    {"engine"},
    {"transports"},
    {"server", "http"},
    {"testing", "sdk", "cli", "demo", "__main__", "__init__"},
]
"""The units of mcplite (subpackages, and the top modules), lowest layer first."""

SUBPACKAGES = ["protocol", "payload", "tools", "features", "engine", "transports"]
MAX_LINES = 450
MAX_FUNCTION_IMPORTS = 5


def modules() -> dict[str, Path]:
    """Every module of mcplite by dotted name (a package's ``__init__`` by the package's name)."""
    found: dict[str, Path] = {}
    for path in sorted(PACKAGE.rglob("*.py")):
        parts = ["mcplite", *path.relative_to(PACKAGE).with_suffix("").parts]
        if parts[-1] == "__init__":
            parts.pop()
        found[".".join(parts)] = path
    return found


class Import:
    """One import statement: where it is, what it names, and how it runs."""

    def __init__(self, module: str, line: int, targets: set[str], where: str, comment: str) -> None:
        self.module = module
        self.line = line
        self.targets = targets
        self.where = where  # "top", "function" or "type-checking"
        self.comment = comment

    def __repr__(self) -> str:
        return f"{self.module}:{self.line} ({self.where}) -> {sorted(self.targets)}"


def _resolve(node: ast.Import | ast.ImportFrom, module: str, is_package: bool, known: set[str]) -> set[str]:
    """The mcplite modules an import statement loads (``from a import b`` loads ``a.b`` if it is one)."""
    if isinstance(node, ast.Import):
        names = [alias.name for alias in node.names]
    else:
        base = node.module or ""
        if node.level:
            package = module.split(".") if is_package else module.split(".")[:-1]
            package = package[: len(package) - node.level + 1]
            base = ".".join([*package, base] if base else package)
        names = [base] + [f"{base}.{alias.name}" for alias in node.names]
    return {name for name in names if name in known}


def imports() -> list[Import]:
    """Every import statement in mcplite that loads an mcplite module."""
    known = set(modules())
    found: list[Import] = []
    for module, path in modules().items():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        tree = ast.parse(source)
        where: dict[int, str] = {}
        for node in ast.walk(tree):
            if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                for inner in ast.walk(node):
                    where.setdefault(id(inner), "function")
            elif isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
                for inner in ast.walk(node):
                    where.setdefault(id(inner), "type-checking")
        for node in ast.walk(tree):
            if isinstance(node, (ast.Import, ast.ImportFrom)):
                comment = lines[node.lineno - 2].strip() if node.lineno > 1 else ""
                targets = _resolve(node, module, path.name == "__init__.py", known) - {module}
                found.append(Import(module, node.lineno, targets, where.get(id(node), "top"), comment))
    return found


def function_imports() -> list[Import]:
    """Every import inside a function, of any module (mcplite's or not)."""
    return [item for item in imports_any() if item.where == "function"]


def imports_any() -> list[Import]:
    """Every import statement inside a function in mcplite, whatever it loads, with the comment
    above the group of import lines it belongs to."""
    found: dict[tuple[str, int], Import] = {}
    for module, path in modules().items():
        source = path.read_text(encoding="utf-8")
        lines = source.splitlines()
        for function in ast.walk(ast.parse(source)):
            if not isinstance(function, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            for node in ast.walk(function):
                if isinstance(node, (ast.Import, ast.ImportFrom)):
                    above = node.lineno - 2
                    while above >= 0 and lines[above].strip().startswith(("import ", "from ")):
                        above -= 1
                    comment = lines[above].strip() if above >= 0 else ""
                    inline = lines[node.lineno - 1].partition("#")[2]
                    comment = f"# {inline.strip()}" if inline.strip() else comment
                    found[module, node.lineno] = Import(module, node.lineno, set(), "function", comment)
    return list(found.values())


def import_graph(kinds: tuple[str, ...] = ("top",)) -> dict[str, set[str]]:
    """Module -> the mcplite modules it imports, counting the imports of the given kinds.

    >>> "mcplite.protocol.types" in import_graph()["mcplite.protocol.projection"]
    True
    """
    graph: dict[str, set[str]] = {module: set() for module in modules()}
    for item in imports():
        if item.where in kinds:
            graph[item.module] |= item.targets
    return graph


def unit(module: str) -> str:
    """The subpackage or top module a module belongs to."""
    return module.split(".")[1] if "." in module else "__init__"


def layer(module: str) -> int:
    name = unit(module)
    return next(i for i, units in enumerate(LAYERS) if name in units)


ALL_KINDS = ("top", "function", "type-checking")


def test_every_module_belongs_to_a_layer() -> None:
    for module in modules():
        assert any(unit(module) in units for units in LAYERS), f"{module} is in no declared layer"


def test_the_layers_are_the_subpackages() -> None:
    packages = {path.parent.name for path in PACKAGE.rglob("__init__.py") if path.parent != PACKAGE}
    assert set(SUBPACKAGES) <= packages


def test_no_module_level_import_cycle() -> None:
    assert cycles(import_graph(("top",))) == []


def test_no_import_cycle_between_subpackages_counting_every_import() -> None:
    graph: dict[str, set[str]] = {}
    for module, targets in import_graph(ALL_KINDS).items():
        graph.setdefault(unit(module), set()).update(unit(target) for target in targets)
    for name in graph:
        graph[name].discard(name)
    assert cycles(graph) == []


def test_every_import_points_down_the_layers() -> None:
    upward = [
        f"{item!r}"
        for item in imports()
        for target in item.targets
        if layer(target) > layer(item.module)
        or (layer(target) == layer(item.module) and unit(target) != unit(item.module) and layer(target) < 6)
    ]
    assert upward == []


def test_the_protocol_layer_imports_nothing_else_of_mcplite() -> None:
    for item in imports():
        if unit(item.module) == "protocol":
            assert all(unit(target) == "protocol" for target in item.targets), item


def test_transports_are_handed_an_engine_never_the_server_facade() -> None:
    for item in imports():
        if unit(item.module) in ("transports", "engine"):
            assert "mcplite.server" not in item.targets and "mcplite" not in item.targets, item


def test_few_function_level_imports_and_each_says_why() -> None:
    found = function_imports()
    assert len(found) <= MAX_FUNCTION_IMPORTS, found
    for item in found:
        assert item.comment.startswith("#"), f"{item!r} has no comment above it saying why"


@pytest.mark.parametrize("module", sorted(modules()))
def test_no_module_is_over_450_lines(module: str) -> None:
    lines = len(modules()[module].read_text(encoding="utf-8").splitlines())
    assert lines <= MAX_LINES, f"{module} has {lines} lines"


def diagram() -> tuple[set[str], set[str]]:
    """(the modules docs/architecture.md's layer diagram names, the packages it names whole).

    A line starting with ``name/`` opens a subpackage (indented: one inside the current one); each
    ``name.py`` on it and the lines after belongs to it; the top row names mcplite's own modules.
    """
    text = ARCHITECTURE.read_text(encoding="utf-8")
    block = text.split("## mcplite in layers", 1)[1].split("```text\n", 1)[1].split("```", 1)[0]
    named: set[str] = set()
    whole: set[str] = set()
    path: list[str] = []
    for line in block.splitlines():
        if line.strip().startswith("─"):
            path = []
            continue
        opened = re.match(r" (\s*)([a-z_]+)/\s", line)
        if opened:
            path = [*path[:1], opened.group(2)] if opened.group(1) else [opened.group(2)]
        elif not path:
            whole |= {f"mcplite.{name}" for name in re.findall(r"\b([a-z_]+)/", line)}
        for name in re.findall(r"\b([a-z_]+)\.py\b", line):
            named.add(".".join(["mcplite", *path] + ([] if name == "__init__" else [name])))
    return named, whole


def test_the_architecture_diagram_names_every_module_and_only_those() -> None:
    named, whole = diagram()
    assert named - set(modules()) == set(), "docs/architecture.md names modules that are not there"
    left_out = {
        module
        for module, path in modules().items()
        if module not in named and path.name != "__init__.py" and not module.startswith(tuple(whole))
    }
    assert left_out == set(), "name these modules in docs/architecture.md's layer diagram"


def test_the_diagram_reader_reads_rows_and_nested_packages() -> None:
    assert "mcplite.transports.http.app" in diagram()[0]
    assert "mcplite.transports.stdio" in diagram()[0] and "mcplite" in diagram()[0]
    assert diagram()[1] == {"mcplite.demo"}


def test_the_architecture_counts_are_todays() -> None:
    """The "now" column of docs/architecture.md's counts table."""
    text = ARCHITECTURE.read_text(encoding="utf-8").split("## Counts", 1)[1].split("\n## ", 1)[0]
    table = [[cell.strip() for cell in line.split("|")[1:-1]] for line in text.splitlines()]
    rows = {cells[0]: cells[-1] for cells in table if cells}
    now = counts()
    assert int(rows["modules"]) == now["modules"]
    assert int(rows["imports inside functions"]) == now["function-level imports"]
    about = int(rows["lines"].removeprefix("about ").replace(",", ""))
    assert abs(about - now["lines"]) <= 1000, now["lines"]


SEARCHES = {"find", "rfind", "index", "rindex", "count", "split", "rsplit", "partition", "replace"}
LINE_CUTTERS = {"mcplite.transports.stdio", "mcplite.testing"}
"""The modules that search bytes: to cut a stream into lines (docs/architecture.md, "no byte search")."""


def byte_searches() -> list[str]:
    """Each call searching bytes for a literal (``data.find(b"\\n")``), as ``module:line``."""
    found = []
    for module, path in modules().items():
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Attribute)
                and node.func.attr in SEARCHES
                and any(isinstance(a, ast.Constant) and isinstance(a.value, bytes) for a in node.args)
            ):
                found.append(f"{module}:{node.lineno}")
    return found


def test_bytes_are_searched_only_to_cut_lines() -> None:
    """A written payload is never searched for a place to cut or splice."""
    searches = byte_searches()
    assert {found.partition(":")[0] for found in searches} <= LINE_CUTTERS, searches
    assert searches, "the reader finds the line cutters' searches"


def counts() -> dict[str, int]:
    """The figures the architecture note quotes."""
    sources = [path.read_text(encoding="utf-8") for path in modules().values()]
    graph: dict[str, set[str]] = {}
    for module, targets in import_graph(ALL_KINDS).items():
        graph.setdefault(unit(module), set()).update(unit(target) for target in targets)
    for name in graph:
        graph[name].discard(name)
    return {
        "modules": len(sources),
        "lines": sum(len(source.splitlines()) for source in sources),
        "module-level cycles": len(cycles(import_graph(("top",)))),
        "cycles counting every import": len(cycles(import_graph(ALL_KINDS))),
        "subpackage cycles": len(cycles({k: v for k, v in graph.items() if k in SUBPACKAGES})),
        "function-level imports": len(function_imports()),
    }


if __name__ == "__main__":
    graph = import_graph(ALL_KINDS)
    for module in sorted(graph):
        print(f"  {module} -> {', '.join(sorted(graph[module])) or '-'}")
    for name, value in counts().items():
        print(f"{name}: {value}")
    sys.exit(0)
