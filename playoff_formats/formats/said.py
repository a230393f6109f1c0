"""The built-in formats' own names in the language in force.

A format names its play-off, its stages, rounds and deciders in English, and those
names are kept with the play-off as written. Where they are shown, the built-in
formats' names are said in the reader's language; an organiser's format keeps the
names its organiser wrote, in whatever language that was.
"""

from __future__ import annotations

import re
from functools import cache

from playoff_formats.speech import marked, tr

__all__ = ["BUILT_IN_NAMES", "said_match_name", "said_name"]

BUILT_IN_NAMES: tuple[str, ...] = (
    # Rounds (the citation a round's name carries, "(reg. 6)", is not said in the hall).
    marked("Final"),
    marked("Semi-finals"),
    marked("Quarter-finals"),
    marked("Round {number}"),
    marked("Seeds 2 v 3"),
    marked("Tie-break"),
    # Stages of a match and deciders.
    marked("Rapidplay"),
    marked("Rapid 25+10"),
    marked("Rapid 10+10"),
    marked("Blitz 5+3"),
    marked("Armageddon"),
    # Play-offs.
    marked("GCT 2015 play-off, reg. 6 (two players)"),
    marked("GCT 2015 play-off, reg. 7 (three players)"),
    marked("GCT 2015 play-off, reg. 8 (four players)"),
    marked("GCT 2015 play-off, reg. 9 knock-out ({n} players)"),
    marked("Seeded knock-out of {n} players (outside GCT 2015 regs. 6-9)"),
    marked("FIDE World Cup 2015 tie-break"),
)
"""Every name a built-in format gives, ``{n}`` and ``{number}`` standing for a count
(``tests/rules/test_catalogs.py`` checks that none is missing)."""

_SINGULAR = {
    "Semi-finals": marked("Semi-final {number}"),
    "Quarter-finals": marked("Quarter-final {number}"),
}
"""A round of several matches names each by its singular and number."""


@cache
def _patterns() -> tuple[tuple[re.Pattern[str], str], ...]:
    found = []
    for name in BUILT_IN_NAMES:
        if "{" in name:
            pattern = re.escape(name).replace(r"\{n\}", r"(?P<n>\d+)").replace(
                r"\{number\}", r"(?P<number>\d+)")
            found.append((re.compile(pattern), name))
    return tuple(found)


_CITED = re.compile(r"(?P<name>.+?)(?P<citation> \((?:reg|regs)\. [^()]*\))")
"""A built-in round's name with the rule it cites: "Final (reg. 6)"."""


def said_name(name: str) -> str:
    """``name`` in the language in force if a built-in format gives it (with the rule
    it cites, as cited: "Final (reg. 6)"), else as written."""
    if name in BUILT_IN_NAMES:
        return tr(name)
    for pattern, template in _patterns():
        found = pattern.fullmatch(name)
        if found is not None:
            return tr(template, **{key: int(value) for key, value in found.groupdict().items()})
    cited = _CITED.fullmatch(name)
    if cited is not None and cited["name"] in BUILT_IN_NAMES:
        return tr("{name} {citation}", name=tr(cited["name"]),
                  citation=cited["citation"].strip())
    return name


def said_match_name(round_name: str, number: int) -> str | None:
    """The name of match ``number`` of a built-in round of several ("Semi-final 2"),
    or None for a round no built-in format gives."""
    singular = _SINGULAR.get(round_name)
    return tr(singular, number=number) if singular is not None else None
