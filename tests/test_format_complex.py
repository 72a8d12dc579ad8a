"""R 4.2.2's formatting of complex numbers: ``as.character``, ``format``, and per-element ``format``
(what jsonlite's ``complex = "string"`` uses). Expected values come from the vendored R corpus."""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from print_corpus import complexes, load_print_corpus

from rvalues.errors import RValueError
from rvalues.format.complex_text import (
    as_character_complex,
    format_complex,
    format_complex_vector,
    fround,
    signif_complex,
)

CASES = [c for c in load_print_corpus() if c["value"]["type"] == "complex" and c["kind"] != "print"]


def _id(case: dict[str, Any]) -> str:
    return f"{case['id']}-{case['kind']}-{case['expr']}-d{case.get('digits', '')}"


@pytest.mark.parametrize("case", [c for c in CASES if c["kind"] == "as_character"], ids=_id)
def test_as_character_matches_r(case: dict[str, Any]) -> None:
    assert as_character_complex(complexes(case)).tolist() == case["output"]


@pytest.mark.parametrize("case", [c for c in CASES if c["kind"] == "format_each"], ids=_id)
def test_each_element_matches_r(case: dict[str, Any]) -> None:
    assert format_complex(complexes(case), case["digits"]).tolist() == case["output"]


@pytest.mark.parametrize("case", [c for c in CASES if c["kind"] == "format"], ids=_id)
def test_vector_format_matches_r(case: dict[str, Any]) -> None:
    assert format_complex_vector(complexes(case), case["digits"]).tolist() == case["output"]


def _r_format(value: complex, digits: int) -> str:
    """R's format(value, digits = digits) as recorded in the corpus."""
    case = next(c for c in CASES if c["kind"] == "format_each" and c["digits"] == digits)
    z = complexes(case)
    target = np.array([value]).tobytes()
    for i in range(len(z)):
        if z[i : i + 1].tobytes() == target:
            return case["output"][i]  # type: ignore[no-any-return]
    raise KeyError(value)


@pytest.mark.parametrize(
    ("value", "digits"),
    [(1234567.891 + 0.000123j, 7), (3.14159265 - 1j, 4), (1e10 + 1j, 7), (complex(float("inf"), 1), 7)],
)
def test_brief_examples(value: complex, digits: int) -> None:
    assert format_complex(np.array([value]), digits)[0] == _r_format(value, digits)


def test_rounding_helpers_agree_with_r() -> None:
    # R: round(0.15, 1), round(2.5, 0), round(1234.5678, -2); signif(1234567.891+0.000123i, 7)
    assert (fround(0.15, 1), fround(2.5, 0), fround(1234.5678, -2)) == (0.1, 2.0, 1200.0)
    assert signif_complex(np.array([1234567.891 + 0.000123j]), 7)[0] == 1234568 + 0j


def test_digits_outside_r_range_raise_r_error() -> None:
    # R: format(1+2.5i, digits = 0) -> "invalid value 0 for 'digits' argument"; vapply over
    # complex(0) never calls format, so it does not fail
    with pytest.raises(RValueError, match="invalid value 0 for 'digits' argument"):
        format_complex(np.array([1 + 2.5j]), 0)
    with pytest.raises(RValueError, match="invalid value 23 for 'digits' argument"):
        format_complex_vector(np.array([1 + 2.5j]), 23)
    assert format_complex(np.array([], dtype=complex), 0).tolist() == []
