"""How the schedule words instants, spans, citations and numbers in its reasons.

Reasons and warnings are read by arbiters, so an instant keeps only the
precision it has and a span is said the way a hall announcement says it.
"""

from __future__ import annotations

from datetime import datetime, timedelta, timezone

__all__ = ["adjective", "cite", "instant", "local", "plain_number", "span"]


def cite(rule: str) -> str:
    """`` (reg. 5)`` for a rule, nothing when no rule is cited."""
    return f" ({rule})" if rule else ""


def instant(moment: datetime | None, utc_offset: timedelta = timedelta(0)) -> str:
    """The time of day as the hall reads it: ``13:29`` at the hall's offset from UTC
    (``utc_offset``); ``unknown`` for ``None``. A play-off is played in one day, so
    the time of day says which instant it is."""
    if moment is None:
        return "unknown"
    return f"{local(moment, utc_offset):%H:%M}"


def local(moment: datetime, utc_offset: timedelta) -> datetime:
    """``moment`` at the hall's offset from UTC."""
    return moment.astimezone(timezone(utc_offset))


def span(delta: timedelta) -> str:
    """``10 minutes``, ``1 minute``, ``7 min 30 s``, ``1 h 5 min``, to the second."""
    total = round(delta.total_seconds())
    sign = "-" if total < 0 else ""
    total = abs(total)
    hours, rest = divmod(total, 3600)
    minutes, seconds = divmod(rest, 60)
    if hours == 0 and seconds == 0:
        return f"{sign}{minutes} minute{'s' if minutes != 1 else ''}"
    parts = []
    if hours:
        parts.append(f"{hours} h")
    if minutes:
        parts.append(f"{minutes} min")
    if seconds:
        parts.append(f"{seconds} s")
    return sign + " ".join(parts)


def adjective(delta: timedelta) -> str:
    """``30-minute`` for whole minutes, else the span."""
    total = round(delta.total_seconds())
    if total % 60 == 0:
        return f"{total // 60}-minute"
    return span(delta)


def plain_number(value: float) -> str:
    """``8`` rather than ``8.0``; ``7.5`` stays."""
    return str(int(value)) if float(value).is_integer() else str(value)
