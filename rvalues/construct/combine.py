"""R's internal ``c()`` (``do_c``): the combine every call ends in, with R's coercion order, NA
typing and names. ``c()`` itself, which first dispatches on a classed first argument, is
:func:`rvalues.construct.dispatch.c`."""

from __future__ import annotations

from typing import Any

import numpy as np

from rvalues.errors import RValueError
from rvalues.model.base import RValue
from rvalues.model.build import build
from rvalues.model.coerce import as_type, highest_type
from rvalues.model.lists import NULL
from rvalues.model.vectors import ATOMIC_TYPES, Character


def combine(args: list[tuple[str | None, RValue]], names: Character | bool | None = True) -> Any:
    """``c()`` without method dispatch (R's internal default), over (tag, value) pairs.

    ``names`` overrides the names the arguments would give (None: no names).
    """
    if names is True:
        names = combined_names(args)
    args = [(tag, v) for tag, v in args if v is not NULL]
    if not args:
        return NULL
    for tag, value in args:
        if value.r_type not in ATOMIC_TYPES and value.r_type not in ("list", "NULL"):
            raise RValueError(f"c(): argument {tag or ''} of type {value.r_type} cannot be combined")
    r_type = highest_type([v.r_type for _, v in args])
    if r_type == "list":
        elements: list[RValue] = []
        for _, value in args:
            elements.extend(as_type(value, "list").data if value.r_type != "list" else value.data)
        out: Any = build("list", tuple(elements))
    else:
        parts = [as_type(v, r_type).data for _, v in args]
        out = build(r_type, np.concatenate(parts))
    if isinstance(names, Character) and len(out):
        out = build(r_type, out.data, {"names": names})
    return out


def combined_names(args: list[tuple[str | None, RValue]], recursive: bool = False) -> Character | None:
    """The names ``c()`` (or ``unlist()``) gives its result, or None where nothing is named.

    A tag ``x`` on a length-1 argument names it ``x``; on a longer one ``x1, x2, ...``;
    with inner names ``a`` it becomes ``x.a``. Untagged arguments keep their own names.
    """
    # R counts the tag of a NULL argument only when that argument comes first.
    if not any(
        (tag and (v is not NULL or i == 0)) or _has_names(v, recursive) for i, (tag, v) in enumerate(args)
    ):
        return None
    out: list[str | None] = []
    for tag, value in args:
        _extract_names(value, "", tag if tag else False, recursive, out, _NameState())
    if not out:
        return None
    return build("character", np.array(out, dtype=object))


def _has_names(value: RValue, recursive: bool) -> bool:
    if value.names is not None:
        return True
    return recursive and value.r_type == "list" and any(_has_names(v, True) for v in value.data)


class _NameState:
    """Where R's name extraction is within one argument: element count, sequence, first slot."""

    def __init__(self) -> None:
        self.count = 0
        self.seqno = 0
        self.firstpos = 0


def _text(name: str | None) -> str:
    return "NA" if name is None else name


def _item_name(names: list[str | None] | None, i: int) -> str | bool | None:
    """An element's own name, or False where it has none (R's ItemName: "" counts as none)."""
    if names is None or names[i] == "":
        return False
    return names[i]


def _new_base(base: str | None, tag: str | None) -> str | None:
    if _text(base) and _text(tag) and base != "" and tag != "":
        return f"{_text(base)}.{_text(tag)}"
    if tag != "":
        return tag
    return base


def _new_name(base: str | None, tag: str | bool | None, seqno: int) -> str | None:
    if base != "" and tag is not False and tag != "":
        return f"{_text(base)}.{_text(tag)}"  # type: ignore[arg-type]
    if base != "":
        return f"{_text(base)}{seqno}"
    if tag is not False:
        return tag  # type: ignore[return-value]
    return ""


def _extract_names(
    value: RValue,
    base: str | None,
    tag: str | bool | None,
    recursive: bool,
    out: list[str | None],
    state: _NameState,
) -> None:
    saved = (state.firstpos, state.seqno, state.count)
    tagged = tag is not False
    if tagged:
        base = _new_base(base, tag)  # type: ignore[arg-type]
        state.count, state.seqno, state.firstpos = 0, 0, -1
    names = value.names.data.tolist() if value.names is not None else None
    if value.r_type != "NULL":
        for i in range(len(value)):
            name = _item_name(names, i)
            if recursive and value.r_type == "list":
                _extract_names(value.data[i], base, name, recursive, out, state)
                continue
            if name is False and state.count == 0:
                state.firstpos = len(out)
            state.count += 1
            state.seqno += 1
            out.append(_new_name(base, name, state.seqno))
    if tagged:
        if state.firstpos >= 0 and state.count == 1:
            out[state.firstpos] = base
        state.firstpos, state.count = saved[0], saved[2]
        state.seqno += saved[1]


def leaves(value: RValue) -> list[RValue]:
    """The atomic vectors inside a value, depth first (``unlist``'s view); NULL has none."""
    if value.r_type == "NULL":
        return []
    if value.r_type == "list":
        return [leaf for element in value.data for leaf in leaves(element)]
    return [value]
