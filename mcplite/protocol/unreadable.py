"""What can still be read of valid JSON that cannot be parsed whole: a message nesting deeper than
Python's parser goes, or holding an integer of more digits than Python converts.

Such a message is valid JSON, so a request among them is answered under its own id (``-32602``
naming what is wrong) rather than as a parse error the client cannot match to its call.

>>> deep = '{"jsonrpc":"2.0","id":7,"method":"tools/call","params":' + "[" * 5000 + "]" * 5000 + "}"
>>> top_level_members(deep, ("id", "method"))
{'id': 7, 'method': 'tools/call'}
>>> first_long_integer('{"params":{"arguments":{"x":[1,' + "9" * 5000 + "]}}}")
("params['arguments']['x'][1]", 5000)
"""

from __future__ import annotations

import json
import re
from collections.abc import Collection, Iterator
from typing import Any

_TOKEN = re.compile(r'"(?:[^"\\]|\\.)*"|[{}\[\],:]', re.DOTALL)
"""A string (skipped whole, so that brackets inside it do not count) or a structural character."""
MAX_TOKENS_READ = 100_000
"""Tokens :func:`top_level_members` reads at most (about 30 ms): past them it gives up, so that a
message of millions of brackets does not hold the event loop up while its id is looked for."""


def top_level_members(text: str, names: Collection[str]) -> dict[str, Any]:
    """The values of the members ``names`` of the top-level JSON object in ``text`` that parse on
    their own (an id, a method), read without parsing the other members' values.

    One scan over the text's tokens; it stops once every name is found, or after
    :data:`MAX_TOKENS_READ` tokens (what is found by then).
    """
    wanted = set(names)
    found: dict[str, Any] = {}
    depth = 0
    key: str | None = None
    value_at = -1
    expecting_key = False
    for count, token in enumerate(_TOKEN.finditer(text)):
        if count == MAX_TOKENS_READ:
            break
        mark = token.group()
        if depth == 1:
            if mark.startswith('"') and expecting_key:
                key = json.loads(mark)
                expecting_key = False
                continue
            if mark == ":":
                value_at = token.end()
                continue
            if mark in (",", "}"):
                if key in wanted and value_at >= 0:
                    try:
                        found[key] = json.loads(text[value_at : token.start()])
                    except ValueError:
                        pass
                    if len(found) == len(wanted):
                        return found
                key, value_at, expecting_key = None, -1, True
        if mark in ("{", "["):
            depth += 1
            if depth == 1:
                if mark != "{":
                    return found
                expecting_key = True
        elif mark in ("}", "]"):
            depth -= 1
            if depth == 0:
                return found
    return found


class _LongInteger:
    def __init__(self, digits: int) -> None:
        self.digits = digits


def _integer(text: str) -> int | _LongInteger:
    try:
        return int(text)
    except ValueError:
        return _LongInteger(len(text.lstrip("-")))


def _children(path: str, value: Any) -> Iterator[tuple[str, Any]]:
    """A container's items with their paths (named only as they are reached)."""
    if isinstance(value, dict):
        return ((f"{path}[{key!r}]" if path else key, item) for key, item in value.items())
    return ((f"{path}[{index}]", item) for index, item in enumerate(value))


def first_long_integer(text: str) -> tuple[str, int] | None:
    """Where the first integer too long for Python stands in ``text`` (a path from the top level,
    as ``params['arguments']['x'][1]``) and its number of digits; None if there is none, if the
    text does not parse for another reason, or if it is not among the first
    :data:`MAX_TOKENS_READ` values (a message of millions of values is not walked whole)."""
    try:
        message = json.loads(text, parse_int=_integer)
    except (ValueError, RecursionError):
        return None
    if isinstance(message, _LongInteger):
        return "", message.digits
    if not isinstance(message, (dict, list)):
        return None
    stack = [_children("", message)]
    for _ in range(MAX_TOKENS_READ):
        step = next(stack[-1], None)
        if step is None:
            stack.pop()
            if not stack:
                return None
            continue
        path, value = step
        if isinstance(value, _LongInteger):
            return path, value.digits
        if isinstance(value, (dict, list)):
            stack.append(_children(path, value))
    return None
