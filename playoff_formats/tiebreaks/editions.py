"""The editions of FIDE C.07 (Tie-Break Regulations) and which one an event is ranked by.

Two editions are implemented: the one in force from 1 August 2024, and the one
approved by the FIDE Council on 2 February 2026 and in force from 1 March 2026.
An event is ranked by the edition in force on its first day (TRF record 042),
unless its regulation names one. For the criteria here they differ in the
dummy opponent of Art. 16.4 (own unplayed rounds in Swiss events, used by the
Buchholz and Sonneborn-Berger families): in 2024 the dummy scores what the
participant scored; in 2026 no more than the scheduled opponent's adjusted
score for a forfeit (16.4.1), nor than a draw per round otherwise (16.4.2). The
2026 note to Art. 8 that Buchholz must not be used in round robins is checked
when a regulation is read (see :mod:`playoff_formats.regulations.custom`).
"""

from __future__ import annotations

from datetime import date
from typing import Literal

Edition = Literal[2024, 2026]
EDITIONS: tuple[Edition, ...] = (2024, 2026)
LATEST: Edition = 2026

IN_FORCE_FROM: dict[Edition, date] = {2024: date(2024, 8, 1), 2026: date(2026, 3, 1)}
"""The first day each edition applies to."""


def edition_for(start: date | None) -> Edition:
    """The edition in force on ``start``; the latest when the start is not known.

    An event older than the 2024 edition is ranked by it too: it is the oldest
    implemented, and its rules for unplayed rounds are the ones that event's
    arbiter could have checked against.
    """
    if start is None or start >= IN_FORCE_FROM[2026]:
        return 2026
    return 2024


def applied_edition(pinned: Edition | None, start: date | None) -> Edition:
    """The regulation's own edition if it names one, else the one in force at ``start``."""
    return pinned if pinned is not None else edition_for(start)


def edition_sentence(pinned: Edition | None, start: date | None) -> str:
    """What the explanation says of the edition applied, and why."""
    edition = applied_edition(pinned, start)
    opening = (
        f"The FIDE tie-break rules applied are those of the {edition} edition of C.07 "
        f"(in force from {_day(IN_FORCE_FROM[edition])})"
    )
    if pinned is not None:
        return f"{opening}, as the regulation names it."
    if start is None:
        return f"{opening}, the latest: the event's start date is not known."
    return f"{opening}: the event started on {_day(start)}."


def _day(day: date) -> str:
    return f"{day.day} {day:%B} {day.year}"
