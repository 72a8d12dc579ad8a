"""The typed readers: a 1-d numpy array of one dtype kind as a plain R vector, one vectorized pass.

:func:`read_typed` picks the reader by dtype kind (bool, integers, floats, complex, strings,
datetime64, timedelta64); :mod:`rvalues.convert.numpy` adds object arrays
(:mod:`rvalues.convert.objects`), whose typed runs come back here, so neither imports the other.

>>> import numpy as np
>>> read_typed(np.array([1, 2], dtype=np.int64), None, "x").data.tolist()
[1, 2]
"""

from __future__ import annotations

import functools
from fractions import Fraction
from typing import Any

import numpy as np

from rvalues._speedups import writer as compiled
from rvalues.convert.notices import IntegerOverflowWarning, PrecisionWarning, warn
from rvalues.errors import RValueError
from rvalues.model.base import RValue
from rvalues.model.build import build
from rvalues.model.elements import INT_MAX
from rvalues.model.storage import few_locked, freeze, owned
from rvalues.model.strings import check_unicode_array
from rvalues.model.vectors import Character
from rvalues.na import NA_INTEGER, NA_REAL

_EXACT = 2**53
FEW = 64
"""Arrays up to this long are read in plain Python where numpy's per-call cost would dominate."""
_DATE_UNITS = ("Y", "M", "W", "D")
_DATE_CLASS = Character(["Date"])
_POSIXCT_CLASS = Character(["POSIXct", "POSIXt"])
_UTC = Character(["UTC"])
_DIFFTIME_CLASS = Character(["difftime"])
_SECS = Character(["secs"])


def _native(a: np.ndarray) -> np.ndarray:
    """``a`` in native byte order and contiguous (no copy where it already is)."""
    dtype = a.dtype if a.dtype.isnative else a.dtype.newbyteorder("=")
    return np.ascontiguousarray(a, dtype=dtype)


def _any(mask: np.ndarray | None) -> bool:
    return mask is not None and bool(mask.any())


def read_typed(flat: np.ndarray, mask: np.ndarray | None, where: str) -> RValue:
    """A 1-d array of any dtype but ``object`` (``mask``: True where missing, or None) as a plain R vector."""
    kind = flat.dtype.kind
    if kind == "b":
        return _logical(_native(flat), mask)
    if kind in "iu":
        return integers(_native(flat), mask, where)
    if kind == "f":
        return _doubles(_native(flat), mask, where)
    if kind == "c":
        return _complexes(_native(flat), mask, where)
    if kind in "UST":
        return _strings(flat, mask, where)
    if kind == "M":
        return datetimes(_native(flat), mask, where)
    if kind == "m":
        return timedeltas(_native(flat), mask, where)
    raise RValueError(
        f"{where}: numpy dtype {flat.dtype} has no R equivalent; "
        "convert it to a numeric, string or datetime64 dtype first"
    )


def _logical(flat: np.ndarray, mask: np.ndarray | None) -> RValue:
    if len(flat) <= FEW:
        locked = compiled.r_integers(flat, mask)  # one call where numpy's would dominate
        if locked is not None:
            return build("logical", locked)
        values, missing = few_values(flat, mask)
        return build("logical", few_locked(_na_where(values, missing, NA_INTEGER), "i"))
    out = flat.astype(np.int32)
    if _any(mask):
        out[mask] = NA_INTEGER
    return build("logical", out)


def integers(flat: np.ndarray, mask: np.ndarray | None, where: str) -> RValue:
    """An integer array as R integer (when it fits) or double (with a warning)."""
    if len(flat) <= FEW:
        locked = compiled.r_integers(flat, mask)  # one call where numpy's would dominate
        if locked is not None:
            return build("integer", locked)
        values, missing = few_values(flat, mask)
        kept = values if mask is None else [v for v, m in zip(values, missing, strict=True) if not m]
        if not kept or (-INT_MAX <= min(kept) and max(kept) <= INT_MAX):
            data = values if mask is None else _na_where(values, missing, NA_INTEGER)
            return build("integer", few_locked(data, "i"))
    masked = _any(mask)
    if flat.dtype.itemsize <= 2:  # int8, int16, uint8, uint16 always fit
        out = flat.astype(np.int32)
        if masked:
            out[mask] = NA_INTEGER
        return build("integer", out)
    present = flat[~mask] if masked and mask is not None else flat
    if not present.size:
        lo = hi = 0
    elif present.size <= FEW:
        values = present.tolist()
        lo, hi = min(values), max(values)
    else:
        lo, hi = int(present.min()), int(present.max())
    if -INT_MAX <= lo and hi <= INT_MAX:
        if flat.dtype == np.int32 and not masked:
            return build("integer", owned(flat))
        out = flat.astype(np.int32)
        if masked:
            out[mask] = NA_INTEGER
        return build("integer", out)
    warn(
        f"{where}: {flat.dtype} values from {lo} to {hi} do not fit R's integer range "
        f"[-{INT_MAX}, {INT_MAX}]; converted to double",
        IntegerOverflowWarning,
    )
    out = flat.astype(np.float64)
    if lo < -_EXACT or hi > _EXACT:
        _warn_rounded(present, where)
    if masked:
        out[mask] = NA_REAL
    return build("double", out)


def few_values(flat: np.ndarray, mask: np.ndarray | None) -> tuple[list[Any], list[bool]]:
    """A few elements as Python values, and which of them are masked (numpy's per-call cost
    would dominate).

    >>> few_values(np.array([1, 2]), np.array([False, True]))
    ([1, 2], [False, True])
    """
    values = flat.tolist()
    return values, (mask.tolist() if mask is not None else [False] * len(values))


def _na_where(values: list[Any], masked: list[bool], na: Any) -> list[Any]:
    return [na if m else v for v, m in zip(values, masked, strict=True)]


def _warn_rounded(present: np.ndarray, where: str) -> None:
    """Warn where integers past 2**53 have no exact double."""
    big = (
        present[(present > _EXACT) | (present < -_EXACT)]
        if present.dtype.kind == "i"
        else present[present > _EXACT]
    )
    rounded = big.astype(np.float64)
    limit = 2.0 ** (64 if big.dtype.kind == "u" else 63)
    with np.errstate(invalid="ignore"):
        inexact = (rounded >= limit) | (rounded.astype(big.dtype) != big)
    if inexact.any():
        first = int(np.flatnonzero(inexact)[0])
        warn(
            f"{where}: {int(inexact.sum())} {big.dtype} value(s) beyond 2**53 were rounded to the "
            f"nearest double (e.g. {big[first]} -> {rounded[first]!r})",
            PrecisionWarning,
        )


def _doubles(flat: np.ndarray, mask: np.ndarray | None, where: str) -> RValue:
    if flat.dtype == np.float64:
        out = flat
    else:
        out = flat.astype(np.float64)
        if flat.dtype.itemsize > 8:
            finite = np.isfinite(flat)
            if (out[finite].astype(flat.dtype) != flat[finite]).any():
                warn(
                    f"{where}: {flat.dtype} values were rounded to double precision",
                    PrecisionWarning,
                )
    if _any(mask):
        out = out.copy() if out is flat else out
        out[mask] = NA_REAL
    return build("double", owned(out) if out is flat else out)


def _complexes(flat: np.ndarray, mask: np.ndarray | None, where: str) -> RValue:
    if flat.dtype == np.complex128:
        out = flat
    else:
        out = flat.astype(np.complex128)
        if flat.dtype.itemsize > 16 and (out.astype(flat.dtype) != flat).any():
            warn(f"{where}: {flat.dtype} values were rounded to double precision", PrecisionWarning)
    if _any(mask):
        out = out.copy() if out is flat else out
        out.real[mask] = NA_REAL
        out.imag[mask] = NA_REAL
    return build("complex", owned(out) if out is flat else out)


def _strings(flat: np.ndarray, mask: np.ndarray | None, where: str) -> RValue:
    kind = flat.dtype.kind
    if kind == "S":
        try:
            flat = np.char.decode(flat, "utf-8")
        except UnicodeDecodeError as err:
            raise RValueError(
                f"{where}: bytes ({flat.dtype}) are not valid UTF-8 ({err.reason}); R strings must be "
                "UTF-8: decode them yourself, or pass bytes objects in an object array for raw vectors"
            ) from None
    try:
        if flat.dtype.kind == "U":
            check_unicode_array(flat)  # vectorized; then locking need not check again
    except RValueError as err:
        raise RValueError(f"{where}: {err}") from None
    out = flat.astype(object)
    if kind == "T" and hasattr(flat.dtype, "na_object"):
        not_str = np.frompyfunc(lambda v: not isinstance(v, str), 1, 1)(out).astype(bool)
        out[not_str] = None
    if _any(mask):
        out[mask] = None
    try:
        data = freeze(out, checked=flat.dtype.kind == "U")  # locking checks other strings
    except RValueError as err:
        raise RValueError(f"{where}: {err}") from None
    return build("character", data)


_UNIT_SECONDS = {
    "W": Fraction(604800), "D": Fraction(86400),
    "h": Fraction(3600), "m": Fraction(60), "s": Fraction(1), "ms": Fraction(1, 10**3),
    "us": Fraction(1, 10**6), "ns": Fraction(1, 10**9), "ps": Fraction(1, 10**12),
    "fs": Fraction(1, 10**15), "as": Fraction(1, 10**18),
}  # fmt: skip


@functools.cache
def ticks_per_second(unit: str, count: int) -> tuple[float, int]:
    """``(seconds per tick, 0)``, or ``(0.0, ticks per second)`` where a second is a whole number of ticks."""
    step = _UNIT_SECONDS[unit] * count  # seconds per tick, exactly
    if step >= 1 or (1 / step).denominator != 1:
        return float(step), 0
    return 0.0, int(1 / step)


def _seconds(ints: np.ndarray, unit: str, count: int, missing: np.ndarray) -> np.ndarray:
    """int64 counts of ``count`` ``unit`` as float64 seconds, split to keep sub-second digits; NA
    where ``missing``."""
    step, per_second = ticks_per_second(unit, count)
    if len(ints) <= FEW:  # the same arithmetic in plain Python floats (IEEE doubles as numpy's)
        pairs = zip(ints.tolist(), missing.tolist(), strict=True)
        if not per_second:
            values = [NA_REAL if m else float(i) * step for i, m in pairs]
        else:
            ticks = per_second
            values = [NA_REAL if m else float(i // ticks) + float(i % ticks) / ticks for i, m in pairs]
        return few_locked(values, "d")
    if len(ints) > _BLOCK:  # block by block, so the temporaries stay in the CPU's cache
        secs = np.empty(len(ints), dtype=np.float64)
        for start in range(0, len(ints), _BLOCK):
            block = slice(start, start + _BLOCK)
            secs[block] = _seconds(ints[block], unit, count, missing[block])
        return secs
    if not per_second:
        secs = ints.astype(np.float64) * step
    else:
        # divmod in place: two new arrays instead of five (numpy's divmod is 5x slower than //)
        whole = ints // per_second
        secs = whole.astype(np.float64)
        whole *= per_second
        np.subtract(ints, whole, out=whole)  # the rest
        secs += np.true_divide(whole, per_second, out=whole.view(np.float64))
    secs[missing] = NA_REAL
    return secs


_BLOCK = 1 << 18
"""Date-times are converted this many at a time (2 MiB of doubles): about twice as fast as at once."""


def _all_nat(flat: np.ndarray, where: str, what: str) -> np.ndarray:
    """A datetime64/timedelta64 array without a unit: only NaT has none, so it is all NA."""
    if not np.isnat(flat).all():  # numpy never makes these, but a view could
        raise RValueError(f"{where}: {what} without a unit has no R equivalent; give it a unit first")
    return flat.astype(f"{(flat.dtype.kind == 'M' and 'datetime64') or 'timedelta64'}[s]")


def datetimes(flat: np.ndarray, mask: np.ndarray | None, where: str, tzone: RValue = _UTC) -> RValue:
    """datetime64 as Date (day units and coarser) or POSIXct (finer units; tzone ``tzone``)."""
    unit, count = np.datetime_data(flat.dtype)
    if unit == "generic":  # NaT: R's NA date-time
        flat = _all_nat(flat, where, "datetime64")
        unit, count = "s", 1
    missing = np.isnat(flat)
    if _any(mask):
        missing |= mask
    if unit in _DATE_UNITS:
        days = flat.astype("datetime64[D]").view(np.int64).astype(np.float64)
        days[missing] = NA_REAL
        return build("double", days, {"class": _DATE_CLASS})
    return posixct_from_ticks(flat.view(np.int64), missing, unit, count, tzone)


def posixct_from_ticks(
    ticks: np.ndarray, missing: np.ndarray, unit: str, count: int, tzone: RValue
) -> RValue:
    """int64 counts of ``count`` ``unit`` since the epoch as POSIXct in ``tzone`` (NA where ``missing``)."""
    return posixct_from_seconds(_seconds(ticks, unit, count, missing), tzone)


def posixct_from_seconds(secs: np.ndarray, tzone: RValue) -> RValue:
    """float64 seconds since the epoch (NA_REAL for NA) as POSIXct in ``tzone``."""
    return build("double", secs, {"class": _POSIXCT_CLASS, "tzone": tzone})


def timedeltas(flat: np.ndarray, mask: np.ndarray | None, where: str) -> RValue:
    """timedelta64 as R's difftime in seconds (``units = "secs"``); NaT -> NA."""
    unit, count = np.datetime_data(flat.dtype)
    if unit == "generic":  # NaT: NA
        flat = _all_nat(flat, where, "timedelta64")
        unit, count = "s", 1
    if unit in ("Y", "M"):
        raise RValueError(
            f"{where}: timedelta64[{unit}] has no fixed length in seconds; "
            "convert it to days or seconds first"
        )
    missing = np.isnat(flat)
    if _any(mask):
        missing |= mask
    return difftime_seconds(_seconds(flat.view(np.int64), unit, count, missing))


def difftime_seconds(secs: np.ndarray) -> RValue:
    """float64 seconds (NA_REAL for NA) as R's difftime, ``units = "secs"``."""
    return build("double", secs, {"class": _DIFFTIME_CLASS, "units": _SECS})
