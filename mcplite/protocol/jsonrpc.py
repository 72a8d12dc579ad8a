"""JSON-RPC 2.0 framing, knowing nothing of MCP: strict parsing of a message, strict lines, error codes.

Incoming text must be UTF-8 JSON without ``NaN`` or ``Infinity``; outgoing lines are compact,
UTF-8, end with one newline and never contain a bare non-finite number.

>>> encode_line({"jsonrpc": "2.0", "id": 1, "result": {"ok": True}})
b'{"jsonrpc":"2.0","id":1,"result":{"ok":true}}\\n'
>>> parse_message(b'{"x": NaN}')
Traceback (most recent call last):
...
mcplite.protocol.jsonrpc.RpcError: Parse error: NaN is not JSON
"""

from __future__ import annotations

import json
import sys
from typing import Any

from mcplite.protocol.unreadable import first_long_integer, top_level_members

PARSE_ERROR = -32700
INVALID_REQUEST = -32600
METHOD_NOT_FOUND = -32601
INVALID_PARAMS = -32602
INTERNAL_ERROR = -32603
UNSUPPORTED_PROTOCOL_VERSION = -32022
"""2026-07-28: ``data`` names the supported versions and the requested one."""

RequestId = str | int


class RpcError(Exception):
    """A JSON-RPC error to send back: ``code``, ``message`` and optional ``data``.

    >>> RpcError(INVALID_PARAMS, "Unknown tool: nope").to_wire()
    {'code': -32602, 'message': 'Unknown tool: nope'}
    """

    def __init__(self, code: int, message: str, data: Any = None) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.data = data

    def to_wire(self) -> dict[str, Any]:
        error: dict[str, Any] = {"code": self.code, "message": self.message}
        if self.data is not None:
            error["data"] = self.data
        return error


def _refuse_constant(name: str) -> Any:
    raise RpcError(PARSE_ERROR, f"Parse error: {name} is not JSON")


def parse_message(line: bytes) -> Any:
    """One message from its bytes: strict UTF-8 and RFC 8259 JSON, else a parse error."""
    try:
        text = line.decode("utf-8")
    except UnicodeDecodeError as err:
        reason = f"{err.reason} at byte {err.start}"
        raise RpcError(PARSE_ERROR, f"Parse error: the message is not UTF-8 ({reason})") from None
    try:
        return json.loads(text, parse_constant=_refuse_constant)
    except json.JSONDecodeError as err:
        raise RpcError(PARSE_ERROR, f"Parse error: {err.msg} at character {err.pos}") from None
    except RecursionError:
        why = "the message nests too deeply for the server to read"
        raise _unreadable(text, why, why) from None
    except ValueError:  # an integer of more digits than Python converts
        limit = sys.get_int_max_str_digits()
        found = first_long_integer(text)
        where = f"{found[0]} is an integer of {found[1]} digits" if found else "an integer has more digits"
        why = f"{where}; the most the server reads is {limit} (send it as a string)"
        raise _unreadable(text, why, f"a number has more than {limit} digits") from None


class UnreadableRequest(RpcError):
    """A request that is valid JSON but cannot be read whole: answered under its own ``request_id``."""

    def __init__(self, code: int, message: str, request_id: RequestId) -> None:
        super().__init__(code, message)
        self.request_id = request_id


def _unreadable(text: str, why: str, parse_why: str) -> RpcError:
    """The error for valid JSON that cannot be parsed whole: -32602 under the request's own id when
    its id and method can be read, else a parse error (which has no id to answer)."""
    members = top_level_members(text, ("id", "method"))
    request_id = members.get("id")
    if (
        isinstance(members.get("method"), str)
        and isinstance(request_id, (str, int))
        and is_request_id(request_id)
    ):
        return UnreadableRequest(INVALID_PARAMS, f"Invalid params: {why}", request_id)
    return RpcError(PARSE_ERROR, f"Parse error: {parse_why}")


def request_id_of(error: RpcError) -> RequestId | None:
    """The id an error answers: the request's own for an :class:`UnreadableRequest`, else None."""
    return error.request_id if isinstance(error, UnreadableRequest) else None


def is_request_id(value: Any) -> bool:
    """Request ids are strings or integers (never null, booleans or fractions); a string must be
    one an answer can echo (no lone surrogate, which UTF-8 cannot carry)."""
    if isinstance(value, str):
        return utf8_encodable(value)
    return isinstance(value, int) and not isinstance(value, bool)


def error_response(request_id: RequestId | None, error: RpcError) -> dict[str, Any]:
    """An error response; ``id`` is null where the request's id could not be read.

    It can always be sent: a client's text quoted in it that UTF-8 cannot carry (a lone surrogate
    in a tool name, a URI, an argument) is shown as its escape.

    >>> error_response(3, RpcError(-32602, "Unknown tool: a\\udcff"))["error"]["message"]
    'Unknown tool: a\\\\udcff'
    """
    echoed = request_id if not isinstance(request_id, str) or utf8_encodable(request_id) else None
    return {"jsonrpc": "2.0", "id": echoed, "error": _visible(error.to_wire())}


def utf8_encodable(text: str) -> bool:
    """Whether UTF-8 can carry ``text`` (it holds no lone surrogate): whether it can be sent.

    >>> utf8_encodable("é"), utf8_encodable("\\udcff")
    (True, False)
    """
    if text.isascii():
        return True
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def _visible(value: Any) -> Any:
    """``value`` with each lone surrogate of its strings written as its escape (``\\udcff``)."""
    if isinstance(value, str):
        return value if utf8_encodable(value) else value.encode("utf-8", "backslashreplace").decode("utf-8")
    if isinstance(value, dict):
        return {_visible(key): _visible(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_visible(item) for item in value]
    return value


def notification(method: str, params: dict[str, Any]) -> dict[str, Any]:
    """A notification (no id, no answer expected)."""
    return {"jsonrpc": "2.0", "method": method, "params": params}


class RawJson:
    """A JSON value written already, as the UTF-8 bytes of its ``parts`` one after the other (strict
    JSON, checked by whoever wrote it): they go into a line as they are, copied once, into the
    final line. It stands for a member's value in the objects :func:`object_pieces` writes and in
    the result of :func:`encode_result_line`.

    >>> encode_result_line(1, {"content": RawJson(b'[{"n":', b"1e+05}]"), "isError": False}, {})
    b'{"jsonrpc":"2.0","id":1,"result":{"content":[{"n":1e+05}],"isError":false}}\\n'
    """

    __slots__ = ("parts",)

    def __init__(self, *parts: bytes) -> None:
        self.parts = parts


def _dumps(message: Any) -> str:
    return json.dumps(message, ensure_ascii=False, allow_nan=False, separators=(",", ":"))


def encode_line(message: dict[str, Any]) -> bytes:
    """The message as one strict JSON line (UTF-8, no NaN or Infinity, no lone surrogates).

    Raises ``ValueError`` for anything that is not strict JSON.
    """
    return _encode(message) + b"\n"


def encode_json_bytes(value: Any) -> bytes:
    """Any JSON value as strict JSON bytes, as :func:`encode_line` writes a message (without the
    newline).

    >>> encode_json_bytes([{"text": "hi", "n": 1}])
    b'[{"text":"hi","n":1}]'
    """
    return _encode(value)


def _encode(value: Any) -> bytes:
    text = _dumps(value)
    try:
        return text.encode("utf-8")
    except UnicodeEncodeError as err:
        raise ValueError(f"the message holds text that is not valid Unicode ({err.reason})") from None


def object_pieces(members: dict[str, Any]) -> list[bytes]:
    """The bytes of a JSON object as :func:`encode_json_bytes` writes it, in pieces to be joined,
    its :class:`RawJson` members' parts among them as they are (never parsed, escaped or joined
    here); the last piece is the closing brace. Raises ``ValueError`` as :func:`encode_line` does.

    >>> b"".join(object_pieces({"type": "text", "text": RawJson(b'"a', b'b"'), "n": 1}))
    b'{"type":"text","text":"ab","n":1}'
    """
    if not any(type(value) is RawJson for value in members.values()):
        return [_encode(members)[:-1], b"}"]
    pieces = [b"{"]
    for name, value in members.items():
        if len(pieces) > 1:
            pieces.append(b",")
        pieces += [_encode(name), b":"]
        if type(value) is RawJson:
            pieces += value.parts
        else:
            pieces.append(_encode(value))
    pieces.append(b"}")
    return pieces


def encode_result_line(request_id: RequestId, result: dict[str, Any], written: dict[str, bytes]) -> bytes:
    """A successful response line whose result also has the members in ``written``, each value JSON
    bytes written already: they go into the line as they are, never parsed or escaped again; so do
    the :class:`RawJson` members of ``result`` (the ``content`` of a tool result whose text was
    written escaped already).

    Raises ``ValueError`` as :func:`encode_line` does.

    >>> encode_result_line(7, {"content": []}, {"data": b'{"a":1e+05}'})
    b'{"jsonrpc":"2.0","id":7,"result":{"content":[],"data":{"a":1e+05}}}\\n'
    """
    if not any(type(value) is RawJson for value in result.values()):
        head = encode_line({"jsonrpc": "2.0", "id": request_id, "result": result})
        if not written:
            return head
        pieces = [head[:-3]]  # the line ends with the result's closing brace, the message's, the newline
        separator = b"" if pieces[0].endswith(b"{") else b","
    else:
        pieces = [b'{"jsonrpc":"2.0","id":', _encode(request_id), b',"result":', *object_pieces(result)[:-1]]
        separator = b"," if len(result) else b""
    for name, value in written.items():  # one join: a written value may be megabytes, copied once
        pieces += [separator, json.dumps(name).encode(), b":", value]
        separator = b","
    pieces.append(b"}}\n")
    return b"".join(pieces)
