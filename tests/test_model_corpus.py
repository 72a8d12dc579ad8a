"""The values of the conformance corpus, rebuilt in Python and compared with R's descriptions."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest

import rvalues as rv
from rvalues.errors import RValueError
from rvalues.na import real_is_na, real_is_nan
from tests.conftest import load_corpus
from tests.model_cases import CONSTRUCT_ERRORS, PYTHON_CASES

CORPUS = load_corpus()
VALUED = [case for case in CORPUS if case.get("value")]
ERRORS = [case for case in CORPUS if "construct_error" in case]


@pytest.mark.parametrize("case", VALUED, ids=[c["id"] for c in VALUED])
def test_description_rebuilds_and_describes_back(case: dict[str, Any]) -> None:
    value = rv.from_description(case["value"])
    assert rv.describe(value) == case["value"]


def _doubles(desc: dict[str, Any]) -> list[tuple[np.ndarray, list[str]]]:
    """Every double payload in a description, with its R strings, paired with the rebuilt storage."""
    found = []
    if desc["type"] == "double":
        found.append(desc)
    for child in desc.get("values", []) if desc["type"] == "list" else []:
        found.extend(_doubles(child))
    for attribute in (desc.get("attributes") or {}).values():
        found.extend(_doubles(attribute))
    return found


@pytest.mark.parametrize("case", VALUED, ids=[c["id"] for c in VALUED])
def test_rebuilt_doubles_keep_na_apart_from_nan(case: dict[str, Any]) -> None:
    for desc in _doubles(case["value"]):
        data = rv.from_description(desc).data
        strings = desc["values"]
        assert real_is_na(data).tolist() == [s == "NA" for s in strings]
        assert real_is_nan(data).tolist() == [s == "NaN" for s in strings]
        signs = np.signbit(data[~np.isnan(data)]).tolist()
        assert signs == [s.startswith("-") for s in strings if s not in ("NA", "NaN")]


def test_rebuilt_value_gets_the_class_its_attributes_say() -> None:
    by_expr = {case["expr"]: case for case in VALUED}
    expected = {
        "factor(c('a', 'b', NA, 'a'))": rv.Factor,
        "as.Date('2020-01-02')": rv.Date,
        "as.POSIXct('2020-01-02 03:04:05', tz = 'UTC')": rv.POSIXct,
        "data.frame(x = 1:3, y = c('a', NA, 'c'))": rv.DataFrame,
        "matrix(1:6, nrow = 2)": rv.Integer,
        "list(a = 1, 2)": rv.List,
        "NULL": rv.NULLType,
    }
    for expr, cls in expected.items():
        assert type(rv.from_description(by_expr[expr]["value"])) is cls, expr


PYTHON_BUILT = [case for case in VALUED if case["expr"] in PYTHON_CASES]


def test_most_corpus_values_have_a_python_spelling() -> None:
    assert len(PYTHON_BUILT) >= 150, len(PYTHON_BUILT)


@pytest.mark.parametrize("case", PYTHON_BUILT, ids=[c["id"] for c in PYTHON_BUILT])
def test_python_constructors_build_what_r_builds(case: dict[str, Any], utc: None) -> None:
    value = PYTHON_CASES[case["expr"]]()
    assert rv.describe(value) == case["value"]


@pytest.mark.parametrize("case", ERRORS, ids=[c["id"] for c in ERRORS])
def test_python_constructors_refuse_what_r_refuses(case: dict[str, Any]) -> None:
    with pytest.raises(RValueError) as caught:
        CONSTRUCT_ERRORS[case["expr"]]()
    assert str(caught.value) == case["construct_error"]
