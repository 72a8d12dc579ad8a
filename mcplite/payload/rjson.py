"""R values as JSON text under the payload options: the one way a payload is encoded.

:func:`encode_json` writes an R value as jsonlite would (byte for byte, through rvalues), under
the payload options read once at the boundary (:func:`options_in_force`) and passed down. The text
is what goes on the wire: :func:`encoded_json` checks it once (no number beyond a double's range)
without reading it back; :func:`read_back` reads it back where a JSON-ready value is wanted.

>>> from rvalues import c, NA
>>> encode_json(c(1.5, NA), options=options_in_force())
'[1.5,"NA"]'
"""

from __future__ import annotations

import json
import math
import re
from typing import Any, TypeVar

import attrs

from mcplite.payload.options import jsonlite_options
from mcplite.protocol.types import EncodedJson
from rvalues import Character, List, RValue, RValueError
from rvalues.json import JsonOptions
from rvalues.json.api import encode_escaped_with, encode_with, read_json
from rvalues.model.classes import explicit_class


@attrs.frozen
class Payload:
    """A payload encoded once: the JSON-ready value and its exact JSON text (they agree)."""

    data: Any
    json: str


_options_cache: dict[tuple[tuple[str, Any], ...], JsonOptions] = {}


def options_in_force() -> JsonOptions:
    """jsonlite's arguments under the payload options in force in this thread or task.

    Read it once, where a request (or a public call) begins, and pass the result down.

    >>> options_in_force().auto_unbox, options_in_force().null
    (True, 'null')
    """
    key = tuple(jsonlite_options().items())  # its keys come in one order
    found = _options_cache.get(key)
    if found is None:
        found = _options_cache[key] = JsonOptions(**dict(key))
    return found


def strip_json_class(x: RValue) -> RValue:
    """Drop class ``json`` from character vectors (in lists too), so they stay JSON strings.

    >>> strip_json_class(Character(['{"a":1}'], {"class": "json"})).attributes.get("class") is None
    True
    """
    if isinstance(x, Character):
        classes = explicit_class(x.attributes)
        if "json" not in classes:
            return x
        rest = [c for c in classes if c != "json"]
        return x.with_attributes({"class": Character(rest) if rest else None})  # type: ignore[no-any-return]
    if isinstance(x, List):
        data = x.data
        for i, e in enumerate(data):  # a loop, not any(): a frame's few columns are checked on every call
            if isinstance(e, List) or ("class" in e.attributes and isinstance(e, Character)):
                first = strip_json_class(e)
                if first is not e:
                    head, rest = data[:i], data[i + 1 :]
                    break
        else:
            return x  # nothing to strip: no list of new elements is made
        elements = [*head, first, *[strip_json_class(e) for e in rest]]
        return List(elements, dict(x.attributes))  # type: ignore[no-any-return]
    return x


ErrorT = TypeVar("ErrorT", bound=BaseException)


def keep_notes(error: ErrorT, cause: BaseException) -> ErrorT:
    """``error`` with the notes of the ``cause`` it replaces (rvalues' notes say which column
    failed and what to do; ``raise ... from None`` would drop them).

    >>> cause = ValueError("no"); cause.add_note("while writing column 'gap'")
    >>> keep_notes(TypeError("cannot"), cause).__notes__
    ["while writing column 'gap'"]
    """
    for note in getattr(cause, "__notes__", ()):
        error.add_note(note)
    return error


def unrepresentable(where: str, cause: RValueError) -> ValueError:
    """The error for a value jsonlite refuses to write, keeping the notes of rvalues' ``cause``.

    >>> unrepresentable("value", RValueError("a function has no JSON"))
    ValueError('value cannot be represented as JSON: a function has no JSON')
    """
    return keep_notes(ValueError(f"{where} cannot be represented as JSON: {cause}"), cause)


def encode_json(x: RValue, where: str = "value", *, options: JsonOptions) -> str:
    """The JSON text of an R value under the payload options ``options`` (jsonlite's, byte for byte);
    ``where`` names the value in an error.

    >>> from rvalues import c, NA
    >>> encode_json(c(1.5, NA), options=JsonOptions(na="null"))
    '[1.5,null]'
    """
    try:
        return encode_with(strip_json_class(x), options)
    except RValueError as err:
        raise unrepresentable(where, err) from None


def encode_json_escaped(x: RValue, where: str = "value", *, options: JsonOptions) -> bytes:
    """:func:`encode_json`'s text as the UTF-8 bytes of a JSON string's inside, for splicing into a
    line (a data frame's rows escaped by the compiled writer as it writes them).

    >>> from rvalues import c
    >>> encode_json_escaped(c("a"), options=options_in_force())
    b'\\\\"a\\\\"'
    """
    try:
        return encode_escaped_with(strip_json_class(x), options)
    except RValueError as err:
        raise unrepresentable(where, err) from None


def read_back(text: str, where: str = "value") -> Payload:
    """The payload of a JSON text: its data is the text read back, checked to have no infinity.

    This is the one check every payload passes: jsonlite writes ``.Machine$double.xmax`` as
    ``1.79769313486232e+308``, which no double holds, so it has no JSON-ready value.

    >>> read_back('{"n":1e+15}')
    Payload(data={'n': 1000000000000000.0}, json='{"n":1e+15}')
    >>> read_back("[1.798e+308]")
    Traceback (most recent call last):
    ...
    ValueError: value cannot be represented as JSON: jsonlite writes value[0] as a number beyond a double's range (it parses as infinity)
    """  # noqa: E501
    try:
        # the data is the text read back, so the fallback text and structured content agree exactly
        data = read_json(text)
    except json.JSONDecodeError:
        raise ValueError(f"{where} cannot be represented as JSON: jsonlite wrote {text[:80]!r}") from None
    if "e+3" in text and _HUGE_EXPONENT.search(text):
        _check_finite(data, where, where)
    return Payload(data, text)


# only a number written with an exponent of 308 or more can read back as infinity; jsonlite writes
# exponents as "e+" and two or three digits, so a text without "e+3" has none (a quick test first)
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


def encoded_json(text: str, where: str = "value") -> EncodedJson:
    """The JSON text as a result carries it: checked once and not read back (only a text holding an
    exponent of 308 or more is read, to find the number that would be infinity).

    >>> encoded_json('{"n":1e+15}').text
    '{"n":1e+15}'
    """
    if "e+3" in text and _HUGE_EXPONENT.search(text):
        read_back(text, where)  # raises for the number beyond a double's range
    return EncodedJson(text)


def encode(x: RValue, where: str = "value", *, options: JsonOptions) -> Payload:
    """JSON-ready data and JSON text of an R value under the payload options ``options``.

    >>> from rvalues import Double
    >>> encode(Double([0.5]), options=options_in_force())
    Payload(data=0.5, json='0.5')
    >>> encode(Double([1.7976931348623157e308]), options=options_in_force())  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    ValueError: value cannot be represented as JSON: jsonlite writes value as a number beyond ...
    """
    return read_back(encode_json(x, where, options=options), where)
