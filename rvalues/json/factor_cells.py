"""A factor's codes as indexes into its level tokens, and a factor column as cells for the compiled
writer (``tokens[codes]``): each level is escaped once, not once per row.

The factor encoder (:func:`rvalues.json.classed.encode_factor`) and the frame writer
(:mod:`rvalues.json.frame_text`) both read them, so they sit below both.

>>> from rvalues import factor
>>> factor_codes(factor(["b", None, "a"]).data)
[1, -1, 0]
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rvalues._speedups import writer as compiled
from rvalues.json.atomic import character_na_token, coded_tokens
from rvalues.json.context import Ctx
from rvalues.na import NA_INTEGER

FEW_CODES = 64
"""Fewer codes are read in plain Python: numpy's per-call cost would dominate."""

NO_LEVELS = np.array([], dtype=object)


def factor_codes(data: np.ndarray) -> list[int] | np.ndarray:
    """R's codes (from 1; NA) as indexes into the level tokens (from 0; -1, the last, for NA and
    for a code of 0, which R shows as NA): a list for a few, else an int64 array."""
    if len(data) <= FEW_CODES:
        return [-1 if c == NA_INTEGER else c - 1 for c in data.tolist()]
    codes = np.asarray(data, dtype=np.int64)
    return np.where(codes == NA_INTEGER, -1, codes - 1)


def level_labels(x: Any) -> np.ndarray:
    """A factor's levels as an object array (none: empty)."""
    levels = x.attributes.get("levels")
    return NO_LEVELS if levels is None else levels.data  # type: ignore[no-any-return]


def factor_cell(x: Any, ctx: Ctx) -> compiled.Cell | None:
    """A factor column's cells (data-frame rows) for the compiled writer: ``tokens[codes]``, or for
    a few rows their labels as strings. None where ``encode_factor`` takes another way
    (``factor="integer"``)."""
    if ctx.factor == "integer" or x.r_type != "integer":
        return None
    codes = factor_codes(x.data)
    if isinstance(codes, list):
        entries = [*level_labels(x).tolist(), None]
        return compiled.string_cells([entries[code] for code in codes], character_na_token(ctx))
    return compiled.table_cells(codes, coded_tokens(level_labels(x), ctx))
