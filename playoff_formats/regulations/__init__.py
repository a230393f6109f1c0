"""Named regulations: an ordered list of criteria plus the policies of a text.

Each regulation's module is imported when the regulation is first asked for:
ranking a chess Swiss has no use for the bridge scales or the team models.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from playoff_formats.errors import RegulationError
from playoff_formats.regulations.base import (
    CriteriaRegulation,
    PlaysOff,
    Regulation,
    playoff_format,
    regulation_time_zone,
)
from playoff_formats.regulations.kinds import EventKind, kind_mismatch

if TYPE_CHECKING:
    from playoff_formats.model import Event
    from playoff_formats.tiebreaks.index import IndividualResults


def _gct2015() -> Regulation:
    from playoff_formats.regulations.gct2015 import gct2015

    return gct2015()


def _county1980() -> Regulation:
    from playoff_formats.regulations.county1980 import County1980

    return County1980()


def _ebu_143_7() -> Regulation:
    from playoff_formats.regulations.ebu_143_7 import ebu_143_7

    return ebu_143_7()


def _ebu_143_7_pachabo() -> Regulation:
    from playoff_formats.regulations.ebu_143_7 import ebu_143_7_pachabo

    return ebu_143_7_pachabo()


def _ebu_143_7_swiss() -> Regulation:
    from playoff_formats.regulations.ebu_143_7 import ebu_143_7_swiss

    return ebu_143_7_swiss()


def _ebu_143_2_triangle() -> Regulation:
    from playoff_formats.regulations.ebu_143_2 import ebu_143_2_triangle

    return ebu_143_2_triangle()


def _triangle(qualifiers: int, ordered: bool) -> Callable[[], Regulation]:
    def make() -> Regulation:
        from playoff_formats.regulations.ebu_143_2 import triangle

        return triangle(qualifiers, ordered)

    return make


def _ebu_143_7_wins_and_draws() -> Regulation:
    from playoff_formats.regulations.ebu_143_7 import ebu_143_7_wins_and_draws

    return ebu_143_7_wins_and_draws()


def _fide_world_cup_2015() -> Regulation:
    from playoff_formats.regulations.fide_world_cup_2015 import fide_world_cup_2015

    return fide_world_cup_2015()


_NAMED: dict[str, Callable[[], Regulation]] = {
    "gct2015": _gct2015,
    "county1980": _county1980,
    "ebu-143.7": _ebu_143_7,
    "ebu-143.7-pachabo": _ebu_143_7_pachabo,
    "ebu-143.7-swiss": _ebu_143_7_swiss,
    "ebu-143.7-wins-and-draws": _ebu_143_7_wins_and_draws,
    "ebu-143.2-triangle": _ebu_143_2_triangle,
    # 143.2.2: how many of the three qualify, and whether next round opponents
    # depend on the order within the triangle.
    "ebu-143.2-triangle-ordered": _triangle(1, True),
    "ebu-143.2-triangle-2": _triangle(2, False),
    "ebu-143.2-triangle-2-ordered": _triangle(2, True),
    "fide-world-cup-2015": _fide_world_cup_2015,
}


def prize_rule(regulation: Regulation) -> str | None:
    """Where ``regulation`` says how prize money is divided; ``None`` if it does not.

    It is the regulation's own data (``CriteriaRegulation.prize_rule``): one read from
    a file lists tie-break codes and nothing of prizes, whatever it calls itself.
    """
    rule = getattr(regulation, "prize_rule", None)
    return rule if isinstance(rule, str) else None


def regulations_with_prizes() -> list[str]:
    """The named regulations whose texts divide prize money."""
    return [name for name in regulation_names() if prize_rule(get_regulation(name))]


def regulation_names() -> list[str]:
    return sorted(_NAMED)


def get_regulation(name: str) -> Regulation:
    """The regulation called ``name``; :class:`RegulationError` if there is none."""
    try:
        factory = _NAMED[name]
    except KeyError:
        known = ", ".join(regulation_names())
        raise RegulationError(f"unknown regulation {name!r}; known: {known}") from None
    return factory()


def regulation_ranks(name: str) -> EventKind | None:
    """The kind of event the regulation called ``name`` ranks; ``None`` for an unknown name."""
    factory = _NAMED.get(name)
    return None if factory is None else factory().ranks


def regulations_for(event: Event | IndividualResults) -> list[str]:
    """The named regulations that rank events of ``event``'s kind."""
    return [n for n in regulation_names() if kind_mismatch(n, _NAMED[n]().ranks, event) is None]


def kind_refusal(name: str, ranks: EventKind, event: Event | IndividualResults) -> str | None:
    """Why regulation ``name`` cannot rank ``event``, and which ones can; else None."""
    problem = kind_mismatch(name, ranks, event)
    if problem is None:
        return None
    fitting = regulations_for(event)
    return f"{problem} (regulations for it: {', '.join(fitting)})" if fitting else problem


__all__ = [
    "CriteriaRegulation",
    "EventKind",
    "PlaysOff",
    "Regulation",
    "get_regulation",
    "kind_mismatch",
    "kind_refusal",
    "playoff_format",
    "prize_rule",
    "regulation_names",
    "regulation_ranks",
    "regulation_time_zone",
    "regulations_for",
    "regulations_with_prizes",
]
