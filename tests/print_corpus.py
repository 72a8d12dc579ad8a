"""The vendored R 4.2.2 printing and formatting corpus, and exact builders for its values.

``tests/data/print-r-4.2.2.json`` is written by ``tests/r/print_cases.R``. Each case holds the value
as an rdesc description; ``build`` turns it into an R value without any validation (``_wrap``), so
that printing is tested on exactly what R printed, whatever the constructors accept.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import numpy as np

from rvalues.model.lists import NULL, List
from rvalues.model.vectors import ATOMIC_TYPES
from rvalues.na import NA_INTEGER, NA_REAL

DATA = Path(__file__).parent / "data"
PRINT_CORPUS = DATA / "print-r-4.2.2.json"
SCRIPT = Path(__file__).parent / "r" / "print_cases.R"

_SPECIAL = {"NA": NA_REAL, "NaN": float("nan"), "Inf": float("inf"), "-Inf": float("-inf")}


def load_print_corpus(path: Path = PRINT_CORPUS) -> list[dict[str, Any]]:
    """All cases of the corpus, in order."""
    with path.open(encoding="utf-8") as handle:
        return json.load(handle)  # type: ignore[no-any-return]


def doubles(texts: list[str]) -> np.ndarray:
    """Doubles from rdesc's exact strings (``"%.17g"``, ``NA``, ``NaN``, ``Inf``, ``-Inf``)."""
    out = np.empty(len(texts), dtype=np.float64)
    for i, text in enumerate(texts):
        out[i] = _SPECIAL[text] if text in _SPECIAL else float(text)
    return out


def complexes(case: dict[str, Any]) -> np.ndarray:
    """The exact complex values of a case, from its ``parts`` (rdesc turns NaN+1i into NA)."""
    re = doubles(case["parts"]["re"])
    im = doubles(case["parts"]["im"])
    out = np.empty(len(re), dtype=np.complex128)
    view = out.view(np.float64)
    view[0::2] = re
    view[1::2] = im
    return out


def build(d: dict[str, Any], parts: dict[str, Any] | None = None) -> Any:
    """The R value an rdesc describes, built without checks."""
    r_type = d["type"]
    if r_type == "NULL":
        return NULL
    values = d.get("values", [])
    if r_type == "list":
        data: Any = tuple(build(v) for v in values)
    elif r_type == "double":
        data = doubles(values)
    elif r_type == "complex":
        if parts is not None:
            data = complexes({"parts": parts})
        else:
            data = np.empty(len(values), dtype=np.complex128)
            view = data.view(np.float64)
            for i, v in enumerate(values):
                view[2 * i : 2 * i + 2] = [NA_REAL, NA_REAL] if v is None else doubles(v)
    elif r_type in ("logical", "integer"):
        data = np.array([NA_INTEGER if v is None else int(v) for v in values], dtype=np.int32)
    elif r_type == "character":
        data = np.array(values, dtype=object)
    elif r_type == "raw":
        data = np.array(values, dtype=np.uint8)
    else:
        raise ValueError(f"unknown type {r_type}")
    attributes = {name: build(a) for name, a in (d.get("attributes") or {}).items()}
    cls = List if r_type == "list" else ATOMIC_TYPES[r_type]
    return cls._wrap(data, attributes)


def case_value(case: dict[str, Any]) -> Any:
    """The value of a corpus case (exact complex parts where the case has them)."""
    return build(case["value"], case.get("parts"))
