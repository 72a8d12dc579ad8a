"""Encoders for NULL and lists (jsonlite's asJSON methods for NULL and list)."""

from __future__ import annotations

import warnings
from collections.abc import Sequence
from typing import Any

import numpy as np

from rvalues.json.collapse import collapse, collapse_object
from rvalues.json.context import Ctx
from rvalues.json.names import cleannames
from rvalues.json.options import JsonliteError
from rvalues.json.strings import escape_array
from rvalues.model.lists import List


def encode_null(ctx: Ctx) -> str:
    """``{}``, or ``null`` with ``null="null"``."""
    return "null" if ctx.null == "null" else "{}"


def object_keys(names: Sequence[str | None], no_dots: bool = False) -> list[str]:
    """Escaped, cleaned object keys (remembered for the few name sets a server writes again and
    again); ``no_dots``: jsonlite's, dots become underscores."""
    key = (no_dots, *names)
    keys = _KEYS.get(key)
    if keys is None:
        keys = escape_array(np.array(cleannames(names, no_dots), dtype=object)).tolist()
        if len(names) <= 64:
            if len(_KEYS) >= 1024:
                _KEYS.clear()
            _KEYS[key] = keys
    return list(keys)


_KEYS: dict[tuple[bool | str | None, ...], list[str]] = {}


def encode_list(elements: Sequence[Any], names: Sequence[str | None] | None, ctx: Ctx) -> Any:
    """A list: an object when it has names (even all empty), else an array of its encoded elements.

    >>> from rvalues import r_list
    >>> from rvalues.json import to_json
    >>> to_json(r_list(a=1, b="x"))
    '{"a":[1],"b":["x"]}'
    """
    na = ctx.oldna if ctx.na == "NA" else ctx.na
    child = ctx.but(na=na, oldna=None, indent=ctx.plus(ctx.indent), collapse=True, is_df=False)
    if ctx.is_df and ctx.auto_unbox:
        boxed = child.but(auto_unbox=False)
        tokens = [ctx.encode(y, child if isinstance(y, List) else boxed) for y in elements]
    else:
        tokens = [ctx.encode(y, child) for y in elements]
    tokens = [_one(t) for t in tokens]
    if names is not None:
        if not ctx.collapse:
            warnings.warn("collapse=FALSE called for named list.", UserWarning, stacklevel=2)
        return collapse_object(object_keys(names, ctx.no_dots), tokens, ctx.indent)
    if ctx.collapse:
        return collapse(tokens, inner=False, indent=ctx.indent)
    return np.array(tokens, dtype=object)


def _one(token: Any) -> str | None:
    if isinstance(token, np.ndarray):
        if len(token) != 1:
            raise JsonliteError(f"values must be length 1,\n but FUN(X[[1]]) result is length {len(token)}")
        return token[0]  # type: ignore[no-any-return]
    return token  # type: ignore[no-any-return]
