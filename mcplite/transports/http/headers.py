"""HTTP header rules of MCP's Streamable HTTP transport: media types, Origin, bearer tokens, and the
2026-07-28 routing headers (``MCP-Protocol-Version``, ``Mcp-Method``, ``Mcp-Name``, and the
``Mcp-Param-*`` headers of a tool's ``x-mcp-header`` parameters) that must agree with the body.

>>> accepts("application/json, text/event-stream")
True
>>> decode_header_value("=?base64?SGVsbG8sIOS4lueVjA==?=")
'Hello, 世界'
>>> OriginPolicy().allows("http://localhost:6274"), OriginPolicy().allows("https://evil.example")
(True, False)
"""

from __future__ import annotations

import base64
import binascii
import ipaddress
import math
import re
from collections.abc import Iterable, Mapping, Sequence
from typing import Any
from urllib.parse import urlsplit

from mcplite.engine.handlers import Engine
from mcplite.protocol.checks import quoted
from mcplite.protocol.jsonrpc import RpcError
from mcplite.tools.schema import HeaderParam

HEADER_MISMATCH = -32020
"""2026-07-28: the routing headers do not match the body, or are missing or malformed."""

PROTOCOL_VERSION_HEADER = "mcp-protocol-version"
METHOD_HEADER = "mcp-method"
NAME_HEADER = "mcp-name"
SESSION_HEADER = "mcp-session-id"
LAST_EVENT_ID_HEADER = "last-event-id"
PARAM_HEADER_PREFIX = "mcp-param-"
ROUTING_HEADERS = (PROTOCOL_VERSION_HEADER, METHOD_HEADER, NAME_HEADER)

_LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "::1"})
_SENTINEL_START, _SENTINEL_END = "=?base64?", "?="
_FIELD_VALUE = re.compile(r"^[\t\x20-\x7e]*$")
"""RFC 9110 field-value characters a header may carry (visible ASCII, space, tab)."""

Headers = list[tuple[bytes, bytes]]


def header_map(raw: Headers) -> dict[str, list[str]]:
    """An ASGI header list by lower-case name, each name with all its values in order."""
    headers: dict[str, list[str]] = {}
    for name, value in raw:
        headers.setdefault(name.decode("latin-1").lower(), []).append(value.decode("latin-1"))
    return headers


def _media_ranges(value: str) -> list[str]:
    return [part.split(";", 1)[0].strip().lower() for part in value.split(",") if part.strip()]


def accepts(accept: str | None, *, stream: bool = True) -> bool:
    """Whether an ``Accept`` header admits ``application/json`` and (with ``stream``) ``text/event-stream``.

    >>> accepts("application/json"), accepts("application/json", stream=False), accepts("*/*")
    (False, True, True)
    """
    ranges = _media_ranges(accept or "")
    json = any(r in ("application/json", "application/*", "*/*") for r in ranges)
    sse = any(r in ("text/event-stream", "text/*", "*/*") for r in ranges)
    return json and (sse or not stream)


def is_json(content_type: str | None) -> bool:
    """Whether a ``Content-Type`` is ``application/json`` (parameters such as charset allowed)."""
    return _media_ranges(content_type or "")[:1] == ["application/json"]


class OriginPolicy:
    """Which ``Origin`` headers may reach the server (a defence against DNS rebinding).

    A request without ``Origin`` (not from a browser) and loopback origins (``http://localhost:*``,
    ``http://127.0.0.1:*``, ``http://[::1]:*``, and their https forms) are allowed; so is every
    origin in ``allowed`` (exact ``scheme://host[:port]`` strings), or any origin if ``allowed``
    holds ``"*"``.
    """

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        if isinstance(allowed, str):
            raise TypeError(f"allowed_origins must be a list of origins, not the string {allowed!r}")
        origins = list(allowed)
        for origin in origins:
            if not isinstance(origin, str) or (origin != "*" and not _is_origin(origin)):
                raise ValueError(
                    f"allowed_origins: {origin!r} is not an origin; write scheme://host[:port], e.g. "
                    "'https://app.example.com', or '*' for any"
                )
        self.any = "*" in origins
        self.allowed = frozenset(origin.rstrip("/").lower() for origin in origins)

    def allows(self, origin: str | None) -> bool:
        if origin is None or self.any or origin.rstrip("/").lower() in self.allowed:
            return True
        return _is_origin(origin) and urlsplit(origin).hostname in _LOOPBACK_HOSTS


def is_loopback(host: str) -> bool:
    """Whether a host name or address is this machine's loopback (``localhost``, 127.0.0.0/8, ``::1``).

    >>> is_loopback("127.0.0.2"), is_loopback("localhost"), is_loopback("example.com")
    (True, True, False)
    """
    if host.lower() in _LOOPBACK_HOSTS:
        return True
    try:
        return ipaddress.ip_address(host).is_loopback
    except ValueError:
        return False


class HostPolicy:
    """Which ``Host`` headers a server bound to loopback answers (a defence against DNS rebinding,
    where a foreign name resolves to 127.0.0.1): loopback names and addresses, and the host names
    (or ``host:port``) in ``allowed`` (``"*"``: any), for a server behind a proxy.

    >>> policy = HostPolicy(["mcp.example.com"])
    >>> policy.allows("127.0.0.1:8000"), policy.allows("mcp.example.com:443"), policy.allows("evil.example")
    (True, True, False)
    """

    def __init__(self, allowed: Iterable[str] = ()) -> None:
        if isinstance(allowed, str):
            raise TypeError(f"allowed_hosts must be a list of host names, not the string {allowed!r}")
        hosts = list(allowed)
        for host in hosts:
            if not isinstance(host, str) or not host or "/" in host:
                raise ValueError(f"allowed_hosts: {host!r} is not a host name (write 'mcp.example.com')")
        self.any = "*" in hosts
        self.allowed = frozenset(host.lower() for host in hosts)

    def allows(self, host: str | None) -> bool:
        if host is None or self.any or host.lower() in self.allowed:
            return True
        try:
            name = urlsplit(f"//{host}").hostname
        except ValueError:  # a port that is not a number
            return False
        return name is not None and (is_loopback(name) or name in self.allowed)


def _is_origin(value: str) -> bool:
    try:
        parts = urlsplit(value.rstrip("/"))
        port = parts.port
    except ValueError:  # a port that is not a number
        return False
    valid_port = port is None or port > 0
    return valid_port and parts.scheme in ("http", "https") and bool(parts.hostname) and not parts.path


def bearer_token(authorization: str | None) -> str | None:
    """The token of an ``Authorization: Bearer <token>`` header, else None.

    >>> bearer_token("Bearer abc.def"), bearer_token("Basic eDp5"), bearer_token(None)
    ('abc.def', None, None)
    """
    if authorization is None:
        return None
    scheme, _, token = authorization.strip().partition(" ")
    token = token.strip()
    return token if scheme.lower() == "bearer" and token else None


def decode_header_value(value: str) -> str:
    """A header value as sent, or the UTF-8 text inside the ``=?base64?...?=`` sentinel.

    Raises ``ValueError`` for a sentinel that does not hold base64 of UTF-8 text.
    """
    if not (value.startswith(_SENTINEL_START) and value.endswith(_SENTINEL_END)):
        return value
    inner = value[len(_SENTINEL_START) : len(value) - len(_SENTINEL_END)]
    try:
        decoded = base64.b64decode(inner, validate=True)
        if base64.b64encode(decoded).decode("ascii") != inner:  # stray bits a b64decode lets through
            raise binascii.Error
        return decoded.decode("utf-8")
    except (binascii.Error, UnicodeDecodeError):
        raise ValueError("its =?base64?...?= value is not base64 of UTF-8 text") from None


def _mismatch(message: str) -> RpcError:
    return RpcError(HEADER_MISMATCH, f"Header mismatch: {message}")


def check_routing_headers(
    headers: Mapping[str, list[str]], message: Mapping[str, Any], version: Any, name_param: str | None
) -> None:
    """Raise ``RpcError`` -32020 unless the 2026-07-28 routing headers agree with the request body.

    ``version`` is the body's ``_meta`` protocol version (None when the body has none);
    ``name_param`` the parameter the ``Mcp-Name`` header mirrors for this method (None: none).
    """
    for name in ROUTING_HEADERS:
        if len(headers.get(name, ())) > 1:
            raise _mismatch(f"the {name} header appears more than once")
    sent = headers.get(PROTOCOL_VERSION_HEADER, [None])[0]
    if sent is None:
        raise _mismatch("the MCP-Protocol-Version header is missing")
    if sent != version:
        body = "no protocol version" if version is None else f"protocol version {quoted(version)}"
        raise _mismatch(f"the MCP-Protocol-Version header says {quoted(sent)} but params._meta has {body}")
    method = message.get("method")
    sent_method = headers.get(METHOD_HEADER, [None])[0]
    if sent_method != method:
        shown = "is missing" if sent_method is None else f"says {quoted(sent_method)}"
        raise _mismatch(f"the Mcp-Method header {shown} but the method is {quoted(method)}")
    param = name_param
    params = message.get("params")
    value = params.get(param) if param is not None and isinstance(params, Mapping) else None
    if value is None:
        return
    sent_name = headers.get(NAME_HEADER, [None])[0]
    if sent_name is None:
        raise _mismatch(f"the Mcp-Name header is missing (params.{param} is {quoted(value)})")
    try:
        name = decode_header_value(sent_name)
    except ValueError as err:
        raise _mismatch(f"the Mcp-Name header is malformed: {err}") from None
    if name != value:
        raise _mismatch(f"the Mcp-Name header says {quoted(name)} but params.{param} is {quoted(value)}")


def _value_at(arguments: Any, path: tuple[str, ...]) -> Any:
    """The value at a chain of property names in the call's arguments (None where there is none)."""
    value = arguments
    for step in path:
        if not isinstance(value, Mapping):
            return None
        value = value.get(step)
    return value


def _agrees(sent: str, value: Any) -> bool:
    """Whether a decoded header value is the body's value: booleans as ``true``/``false``, numbers
    compared as numbers (``42.0`` is 42), strings exactly."""
    if isinstance(value, bool):
        return sent == ("true" if value else "false")
    if isinstance(value, (int, float)):
        try:
            number = float(sent)
        except ValueError:
            return False
        return math.isfinite(number) and number == value
    return isinstance(value, str) and sent == value


def check_param_headers(
    headers: Mapping[str, list[str]], arguments: Any, params: Sequence[HeaderParam]
) -> None:
    """Raise ``RpcError`` -32020 unless each ``Mcp-Param-{name}`` header of a tool's mirrored
    parameters agrees with the call's arguments: sent exactly when the argument has a value (not
    null), once, with valid characters, and equal to it once its ``=?base64?...?=`` is decoded.

    >>> from mcplite.tools.schema import HeaderParam
    >>> region = [HeaderParam("Region", ("region",), "string")]
    >>> check_param_headers({"mcp-param-region": ["us-west1"]}, {"region": "us-west1"}, region)
    >>> check_param_headers({}, {"region": "us-west1"}, region)
    Traceback (most recent call last):
    ...
    mcplite.protocol.jsonrpc.RpcError: Header mismatch: the Mcp-Param-Region header is missing \
(arguments.region is 'us-west1')
    """
    for param in params:
        header = f"Mcp-Param-{param.header}"
        sent = headers.get(PARAM_HEADER_PREFIX + param.header.lower(), [])
        value = _value_at(arguments, param.path)
        where = "arguments." + ".".join(param.path)
        if len(sent) > 1:
            raise _mismatch(f"the {header} header appears more than once")
        if value is None or not isinstance(value, (str, int, float)):  # nothing a client mirrors
            if sent:
                raise _mismatch(f"the {header} header is sent but {where} has no value a header can carry")
            continue
        if not sent:
            raise _mismatch(f"the {header} header is missing ({where} is {quoted(value)})")
        text = sent[0].strip(" \t")
        if not _FIELD_VALUE.match(text):
            raise _mismatch(
                f"the {header} header holds characters a header value cannot (send =?base64?...?=)"
            )
        try:
            decoded = decode_header_value(text)
        except ValueError as err:
            raise _mismatch(f"the {header} header is malformed: {err}") from None
        if not _agrees(decoded, value):
            raise _mismatch(f"the {header} header says {quoted(decoded)} but {where} is {quoted(value)}")


def check_tool_headers(engine: Engine, headers: Mapping[str, list[str]], message: Mapping[str, Any]) -> None:
    """:func:`check_param_headers` for a ``tools/call`` of a tool with mirrored parameters (else nothing)."""
    params = message.get("params")
    if message.get("method") != "tools/call" or not isinstance(params, Mapping):
        return
    name = params.get("name")
    tool = engine.tools.get(name) if isinstance(name, str) else None
    if tool is not None and tool.header_params:
        check_param_headers(headers, params.get("arguments"), tool.header_params)
