"""``pretty=<number>``: re-formatting compact JSON as jsonlite 1.8.4's ``prettify`` (yajl's
generator with ``indent_string``) does.

>>> beautify('{"a":[1,2]}', 1)
'{\\n "a": [\\n  1,\\n  2\\n ]\\n}\\n'
"""

from __future__ import annotations

import json
from typing import Any

from rvalues.json.options import JsonliteError


class _Number(str):
    """A number token kept as its text."""


def _yajl_string(text: str) -> str:
    out = []
    prev = ""
    for ch in text:
        code = ord(ch)
        if ch == "\r":
            out.append("\\r")
        elif ch == "\n":
            out.append("\\n")
        elif ch == "\\":
            out.append("\\\\")
        elif ch == "/" and prev == "<":
            out.append("\\/")
        elif ch == '"':
            out.append('\\"')
        elif ch == "\f":
            out.append("\\f")
        elif ch == "\b":
            out.append("\\b")
        elif ch == "\t":
            out.append("\\t")
        elif code < 32:
            out.append(f"\\u00{code:02X}")
        else:
            out.append(ch)
        prev = ch
    return '"' + "".join(out) + '"'


# jsonlite: src/prettify.c R_reformat, src/yajl/yajl_gen.c
def beautify(text: str, spaces: int | float) -> str:
    """``pretty=<number>``: re-emit compact JSON as jsonlite 1.8.4's yajl generator does.

    >>> beautify("[1,2]", 2)
    '[\\n  1,\\n  2\\n]\\n'
    """
    unit = " " * int(spaces)
    try:
        tree = json.loads(
            text,
            parse_float=_Number,
            parse_int=_Number,
            parse_constant=_Number,
            object_pairs_hook=lambda pairs: ("obj", pairs),
        )
    except json.JSONDecodeError as err:
        raise JsonliteError(_yajl_error(text, err.pos)) from None
    out: list[str] = []

    def emit(node: Any, depth: int) -> None:
        if isinstance(node, tuple):
            pairs = node[1]
            out.append("{\n")
            for i, (key, value) in enumerate(pairs):
                if i:
                    out.append(",\n")
                out.append(unit * (depth + 1) + _yajl_string(key) + ": ")
                emit_inline(value, depth + 1)
            out.append("\n" + unit * depth + "}")
        elif isinstance(node, list):
            out.append("[\n")
            for i, value in enumerate(node):
                if i:
                    out.append(",\n")
                out.append(unit * (depth + 1))
                emit_inline(value, depth + 1)
            out.append("\n" + unit * depth + "]")
        else:
            out.append(_atom(node))

    def emit_inline(node: Any, depth: int) -> None:
        emit(node, depth)

    emit(tree, 0)
    return "".join(out) + "\n"


def _yajl_error(text: str, pos: int) -> str:
    """yajl's verbose message for an invalid character at ``pos`` (what raw="js" leads to);
    its context window counts bytes of UTF-8."""
    data = text.encode("utf-8", "surrogatepass")
    offset = len(text[:pos].encode("utf-8", "surrogatepass")) + 1
    spaces = 40 - offset if offset < 30 else 10
    start = offset - 30 if offset >= 30 else 0
    shown = data[start : min(len(data), offset + 30)].decode("utf-8", "ignore")
    shown = shown.replace("\n", " ").replace("\r", " ")
    return (
        "lexical error: invalid char in json text.\n"
        + " " * spaces
        + shown
        + "\n"
        + " " * 21
        + "(right here) ------^\n"
    )


def _atom(node: Any) -> str:
    if node is None:
        return "null"
    if node is True:
        return "true"
    if node is False:
        return "false"
    if isinstance(node, _Number):
        return str(node)
    return _yajl_string(node)
