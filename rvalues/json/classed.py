"""Encoders for factors, dates and date-times (jsonlite's asJSON methods for factor, Date, POSIXt)."""

from __future__ import annotations

from typing import Any

import numpy as np

import rvalues.json.time_cells as time_cells  # a module: its threshold is read when called (tests change it)
from rvalues._speedups import writer as compiled
from rvalues.format.datetime import (
    dense_codes,
    epoch_ms,
    few_dates,
    few_posixct,
    format_date,
    format_posixct,
    join_pieces,
    unshown_text,
)
from rvalues.format.strftime import posixct_fields, r_strftime
from rvalues.format.timezones import tzone_of
from rvalues.json.atomic import (
    array_text,
    character_from,
    character_na_token,
    compiled_array,
    encode_coded_strings,
    finish,
)
from rvalues.json.collapse import collapse
from rvalues.json.context import Ctx, prefix_tokens
from rvalues.json.factor_cells import factor_codes, level_labels
from rvalues.json.frames import encode_frame
from rvalues.json.options import JsonliteError
from rvalues.json.posixlt import posixlt_fields, posixlt_seconds, posixlt_text
from rvalues.json.strings import escape_array
from rvalues.json.time_cells import coded_cell, quoted_pieces, time_options_set
from rvalues.model.build import build
from rvalues.model.classes import implicit_class
from rvalues.model.elements import INT_MAX
from rvalues.model.frames import automatic_row_names
from rvalues.model.strings import shorten
from rvalues.na import NA_INTEGER, NA_REAL


def _double(values: np.ndarray, names: Any = None) -> Any:
    return build("double", values, None if names is None else {"names": names})


_FEW_DATES = 64  # up to this many go through numpy's coded path; more to the compiled writer as one array


def encode_factor(x: Any, ctx: Ctx) -> Any:
    """The labels as strings, or with factor="integer" the codes."""
    if ctx.factor == "integer":
        return ctx.encode(x, ctx.but(keep_vec_names=False), implicit_class(x))
    table = level_labels(x)
    codes = factor_codes(x.data)
    names = x.attributes.get("names") if ctx.keep_vec_names else None
    if names is None or not len(names.data):
        return encode_coded_strings(codes, table, ctx)
    labels = np.append(table, [None])[codes]
    return ctx.encode(character_from(labels, names), ctx)


def encode_date(x: Any, ctx: Ctx) -> Any:
    """Date="ISO8601": format(x) as strings; "epoch": the day counts as numbers."""
    names = x.attributes.get("names")
    named = ctx.keep_vec_names and names is not None and len(names.data)
    if ctx.date != "epoch" and not named and len(x.data) <= time_cells.FEW_TIMES:
        texts = _few_date_texts(x.data.tolist() if x.r_type == "double" else _int_days(x.data).tolist())
        if texts is not None:  # always_decimal, which the child drops, does not touch strings
            return _quoted_few(texts, ctx)
    data = np.asarray(x.data, dtype=np.float64) if x.r_type == "double" else _int_days(x.data)
    child = ctx.but(always_decimal=False)
    if ctx.date == "epoch":
        if x.r_type == "integer":
            bare = build("integer", x.data, None if names is None else {"names": names})
            return ctx.encode(bare, child)
        return ctx.encode(_double(x.data, names), child)
    if named or (np.abs(data) > INT_MAX).any():
        return ctx.encode(character_from(format_date(data), names), child)
    if x.r_type == "double" and compiled_array(len(data), _FEW_DATES, ctx):
        text = array_text(compiled.date_cells(data, character_na_token(child)), ctx)
        if text is not None:
            return text
    # format each distinct day once
    finite = np.isfinite(data)
    codes = np.empty(len(data), dtype=np.int64)
    uniq, inverse = dense_codes(np.floor(data[finite]))
    codes[finite] = inverse
    odd = data[~finite]
    codes[~finite] = len(uniq) + np.arange(len(odd))
    labels = format_date(np.concatenate([uniq, odd]))
    missing = np.equal(labels, None)  # type: ignore[call-overload]  # numpy stubs lack None
    if missing.any():
        codes = np.where(missing[codes], -1, codes)
        labels = np.where(missing, "", labels).astype(object)
    return encode_coded_strings(codes, labels, child)


def _few_date_texts(days: list[float]) -> list[str | None] | None:
    """The day labels of a few days (None: the vectorized path writes them, as it does any day
    beyond +-2^31, which R formats as date-times)."""
    if any(abs(day) > INT_MAX for day in days):  # NaN compares false, as in numpy
        return None
    return few_dates(days)


def _quoted_few(texts: list[str | None], ctx: Ctx) -> Any:
    """A few date or date-time texts as the character method writes them (None: NA); such text
    needs no escaping, only quotes and ``ctx.prefix``."""
    prefix, na = ctx.prefix or "", character_na_token(ctx)
    na_token = None if na is None else prefix + na
    return finish([na_token if text is None else f'{prefix}"{text}"' for text in texts], ctx, prefixed=True)


def _int_days(data: np.ndarray) -> np.ndarray:
    out = data.astype(np.float64)
    out[data == NA_INTEGER] = NA_REAL
    return out


def encode_posixt(x: Any, ctx: Ctx) -> Any:
    """POSIXt="string"/"ISO8601" (in the value's zone, or UTC with ``utc``; ``time_format``
    instead when given), "epoch" (ms) or "mongo" ({"$date": ms})."""
    if x.r_type == "list":
        seconds, tzone = posixlt_seconds(x)
        names = None
    else:
        seconds = np.asarray(x.data, dtype=np.float64)
        tzone, names = tzone_of(x.attributes), x.attributes.get("names")
    if ctx.posixt == "mongo":
        return _mongo(seconds, ctx.but(prefix=None, list_tokens=False), names)
    if ctx.posixt == "epoch":
        return ctx.encode(_double(epoch_ms(seconds), names), ctx.but(always_decimal=False))
    if time_options_set(ctx):
        fields = (
            posixlt_fields(x) if x.r_type == "list" else posixct_fields(seconds, "UTC" if ctx.utc else tzone)
        )
        text = r_strftime(fields, time_format(ctx), ctx.digits_secs)
        return ctx.encode(character_from(text, names), ctx.but(always_decimal=False, prefix=None))
    if x.r_type == "list":
        text = posixlt_text(x, ctx.posixt)
    elif not (ctx.keep_vec_names and names is not None and len(names.data)):
        return _posixct_strings(seconds, tzone, ctx)
    else:
        text = format_posixct(seconds, tzone, ctx.posixt)
    return ctx.encode(character_from(text, names), ctx.but(always_decimal=False, prefix=None))


def time_format(ctx: Ctx) -> str:
    """The format jsonlite's POSIXt method hands to ``format()``: ``time_format``, else the one
    ``POSIXt`` (and ``UTC``) pick; a time_format that is not a str is R's error."""
    fmt = ctx.time_format
    if fmt is None:
        if ctx.posixt == "string":
            return ""
        return "%Y-%m-%dT%H:%M:%SZ" if ctx.utc else "%Y-%m-%dT%H:%M:%S"
    if not isinstance(fmt, str):
        error = JsonliteError("invalid 'format' argument")
        error.add_note(f"time_format must be a str such as '%Y-%m-%dT%H:%M:%S%z', not {shorten(fmt)}")
        raise error
    return fmt


def _posixct_strings(seconds: np.ndarray, tzone: str | None, ctx: Ctx) -> Any:
    """The character method for ``format(x)``: date-time text needs no escaping, so the quotes
    (and ``ctx.prefix``) go on the few distinct day and time labels instead of on every element."""
    if len(seconds) <= time_cells.FEW_TIMES:  # plain Python: numpy's per-call cost dominates
        texts = few_posixct(seconds.tolist(), tzone, ctx.posixt)
        if texts is None:
            texts = format_posixct(seconds, tzone, ctx.posixt).tolist()
        return _quoted_few(texts, ctx)
    if ctx.prefix is None and compiled_array(len(seconds), time_cells.FEW_TIMES, ctx):
        text = array_text(coded_cell(seconds, tzone, ctx), ctx)
        if text is not None:
            return text
    shown, pieces = quoted_pieces(seconds, tzone, ctx)
    if shown.all():
        return finish(join_pieces(pieces), ctx, prefixed=True)
    tokens = np.empty(len(seconds), dtype=object)
    tokens[shown] = join_pieces(pieces)
    na = character_na_token(ctx)
    others = escape_array(unshown_text(seconds[~shown]), na)
    tokens[~shown] = prefix_tokens(others, ctx.prefix)
    return finish(tokens, ctx, prefixed=True)


def _vector_row_names(names: Any, n: int) -> Any:
    """``data.frame(<named vector>)``: the names become the row names when they are unique and
    not all empty (R's ``as.data.frame.vector`` and ``data.frame``)."""
    if names is None or not n:
        return automatic_row_names(n)
    values = names.data.tolist()
    if len(set(values)) != len(values) or all(v == "" for v in values):
        return automatic_row_names(n)
    if None in values:
        raise JsonliteError("row names contain missing values")
    return names


def _mongo(seconds: np.ndarray, ctx: Ctx, names: Any = None) -> Any:
    """``{"$date": ms}`` per element through a one-column data frame (jsonlite's own route)."""
    frame = build(
        "list",
        (_double(epoch_ms(seconds)),),
        {
            "names": build("character", np.array(["$date"], dtype=object)),
            "class": build("character", np.array(["data.frame"], dtype=object)),
            "row.names": _vector_row_names(names, len(seconds)),
        },
    )
    frame_ctx = ctx.but(precision=None, use_signif=False, always_decimal=False, indent=None, collapse=False)
    tmp = encode_frame(frame, frame_ctx)
    tmp = [tmp] if isinstance(tmp, str) else list(tmp)
    missing = np.flatnonzero(np.isnan(seconds))
    if len(tmp) < len(seconds):
        # `tmp[is.na(x)] <- ...` extends tmp to the length of its logical subscript
        tmp += [None] * (len(seconds) - len(tmp))
    if len(missing):
        na_token = ctx.encode(build("character", np.array([None], dtype=object)), ctx.but(collapse=False))
        na_token = na_token[0] if isinstance(na_token, np.ndarray) else na_token
        for i in missing.tolist():
            while len(tmp) <= i:
                tmp.append(None)
            tmp[i] = na_token
    if ctx.collapse:
        return collapse(tmp, inner=False, indent=ctx.indent)
    return np.array(tmp, dtype=object)
