"""R 4.2.2's formatting of doubles: ``formatReal`` (common width, decimals, exponent) and encoding.

The model's coercions use it too (``as.character()`` of a double is this formatting), which is
why ``rvalues.format`` sits below ``rvalues.model``.

R decides, for a whole vector at once, how many significant digits each element needs (at most
``digits``), and prints every element with the same number of decimals, in fixed notation unless
that would be wider than scientific notation (``scipen`` 0). The scaling is done in the platform's
``long double``, as R does on x86_64, so that the digit counts agree with R's bit for bit.

>>> format_real(np.array([1.0, 2.5, 3.0]))
array(['1.0', '2.5', '3.0'], dtype=object)
>>> as_character_double(np.array([1e5, 123456.0, 0.1 + 0.2]))
array(['1e+05', '123456', '0.3'], dtype=object)
"""

from __future__ import annotations

from typing import NamedTuple

import numpy as np

from rvalues.errors import RValueError
from rvalues.na import real_is_na

KP_MAX = 27
"""The largest power of ten R scales by exactly (the long-double table of format.c)."""

_LD = np.longdouble


def _long_double_powers() -> np.ndarray:
    """R's table of powers of ten: C double literals ``1e00`` ... ``1e27`` widened to long double.

    The literals are doubles, so from 1e23 on they carry the double's rounding, as in R.
    """
    return np.array([float(f"1e{k}") for k in range(KP_MAX + 1)], dtype=np.float64).astype(_LD)


_TBL = _long_double_powers()


class Scientific(NamedTuple):
    """Per element: sign, decimal exponent, significant digits, and whether rounding widens it."""

    neg: np.ndarray
    kpower: np.ndarray
    nsig: np.ndarray
    roundingwidens: np.ndarray


class RealFormat(NamedTuple):
    """R's common format of a double vector: field width, decimals, exponent digits - 1 (0: fixed)."""

    width: int
    decimals: int
    exponent: int


# R: src/main/paste.c do_format (its digits check)
def check_digits(digits: int | None) -> int:
    """Refuse what R's ``format()`` refuses: ``digits`` must be a whole number from 1 to 22.

    >>> check_digits(0)
    Traceback (most recent call last):
    ...
    rvalues.errors.RValueError: invalid value 0 for 'digits' argument
    """
    if isinstance(digits, bool) or not isinstance(digits, (int, np.integer)) or not 1 <= digits <= 22:
        shown = -(2**31) if digits is None else digits
        raise RValueError(f"invalid value {shown} for 'digits' argument")
    return int(digits)


# R: src/main/format.c scientific
def scientific(values: np.ndarray, digits: int = 7) -> Scientific:
    """R's ``scientific()`` for finite doubles: how each element is written with ``digits`` digits.

    >>> s = scientific(np.array([123456.0, 0.5, 0.0]), 3)
    >>> s.kpower.tolist(), s.nsig.tolist()
    ([5, -1, 0], [3, 1, 1])
    """
    x = np.asarray(values, dtype=np.float64)
    n = len(x)
    neg = x < 0
    r = np.abs(x)
    kpower = np.zeros(n, dtype=np.int64)
    nsig = np.ones(n, dtype=np.int64)
    widens = np.zeros(n, dtype=bool)
    nonzero = r != 0
    if not nonzero.any():
        return Scientific(neg, kpower, nsig, widens)
    if digits >= 16:
        for i in np.flatnonzero(nonzero).tolist():
            kpower[i], nsig[i] = _via_sprintf(float(r[i]), digits)
        return Scientific(neg, kpower, nsig, widens)
    rn = r[nonzero]
    with np.errstate(divide="ignore"):
        kp = np.floor(np.log10(rn)).astype(np.int64) - digits + 1
    r_prec = rn.astype(_LD)
    exact = np.abs(kp) <= KP_MAX
    pos = exact & (kp > 0)
    negk = exact & (kp < 0)
    r_prec[pos] = r_prec[pos] / _TBL[kp[pos]]
    r_prec[negk] = r_prec[negk] * _TBL[-kp[negk]]
    far = ~exact
    if far.any():
        r_prec[far] = r_prec[far] / np.power(_LD(10), kp[far].astype(_LD))
    low = r_prec < _TBL[digits - 1]
    r_prec[low] = r_prec[low] * _LD(10)
    kp[low] -= 1
    alpha = np.rint(r_prec).astype(np.float64)
    sig = np.full(len(rn), digits, dtype=np.int64)
    active = np.ones(len(rn), dtype=bool)
    for _ in range(digits):
        alpha = np.where(active, alpha / 10.0, alpha)
        whole = active & (alpha == np.floor(alpha))
        sig[whole] -= 1
        active = whole
        if not active.any():
            break
    none_left = sig == 0
    sig[none_left] = 1
    kp[none_left] += 1
    kpw = kp + digits - 1
    rgt = np.clip(digits - kpw, 0, KP_MAX)
    fuzz = 0.5 / _TBL[rgt].astype(np.float64)
    in_table = (kpw > 0) & (kpw <= KP_MAX)
    bound = _TBL[np.clip(kpw, 0, KP_MAX)] - fuzz.astype(_LD)
    wid = in_table & (rn.astype(_LD) < bound)
    kpower[nonzero] = kpw
    nsig[nonzero] = sig
    widens[nonzero] = wid
    return Scientific(neg, kpower, nsig, widens)


def _via_sprintf(r: float, digits: int) -> tuple[int, int]:
    text = f"{r:#.{digits - 1}e}"
    mantissa, _, exponent = text.partition("e")
    decimals = mantissa[2:].rstrip("0")
    return int(exponent), 1 + len(decimals)


# R: src/main/format.c formatReal
def format_real_info(
    values: np.ndarray, digits: int = 7, nsmall: int = 0, na_width: int = 2, scipen: int = 0
) -> RealFormat:
    """R's ``formatReal``: the common (width, decimals, exponent) of a double vector.

    >>> format_real_info(np.array([1.5, np.nan, 100.0]))
    RealFormat(width=5, decimals=1, exponent=0)
    """
    x = np.asarray(values, dtype=np.float64)
    finite = np.isfinite(x)
    na = real_is_na(x)
    nan = np.isnan(x) & ~na
    posinf = np.isposinf(x)
    neginf = np.isneginf(x)
    if finite.any():
        s = scientific(x[finite], digits)
        left = s.kpower + 1 - s.roundingwidens.astype(np.int64)
        sleft = s.neg.astype(np.int64) + np.maximum(left, 1)
        right = s.nsig - left
        neg = int(s.neg.any())
        rgt = int(right.max()) if digits else 0
        mxl = int(left.max())
        mnl = int(left.min())
        mxsl = int(sleft.max())
        mxns = int(s.nsig.max())
        if mxl < 0:
            mxsl = 1 + neg
        rgt = max(rgt, 0)
        w_fixed = mxsl + rgt + (rgt != 0)
        e = 2 if (mxl > 100 or mnl <= -99) else 1
        d = mxns - 1
        w = neg + (d > 0) + d + 4 + e
        if w_fixed <= w + scipen:
            e = 0
            if nsmall > rgt:
                rgt = nsmall
                w_fixed = mxsl + rgt + (rgt != 0)
            d = rgt
            w = w_fixed
    else:
        w = d = e = 0
    if na.any():
        w = max(w, na_width)
    if nan.any() or posinf.any():
        w = max(w, 3)
    if neginf.any():
        w = max(w, 4)
    return RealFormat(w, d, e)


# R: src/main/printutils.c EncodeReal0
def encode_real(values: np.ndarray, fmt: RealFormat, na_string: str = "NA") -> np.ndarray:
    """R's ``EncodeReal0`` of each element with one common format (right-justified to its width).

    >>> encode_real(np.array([1.5, -0.0]), RealFormat(4, 1, 0)).tolist()
    [' 1.5', ' 0.0']
    """
    x = np.asarray(values, dtype=np.float64)
    w, d, e = fmt
    if e:
        spec = f"%#{w}.{d}e" if d else f"%{w}.{d}e"
    else:
        spec = f"%{w}.{d}f"
    finite = np.isfinite(x)
    clean = np.where(x == 0, 0.0, x)  # R drops the sign of zero
    out = np.empty(len(x), dtype=object)
    if finite.all():
        out[:] = [spec % v for v in clean.tolist()]
        return out
    out[finite] = [spec % v for v in clean[finite].tolist()]
    for i in np.flatnonzero(~finite).tolist():
        out[i] = _non_finite(x[i : i + 1], na_string).rjust(w)
    return out


def _non_finite(one: np.ndarray, na_string: str) -> str:
    if real_is_na(one)[0]:
        return na_string
    if np.isnan(one[0]):
        return "NaN"
    return "Inf" if one[0] > 0 else "-Inf"


def format_real(values: np.ndarray, digits: int = 7, nsmall: int = 0, na_string: str = "NA") -> np.ndarray:
    """R's ``format(x, digits = digits)`` of a double vector: common format, padded to one width.

    >>> format_real(np.array([1e10, 1.0]), 7).tolist()
    ['1e+10', '1e+00']
    """
    x = np.asarray(values, dtype=np.float64)
    fmt = format_real_info(x, check_digits(digits), nsmall, na_width=len(na_string))
    return encode_real(x, fmt, na_string)


def drop_trailing_zeros(text: str) -> str:
    """R's ``EncodeRealDrop0`` clean-up: ``"1.500e+05"`` -> ``"1.5e+05"``, ``"2.00"`` -> ``"2"``."""
    if "." not in text:
        return text
    mantissa, sep, exponent = text.partition("e")
    return mantissa.rstrip("0").rstrip(".") + sep + exponent


# R: src/main/coerce.c StringFromReal (R 4.2.2: 15 significant digits)
def as_character_double(values: np.ndarray) -> np.ndarray:
    """R 4.2.2's ``as.character()`` of doubles: each element alone, 15 significant digits.

    >>> as_character_double(np.array([1 / 3, 1e15, -0.0, np.inf])).tolist()
    ['0.333333333333333', '1e+15', '0', 'Inf']
    """
    x = np.asarray(values, dtype=np.float64).ravel()
    out = np.empty(len(x), dtype=object)
    finite = np.isfinite(x)
    for i in np.flatnonzero(~finite).tolist():
        one = x[i : i + 1]
        out[i] = None if real_is_na(one)[0] else _non_finite(one, "NA")
    if not finite.any():
        return out
    xf = np.where(x[finite] == 0, 0.0, x[finite])
    s = scientific(xf, 15)
    neg = s.neg.astype(np.int64)
    left = s.kpower + 1 - s.roundingwidens.astype(np.int64)
    sleft = np.where(left < 0, 1 + neg, neg + np.maximum(left, 1))
    rgt = np.maximum(s.nsig - left, 0)
    w_fixed = sleft + rgt + (rgt != 0)
    e = np.where((left > 100) | (left <= -99), 2, 1)
    d_sci = s.nsig - 1
    w_sci = neg + (d_sci > 0).astype(np.int64) + d_sci + 4 + e
    fixed = w_fixed <= w_sci
    texts = [
        f"{v:.{r}f}" if f else (f"{v:#.{ds}e}" if ds else f"{v:.0e}")
        for v, f, r, ds in zip(xf.tolist(), fixed.tolist(), rgt.tolist(), d_sci.tolist(), strict=True)
    ]
    out[finite] = [drop_trailing_zeros(t) for t in texts]
    return out
