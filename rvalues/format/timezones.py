"""Time zones as R resolves them: a ``tzone`` name, or the process's own zone for "".

R keeps a zone's name as it was given (``as.POSIXct(x, tz = "Etc/GMT")`` has tzone "Etc/GMT") and
prints the abbreviation the zone database gives it ("GMT"). The rules for both live here.

>>> tzone_name(ZoneInfo("Etc/GMT")), utc_abbreviation("Etc/GMT"), utc_abbreviation("Zulu")
('Etc/GMT', 'GMT', 'UTC')
"""

from __future__ import annotations

import datetime as dt
import os
from collections.abc import Mapping
from functools import lru_cache
from pathlib import Path
from typing import Any
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

from rvalues.errors import RValueError, shorten

# The zone database's names for UTC (its links to Etc/UTC and to Etc/GMT), and what R 4.2.2 prints
# after a time in each
_UTC_LINKS = "UTC Etc/UTC UCT Etc/UCT Universal Etc/Universal Zulu Etc/Zulu".split()
_GMT_LINKS = "GMT Etc/GMT GMT0 Etc/GMT0 GMT+0 Etc/GMT+0 GMT-0 Etc/GMT-0 Greenwich Etc/Greenwich".split()
_UTC_ALIASES: Mapping[str, str] = {**dict.fromkeys(_UTC_LINKS, "UTC"), **dict.fromkeys(_GMT_LINKS, "GMT")}


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


def utc_abbreviation(name: str) -> str | None:
    """What R prints after a time in a zone that is UTC under some name ("UTC" or "GMT"); None otherwise.

    >>> utc_abbreviation("Etc/UTC"), utc_abbreviation("GMT"), utc_abbreviation("Europe/London")
    ('UTC', 'GMT', None)
    """
    return _UTC_ALIASES.get(name)


@lru_cache(maxsize=256)
def _zone(name: str) -> ZoneInfo:
    try:
        return ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError, OSError):
        raise RValueError(f"unknown time zone {shorten(name)}: expected an IANA name such as 'UTC'") from None


def zone(name: str | None) -> ZoneInfo:
    """The zone a ``tzone`` value names (every name of UTC gives UTC); None or "" is the process's zone.

    >>> zone("Etc/GMT").key, zone("Europe/Paris").key
    ('UTC', 'Europe/Paris')
    """
    if name is not None and not isinstance(name, str):
        raise TypeError(f"a time zone is a str such as 'UTC', not {type(name).__name__} ({shorten(name)})")
    if not name:
        name = local_zone_name()
    return _zone("UTC" if name in _UTC_ALIASES else name)


def tzone_name(tz: dt.tzinfo | None, where: str = "value") -> str:
    """The ``tzone`` R gives a Python zone: its IANA name as it is spelled (zoneinfo, pytz and
    dateutil zones), or "UTC" for naive values and fixed offsets (their instants are kept).

    >>> tzone_name(ZoneInfo("America/New_York")), tzone_name(dt.timezone(dt.timedelta(hours=1)))
    ('America/New_York', 'UTC')
    """
    key = getattr(tz, "key", None) or getattr(tz, "zone", None)
    if not isinstance(key, str):
        filename = getattr(tz, "_filename", None)  # dateutil's tzfile
        if isinstance(filename, str) and "zoneinfo/" in filename:
            key = filename.split("zoneinfo/", 1)[1]
        elif isinstance(filename, str) and "/" not in filename:
            key = filename
    if not isinstance(key, str) or not key:
        return "UTC"
    try:
        zone(key)
    except RValueError:
        raise RValueError(f"{where}: time zone {shorten(key)} is not an IANA zone R knows") from None
    return key


def tzone_of(attributes: Mapping[str, Any]) -> str | None:
    """R's ``attr(x, "tzone")[1]``: None where the attribute is absent or empty ("" and None both
    mean the process's zone).

    >>> from rvalues.model.vectors import Character
    >>> tzone_of({"tzone": Character(["Etc/GMT"])}), tzone_of({})
    ('Etc/GMT', None)
    """
    tzone = attributes.get("tzone")
    return None if tzone is None or not len(tzone.data) else tzone.data[0]  # type: ignore[no-any-return]
