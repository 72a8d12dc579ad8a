"""Encoders for the atomic types (jsonlite's asJSON methods for logical, numeric, character,
complex and raw). Each returns the collapsed text, or the token array when ``collapse`` is off.
"""

from __future__ import annotations

import base64
import warnings
from typing import Any

import numpy as np

import rvalues.json.numbers as numbers
import rvalues.json.strings as strings

# modules: the few-element thresholds are read when called (tests change them)
from rvalues._speedups import writer as compiled
from rvalues.format.complex_text import format_complex
from rvalues.json.collapse import collapse
from rvalues.json.context import Ctx, Prefixed, token_array
from rvalues.json.lists import encode_list
from rvalues.json.numbers import few_int_tokens, few_num_tokens, int_to_char, num_to_char
from rvalues.json.options import JsonliteError
from rvalues.json.strings import escape, escape_array, escape_few
from rvalues.model.base import RValue
from rvalues.model.build import build
from rvalues.na import NA_INTEGER

KEEP_VEC_NAMES_MESSAGE = (
    "Input to asJSON(keep_vec_names=TRUE) is a named vector. In a future version of jsonlite, this "
    "option will not be supported, and named vectors will be translated into arrays instead of "
    "objects. If you want JSON object output, please use a named list instead. See ?toJSON."
)


class KeepVecNamesWarning(UserWarning):
    """jsonlite's deprecation message for ``keep_vec_names=TRUE`` (an R message there)."""


def finish(tokens: np.ndarray | list[str | None], ctx: Ctx, prefixed: bool = False) -> Any:
    """Unbox a single token, return the tokens uncollapsed, or collapse them to an array.

    ``tokens``: an object array, or for a few a list. ``prefixed``: the tokens carry ``ctx.prefix``
    (the row-key prefix, see ``context``). Uncollapsed tokens are an array unless ``ctx.list_tokens``.
    """
    if ctx.prefix is not None:
        tokens = token_array(tokens)
        return Prefixed(tokens) if prefixed else tokens
    if ctx.auto_unbox and len(tokens) == 1:
        return tokens[0]
    if ctx.collapse:
        # only na="NA" (data-frame rows) makes None tokens
        listed = tokens if isinstance(tokens, list) else tokens.tolist()
        return collapse(listed, inner=True, indent=ctx.indent, may_have_na=ctx.na == "NA")
    return tokens if ctx.list_tokens else token_array(tokens)


def has_names(x: RValue) -> bool:
    names = x.attributes.get("names")
    return names is not None and len(names.data) > 0


def keep_names_list(x: RValue, elements: list[RValue], ctx: Ctx, **passed: Any) -> Any:
    """The keep_vec_names branch: ``asJSON(as.list(x), auto_unbox = TRUE, ...)`` (indent dropped)."""
    warnings.warn(KEEP_VEC_NAMES_MESSAGE, KeepVecNamesWarning, stacklevel=2)
    child = ctx.but(auto_unbox=True, indent=None, keep_vec_names=False, always_decimal=False, **passed)
    return encode_list(elements, x.attributes["names"].data.tolist(), child)


def _as_list(x: RValue) -> list[RValue]:
    """R's ``as.list`` of an atomic vector: bare length-1 vectors."""
    return [build(x.r_type, x.data[i : i + 1]) for i in range(len(x.data))]


_BOOL = np.array(["false", "true"], dtype=object)


def encode_logical(x: RValue, ctx: Ctx) -> Any:
    """true/false; NA as null ("NA" with na="string", omitted in data-frame rows)."""
    if ctx.keep_vec_names and has_names(x):
        return keep_names_list(x, _as_list(x), ctx, na=ctx.na)
    na = ctx.na or "null"
    data = x.data
    lead = ctx.prefix or ""
    na_token = None if na == "NA" else lead + ('"NA"' if na == "string" else "null")
    if len(data) <= numbers.SMALL:  # plain Python: numpy's per-call cost would dominate
        false, true = lead + "false", lead + "true"
        few = [na_token if v == NA_INTEGER else true if v == 1 else false for v in data.tolist()]
        return finish(few, ctx, prefixed=True)
    table = np.array([lead + "false", lead + "true", na_token], dtype=object)
    if compiled_array(len(data), numbers.SMALL, ctx):
        text = array_text(compiled.logical_cells(data, na), ctx)
        if text is not None:
            return text
    codes = (data == 1).view(np.uint8)
    missing = data == NA_INTEGER
    if missing.any():
        codes = np.where(missing, 2, codes)
    return finish(table[codes], ctx, prefixed=True)


def encode_numeric(x: RValue, ctx: Ctx) -> Any:
    """Integers and doubles by num_to_char; NA, NaN and Inf as strings unless na="null"."""
    if ctx.keep_vec_names and has_names(x):
        return keep_names_list(x, _as_list(x), ctx, na=ctx.na)
    na = ctx.na or "string"
    lead = ctx.prefix or ""
    data = x.data
    tokens: np.ndarray | list[str | None]
    if compiled_array(len(data), numbers.SMALL, ctx):
        if x.r_type in ("integer", "logical"):
            cell = compiled.int_cells(data, na)
        else:
            cell = compiled.number_cells(data, ctx.precision, na, ctx.use_signif, ctx.always_decimal)
        text = array_text(cell, ctx)
        if text is not None:
            return text
    if x.r_type in ("integer", "logical"):
        few = len(data) <= numbers.SMALL
        tokens = few_int_tokens(data, na, lead) if few else int_to_char(data, na, lead)
    elif len(data) <= numbers.SMALL:
        tokens = few_num_tokens(data, ctx.precision, na, ctx.use_signif, ctx.always_decimal, lead)
    else:
        tokens = num_to_char(data, ctx.precision, na, ctx.use_signif, ctx.always_decimal, lead)
    return finish(tokens, ctx, prefixed=True)


def compiled_array(n: int, few: int, ctx: Ctx) -> bool:
    """Whether n elements go to the compiled writer as one collapsed array: more than ``few``, and
    not a single one that ``auto_unbox`` writes bare."""
    return ctx.collapse and n > few and not (n == 1 and ctx.auto_unbox)


def array_text(cell: compiled.Cell | None, ctx: Ctx) -> str | None:
    """A collapsed array of many numbers by the compiled writer (None: the pure path writes it)."""
    if cell is None:
        return None
    return compiled.cells_text(cell, "[", "," if ctx.indent is None else ", ", "]")


def character_na_token(ctx: Ctx) -> str | None:
    """The token the character method writes for NA under ``ctx.na``."""
    return {"null": "null", "string": '"NA"', "NA": None}[ctx.na or "null"]


def encode_character(x: RValue, ctx: Ctx) -> Any:
    """Escaped strings; NA as null ("NA" with na="string")."""
    if ctx.keep_vec_names and has_names(x):
        return keep_names_list(x, _as_list(x), ctx, na=ctx.na)
    data, na = x.data, character_na_token(ctx)
    if compiled_array(len(data), strings.FEW, ctx):
        try:
            text = array_text(compiled.string_cells(data, na), ctx)
        except UnicodeEncodeError:  # a lone surrogate: the pure path names it
            text = None
        if text is not None:
            return text
    return finish(escape_few(data, na) if len(data) <= strings.FEW else escape_array(data, na), ctx)


def encode_coded_strings(codes: np.ndarray | list[int], labels: np.ndarray, ctx: Ctx) -> Any:
    """The character method for ``labels[codes]`` (code -1: NA), escaping each label once.

    ``codes`` is an array, or for a few a list (indexed in plain Python)."""
    if isinstance(codes, list) and len(labels) <= strings.FEW:
        entries = coded_entries(labels, ctx)
        return finish([entries[code] for code in codes], ctx, prefixed=True)
    table = coded_tokens(labels, ctx)
    if not isinstance(codes, list) and compiled_array(len(codes), strings.FEW, ctx):
        text = array_text(compiled.table_cells(codes, table), ctx)
        if text is not None:
            return text
    if isinstance(codes, list):
        entries = table.tolist()
        return finish([entries[code] for code in codes], ctx, prefixed=True)
    return finish(table[codes], ctx, prefixed=True)


def coded_entries(labels: np.ndarray, ctx: Ctx) -> list[str | None]:
    """The tokens ``labels[codes]`` reads (code -1, the last, is NA): each label escaped once, with
    ``ctx.prefix``; an NA label is NA like the NA code (None, unprefixed)."""
    na = character_na_token(ctx)
    escaped = escape_few(labels, na) if len(labels) <= strings.FEW else escape_array(labels, na).tolist()
    entries = [*escaped, na]
    prefix = ctx.prefix
    return [None if entry is None else prefix + entry for entry in entries] if prefix else entries


def coded_tokens(labels: np.ndarray, ctx: Ctx) -> np.ndarray:
    """:func:`coded_entries` as an object array (for indexing by an array of codes)."""
    return token_array(coded_entries(labels, ctx))


def character_from(values: np.ndarray, names: Any = None) -> RValue:
    """A character vector (object array of str/None), optionally named."""
    return build("character", values, None if names is None else {"names": names})


def encode_complex(x: RValue, ctx: Ctx) -> Any:
    """complex="string": R's format() of each element; "list": {"real": [..], "imaginary": [..]}."""
    na: str | None = ctx.na or "string"
    data = x.data
    if ctx.complex == "string":
        if len(data):
            if ctx.precision is None:
                raise JsonliteError("invalid value -2147483648 for 'digits' argument")
            if ctx.precision < 1 or ctx.precision > 22:
                raise JsonliteError(f"invalid value {ctx.precision} for 'digits' argument")
        text = np.asarray(format_complex(data, ctx.precision), dtype=object)
        bad = ~(np.isfinite(data.real) & np.isfinite(data.imag))
        if bad.any() and na in ("null", "NA"):
            text = text.copy()
            text[bad] = None
        return ctx.encode(character_from(text, x.attributes.get("names")), ctx.but(na=na, oldna=None))
    if na == "NA":
        na = ctx.oldna
    kept = {k: v for k, v in x.attributes.items() if k in ("names", "dim", "dimnames")}
    parts = [
        build("double", np.ascontiguousarray(data.real), kept),
        build("double", np.ascontiguousarray(data.imag), kept),
    ]
    return encode_list(parts, ["real", "imaginary"], ctx.but(na=na, oldna=None, collapse=True, is_df=False))


# jsonlite: src/base64.c (base64_encode)
def base64_lines(data: bytes) -> str:
    """jsonlite's base64: standard alphabet, a line feed after every full 72 output characters."""
    text = base64.b64encode(data).decode("ascii")
    chunks = [text[i : i + 72] for i in range(0, len(text), 72)]
    return "".join(c + "\n" if len(c) == 72 else c for c in chunks)


def hex_strings(data: np.ndarray) -> np.ndarray:
    """R 4.2's ``as.character.hexmode`` of raw bytes: lowercase, unpadded."""
    table = np.array([f"{i:x}" for i in range(256)], dtype=object)
    return table[data]


def encode_raw(x: RValue, ctx: Ctx) -> Any:
    """raw="base64" (one string), "hex", "int", "mongo" ({"$binary": ..}) or "js" (not JSON)."""
    data = x.data
    if ctx.raw == "mongo":
        type_attr = x.attributes.get("type")
        kind = "5" if type_attr is None or not len(type_attr.data) else _as_text(type_attr)
        return '{"$binary":' + escape(base64_lines(data.tobytes())) + ',"$type":' + escape(kind) + "}"
    if ctx.raw == "hex":
        return ctx.encode(character_from(hex_strings(data), x.attributes.get("names")), ctx)
    if ctx.raw == "int":
        return ctx.encode(build("integer", data.astype(np.int32)), ctx)
    if ctx.raw == "js":
        return "(new Uint8Array(" + "[" + ",".join(map(str, data.tolist())) + "]))"
    return ctx.encode(character_from(np.array([base64_lines(data.tobytes())], dtype=object)), ctx)


def _as_text(value: RValue) -> str:
    first = value.data[0]
    if value.r_type == "character":
        return str(first)
    if value.r_type == "double":
        return format(float(first), "g")
    return str(first)
