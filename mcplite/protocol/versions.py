"""Protocol versions and the ``_meta`` keys that carry them: every version comparison in mcplite is here.

Legacy versions (2024-11-05 ... 2025-11-25) are agreed once with ``initialize``; from 2026-07-28 a
request names its version in ``params._meta`` and is served statelessly.

>>> since("2025-06-18", "2025-03-26"), is_modern("2025-11-25"), is_modern("2026-07-28")
(True, False, True)
"""

from __future__ import annotations

from typing import Any

PROTOCOL_VERSIONS: tuple[str, ...] = ("2024-11-05", "2025-03-26", "2025-06-18", "2025-11-25", "2026-07-28")
"""The protocol versions mcplite can project to, oldest first."""

LEGACY_VERSIONS: tuple[str, ...] = PROTOCOL_VERSIONS[:4]
"""The versions agreed once with an ``initialize`` handshake."""

MODERN_VERSIONS: tuple[str, ...] = PROTOCOL_VERSIONS[4:]
"""The stateless versions: each request names its version in ``_meta``."""

LATEST_LEGACY_VERSION = LEGACY_VERSIONS[-1]
"""The version ``initialize`` answers when the client asks for one mcplite does not speak."""

SUPPORTED_VERSIONS: list[str] = list(reversed(PROTOCOL_VERSIONS))
"""What ``-32022`` and ``server/discover`` name: every version, newest first."""

BATCH_VERSION = "2025-03-26"
"""The one version whose clients may send JSON-RPC batches (arrays of messages)."""

PROTOCOL_VERSION_KEY = "io.modelcontextprotocol/protocolVersion"
CLIENT_CAPABILITIES_KEY = "io.modelcontextprotocol/clientCapabilities"
CLIENT_INFO_KEY = "io.modelcontextprotocol/clientInfo"
LOG_LEVEL_KEY = "io.modelcontextprotocol/logLevel"
SERVER_INFO_KEY = "io.modelcontextprotocol/serverInfo"

LOG_LEVELS: tuple[str, ...] = (
    "debug",
    "info",
    "notice",
    "warning",
    "error",
    "critical",
    "alert",
    "emergency",
)
"""The syslog severities MCP logging uses, least severe first."""


def check_version(protocol_version: Any) -> str:
    """Refuse a protocol version mcplite does not know.

    >>> check_version("1.0")
    Traceback (most recent call last):
    ...
    ValueError: unknown MCP protocol version '1.0'; mcplite knows 2024-11-05, 2025-03-26, 2025-06-18, 2025-11-25, 2026-07-28
    """  # noqa: E501
    if protocol_version not in PROTOCOL_VERSIONS:
        known = ", ".join(PROTOCOL_VERSIONS)
        raise ValueError(f"unknown MCP protocol version {protocol_version!r}; mcplite knows {known}")
    return str(protocol_version)


def since(protocol_version: str, first: str) -> bool:
    """Whether ``protocol_version`` is ``first`` or later (both known versions)."""
    return PROTOCOL_VERSIONS.index(protocol_version) >= PROTOCOL_VERSIONS.index(first)


def is_modern(protocol_version: str) -> bool:
    """Whether ``protocol_version`` is stateless (2026-07-28 and later)."""
    return since(check_version(protocol_version), MODERN_VERSIONS[0])


def known_version(requested: Any) -> str:
    """The version to speak to a client asking for ``requested``: that one if mcplite knows it,
    else the newest it knows that is not newer (the newest of all when nothing is asked).

    >>> known_version("2025-07-01"), known_version(None), known_version("2020-01-01")
    ('2025-06-18', '2026-07-28', '2024-11-05')
    """
    if requested in PROTOCOL_VERSIONS:
        return str(requested)
    if not isinstance(requested, str):
        return PROTOCOL_VERSIONS[-1]
    older = [version for version in PROTOCOL_VERSIONS if version <= requested]
    return older[-1] if older else PROTOCOL_VERSIONS[0]
