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

from mcplite.transports.http.events import EventStore
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


def _sse_retry(instance: Any, attribute: Any, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not 0 < value <= 3600:
        raise ValueError(f"asgi_app: sse_retry must be a number of seconds from 0 to 3600, not {value!r}")


def _event_store(instance: Any, attribute: Any, value: Any) -> None:
    if value is not None and not isinstance(value, EventStore):
        raise TypeError(f"asgi_app: event_store must be an mcplite.http.EventStore, not {value!r:.80}")


def _body_timeout(instance: Any, attribute: Any, value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not value > 0:
        raise ValueError(f"asgi_app: body_timeout must be a positive number of seconds, not {value!r}")


@attrs.frozen(kw_only=True)
class HttpOptions:
    """How one Streamable HTTP endpoint behaves.

    ``path`` is the endpoint; ``allowed_origins`` adds browser origins to the loopback ones always
    allowed (``"*"``: any); a server bound to loopback answers only requests addressed to a
    loopback name or to a host in ``allowed_hosts`` (421 otherwise); ``authenticate(token)``
    (plain or async) accepts or refuses each request's bearer token (401 without a valid one); a
    legacy session ends after ``session_idle_timeout`` idle seconds, and at most ``max_sessions``
    exist at once (and ``max_sessions_per_token`` per bearer token): a new one replaces the least
    recently used session with no call in flight; an SSE stream carries a keep-alive comment
    every ``sse_keepalive`` seconds; a request body not all received after ``body_timeout``
    seconds is refused (408). At 2025-11-25 a POST's SSE stream is resumable: its events are kept
    in ``event_store`` (an :class:`~mcplite.transports.http.events.MemoryEventStore` of this
    process by default) and its priming event tells the client to reconnect after ``sse_retry``
    seconds.
    """

    path: str = attrs.field(default="/mcp", validator=_path)
    allowed_origins: Iterable[str] = ()
    allowed_hosts: Iterable[str] = ()
    authenticate: Authenticate | None = attrs.field(default=None, validator=_authenticate)
    session_idle_timeout: float = 3600.0
    max_sessions: int = 10_000
    max_sessions_per_token: int | None = None
    sse_keepalive: float = attrs.field(default=15.0, validator=_keepalive)
    body_timeout: float = attrs.field(default=30.0, validator=_body_timeout)
    event_store: EventStore | None = attrs.field(default=None, validator=_event_store)
    sse_retry: float = attrs.field(default=1.0, validator=_sse_retry)
