"""Who hears that resources changed: the connections that listed or subscribed to resources
(legacy era, where a connection has a session), each through the notify of its own requests.

``notifications/resources/list_changed`` goes to every connection that listed resources;
``notifications/resources/updated`` to those subscribed to the URI. A connection that has gone
away is forgotten with its session.

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

log = logging.getLogger("mcplite.server")

Notify = Callable[[str, dict[str, Any]], None]


class Subscriptions:
    """The listening connections, by session (held weakly)."""

    def __init__(self) -> None:
        self._listeners: weakref.WeakKeyDictionary[Any, Notify] = weakref.WeakKeyDictionary()
        self._uris: weakref.WeakKeyDictionary[Any, set[str]] = weakref.WeakKeyDictionary()
        self._lock = threading.Lock()

    def listen(self, session: Any, notify: Notify) -> None:
        """Send this session the list changes from now on."""
        with self._lock:
            self._listeners[session] = notify

    def subscribe(self, session: Any, notify: Notify, uri: str) -> None:
        with self._lock:
            self._listeners[session] = notify
            self._uris.setdefault(session, set()).add(uri)

    def unsubscribe(self, session: Any, uri: str) -> None:
        with self._lock:
            self._uris.get(session, set()).discard(uri)

    def _send(self, targets: list[Notify], method: str, params: dict[str, Any]) -> int:
        for notify in targets:
            try:
                notify(method, params)
            except Exception as err:  # a connection closing as we send: it hears nothing more
                log.debug("could not send %s: %s", method, err)
        return len(targets)

    def list_changed(self, kind: str = "resources") -> int:
        """Send ``notifications/<kind>/list_changed`` to every listener; how many were sent."""
        with self._lock:
            targets = list(self._listeners.values())
        return self._send(targets, f"notifications/{kind}/list_changed", {})

    def updated(self, uri: str) -> int:
        """Send ``notifications/resources/updated`` to the sessions subscribed to ``uri``."""
        with self._lock:
            targets = [
                self._listeners[s] for s, uris in self._uris.items() if uri in uris and s in self._listeners
            ]
        return self._send(targets, "notifications/resources/updated", {"uri": uri})
