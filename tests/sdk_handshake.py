"""Making the official SDK's client offer one legacy protocol version in its handshake."""

from __future__ import annotations

import contextlib
from collections.abc import Iterator

import pytest
from mcp.client import session as sdk_session


@contextlib.contextmanager
def offered_handshake(version: str | None) -> Iterator[None]:
    """Make the SDK's initialize offer ``version`` (None: its own latest); FastMCP uses the SDK's
    session too."""
    if version is None:
        yield
        return
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(sdk_session, "LATEST_HANDSHAKE_VERSION", version)
        yield
