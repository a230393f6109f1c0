"""Named regulations: an ordered list of criteria plus the policies of a text."""

from __future__ import annotations

from collections.abc import Callable

from playoff_formats.errors import RegulationError
from playoff_formats.regulations.base import CriteriaRegulation, Regulation
from playoff_formats.regulations.county1980 import County1980
from playoff_formats.regulations.ebu_143_2 import ebu_143_2_triangle
from playoff_formats.regulations.ebu_143_7 import (
    ebu_143_7,
    ebu_143_7_pachabo,
    ebu_143_7_swiss,
)
from playoff_formats.regulations.gct2015 import gct2015

_NAMED: dict[str, Callable[[], Regulation]] = {
    "gct2015": gct2015,
    "county1980": County1980,
    "ebu-143.7": ebu_143_7,
    "ebu-143.7-pachabo": ebu_143_7_pachabo,
    "ebu-143.7-swiss": ebu_143_7_swiss,
    "ebu-143.2-triangle": ebu_143_2_triangle,
}


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


__all__ = ["CriteriaRegulation", "Regulation", "get_regulation", "regulation_names"]
