"""The settings of an HTTP endpoint, defined once: :class:`McpHttpApp` and ``McpServer.asgi_app``
and ``McpServer.run`` all take them as keyword arguments.

>>> HttpOptions(path="/tools").path
'/tools'
>>> HttpOptions(sse_keepalive=0)
Traceback (most recent call last):
...
ValueError: asgi_app: sse_keepalive must be a positive number of seconds, not 0
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import attrs

from mcplite.transports.http.guards import Authenticate


def _path(instance: Any, attribute: Any, value: Any) -> None:
    if not isinstance(value, str) or not value.startswith("/"):
        raise ValueError(f"asgi_app: path must start with '/', not {value!r}")


def _authenticate(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None and not callable(value):
        raise TypeError(f"asgi_app: authenticate must be a function of the token, not {value!r}")


def _keepalive(instance: Any, attribute: Any, value: Any) -> None:
    if not value > 0:
        raise ValueError(f"asgi_app: sse_keepalive must be a positive number of seconds, not {value!r}")


@attrs.frozen(kw_only=True)
class HttpOptions:
    """How one Streamable HTTP endpoint behaves.

    ``path`` is the endpoint; ``allowed_origins`` adds browser origins to the loopback ones always
    allowed (``"*"``: any); ``authenticate(token)`` (plain or async) accepts or refuses each
    request's bearer token (401 without a valid one); a legacy session ends after
    ``session_idle_timeout`` idle seconds, and at most ``max_sessions`` exist at once; an SSE
    stream carries a keep-alive comment every ``sse_keepalive`` seconds.
    """

    path: str = attrs.field(default="/mcp", validator=_path)
    allowed_origins: Iterable[str] = ()
    authenticate: Authenticate | None = attrs.field(default=None, validator=_authenticate)
    session_idle_timeout: float = 3600.0
    max_sessions: int = 10_000
    sse_keepalive: float = attrs.field(default=15.0, validator=_keepalive)
