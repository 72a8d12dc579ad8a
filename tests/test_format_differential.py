"""Differential tests against R itself (skipped without Rscript): thousands of random doubles and
complex numbers, including arbitrary bit patterns and decimal ties, formatted by R and by rvalues."""

from __future__ import annotations

import json
import os
import subprocess
from pathlib import Path
from typing import Any

import numpy as np
import pytest
from conftest import RSCRIPT
from print_corpus import doubles

from rvalues.format.complex_text import as_character_complex, format_complex, format_complex_vector
from rvalues.format.real_text import as_character_double, format_real
from rvalues.model.vectors import Character, Complex, Double, Integer
from rvalues.printing import format_value
from rvalues.printing.core import print_default
from rvalues.printing.frame import print_data_frame

BATCH = Path(__file__).parent / "r" / "format_batch.R"

pytestmark = [pytest.mark.r, pytest.mark.skipif(RSCRIPT is None, reason="needs Rscript")]


def _texts(x: np.ndarray) -> list[str]:
    return [
        repr(float(v)) if np.isfinite(v) else ("NaN" if np.isnan(v) else ("Inf" if v > 0 else "-Inf"))
        for v in x
    ]


def _random_doubles(rng: np.random.Generator, n: int) -> np.ndarray:
    kind = rng.integers(0, 4)
    if kind == 0:  # arbitrary finite bit patterns
        bits = rng.integers(0, 2**63, n, dtype=np.uint64) | (
            rng.integers(0, 2, n, dtype=np.uint64) << np.uint64(63)
        )
        x = bits.view(np.float64)
        return x[np.isfinite(x)]
    if kind == 1:  # decimal numbers, where rounding ties and near-ties live
        return np.round(rng.normal(size=n) * 10.0 ** rng.integers(-8, 12, n), rng.integers(0, 9))
    if kind == 2:  # halves and near-halves
        k = rng.integers(1, 8)
        return (rng.integers(-(10**6), 10**6, n) + 0.5) / 10.0**k
    return rng.normal(size=n) * 10.0 ** rng.integers(-300, 300, n)


def _ask_r(cases: list[dict[str, Any]], tmp: Path) -> list[dict[str, Any]]:
    given, answered = tmp / "in.json", tmp / "out.json"
    given.write_text(json.dumps(cases), encoding="utf-8")
    assert RSCRIPT is not None
    subprocess.run(
        [RSCRIPT, "--vanilla", str(BATCH), str(given), str(answered)],
        check=True,
        env={**os.environ, "TZ": "UTC", "LANG": "C.UTF-8"},
        capture_output=True,
    )
    return json.loads(answered.read_text(encoding="utf-8"))  # type: ignore[no-any-return]


def test_random_doubles_agree_with_r(tmp_path: Path) -> None:
    rng = np.random.default_rng(20221031)
    cases = []
    for _ in range(300):
        x = _random_doubles(rng, int(rng.integers(1, 12)))
        if len(x) == 0:
            continue
        cases.append({"re": _texts(x), "digits": int(rng.choice([1, 2, 3, 4, 5, 7, 9, 12, 15, 16, 17]))})
    answers = _ask_r(cases, tmp_path)
    for case, r in zip(cases, answers, strict=True):
        x, d = doubles(case["re"]), case["digits"]
        assert as_character_double(x).tolist() == r["as_character"], case
        assert format_real(x, d).tolist() == r["format"], case
        assert [format_real(x[i : i + 1], d)[0] for i in range(len(x))] == r["format_each"], case
        assert format_value(Double._wrap(x)) == r["print"], case
        _check_layouts(Double._wrap(x), r, case)


def test_random_complexes_agree_with_r(tmp_path: Path) -> None:
    rng = np.random.default_rng(4)
    cases = []
    for _ in range(200):
        n = int(rng.integers(1, 6))
        re, im = _random_doubles(rng, n)[:n], _random_doubles(rng, n)[:n]
        m = min(len(re), len(im))
        if m == 0:
            continue
        cases.append(
            {"re": _texts(re[:m]), "im": _texts(im[:m]), "digits": int(rng.choice([1, 3, 4, 7, 10, 15]))}
        )
    answers = _ask_r(cases, tmp_path)
    for case, r in zip(cases, answers, strict=True):
        z = doubles(case["re"]) + 1j * 0
        z.imag = doubles(case["im"])
        d = case["digits"]
        assert as_character_complex(z).tolist() == r["as_character"], case
        assert format_complex_vector(z, d).tolist() == r["format"], case
        assert format_complex(z, d).tolist() == r["format_each"], case
        assert format_value(Complex._wrap(z)) == r["print"], case
        _check_layouts(Complex._wrap(z), r, case)


def _check_layouts(x: Any, r: dict[str, Any], case: dict[str, Any]) -> None:
    n = len(x.data)
    names = Character._wrap(np.array([f"n{i + 1}" for i in range(n)], dtype=object))
    assert format_value(type(x)._wrap(x.data, {"names": names})) == r["print_named"], case
    dim = Integer._wrap(np.array([1, n], dtype=np.int32))
    assert format_value(type(x)._wrap(x.data, {"dim": dim})) == r["print_matrix"], case


_ALPHABET = (
    [chr(c) for c in range(0x20, 0x7F)]
    + ["\n", "\t", "\x01", "\x7f", "\x1b", "\u00e9", "\u00a0", "\u00ad", "\u0301", "\u200b", "\u2028"]
    + ["\u65e5", "\u672c", "\uff21", "\u3000", "\uac00", "\U0001f600", "\u0080", "\u009f", "\u4e00", "\u0410"]
)


def test_random_strings_print_as_in_r(tmp_path: Path) -> None:
    rng = np.random.default_rng(11)
    cases = []
    for _ in range(150):
        n = int(rng.integers(1, 8))
        strings = [
            None if rng.random() < 0.1 else "".join(rng.choice(_ALPHABET, int(rng.integers(0, 12))))
            for _ in range(n)
        ]
        cases.append({"strings": strings})
    answers = _ask_r(cases, tmp_path)
    for case, r in zip(cases, answers, strict=True):
        x = Character._wrap(np.array(case["strings"], dtype=object))
        assert format_value(x) == r["print"], case
        assert "\n".join(print_default(x, quote=False)) == r["print_noquote"], case
        labels = Character._wrap(np.array(case["strings"], dtype=object))
        named = Integer._wrap(np.arange(1, len(labels.data) + 1, dtype=np.int32), {"names": labels})
        assert format_value(named) == r["print_named"], case
        assert "\n".join(print_data_frame(_frame(x))) == r["frame"], case


def _frame(column: Any) -> Any:
    from rvalues.model.lists import List

    n = len(column.data)
    return List._wrap(
        (column,),
        {
            "names": Character._wrap(np.array(["s"], dtype=object)),
            "class": Character._wrap(np.array(["data.frame"], dtype=object)),
            "row.names": Integer._wrap(np.array([-(2**31), -n], dtype=np.int32)),
        },
    )
