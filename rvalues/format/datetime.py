"""R's ``format()`` of Date and POSIXct values, vectorized; printing and JSON both use it.

Dates are days since 1970-01-01 (fractions floored); date-times are seconds since the epoch,
shown in their ``tzone`` ("" or None: the process's zone). ``format.POSIXct`` drops the time when
every element is at midnight, and truncates seconds. As in R 4.2.2, years are not zero-padded
("99-01-01") and non-finite values show as "Inf", "-Inf", "NaN" (NA is None).

>>> format_date(np.array([18262.75, -0.5, np.inf])).tolist()
['2020-01-01', '1969-12-31', 'Inf']
>>> format_posixct(np.array([1577934245.0]), "America/New_York", usetz=True).tolist()
['2020-01-01 22:04:05 EST']
"""

from __future__ import annotations

import functools
import math
from datetime import UTC, date, datetime, timedelta
from typing import Any

import numpy as np

from rvalues._speedups import writer as compiled
from rvalues.errors import RValueError
from rvalues.format.timezones import local_zone_name, utc_abbreviation, zone
from rvalues.lazy import import_pandas
from rvalues.na import INT_MAX, is_na_float, real_is_na

TWO_DIGITS = np.array([f"{i:02d}" for i in range(100)])
"""``"00"`` to ``"99"``: clock fields by index."""
_CYCLE = 146097 * 86400  # 400 Gregorian years: the calendar, weekdays included, repeats
_LOW, _HIGH = -62135596800 + 2 * 86400, 253402300799 - 2 * 86400  # what datetime can hold
_NS_LOW, _NS_HIGH = -9223372036, 9223372035  # what pandas' nanosecond timestamps can hold
_FAST_LOW, _FAST_HIGH = -30610224000, 253402300799  # years 1000 to 9999: numpy's text is R's
# R's broken-down time holds the year in a C int: days outside this range format as NA, and
# years past 2^31 - 1 print wrapped around
_DAY_MIN, _DAY_MAX = -784352321506, 784352270736
_TINY = 16
"""Up to this many elements are formatted in Python, one by one: numpy's per-call cost dominates there."""


def civil_from_days(days: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Proleptic Gregorian (year, month, day) of int64 day numbers since 1970-01-01.

    >>> [a.tolist() for a in civil_from_days(np.array([0, -1, 18263]))]
    [[1970, 1969, 2020], [1, 12, 1], [1, 31, 2]]
    """
    z = np.asarray(days, dtype=np.int64) + 719468
    era = np.floor_divide(z, 146097)
    doe = z - era * 146097
    yoe = (doe - doe // 1460 + doe // 36524 - doe // 146096) // 365
    doy = doe - (365 * yoe + yoe // 4 - yoe // 100)
    mp = (5 * doy + 2) // 153
    d = doy - (153 * mp + 2) // 5 + 1
    m = np.where(mp < 10, mp + 3, mp - 9)
    return yoe + era * 400 + (m <= 2), m, d


def days_from_civil(y: np.ndarray, m: np.ndarray, d: np.ndarray) -> np.ndarray:
    """Day numbers since 1970-01-01 of proleptic Gregorian dates (the inverse of the above)."""
    y = y - (m <= 2)
    era = np.floor_divide(y, 400)
    yoe = y - era * 400
    mp = np.where(m > 2, m - 3, m + 9)
    doy = np.floor_divide(153 * mp + 2, 5) + d - 1
    doe = yoe * 365 + np.floor_divide(yoe, 4) - np.floor_divide(yoe, 100) + doy
    return era * 146097 + doe - 719468  # type: ignore[no-any-return]


def ymd(days: np.ndarray) -> np.ndarray:
    """``"%Y-%m-%d"`` of int64 day numbers as R writes it (years unpadded, C-int wrapped)."""
    if not len(days):
        return np.array([], dtype=str)
    if days.min() >= _FAST_LOW // 86400 and days.max() <= _FAST_HIGH // 86400:
        return np.datetime_as_string(days.astype("datetime64[D]"), unit="D")
    y, m, d = civil_from_days(days)
    y = (y + 2**31) % 2**32 - 2**31
    return np.strings.add(
        np.strings.add(np.strings.add(y.astype(str), "-"), TWO_DIGITS[m]), np.strings.add("-", TWO_DIGITS[d])
    )


def _text_of_non_finite(value: float) -> str | None:
    """R's text of one value that is not finite: None for NA, else "NaN", "Inf" or "-Inf"."""
    if is_na_float(value):
        return None
    return "NaN" if value != value else "Inf" if value > 0 else "-Inf"


def _non_finite(values: np.ndarray, out: np.ndarray) -> np.ndarray:
    """Where values are not finite: NA -> None, else R's text ("Inf", "-Inf", "NaN")."""
    bad = ~np.isfinite(values)
    if bad.any():
        sub = values[bad]
        if len(sub) <= _TINY:
            out[bad] = [_text_of_non_finite(v) for v in sub.tolist()]
        else:
            text = np.where(np.isnan(sub), "NaN", np.where(sub > 0, "Inf", "-Inf")).astype(object)
            text[real_is_na(sub)] = None
            out[bad] = text
    return ~bad


def unshown_text(seconds: np.ndarray) -> np.ndarray:
    """:func:`format_posixct`'s text for elements :func:`posixct_pieces` does not show: None for NA
    and beyond R's years, "Inf", "-Inf" or "NaN" for the other non-finite values."""
    out = np.empty(len(seconds), dtype=object)
    _non_finite(np.asarray(seconds, dtype=np.float64), out)
    return out


def few_dates(days: list[float]) -> list[str | None] | None:
    """:func:`format_date` of a few day numbers in plain Python (numpy's per-call cost would
    dominate); None when a day lies outside years 1000 to 9999 (the vectorized path writes those).

    >>> few_dates([0.0, 18262.5, float("nan"), float("-inf")])
    ['1970-01-01', '2020-01-01', 'NaN', '-Inf']
    """
    out: list[str | None] = []
    for value in days:
        if not math.isfinite(value):
            out.append(_text_of_non_finite(value))
            continue
        day = math.floor(value)
        if not _FAST_LOW // 86400 <= day <= _FAST_HIGH // 86400:
            return None
        out.append(_day_text(day))
    return out


def format_date(days: np.ndarray) -> np.ndarray:
    """``format(<Date>)``: "%Y-%m-%d" of the floored day; NA as None, non-finite as R's text.

    As R's ``as.POSIXlt.Date``: when any day lies beyond +-2^31, the whole vector is formatted
    as the date-times ``days * 86400`` in UTC instead (fractions then show as times).
    """
    days = np.asarray(days, dtype=np.float64)
    out = np.empty(len(days), dtype=object)
    ok = _non_finite(days, out)
    if ok.any():
        vals = days[ok]
        if (np.abs(vals) > INT_MAX).any():
            out[ok] = format_posixct(vals * 86400, "UTC", "string")
        else:
            out[ok] = ymd(np.floor(vals).astype(np.int64)).astype(object)
    return out


def _display_zone(tzone: str | None) -> Any:
    """The zone R displays a ``tzone`` in; an unknown name is UTC, as R falls back (with a warning)."""
    try:
        return zone(tzone)
    except RValueError:
        return zone("UTC")


def utc_offsets(seconds: np.ndarray, tzone: str | None) -> np.ndarray:
    """UTC offsets (seconds) of whole-second instants in the zone R would display them in."""
    tz = _display_zone(tzone)
    key = getattr(tz, "key", None)
    if key == "UTC":
        return np.zeros(len(seconds), dtype=np.int64)
    if len(seconds) > 64 and key and seconds.min() >= _NS_LOW and seconds.max() <= _NS_HIGH:
        stamps = import_pandas().DatetimeIndex(
            seconds.astype("datetime64[s]").astype("datetime64[ns]"), tz="UTC"
        )
        # the zoneinfo object, not its name: pandas 2 would read a name as a pytz zone
        wall = stamps.tz_convert(tz).tz_localize(None).asi8 // 10**9
        return np.asarray(wall - seconds, dtype=np.int64)
    return _each_instant(seconds, tz, lambda t: int(t.utcoffset().total_seconds())).astype(np.int64)


def _each_instant(seconds: np.ndarray, tz: Any, read: Any) -> np.ndarray:
    """``read(local datetime)`` for each whole-second instant, computed once per distinct instant."""
    uniq, inverse = np.unique(seconds, return_inverse=True)
    # beyond datetime's years the zone's rules are constant (LMT) or its yearly POSIX rule
    shifted = np.where(uniq < _LOW, uniq + ((_LOW - uniq) // _CYCLE + 1) * _CYCLE, uniq)
    shifted = np.where(shifted > _HIGH, shifted - ((shifted - _HIGH) // _CYCLE + 1) * _CYCLE, shifted)
    epoch = datetime(1970, 1, 1, tzinfo=UTC)
    values = np.empty(len(uniq), dtype=object)
    values[:] = [read((epoch + timedelta(seconds=int(s))).astimezone(tz)) for s in shifted.tolist()]
    return values[inverse]  # type: ignore[no-any-return]


def zone_abbreviations(seconds: np.ndarray, tzone: str | None) -> np.ndarray:
    """The zone abbreviation R prints after each date-time (``usetz``), e.g. "EST"."""
    abbreviation = utc_abbreviation(tzone or local_zone_name())
    if abbreviation is not None:
        return np.full(len(seconds), abbreviation, dtype=object)
    return _each_instant(seconds, _display_zone(tzone), lambda t: t.tzname() or "")


def dense_codes(values: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """``np.unique(values, return_inverse=True)`` for int64 (or integral float) values, in O(n)
    when they span a modest range.

    >>> [a.tolist() for a in dense_codes(np.array([5, 3, 5]))]
    [[3, 5], [1, 0, 1]]
    """
    if not len(values):
        return values, np.zeros(0, dtype=np.int64)
    low, high = values.min(), values.max()
    if high - low > 4 * len(values) + 1024:
        uniq, inverse = np.unique(values, return_inverse=True)
        return uniq, inverse.reshape(-1)
    offset = (values - low).astype(np.int64)
    used = np.zeros(int(high - low) + 1, dtype=bool)
    used[offset] = True
    position = np.cumsum(used) - 1
    return (np.flatnonzero(used) + low).astype(values.dtype), position[offset]


Pieces = list[tuple[np.ndarray, np.ndarray]]
"""Text as coded pieces: element i is the concatenation of ``labels[codes[i]]`` over the pairs."""


def join_pieces(pieces: Pieces) -> np.ndarray:
    """The object array of str that coded pieces stand for.

    >>> words, marks = np.array(["a", "b"], object), np.array(["!"], object)
    >>> join_pieces([(words, np.array([1, 0])), (marks, np.array([0, 0]))]).tolist()
    ['b!', 'a!']
    """
    fast = compiled.join_coded(pieces)
    if fast is not None:
        return fast
    out: np.ndarray | None = None
    for labels, codes in pieces:
        part = labels[codes]
        out = part if out is None else np.add(out, part)
    return out if out is not None else np.empty(0, dtype=object)


def posixct_pieces(
    seconds: np.ndarray, tzone: str | None, style: str = "string"
) -> tuple[np.ndarray, Pieces]:
    """``(shown, pieces)``: the elements where ``shown`` is true have :func:`format_posixct`'s text
    as coded pieces (a few distinct days and times of day, each formatted once); the others are
    not finite or beyond R's years (their text is None or "Inf", "-Inf", "NaN").

    >>> shown, pieces = posixct_pieces(np.array([0.0, np.nan, 90061.0]), "UTC")
    >>> shown.tolist(), join_pieces(pieces).tolist()
    ([True, False, True], ['1970-01-01 00:00:00', '1970-01-02 01:01:01'])
    """
    shown, vals, whole, all_valid = shown_seconds(seconds)
    return shown, _clock_pieces(vals, whole, tzone, style, force_time=not all_valid)


def posixct_clock(
    seconds: np.ndarray, tzone: str | None, style: str = "string"
) -> tuple[np.ndarray, np.ndarray, np.ndarray | None]:
    """``(shown, days, times)``: what :func:`posixct_pieces` formats, as numbers: the local day of
    each shown element and its time of day as minute * 61 + second (None: the text is the date).

    >>> shown, days, times = posixct_clock(np.array([0.0, np.nan, 90061.0]), "UTC")
    >>> shown.tolist(), days.tolist(), times.tolist()
    ([True, False, True], [0, 1], [0, 3722])
    """
    shown, vals, whole, all_valid = shown_seconds(seconds)
    _, days, _, _, times = _clock_parts(vals, whole, tzone, style, force_time=not all_valid)
    return shown, days, times


def shown_seconds(seconds: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray, bool]:
    """(shown, their values, floored, whether all finite ones are within R's years)."""
    seconds = np.asarray(seconds, dtype=np.float64)
    shown = np.isfinite(seconds)
    vals = seconds[shown] if not shown.all() else seconds
    whole = np.floor(vals)
    valid = (whole / 86400 >= _DAY_MIN) & (whole / 86400 <= _DAY_MAX)
    all_valid = bool(valid.all())
    if not all_valid:
        shown[shown] = valid
        vals, whole = vals[valid], whole[valid]
    return shown, vals, whole, all_valid


def format_posixct(
    seconds: np.ndarray, tzone: str | None, style: str = "string", usetz: bool = False
) -> np.ndarray:
    """``format(<POSIXct>)`` (style "string": the time is dropped when every element is at
    midnight) or ``format(x, "%Y-%m-%dT%H:%M:%S")`` (style "ISO8601"); seconds truncated.
    ``usetz`` appends the zone's abbreviation, as ``print`` does."""
    seconds = np.asarray(seconds, dtype=np.float64)
    if len(seconds) <= _TINY and not usetz:
        few = few_posixct(seconds.tolist(), tzone, style)
        if few is not None:
            out = np.empty(len(few), dtype=object)
            out[:] = few
            return out
    out = np.empty(len(seconds), dtype=object)
    _non_finite(seconds, out)
    shown, pieces = posixct_pieces(seconds, tzone, style)
    if not shown.any():
        return out
    text = join_pieces(pieces)
    if usetz:
        zones = zone_abbreviations(np.floor(seconds[shown]).astype(np.int64), tzone)
        text = np.array([f"{t} {z}" if z else t for t, z in zip(text.tolist(), zones.tolist())], dtype=object)
    out[shown] = text
    return out


def few_posixct(values: list[float], tzone: str | None, style: str = "string") -> list[str | None] | None:
    """:func:`format_posixct` of a few elements, one by one in Python (numpy's per-call cost dominates
    there); None where the general path is needed (years outside 1000-9999, a second shown as 60).

    >>> few_posixct([0.0, 30.5, float("nan")], "UTC")
    ['1970-01-01 00:00:00', '1970-01-01 00:00:30', 'NaN']
    """
    finite = [v for v in values if math.isfinite(v)]
    if not finite:
        return None
    whole = [math.floor(v) for v in finite]
    low, high = min(whole), max(whole)
    if low < _FAST_LOW - 86400 or high > _FAST_HIGH + 86400:
        return None
    if _shown_in_utc(tzone):
        local = whole
    else:
        offsets = utc_offsets(np.array(whole, dtype=np.int64), tzone).tolist()
        local = [w + off for w, off in zip(whole, offsets, strict=True)]
        low, high = min(local), max(local)
    if low < _FAST_LOW or high > _FAST_HIGH:
        return None
    days = [divmod(t, 86400) for t in local]  # (day, second of the day)
    exact = finite == whole  # no fractions of a second
    text: list[str | None]
    if style == "string" and exact and not any([second for _, second in days]):
        text = [_day_text(day) for day, _ in days]
    else:
        # R's seconds field is tm_sec + (x - floor(x)) in doubles, shown truncated (see _clock_pieces):
        # the clock's own second, unless the fraction rounds the sum up to the next whole second
        if not exact and any(
            math.floor(sod % 60 + (v - w)) != sod % 60 for (_, sod), v, w in zip(days, finite, whole)
        ):
            return None
        sep = "T" if style == "ISO8601" else " "
        text = [f"{_day_text(day)}{sep}{_clock_text(sod)}" for day, sod in days]
    if len(finite) == len(values):
        return text
    texts = iter(text)
    return [next(texts) if math.isfinite(v) else _text_of_non_finite(v) for v in values]


def _shown_in_utc(tzone: str | None) -> bool:
    """Whether R displays ``tzone`` in UTC (asked once per name; None and "" ask every time: the
    process's zone may change)."""
    if not tzone:
        return getattr(_display_zone(tzone), "key", None) == "UTC"
    return _named_utc(tzone)


@functools.lru_cache(maxsize=256)
def _named_utc(tzone: str) -> bool:
    return getattr(_display_zone(tzone), "key", None) == "UTC"


@functools.lru_cache(maxsize=4096)
def _day_text(day: int) -> str:
    """``YYYY-MM-DD`` of a day count from 1970-01-01 (years 1 to 9999)."""
    return date.fromordinal(day + _ORDINAL_1970).isoformat()


@functools.lru_cache(maxsize=4096)
def _clock_text(second_of_day: int) -> str:
    """``HH:MM:SS`` of a second of the day."""
    minute, second = divmod(second_of_day, 60)
    return f"{_TWO[minute // 60]}:{_TWO[minute % 60]}:{_TWO[second]}"


_ORDINAL_1970 = date(1970, 1, 1).toordinal()
_TWO = TWO_DIGITS.tolist()


_CODED_FROM = 256
"""From this many elements on, each distinct day and time of day is formatted once; fewer are
formatted one by one (numpy's per-call cost would dominate)."""


def _clock_parts(
    vals: np.ndarray, whole: np.ndarray, tzone: str | None, style: str, force_time: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray | None, np.ndarray | None]:
    """(local seconds, local days, second of the day, shown second, time as minute * 61 +
    second); the last two None when the text is the date alone."""
    secs = whole.astype(np.int64)
    local = secs + utc_offsets(secs, tzone)
    days, sod = np.floor_divide(local, 86400), np.mod(local, 86400)
    if style == "string" and not force_time and ((sod == 0) & (vals == whole)).all():
        return local, days, sod, None, None
    # R's seconds field is tm_sec + (x - floor(x)) in doubles, printed truncated: a fraction
    # within an ulp of 1 shows the next second (even second 60), so a time is minute * 61 + second
    sec = np.floor((sod % 60) + (vals - whole)).astype(np.int64)
    return local, days, sod, sec, (sod // 60) * 61 + sec


def _clock_pieces(
    vals: np.ndarray, whole: np.ndarray, tzone: str | None, style: str, force_time: bool = False
) -> Pieces:
    local, days, sod, sec, times = _clock_parts(vals, whole, tzone, style, force_time)
    few = len(local) < _CODED_FROM
    each = np.arange(len(local))
    if sec is None or times is None:
        if few:
            return [(ymd(days).astype(object), each)]
        day_list, day_codes = dense_codes(days)
        return [(ymd(day_list).astype(object), day_codes)]
    if few and len(local) and (sec < 60).all() and local.min() >= _FAST_LOW and local.max() <= _FAST_HIGH:
        text = np.datetime_as_string((local - sod % 60 + sec).astype("datetime64[s]"), unit="s")
        if style != "ISO8601":
            text.view("U1").reshape(len(text), -1)[:, 10] = " "
        return [(text.astype(object), each)]
    if few:
        day_list, day_codes, time_list, time_codes = days, each, times, each
    else:
        day_list, day_codes = dense_codes(days)
        time_list, time_codes = dense_codes(times)
    minute, second = np.divmod(time_list, 61)
    hms = np.strings.add(
        np.strings.add(np.strings.add(TWO_DIGITS[minute // 60], ":"), TWO_DIGITS[minute % 60]),
        np.strings.add(":", TWO_DIGITS[second]),
    )
    dates = np.strings.add(ymd(day_list), "T" if style == "ISO8601" else " ")
    return [(dates.astype(object), day_codes), (hms.astype(object), time_codes)]


def epoch_ms(seconds: np.ndarray) -> np.ndarray:
    """``floor(unclass(x) * 1000)``: jsonlite's epoch milliseconds.

    >>> epoch_ms(np.array([1.5])).tolist()
    [1500.0]
    """
    with np.errstate(invalid="ignore"):  # R's NA is a signalling NaN: arithmetic on it raises the flag
        return np.floor(seconds * 1000)
