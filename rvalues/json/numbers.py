"""jsonlite's ``num_to_char``: numbers to JSON tokens, vectorized over whole arrays.

``digits`` counts decimal places (fixed notation, round-half-even on the binary value) for
moderate magnitudes and falls back to C's ``%.*g`` elsewhere; see jsonlite's src/num_to_char.c.

>>> num_to_char(np.array([np.pi, 100.0, 1e-5, 1e15]), 4).tolist()
['3.1416', '100', '1e-05', '1e+15']
"""

from __future__ import annotations

import functools
import math
from collections.abc import Sequence

import numpy as np

from rvalues.model.elements import INT_MAX
from rvalues.na import NA_INTEGER, is_na_float, real_is_na

NA_MODES = ("string", "null", "NA")
_SEP = "\x1f"


def format_many(fmt: str, *columns: Sequence[object]) -> list[str]:
    """``fmt % row`` for every row of the given columns, in one C-level formatting call.

    >>> format_many("%s%d", ["-", ""], [1, 2])
    ['-1', '2']
    """
    n = len(columns[0])
    if n == 0:
        return []
    k = len(columns)
    if k == 1:
        flat = columns[0]
    else:
        flat = [None] * (k * n)
        for i, col in enumerate(columns):
            flat[i::k] = col
    return (((fmt + _SEP) * n) % tuple(flat))[:-1].split(_SEP)


def format_g(values: np.ndarray, precisions: np.ndarray | int, prefix: str = "") -> list[str]:
    """C's ``sprintf("%.*g", p, v)`` for every element.

    >>> format_g(np.array([1234.5678, 0.5]), 3)
    ['1.23e+03', '0.5']
    """
    lead = prefix.replace("%", "%%")
    if isinstance(precisions, (int, np.integer)):
        return format_many(f"{lead}%.{int(precisions)}g", values.tolist())
    return format_many(lead + "%.*g", precisions.tolist(), values.tolist())


def _fixed(values: np.ndarray, prec: int, prefix: str = "") -> np.ndarray:
    """modp_dtoa2: at most ``prec`` decimals (0..9), trailing zeros dropped, ties to even."""
    neg = values < 0
    v = np.abs(values)
    whole = np.trunc(v)
    scale = 10.0**prec
    tmp = (v - whole) * scale
    frac = np.floor(tmp)
    diff = tmp - frac
    whole = whole.astype(np.int64)
    frac = frac.astype(np.int64)
    half = diff == 0.5
    if prec > 0:
        up = (diff > 0.5) | (half & (frac % 2 == 1))
    else:
        up = (diff > 0.5) | (half & (whole % 2 == 1))
    frac = frac + up
    roll = frac >= int(scale)
    frac[roll] = 0
    whole = whole + roll
    out = np.empty(len(values), dtype=object)
    if prec <= _TABLE_MAX:
        top = int(whole.max()) + 1 if len(whole) else 0
        if len(values) >= 64 and top <= len(values) // 4:
            # few distinct whole parts: each signed one and each fraction formatted once
            digits = list(map(str, range(top)))
            signed = np.array([prefix + d for d in digits] + [prefix + "-" + d for d in digits], dtype=object)
            out[:] = np.add(signed[whole + top * neg], _fractions(prec)[frac])
            return out
        # whole part by %d (its sign included), decimals from a table of every fraction
        signed = np.where(neg, -whole, whole)
        lead = prefix.replace("%", "%%")
        out[:] = format_many(lead + "%d%s", signed.tolist(), _fractions(prec)[frac].tolist())
        minus_zero = neg & (whole == 0)
        if minus_zero.any():
            cut = len(prefix)
            out[minus_zero] = np.array(
                [prefix + "-" + t[cut:] for t in out[minus_zero].tolist()], dtype=object
            )
        return out
    sign = np.where(neg, "-", "").astype(object)
    has = frac > 0
    if has.any():
        f = frac[has]
        width = np.full(len(f), prec, dtype=np.int64)
        for _ in range(prec - 1):
            zero = f % 10 == 0
            if not zero.any():
                break
            f = np.where(zero, f // 10, f)
            width -= zero
        lead = prefix.replace("%", "%%")
        out[has] = format_many(
            lead + "%s%d.%0*d", sign[has].tolist(), whole[has].tolist(), width.tolist(), f.tolist()
        )
    rest = ~has
    if rest.any():
        out[rest] = format_many(prefix.replace("%", "%%") + "%s%d", sign[rest].tolist(), whole[rest].tolist())
    return out


_TABLE_MAX = 5


@functools.lru_cache(maxsize=_TABLE_MAX + 1)
def _fractions(prec: int) -> np.ndarray:
    """``"." + digits`` (trailing zeros dropped; "" for 0) for every fraction 0..10^prec-1."""
    table = [("." + "%0*d" % (prec, i)).rstrip("0") if i else "" for i in range(10**prec)]
    return np.array(table, dtype=object)


def _finite_tokens(
    values: np.ndarray, precision: int | None, use_signif: bool, prefix: str = ""
) -> np.ndarray:
    out = np.empty(len(values), dtype=object)
    if not len(values):
        return out
    if precision is None:
        out[:] = format_g(values, 15, prefix)
        return out
    if use_signif:
        sig = math.ceil(min(15, precision))
        out[:] = format_g(values, sig if sig >= 0 else 6, prefix)
        return out
    mag = np.abs(values)
    fixed = (mag < INT_MAX) & (mag > 1e-5) if -1 < precision < 10 else np.zeros(len(values), bool)
    if fixed.any():
        out[fixed] = _fixed(values[fixed], precision, prefix)
    rest = ~fixed
    if rest.any():
        vals = values[rest]
        with np.errstate(divide="ignore"):
            logs = np.log10(np.abs(vals))
        dec = np.ceil(np.minimum(15, np.maximum(1, logs) + precision)).astype(np.int64)
        dec[dec < 0] = 6
        out[rest] = format_g(vals, dec, prefix)
    return out


def _drop_leading(strings: np.ndarray, n: int) -> np.ndarray:
    """A numpy ``U`` array's strings without their first ``n`` characters (``np.strings.slice``,
    which numpy 2.0 to 2.2 lack).

    >>> _drop_leading(np.array(["  1", "  2.5"]), 2).tolist()
    ['1', '2.5']
    """
    width = strings.dtype.itemsize // 4
    if width <= n:
        return np.zeros(len(strings), dtype="U1")
    codes = np.ascontiguousarray(strings).view(np.uint32).reshape(len(strings), width)[:, n:]
    return np.ascontiguousarray(codes).view(f"U{width - n}").reshape(len(strings))


def _always_decimal(tokens: np.ndarray, where: np.ndarray, prefix: str = "") -> None:
    if not where.any():
        return
    sub = tokens[where].astype(str)
    if prefix:
        sub = _drop_leading(sub, len(prefix))
    plain = (np.strings.find(sub, ".") < 0) & (np.strings.find(sub, "e") < 0)
    if plain.any():
        idx = np.flatnonzero(where)[plain]
        tokens[idx] = np.strings.add(prefix, np.strings.add(sub[plain], ".0")).astype(object)


# jsonlite: src/num_to_char.c R_num_to_char (doubles)
def num_to_char(
    values: np.ndarray,
    precision: int | None,
    na: str = "string",
    use_signif: bool = False,
    always_decimal: bool = False,
    prefix: str = "",
) -> np.ndarray:
    """JSON tokens (an object array of str) for a double or integer array.

    ``na``: "string" (``"NA"``, ``"NaN"``, ``"Inf"``, ``"-Inf"`` as JSON strings), "null", or
    "NA" (None: jsonlite's NA_character_, an omitted field in data-frame rows). ``prefix`` goes
    before every other token (the row-key prefix of ``rvalues.json.context``).

    >>> num_to_char(np.array([1.5, np.nan]), 4, na="null").tolist()
    ['1.5', 'null']
    """
    if values.dtype.kind in "iu":
        return int_to_char(values, na, prefix)
    values = np.asarray(values, dtype=np.float64)
    if len(values) <= SMALL:
        out = np.empty(len(values), dtype=object)
        out[:] = few_num_tokens(values, precision, na, use_signif, always_decimal, prefix)
        return out
    finite = np.isfinite(values)
    if finite.all():
        out = _finite_tokens(values, precision, use_signif, prefix)
    else:
        out = np.empty(len(values), dtype=object)
        out[finite] = _finite_tokens(values[finite], precision, use_signif, prefix)
        bad = ~finite
        if na == "NA":
            out[bad] = None
        elif na == "null":
            out[bad] = prefix + "null"
        else:
            sub = values[bad]
            labels = np.where(
                real_is_na(sub),
                '"NA"',
                np.where(np.isnan(sub), '"NaN"', np.where(sub > 0, '"Inf"', '"-Inf"')),
            )
            out[bad] = (np.strings.add(prefix, labels) if prefix else labels).astype(object)
    if always_decimal:
        _always_decimal(out, finite, prefix)
    return out


SMALL = 8
"""Arrays up to this length are formatted element by element (numpy's per-call cost dominates)."""


def few_num_tokens(
    values: np.ndarray,
    precision: int | None,
    na: str = "string",
    use_signif: bool = False,
    always_decimal: bool = False,
    prefix: str = "",
) -> list[str | None]:
    """:func:`num_to_char` of a few doubles (up to :data:`SMALL`) as a list, in plain Python (the
    same rules, one value at a time).

    >>> few_num_tokens(np.array([2.25, np.inf]), 1, prefix=":")
    [':2.2', ':"Inf"']
    """
    out: list[str | None] = []
    for val in values.tolist():
        if not math.isfinite(val):
            if na == "NA":
                out.append(None)
            elif na == "null":
                out.append(prefix + "null")
            elif is_na_float(val):
                out.append(prefix + '"NA"')
            else:
                out.append(prefix + ('"NaN"' if val != val else '"Inf"' if val > 0 else '"-Inf"'))
            continue
        if precision is None:
            text = "%.15g" % val
        elif use_signif:
            sig = math.ceil(min(15, precision))
            text = "%.*g" % (sig if sig >= 0 else 6, val)
        elif -1 < precision < 10 and 1e-5 < abs(val) < INT_MAX:
            text = _fixed_one(val, precision)
        else:
            logs = math.log10(abs(val)) if val else -math.inf
            dec = math.ceil(min(15, max(1, logs) + precision))
            text = "%.*g" % (dec if dec >= 0 else 6, val)
        if always_decimal and "." not in text and "e" not in text:
            text += ".0"
        out.append(prefix + text)
    return out


def _fixed_one(val: float, prec: int) -> str:
    """modp_dtoa2 for one value (see :func:`_fixed`)."""
    neg = val < 0
    v = -val if neg else val
    whole = int(v)
    scale = 10.0**prec
    tmp = (v - whole) * scale
    frac = int(tmp)
    diff = tmp - frac
    if diff > 0.5 or (diff == 0.5 and ((frac & 1) if prec > 0 else (whole & 1))):
        frac += 1
        if frac >= int(scale):
            frac = 0
            whole += 1
    text = str(whole)
    if prec > 0 and frac > 0:
        text += ("." + "%0*d" % (prec, frac)).rstrip("0")
    return "-" + text if neg else text


def few_int_tokens(values: np.ndarray, na: str = "string", prefix: str = "") -> list[str | None]:
    """:func:`int_to_char` of a few integers (up to :data:`SMALL`) as a list, in plain Python.

    >>> few_int_tokens(np.array([7, -(2**31)], dtype=np.int32), "null")
    ['7', 'null']
    """
    na_token = None if na == "NA" else prefix + ("null" if na == "null" else '"NA"')
    return [na_token if v == NA_INTEGER else prefix + str(v) for v in values.tolist()]


# jsonlite: src/num_to_char.c R_num_to_char (integers)
def int_to_char(values: np.ndarray, na: str = "string", prefix: str = "") -> np.ndarray:
    """Tokens for an int32 array with R's NA (INT32_MIN): ``"NA"``, ``null`` or None by ``na``;
    ``prefix`` as in :func:`num_to_char`.

    >>> int_to_char(np.array([1, -(2**31)], dtype=np.int32)).tolist()
    ['1', '"NA"']
    """
    out = np.empty(len(values), dtype=object)
    if len(values) <= SMALL:
        out[:] = few_int_tokens(values, na, prefix)
        return out
    missing = values == NA_INTEGER
    present = values[~missing] if missing.any() else values
    low, high = (int(present.min()), int(present.max())) if len(present) else (0, 0)
    if len(values) >= 64 and high - low < len(values) // 4:
        # few distinct values: format each once
        table = np.array([prefix + str(v) for v in range(low, high + 1)], dtype=object)
        out[:] = table[np.where(missing, low, values).astype(np.int64) - low]
    else:
        out[:] = format_many(prefix.replace("%", "%%") + "%d", values.tolist())
    if missing.any():
        out[missing] = None if na == "NA" else prefix + ("null" if na == "null" else '"NA"')
    return out
