"""The leaf calls of the JSON writer (and of the conversion of object columns) into the compiled
module, each returning None when it does not run (no extension, ``RVALUES_PURE=1``, or an input it
does not take), so that the caller goes on with its pure Python/numpy code, which it stays
byte-identical to.

>>> import numpy as np
>>> tokens = double_tokens(np.linspace(0, 1, 9), 2, "null", False, False, "")
>>> tokens is None or tokens[:3].tolist() == ["0", "0.12", "0.25"]
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from typing import Any

import numpy as np

from rvalues import _speedups
from rvalues.na import is_na_float

_INTS = (np.dtype(np.int32), np.dtype(np.int64))


def available() -> bool:
    """Whether the compiled writer runs."""
    return _speedups.core is not None


def _non_finite_tokens(na: str, prefix: str) -> tuple[str | None, str | None, str | None, str | None]:
    """The tokens of R's NA, NaN, Inf and -Inf under ``na`` (as ``numbers.num_to_char``)."""
    if na == "NA":
        return None, None, None, None
    if na == "null":
        return (prefix + "null",) * 4
    return prefix + '"NA"', prefix + '"NaN"', prefix + '"Inf"', prefix + '"-Inf"'


def double_tokens(
    values: np.ndarray, precision: int | None, na: str, use_signif: bool, always_decimal: bool, prefix: str
) -> np.ndarray | None:
    """``numbers.num_to_char`` of a float64 array, compiled."""
    core = _speedups.core
    if core is None or values.dtype != np.float64:
        return None
    mode = _number_mode(precision, use_signif)
    if mode is None:
        return None
    out = np.empty(len(values), dtype=object)
    core.double_tokens(values, out, *mode, always_decimal, prefix, *_non_finite_tokens(na, prefix))
    return out


def int_tokens(values: np.ndarray, na: str, prefix: str) -> np.ndarray | None:
    """``numbers.int_to_char`` of an int32 or int64 array (R's NA: INT32_MIN), compiled."""
    core = _speedups.core
    if core is None or values.dtype not in _INTS:
        return None
    na_token = None if na == "NA" else prefix + ("null" if na == "null" else '"NA"')
    out = np.empty(len(values), dtype=object)
    core.int_tokens(values, out, prefix, na_token)
    return out


def escape_list(texts: list[str], ascii: bool = False) -> list[str] | None:
    """JSON string tokens as jsonlite escapes them (``"</"`` -> ``"<\\/"``); None when not compiled
    or when a string holds a lone surrogate (the pure path names it in its error).

    ``ascii``: every character from 0x7f up as ``\\uxxxx`` (as ``json.dumps(ensure_ascii=True)``).
    """
    core = _speedups.core
    if core is None:
        return None
    out = core.escape_list(texts, True, ascii)
    return out if isinstance(out, list) else None


def escape_json(text: str, ascii: bool = False) -> str | None:
    """``json.dumps(text, ensure_ascii=ascii)`` in one compiled pass (for splicing a result's text
    into a JSON-RPC line), or None when not compiled or ``text`` holds a lone surrogate.

    >>> escape_json('say "hi"\\n') in (None, '"say \\\\"hi\\\\"\\\\n"')
    True
    """
    core = _speedups.core
    if core is None:
        return None
    out: str | None = core.escape(text, False, ascii)
    return out


def join_rows(pieces: Sequence[str | np.ndarray | list[str]], nrow: int, sep: str) -> str | None:
    """Rows joined by ``sep``; row i is the concatenation of each piece's i-th item (a str piece is
    every row's), written once into one str."""
    core = _speedups.core
    if core is None or not _all_objects(pieces):
        return None
    text: str = core.join_rows(list(pieces), nrow, sep)
    return text


def row_strings(pieces: Sequence[str | np.ndarray | list[str]], nrow: int) -> np.ndarray | None:
    """Each row's text (as :func:`join_rows`), as an object array."""
    core = _speedups.core
    if core is None or not _all_objects(pieces):
        return None
    out = np.empty(nrow, dtype=object)
    core.row_strings(list(pieces), nrow, out)
    return out


def join_coded(pieces: Sequence[tuple[np.ndarray, np.ndarray]]) -> np.ndarray | None:
    """``labels[codes]`` concatenated over the (labels, codes) pairs, as an object array."""
    core = _speedups.core
    if core is None or not pieces:
        return None
    if not all(labels.dtype == object and codes.dtype in _INTS for labels, codes in pieces):
        return None
    out = np.empty(len(pieces[0][1]), dtype=object)
    core.join_coded([(labels, codes) for labels, codes in pieces], out)
    return out


def _all_objects(pieces: Sequence[object]) -> bool:
    return all(
        isinstance(p, (str, list)) or (isinstance(p, np.ndarray) and p.dtype == object) for p in pieces
    )


Cell = tuple[object, ...]
"""A column the compiled row writer formats from its buffer (see ``_core.rows_text``)."""


def number_cells(
    values: np.ndarray, precision: int | None, na: str, use_signif: bool, always_decimal: bool
) -> Cell | None:
    """The cell column of a float64 array (tokens as ``numbers.num_to_char``), or None."""
    if _speedups.core is None or values.dtype != np.float64:
        return None
    mode = _number_mode(precision, use_signif)
    if mode is None:
        return None
    return ("d", values, *mode, always_decimal, *_non_finite_tokens(na, ""))


def int_cells(values: np.ndarray, na: str) -> Cell | None:
    """The cell column of an int32/int64 array (tokens as ``numbers.int_to_char``), or None."""
    if _speedups.core is None or values.dtype not in _INTS:
        return None
    return ("i", values, None if na == "NA" else "null" if na == "null" else '"NA"')


def logical_cells(values: np.ndarray, na: str) -> Cell | None:
    """The cell column of R's logical (int32, NA INT32_MIN): false, true and the NA token, or None."""
    if _speedups.core is None or values.dtype != np.int32:
        return None
    return ("l", values, "false", "true", None if na == "NA" else '"NA"' if na == "string" else "null")


_DAY_RANGE = (-354285, 2932896)
"""The day numbers of 1000-01-01 and 9999-12-31: R writes the years between with four digits."""
_FEW_DAYS = 16


def date_cells(days: np.ndarray, na_token: str | None) -> Cell | None:
    """The cell column of a Date's day numbers (``format()`` of the floored day, quoted; R's NA is
    ``na_token``), or None where another rule applies (another NaN, infinities, years out of range)."""
    if _speedups.core is None or days.dtype != np.float64:
        return None
    if len(days) <= _FEW_DAYS:  # the same checks in plain Python: numpy's per-call cost would dominate
        for day in days.tolist():
            if math.isfinite(day):
                if not _DAY_RANGE[0] <= math.floor(day) <= _DAY_RANGE[1]:
                    return None
            elif not is_na_float(day):
                return None
        return ("D", days, na_token)
    finite = np.isfinite(days)
    if not finite.all():
        low_words = days[~finite].view(np.uint64) & 0xFFFFFFFF
        if np.isinf(days).any() or (low_words != 1954).any():
            return None
    if finite.any():
        whole = np.floor(days[finite])
        if whole.min() < _DAY_RANGE[0] or whole.max() > _DAY_RANGE[1]:
            return None
    return ("D", days, na_token)


def table_cells(codes: np.ndarray, tokens: np.ndarray) -> Cell | None:
    """The cell column ``tokens[codes]`` (numpy's indexing: -1 is the last token), or None."""
    if _speedups.core is None or codes.dtype not in _INTS or tokens.dtype != object:
        return None
    return ("t", codes, tokens)


def string_cells(values: np.ndarray | list[str | None], na_token: str | None) -> Cell | None:
    """The cell column of R's strings (object array or list of str, None for NA), escaped as
    jsonlite does while written, or None."""
    if _speedups.core is None or (type(values) is not list and values.dtype != object):  # type: ignore[union-attr]
        return None
    return ("s", values, na_token)


def clock_cells(
    shown: np.ndarray, days: np.ndarray, times: np.ndarray | None, iso: bool, others: np.ndarray
) -> Cell | None:
    """The cell column of date-times: where ``shown``, the date of the local day number ``days``
    (over the shown elements) and, unless ``times`` is None, the time (minute * 61 + second) after
    a "T" (``iso``) or a space, quoted; elsewhere the token in ``others``. None for years out of 1000
    to 9999."""
    if _speedups.core is None:
        return None
    if len(days) and (days.min() < _DAY_RANGE[0] or days.max() > _DAY_RANGE[1]):
        return None
    full_days = np.zeros(len(shown), dtype=np.int64)
    full_days[shown] = days
    full_times = None
    if times is not None:
        full_times = np.zeros(len(shown), dtype=np.int64)
        full_times[shown] = times
    return ("T", others, shown, full_days, full_times, b"T" if iso else b" ")


def coded_cells(
    pieces: Sequence[tuple[np.ndarray, np.ndarray]], shown: np.ndarray, others: np.ndarray
) -> Cell | None:
    """The cell column of coded text: where ``shown``, ``labels[codes]`` concatenated over the pieces
    (codes over the shown elements), elsewhere the token in ``others`` (None: NA)."""
    if _speedups.core is None or not all(labels.dtype == object for labels, _ in pieces):
        return None
    full = []
    for labels, codes in pieces:
        spread = np.full(len(shown), -1, dtype=np.int64)
        spread[shown] = codes
        full.append((labels, spread))
    return ("c", others, full)


def rows_text(
    cells: list[Cell | np.ndarray] | Callable[[int, int], list[Cell | np.ndarray]],
    keys: list[str] | None,
    nrow: int,
    layout: tuple[str, ...],
    chunk: int = 0,
    escaped: bool = False,
) -> str | bytes | None:
    """A data frame's rows as one text, or None when not compiled (see ``_core.rows_text``):
    ``cells`` is a list of cell columns, or a function giving those of rows start..stop, called for
    every ``chunk`` rows (all written into the one buffer). ``escaped``: the text's UTF-8 bytes
    escaped as the inside of a JSON string holding it (``json.dumps(text, ensure_ascii=False)``
    without its quotes), written in the same pass."""
    core = _speedups.core
    if core is None:
        return None
    text: str | bytes = core.rows_text(cells, keys, nrow, layout, chunk, escaped)
    return text


def cells_text(cell: Cell, opening: str, sep: str, closing: str) -> str | None:
    """One cell column as an array's text (NA tokens written NA), or None when not compiled."""
    core = _speedups.core
    if core is None:
        return None
    text: str = core.cells_text(cell, opening, sep, closing)
    return text


def _number_mode(precision: int | None, use_signif: bool) -> tuple[int, int] | None:
    """(mode, digits) of ``_core.double_tokens``: 0 is ``%.*g``, 1 jsonlite's decimal places."""
    if precision is None:
        return 0, 15
    if use_signif:
        sig = math.ceil(min(15, precision))
        return 0, sig if sig >= 0 else 6
    if isinstance(precision, (int, np.integer)) and abs(precision) < 10_000:
        return 1, int(precision)
    return None


_NUMPY_SCALARS: tuple[tuple[type, ...], ...] = (
    (np.float64, np.float32, np.float16),
    tuple({np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64, np.longlong}),
    (np.bool_,),
    (np.str_,),
)
"""The numpy scalar types ``plain_json`` takes as doubles, integers, logicals and strings (as
``rvalues.as_r`` converts them)."""


PlainOptions = tuple[bool, str, tuple[int | None, bool, bool], str, bool, int, bool]
"""``plain_json``'s options: (auto_unbox, null, digits, na, no_dots, max_depth, numpy_scalars)."""


def plain_json(value: object, options: PlainOptions) -> str | None:
    """The JSON of the R list the dict, list or tuple ``value`` stands for (``rvalues.json.plain``),
    written in one compiled pass; None when not compiled or when an element needs the pure path.

    ``options``: ``auto_unbox``; the ``null`` token; ``digits``, (precision, use_signif,
    always_decimal); ``na``, the doubles' NA rule ("string", "null"; "NA" declines at a non-finite
    double); ``no_dots``; ``max_depth``; ``numpy_scalars``: take numpy's scalars too.

    >>> text = plain_json([1, 2.5, None], (True, "null", (4, False, False), "string", False, 100, True))
    >>> text in (None, "[1,2.5,null]")
    True
    """
    text: str | None = _plain(value, options, False)
    return text


def plain_json_escaped(value: object, options: PlainOptions) -> bytes | None:
    """:func:`plain_json`'s text as the UTF-8 bytes of a JSON string's inside (as
    ``json.dumps(text, ensure_ascii=False)`` writes it), for splicing into a line; or None.

    >>> out = plain_json_escaped({"a": "x"}, (True, "null", (4, False, False), "string", False, 100, True))
    >>> out in (None, b'{\\\\"a\\\\":\\\\"x\\\\"}')
    True
    """
    escaped: bytes | None = _plain(value, options, True)
    return escaped


def _plain(value: object, options: PlainOptions, escape: bool) -> Any:
    core = _speedups.core
    auto_unbox, null, (precision, use_signif, always_decimal), na, no_dots, max_depth, numpy = options
    mode = _number_mode(precision, use_signif)
    if core is None or mode is None:
        return None
    scalars = _NUMPY_SCALARS if numpy else ((), (), (), ())
    non_finite = _non_finite_tokens(na, "")
    return core.plain_json(
        value, auto_unbox, null, *mode, always_decimal, no_dots, non_finite, max_depth, *scalars, escape
    )


def object_kinds(
    values: np.ndarray, cache: dict[type, int], classify: Callable[[type], int]
) -> np.ndarray | None:
    """Each element's kind code (0 to 255), ``cache[type(v)]``, where ``classify(type(v))`` stores the
    code of a type not in ``cache``, as a uint8 array."""
    core = _speedups.core
    if core is None or values.dtype != object or values.ndim != 1:
        return None
    out = np.empty(len(values), dtype=np.uint8)
    core.object_kinds(values, out, cache, classify)
    return out


def date_days(values: np.ndarray, skip: np.ndarray) -> np.ndarray | None:
    """Days since 1970-01-01 of the ``datetime.date`` elements (NaN where ``skip``), or None."""
    core = _speedups.core
    if core is None or values.dtype != object or values.ndim != 1:
        return None
    out = np.full(len(values), np.nan)
    core.date_days(values, np.ascontiguousarray(skip, dtype=bool), out)
    return out


def r_integers(values: np.ndarray, mask: np.ndarray | None) -> np.ndarray | None:
    """R's integer storage of an integer or bool array (R's NA where ``mask``), locked (its memory is
    a bytes object); None without the extension, for another array, or for a value outside R's
    integer range (the caller's own path then converts, and warns)."""
    core = _speedups.core
    if (
        core is None
        or values.ndim != 1
        or values.dtype.kind not in "biu"
        or not values.dtype.isnative
        or (mask is not None and (mask.dtype != bool or mask.shape != values.shape))
    ):
        return None
    data = core.r_integers(values, mask)
    return None if data is None else np.frombuffer(data, dtype=np.int32)


ARROW_INT32, ARROW_FLOAT64, ARROW_DAYS, ARROW_CODES, ARROW_TICKS = range(5)
"""What :func:`arrow_fill` reads: int32, float64, date32 days, int32 dictionary codes, int64 ticks."""


def arrow_fill(out: np.ndarray, array: Any, kind: int, per: int = 0) -> int | None:
    """Fill ``out`` (int32 for ints and codes, else float64) with R's storage of an Arrow int32, float64,
    date32, dictionary-code or timestamp array, nulls as R's NA, read from Arrow's buffers in one
    compiled pass; return how many valid int32 values are R's NA bit pattern. None without the
    extension or for an empty array. ``per``: a timestamp's ticks a second (0: seconds).

    >>> import pyarrow as pa
    >>> out = np.empty(2)
    >>> arrow_fill(out, pa.array([1.5, None]), ARROW_FLOAT64) in (None, 0)
    True
    """
    core = _speedups.core
    buffers = array.buffers()
    if core is None or not len(array) or buffers[1] is None:
        return None
    validity = buffers[0] if array.null_count else None
    return int(core.arrow_fill(out, buffers[1], validity, array.offset, kind, per))


_ARROW_STRINGS = {"string": False, "large_string": True}
"""The Arrow string types ``arrow_strings`` reads, by name: whether their offsets are int64."""


_ARROW_STRINGS_FROM = 40
"""Fewer strings than this are made by Arrow (``to_numpy``): the compiled pass's setup costs more than
it saves there (3 strings: 3.3 us against 2.6 us; 48: 3.5 against 3.6)."""


def arrow_strings(array: Any) -> tuple[np.ndarray, bool] | None:
    """The strings of an Arrow string or large_string Array or ChunkedArray as one object array
    (null -> None) filled from its buffers in one compiled pass (a short string that repeats is
    made once), and whether one holds a NUL; None when not compiled, for another type, or for fewer
    than ``_ARROW_STRINGS_FROM`` strings. Invalid UTF-8: ValueError naming the element.

    >>> import pyarrow as pa
    >>> made = arrow_strings(pa.chunked_array([["a", None] * 40, []], pa.large_string()))
    >>> made is None or (made[0].tolist(), made[1]) == (["a", None] * 40, False)
    True
    """
    core = _speedups.core
    if core is None or len(array) < _ARROW_STRINGS_FROM:
        return None
    large = _ARROW_STRINGS.get(str(array.type))
    if large is None:
        return None
    out = np.empty(len(array), dtype=object)
    at, nul = 0, False
    for chunk in getattr(array, "chunks", (array,)):  # a ChunkedArray's chunks share its type
        validity, offsets, data = chunk.buffers()[:3]
        first_nul = core.arrow_strings(validity, offsets, data, chunk.offset, len(chunk), large, out, at)
        nul = nul or first_nul >= 0
        at += len(chunk)
    return out, nul
