"""The time zone an event is played in: its IANA name (``Asia/Tashkent``), checked,
and the zone every time of day is said in.

An instant is kept in UTC and every interval is computed there (its true length);
only a time of day shown to people is converted, instant by instant, so that each
gets the offset in force at that instant: a play-off that crosses a change of
daylight-saving time says every time right on both sides of it. The zone data comes
from the system or from the ``tzdata`` package: the machine's own zone never matters.
"""

from __future__ import annotations

import re
from datetime import UTC, datetime, timedelta, timezone, tzinfo
from functools import lru_cache
from zoneinfo import ZoneInfo, available_timezones

__all__ = [
    "MAX_ZONE_NAME",
    "ZONE_EXAMPLE",
    "fixed_zone",
    "not_a_zone",
    "offset_at",
    "zone_named",
    "zone_names",
    "zone_of",
    "zone_or_none",
]

MAX_ZONE_NAME = 64
"""The longest zone name accepted (the longest in the database has 32 characters)."""

ZONE_EXAMPLE = "Europe/London"

_NAME = re.compile(r"[A-Za-z][A-Za-z0-9_+\-]*(?:/[A-Za-z0-9_+\-]+)*")
# Files of the database that are not zones an event is played in, or not the same
# on every machine: a name must mean the same wherever the log is read.
_NOT_ZONES = frozenset({"posixrules", "localtime", "Factory"})
_NOT_ZONE_DIRS = ("posix/", "right/")


def not_a_zone(name: str) -> str:
    """Why ``name`` is refused, in words (the name clipped)."""
    if not name.strip():
        return f"is empty: write a time zone as Area/City, e.g. {ZONE_EXAMPLE}"
    shown = name if len(name) <= MAX_ZONE_NAME else name[: MAX_ZONE_NAME - 1] + "…"
    return f"{shown} is not a time zone: write it as Area/City, e.g. {ZONE_EXAMPLE}"


def _usable(name: str) -> bool:
    return (
        len(name) <= MAX_ZONE_NAME
        and _NAME.fullmatch(name) is not None
        and name not in _NOT_ZONES
        and not name.startswith(_NOT_ZONE_DIRS)
    )


@lru_cache(maxsize=1)
def zone_names() -> tuple[str, ...]:
    """Every zone an event may name, in order (for the JSON Schema of the name)."""
    return tuple(sorted(name for name in available_timezones() if _usable(name)))


@lru_cache(maxsize=256)
def _load(name: str) -> ZoneInfo | None:
    if not _usable(name):
        return None
    try:
        return ZoneInfo(name)
    except (KeyError, ValueError, OSError):  # not found, not a zone file, a directory
        return None


def zone_named(name: str) -> ZoneInfo:
    """The zone of IANA name ``name``; :class:`ValueError` in words if there is none."""
    zone = _load(name)
    if zone is None:
        raise ValueError(not_a_zone(name))
    return zone


def zone_or_none(name: str) -> ZoneInfo | None:
    """The zone named, or None when the name is not a zone here."""
    return _load(name)


def fixed_zone(offset: timedelta) -> tzinfo:
    """A zone that keeps one offset from UTC all year (a log that names no zone)."""
    return UTC if not offset else timezone(offset)


def zone_of(name: str | None, offset: timedelta = timedelta(0)) -> tzinfo:
    """The zone named, else (no name, or a name this machine cannot read) the fixed
    ``offset``: what was logged always folds."""
    if name is not None:
        zone = _load(name)
        if zone is not None:
            return zone
    return fixed_zone(offset)


def offset_at(zone: tzinfo, moment: datetime) -> timedelta:
    """The zone's offset from UTC in force at ``moment``."""
    return moment.astimezone(zone).utcoffset() or timedelta(0)
