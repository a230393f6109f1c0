"""Grand Chess Tour 2015 tiebreak regulations.

Reg. 2: a tie for first place is decided by a play-off. Reg. 4: every other tie,
and the seeding of the play-off, by (a) games won, (b) the results among the
tied players, (c) Sonneborn-Berger, (d) the Extended Koya system; (e) a tie that
survives (d) stays, and the tour points are shared.

Policy: the tied group for (b)-(d) is the group still tied at that point, not
the group that was level on score. Sonneborn-Berger and Koya count forfeits as
scored (the text excludes only byes' absence of an opponent); (a) counts only
games won over the board.
"""

from __future__ import annotations

from collections.abc import Iterable

from playoff_formats.regulations.base import CriteriaRegulation
from playoff_formats.standings import Standings
from playoff_formats.tiebreaks.core import LabelledCriterion
from playoff_formats.tiebreaks.criteria import (
    DirectEncounter,
    ExtendedKoya,
    GamesWonOverTheBoard,
    SonnebornBerger,
)


def gct2015() -> CriteriaRegulation:
    return CriteriaRegulation(
        name="gct2015",
        title="Grand Chess Tour 2015 tiebreak regulations",
        criteria=(
            LabelledCriterion("Reg. 4 (a)", GamesWonOverTheBoard()),
            LabelledCriterion("Reg. 4 (b)", DirectEncounter()),
            LabelledCriterion("Reg. 4 (c)", SonnebornBerger()),
            LabelledCriterion("Reg. 4 (d)", ExtendedKoya()),
        ),
        playoff_for_first=True,
        playoff_rule="a play-off (reg. 2)",
        unresolved="reg. 4 (e): they stay tied and share the Grand Chess Tour points of "
        "the places they cover",
        playoff_format="gct2015",
        prize_rule="GCT 2015 reg. 1",
        special_prize_playoffs=True,
    )


def special_prize_playoffs(
    standings: Standings, positions: Iterable[int]
) -> tuple[tuple[str, ...], ...]:
    """GCT 2015 reg. 3: the play-offs that special prizes for other positions need.

    A special prize or trophy awarded for a position other than first goes by the
    mathematical tiebreaks; only where they cannot determine its winner (the
    players covering that position are still level after reg. 4 (d)) is a play-off
    held, among those players. First place has its own play-off (reg. 2).
    """
    wanted = sorted({p for p in positions if p > 1})
    needed: list[tuple[str, ...]] = []
    place = 1
    for group in standings.groups:
        covers = range(place, place + len(group))
        if len(group) > 1 and any(p in covers for p in wanted) and group not in needed:
            needed.append(group)
        place += len(group)
    return tuple(needed)
