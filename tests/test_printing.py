"""``format_value`` reproduces R 4.2.2's ``print(x)`` for every case of the vendored corpus.

The corpus (``tests/data/print-r-4.2.2.json``) holds each value as an rdesc description and what
``capture.output(print(x))`` gave in R (width 80, TZ=UTC). A second test regenerates it with R.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import RSCRIPT
from print_corpus import PRINT_CORPUS, SCRIPT, build, case_value, load_print_corpus

import rvalues
from rvalues.printing import format_html, format_value

PRINT_CASES = [c for c in load_print_corpus() if c["kind"] == "print"]


def _id(case: dict[str, Any]) -> str:
    return f"{case['id']}-{case['expr'][:60]}"


@pytest.fixture(autouse=True)
def _utc(utc: None) -> Iterator[None]:
    yield


@pytest.mark.parametrize("case", PRINT_CASES, ids=_id)
def test_print_matches_r(case: dict[str, Any]) -> None:
    assert format_value(case_value(case)) == case["output"]


def _has_nan_complex(case: dict[str, Any]) -> bool:
    parts = case.get("parts")
    return parts is not None and "NaN" in parts["re"] + parts["im"]


@pytest.mark.parametrize("case", [c for c in PRINT_CASES if not _has_nan_complex(c)], ids=_id)
def test_print_of_model_values_matches_r(case: dict[str, Any]) -> None:
    """The same through the model's own builder (``rvalues.from_description``) and ``repr``."""
    value = rvalues.from_description(case["value"])
    assert repr(value) == case["output"]


def _case(expr: str) -> dict[str, Any]:
    return next(c for c in PRINT_CASES if c["expr"] == expr)


def test_constructors_print_as_r() -> None:
    x = rvalues.c(1.5, rvalues.NA, float("nan"), float("inf"), float("-inf"))
    assert repr(x) == _case("c(1.5, NA, NaN, Inf, -Inf)")["output"]
    df = rvalues.data_frame(x=[1, 2, 3], y=["a", None, "c"])
    assert repr(df) == _case('data.frame(x = 1:3, y = c("a", NA, "c"))')["output"]
    assert repr(rvalues.factor(["a", "b", None, "a"])) == _case('factor(c("a", "b", NA, "a"))')["output"]
    assert repr(rvalues.unbox(1.5)) == _case("jsonlite::unbox(1.5)")["output"]


def test_html_table_is_escaped_and_typed() -> None:
    expr = 'data.frame(x = c(1.5, NA, -3), f = factor(c("u", NA, "v")), l = c(TRUE, NA, FALSE))'
    df = build(_case(expr)["value"])
    html = format_html(df)
    assert html.startswith('<table class="rvalues-data-frame">')
    assert "<th>&lt;dbl&gt;</th><th>&lt;fct&gt;</th><th>&lt;lgl&gt;</th>" in html
    assert '<span class="na">&lt;NA&gt;</span>' in html
    assert "<tr><th>1</th><td>1.5</td><td>u</td><td>TRUE</td></tr>" in html
    tricky = rvalues.data_frame(s=["<b>&"])
    assert "<td>&lt;b&gt;&amp;</td>" in format_html(tricky)


def test_html_cuts_long_frames() -> None:
    df = rvalues.data_frame(x=list(range(1000)))
    html = format_html(df, max_rows=10)
    assert html.count("<tr>") == 2 + 10 + 1
    assert "&vellip;" in html


def test_printing_a_large_vector_is_fast() -> None:
    x = rvalues.Double(np.arange(1_000_000) / 7)
    lines = format_value(x).splitlines()
    assert lines[-1] == ' [ reached getOption("max.print") -- omitted 900001 entries ]'


@pytest.mark.r
@pytest.mark.skipif(RSCRIPT is None, reason="needs Rscript")
def test_vendored_corpus_is_what_r_prints(tmp_path: Path) -> None:
    out = tmp_path / "print.json"
    env = {**os.environ, "TZ": "UTC"}
    subprocess.run([RSCRIPT, str(SCRIPT), str(out)], check=True, env=env, capture_output=True)
    assert json.loads(out.read_text(encoding="utf-8")) == json.loads(PRINT_CORPUS.read_text(encoding="utf-8"))


OPTION_CASES = [c for c in load_print_corpus() if c["kind"] == "print_options"]


@pytest.mark.parametrize(
    "case", OPTION_CASES, ids=lambda c: f"{c['id']}-w{c['options']['width']}-{c['expr'][:40]}"
)
def test_print_under_other_options_matches_r(case: dict[str, Any], monkeypatch: pytest.MonkeyPatch) -> None:
    from rvalues.printing import options

    monkeypatch.setattr(options, "WIDTH", case["options"]["width"])
    monkeypatch.setattr(options, "MAX_PRINT", case["options"]["max.print"])
    assert format_value(case_value(case)) == case["output"]
