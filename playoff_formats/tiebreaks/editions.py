"""The editions of FIDE C.07 (Tie-Break Regulations) and which one an event is ranked by.

Two editions are implemented: the one in force from 1 April 2024 (announced by
FIDE on 19 January 2024, with the tie-break definitions unchanged), and the one
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

IN_FORCE_FROM: dict[Edition, date] = {2024: date(2024, 4, 1), 2026: date(2026, 3, 1)}
"""The first day each edition applies to."""


def edition_for(start: date | None) -> Edition:
    """The edition in force on ``start``; the latest when the start is not known.

    An event older than the 2024 edition is ranked by it too, as the earliest
    edition implemented (those before it are not); :func:`edition_sentence` says
    so rather than call it the edition of the event's day.
    """
    if start is None or start >= IN_FORCE_FROM[2026]:
        return 2026
    return 2024


def applied_edition(pinned: Edition | None, start: date | None) -> Edition:
    """The regulation's own edition if it names one, else the one in force at ``start``."""
    return pinned if pinned is not None else edition_for(start)


def edition_sentence(pinned: Edition | None, start: date | None) -> str:
    """What the explanation says of the edition applied, and why.

    An event that started before the earliest implemented edition came into force
    is ranked by that edition all the same; the sentence then says so, and that the
    edition came later, so that nobody reads it as the rules of the event's day.
    """
    edition = applied_edition(pinned, start)
    applied = f"The FIDE tie-break rules applied are those of the {edition} edition of C.07"
    in_force = f"in force from {_day(IN_FORCE_FROM[edition])}"
    if pinned is not None:
        return f"{applied} ({in_force}), as the regulation names it."
    if start is None:
        return f"{applied} ({in_force}), the latest: the event's start date is not known."
    if start < IN_FORCE_FROM[edition]:
        return (
            f"{applied}, the earliest edition implemented: the event started on "
            f"{_day(start)}, before that edition came into force on "
            f"{_day(IN_FORCE_FROM[edition])}."
        )
    return f"{applied} ({in_force}): the event started on {_day(start)}."


def _day(day: date) -> str:
    return f"{day.day} {day:%B} {day.year}"
