"""Who hears that resources, prompts or tools changed.

Two kinds of listener: a legacy-era connection that listed resources or subscribed to a URI (it
hears through its session), and a 2026-07-28 ``subscriptions/listen`` request (a :class:`Stream`,
which hears only what its filter asked for and the server agreed to, each message tagged with
the request's id in ``_meta``). A connection that has gone away is forgotten with its session; a
stream when its request ends. :class:`SubscriptionLimits` bounds both kinds: the URIs one session
subscribes to, the URIs one listen names, and the listens open per client and in all.

>>> sent = []
>>> class Session: ...
>>> hub, session = Subscriptions(), Session()
>>> hub.subscribe(session, lambda method, params: sent.append((method, params)), "data://x")
>>> hub.updated("data://x"), hub.updated("data://y"), sent
(1, 0, [('notifications/resources/updated', {'uri': 'data://x'})])
"""

from __future__ import annotations

import logging
import threading
import weakref
from collections.abc import Callable
from typing import Any

import attrs

from mcplite.protocol.jsonrpc import INTERNAL_ERROR, INVALID_PARAMS, RpcError

log = logging.getLogger("mcplite.server")

Notify = Callable[[str, dict[str, Any]], None]

SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId"
"""The ``_meta`` key tying a message to the ``subscriptions/listen`` request it belongs to."""

LIST_KINDS = ("tools", "prompts", "resources")
"""The lists whose changes a listen stream can ask for (``<kind>ListChanged`` in its filter)."""


def _positive(instance: Any, attribute: attrs.Attribute[int], value: Any) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or value < 1:
        raise ValueError(f"McpServer: {attribute.name} must be a positive integer, not {value!r}")


@attrs.frozen(kw_only=True)
class SubscriptionLimits:
    """How much listening one server allows (each an ``McpServer`` option of the same name).

    ``max_listens``: ``subscriptions/listen`` requests open at once in all, and
    ``max_listens_per_token`` per bearer token (HTTP; a stdio connection is one client, bounded by
    the total and ``max_requests_in_flight``): past either a new listen is refused with -32603
    naming the limit, as the Python SDK refuses one past its 1,024. ``max_listen_backlog``:
    notifications waiting to be sent on one listen's HTTP stream; a client that stops reading past
    it has its listen ended with an error naming the limit. ``max_uris_per_listen``: the URIs one
    listen may name; ``max_subscriptions_per_session``: the URIs one legacy session may subscribe
    to (-32602 naming the limit past either).

    >>> SubscriptionLimits(max_listens=0)
    Traceback (most recent call last):
    ...
    ValueError: McpServer: max_listens must be a positive integer, not 0
    """

    max_listens: int = attrs.field(default=1024, validator=_positive)
    max_listens_per_token: int = attrs.field(default=64, validator=_positive)
    max_listen_backlog: int = attrs.field(default=1024, validator=_positive)
    max_uris_per_listen: int = attrs.field(default=1024, validator=_positive)
    max_subscriptions_per_session: int = attrs.field(default=1024, validator=_positive)


@attrs.frozen(eq=False)
class Stream:
    """One open ``subscriptions/listen`` request: what it hears and how it is ended.

    ``kinds``: the lists whose changes it hears; ``uris``: the resources whose updates it hears;
    ``owner``: the session of its connection; ``end``: asks the request to answer and finish
    (from any thread); ``client``: whom it counts against ``max_listens_per_token`` (a digest of
    the bearer token; None: no token).

    >>> sent = []
    >>> hub = Subscriptions()
    >>> hub.open(Stream(7, lambda m, p: sent.append((m, p)), frozenset({"tools"}), frozenset()))
    >>> hub.list_changed("tools"), hub.list_changed("prompts"), sent
    (1, 0, [('notifications/tools/list_changed', {'_meta': {'io.modelcontextprotocol/subscriptionId': 7}})])
    """

    id: Any
    notify: Notify
    kinds: frozenset[str]
    uris: frozenset[str]
    owner: Any = None
    end: Callable[[], None] = lambda: None
    client: Any = None

    @property
    def tag(self) -> dict[str, Any]:
        """The ``_meta`` every message of this stream carries."""
        return {SUBSCRIPTION_ID_KEY: self.id}


class Subscriptions:
    """The listening connections, by session (held weakly), and the open listen streams, within
    ``limits``."""

    def __init__(self, limits: SubscriptionLimits | None = None) -> None:
        self.limits = limits or SubscriptionLimits()
        self._listeners: weakref.WeakKeyDictionary[Any, Notify] = weakref.WeakKeyDictionary()
        self._uris: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()
        self._streams: dict[int, Stream] = {}
        self._per_token: dict[Any, int] = {}
        self._lock = threading.Lock()

    def listen(self, session: Any, notify: Notify) -> None:
        """Send this session the resource list changes from now on (legacy era)."""
        with self._lock:
            self._listeners[session] = notify

    def subscribe(self, session: Any, notify: Notify, uri: str) -> None:
        """Send this session the updates of ``uri`` (legacy era); -32602 past
        ``max_subscriptions_per_session`` URIs."""
        limit = self.limits.max_subscriptions_per_session
        with self._lock:
            uris = self._uris.setdefault(session, set())
            if uri not in uris and len(uris) >= limit:
                raise RpcError(
                    INVALID_PARAMS,
                    f"Invalid params: this session is subscribed to {limit} resources, the server's limit "
                    "(max_subscriptions_per_session); unsubscribe from one first",
                )
            self._listeners[session] = notify
            uris.add(uri)

    def unsubscribe(self, session: Any, uri: str) -> None:
        with self._lock:
            self._uris.get(session, set()).discard(uri)

    # -- subscriptions/listen (2026-07-28) ---------------------------------------------------------

    def admit(self, client: Any = None) -> None:
        """Check that one more listen may open (of ``client``, a bearer token's digest): -32603
        naming the limit when ``max_listens`` are open, or ``max_listens_per_token`` of its token's.
        """
        limits = self.limits
        with self._lock:
            if len(self._streams) >= limits.max_listens:
                refusal = f"{limits.max_listens} listens are open, the server's limit (max_listens)"
            elif client is not None and self._per_token.get(client, 0) >= limits.max_listens_per_token:
                refusal = (
                    f"this bearer token has {limits.max_listens_per_token} listens open, the server's "
                    "limit (max_listens_per_token)"
                )
            else:
                return
        raise RpcError(INTERNAL_ERROR, f"subscriptions/listen: {refusal}; end one first")

    def open(self, stream: Stream) -> None:
        """Send ``stream`` what it asked for from now on (admitted, and its acknowledgement sent)."""
        with self._lock:
            self._streams[id(stream)] = stream
            if stream.client is not None:
                self._per_token[stream.client] = self._per_token.get(stream.client, 0) + 1

    def close(self, stream: Stream) -> None:
        """Forget ``stream`` (its request ended); closing it twice is harmless."""
        client = stream.client
        with self._lock:
            if self._streams.pop(id(stream), None) is None or client is None:
                return
            left = self._per_token.pop(client) - 1
            if left:
                self._per_token[client] = left

    @property
    def streams(self) -> int:
        """How many listen streams are open."""
        return len(self._streams)

    def end_streams(self, owner: Any = None) -> int:
        """Ask the listen streams (of ``owner``'s connection, or all) to answer and finish, as the
        server stops; how many were asked."""
        with self._lock:
            ending = [s for s in self._streams.values() if owner is None or s.owner is owner]
        for stream in ending:
            stream.end()
        return len(ending)

    # -- sending -----------------------------------------------------------------------------------

    def _send(self, targets: list[tuple[Notify, dict[str, Any]]], method: str) -> int:
        for notify, params in targets:
            try:
                notify(method, params)
            except Exception as err:  # a connection closing as we send: it hears nothing more
                log.debug("could not send %s: %s", method, err)
        return len(targets)

    def list_changed(self, kind: str = "resources") -> int:
        """Send ``notifications/<kind>/list_changed`` to every listener of that list (legacy-era
        connections hear only of resources); how many were sent."""
        with self._lock:
            legacy = list(self._listeners.values()) if kind == "resources" else []
            streams = [s for s in self._streams.values() if kind in s.kinds]
        targets: list[tuple[Notify, dict[str, Any]]] = [(notify, {}) for notify in legacy]
        targets += [(s.notify, {"_meta": s.tag}) for s in streams]
        return self._send(targets, f"notifications/{kind}/list_changed")

    def updated(self, uri: str) -> int:
        """Send ``notifications/resources/updated`` to the listeners subscribed to ``uri``."""
        with self._lock:
            legacy = [
                self._listeners[s] for s, uris in self._uris.items() if uri in uris and s in self._listeners
            ]
            streams = [s for s in self._streams.values() if uri in s.uris]
        targets: list[tuple[Notify, dict[str, Any]]] = [(notify, {"uri": uri}) for notify in legacy]
        targets += [(s.notify, {"uri": uri, "_meta": s.tag}) for s in streams]
        return self._send(targets, "notifications/resources/updated")
