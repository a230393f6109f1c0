"""FIDE C.07 tie-breaks for chess team events, on match points or game points.

A team's **match points** (MP) are 2 for a match won on game points, 1 for a
drawn match and 0 for a lost one; its **game points** (GP) are the boards it
won, a draw counting ½. A regulation ranks teams by one of the two (the
primary score) and may name criteria on either: ``BH:GP`` is the Buchholz of
the opponents' game points, ``SB:MP`` the Sonneborn-Berger on match points,
``EMGSB`` the extended Sonneborn-Berger that multiplies the opponent's match
points by the game points scored against them (C.07 Art. 12), ``MP`` or ``GP``
the other score as a criterion.

Each score is laid out as the individual criteria read an event (one
:class:`EventIndex` per score, a team standing for a player and a match for a
game), so that the criteria of :mod:`playoff_formats.tiebreaks.fide` apply to
teams unchanged. Matches have no byes or forfeits in the team event format, so
every round is a match played (C.07 Art. 15.2 reading, pre-determined or not).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING, Literal

from playoff_formats.tiebreaks.core import Criterion, Split, Value, each_once
from playoff_formats.tiebreaks.fide import DirectEncounter
from playoff_formats.tiebreaks.index import EventIndex, PlayerRound, RoundKind
from playoff_formats.tiebreaks.words import number
from playoff_formats.values import Colour

if TYPE_CHECKING:
    from playoff_formats.model import TeamEvent, TeamMatch

Points = Literal["MP", "GP"]
POINTS: tuple[Points, ...] = ("MP", "GP")
MATCH_WIN = 2.0
NAMES: dict[Points, str] = {"MP": "match points", "GP": "game points"}


def game_points(match: TeamMatch) -> tuple[float, float]:
    """Home and away game points: the match's own ``score``, else its boards."""
    if match.score is not None:
        return match.score
    home = sum(b.home_points for b in match.chess_boards)
    return home, len(match.chess_boards) - home


def match_points(match: TeamMatch) -> tuple[float, float]:
    home, away = game_points(match)
    if home == away:
        return 1.0, 1.0
    return (MATCH_WIN, 0.0) if home > away else (0.0, MATCH_WIN)


def team_indexes(event: TeamEvent) -> dict[Points, EventIndex]:
    """The event laid out on each score; each index can find the other (:func:`on`)."""
    indexes = {points: _index(event, points) for points in POINTS}
    most = max((sum(game_points(m)) for m in event.matches), default=1.0)
    for index in indexes.values():
        index.memo_of("team_indexes")[None] = indexes
        index.memo_of("team_boards")[None] = most
    return indexes


def on(index: EventIndex, points: Points) -> EventIndex:
    """The same team event as ``index``, laid out on ``points``."""
    found: dict[Points, EventIndex] = index.memo_of("team_indexes")[None]
    return found[points]


def _index(event: TeamEvent, points: Points) -> EventIndex:
    rounds: dict[str, list[PlayerRound]] = {t.id: [] for t in event.teams}
    for match in event.matches:
        home, away = match_points(match) if points == "MP" else game_points(match)
        rounds[match.home].append(
            PlayerRound(match.round, RoundKind.PLAYED, home, match.away, Colour.WHITE)
        )
        rounds[match.away].append(
            PlayerRound(match.round, RoundKind.PLAYED, away, match.home, Colour.BLACK)
        )
    rounds_of = {t: tuple(sorted(rs, key=lambda r: r.round)) for t, rs in rounds.items()}
    return EventIndex(
        names={t.id: t.name for t in event.teams},
        order=tuple(t.id for t in event.teams),
        scores={t: sum(r.points for r in rs) for t, rs in rounds_of.items()},
        rounds_of=rounds_of,
        rounds=max((m.round for m in event.matches), default=0),
    )


def boards(index: EventIndex) -> float:
    """The most game points a match can give: its boards (the largest match of the event)."""
    found: float = index.memo_of("team_boards")[None]
    return found


class TeamDirectEncounter(DirectEncounter):
    """DE for teams, C.07 Art. 6: the points each tied team scored against the others,
    on the criterion's score; a match not played could have given 2 match points, or
    every board's game point (Art. 6.3)."""

    def __init__(self, points: Points) -> None:
        super().__init__("round-robin", MATCH_WIN)
        self.points = points

    def win_of(self, index: EventIndex) -> float:
        return MATCH_WIN if self.points == "MP" else boards(index)


class OnScore(Criterion):
    """An individual criterion applied to the teams laid out on ``points``."""

    def __init__(self, inner: Criterion, points: Points, suffix: bool) -> None:
        self.inner = inner
        self.points = points
        self.key = f"{inner.key}_{points.lower()}" if suffix else inner.key
        self.title = f"{inner.title} ({NAMES[points]})"
        self.depends_on_group = inner.depends_on_group
        self.reapply_to_smaller_group = inner.reapply_to_smaller_group

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        return self.inner.evaluate(on(index, self.points), group)

    def standalone(self, index: EventIndex, players: Sequence[str]) -> Mapping[str, Value]:
        return self.inner.standalone(on(index, self.points), players)

    def split(self, index: EventIndex, group: Sequence[str]) -> Split:
        return self.inner.split(on(index, self.points), group)

    def phrase(self, value: Value) -> str:
        return self.inner.phrase(value)

    def bare(self, value: Value) -> str:
        return self.inner.bare(value)


class OtherScore(Criterion):
    """``MP`` or ``GP`` as a criterion: the team's score in that system (C.07 Art. 12)."""

    def __init__(self, points: Points) -> None:
        self.points = points
        self.key = NAMES[points].replace(" ", "_")
        self.title = NAMES[points]

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        scores = on(index, self.points).scores
        return {t: scores[t] for t in group}


class MatchesWon(Criterion):
    """WIN for teams, C.07 Art. 7.1: the number of matches won."""

    key = "matches_won"
    title = "matches won"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        mp = on(index, "MP")
        return each_once(
            index,
            self,
            group,
            lambda t: float(sum(1 for r in mp.rounds_of[t] if r.points == MATCH_WIN)),
        )

    def phrase(self, value: Value) -> str:
        assert not isinstance(value, tuple)
        return f"{number(value)} {'match' if value == 1 else 'matches'} won"


class ExtendedSonnebornBerger(Criterion):
    """EMMSB, EMGSB, EGMSB, EGGSB (C.07 Art. 12): the sum, over the matches, of the
    opponent's final score in one system times the points scored against them in
    the other: ``EMGSB`` multiplies the opponent's match points by the game
    points scored in the match."""

    def __init__(self, opponent: Points, own: Points) -> None:
        self.opponent = opponent
        self.own = own
        code = f"E{opponent[0]}{own[0]}SB"
        self.key = f"extended_sonneborn_berger_{code[1:3].lower()}"
        self.title = f"{code}: opponents' {NAMES[opponent]} times {NAMES[own]} scored"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        theirs = on(index, self.opponent).scores
        ours = on(index, self.own)
        return each_once(
            index,
            self,
            group,
            lambda t: sum(
                theirs[r.opponent] * r.points for r in ours.rounds_of[t] if r.opponent is not None
            ),
        )
