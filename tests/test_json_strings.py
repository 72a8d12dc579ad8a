"""String escaping against jsonlite: every Unicode scalar value, control characters, ``</``,
keys, the yajl re-format, and lone surrogates (which no R string can hold)."""

from __future__ import annotations

import json
import shutil
import subprocess
from typing import Any

import numpy as np
import pytest

import rvalues
from rvalues.json import to_json
from rvalues.json.strings import escape, escape_array

CHUNK = 4096
SPECIAL = [
    "",
    "a",
    '"',
    "\\",
    "/",
    "</",
    "<//",
    "<</",
    "a</b</c",
    "</script>",
    "<",
    "\n\r\t\b\f",
    "\x7f",
    "caf\u00e9",
    "\u4e2d\u6587",
    "\U0001f600",
    "\u2028\u2029",
    "\ufeff",
    "\ufffe\uffff",
    "\U0010ffff",
    "NA",
    "null",
    '\\"',
    "\\/",
    "<\\/",
    "tab\there",
    *[chr(c) for c in range(1, 32)],
    "".join(chr(c) for c in range(1, 32)) + "</x",
]


def unicode_chunks() -> list[str]:
    """Every scalar value except NUL (R strings cannot hold it), CHUNK code points per string."""
    points = [c for c in range(1, 0x110000) if not 0xD800 <= c <= 0xDFFF]
    return ["".join(map(chr, points[i : i + CHUNK])) for i in range(0, len(points), CHUNK)]


R_SCRIPT = r"""
suppressMessages(library(jsonlite))
args <- commandArgs(trailingOnly = TRUE)
special <- fromJSON(args[[1]], simplifyVector = FALSE)
special <- vapply(special, identity, "")
points <- setdiff(1:1114111, 55296:57343)
chunks <- vapply(split(points, ceiling(seq_along(points) / as.integer(args[[2]]))), intToUtf8, "")
keys <- as.list(seq_along(special)); names(keys) <- special
out <- list(
  chunks = as.character(toJSON(unname(chunks))),
  special = as.character(toJSON(special)),
  each = vapply(special, function(s) as.character(toJSON(s, auto_unbox = TRUE)), "", USE.NAMES = FALSE),
  keys = as.character(toJSON(keys, auto_unbox = TRUE)),
  pretty = as.character(toJSON(special, pretty = 2)),
  pretty_true = as.character(toJSON(list(s = special), pretty = TRUE))
)
writeLines(as.character(toJSON(out, auto_unbox = TRUE)), args[[3]], useBytes = TRUE)
"""


@pytest.fixture(scope="module")
def r_results(tmp_path_factory: pytest.TempPathFactory) -> dict[str, Any]:
    if shutil.which("Rscript") is None:
        pytest.skip("needs Rscript with jsonlite")
    tmp = tmp_path_factory.mktemp("strings")
    (tmp / "special.json").write_text(json.dumps(SPECIAL), encoding="utf-8")
    (tmp / "run.R").write_text(R_SCRIPT)
    subprocess.run(
        ["Rscript", str(tmp / "run.R"), str(tmp / "special.json"), str(CHUNK), str(tmp / "out.json")],
        check=True,
        capture_output=True,
    )
    return json.loads((tmp / "out.json").read_text(encoding="utf-8"))  # type: ignore[no-any-return]


@pytest.mark.r
def test_every_code_point(r_results: dict[str, Any]) -> None:
    chunks = unicode_chunks()
    assert sum(map(len, chunks)) == 0x110000 - 2048 - 1
    assert to_json(rvalues.Character(chunks)) == r_results["chunks"]


@pytest.mark.r
def test_special_strings(r_results: dict[str, Any]) -> None:
    assert to_json(rvalues.Character(SPECIAL)) == r_results["special"]
    assert [to_json(s, auto_unbox=True) for s in SPECIAL] == r_results["each"]


@pytest.mark.r
def test_keys_are_escaped_like_values(r_results: dict[str, Any]) -> None:
    value = rvalues.List.from_pairs([(s, i + 1) for i, s in enumerate(SPECIAL)])
    assert to_json(value, auto_unbox=True) == r_results["keys"]


@pytest.mark.r
def test_pretty_layouts_escape(r_results: dict[str, Any]) -> None:
    assert to_json(rvalues.Character(SPECIAL), pretty=2) == r_results["pretty"]
    assert to_json(rvalues.r_list(s=rvalues.Character(SPECIAL)), pretty=True) == r_results["pretty_true"]


def test_escape_one_and_many_agree() -> None:
    arr = np.array([*SPECIAL, None], dtype=object)
    assert escape_array(arr).tolist() == [*map(escape, SPECIAL), "null"]
    assert escape_array(arr, None).tolist()[-1] is None


@pytest.mark.parametrize("n", [10, 5000])
def test_escape_many_repeated_strings_as_each_alone(n: int) -> None:
    # from 4096 repetitive strings on, each distinct one is escaped once
    arr = np.array([*SPECIAL, None] * (n // (len(SPECIAL) + 1) + 1), dtype=object)[:n]
    expected = [None if v is None else escape(v) for v in arr.tolist()]
    assert escape_array(arr, None).tolist() == expected
    with pytest.raises(rvalues.RValueError, match="lone surrogate"):
        escape_array(np.append(arr, ["x\ud800y"]))


def test_lone_surrogates_are_refused_by_the_constructor() -> None:
    for bad in ("\ud800", "a\udfffb", "\udc00\ud800"):
        with pytest.raises(rvalues.RValueError):
            rvalues.Character([bad])


@pytest.mark.parametrize("where", ["value", "name", "level"])
def test_to_json_refuses_a_lone_surrogate_that_got_in(where: str) -> None:
    bad = np.array(["ok", "x\ud800y"], dtype=object)
    ch = rvalues.Character
    # the model refuses the string when the value is built, or to_json refuses it on the way out
    with pytest.raises(rvalues.RValueError, match="lone surrogate"):
        if where == "value":
            value = ch._wrap(bad)
        elif where == "name":
            value = rvalues.List._wrap((rvalues.c(1), rvalues.c(2)), {"names": ch._wrap(bad)})
        else:
            value = rvalues.Integer._wrap(
                np.array([1, 2], dtype=np.int32), {"levels": ch._wrap(bad), "class": ch(["factor"])}
            )
        to_json(value)
