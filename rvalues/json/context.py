"""The arguments that travel down jsonlite's ``asJSON`` recursion (its formals and ``...``).

Each encoder consumes its own formals and passes the rest on, as the R methods do; ``but()``
returns a copy with some changed. :class:`Ctx` starts from a :class:`JsonOptions` (the one
declaration of ``toJSON``'s arguments): the options it shares keep their names and types (a test
holds them together), ``digits`` becomes ``precision`` and ``use_signif``, ``pretty`` becomes
``indent``. ``na`` is None (not given), "null", "string" or "NA" (jsonlite's marker for "omit this
field" in data-frame rows); ``indent`` None is compact.

The row-key prefix. With ``collapse`` off, the data-frame encoder may set ``prefix`` to the text
that comes before a column's cell in every row (``{"key":`` or ``,"key":``). An encoder of a class
in :data:`PREFIX_AWARE` may then write it before each token it makes (``numbers.int_to_char`` and
``num_to_char`` take it as ``prefix``; :func:`prefix_tokens` does it for ready tokens) and mark
the result with :class:`Prefixed`: joining the key once per distinct token is cheaper than once per
row. NA tokens (None) stay unprefixed, because the row omits them. Every other class is encoded
with the prefix cleared (the generic, ``dispatch.encode``, does it), and the frame adds the key itself.

Token lists. The rows of a small frame are assembled in plain Python from lists of tokens. With
``list_tokens`` set (and ``collapse`` off), an encoder of a class in :data:`PREFIX_AWARE` may return
its tokens as a list of str/None instead of an object array, which a few tokens are cheaper as;
the generic clears it for every other class, as it clears the prefix.

The generic. ``ctx.encode`` is ``asJSON`` itself (:func:`rvalues.json.dispatch.encode`): an
encoder encodes a part of its value with ``ctx.encode(part, child_ctx)``, as a cattrs hook factory
calls the converter it is handed, so no encoder imports the dispatch that imports it.

>>> from rvalues.json.options import signif
>>> ctx = Ctx.top(JsonOptions(digits=signif(2), pretty=True), lambda x, ctx, cls=None: "[]")
>>> ctx.precision, ctx.use_signif, ctx.indent
(2, True, 0)
>>> ctx.as_options().digits
signif(2)
"""

from __future__ import annotations

import operator
from collections.abc import Callable
from typing import Any, NamedTuple, Protocol

import attrs
import numpy as np

from rvalues.json.options import JsonOptions, Signif

__all__ = ["PREFIX_AWARE", "SHARED", "Ctx", "Generic", "Prefixed", "prefix_tokens", "token_array"]


class Generic(Protocol):
    """``asJSON(x, ...)``: the JSON text (or tokens) of x at ctx; ``cls`` stands in for ``class(x)``."""

    def __call__(self, x: Any, ctx: Ctx, cls: tuple[str, ...] | None = None, /) -> Any: ...


class Ctx(NamedTuple):
    """One call's arguments, immutable (``but`` makes a changed copy)."""

    # the JsonOptions fields of the same name, in their order (SHARED)
    dataframe: str
    matrix: str
    date: str
    posixt: str
    factor: str
    complex: str
    raw: str
    null: str
    na: str | None
    auto_unbox: bool
    force: bool
    keep_vec_names: bool
    always_decimal: bool
    rownames: bool | None
    utc: bool
    time_format: str | None
    json_verbatim: bool
    no_dots: bool
    digits_secs: int | None
    # JsonOptions.digits and .pretty, as the encoders use them
    precision: int | None
    use_signif: bool
    indent: int | None
    # the generic every encoder calls for the parts of its value (module docstring)
    encode: Generic
    # asJSON's own arguments on the way down
    oldna: str | None = None
    collapse: bool = True
    is_df: bool = False
    prefix: str | None = None  # the row-key prefix (module docstring)
    list_tokens: bool = False  # uncollapsed tokens may be a list (module docstring)

    @classmethod
    def top(cls, options: JsonOptions, encode: Generic) -> Ctx:
        """The arguments ``toJSON`` hands to the first ``asJSON`` call, ``encode`` being ``asJSON``
        (made once per options object: both are immutable, and a server encodes every result under
        the same few)."""
        known = _TOPS.get(id(options))
        if known is not None and known[0] is options and known[1].encode is encode:
            return known[1]
        indent = 0 if options.pretty is True else None
        top = (*_shared(options), options.precision, options.use_signif, indent, encode, *_DEFAULTS)
        ctx = cls._make(top)
        if len(_TOPS) >= 64:
            _TOPS.clear()
        _TOPS[id(options)] = (options, ctx)
        return ctx

    def as_options(self) -> JsonOptions:
        """The ``toJSON`` options as an ``asJSON`` method sees them here (what a user's encoder gets).

        ``pretty`` is True or False: a number of spaces is applied after encoding, not during.
        """
        na = self.oldna if self.na == "NA" else self.na
        shared = _shared(self)
        key = (*shared, na, self.precision, self.use_signif, self.indent is None)
        options = _OPTIONS.get(key)
        if options is None:
            named = dict(zip(SHARED, shared), na=na)
            digits = Signif(self.precision) if self.use_signif else self.precision
            options = JsonOptions(digits=digits, pretty=self.indent is not None, **named)
            if len(_OPTIONS) >= 256:
                _OPTIONS.clear()
            _OPTIONS[key] = options
        return options

    def but(self, **changes: Any) -> Ctx:
        """A copy with ``changes`` applied (what ``_replace`` does, in a third of its time)."""
        values = list(self)
        try:
            for name, value in changes.items():
                values[_FIELD_INDEX[name]] = value
        except KeyError as err:
            raise ValueError(f"Ctx has no field {err.args[0]!r}") from None
        return _new_ctx(Ctx, values)

    def plus(self, indent: int | None, by: int = 2) -> int | None:
        """``indent + 2L`` with NA staying NA."""
        return None if indent is None else indent + by


SHARED: tuple[str, ...] = tuple(f.name for f in attrs.fields(JsonOptions) if f.name in Ctx._fields)
"""The options Ctx carries under their JsonOptions names: its first fields."""
_shared: Callable[[object], tuple[Any, ...]] = operator.attrgetter(*SHARED)
_DEFAULTS = tuple(Ctx._field_defaults.values())  # oldna, collapse, is_df, prefix, list_tokens

_OPTIONS: dict[tuple[Any, ...], JsonOptions] = {}
_TOPS: dict[int, tuple[JsonOptions, Ctx]] = {}  # id(options) -> (options, its top Ctx); holds options alive
_FIELD_INDEX = {name: i for i, name in enumerate(Ctx._fields)}
_new_ctx = tuple.__new__

PREFIX_AWARE = frozenset(
    {"AsIs", "scalar", "logical", "numeric", "integer", "double", "character", "factor", "ordered"}
    | {"Date", "POSIXct"}
)
"""Classes whose methods make tokens themselves (or pass on to one that does) and take ``prefix``."""


class Prefixed:
    """Tokens that already start with ``ctx.prefix`` (NA tokens, None, excepted).

    >>> Prefixed(np.array(['{"a":1'], dtype=object)).tokens.tolist()
    ['{"a":1']
    """

    __slots__ = ("tokens",)

    def __init__(self, tokens: np.ndarray) -> None:
        self.tokens = tokens


def prefix_tokens(tokens: np.ndarray, prefix: str | None) -> np.ndarray:
    """``prefix`` before every token but the NA ones (None), for a few ready tokens.

    >>> prefix_tokens(np.array(['"a"', None], dtype=object), '{"k":').tolist()
    ['{"k":"a"', None]
    """
    if not prefix:
        return tokens
    return token_array([None if t is None else prefix + t for t in tokens.tolist()])


def token_array(tokens: np.ndarray | list[str | None]) -> np.ndarray:
    """Tokens as an object array (a list is copied into one; an array is returned as it is).

    >>> token_array(['"a"', None])
    array(['"a"', None], dtype=object)
    """
    if type(tokens) is not list:
        return tokens  # type: ignore[return-value]
    out = np.empty(len(tokens), dtype=object)
    out[:] = tokens
    return out
