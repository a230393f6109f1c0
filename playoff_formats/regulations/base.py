"""A regulation for individual events: criteria in order, and what a tie for first means."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, ClassVar, Protocol, runtime_checkable

from playoff_formats.regulations.kinds import INDIVIDUAL_CHESS, EventKind
from playoff_formats.standings import StandingRow, Standings, split_ties
from playoff_formats.tiebreaks.core import LabelledCriterion, Step, resolve_tie
from playoff_formats.tiebreaks.index import EventIndex, IndividualResults
from playoff_formats.tiebreaks.words import join, places, points, short_name

if TYPE_CHECKING:
    from playoff_formats.formats import PlayoffFormat


class Regulation(Protocol):
    """Anything that turns a finished event into explained standings."""

    @property
    def name(self) -> str: ...

    @property
    def ranks(self) -> EventKind:
        """The kind of event it ranks: an event of another kind is refused before it."""
        ...

    def standings(self, event: Any) -> Standings: ...


@runtime_checkable
class PlaysOff(Protocol):
    """A regulation that prescribes a play-off format for the ties it does not split."""

    def playoff(self, standings: Standings) -> PlayoffFormat | None: ...


def playoff_format(regulation: Regulation, standings: Standings) -> PlayoffFormat | None:
    """The play-off format ``regulation`` prescribes for ``standings``; ``None`` when it
    prescribes none or nobody is to play off."""
    if isinstance(regulation, PlaysOff):
        return regulation.playoff(standings)
    return None


def regulation_time_zone(regulation: Regulation) -> str | None:
    """The time zone ``regulation`` names for its events, or ``None``."""
    zone = getattr(regulation, "time_zone", None)
    return zone if isinstance(zone, str) else None


@dataclass(frozen=True)
class CriteriaRegulation:
    """An ordered list of criteria applied to players level on score.

    ``playoff_for_first``: a tie for first place is not decided by the criteria
    but by a play-off; the criteria then only seed it. ``unresolved`` is the
    sentence said of a group still tied after every criterion.
    """

    name: str
    title: str
    criteria: tuple[LabelledCriterion, ...]
    playoff_for_first: bool = False
    playoff_rule: str = "a play-off"
    unresolved: str = "they stay tied and share the place"
    playoff_format: PlayoffFormat | str | None = None
    prize_rule: str | None = None
    """Where the regulation's text says how prize money and tour points are divided
    (GCT 2015 reg. 1); ``None``: it says nothing of prizes."""
    special_prize_playoffs: bool = False
    """A special prize for a position other than first goes by the criteria, and to a
    play-off among the players covering that position when they stay level after
    every criterion (GCT 2015 reg. 3)."""
    """The play-off format for the tie: a built-in format's name (read only when a
    play-off is asked for), or an organiser's own."""
    time_zone: str | None = None
    """The IANA time zone of the events it governs (a series played in one city), for
    an event that names none; ``None``: the event, or the chief arbiter, says."""
    ranks: ClassVar[EventKind] = INDIVIDUAL_CHESS

    def playoff(self, standings: Standings) -> PlayoffFormat | None:
        """The play-off format that decides the tie in ``standings``, or ``None``."""
        if not standings.playoff or self.playoff_format is None:
            return None
        if isinstance(self.playoff_format, str):
            from playoff_formats.errors import RegulationError
            from playoff_formats.formats import built_in

            found = built_in(self.playoff_format)
            if found is None:
                raise RegulationError(
                    f"{self.name} names the play-off format {self.playoff_format!r}, "
                    "which is not built in"
                )
            return found
        return self.playoff_format

    def standings(self, event: IndividualResults) -> Standings:
        """The standings of ``event``: a model event or the plain event of a TRF."""
        return self.ranked(EventIndex.of(event))

    def ranked(self, index: EventIndex) -> Standings:
        """The standings of the event ``index`` describes: players, or teams scored
        by match or game points (see :mod:`playoff_formats.tiebreaks.team`)."""
        by_score = sorted(index.order, key=lambda p: -index.scores[p])
        explanation: list[str] = []
        steps: list[Step] = []

        def resolve(tied: tuple[str, ...], score: float, place: int) -> list[tuple[str, ...]]:
            names = join([short_name(index.name(p)) for p in tied])
            explanation.append(
                f"{names} are tied on {points(score)} points for {places(place, len(tied))}."
            )
            ranked = resolve_tie(index, tied, self.criteria, place)
            steps.extend(ranked.steps)
            for step in ranked.steps:
                explanation.extend(step.sentences)
            for left in ranked.groups:
                if len(left) > 1:
                    who = join([short_name(index.name(p)) for p in left])
                    explanation.append(
                        f"{who} are still level after every criterion: {self.unresolved}."
                    )
            return [_ordered_inside(index, g) for g in ranked.groups]

        groups = split_ties(by_score, lambda p: index.scores[p], resolve)

        playoff = self._playoff(index, groups)
        if playoff:
            seeds = ", ".join(
                f"{i} {short_name(index.name(p))}" for i, p in enumerate(playoff, start=1)
            )
            explanation.append(
                f"The tie for first place is decided by {self.playoff_rule}; the tiebreaks "
                f"above only seed it: {seeds}."
            )
        rows = self._rows(index, groups, steps, frozenset(playoff))
        return Standings(
            regulation=self.name,
            rows=rows,
            groups=tuple(groups),
            playoff=playoff,
            explanation=tuple(explanation),
            steps=tuple(steps),
        )

    def _playoff(
        self, index: EventIndex, groups: Sequence[tuple[str, ...]]
    ) -> tuple[str, ...]:
        if not self.playoff_for_first:
            return ()
        top = max(index.scores.values())
        leaders = [p for g in groups for p in g if index.scores[p] == top]
        return tuple(leaders) if len(leaders) > 1 else ()

    def _rows(
        self,
        index: EventIndex,
        groups: Sequence[tuple[str, ...]],
        steps: Sequence[Step],
        playoff: frozenset[str],
    ) -> tuple[StandingRow, ...]:
        values: dict[str, dict[str, Any]] = {p: {} for p in index.order}
        for labelled in self.criteria:
            criterion = labelled.criterion
            if criterion.depends_on_group:
                continue
            for p, value in criterion.standalone(index, index.order).items():
                values[p][criterion.key] = criterion.to_json(value)
        by_key = {lc.criterion.key: lc.criterion for lc in self.criteria}
        for step in steps:
            criterion = by_key[step.criterion]
            for p in step.tied:
                values[p][step.criterion] = criterion.to_json(step.values[p])
        rows: list[StandingRow] = []
        place = 1
        for group in groups:
            for p in group:
                rows.append(
                    StandingRow(
                        rank=place,
                        id=p,
                        name=index.name(p),
                        score=index.scores[p],
                        tiebreaks=values[p],
                        playoff=p in playoff,
                    )
                )
            place += len(group)
        return tuple(rows)


def _ordered_inside(index: EventIndex, group: tuple[str, ...]) -> tuple[str, ...]:
    """Players who share a place are listed by name, so input order never shows."""
    return tuple(sorted(group, key=lambda p: (index.name(p), p)))
