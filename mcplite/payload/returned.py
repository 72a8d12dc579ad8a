"""What a tool returned, as an R value, and as JSON under the payload options.

A payload goes Python value -> R value (:func:`to_r`) -> JSON through rvalues' jsonlite-exact
layer (:func:`mcplite.payload.rjson.encode_json`), under the payload options the caller read once
(:func:`mcplite.payload.rjson.options_in_force`) and passes in. The structured JSON is written once
and checked once (:func:`mcplite.payload.rjson.encoded_json`), never read back. jsonlite ``json``
objects are never inserted as raw JSON: they stay strings (:func:`strip_json_class`).

>>> from mcplite.payload.rjson import options_in_force
>>> encode_structured({"ok": True}, options_in_force())
EncodedJson('{"ok":true}')
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from typing import Any

from mcplite.payload.converter import unstructure_keeping_r_values
from mcplite.payload.rjson import (
    encode_json,
    encode_json_escaped,
    encoded_json,
    keep_notes,
    strip_json_class,
    unrepresentable,
)
from mcplite.protocol.checks import check_utf8
from mcplite.protocol.spliced import SplicedText
from mcplite.protocol.types import EncodedJson, TextContent
from rvalues import MAX_DEPTH, NULL, Character, List, RValue, RValueError, as_r
from rvalues.convert import has_converter
from rvalues.json import JsonOptions, backend
from rvalues.json.plain import can_encode_plain, encode_plain, encode_plain_escaped
from rvalues.model.classes import r_class
from rvalues.model.frames import row_count
from rvalues.model.strings import clip, shorten

_PLAIN = (type(None), bool, int, float, complex, str, bytes, bytearray, memoryview, dt.date)


def _is_numpy_or_pandas(value: Any) -> bool:
    return type(value).__module__.partition(".")[0] in ("numpy", "pandas")


def to_r(value: Any, where: str = "value", depth: int = 0) -> RValue:
    """The R value a returned Python object stands for.

    R values pass through; dicts, lists and tuples become lists (element by element, a namedtuple
    a named list, as :func:`rvalues.as_r` has it); numpy and pandas objects and Python scalars go
    through :func:`rvalues.as_r`; any other object goes through the unstructure hook registered for
    its class on :data:`mcplite.converter` (cattrs' defaults cover attrs classes and dataclasses).
    Anything else is a ``TypeError``; so is nesting deeper than :data:`rvalues.MAX_DEPTH`.

    >>> to_r({"a": [1, "x"]}).names
    [1] "a"
    """
    if isinstance(value, RValue):
        return value
    if _is_numpy_or_pandas(value):  # first: the common payload, and never a Mapping
        return _as_r(value, where)
    if depth >= MAX_DEPTH and isinstance(value, (Mapping, list, tuple)):
        raise TypeError(
            f"{clip(where)}: the value nests more than {MAX_DEPTH} levels deep (rvalues.MAX_DEPTH); "
            "is it a structure that contains itself?"
        )
    if isinstance(value, Mapping):
        pairs = []
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(
                    f"{where}: dict keys must be str to become JSON names, not {type(key).__name__} "
                    f"({shorten(key)})"
                )
            pairs.append((key, to_r(item, f"{where}[{shorten(key)}]", depth + 1)))
        return List.from_pairs(pairs)
    if isinstance(value, (list, tuple)):
        elements = [to_r(item, f"{where}[{i}]", depth + 1) for i, item in enumerate(value)]
        fields = getattr(type(value), "_fields", None) if isinstance(value, tuple) else None
        if fields is not None:
            return List.from_pairs(list(zip(fields, elements, strict=True)))
        return List(elements)
    if not isinstance(value, _PLAIN) and not has_converter(value):
        unstructured = unstructure_keeping_r_values(value)
        if unstructured is not value and type(unstructured) is not type(value):
            return to_r(unstructured, where, depth + 1)
    return _as_r(value, where)


def _as_r(value: Any, where: str) -> RValue:
    """:func:`rvalues.as_r`, its error raised as a ``TypeError`` that names ``where``."""
    try:
        return as_r(value)
    except RValueError as err:
        message = (
            f"{where}: {type(value).__module__}.{type(value).__qualname__} ({shorten(value)}) cannot be "
            f"represented as JSON: {err}"
        )
        raise keep_notes(TypeError(message), err) from None


def is_bare_empty_list(x: RValue) -> bool:
    """``list()`` or ``structure(list(), names = character())``: the structured root's ``{}``."""
    return isinstance(x, List) and len(x) == 0 and set(x.attributes) <= {"names"}


def _leaf(value: Any, where: str) -> RValue:
    return strip_json_class(to_r(value, where))


def encode_value_json(value: Any, where: str = "value", *, options: JsonOptions) -> str:
    """The JSON text of what a returned Python object stands for (:func:`to_r`, then jsonlite).

    Non-empty dicts, lists and tuples take the vectorized path of :mod:`rvalues.json.plain`
    (the same bytes, without an R value per element); anything else goes through :func:`to_r`.

    >>> from mcplite.payload.rjson import options_in_force
    >>> encode_value_json([{"id": 1, "ok": True}, {"id": 2, "ok": None}], options=options_in_force())
    '[{"id":1,"ok":true},{"id":2,"ok":null}]'
    """
    text = _plain_json(value, where, options)
    return encode_json(to_r(value, where), where, options=options) if text is None else text


def _plain_json(value: Any, where: str, options: JsonOptions) -> str | None:
    """The text of a non-empty dict, list or tuple by :mod:`rvalues.json.plain` (the compiled writer
    in one pass where it takes the value), or None for any other value: decided here, once."""
    if not can_encode_plain(value, options):
        return None
    try:
        return encode_plain(value, options, _leaf, where)
    except RValueError as err:
        raise unrepresentable(where, err) from None


def encode_structured(value: Any, options: JsonOptions) -> EncodedJson | None:
    """Structured content: ``None``/NULL gives None (no field); a bare empty list is ``{}``."""
    where = "structured_content"
    text = _plain_json(value, where, options)
    if text is not None:
        return encoded_json(text, where)
    x = to_r(value, where)
    if x is NULL:
        return None
    if is_bare_empty_list(x):
        return EncodedJson("{}", {})
    return encoded_json(encode_json(x, where, options=options), where)


def ordinary_text(value: Any, options: JsonOptions) -> str:
    """The text of an ordinary return value, as an R server would send it.

    ``str`` is literal; a character vector is its elements joined with newlines (NA as ``NA``, as
    R's ``paste`` gives); NULL is ``{}``; an unnamed empty list is ``[]``; anything else is JSON.

    >>> from mcplite.payload.rjson import options_in_force
    >>> ordinary_text(Character(["a", None]), options_in_force())
    'a\\nNA'
    """
    if isinstance(value, str):
        return check_utf8(value, "return value")
    text = _plain_json(value, "return value", options)
    return _r_text(to_r(value, "return value"), options) if text is None else text


def _r_text(x: RValue, options: JsonOptions) -> str:
    if isinstance(x, Character):
        return "\n".join("NA" if s is None else s for s in x.data.tolist())
    if x is NULL:
        return "{}"
    if isinstance(x, List) and len(x) == 0 and not x.attributes:
        return "[]"
    return encode_json(x, "return value", options=options)


def ordinary_block(value: Any, options: JsonOptions, *, splice: bool = True) -> TextContent:
    """The text block of an ordinary return value (:func:`ordinary_text`); with ``splice``, a data
    frame of more than a few rows, or a plain list or dict of more than a few elements, has its
    text written escaped already, as a server's line carries it, by the compiled writer (a
    :class:`~mcplite.protocol.spliced.SplicedText`: read back only if asked).

    >>> from mcplite.payload.rjson import options_in_force
    >>> ordinary_block([1, 2], options_in_force())
    TextContent(text='[1,2]', annotations=None, meta=None)
    """
    if isinstance(value, str):
        return TextContent(check_utf8(value, "return value"))
    if can_encode_plain(value, options):
        return _plain_block(value, options, splice)
    x = to_r(value, "return value")
    if not splice or backend() != "c":
        return TextContent(_r_text(x, options))
    escaped = escaped_frame_json(x, "return value", options)
    if escaped is not None:
        return SplicedText.from_escaped(escaped)
    return TextContent(_r_text(x, options))


def _plain_block(value: Any, options: JsonOptions, splice: bool) -> TextContent:
    """The block of a plain return (a non-empty dict, list or tuple); with ``splice``, one of more
    than a few elements is written escaped already by the compiled writer, in the same pass (a
    :class:`~mcplite.protocol.spliced.SplicedText`), where it takes the value."""
    if splice and len(value) > SPLICED_ABOVE_ROWS:
        escaped = encode_plain_escaped(value, options)
        if escaped is not None:
            return SplicedText.from_escaped(escaped)
    try:
        return written_block(encode_plain(value, options, _leaf, "return value"))
    except RValueError as err:
        raise unrepresentable("return value", err) from None


def written_block(text: str) -> TextContent:
    """The block of a text rvalues' JSON writer wrote: the writer refuses lone surrogates, so the
    text is sendable and not scanned again (as :meth:`SplicedText.from_escaped
    <mcplite.protocol.spliced.SplicedText.from_escaped>` has it)."""
    block = object.__new__(TextContent)
    setattr_ = object.__setattr__
    setattr_(block, "text", text)
    setattr_(block, "annotations", None)
    setattr_(block, "meta", None)
    return block


def escaped_frame_json(x: RValue, where: str, options: JsonOptions) -> bytes | None:
    """The JSON of a data frame of more than a few rows, escaped as a JSON string's inside by the
    compiled writer as it writes it (one pass, for splicing into a line); None for any other value,
    under the pure writer, or for a text with a lone surrogate (which its caller refuses by name).

    >>> import rvalues as rv
    >>> from mcplite.payload.rjson import options_in_force
    >>> escaped_frame_json(rv.data_frame(x=[1.5]), "value", options_in_force()) is None  # few rows
    True
    """
    if backend() != "c" or r_class(x)[:1] != ("data.frame",) or _rows(x) <= SPLICED_ABOVE_ROWS:
        return None
    try:
        return encode_json_escaped(x, where, options=options)
    except UnicodeEncodeError:
        return None


SPLICED_ABOVE_ROWS = 16
"""Frames of more rows, and plain lists and dicts of more elements, have their text spliced into
the line; a few rows' text costs less to escape again than a spliced block costs to make."""


def _rows(x: RValue) -> int:
    row_names = x.attributes.get("row.names")
    return 0 if row_names is None else row_count(row_names)
