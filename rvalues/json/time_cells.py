"""Date and date-time columns as cells for the compiled writer, and the quoted day and time labels
the pure path joins: what :mod:`rvalues.json.classed` writes for them, without a string per element.

Both the classed encoders (long collapsed vectors) and the frame writer (rows) read them, so they
sit below both.

>>> import numpy as np
>>> from rvalues.json.dispatch import top
>>> from rvalues.json.options import JsonOptions
>>> shown, pieces = quoted_pieces(np.array([0.0, 86400.0]), "UTC", top(JsonOptions()))
>>> shown.tolist(), [labels.tolist() for labels, _ in pieces]
([True, True], [['"1970-01-01"', '"1970-01-02"']])
"""

from __future__ import annotations

from typing import Any

import numpy as np

from rvalues._speedups import writer as compiled
from rvalues.format.datetime import (
    Pieces,
    few_posixct,
    format_posixct,
    posixct_clock,
    posixct_pieces,
    unshown_text,
)
from rvalues.format.timezones import tzone_of
from rvalues.json.atomic import character_na_token
from rvalues.json.context import Ctx
from rvalues.json.strings import escape_array

FEW_TIMES = 16
"""Date-time vectors up to this long are formatted in plain Python (numpy's per-call cost dominates)."""


def quoted_pieces(seconds: np.ndarray, tzone: str | None, ctx: Ctx) -> tuple[np.ndarray, Pieces]:
    """``posixct_pieces`` with the quotes (and ``ctx.prefix``) on the first and last labels."""
    shown, pieces = posixct_pieces(seconds, tzone, ctx.posixt)
    lead = (ctx.prefix or "") + '"'
    (first, first_codes), *rest = pieces
    pieces = [(np.add(lead, first), first_codes), *rest]
    last, last_codes = pieces[-1]
    pieces[-1] = (np.add(last, '"'), last_codes)
    return shown, pieces


def time_options_set(ctx: Ctx) -> bool:
    """Whether ``utc``, ``time_format`` or ``digits_secs`` is set: date-times then take the general
    formatter (:mod:`rvalues.format.strftime`), not the fast paths here nor the compiled writer."""
    return ctx.utc or ctx.time_format is not None or ctx.digits_secs is not None


def date_cell(x: Any, ctx: Ctx) -> compiled.Cell | None:
    """A Date column's cells (data-frame rows) for the compiled writer, or None."""
    if ctx.date == "epoch" or x.r_type != "double":
        return None
    return compiled.date_cells(x.data, character_na_token(ctx.but(always_decimal=False)))


def posixct_cell(x: Any, ctx: Ctx) -> compiled.Cell | None:
    """A POSIXct column's cells (data-frame rows) for the compiled writer: its text as coded pieces,
    written without a string per element; a few elements as their texts (which need no escaping).
    None where ``encode_posixt`` takes another way."""
    if x.r_type == "list" or ctx.posixt in ("mongo", "epoch") or time_options_set(ctx):
        return None
    seconds = np.asarray(x.data, dtype=np.float64)
    tzone = tzone_of(x.attributes)
    if len(seconds) <= FEW_TIMES:
        texts = few_posixct(seconds.tolist(), tzone, ctx.posixt)
        if texts is None:
            texts = format_posixct(seconds, tzone, ctx.posixt).tolist()
        return compiled.string_cells(texts, character_na_token(ctx))
    return coded_cell(seconds, tzone, ctx)


def coded_cell(seconds: np.ndarray, tzone: str | None, ctx: Ctx) -> compiled.Cell | None:
    """Date-times as the compiled writer's cells: local days and times of day (or, where those do
    not apply, coded labels), the unshown ones as escaped text; None without the extension."""
    if not compiled.available():
        return None
    shown, days, times = posixct_clock(seconds, tzone, ctx.posixt)
    others = np.empty(len(seconds), dtype=object)
    if not shown.all():
        others[~shown] = escape_array(unshown_text(seconds[~shown]), character_na_token(ctx))
    cell = compiled.clock_cells(shown, days, times, ctx.posixt == "ISO8601", others)
    if cell is not None:
        return cell
    shown, pieces = quoted_pieces(seconds, tzone, ctx.but(prefix=None))
    return compiled.coded_cells(pieces, shown, others)
