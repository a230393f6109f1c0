"""Custom regulations: an ordered list of FIDE C.07 tie-break codes, read from text.

A custom regulation is a small TOML or JSON document, chosen by the file name::

    name = "club-open-2026"
    title = "Club Open 2026"
    criteria = ["DE", "WIN", "BH-C1", "BH", "SB"]
    playoff_for_first = false

Keys: ``name`` and ``criteria`` are required; ``title`` (default: the name),
``playoff_for_first`` (default false), ``pairing`` (``"swiss"``, the default,
or ``"round-robin"``: how unplayed rounds count, see
:mod:`playoff_formats.tiebreaks.fide`), ``fide_edition`` (``2024`` or
``2026``: the edition of C.07 to apply; by default the one in force on the
event's start date, see :mod:`playoff_formats.tiebreaks.editions`),
``unrated_rating`` (the rating an unrated participant counts with in the
rating-based criteria; without it they are dropped when anyone is unrated),
``playoff_rule`` and ``unresolved`` (the sentences of
:class:`CriteriaRegulation`) and ``time_zone`` (the IANA zone of its events, for an
event that names none: ``"Asia/Tashkent"``) are optional. Codes are those of
:mod:`playoff_formats.tiebreaks.catalogue`, in any case and with their
modifiers (``BH/C1``, ``BH-C1``, ``BH/M1``, ``KS/L60``); the trace labels each
step with the code. Anything else is refused with an :class:`InputError`
saying where.

A regulation for chess teams names its ``score`` (``"MP"``, match points, or
``"GP"``, game points) and team codes; its ``pairing`` is ``"round-robin"`` by
default (a league), ``"swiss"`` for a team Swiss.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any, ClassVar

from playoff_formats.errors import InputError, PlayoffError
from playoff_formats.io.toml_text import load_toml
from playoff_formats.regulations.base import CriteriaRegulation
from playoff_formats.regulations.kinds import TEAM_CHESS, EventKind
from playoff_formats.standings import Standings
from playoff_formats.tiebreaks.catalogue import (
    BUCHHOLZ_FAMILY,
    REPEATABLE,
    Code,
    Settings,
    criterion_of,
    parse_code,
    team_criterion_of,
)
from playoff_formats.tiebreaks.core import LabelledCriterion
from playoff_formats.tiebreaks.editions import EDITIONS, Edition, edition_sentence
from playoff_formats.tiebreaks.fide import PAIRINGS, Pairing
from playoff_formats.zones import not_a_zone, zone_or_none

if TYPE_CHECKING:
    from playoff_formats.formats import PlayoffFormat
    from playoff_formats.model import TeamEvent
    from playoff_formats.tiebreaks.index import IndividualResults
    from playoff_formats.tiebreaks.team import Points

_REQUIRED = ("name", "criteria")
_OPTIONAL = (
    "title",
    "playoff_for_first",
    "pairing",
    "fide_edition",
    "unrated_rating",
    "score",
    "playoff_rule",
    "unresolved",
    "playoff",
    "time_zone",
)
_MOST_RATING = 4000


@dataclass(frozen=True)
class FideRegulation(CriteriaRegulation):
    """A list of FIDE C.07 codes: its standings say which edition of C.07 was applied.

    ``fide_edition`` is the edition the regulation names, ``None`` to follow
    the event's start date.
    """

    fide_edition: Edition | None = None

    def standings(self, event: IndividualResults) -> Standings:
        found = super().standings(event)
        said = edition_sentence(self.fide_edition, event.start_date)
        return replace(found, explanation=(said, *found.explanation))


@dataclass(frozen=True)
class FideTeamRegulation(CriteriaRegulation):
    """A list of FIDE C.07 codes for a chess team event ranked by ``score``:
    match points or game points (C.07 Art. 12)."""

    score: Points = "MP"
    ranks: ClassVar[EventKind] = TEAM_CHESS

    def standings(self, event: TeamEvent) -> Standings:  # type: ignore[override]
        if event.is_bridge:
            raise PlayoffError(f"{self.name} ranks chess teams; this event has bridge scores")
        from playoff_formats.tiebreaks.team import NAMES, team_indexes

        found = self.ranked(team_indexes(event)[self.score])
        said = f"Teams are ranked by {NAMES[self.score]}, then by the criteria in order."
        return replace(found, explanation=(said, *found.explanation))


def regulation_from_text(text: str, filename: str) -> CriteriaRegulation:
    """The regulation a ``.toml`` or ``.json`` document describes.

    ``filename`` chooses the syntax and names the file in error messages.
    Raises :class:`InputError` for anything that cannot be accepted.
    """
    document = _parse(text, filename)
    return _regulation(document, filename)


def _parse(text: str, filename: str) -> dict[str, Any]:
    lowered = filename.lower()
    if lowered.endswith(".toml"):
        return _parse_toml(text, filename)
    if lowered.endswith(".json"):
        return _parse_json(text, filename)
    raise InputError("a custom regulation must be a .toml or a .json file", source=filename)


def _parse_toml(text: str, filename: str) -> dict[str, Any]:
    return load_toml(text, filename)


def _parse_json(text: str, filename: str) -> dict[str, Any]:
    try:
        document = json.loads(text)
    except json.JSONDecodeError as error:
        raise InputError(
            f"JSON syntax: {error.msg}", source=filename, line=error.lineno, column=error.colno
        ) from None
    if not isinstance(document, dict):
        raise InputError(f"a regulation is a JSON object, not {_kind(document)}", source=filename)
    return document


def _regulation(document: dict[str, Any], filename: str) -> CriteriaRegulation:
    for key in document:
        if key not in _REQUIRED and key not in _OPTIONAL:
            known = ", ".join((*_REQUIRED, *_OPTIONAL))
            raise InputError(f"unknown key {key!r}; known keys: {known}", source=filename, path=key)
    for key in _REQUIRED:
        if key not in document:
            raise InputError(f"missing {key!r}", source=filename, path=key)

    name = _text(document, "name", filename)
    title = _text(document, "title", filename) if "title" in document else name
    playoff_for_first = document.get("playoff_for_first", False)
    if not isinstance(playoff_for_first, bool):
        raise InputError(
            f"must be true or false, not {_kind(playoff_for_first)}",
            source=filename,
            path="playoff_for_first",
        )
    if "score" in document:
        return _team_regulation(document, name, title, playoff_for_first, filename)
    pairing = _pairing(document.get("pairing", "swiss"), filename)
    edition = _edition(document.get("fide_edition"), filename)
    unrated = _rating(document.get("unrated_rating"), filename)
    extra = _extra(document, filename)
    settings = Settings(pairing=pairing, edition=edition, unrated_rating=unrated)
    return FideRegulation(
        name=name,
        title=title,
        criteria=_criteria(document["criteria"], settings, filename),
        playoff_for_first=playoff_for_first,
        fide_edition=edition,
        playoff_format=_playoff(document.get("playoff"), playoff_for_first, filename),
        **extra,
    )


def _playoff(value: object, playoff_for_first: bool, filename: str) -> PlayoffFormat | str | None:
    """``playoff``: a built-in play-off format's name, or a table that is the format."""
    if value is None:
        return None
    if not playoff_for_first:
        raise InputError(
            "a play-off format needs playoff_for_first = true", source=filename, path="playoff"
        )
    from playoff_formats.formats import BUILT_IN
    from playoff_formats.formats.custom import format_from_document

    if isinstance(value, str):
        if value not in BUILT_IN:
            raise InputError(
                f"no built-in play-off format {value!r}; built in: {', '.join(BUILT_IN)} (or "
                "give the format as a table)",
                source=filename,
                path="playoff",
            )
        return value
    return format_from_document(value, filename, at="playoff")


def _team_regulation(
    document: dict[str, Any], name: str, title: str, playoff_for_first: bool, filename: str
) -> FideTeamRegulation:
    for key in ("fide_edition", "unrated_rating"):
        if key in document:
            raise InputError(
                f"{key!r} is for individual events; this regulation ranks teams (it names "
                "a score)",
                source=filename,
                path=key,
            )
    value = document["score"]
    from playoff_formats.tiebreaks.team import POINTS

    score: Points | None = next((p for p in POINTS if value == p), None)
    if score is None:
        raise InputError(
            f"must be \"MP\" (match points) or \"GP\" (game points), not {_kind(value)}",
            source=filename,
            path="score",
        )
    # A league's matches are a round robin's: a team Swiss says so.
    pairing = _pairing(document.get("pairing", "round-robin"), filename)
    entries = document["criteria"]
    if not isinstance(entries, list) or not entries:
        raise InputError(
            "must be a non-empty list of tie-break codes", source=filename, path="criteria"
        )
    labelled: list[LabelledCriterion] = []
    seen: dict[Code, int] = {}
    for position, entry in enumerate(entries):
        path = f"criteria[{position}]"
        if not isinstance(entry, str):
            raise InputError(
                f"must be a tie-break code, not {_kind(entry)}", source=filename, path=path
            )
        try:
            code = parse_code(entry, teams=True)
        except ValueError as error:
            raise InputError(str(error), source=filename, path=path) from None
        same = replace(code, written="")
        if same in seen and code.name not in REPEATABLE:
            raise InputError(
                f"{code.written} is already listed at criteria[{seen[same]}] "
                "(FIDE C.07 Art. 4.3)",
                source=filename,
                path=path,
            )
        seen.setdefault(same, position)
        labelled.append(
            LabelledCriterion(code.written, team_criterion_of(code, score, pairing))
        )
    extra = _extra(document, filename)
    return FideTeamRegulation(
        name=name,
        title=title,
        criteria=tuple(labelled),
        playoff_for_first=playoff_for_first,
        score=score,
        **extra,
    )


def _extra(document: dict[str, Any], filename: str) -> dict[str, Any]:
    """The optional texts (playoff_rule, unresolved) and the events' time zone."""
    extra: dict[str, Any] = {
        key: _text(document, key, filename)
        for key in ("playoff_rule", "unresolved")
        if key in document
    }
    if "time_zone" in document:
        zone = _text(document, "time_zone", filename)
        if zone_or_none(zone) is None:
            raise InputError(not_a_zone(zone), source=filename, path="time_zone")
        extra["time_zone"] = zone
    return extra


def _edition(value: object, filename: str) -> Edition | None:
    if value is None:
        return None
    for edition in EDITIONS:
        if value == edition and not isinstance(value, bool):
            return edition
    choices = " or ".join(str(e) for e in EDITIONS)
    raise InputError(
        f"must be {choices} (the edition of FIDE C.07), not {_kind(value)}",
        source=filename,
        path="fide_edition",
    )


def _rating(value: object, filename: str) -> int | None:
    if value is None:
        return None
    if isinstance(value, bool) or not isinstance(value, int) or not 0 <= value <= _MOST_RATING:
        raise InputError(
            f"must be a rating from 0 to {_MOST_RATING}, not {_kind(value)}",
            source=filename,
            path="unrated_rating",
        )
    return value


def _criteria(
    entries: object, settings: Settings, filename: str
) -> tuple[LabelledCriterion, ...]:
    if not isinstance(entries, list):
        raise InputError(
            f"must be a list of tie-break codes, not {_kind(entries)}",
            source=filename,
            path="criteria",
        )
    if not entries:
        raise InputError("names no tie-break", source=filename, path="criteria")
    seen: dict[Code, int] = {}
    labelled: list[LabelledCriterion] = []
    for position, entry in enumerate(entries):
        path = f"criteria[{position}]"
        if not isinstance(entry, str):
            raise InputError(
                f"must be a tie-break code, not {_kind(entry)}", source=filename, path=path
            )
        try:
            code = parse_code(entry)
        except ValueError as error:
            raise InputError(str(error), source=filename, path=path) from None
        same = replace(code, written="")
        if same in seen and code.name not in REPEATABLE:
            raise InputError(
                f"{code.written} is already listed at criteria[{seen[same]}]; only "
                f"{', '.join(sorted(REPEATABLE))} may be listed more than once "
                "(FIDE C.07 Art. 4.3)",
                source=filename,
                path=path,
            )
        # The 2026 note forbids it; an event ranked by the 2024 edition must name it.
        if (
            settings.pairing == "round-robin"
            and code.name in BUCHHOLZ_FAMILY
            and settings.edition != 2024
        ):
            raise InputError(
                f"{code.written} must not be used in a round robin (FIDE C.07 Art. 8, note, "
                "2026 edition; name fide_edition = 2024 to apply the 2024 edition)",
                source=filename,
                path=path,
            )
        seen.setdefault(same, position)
        labelled.append(LabelledCriterion(code.written, criterion_of(code, settings)))
    return tuple(labelled)


def _pairing(value: object, filename: str) -> Pairing:
    for pairing in PAIRINGS:
        if value == pairing:
            return pairing
    choices = " or ".join(repr(p) for p in PAIRINGS)
    raise InputError(f"must be {choices}, not {value!r}", source=filename, path="pairing")


def _text(document: dict[str, Any], key: str, filename: str) -> str:
    value = document[key]
    if not isinstance(value, str):
        raise InputError(f"must be a string, not {_kind(value)}", source=filename, path=key)
    if not value.strip():
        raise InputError("must not be empty", source=filename, path=key)
    return value.strip()


def _kind(value: object) -> str:
    """How a parsed value reads in a message: ``a number``, ``a list``..."""
    if isinstance(value, bool):
        return "true or false"
    if isinstance(value, int | float):
        return f"the number {value}"
    if isinstance(value, str):
        return f"the string {value!r}"
    if isinstance(value, list):
        return "a list"
    if isinstance(value, dict):
        return "a table"
    if value is None:
        return "null"
    return type(value).__name__
