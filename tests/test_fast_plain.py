"""The vectorized path for plain Python payloads (rvalues.json.plain) gives the general path's bytes
(an R value per element, then jsonlite's encoders), and R's jsonlite gives the same bytes too."""

from __future__ import annotations

import datetime as dt
import json
import math
import subprocess
import tempfile
import warnings
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import mcplite
import rvalues as rv
from mcplite.payload import rjson as payload
from mcplite.payload.returned import encode_value_json, to_r
from mcplite.payload.rjson import encode_json, options_in_force
from rvalues.json import JsonOptions
from rvalues.json.plain import can_encode_plain, encode_plain
from tests.conftest import RSCRIPT

OPTION_SETS: list[dict[str, Any]] = [
    {},
    {"json_auto_unbox": False},
    {"json_null": "list", "json_na": "null"},
    {"json_na": "string", "json_auto_unbox": False, "json_null": "list"},
]

KEYS = st.sampled_from(["id", "name", "é", "", "a%b", 'q"t', "x.1", "x"])
TEXT = st.text(st.characters(blacklist_categories=("Cs",)), max_size=6)
SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(2**31) - 2, 2**31 + 2),
    st.integers(-5, 5),
    st.floats(allow_nan=True, allow_infinity=True),
    st.sampled_from([0.5, 1e-7, 1e20, -0.0, 2.0, 1 / 3]),
    TEXT,
    st.sampled_from(["</b>", "\x01", "café", "\u2028"]),
)
ODD = st.sampled_from(
    [dt.date(2020, 1, 2), np.int64(3), np.float64(1.5), rv.NA, rv.c(1, 2), rv.NA_real_, 10**30]
)


def trees(leaves: st.SearchStrategy[Any]) -> st.SearchStrategy[Any]:
    return st.recursive(
        leaves,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.lists(inner, max_size=3).map(tuple),
            st.dictionaries(KEYS, inner, max_size=4),
        ),
        max_leaves=12,
    )


RECORDS = st.lists(st.dictionaries(KEYS, trees(st.one_of(SCALARS, ODD)), max_size=5), min_size=1, max_size=8)
PAYLOADS = st.one_of(RECORDS, st.lists(trees(st.one_of(SCALARS, ODD)), min_size=1, max_size=8))


@pytest.mark.parametrize("opts", OPTION_SETS)
@settings(max_examples=50, derandomize=True, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(value=PAYLOADS)
def test_same_bytes_as_the_general_path(opts: dict[str, Any], value: Any) -> None:
    with mcplite.options(**opts):
        assert outcome(lambda: encode_value_json(value, options=options_in_force())) == outcome(
            lambda: encode_json(to_r(value), options=options_in_force())
        )


def outcome(run: Any) -> Any:
    """The text, or the type of the error raised (the general path refuses what R cannot hold)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return run()
    except (TypeError, ValueError) as err:
        return type(err)


@settings(max_examples=40, derandomize=True, deadline=None)
@given(value=PAYLOADS)
def test_tool_results_agree(value: Any) -> None:
    text = outcome(lambda: mcplite.as_tool_result(value).content[0].text)
    assert text == outcome(lambda: encode_json(to_r(value), options=options_in_force()))
    general = outcome(lambda: payload.encode(to_r(value), "structured_content", options=options_in_force()))
    fast = outcome(lambda: mcplite.tool_result(structured_content=value))
    if isinstance(general, type):
        assert fast is general
    else:
        assert (fast.content[0].text, fast.structured_content) == (general.json, general.data)


@pytest.mark.filterwarnings("ignore::rvalues.IntegerOverflowWarning")  # "big" is meant to overflow
def test_regular_records_with_every_kind() -> None:
    n = 300
    rows = [
        {"i": i, "x": i / 7, "s": f"r{i % 5}é", "b": i % 2 == 0, "n": None, "big": i * 2**33}
        for i in range(n)
    ]
    rows[7]["x"] = math.nan
    rows[8]["x"] = math.inf
    del rows[9]["s"]
    for opts in OPTION_SETS:
        with mcplite.options(**opts):
            assert encode_value_json(rows, options=options_in_force()) == encode_json(
                to_r(rows), options=options_in_force()
            )
    assert encode_value_json(list(range(-50, 5000)), options=options_in_force()) == encode_json(
        to_r(list(range(-50, 5000))), options=options_in_force()
    )


def test_irregular_elements_keep_their_errors() -> None:
    with pytest.raises(TypeError, match=r"value\[1\]\['a'\]\[0\]: dict keys must be str"):
        encode_value_json([{"a": 1}, {"a": [{1: 2}]}], options=options_in_force())
    with pytest.raises(TypeError, match=r"value\[0\]\[2\]: builtins.object"):
        encode_value_json([[1, 2, object()]], options=options_in_force())


def test_what_the_fast_path_takes() -> None:
    options = JsonOptions(auto_unbox=True)
    assert can_encode_plain([1], options) and can_encode_plain({"a": 1}, options)
    assert not can_encode_plain([], options) and not can_encode_plain("a", options)
    assert not can_encode_plain([1], JsonOptions(pretty=True))
    with pytest.raises(ValueError, match="compact JSON only"):
        encode_plain([1], JsonOptions(pretty=True), rv.as_r)


# -- against R: the JSON read by jsonlite as R lists (fromJSON(simplifyVector = FALSE)) ----------

R_SCRIPT = r"""
suppressMessages(library(jsonlite))
args <- commandArgs(TRUE)
cases <- fromJSON(args[[1]], simplifyVector = FALSE)
out <- vapply(cases, function(case) {
  x <- fromJSON(case$json, simplifyVector = FALSE)
  as.character(do.call(toJSON, c(list(x), case$options)))
}, "")
writeLines(toJSON(out), args[[2]], useBytes = TRUE)
"""

R_OPTIONS = [
    ({}, {"auto_unbox": True, "null": "null"}),
    ({"json_auto_unbox": False, "json_null": "list"}, {"auto_unbox": False, "null": "list"}),
]
JSON_SCALARS = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-(10**6), 10**6),
    st.floats(allow_nan=False, allow_infinity=False, min_value=-1e12, max_value=1e12),
    TEXT,
)
JSON_KEYS = st.sampled_from(["id", "name", "é", "a%b", 'q"t', "x"])


@pytest.mark.r
@pytest.mark.skipif(RSCRIPT is None, reason="needs Rscript with jsonlite")
def test_against_jsonlite() -> None:
    inner = st.recursive(
        JSON_SCALARS,
        lambda kids: st.one_of(st.lists(kids, max_size=3), st.dictionaries(JSON_KEYS, kids, max_size=3)),
        max_leaves=8,
    )
    records = st.lists(st.dictionaries(JSON_KEYS, inner, min_size=1, max_size=4), min_size=1, max_size=6)
    values: list[Any] = []

    @settings(max_examples=60, derandomize=True, database=None)
    @given(value=st.one_of(records, st.lists(inner, min_size=1, max_size=6)))
    def collect(value: Any) -> None:
        values.append(value)

    collect()
    values.append([{"id": i, "score": i / 3, "tag": "é" if i % 2 else None} for i in range(50)])
    cases = [{"json": json.dumps(v, ensure_ascii=False), "options": o} for v in values for _, o in R_OPTIONS]
    with tempfile.TemporaryDirectory() as tmp:
        given_path, answer_path = Path(tmp) / "in.json", Path(tmp) / "out.json"
        given_path.write_text(json.dumps(cases), encoding="utf-8")
        subprocess.run(
            [str(RSCRIPT), "--vanilla", "-e", R_SCRIPT, str(given_path), str(answer_path)],
            check=True,
            capture_output=True,
            env={"TZ": "UTC", "LANG": "C.UTF-8", "PATH": "/usr/bin:/bin"},
        )
        answers = json.loads(answer_path.read_text(encoding="utf-8"))
    k = 0
    for value in values:
        for opts, _ in R_OPTIONS:
            with mcplite.options(**opts):
                assert encode_value_json(value, options=options_in_force()) == answers[k], value
            k += 1
