"""Legacy Streamable HTTP sessions (protocol 2025-03-26 to 2025-11-25): one :class:`Connection` per
``Mcp-Session-Id``, held in the memory of one process.

A session ends when the client sends DELETE, when it has been idle (no request, no call in flight)
for ``idle_timeout`` seconds, or when the server stops. When all ``max_sessions`` slots are taken,
a new session takes the place of the least recently used one with no call in flight (a client
that never closes its sessions cannot lock others out); only when every session is busy is the
new one refused. ``max_per_token`` bounds the sessions of one bearer token the same way. A
session started with a bearer token answers only requests carrying the same token. 2026-07-28
requests need none of this.

>>> import asyncio, mcplite
>>> async def demo() -> bool:
...     store = SessionStore(idle_timeout=60, max_sessions=10)
...     session = store.create(Connection(mcplite.McpServer("x"), lambda line: None), token=None)
...     return store.get(session.id, token=None) is session and store.get("nope", token=None) is None
>>> asyncio.run(demo())
True
"""

from __future__ import annotations

import collections
import hashlib
import hmac
import secrets
import time

from mcplite.engine.connection import Connection


class SessionLimit(Exception):
    """Every session slot is taken by a session that is not idle."""


def _digest(token: str | None) -> bytes:
    return b"" if token is None else hashlib.sha256(token.encode("utf-8", "surrogatepass")).digest()


class Session:
    """One legacy client: its id, its connection, and who may use it."""

    def __init__(self, session_id: str, connection: Connection, token: str | None) -> None:
        self.id = session_id
        self.connection = connection
        self.owner = _digest(token)
        self.last_seen = time.monotonic()
        self.exchanges = 0
        """HTTP requests of this session being answered now."""

    def busy(self) -> bool:
        return self.exchanges > 0 or self.connection.calls_in_flight > 0


class SessionStore:
    """The sessions of one process, by id."""

    def __init__(self, *, idle_timeout: float, max_sessions: int, max_per_token: int | None = None) -> None:
        if not idle_timeout > 0:
            raise ValueError(
                f"session_idle_timeout must be a positive number of seconds, not {idle_timeout!r}"
            )
        if isinstance(max_sessions, bool) or not isinstance(max_sessions, int) or max_sessions < 1:
            raise ValueError(f"max_sessions must be a positive integer, not {max_sessions!r}")
        if max_per_token is not None and (
            isinstance(max_per_token, bool) or not isinstance(max_per_token, int) or max_per_token < 1
        ):
            raise ValueError(
                f"max_sessions_per_token must be a positive integer or None, not {max_per_token!r}"
            )
        self.idle_timeout = idle_timeout
        self.max_sessions = max_sessions
        self.max_per_token = max_per_token
        self._sessions: collections.OrderedDict[str, Session] = collections.OrderedDict()
        """Least recently used first."""
        self._per_owner: collections.Counter[bytes] = collections.Counter()

    def __len__(self) -> int:
        return len(self._sessions)

    def __contains__(self, session_id: object) -> bool:
        """Whether a session with this id lives (whoever owns it)."""
        return session_id in self._sessions

    def create(self, connection: Connection, token: str | None) -> Session:
        """A new session with a fresh, unguessable id, in the place of the least recently used idle
        one when the store (or the token's quota) is full; ``SessionLimit`` when all are busy."""
        self.expire()
        owner = _digest(token)
        if token is not None and self.max_per_token is not None:
            if self._per_owner[owner] >= self.max_per_token:
                self._evict(owner, f"all {self.max_per_token} sessions of this token have calls in flight")
        if len(self._sessions) >= self.max_sessions:
            self._evict(None, f"all {self.max_sessions} sessions have calls in flight")
        session = Session(secrets.token_urlsafe(24), connection, token)
        self._sessions[session.id] = session
        self._per_owner[owner] += 1
        return session

    def _evict(self, owner: bytes | None, refusal: str) -> None:
        """End the least recently used session with no call in flight (of ``owner``, if given)."""
        for session in self._sessions.values():
            if not session.busy() and (owner is None or session.owner == owner):
                self.end(session.id)
                return
        raise SessionLimit(refusal)

    def get(self, session_id: str, token: str | None) -> Session | None:
        """The live session with this id, if ``token`` is the one it started with."""
        session = self._sessions.get(session_id)
        if session is None or not hmac.compare_digest(session.owner, _digest(token)):
            return None
        if not session.busy() and time.monotonic() - session.last_seen > self.idle_timeout:
            self.end(session_id)
            return None
        session.last_seen = time.monotonic()
        self._sessions.move_to_end(session_id)
        return session

    def end(self, session_id: str) -> Session | None:
        """Forget a session and cancel its calls in flight."""
        session = self._sessions.pop(session_id, None)
        if session is not None:
            self._per_owner[session.owner] -= 1
            if not self._per_owner[session.owner]:
                del self._per_owner[session.owner]
            session.connection.cancel_all()
        return session

    def expire(self) -> int:
        """End the sessions idle for longer than ``idle_timeout``; how many ended."""
        deadline = time.monotonic() - self.idle_timeout
        idle = [s.id for s in self._sessions.values() if not s.busy() and s.last_seen < deadline]
        for session_id in idle:
            self.end(session_id)
        return len(idle)

    def end_all(self) -> None:
        for session_id in list(self._sessions):
            self.end(session_id)
