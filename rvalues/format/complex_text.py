"""R 4.2.2's formatting of complex numbers: ``formatComplex`` and ``EncodeComplex``.

The model's ``as.character()`` of a complex vector uses it, as :mod:`rvalues.format.real_text`.

R first rounds each number to ``digits`` significant digits of its larger part (``signif``
applied to Re and Im together, R's ``z_prec_r``), then finds a common format for the real parts
and one for the imaginary parts, and chooses fixed or scientific notation for both together.

>>> format_complex(np.array([1234567.891 + 0.000123j, 1e10 + 1j])).tolist()
['1234568+0i', '1e+10+0e+00i']
"""

from __future__ import annotations

import math
from functools import lru_cache
from typing import NamedTuple

import numpy as np

from rvalues.format.real_text import RealFormat, check_digits, encode_real, scientific
from rvalues.na import real_is_na

_LOG10_2 = 0.301029995663981195
_MAX10E = 308
_DBL_DIG = 15


class ComplexFormat(NamedTuple):
    """The common formats of the real and of the imaginary parts."""

    real: RealFormat
    imag: RealFormat


# R: src/main/arithmetic.c R_pow_di
@lru_cache(maxsize=1024)
def _pow_di(x: float, n: int) -> float:
    """R's ``R_pow_di``: x to an integer power by repeated squaring (as R computes it)."""
    result = 1.0
    negative = n < 0
    n = -n if negative else n
    while True:
        if n & 1:
            result *= x
        n >>= 1
        if not n:
            break
        x *= x
    return 1.0 / result if negative else result


# R: src/nmath/fround.c fround
def fround(x: float, digits: float) -> float:
    """R 4's ``round(x, digits)`` (nmath ``fround``): the nearer of the two candidates, ties to even.

    >>> fround(0.15, 1), fround(2.5, 0), fround(1234.5678, -2)
    (0.1, 2.0, 1200.0)
    """
    if math.isnan(x) or math.isnan(digits):
        return x + digits
    if math.isinf(x) or digits > _MAX10E + _DBL_DIG or x == 0.0:
        return x
    if digits < -_MAX10E:
        return 0.0
    if digits == 0.0:
        return float(np.rint(x))
    dig = math.floor(digits + 0.5)
    sgn = -1.0 if x < 0 else 1.0
    x = abs(x)
    l10x = _LOG10_2 * (0.5 + (math.frexp(x)[1] - 1))
    if l10x + dig > _DBL_DIG:
        return sgn * x
    if dig <= _MAX10E:
        pow10 = _pow_di(10.0, dig)
        x10 = x * pow10
        i10 = math.floor(x10)
        xd = i10 / pow10
        xu = math.ceil(x10) / pow10
    else:
        p10 = _pow_di(10.0, dig - _MAX10E)
        pow10 = _pow_di(10.0, _MAX10E)
        x10 = (x * pow10) * p10
        i10 = math.floor(x10)
        xd = i10 / pow10 / p10
        xu = math.ceil(x10) / pow10 / p10
    du = xu - x
    dd = x - xd
    return sgn * (xu if (du < dd or (math.fmod(i10, 2.0) == 1 and du == dd)) else xd)


# R: src/main/complex.c z_prec_r
def signif_complex(values: np.ndarray, digits: int) -> np.ndarray:
    """R's ``signif()`` of complex numbers (``z_prec_r``): both parts to the larger one's digits.

    >>> signif_complex(np.array([1234567.891 + 0.000123j]), 7).tolist()
    [(1234568+0j)]
    """
    z = np.asarray(values, dtype=np.complex128).ravel()
    out = z.copy()
    if digits > 22:
        return out
    dig0 = max(math.floor(digits + 0.5), 1)
    re, im = z.real, z.imag
    finite_re = np.where(np.isfinite(re), np.abs(re), 0.0)
    m = np.maximum(finite_re, np.where(np.isfinite(im), np.abs(im), 0.0))
    for i in np.flatnonzero(m != 0).tolist():
        dig = dig0 - math.floor(math.log10(m[i])) - 1
        if dig > 306:
            r = fround(1e4 * re[i], dig - 4) / 1e4
            j = fround(1e4 * im[i], dig - 4) / 1e4
        else:
            r = fround(float(re[i]), dig)
            j = fround(float(im[i]), dig)
        out[i] = complex(r, j)
    return out


def _part_stats(parts: np.ndarray, digits: int, signed: bool) -> tuple[int, ...] | None:
    if len(parts) == 0:
        return None
    s = scientific(parts, digits)
    left = s.kpower + 1 - s.roundingwidens.astype(np.int64)
    neg = s.neg.astype(np.int64) if signed else np.zeros(len(parts), dtype=np.int64)
    sleft = neg + np.maximum(left, 1)
    right = s.nsig - left
    return (
        int(neg.max()),
        int(right.max()),
        int(left.max()),
        int(left.min()),
        int(sleft.max()),
        int(s.nsig.max()),
    )


# R: src/main/format.c formatComplex
def format_complex_info(
    values: np.ndarray, digits: int = 7, nsmall: int = 0, na_width: int = 2
) -> ComplexFormat:
    """R 4.2.2's ``formatComplex``: the (width, decimals, exponent) of the real and imaginary parts.

    >>> format_complex_info(np.array([1 + 2j, 3.5 - 1j]))
    ComplexFormat(real=RealFormat(width=3, decimals=1, exponent=0), \
imag=RealFormat(width=1, decimals=0, exponent=0))
    """
    z = np.asarray(values, dtype=np.complex128).ravel()
    na = real_is_na(z.real) | real_is_na(z.imag)
    tmp = signif_complex(z[~na], digits)
    orig = z[~na]
    re, im = tmp.real, tmp.imag
    re_fin, im_fin = np.isfinite(re), np.isfinite(im)
    all_re_zero = bool((orig.real[re_fin] == 0).all())
    all_im_zero = bool((orig.imag[im_fin] == 0).all())
    rnan = bool(np.isnan(re).any())
    rposinf = bool(np.isposinf(re).any())
    rneginf = bool(np.isneginf(re).any())
    inan = bool(np.isnan(im).any())
    iposinf = bool(np.isinf(im).any())

    rs = _part_stats(re[re_fin], digits, True)
    if rs is not None:
        neg, rt, mxl, mnl, mxsl, mxns = rs
        if mxl < 0:
            mxsl = 1 + neg
        rt = max(rt, 0)
        w_fixed = mxsl + rt + (rt != 0)
        er = 2 if (mxl > 100 or mnl < -99) else 1
        dr = mxns - 1
        wr = neg + (dr > 0) + dr + 4 + er
    else:
        neg = rt = mxsl = 0
        er = wr = dr = w_fixed = 0
    is_ = _part_stats(np.abs(im[im_fin]), digits, False)
    if is_ is not None:
        _, i_rt, i_mxl, i_mnl, i_mxsl, i_mxns = is_
        if i_mxl < 0:
            i_mxsl = 1
        i_rt = max(i_rt, 0)
        i_w_fixed = i_mxsl + i_rt + (i_rt != 0)
        ei = 2 if (i_mxl > 100 or i_mnl < -99) else 1
        di = i_mxns - 1
        wi = (di > 0) + di + 4 + ei
    else:
        i_rt = i_mxsl = 0
        ei = wi = di = i_w_fixed = 0

    if all_re_zero:
        er = dr = 0
        wr = w_fixed
        if i_w_fixed <= wi:
            ei = 0
            if nsmall > i_rt:
                i_rt = nsmall
                i_w_fixed = i_mxsl + i_rt + (i_rt != 0)
            di, wi = i_rt, i_w_fixed
    elif all_im_zero:
        if w_fixed <= wr:
            er = 0
            if nsmall > rt:
                rt = nsmall
                w_fixed = mxsl + rt + (rt != 0)
            dr, wr = rt, w_fixed
        ei = di = 0
        wi = i_w_fixed
    elif w_fixed + i_w_fixed < wr + wi:
        er = 0
        if nsmall > rt:
            rt = nsmall
            w_fixed = mxsl + rt + (rt != 0)
        dr, wr = rt, w_fixed
        ei = 0
        if nsmall > i_rt:
            i_rt = nsmall
            i_w_fixed = i_mxsl + i_rt + (i_rt != 0)
        di, wi = i_rt, i_w_fixed
    wr, wi = max(wr, 0), max(wi, 0)
    if rnan or rposinf:
        wr = max(wr, 3)
    if rneginf:
        wr = max(wr, 4)
    if inan or iposinf:
        wi = max(wi, 3)
    if na.any() and wr + wi + 2 < na_width:
        wr += na_width - (wr + wi + 2)
    return ComplexFormat(RealFormat(wr, dr, er), RealFormat(wi, di, ei))


# R: src/main/printutils.c EncodeComplex
def encode_complex(
    values: np.ndarray,
    fmt: ComplexFormat,
    digits: int = 7,
    na_string: str = "NA",
    real_width: int | None = None,
    na_width: int | None = None,
) -> np.ndarray:
    """R's ``EncodeComplex`` of each element: ``Re`` padded to its width, the sign, ``Im``, ``i``.

    ``real_width`` overrides the real part's width (print passes it plus the gap), and ``na_width``
    the width NA is right-justified to (by default both parts' widths and 2).

    >>> z = np.array([1 + 2j, 3.5 - 1j])
    >>> encode_complex(z, format_complex_info(z)).tolist()
    ['1.0+2i', '3.5-1i']
    """
    z = np.asarray(values, dtype=np.complex128).ravel()
    rf, imf = fmt
    wr = rf.width if real_width is None else real_width
    na = real_is_na(z.real) | real_is_na(z.imag)
    out = np.empty(len(z), dtype=object)
    out[na] = na_string.rjust(rf.width + imf.width + 2 if na_width is None else na_width)
    ok = ~na
    if ok.any():
        x = z[ok]
        y = signif_complex(x, digits)
        re = np.where(y.real == 0, y.real, x.real)
        im_x = x.imag
        neg_im = im_x < 0
        im_abs = np.where(neg_im, -im_x, im_x)
        im = np.where(y.imag == 0, y.imag, im_abs)
        re_s = encode_real(re, RealFormat(wr, rf.decimals, rf.exponent), na_string)
        im_s = encode_real(im, imf, na_string)
        out[ok] = [f"{r}{'-' if n else '+'}{i}i" for r, n, i in zip(re_s, neg_im.tolist(), im_s, strict=True)]
    return out


def format_complex_vector(values: np.ndarray, digits: int = 7, na_string: str = "NA") -> np.ndarray:
    """R's ``format(z, digits = digits)`` of a whole complex vector (one common format).

    >>> format_complex_vector(np.array([1 + 2j, 3.5 - 1j]), 7).tolist()
    ['1.0+2i', '3.5-1i']
    """
    z = np.asarray(values, dtype=np.complex128).ravel()
    digits = check_digits(digits)
    return encode_complex(z, format_complex_info(z, digits, na_width=len(na_string)), digits, na_string)


def format_complex(values: np.ndarray, digits: int | None = 7) -> np.ndarray:
    """Each element formatted on its own, as ``vapply(z, format, "", digits = digits)``.

    This is what jsonlite 1.8.4's ``complex = "string"`` encoding uses (via ``prettyNum``). As in R,
    ``digits`` outside 1..22 (None standing for R's ``NA``) raises ``RValueError`` with R's message.

    >>> format_complex(np.array([3.14159265 - 1j, complex("nan+1j")]), 4).tolist()
    ['3.142-1i', 'NaN+1i']
    """
    z = np.asarray(values, dtype=np.complex128).ravel()
    out = np.empty(len(z), dtype=object)
    if not len(z):  # vapply() over no elements never calls format(), so R checks nothing then
        return out
    checked = check_digits(digits)
    for i in range(len(z)):
        out[i] = format_complex_vector(z[i : i + 1], checked)[0]
    return out


# R: src/main/coerce.c StringFromComplex
def as_character_complex(values: np.ndarray) -> np.ndarray:
    """R 4.2.2's ``as.character()`` of complex numbers: each alone, 15 significant digits, NA as None.

    >>> as_character_complex(np.array([1 + 2j, 0.1 + 0.2j])).tolist()
    ['1+2i', '0.1+0.2i']
    """
    z = np.asarray(values, dtype=np.complex128).ravel()
    na = real_is_na(z.real) | real_is_na(z.imag)
    out = format_complex(z, 15)
    out[na] = None
    return out
