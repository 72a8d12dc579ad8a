"""Payloads: what a tool returned, as an R value, as JSON under the payload options.

A payload goes Python value -> R value (:func:`to_r`) -> JSON through rvalues' jsonlite-exact
layer, under the options in force (:func:`mcplite.options`). jsonlite ``json`` objects are never
inserted as raw JSON: they stay strings (:func:`strip_json_class`).

>>> encode_structured({"ok": True})
Payload(data={'ok': True}, json='{"ok":true}')
"""

from __future__ import annotations

import datetime as dt
import json
import math
import re
from collections.abc import Mapping
from typing import Any

import attrs

from mcplite.options import jsonlite_options
from rvalues import MAX_DEPTH, NULL, Character, List, RValue, RValueError, as_r
from rvalues.json import JsonOptions
from rvalues.json.api import encode_with
from rvalues.json.plain import can_encode_plain, encode_plain
from rvalues.model.strings import clip, shorten

_PLAIN = (type(None), bool, int, float, complex, str, bytes, bytearray, memoryview, dt.date)


@attrs.frozen
class Payload:
    """A payload encoded once: the JSON-ready value and its exact JSON text (they agree)."""

    data: Any
    json: str


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
    from mcplite.converter import converter

    if isinstance(value, RValue):
        return value
    if isinstance(value, (Mapping, list, tuple)) and depth >= MAX_DEPTH:
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
    if not isinstance(value, _PLAIN) and not _is_numpy_or_pandas(value):
        unstructured = converter.unstructure(value)
        if unstructured is not value and type(unstructured) is not type(value):
            return to_r(unstructured, where, depth + 1)
    try:
        return as_r(value)
    except RValueError as err:
        raise TypeError(
            f"{where}: {type(value).__module__}.{type(value).__qualname__} ({shorten(value)}) cannot be "
            f"represented as JSON: {err}"
        ) from None


def strip_json_class(x: RValue) -> RValue:
    """Drop class ``json`` from character vectors (in lists too), so they stay JSON strings.

    >>> strip_json_class(Character(['{"a":1}'], {"class": "json"})).attributes.get("class") is None
    True
    """
    if isinstance(x, Character):
        classes = x.attributes.get("class")
        if classes is None or "json" not in classes.data.tolist():
            return x
        rest = [c for c in x.attributes["class"].data.tolist() if c != "json"]
        return x.with_attributes({"class": Character(rest) if rest else None})  # type: ignore[no-any-return]
    if isinstance(x, List) and len(x):
        if not any(isinstance(e, (Character, List)) for e in x.data):
            return x
        elements = [strip_json_class(e) for e in x.data]
        if all(new is old for new, old in zip(elements, x.data, strict=True)):
            return x
        return List(elements, dict(x.attributes))  # type: ignore[no-any-return]
    return x


def is_bare_empty_list(x: RValue) -> bool:
    """``list()`` or ``structure(list(), names = character())``: the structured root's ``{}``."""
    return isinstance(x, List) and len(x) == 0 and set(x.attributes) <= {"names"}


def encode_json(x: RValue, where: str = "value") -> str:
    """The JSON text of an R value under the payload options in force (jsonlite's, byte for byte)."""
    try:
        return encode_with(strip_json_class(x), _options_in_force())
    except RValueError as err:
        raise ValueError(f"{where} cannot be represented as JSON: {err}") from None


_options_cache: dict[tuple[tuple[str, Any], ...], JsonOptions] = {}


def _options_in_force() -> JsonOptions:
    key = tuple(sorted(jsonlite_options().items()))
    found = _options_cache.get(key)
    if found is None:
        found = _options_cache[key] = JsonOptions(**dict(key))
    return found


def _leaf(value: Any, where: str) -> RValue:
    return strip_json_class(to_r(value, where))


def encode_value_json(value: Any, where: str = "value") -> str:
    """The JSON text of what a returned Python object stands for (:func:`to_r`, then jsonlite).

    Non-empty dicts, lists and tuples take the vectorized path of :mod:`rvalues.json.plain`
    (the same bytes, without an R value per element); anything else goes through :func:`to_r`.

    >>> encode_value_json([{"id": 1, "ok": True}, {"id": 2, "ok": None}])
    '[{"id":1,"ok":true},{"id":2,"ok":null}]'
    """
    options = _options_in_force()
    if not can_encode_plain(value, options):
        return encode_json(to_r(value, where), where)
    try:
        return encode_plain(value, options, _leaf, where)
    except RValueError as err:
        raise ValueError(f"{where} cannot be represented as JSON: {err}") from None


def encode(x: RValue, where: str = "value") -> Payload:
    """JSON-ready data and JSON text of an R value under the payload options in force.

    A number jsonlite writes beyond a double's range (``1.79769313486232e+308`` for
    ``.Machine$double.xmax``) has no JSON-ready value, so it is refused here:

    >>> from rvalues import Double
    >>> encode(Double([1.7976931348623157e308]))  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: value cannot be represented as JSON: jsonlite writes value as a number beyond ...
    """
    return _read_back(encode_json(x, where), where)


def _read_back(text: str, where: str) -> Payload:
    """The payload of a JSON text: its data is the text read back, checked to be finite."""
    try:
        # the data is the text read back, so the fallback text and structured content agree exactly
        data = json.loads(text)
    except json.JSONDecodeError:
        raise ValueError(f"{where} cannot be represented as JSON: jsonlite wrote {text[:80]!r}") from None
    if _HUGE_EXPONENT.search(text):
        _check_finite(data, where, where)
    return Payload(data, text)


# only a number written with an exponent of 308 or more can read back as infinity
_HUGE_EXPONENT = re.compile(r"[eE]\+?(?:30[89]|3[1-9][0-9]|[4-9][0-9]{2}|[0-9]{4,})")


def _check_finite(data: Any, where: str, root: str) -> None:
    if isinstance(data, float) and not math.isfinite(data):
        raise ValueError(
            f"{root} cannot be represented as JSON: jsonlite writes {where} as a number beyond a "
            "double's range (it parses as infinity)"
        )
    if isinstance(data, dict):
        for key, item in data.items():
            _check_finite(item, f"{where}[{key!r}]", root)
    elif isinstance(data, list):
        for i, item in enumerate(data):
            _check_finite(item, f"{where}[{i}]", root)


def encode_structured(value: Any) -> Payload | None:
    """Structured content: ``None``/NULL gives None (no field); a bare empty list is ``{}``."""
    where = "structured_content"
    if can_encode_plain(value, _options_in_force()):
        return _read_back(encode_value_json(value, where), where)
    x = to_r(value, where)
    if x is NULL:
        return None
    if is_bare_empty_list(x):
        return Payload({}, "{}")
    return encode(x, "structured_content")


def ordinary_text(value: Any) -> str:
    """The text of an ordinary return value, as an R server would send it.

    ``str`` is literal; a character vector is its elements joined with newlines (NA as ``NA``, as
    R's ``paste`` gives); NULL is ``{}``; an unnamed empty list is ``[]``; anything else is JSON.

    >>> ordinary_text(Character(["a", None]))
    'a\\nNA'
    """
    if isinstance(value, str):
        return value
    if can_encode_plain(value, _options_in_force()):
        return encode_value_json(value, "return value")
    x = to_r(value, "return value")
    if isinstance(x, Character):
        return "\n".join("NA" if s is None else s for s in x.data.tolist())
    if x is NULL:
        return "{}"
    if isinstance(x, List) and len(x) == 0 and not x.attributes:
        return "[]"
    return encode_json(x, "return value")
