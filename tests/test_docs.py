"""The documentation: its examples run, its tables say what the code does, and the site builds.

Every ```python block of README.md and docs/**/*.md runs as a doctest, and so do the module
docstrings. The tables between ``<!-- table: NAME -->`` and ``<!-- end table -->`` in the pages are
generated from the code by the functions below (and checked against R's jsonlite when R is
present); after a change, rewrite them with ``python -m tests.test_docs``.
"""

from __future__ import annotations

import datetime as dt
import doctest
import importlib
import importlib.util
import json
import os
import pkgutil
import re
import subprocess
import sys
import warnings
from collections.abc import Callable
from pathlib import Path
from typing import Any

import numpy as np
import pandas as pd
import pytest

import mcplite
import rvalues as rv
from mcplite.payload.returned import to_r
from mcplite.payload.rjson import encode_json, options_in_force
from mcplite.tools.mapping_table import mapping_table
from tests.conftest import RSCRIPT, requires_r

ROOT = Path(__file__).parent.parent
DOCS = ROOT / "docs"
DOCUMENTS = [ROOT / "README.md", *sorted(DOCS.rglob("*.md"))]


def _ids(paths: list[Path]) -> list[str]:
    return [str(p.relative_to(ROOT)) for p in paths]


@pytest.mark.parametrize("document", DOCUMENTS, ids=_ids(DOCUMENTS))
def test_document_examples(document: Path, utc: None) -> None:
    blocks = re.findall(r"```python\n(.*?)```", document.read_text(encoding="utf-8"), flags=re.S)
    test = doctest.DocTestParser().get_doctest("\n".join(blocks), {}, document.name, str(document), 0)
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE)
    runner.run(test)
    assert runner.failures == 0, f"{runner.failures} example(s) in {document.name} failed; see above"


_SCRIPT = re.compile(r'```python title="([\w-]+\.py)"\n(.*?)```', re.S)
SCRIPTS = [
    (page, name, code) for page in DOCUMENTS for name, code in _SCRIPT.findall(page.read_text("utf-8"))
]


def _request(rid: int, method: str, params: dict[str, Any]) -> str:
    return json.dumps({"jsonrpc": "2.0", "id": rid, "method": method, "params": params})


@pytest.mark.parametrize(("page", "name", "code"), SCRIPTS, ids=[f"{p.name}:{n}" for p, n, _ in SCRIPTS])
def test_server_scripts_serve(page: Path, name: str, code: str, tmp_path: Path) -> None:
    """A page's server file (a fence titled ``*.py``) runs under ``mcplite serve`` and lists its tools."""
    script = tmp_path / name
    script.write_text(code, encoding="utf-8")
    client = {"name": "docs-test", "version": "0"}
    lines = [
        _request(
            1, "initialize", {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": client}
        ),
        json.dumps({"jsonrpc": "2.0", "method": "notifications/initialized"}),
        _request(2, "tools/list", {}),
    ]
    run = subprocess.run(
        [sys.executable, "-m", "mcplite", "serve", str(script)],
        input="\n".join(lines) + "\n",
        capture_output=True,
        text=True,
        timeout=60,
        cwd=ROOT,
    )
    assert run.returncode == 0, run.stderr
    answers = {answer["id"]: answer for answer in map(json.loads, run.stdout.splitlines())}
    assert answers[2]["result"]["tools"], f"{name} in {page.name} serves no tools: {run.stderr}"


MODULES = [
    "mcplite",
    *sorted(
        info.name
        for package in (rv, mcplite)
        for info in pkgutil.walk_packages(package.__path__, f"{package.__name__}.")
        if not info.name.endswith(("demo", "__main__"))
    ),
]

#: Modules whose examples need an optional extra: module -> the distribution it imports.
NEEDS_EXTRA = {"mcplite.sdk": "mcp"}


@pytest.mark.parametrize("name", MODULES)
def test_docstring_examples(name: str, utc: None) -> None:
    if name in NEEDS_EXTRA:
        pytest.importorskip(NEEDS_EXTRA[name], reason=f"{name}'s examples need {NEEDS_EXTRA[name]}")
    module = importlib.import_module(name)
    finder = doctest.DocTestFinder()
    runner = doctest.DocTestRunner(optionflags=doctest.NORMALIZE_WHITESPACE | doctest.ELLIPSIS)
    for test in finder.find(module, name):
        runner.run(test)
    assert runner.failures == 0, f"{runner.failures} example(s) in {name} failed; see the output above"


@pytest.mark.parametrize("document", DOCUMENTS, ids=_ids(DOCUMENTS))
def test_json_examples_parse(document: Path) -> None:
    """Client configurations and other JSON examples are valid JSON."""
    for block in re.findall(r"```json\n(.*?)```", document.read_text(encoding="utf-8"), flags=re.S):
        json.loads(block)


def test_mapping_page_shows_the_setup_the_tables_use() -> None:
    page = (DOCS / "mapping.md").read_text(encoding="utf-8")
    python = "\n".join(f">>> {line}" for line in ARGUMENT_SETUP_PYTHON.splitlines())
    assert python in page and f"```r\n{ARGUMENT_SETUP_R}\n```" in page


def test_docs_hook_examples() -> None:
    """The API reference's docstring converter (docs/hooks) does what its examples say."""
    pytest.importorskip("griffe")
    spec = importlib.util.spec_from_file_location("sphinx_roles", DOCS / "hooks" / "sphinx_roles.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    failed, attempted = doctest.testmod(module)
    assert attempted and not failed


# -- tables generated from the code -----------------------------------------------------------------

#: Python, numpy and pandas objects, as spelled on the mapping page (evaluated with these names).
PYTHON_VALUES = [
    "True",
    "1",
    "2**31",
    "1.5",
    'float("nan")',
    "1 + 2j",
    '"a"',
    'b"\\x01"',
    "None",
    '[1, "a"]',
    '{"a": 1, "b": None}',
    "dt.date(2024, 1, 2)",
    "dt.datetime(2024, 1, 2, 3, 4, 5)",
    'dt.datetime(2024, 1, 2, 3, 4, 5, tzinfo=ZoneInfo("Europe/Paris"))',
    "np.array([True, False])",
    "np.array([1, 2], dtype=np.int64)",
    "np.array([1, 2**40])",
    "np.array([1.5, np.nan])",
    'np.array(["a", "b"])',
    'np.array(["2024-01-02"], dtype="datetime64[D]")',
    'np.array(["2024-01-02T03:04:05"], dtype="datetime64[s]")',
    'np.array([90], dtype="timedelta64[s]")',
    "np.ma.masked_array([1, 2], mask=[False, True])",
    "np.arange(6).reshape(2, 3)",
    'pd.Series([1, None], dtype="Int64")',
    "pd.Series([1.5, None])",
    'pd.Series([True, None], dtype="boolean")',
    'pd.Series(["a", None], dtype="string")',
    'pd.Series(["b", "a"], dtype="category")',
    'pd.Series(pd.to_datetime(["2024-01-02 03:04", None]))',
    'pd.Series([1, "a"], dtype=object)',
    'pd.Series([1, 2], index=["a", "b"])',
    'pd.DataFrame({"x": [1, 2], "y": ["a", None]})',
]


def _namespace() -> dict[str, Any]:
    from zoneinfo import ZoneInfo

    return {"np": np, "pd": pd, "dt": dt, "rv": rv, "ZoneInfo": ZoneInfo}


def _code(text: str) -> str:
    if "`" in text or "|" in text:
        raise ValueError(f"{text!r} cannot go in a table's code span")
    return f"`{text}`"


def python_to_r_table() -> str:
    """Python | R type | R class | as R prints it, from ``rv.as_r``."""
    rows = ["| Python | R type | R class | as R prints it |", "|---|---|---|---|"]
    for expression in PYTHON_VALUES:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore", rv.ConversionWarning)
            value = rv.as_r(eval(expression, _namespace()))
        kind = rv.describe(value)["type"]
        classes = ", ".join(rv.r_class(value))
        lines = repr(value).splitlines()
        shown = _code(lines[0].rstrip()) if len(lines) == 1 else f"{len(lines)} lines"
        if "dim" in value.attributes:
            classes += f" (dim {' x '.join(str(d) for d in value.dim)})"
        rows.append(f"| {_code(expression)} | {kind} | {classes} | {shown} |")
    return "\n".join(rows)


#: R values for the payload-option table: (Python spelling, R spelling).
PAYLOAD_VALUES = [
    ("rv.c(1.5, rv.NA)", "c(1.5, NA)"),
    ("rv.c(2.5)", "2.5"),
    ('rv.c("a", rv.NA)', 'c("a", NA)'),
    ("rv.Logical([True, None])", "c(TRUE, NA)"),
    ('rv.c(float("nan"), float("inf"))', "c(NaN, Inf)"),
    ("rv.I(1)", "I(1L)"),
    ("rv.r_list(a=1, b=rv.NULL)", "list(a = 1L, b = NULL)"),
    ('rv.factor(["x", None])', 'factor(c("x", NA))'),
    ('rv.as_date("2024-01-02")', 'as.Date("2024-01-02")'),
    ("rv.data_frame(x=[1.5, rv.NA], y=[rv.NA, 2])", "data.frame(x = c(1.5, NA), y = c(NA, 2L))"),
]

#: Columns of the payload-option table: (header, mcplite options, R's toJSON arguments).
PAYLOAD_COLUMNS: list[tuple[str, dict[str, Any] | None, str]] = [
    ("jsonlite `toJSON(x)`", None, ""),
    ("mcplite defaults", {}, ", auto_unbox = TRUE, null = 'null'"),
    ('`json_na="null"`', {"json_na": "null"}, ", auto_unbox = TRUE, null = 'null', na = 'null'"),
    ('`json_na="string"`', {"json_na": "string"}, ", auto_unbox = TRUE, null = 'null', na = 'string'"),
    ("`json_auto_unbox=False`", {"json_auto_unbox": False}, ", null = 'null'"),
    ('`json_null="list"`', {"json_null": "list"}, ", auto_unbox = TRUE, null = 'list'"),
]


def _payload_json(python: str, changes: dict[str, Any] | None) -> str:
    value = eval(python, _namespace())
    if changes is None:
        return rv.to_json(value)
    with mcplite.options(**changes):
        return encode_json(to_r(value), options=options_in_force())


def payload_table() -> str:
    """The JSON of some R values under jsonlite's defaults and under each mcplite payload option."""
    rows = [
        "| R value | " + " | ".join(header for header, _, _ in PAYLOAD_COLUMNS) + " |",
        "|---" * (len(PAYLOAD_COLUMNS) + 1) + "|",
    ]
    for python, r_code in PAYLOAD_VALUES:
        cells = [_code(_payload_json(python, changes)) for _, changes, _ in PAYLOAD_COLUMNS]
        rows.append(f"| {_code(r_code)}<br>{_code(python)} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


#: jsonlite arguments on one data frame and one matrix: (Python call, R call).
ARGUMENT_CALLS = [
    ("rv.to_json(df)", "toJSON(df)"),
    ('rv.to_json(df, dataframe="columns")', 'toJSON(df, dataframe = "columns")'),
    ('rv.to_json(df, dataframe="values")', 'toJSON(df, dataframe = "values")'),
    ('rv.to_json(df, na="string")', 'toJSON(df, na = "string")'),
    ('rv.to_json(df, factor="integer")', 'toJSON(df, factor = "integer")'),
    ('rv.to_json(df, date="epoch")', 'toJSON(df, Date = "epoch")'),
    ("rv.to_json(df, rownames=True)", "toJSON(df, rownames = TRUE)"),
    ("rv.to_json(df, digits=1)", "toJSON(df, digits = 1)"),
    ("rv.to_json(df, digits=rv.signif(2))", "toJSON(df, digits = I(2))"),
    ("rv.to_json(df, digits=None)", "toJSON(df, digits = NA)"),
    ("rv.to_json(df, always_decimal=True)", "toJSON(df, always_decimal = TRUE)"),
    ("rv.to_json(m)", "toJSON(m)"),
    ('rv.to_json(m, matrix="columnmajor")', 'toJSON(m, matrix = "columnmajor")'),
    ("rv.to_json(rv.c(a=1, b=2))", "toJSON(c(a = 1L, b = 2L))"),
    ("rv.to_json(rv.c(a=1, b=2), keep_vec_names=True)", "toJSON(c(a = 1L, b = 2L), keep_vec_names = TRUE)"),
    ("rv.to_json(rv.c(1 + 2j))", "toJSON(1+2i)"),
    ('rv.to_json(rv.c(1 + 2j), complex="list")', 'toJSON(1+2i, complex = "list")'),
    (
        'rv.to_json(rv.as_posixct("2024-01-02 03:04:05", tz="UTC"), posixt="ISO8601")',
        'toJSON(as.POSIXct("2024-01-02 03:04:05", tz = "UTC"), POSIXt = "ISO8601")',
    ),
    (
        'rv.to_json(rv.as_posixct("2024-01-02 03:04:05", tz="UTC"), posixt="epoch")',
        'toJSON(as.POSIXct("2024-01-02 03:04:05", tz = "UTC"), POSIXt = "epoch")',
    ),
]

ARGUMENT_SETUP_PYTHON = (
    'df = rv.data_frame(x=[1.25, rv.NA], g=rv.factor(["b", "a"]), d=rv.as_date(["2024-01-02", rv.NA]))\n'
    "m = rv.matrix(rv.c(1, 2, 3, 4, 5, 6), nrow=2)"
)
ARGUMENT_SETUP_R = (
    'df <- data.frame(x = c(1.25, NA), g = factor(c("b", "a")), d = as.Date(c("2024-01-02", NA)))\n'
    "m <- matrix(1:6, nrow = 2)"
)


def _argument_namespace() -> dict[str, Any]:
    namespace = _namespace()
    exec(ARGUMENT_SETUP_PYTHON, namespace)
    return namespace


def arguments_table() -> str:
    """Python call | R call | JSON, for jsonlite's arguments."""
    rows = ["| rvalues | jsonlite | JSON |", "|---|---|---|"]
    for (python, r_code), text in zip(ARGUMENT_CALLS, _argument_results()):
        rows.append(f"| {_code(python)} | {_code(r_code)} | {_code(text)} |")
    return "\n".join(rows)


def _argument_results() -> list[str]:
    namespace = _argument_namespace()
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # keep_vec_names' deprecation warning, as jsonlite gives it
        return [eval(python, namespace) for python, _ in ARGUMENT_CALLS]


def _carried(block: dict[str, Any], kind: str) -> str:
    return "kept" if block["type"] == kind else f"as {block['type']}"


def projection_table() -> str:
    """What each protocol version receives of a result and a tool, from ``to_wire``."""
    result = mcplite.tool_result(
        [
            mcplite.content_text("hi", meta={"k": 1}),
            mcplite.content_audio(b"\x00", "audio/wav"),
            mcplite.content_resource_link("file:///a.csv", "a.csv"),
        ],
        structured_content=rv.c(1, 2),
    )
    with_object = mcplite.tool_result(structured_content={"n": 1})
    tool = mcplite.Tool(
        name="t",
        title="T",
        description="d",
        input_schema={"type": "object"},
        output_schema={"type": "object"},
        annotations=mcplite.ToolAnnotations(read_only_hint=True),
        icons=[mcplite.Icon(src="https://example.org/i.png")],
        meta={"k": 1},
    )

    def result_row(version: str) -> dict[str, str]:
        wire = result.to_wire(version)
        blocks = wire["content"]
        return {
            "`structuredContent` (an object)": "kept"
            if "structuredContent" in with_object.to_wire(version)
            else "dropped",
            "`structuredContent` (not an object)": "kept" if "structuredContent" in wire else "dropped",
            '`resultType: "complete"`': "added" if "resultType" in wire else "--",
            "`_meta` on content blocks": "kept" if "_meta" in blocks[0] else "dropped",
            "audio block": _carried(blocks[1], "audio"),
            "resource_link block": _carried(blocks[2], "resource_link"),
        }

    def tool_row(version: str) -> dict[str, str]:
        wire = tool.to_wire(version)
        return {
            f"`Tool.{field}`": "kept" if key in wire else "dropped"
            for field, key in [
                ("annotations", "annotations"),
                ("title", "title"),
                ("_meta", "_meta"),
                ("outputSchema", "outputSchema"),
                ("icons", "icons"),
            ]
        }

    columns = {version: {**result_row(version), **tool_row(version)} for version in mcplite.PROTOCOL_VERSIONS}
    elements = list(columns[mcplite.PROTOCOL_VERSIONS[0]])
    rows = [
        "| element | " + " | ".join(mcplite.PROTOCOL_VERSIONS) + " |",
        "|---" * (len(mcplite.PROTOCOL_VERSIONS) + 1) + "|",
    ]
    for element in elements:
        cells = [columns[version][element] for version in mcplite.PROTOCOL_VERSIONS]
        rows.append(f"| {element} | " + " | ".join(cells) + " |")
    return "\n".join(rows)


TABLES: dict[str, Callable[[], str]] = {
    "python-to-r": python_to_r_table,
    "payload-options": payload_table,
    "jsonlite-arguments": arguments_table,
    "projection": projection_table,
    "typed-mapping": mapping_table,
}

_TABLE = re.compile(r"(<!-- table: ([a-z-]+) -->\n)(.*?)(<!-- end table -->)", re.S)


def page_tables(page: Path) -> dict[str, str]:
    """The generated tables a page holds, by name."""
    return {m.group(2): m.group(3).strip() for m in _TABLE.finditer(page.read_text(encoding="utf-8"))}


def rewrite_tables() -> None:
    """Regenerate every marked table in docs/ from the code."""
    for page in sorted(DOCS.rglob("*.md")):
        text = page.read_text(encoding="utf-8")
        new = _TABLE.sub(lambda m: f"{m.group(1)}\n{TABLES[m.group(2)]()}\n\n{m.group(4)}", text)
        if new != text:
            page.write_text(new, encoding="utf-8")
            print(f"rewrote {page.relative_to(ROOT)}")


def _all_page_tables() -> dict[str, str]:
    found: dict[str, str] = {}
    for page in sorted(DOCS.rglob("*.md")):
        found.update(page_tables(page))
    return found


@pytest.mark.parametrize("name", sorted(TABLES))
def test_page_table_matches_the_code(name: str, utc: None) -> None:
    shown = _all_page_tables()
    assert name in shown, f"no page holds the table {name!r} (marker <!-- table: {name} -->)"
    assert shown[name] == TABLES[name](), f"table {name!r} is out of date: run python -m tests.test_docs"


def _r_json(script: str) -> list[str]:
    assert RSCRIPT is not None
    run = subprocess.run(
        [RSCRIPT, "--vanilla", "-e", script],
        capture_output=True,
        text=True,
        check=True,
        env={"TZ": "UTC", "LANG": "C.UTF-8", "PATH": os.environ.get("PATH", "/usr/bin:/bin")},
    )
    return run.stdout.splitlines()


@requires_r
def test_json_tables_agree_with_jsonlite(utc: None) -> None:
    calls = [
        f"toJSON({r_code}{arguments})" for _, r_code in PAYLOAD_VALUES for _, _, arguments in PAYLOAD_COLUMNS
    ]
    calls += [r_code for _, r_code in ARGUMENT_CALLS]
    script = "suppressMessages(library(jsonlite))\n" + ARGUMENT_SETUP_R + "\n"
    script += "\n".join(f"cat({call}, '\\n', sep = '')" for call in calls)
    expected = [_payload_json(p, c) for p, _ in PAYLOAD_VALUES for _, c, _ in PAYLOAD_COLUMNS]
    expected += _argument_results()
    assert _r_json(script) == expected


# -- the site -------------------------------------------------------------------------------------


@pytest.mark.skipif(importlib.util.find_spec("mkdocs") is None, reason="needs mkdocs (the docs extra)")
def test_site_builds_strictly(tmp_path: Path) -> None:
    """``mkdocs build --strict``: no warning, no broken link or anchor, every API page renders."""
    run = subprocess.run(
        [sys.executable, "-m", "mkdocs", "build", "--strict", "--site-dir", str(tmp_path / "site")],
        cwd=ROOT,
        capture_output=True,
        text=True,
        env={**os.environ, "NO_MKDOCS_2_WARNING": "1"},
    )
    assert run.returncode == 0, run.stderr[-3000:]
    api = (tmp_path / "site" / "reference" / "mcplite" / "index.html").read_text(encoding="utf-8")
    assert 'id="mcplite.McpServer"' in api


if __name__ == "__main__":
    rewrite_tables()
