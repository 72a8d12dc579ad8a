"""Encoders for factors, dates and date-times (jsonlite's asJSON methods for factor, Date, POSIXt)."""

from __future__ import annotations

from typing import Any

import numpy as np

from rvalues.format.datetime import (
    days_from_civil,
    dense_codes,
    epoch_ms,
    format_date,
    format_posixct,
    join_pieces,
    posixct_pieces,
    unshown_text,
    utc_offsets,
    ymd,
)
from rvalues.json.collapse import collapse
from rvalues.json.context import Ctx, prefix_tokens
from rvalues.model.elements import INT_MAX
from rvalues.model.na import NA_INTEGER, NA_REAL
from rvalues.model.timezones import tzone_of


def _character(values: np.ndarray, names: Any = None) -> Any:
    from rvalues.model.vectors import Character

    return Character._wrap(values) if names is None else Character._wrap(values, {"names": names})


def _double(values: np.ndarray, names: Any = None) -> Any:
    from rvalues.model.vectors import Double

    return Double._wrap(values) if names is None else Double._wrap(values, {"names": names})


def encode_factor(x: Any, ctx: Ctx) -> Any:
    """The labels as strings, or with factor="integer" the codes."""
    from rvalues.json.dispatch import encode, implicit_class

    if ctx.factor == "integer":
        return encode(x, ctx.but(keep_vec_names=False), implicit_class(x))
    levels = x.attributes.get("levels")
    table = np.array([] if levels is None else levels.data.tolist(), dtype=object)
    codes = np.asarray(x.data, dtype=np.int64)
    codes = np.where(codes == NA_INTEGER, -1, codes - 1)
    names = x.attributes.get("names") if ctx.keep_vec_names else None
    if names is None or not len(names.data):
        from rvalues.json.atomic import encode_coded_strings

        return encode_coded_strings(codes, table, ctx)
    labels = np.append(table, [None])[codes]
    return encode(_character(labels, names), ctx)


def encode_date(x: Any, ctx: Ctx) -> Any:
    """Date="ISO8601": format(x) as strings; "epoch": the day counts as numbers."""
    from rvalues.json.dispatch import encode

    names = x.attributes.get("names")
    data = np.asarray(x.data, dtype=np.float64) if x.r_type == "double" else _int_days(x.data)
    child = ctx.but(always_decimal=False)
    if ctx.date == "epoch":
        if x.r_type == "integer":
            from rvalues.model.vectors import Integer

            bare = Integer._wrap(x.data) if names is None else Integer._wrap(x.data, {"names": names})
            return encode(bare, child)
        return encode(_double(x.data, names), child)
    if (ctx.keep_vec_names and names is not None and len(names.data)) or (np.abs(data) > INT_MAX).any():
        return encode(_character(format_date(data), names), child)
    from rvalues.json.atomic import encode_coded_strings

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


def _int_days(data: np.ndarray) -> np.ndarray:
    out = data.astype(np.float64)
    out[data == NA_INTEGER] = NA_REAL
    return out


def posixlt_seconds(x: Any) -> tuple[np.ndarray, str | None]:
    """``as.POSIXct(<POSIXlt>)``: seconds since the epoch from the broken-down fields."""
    fields = dict(zip(x.keys(), x.data))

    def col(name: str) -> np.ndarray:
        return np.asarray(fields[name].data, dtype=np.float64)

    year, mon, mday = col("year") + 1900, col("mon"), col("mday")
    days = days_from_civil(year, mon + 1, mday)
    sec = col("sec")
    with np.errstate(invalid="ignore"):
        whole_sec = np.floor(sec)
        # R's as.POSIXct: mktime() of the whole seconds, then the fraction added last
        local = days * 86400 + col("hour") * 3600 + col("min") * 60 + whole_sec
        fraction = sec - whole_sec
    tzone = tzone_of(x.attributes)
    if "gmtoff" in fields:
        off = col("gmtoff")
        if not np.isnan(off).any():
            return (local - off) + fraction, tzone
    with np.errstate(invalid="ignore"):
        guess = np.where(np.isfinite(local), local, 0).astype(np.int64)
    off = utc_offsets(guess, tzone)
    off = utc_offsets(guess - off, tzone)
    return (local - off) + fraction, tzone


def encode_posixt(x: Any, ctx: Ctx) -> Any:
    """POSIXt="string"/"ISO8601" (in the value's zone), "epoch" (ms) or "mongo" ({"$date": ms})."""
    from rvalues.json.dispatch import encode

    if x.r_type == "list":
        seconds, tzone = posixlt_seconds(x)
        names = None
    else:
        seconds = np.asarray(x.data, dtype=np.float64)
        tzone, names = tzone_of(x.attributes), x.attributes.get("names")
    if ctx.posixt == "mongo":
        return _mongo(seconds, ctx.but(prefix=None), names)
    if ctx.posixt == "epoch":
        return encode(_double(epoch_ms(seconds), names), ctx.but(always_decimal=False))
    if x.r_type == "list":
        text = _posixlt_text(x, ctx.posixt)
    elif not (ctx.keep_vec_names and names is not None and len(names.data)):
        return _posixct_strings(seconds, tzone, ctx)
    else:
        text = format_posixct(seconds, tzone, ctx.posixt)
    return encode(_character(text, names), ctx.but(always_decimal=False, prefix=None))


def _posixct_strings(seconds: np.ndarray, tzone: str | None, ctx: Ctx) -> Any:
    """The character method for ``format(x)``: date-time text needs no escaping, so the quotes
    (and ``ctx.prefix``) go on the few distinct day and time labels instead of on every element."""
    from rvalues.json.atomic import character_na_token, finish
    from rvalues.json.strings import escape_array

    shown, pieces = posixct_pieces(seconds, tzone, ctx.posixt)
    lead = (ctx.prefix or "") + '"'
    (first, first_codes), *rest = pieces
    pieces = [(np.add(lead, first), first_codes), *rest]
    last, last_codes = pieces[-1]
    pieces[-1] = (np.add(last, '"'), last_codes)
    if shown.all():
        return finish(join_pieces(pieces), ctx, prefixed=True)
    tokens = np.empty(len(seconds), dtype=object)
    tokens[shown] = join_pieces(pieces)
    na = character_na_token(ctx)
    others = escape_array(unshown_text(seconds[~shown]), na)
    tokens[~shown] = prefix_tokens(others, ctx.prefix)
    return finish(tokens, ctx, prefixed=True)


def _posixlt_text(x: Any, style: str) -> np.ndarray:
    from rvalues.format.datetime import _TWO

    fields = dict(zip(x.keys(), x.data))
    sec = np.asarray(fields["sec"].data, dtype=np.float64)
    mins = np.asarray(fields["min"].data, dtype=np.int64)
    hour = np.asarray(fields["hour"].data, dtype=np.int64)
    year = np.asarray(fields["year"].data, dtype=np.float64) + 1900
    days = days_from_civil(
        year, np.asarray(fields["mon"].data) + 1.0, np.asarray(fields["mday"].data, dtype=np.float64)
    )
    out = np.empty(len(sec), dtype=object)
    ok = np.isfinite(sec) & np.isfinite(days)
    date = ymd(days[ok].astype(np.int64))
    if style == "string" and ((sec[ok] == 0) & (mins[ok] == 0) & (hour[ok] == 0)).all():
        out[ok] = date.astype(object)
        return out
    s = np.floor(sec[ok]).astype(np.int64)
    hms = np.strings.add(
        np.strings.add(np.strings.add(_TWO[hour[ok]], ":"), _TWO[mins[ok]]), np.strings.add(":", _TWO[s])
    )
    out[ok] = np.strings.add(np.strings.add(date, "T" if style == "ISO8601" else " "), hms).astype(object)
    return out


def _vector_row_names(names: Any, n: int) -> Any:
    """``data.frame(<named vector>)``: the names become the row names when they are unique and
    not all empty (R's ``as.data.frame.vector`` and ``data.frame``)."""
    from rvalues.model.frames import automatic_row_names

    if names is None or not n:
        return automatic_row_names(n)
    values = names.data.tolist()
    if len(set(values)) != len(values) or all(v == "" for v in values):
        return automatic_row_names(n)
    if None in values:
        from rvalues.json.options import JsonliteError

        raise JsonliteError("row names contain missing values")
    return names


def _mongo(seconds: np.ndarray, ctx: Ctx, names: Any = None) -> Any:
    """``{"$date": ms}`` per element through a one-column data frame (jsonlite's own route)."""
    from rvalues.json.dispatch import encode
    from rvalues.json.frames import encode_frame
    from rvalues.model.lists import List
    from rvalues.model.vectors import Character

    frame = List._wrap(
        (_double(epoch_ms(seconds)),),
        {
            "names": Character._wrap(np.array(["$date"], dtype=object)),
            "class": Character._wrap(np.array(["data.frame"], dtype=object)),
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
        na_token = encode(Character._wrap(np.array([None], dtype=object)), ctx.but(collapse=False))
        na_token = na_token[0] if isinstance(na_token, np.ndarray) else na_token
        for i in missing.tolist():
            while len(tmp) <= i:
                tmp.append(None)
            tmp[i] = na_token
    if ctx.collapse:
        return collapse(tmp, inner=False, indent=ctx.indent)
    return np.array(tmp, dtype=object)
