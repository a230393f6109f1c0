"""FIDE World Cup 2015 (Baku): the tie-break games of a knock-out mini-match.

The event is the mini-match itself: two players and their classical games. When
the score is level after them, tie-break games follow on the same day (the ladder
of :mod:`playoff_formats.formats.world_cup2015`). No mathematical criterion
splits the tie: the two players are "tied", and the seeding that the play-off
needs (which says nothing here: colours are drawn before each pair) is made by
lots.
"""

from __future__ import annotations

from playoff_formats.regulations.base import CriteriaRegulation


def fide_world_cup_2015() -> CriteriaRegulation:
    return CriteriaRegulation(
        name="fide-world-cup-2015",
        title="FIDE World Cup 2015 knock-out mini-match",
        criteria=(),
        playoff_for_first=True,
        playoff_rule="tie-break games (FIDE World Cup 2015)",
        unresolved="they play tie-break games",
        playoff_format="fide-world-cup-2015",
    )
