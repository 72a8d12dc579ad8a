"""Every case of the jsonlite 1.8.4 conformance corpus under every option set, byte for byte."""

from __future__ import annotations

import json
import warnings
from pathlib import Path

import pytest

import rvalues
from rvalues.json import JsonOptions, to_json
from rvalues.json.api import encode_with

DATA = Path(__file__).parent / "data" / "conformance"
CASES = [
    json.loads(line)
    for line in (DATA / "jsonlite-1.8.4.jsonl").read_text(encoding="utf-8").split("\n")
    if line
]
OPTION_SETS: dict[str, dict] = json.loads((DATA / "option-sets.json").read_text())

# rdesc describes a complex element with any NA or NaN part as NA (R's is.na), so it cannot carry
# complex(real = Inf, imaginary = NaN); the value is built from its expression instead.
LOSSY = {"cases_public-091": lambda: rvalues.Complex([complex(float("inf"), float("nan"))])}

PAIRS = [
    pytest.param(case, out, id=f"{case['id']}-{out['options']}")
    for case in CASES
    if "construct_error" not in case
    for out in case["outputs"]
]


pytestmark = pytest.mark.usefixtures("utc")


@pytest.mark.parametrize(("case", "expected"), PAIRS)
def test_corpus(case: dict, expected: dict) -> None:
    build = LOSSY.get(case["id"])
    value = build() if build else rvalues.from_description(case["value"])
    options = JsonOptions.from_jsonlite(OPTION_SETS[expected["options"]])
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        if "error" in expected:
            with pytest.raises(rvalues.RValueError) as err:
                encode_with(value, options)
            assert str(err.value) == expected["error"]
        else:
            assert encode_with(value, options) == expected["json"]


def test_corpus_size() -> None:
    assert len(CASES) == 207
    assert len(PAIRS) == (207 - sum("construct_error" in c for c in CASES)) * 29


def test_keyword_api_matches_options() -> None:
    value = rvalues.c(1.5, 2.25)
    assert to_json(value, digits=1, auto_unbox=True) == "[1.5,2.2]"
