"""Who hears that resources, prompts or tools changed.

Two kinds of listener: a legacy-era connection that listed resources or subscribed to a URI (it
hears through its session), and a 2026-07-28 ``subscriptions/listen`` request (a :class:`Stream`,
which hears only what its filter asked for and the server agreed to, each message tagged with
the request's id in ``_meta``). A connection that has gone away is forgotten with its session; a
stream when its request ends.

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

log = logging.getLogger("mcplite.server")

Notify = Callable[[str, dict[str, Any]], None]

SUBSCRIPTION_ID_KEY = "io.modelcontextprotocol/subscriptionId"
"""The ``_meta`` key tying a message to the ``subscriptions/listen`` request it belongs to."""

LIST_KINDS = ("tools", "prompts", "resources")
"""The lists whose changes a listen stream can ask for (``<kind>ListChanged`` in its filter)."""


@attrs.frozen(eq=False)
class Stream:
    """One open ``subscriptions/listen`` request: what it hears and how it is ended.

    ``kinds``: the lists whose changes it hears; ``uris``: the resources whose updates it hears;
    ``owner``: the session of its connection; ``end``: asks the request to answer and finish
    (from any thread).

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

    @property
    def tag(self) -> dict[str, Any]:
        """The ``_meta`` every message of this stream carries."""
        return {SUBSCRIPTION_ID_KEY: self.id}


class Subscriptions:
    """The listening connections, by session (held weakly), and the open listen streams."""

    def __init__(self) -> None:
        self._listeners: weakref.WeakKeyDictionary[Any, Notify] = weakref.WeakKeyDictionary()
        self._uris: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()
        self._streams: dict[int, Stream] = {}
        self._lock = threading.Lock()

    def listen(self, session: Any, notify: Notify) -> None:
        """Send this session the resource list changes from now on (legacy era)."""
        with self._lock:
            self._listeners[session] = notify

    def subscribe(self, session: Any, notify: Notify, uri: str) -> None:
        with self._lock:
            self._listeners[session] = notify
            self._uris.setdefault(session, set()).add(uri)

    def unsubscribe(self, session: Any, uri: str) -> None:
        with self._lock:
            self._uris.get(session, set()).discard(uri)

    # -- subscriptions/listen (2026-07-28) ---------------------------------------------------------

    def open(self, stream: Stream) -> None:
        """Send ``stream`` what it asked for from now on (after its acknowledgement was sent)."""
        with self._lock:
            self._streams[id(stream)] = stream

    def close(self, stream: Stream) -> None:
        """Forget ``stream`` (its request ended); closing it twice is harmless."""
        with self._lock:
            self._streams.pop(id(stream), None)

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
