"""The checks every protocol type runs when it is built: plain JSON, MIME types, base64, and attrs
validators that name the object, the field and the value at fault.

>>> check_plain_json({"a": [1, 2.5, None]}, "meta")
>>> is_plain_json({"a": {1, 2}})
False
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Callable
from typing import Any

import attrs
from attrs import validators as v

from mcplite.protocol.jsonrpc import utf8_encodable


def cut(text: str, limit: int = 80) -> str:
    """``text`` where short, else its start and its length: a client's value quoted in a message.

    >>> cut("x" * 1000, 5)
    'xxxxx... (1000 characters)'
    """
    return text if len(text) <= limit else f"{text[:limit]}... ({len(text)} characters)"


def quoted(value: Any, limit: int = 80) -> str:
    """``repr(value)`` where short; a long str is quoted by its start and its length.

    >>> quoted("y" * 1000, 3)
    "'yyy'... (1000 characters)"
    """
    if isinstance(value, str) and len(value) > limit:
        return f"{value[:limit]!r}... ({len(value)} characters)"
    return f"{value!r:.{limit + 40}}"


def shown(value: Any) -> str:
    """A value as error messages name it: its type and a short repr.

    >>> shown({1, 2})
    'set ({1, 2})'
    """
    return f"{type(value).__name__} ({value!r:.80})"


def check_plain_json(value: Any, where: str) -> None:
    """Refuse anything but plain JSON values: dict (str keys), list/tuple, str, int, finite float, bool, None.

    >>> check_plain_json({"a": [1, 2.5, None]}, "meta")
    >>> check_plain_json({"a": {1, 2}}, "meta")
    Traceback (most recent call last):
    ...
    TypeError: meta['a'] must be plain JSON (dict, list, str, int, float, bool or None), not set ({1, 2})
    """
    if isinstance(value, str):
        check_utf8(value, where)
        return
    if value is None or isinstance(value, (bool, int)):
        return
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"{where} must be a finite number to be JSON, not {value!r}")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"{where} keys must be str, not {type(key).__name__} ({key!r})")
            check_utf8(key, f"{where}: the key {quoted(key)}")
            check_plain_json(item, f"{where}[{key!r}]")
        return
    if isinstance(value, (list, tuple)):
        for i, item in enumerate(value):
            check_plain_json(item, f"{where}[{i}]")
        return
    raise TypeError(
        f"{where} must be plain JSON (dict, list, str, int, float, bool or None), not {shown(value)}"
    )


def is_plain_json(value: Any) -> bool:
    """Whether :func:`check_plain_json` accepts ``value`` (the same rule, as a yes or no).

    >>> is_plain_json([1, "a", None]), is_plain_json([float("nan")])
    (True, False)
    """
    try:
        check_plain_json(value, "value")
    except (TypeError, ValueError):
        return False
    return True


# -- validators: attrs' combinators over a few checks that name the object, the field and the value

Validator = Callable[[Any, "attrs.Attribute[Any]", Any], None]


def refuse(error: type[Exception], instance: Any, attribute: attrs.Attribute[Any], message: str) -> Exception:
    return error(f"{type(instance).__name__}: {attribute.name} {message}")


def is_a(kind: type | tuple[type, ...], what: str) -> Validator:
    """The value is a ``kind`` (never a bool unless ``kind`` says so); ``what`` completes "must ..."."""
    kinds = kind if isinstance(kind, tuple) else (kind,)
    takes_bool = bool in kinds

    def check(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if not isinstance(value, kinds) or (isinstance(value, bool) and not takes_bool):
            raise refuse(TypeError, instance, attribute, f"must {what}, not {shown(value)}")

    return check


def not_empty(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    if not value:
        raise refuse(ValueError, instance, attribute, "must not be empty")


def one_of(*values: str) -> Validator:
    def check(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        if value not in values:
            shown_values = " or ".join(repr(x) for x in values)
            raise refuse(ValueError, instance, attribute, f"must be {shown_values}, not {value!r:.80}")

    return check


def plain_json(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    check_plain_json(value, f"{type(instance).__name__}: {attribute.name}")


def check_utf8(text: str, what: str) -> str:
    """Refuse a str that UTF-8 cannot encode (a lone surrogate), naming where; return it.

    >>> check_utf8("f\\udcff", "return value")
    Traceback (most recent call last):
    ...
    ValueError: return value holds the lone surrogate '\\udcff' at position 1, which has no UTF-8 encoding
    """
    if not utf8_encodable(text):
        try:
            text.encode("utf-8")
        except UnicodeEncodeError as err:
            raise ValueError(
                f"{what} holds the lone surrogate {text[err.start]!r} at position {err.start}, "
                "which has no UTF-8 encoding"
            ) from None
    return text


_IS_STR = is_a(str, "be a str")


def utf8_str(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    """A str that can be sent: UTF-8 encodes it (no lone surrogate)."""
    _IS_STR(instance, attribute, value)
    check_utf8(value, f"{type(instance).__name__}: {attribute.name}")


STR = utf8_str
"""Every str field of a protocol type is sent as UTF-8, so each refuses a lone surrogate where it is set."""
OPTIONAL_STR = v.optional(STR)
STR_TUPLE = v.optional(v.deep_iterable(STR, is_a(tuple, "be a list of str")))
NONEMPTY_STR = v.and_(STR, not_empty)
OPTIONAL_BOOL = v.optional(is_a(bool, "be True, False or None"))
META = v.optional(v.and_(is_a(dict, "be a dict of plain JSON values"), plain_json))


_MIME = re.compile(r"^[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*/[A-Za-z0-9][A-Za-z0-9!#$&^_.+-]*(\s*;.*)?$")


def check_mime_type(owner: str, value: Any, prefix: str | None = None) -> None:
    """Refuse a MIME type that is not a ``type/subtype`` string (of the given top-level type)."""
    if not isinstance(value, str):
        raise TypeError(f"{owner}: mime_type must be a str such as 'image/png', not {shown(value)}")
    check_utf8(value, f"{owner}: mime_type")
    if not _MIME.match(value):
        raise ValueError(f"{owner}: mime_type {value!r} is not a MIME type of the form 'type/subtype'")
    if prefix is not None and not value.lower().startswith(prefix + "/"):
        raise ValueError(f"{owner}: mime_type {value!r} is not an {prefix} type ('{prefix}/...')")


def check_base64(owner: str, name: str, value: Any) -> None:
    """Refuse a string that is not standard base64 (RFC 4648, with padding)."""
    if not isinstance(value, str):
        raise TypeError(f"{owner}: {name} must be a base64 str, not {shown(value)}")
    try:
        decoded = base64.b64decode(value.encode("ascii"), validate=True)
    except (binascii.Error, UnicodeEncodeError, ValueError):
        decoded = None
    if decoded is None or base64.b64encode(decoded).decode("ascii") != value:
        raise ValueError(f"{owner}: {name} is not valid base64: {value!r:.80}")


def mime(prefix: str | None) -> Validator:
    def check(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
        check_mime_type(type(instance).__name__, value, prefix)

    return check


OPTIONAL_MIME = v.optional(mime(None))


def base64_str(instance: Any, attribute: attrs.Attribute[Any], value: Any) -> None:
    check_base64(type(instance).__name__, attribute.name, value)
