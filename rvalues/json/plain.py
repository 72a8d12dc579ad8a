"""JSON for plain Python data read as R lists, vectorized: what ``toJSON`` gives for the R list
a tree of dicts, lists and scalars stands for, without building an R value per element.

The tree is read as mcplite reads a tool's return value: a dict is a named list, a list or tuple
an unnamed list, and every other element its own R value (``int`` an integer where it fits R's
range, ``float`` a double, ``str`` a string, ``bool`` a logical, ``None`` NULL). The elements of
one list (or the values under one key across many dicts) are gathered by exact type and each
group goes through the atomic encoders once, as a column; dicts that share their keys become
rows. The compiled writer (``_core.plain_json``) writes the same text in one pass when every
element is of a kind it knows (those above and numpy's scalars), and declines otherwise, the whole
value then taking this path. Anything else (other types, subclasses, out-of-range ints, non-str
keys) is handed to ``leaf`` one element at a time and encoded by the general path, so the bytes
are always the general path's.

>>> from rvalues.json.options import JsonOptions
>>> from rvalues.convert import as_r
>>> encode_plain([{"a": 1, "b": "x"}, {"a": 2.5, "b": None}], JsonOptions(auto_unbox=True), as_r)
'[{"a":1,"b":"x"},{"a":2.5,"b":{}}]'
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from itertools import chain
from typing import Any

import numpy as np

from rvalues._speedups.writer import PlainOptions, plain_json, plain_json_escaped
from rvalues.convert.registry import converters_registered
from rvalues.json.context import Ctx
from rvalues.json.dispatch import encode, top
from rvalues.json.lists import _one, encode_null, object_keys
from rvalues.json.numbers import format_many, int_to_char, num_to_char
from rvalues.json.options import JsonOptions
from rvalues.json.strings import escape_array
from rvalues.model.base import RValue
from rvalues.model.elements import INT_MAX
from rvalues.model.lists import MAX_DEPTH
from rvalues.model.strings import clip, shorten

Leaf = Callable[[Any, str], RValue]
"""Turns one element the fast path does not handle into its R value (``where`` names it in errors)."""

Where = Callable[[int], str]

_SCALARS = (bool, int, float, str, type(None))


def can_encode_plain(value: Any, options: JsonOptions) -> bool:
    """Whether :func:`encode_plain` takes ``value``: a non-empty dict, list or tuple, compact JSON."""
    return type(value) in (dict, list, tuple) and len(value) > 0 and options.pretty is False


def encode_plain(value: Any, options: JsonOptions, leaf: Leaf, where: str = "value") -> str:
    """The JSON text of the R list ``value`` (a dict, list or tuple) stands for.

    >>> from rvalues.convert import as_r
    >>> encode_plain([1, 2.5, "a", None, True], JsonOptions(auto_unbox=True, null="null"), as_r)
    '[1,2.5,"a",null,true]'
    """
    if options.pretty is not False:
        raise ValueError(f"encode_plain writes compact JSON only, not pretty={options.pretty!r}")
    ctx = top(options)
    text = plain_json(value, _compiled_options(ctx))
    if text is not None:
        return text
    return _tokens([value], ctx, leaf, lambda i: where, 0)[0]


def encode_plain_escaped(value: Any, options: JsonOptions) -> bytes | None:
    """:func:`encode_plain`'s text as the UTF-8 bytes of a JSON string's inside (for splicing into
    a JSON line), written by the compiled writer in the same pass; None where it does not run or
    declines the value (the caller then writes the text and escapes it itself).

    >>> encode_plain_escaped(["a"], JsonOptions(auto_unbox=True)) in (None, b'[\\\\"a\\\\"]')
    True
    """
    if options.pretty is not False:
        return None
    return plain_json_escaped(value, _compiled_options(top(options)))


def _compiled_options(ctx: Ctx) -> PlainOptions:
    return (
        ctx.auto_unbox,
        encode_null(ctx),
        (ctx.precision, ctx.use_signif, ctx.always_decimal),
        ctx.na or "string",
        ctx.no_dots,
        MAX_DEPTH,
        # numpy scalars go through as_r, where a registered converter may take them
        not converters_registered(),
    )


def _tokens(values: Sequence[Any], ctx: Ctx, leaf: Leaf, where: Where, depth: int) -> list[str]:
    """One token per element, each element encoded as its own R value; ``depth`` lists down."""
    kinds = list(map(type, values))
    distinct = set(kinds)
    if len(distinct) == 1:
        return _kind_tokens(kinds[0], values, ctx, leaf, where, depth)
    out = np.empty(len(values), dtype=object)
    number = {kind: k for k, kind in enumerate(distinct)}
    kind_of = np.array(list(map(number.__getitem__, kinds)), dtype=np.int64)
    for kind, k in number.items():
        idx = np.flatnonzero(kind_of == k).tolist()
        picked = list(map(values.__getitem__, idx))
        out[idx] = _kind_tokens(kind, picked, ctx, leaf, _sub(where, idx), depth)
    return out.tolist()  # type: ignore[no-any-return]


def _sub(where: Where, idx: Sequence[int]) -> Where:
    return lambda j: where(idx[j])


def _kind_tokens(
    kind: type, values: Sequence[Any], ctx: Ctx, leaf: Leaf, where: Where, depth: int
) -> list[str]:
    if kind is dict or kind is list or kind is tuple:
        if depth >= MAX_DEPTH:
            raise TypeError(
                f"{clip(where(0))}: the value nests more than {MAX_DEPTH} levels deep (rvalues.MAX_DEPTH); "
                "is it a structure that contains itself?"
            )
        if kind is dict:
            return _dicts(values, ctx, leaf, where, depth)
        return _lists(values, ctx, leaf, where, depth)
    if kind is type(None):
        return [encode_null(ctx)] * len(values)
    if kind in _SCALARS:
        return _scalars(kind, values, ctx, leaf, where)
    return _general(values, ctx, leaf, where)


def _general(values: Sequence[Any], ctx: Ctx, leaf: Leaf, where: Where) -> list[str]:
    """Each element through ``leaf`` and the general encoder."""
    out: list[str] = []
    for i, v in enumerate(values):
        token = _one(encode(leaf(v, where(i)), ctx))
        out.append("NA" if token is None else token)
    return out


def _scalars(kind: type, values: Sequence[Any], ctx: Ctx, leaf: Leaf, where: Where) -> list[str]:
    """Length-1 vectors: one column through the atomic encoder, boxed unless ``auto_unbox``."""
    if kind is int:
        return _ints(values, ctx, leaf, where)
    if kind is bool:
        table = np.array(["false", "true"], dtype=object)
        tokens = table[np.array(values, dtype=bool).view(np.uint8)]
    elif kind is float:
        data = np.array(values, dtype=np.float64)
        tokens = num_to_char(data, ctx.precision, ctx.na or "string", ctx.use_signif, ctx.always_decimal)
    elif "\x00" in "\x01".join(values):
        # R strings cannot hold NUL: the general path refuses them
        return _general(values, ctx, leaf, where)
    else:
        tokens = escape_array(np.array(values, dtype=object), "null")
    return _boxed(tokens.tolist(), ctx)


def _ints(values: Sequence[Any], ctx: Ctx, leaf: Leaf, where: Where) -> list[str]:
    if -INT_MAX <= min(values) and max(values) <= INT_MAX:
        # R's "%d" of an integer is Python's str() of the int
        return _boxed(list(map(int.__repr__, values)), ctx)
    try:
        data = np.array(values, dtype=np.int64)
    except OverflowError:
        return _general(values, ctx, leaf, where)
    fits = (data >= -INT_MAX) & (data <= INT_MAX)
    if fits.all():
        return _boxed(int_to_char(data.astype(np.int32), ctx.na or "string").tolist(), ctx)
    # ints beyond R's integer range are doubles: the general path writes them
    out = np.empty(len(values), dtype=object)
    inside = np.flatnonzero(fits).tolist()
    outside = np.flatnonzero(~fits).tolist()
    out[inside] = _boxed(int_to_char(data[inside].astype(np.int32)).tolist(), ctx)
    out[outside] = _general([values[i] for i in outside], ctx, leaf, _sub(where, outside))
    return out.tolist()  # type: ignore[no-any-return]


def _boxed(tokens: list[str], ctx: Ctx) -> list[str]:
    if ctx.auto_unbox:
        return tokens
    return format_many("[%s]", tokens)


def _lists(values: Sequence[Any], ctx: Ctx, leaf: Leaf, where: Where, depth: int) -> list[str]:
    """Unnamed lists: all their elements encoded together, then each list joined."""
    lengths = list(map(len, values))
    flat = list(chain.from_iterable(values))
    starts = np.cumsum([0, *lengths])

    def flat_where(j: int) -> str:
        i = int(np.searchsorted(starts, j, side="right")) - 1
        return f"{where(i)}[{j - int(starts[i])}]"

    tokens = _tokens(flat, ctx, leaf, flat_where, depth + 1)
    out = []
    pos = 0
    for n in lengths:
        out.append("[" + ",".join(tokens[pos : pos + n]) + "]")
        pos += n
    return out


def _dicts(values: Sequence[Any], ctx: Ctx, leaf: Leaf, where: Where, depth: int) -> list[str]:
    """Named lists: grouped by their keys (in order), each group's values gathered by key."""
    keysets = list(map(tuple, values))
    first = keysets[0]
    if keysets.count(first) == len(keysets):
        return _dict_group(first, values, ctx, leaf, where, depth)
    groups: dict[tuple[Any, ...], list[int]] = {}
    for i, keys in enumerate(keysets):
        groups.setdefault(keys, []).append(i)
    out = np.empty(len(values), dtype=object)
    for keys, idx in groups.items():
        out[idx] = _dict_group(keys, [values[i] for i in idx], ctx, leaf, _sub(where, idx), depth)
    return out.tolist()  # type: ignore[no-any-return]


def _dict_group(
    keys: tuple[Any, ...], dicts: Sequence[Any], ctx: Ctx, leaf: Leaf, where: Where, depth: int
) -> list[str]:
    if not all(type(k) is str and "\x00" not in k for k in keys):
        return _general(dicts, ctx, leaf, where)
    if not keys:
        return ["{}"] * len(dicts)
    columns = []
    for key in keys:
        column = [d[key] for d in dicts]
        columns.append(_tokens(column, ctx, leaf, _keyed(where, key), depth + 1))
    fields = [k.replace("%", "%%") + ":%s" for k in object_keys(list(keys), ctx.no_dots)]
    return format_many("{" + ",".join(fields) + "}", *columns)


def _keyed(where: Where, key: str) -> Where:
    return lambda i: f"{where(i)}[{shorten(key)}]"
