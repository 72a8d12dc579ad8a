"""R 4.2.2's formatting of doubles: ``as.character``, ``format(x, digits)``, ``format.info``.

Every expected value comes from ``tests/data/print-r-4.2.2.json`` (written by R).
"""

from __future__ import annotations

from typing import Any

import numpy as np
import pytest
from print_corpus import doubles, load_print_corpus

from rvalues.format.real_text import (
    RealFormat,
    as_character_double,
    encode_real,
    format_real,
    format_real_info,
)
from rvalues.na import NA_REAL

CASES = [c for c in load_print_corpus() if c["value"]["type"] == "double" and c["kind"] != "print"]


def _id(case: dict[str, Any]) -> str:
    return f"{case['id']}-{case['kind']}-{case['expr']}-d{case.get('digits', '')}"


def _by_kind(kind: str) -> list[dict[str, Any]]:
    return [c for c in CASES if c["kind"] == kind]


@pytest.mark.parametrize("case", _by_kind("as_character"), ids=_id)
def test_as_character_matches_r(case: dict[str, Any]) -> None:
    x = doubles(case["value"]["values"])
    assert as_character_double(x).tolist() == case["output"]


@pytest.mark.parametrize("case", _by_kind("format"), ids=_id)
def test_format_matches_r(case: dict[str, Any]) -> None:
    x = doubles(case["value"]["values"])
    assert format_real(x, case["digits"]).tolist() == case["output"]


@pytest.mark.parametrize("case", _by_kind("format_info"), ids=_id)
def test_format_info_matches_r(case: dict[str, Any]) -> None:
    x = doubles(case["value"]["values"])
    assert list(format_real_info(x, case["digits"])) == case["output"]


@pytest.mark.parametrize("case", _by_kind("format_each"), ids=_id)
def test_format_each_element_matches_r(case: dict[str, Any]) -> None:
    x = doubles(case["value"]["values"])
    got = [format_real(x[i : i + 1], case["digits"])[0] for i in range(len(x))]
    assert got == case["output"]


def _r_as_character(value: float) -> str | None:
    """What R gave for as.character(value) in the corpus (looked up, never typed)."""
    case = _by_kind("as_character")[0]
    x = doubles(case["value"]["values"])
    target = np.array([value])
    for i, v in enumerate(x):
        if v.tobytes() == target.tobytes():
            return case["output"][i]  # type: ignore[no-any-return]
    raise KeyError(value)


@pytest.mark.parametrize("value", [1e5, 123456.0, 0.1 + 0.2, 1 / 3, 1e15, -0.0, float("inf"), 9999999.7])
def test_brief_examples(value: float) -> None:
    assert as_character_double(np.array([value]))[0] == _r_as_character(value)


def test_na_is_none_and_nan_is_text() -> None:
    out = as_character_double(np.array([NA_REAL, float("nan")]))
    assert out[0] is None
    assert out[1] == _r_as_character(float("nan"))


def test_encode_pads_to_common_width() -> None:
    wanted = "c(NA, 1.5, NaN, Inf, -Inf)"
    case = next(c for c in _by_kind("format") if c["expr"] == wanted and c["digits"] == 7)
    x = doubles(case["value"]["values"])
    fmt = format_real_info(x, 7)
    assert isinstance(fmt, RealFormat)
    assert encode_real(x, fmt).tolist() == case["output"]


def test_large_vectors_are_fast() -> None:
    rng = np.random.default_rng(7)
    x = rng.normal(size=200_000) * 10.0 ** rng.integers(-20, 20, 200_000)
    assert len(as_character_double(x)) == len(x)
    assert len(format_real(x)) == len(x)
