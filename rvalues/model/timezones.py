"""Time zones as R resolves them: a ``tzone`` name, or the process's own zone for ""."""

from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from rvalues.errors import RValueError
from rvalues.model.strings import shorten


def local_zone_name() -> str:
    """The process's zone as R finds it: ``TZ`` if set, else the system zone, else UTC."""
    tz = os.environ.get("TZ")
    if tz:
        return tz.lstrip(":")
    try:
        target = Path("/etc/localtime").resolve()
        parts = target.parts
        if "zoneinfo" in parts:
            return "/".join(parts[parts.index("zoneinfo") + 1 :])
    except OSError:
        pass
    try:
        return Path("/etc/timezone").read_text().strip() or "UTC"
    except OSError:
        return "UTC"


@lru_cache(maxsize=256)
def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise RValueError(f"unknown time zone {shorten(name)}: expected an IANA name such as 'UTC'") from None


def zone(name: str | None) -> ZoneInfo:
    """The zone a ``tzone`` value names; None or "" is the process's zone, read now."""
    if name is not None and not isinstance(name, str):
        raise TypeError(f"a time zone is a str such as 'UTC', not {type(name).__name__} ({shorten(name)})")
    if not name:
        name = local_zone_name()
    if name in ("UTC", "GMT", "Etc/UTC"):
        return _zone("UTC")
    return _zone(name)
