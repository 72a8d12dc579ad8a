"""The ``requestState`` of a 2026-07-28 ``input_required`` result: signed, so that any worker
sharing the key can continue a call another began, and a tampered, foreign or expired one is refused.

A state is compact JSON and its HMAC-SHA256, both base64url, joined by a dot. It holds the answers
so far, the keys asked, what the call is (its method and a digest of its arguments), a hash of the
bearer token it was made for and when it expires.

>>> key = b"k" * 32
>>> token = seal({"asked": ["a"]}, key, ttl=60, now=1000.0)
>>> unseal(token, key, now=1010.0)["asked"]
['a']
>>> try:
...     unseal(token + "x", key, now=1010.0)
... except StateRefused as err:
...     print(err)
requestState does not verify (tampered, or sealed with another key)
"""

from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import json
import os
import secrets
import time
from typing import Any

STATE_KEY_ENV = "MCPLITE_STATE_KEY"
"""The environment variable holding the key when ``McpServer(state_key=)`` is not given."""


class StateRefused(ValueError):
    """A ``requestState`` that cannot be used (the message says why)."""


def state_key(given: str | bytes | None) -> bytes:
    """The key to sign with: ``given``, else ``$MCPLITE_STATE_KEY``, else random (this process only)."""
    if given is None:
        given = os.environ.get(STATE_KEY_ENV) or None
    if given is None:
        return secrets.token_bytes(32)
    key = given.encode("utf-8") if isinstance(given, str) else given
    if not isinstance(key, bytes) or len(key) < 16:
        raise ValueError(f"state_key must be a str or bytes of 16 bytes or more, not {given!r:.20}...")
    return key


def principal_of(token: str | None) -> str | None:
    """What a state records of the bearer token it was made for: a hash (None without a token)."""
    return None if token is None else hashlib.sha256(token.encode("utf-8")).hexdigest()[:32]


def _b64(data: bytes) -> str:
    return base64.urlsafe_b64encode(data).rstrip(b"=").decode("ascii")


def _unb64(text: str) -> bytes:
    return base64.urlsafe_b64decode(text + "=" * (-len(text) % 4))


def digest(value: Any) -> str:
    """A digest of plain JSON (key order does not matter)."""
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, default=str)
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:32]


def seal(payload: dict[str, Any], key: bytes, *, ttl: float, now: float | None = None) -> str:
    """``payload`` (plain JSON) signed with ``key``, valid for ``ttl`` seconds."""
    body = dict(payload, exp=(time.time() if now is None else now) + ttl)
    data = json.dumps(body, separators=(",", ":"), ensure_ascii=False).encode("utf-8")
    mac = hmac.new(key, data, hashlib.sha256).digest()
    return f"{_b64(data)}.{_b64(mac)}"


def unseal(token: Any, key: bytes, *, now: float | None = None) -> dict[str, Any]:
    """The payload of a state :func:`seal` made with ``key``; :class:`StateRefused` otherwise."""
    if not isinstance(token, str):
        raise StateRefused(f"requestState must be a string, not {type(token).__name__}")
    body, dot, mac = token.partition(".")
    try:
        data, signature = _unb64(body), _unb64(mac)
    except (binascii.Error, ValueError):
        raise StateRefused("requestState does not verify (tampered, or sealed with another key)") from None
    if not dot or not hmac.compare_digest(signature, hmac.new(key, data, hashlib.sha256).digest()):
        raise StateRefused("requestState does not verify (tampered, or sealed with another key)")
    payload = json.loads(data)
    if payload.get("exp", 0) < (time.time() if now is None else now):
        raise StateRefused("requestState has expired: call again without it (and without inputResponses)")
    return dict(payload)
