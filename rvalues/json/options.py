"""The arguments of ``jsonlite::toJSON`` as one validated, immutable attrs class.

>>> JsonOptions(dataframe="c").dataframe   # partial matching, as R's match.arg
'columns'
"""

from __future__ import annotations

import math
import warnings
from typing import Any

import attrs
import numpy as np

from rvalues.errors import RValueError
from rvalues.model.strings import shorten


class JsonliteError(RValueError):
    """An error jsonlite raises too; its message is jsonlite's, word for word."""


@attrs.frozen
class Signif:
    """jsonlite's ``digits = I(n)``: n significant digits instead of n decimal places.

    >>> Signif(3)
    signif(3)
    """

    digits: int | float | None

    def __repr__(self) -> str:
        return f"signif({self.digits!r})"


def signif(n: int | float | None) -> Signif:
    """``digits=signif(3)`` is jsonlite's ``digits=I(3)``.

    >>> from rvalues.json import to_json
    >>> to_json(1234.5678, digits=signif(3))
    '[1.23e+03]'
    """
    return Signif(n)


CHOICES: dict[str, tuple[str, ...]] = {
    "dataframe": ("rows", "columns", "values"),
    "matrix": ("rowmajor", "columnmajor"),
    "date": ("ISO8601", "epoch"),
    "posixt": ("string", "ISO8601", "epoch", "mongo"),
    "factor": ("string", "integer"),
    "complex": ("string", "list"),
    "raw": ("base64", "hex", "mongo", "int", "js"),
    "null": ("list", "null"),
    "na": ("null", "string"),
}


def match_arg(value: Any, choices: tuple[str, ...], option: str = "arg") -> str:
    """R's ``match.arg``: an exact match, else a unique prefix, else jsonlite's error.

    >>> match_arg("col", ("rows", "columns", "values"))
    'columns'
    """
    if not isinstance(value, str):
        raise JsonliteError(f"'{option}' must be a string, one of {', '.join(choices)}; got {shorten(value)}")
    if value in choices:
        return value
    hits = [c for c in choices if value and c.startswith(value)]
    if len(hits) == 1:
        return hits[0]
    listed = ", ".join(f"\u201c{c}\u201d" for c in choices)
    raise JsonliteError(f"'arg' should be one of {listed}")


def _precision(digits: Any) -> int | None:
    """C's ``asInteger(digits)``: truncation toward zero; NA, NaN and out-of-range give NA (None)."""
    if isinstance(digits, (bool, np.bool_)) or not isinstance(digits, (int, float, np.integer, np.floating)):
        raise JsonliteError("is.numeric(digits) is not TRUE")
    digits = digits.item() if isinstance(digits, (np.integer, np.floating)) else digits
    if isinstance(digits, float):
        if math.isnan(digits):
            return None
        if math.isinf(digits) or abs(digits) >= 2**31:
            warnings.warn("NAs introduced by coercion to integer range", RuntimeWarning, stacklevel=4)
            return None
        return int(digits)
    if abs(digits) >= 2**31:
        warnings.warn("NAs introduced by coercion to integer range", RuntimeWarning, stacklevel=4)
        return None
    return digits


def _check_digits(instance: Any, attribute: Any, value: Any) -> None:
    inner = value.digits if isinstance(value, Signif) else value
    if inner is not None:
        _precision(inner)


def _choice(option: str, value: Any) -> str:
    return match_arg(value, CHOICES[option], option)


def _na(value: Any) -> str | None:
    return None if value is None else match_arg(value, CHOICES["na"], "na")


def _is_true(value: Any) -> bool:
    """R's ``isTRUE``, as jsonlite tests its flags: only a true logical counts (1, "TRUE" do not)."""
    return value is True or (isinstance(value, np.bool_) and bool(value))


def _rownames(value: Any) -> bool | None:
    if value is None or isinstance(value, bool):
        return value
    raise RValueError(f"rownames must be True, False or None, not {shorten(value)}")


def _digits_secs(value: Any) -> int | None:
    """R's ``options(digits.secs = n)``: None (unset) or a whole number of decimals for seconds."""
    if value is None:
        return None
    if isinstance(value, (bool, np.bool_)) or not isinstance(value, (int, np.integer)):
        raise RValueError(
            f"digits_secs must be None or a whole number of decimals (R's options(digits.secs)), "
            f"not {shorten(value)}"
        )
    return int(value)


def _pretty(value: Any) -> bool | int | float:
    if isinstance(value, bool) or value is None:
        return bool(value)
    if isinstance(value, (int, float, np.integer, np.floating)):
        value = value.item() if isinstance(value, (np.integer, np.floating)) else value
        if value < 0:
            raise JsonliteError("invalid 'times' argument")
        return value
    raise RValueError(f"pretty must be True, False or a number of spaces, not {shorten(value)}")


_JSONLITE_NAMES = {"Date": "date", "POSIXt": "posixt", "UTC": "utc", "digits.secs": "digits_secs"}
"""jsonlite's (and R's) argument names that are not JsonOptions' own."""


@attrs.frozen
class JsonOptions:
    """Every argument of ``toJSON`` (jsonlite 1.8.4), with jsonlite's defaults and checks: the one
    declaration that ``to_json``'s keywords and ``Ctx`` follow (a test holds them to it).

    ``na=None`` is jsonlite's "not given" (each class's own default); ``digits=None`` is ``NA``
    (15 significant digits); ``digits=signif(n)`` is ``I(n)``. ``utc``, ``time_format``,
    ``json_verbatim`` and ``no_dots`` are the arguments jsonlite passes on to its methods (``UTC``
    ...); ``digits_secs`` is R's ``options(digits.secs)``, which ``format()`` of date-times reads.

    >>> JsonOptions(na="str").na
    'string'
    """

    dataframe: str = attrs.field(default="rows", converter=lambda v: _choice("dataframe", v))
    matrix: str = attrs.field(default="rowmajor", converter=lambda v: _choice("matrix", v))
    date: str = attrs.field(default="ISO8601", converter=lambda v: _choice("date", v))
    posixt: str = attrs.field(default="string", converter=lambda v: _choice("posixt", v))
    factor: str = attrs.field(default="string", converter=lambda v: _choice("factor", v))
    complex: str = attrs.field(default="string", converter=lambda v: _choice("complex", v))
    raw: str = attrs.field(default="base64", converter=lambda v: _choice("raw", v))
    null: str = attrs.field(default="list", converter=lambda v: _choice("null", v))
    na: str | None = attrs.field(default=None, converter=_na)
    auto_unbox: bool = attrs.field(default=False, converter=_is_true)
    digits: int | float | Signif | None = attrs.field(default=4, validator=_check_digits)
    pretty: bool | int | float = attrs.field(default=False, converter=_pretty)
    force: bool = attrs.field(default=False, converter=_is_true)
    keep_vec_names: bool = attrs.field(default=False, converter=_is_true)
    always_decimal: bool = attrs.field(default=False, converter=_is_true)
    rownames: bool | None = attrs.field(default=None, converter=_rownames)
    utc: bool = attrs.field(default=False, converter=_is_true)
    # any value, as R takes it: a non-str is jsonlite's error when a date-time is written
    time_format: str | None = attrs.field(default=None)
    json_verbatim: bool = attrs.field(default=False, converter=_is_true)
    no_dots: bool = attrs.field(default=False, converter=_is_true)
    digits_secs: int | None = attrs.field(default=None, converter=_digits_secs)

    @property
    def precision(self) -> int | None:
        """``asInteger(digits)``: None is NA (maximum precision)."""
        inner = self.digits.digits if isinstance(self.digits, Signif) else self.digits
        return None if inner is None else _precision(inner)

    @property
    def use_signif(self) -> bool:
        """Whether digits count significant digits (``I(n)``)."""
        return isinstance(self.digits, Signif)

    @classmethod
    def from_jsonlite(cls, args: dict[str, Any]) -> JsonOptions:
        """Options from jsonlite's argument names (``Date``, ``POSIXt``, ``{"I": n}`` for ``I(n)``).

        >>> JsonOptions.from_jsonlite({"Date": "epoch", "digits": {"I": 3}}).date
        'epoch'
        """
        out: dict[str, Any] = {}
        for name, value in args.items():
            key = _JSONLITE_NAMES.get(name, name)
            if isinstance(value, dict) and set(value) == {"I"}:
                value = Signif(value["I"])
            out[key] = value
        return cls(**out)
