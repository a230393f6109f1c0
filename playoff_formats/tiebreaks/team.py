"""FIDE C.07 tie-breaks for chess team events, on match points or game points.

A team's **match points** (MP) are 2 for a match won on game points, 1 for a
drawn match and 0 for a lost one; its **game points** (GP) are the boards it
won, a draw counting ½. A regulation ranks teams by one of the two (the
primary score) and may name criteria on either: ``BH:GP`` is the Buchholz of
the opponents' game points, ``SB:MP`` the Sonneborn-Berger on match points,
``EMGSB`` the extended Sonneborn-Berger that multiplies the opponent's match
points by the game points scored against them (C.07 Art. 13.2), ``MP`` or ``GP``
the other score as a criterion. The board criteria (BC, TBR, BBE, Art. 12) read
the results board by board; EDE (Art. 13.3) and SSSC (Art. 13.4) combine the two
scores.

Each score is laid out as the individual criteria read an event (one
:class:`EventIndex` per score, a team standing for a player and a match for a
game), so that the criteria of :mod:`playoff_formats.tiebreaks.fide` apply to
teams unchanged, unplayed rounds included: a match forfeited whole (no board
played) is a forfeit won or lost, and a team's bye a bye of its kind, scored as
:class:`~playoff_formats.model.TeamBye` says.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from itertools import accumulate
from typing import TYPE_CHECKING, Literal

from playoff_formats.tiebreaks.core import Criterion, Split, Value, each_once, split_by_value
from playoff_formats.tiebreaks.fide import Buchholz, DirectEncounter, Pairing
from playoff_formats.tiebreaks.index import EventIndex, PlayerRound, RoundKind
from playoff_formats.tiebreaks.words import number
from playoff_formats.values import ByeKind, Colour

if TYPE_CHECKING:
    from playoff_formats.model import TeamBye, TeamEvent, TeamMatch

Points = Literal["MP", "GP"]
POINTS: tuple[Points, ...] = ("MP", "GP")
MATCH_WIN = 2.0
NAMES: dict[Points, str] = {"MP": "match points", "GP": "game points"}


def game_points(match: TeamMatch) -> tuple[float, float]:
    """Home and away game points: the match's own ``score``, else its boards."""
    if match.score is not None:
        return match.score
    boards = match.chess_boards
    return sum(b.home_points for b in boards), sum(b.away_points for b in boards)


def match_points(match: TeamMatch) -> tuple[float, float]:
    home, away = game_points(match)
    if home == away:
        # A match no board of which was played, and no side won, is lost by both.
        return (0.0, 0.0) if home == 0 and not match.played else (1.0, 1.0)
    return (MATCH_WIN, 0.0) if home > away else (0.0, MATCH_WIN)


def board_width(match: TeamMatch) -> float:
    """The boards of a match: those listed, else the game points its totals give."""
    boards = match.chess_boards
    return float(len(boards)) if boards else sum(game_points(match))


_BYE_MATCH_POINTS = {
    ByeKind.FULL_POINT: MATCH_WIN,
    ByeKind.HALF_POINT: 1.0,
    ByeKind.ZERO_POINT: 0.0,
    ByeKind.PAIRING_ALLOCATED: 1.0,
}
_BYE_BOARD_POINTS = {
    ByeKind.FULL_POINT: 1.0,
    ByeKind.HALF_POINT: 0.5,
    ByeKind.ZERO_POINT: 0.0,
    ByeKind.PAIRING_ALLOCATED: 1.0,
}
"""What a team's bye gives (:class:`~playoff_formats.model.TeamBye`): match points,
and game points on each board."""


def bye_points(bye: TeamBye, points: Points, width: float) -> float:
    """The match points or game points of a team's bye in an event of ``width`` boards."""
    if points == "MP":
        return _BYE_MATCH_POINTS[bye.kind]
    return _BYE_BOARD_POINTS[bye.kind] * width


def team_indexes(event: TeamEvent) -> dict[Points, EventIndex]:
    """The event laid out on each score; each index can find the other (:func:`on`)."""
    most = max((board_width(m) for m in event.matches), default=1.0)
    indexes = {points: _index(event, points, most) for points in POINTS}
    for index in indexes.values():
        index.memo_of("team_indexes")[None] = indexes
        index.memo_of("team_boards")[None] = most
        # Board by board results are read only by the board criteria (C.07 Art.
        # 12): ranking on the other codes never pays for them.
        index.memo_of("team_event")[None] = event
    return indexes


def on(index: EventIndex, points: Points) -> EventIndex:
    """The same team event as ``index``, laid out on ``points``."""
    found: dict[Points, EventIndex] = index.memo_of("team_indexes")[None]
    return found[points]


def _index(event: TeamEvent, points: Points, width: float) -> EventIndex:
    rounds: dict[str, list[PlayerRound]] = {t.id: [] for t in event.teams}
    for match in event.matches:
        home, away = match_points(match) if points == "MP" else game_points(match)
        mp = match_points(match)
        rounds[match.home].append(
            PlayerRound(match.round, _kind(match, mp[0]), home, match.away, Colour.WHITE)
        )
        rounds[match.away].append(
            PlayerRound(match.round, _kind(match, mp[1]), away, match.home, Colour.BLACK)
        )
    for bye in event.byes:
        rounds[bye.team].append(
            PlayerRound(bye.round, RoundKind.BYE, bye_points(bye, points, width), bye=bye.kind)
        )
    rounds_of = {t: tuple(sorted(rs, key=lambda r: r.round)) for t, rs in rounds.items()}
    return EventIndex(
        names={t.id: t.name for t in event.teams},
        order=tuple(t.id for t in event.teams),
        scores={t: sum(r.points for r in rs) for t, rs in rounds_of.items()},
        rounds_of=rounds_of,
        rounds=max([m.round for m in event.matches] + [b.round for b in event.byes], default=0),
        win=MATCH_WIN if points == "MP" else width,
    )


def _kind(match: TeamMatch, match_points: float) -> RoundKind:
    """A match with a board played over the board is played; one forfeited whole is
    a forfeit won by the side that scored (C.07 Art. 16: an unplayed round)."""
    if match.played:
        return RoundKind.PLAYED
    return RoundKind.FORFEIT_WIN if match_points > 0 else RoundKind.FORFEIT_LOSS


def boards(index: EventIndex) -> float:
    """The most game points a match can give: its boards (the largest match of the event)."""
    found: float = index.memo_of("team_boards")[None]
    return found


def board_points(index: EventIndex) -> dict[str, tuple[float, ...]]:
    """The game points each team scored on each board over the event, board 1 first.

    Every team gets as many entries as the largest match has boards. A match given
    only by its ``score`` has no boards to share out, and adds to none.
    """
    index = on(index, "MP")  # one computation for both layouts of the event
    memo = index.memo_of("team_board_points")
    found: dict[str, tuple[float, ...]] | None = memo.get(None)
    if found is not None:
        return found
    event: TeamEvent = index.memo_of("team_event")[None]
    width = max((len(m.chess_boards) for m in event.matches), default=0)
    totals = {t: [0.0] * width for t in index.order}
    for match in event.matches:
        home, away = totals[match.home], totals[match.away]
        for board, result in enumerate(match.chess_boards):
            home[board] += result.home_points
            away[board] += result.away_points
    for bye in event.byes:
        # A bye scores on every board alike (TeamBye).
        each = _BYE_BOARD_POINTS[bye.kind]
        totals[bye.team] = [p + each for p in totals[bye.team]]
    found = memo[None] = {t: tuple(points) for t, points in totals.items()}
    return found


class TeamDirectEncounter(DirectEncounter):
    """DE for teams, C.07 Art. 6: the points each tied team scored against the others,
    on the criterion's score; a match not played could have given 2 match points, or
    every board's game point (Art. 6.3). In a Swiss a match forfeited whole is not an
    encounter (Art. 6.1.1); in a round robin it is (Art. 15.2)."""

    def __init__(self, points: Points, pairing: Pairing = "round-robin") -> None:
        super().__init__(pairing, MATCH_WIN)
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
    """``MP`` or ``GP`` as a criterion: the team's score in that system. ``MPVGP``
    (C.07 Art. 13.1) names the one that is not the primary score."""

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
    """EMMSB, EMGSB, EGMSB, EGGSB (C.07 Art. 13.2): the sum, over the rounds, of the
    opponent's final score in one system times the points scored against them in
    the other: ``EMGSB`` multiplies the opponent's match points by the game
    points scored in the match. The opponents' scores are those Sonneborn-Berger
    reads (Art. 16 in a Swiss: adjusted scores, and a dummy for each round not
    played; Art. 15.2 in a round robin)."""

    def __init__(
        self, opponent: Points, own: Points, pairing: Pairing = "round-robin"
    ) -> None:
        self.opponent = opponent
        self.own = own
        self.scores = Buchholz(pairing, None)
        code = f"E{opponent[0]}{own[0]}SB"
        self.key = f"extended_sonneborn_berger_{code[1:3].lower()}"
        self.title = f"{code}: opponents' {NAMES[opponent]} times {NAMES[own]} scored"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        theirs = on(index, self.opponent)
        ours = on(index, self.own)

        def value(team: str) -> float:
            points = {r.round: r.points for r in ours.rounds_of[team]}
            return sum(
                c.score * points.get(c.round, 0.0)
                for c in self.scores.contributions(theirs, team)
            )

        return each_once(index, self, group, value)


class BoardCount(Criterion):
    """BC, C.07 Art. 12.1: each board's number times the game points the team scored
    on it over the event, summed; the lower the sum, the higher the team ranks. The
    value ordered on is the sum taken negatively and shown as the sum."""

    key = "board_count"
    title = "board count"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        points = board_points(index)
        return {
            t: -sum(board * p for board, p in enumerate(points[t], start=1)) + 0.0
            for t in group
        }

    def phrase(self, value: Value) -> str:
        assert not isinstance(value, tuple)
        return number(-value + 0.0)

    def bare(self, value: Value) -> str:
        return self.phrase(value)

    def to_json(self, value: Value) -> object:
        assert not isinstance(value, tuple)
        total = -value + 0.0
        return int(total) if total == int(total) else total


class TopBoardResults(Criterion):
    """TBR, C.07 Art. 12.2: the game points scored on board 1 over the event; if they
    do not decide, those on the next board down, and so on to the bottom board. The
    value is the boards' points, board 1 first, compared in that order."""

    key = "top_board_results"
    title = "top board results"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        points = board_points(index)
        return {t: points[t] for t in group}


class BottomBoardElimination(Criterion):
    """BBE, C.07 Art. 12.3: the game points scored over the event on every board but
    the bottom one; if they do not decide, the bottom board still counted is left out
    too, and so on up to board 1 alone. The value is those totals, from the most
    boards counted to the fewest, compared in that order."""

    key = "bottom_board_elimination"
    title = "bottom board elimination"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        points = board_points(index)
        return each_once(index, self, group, lambda t: _without_bottom_boards(points[t]))


def _without_bottom_boards(points: tuple[float, ...]) -> tuple[float, ...]:
    kept = list(accumulate(points))[:-1]
    return tuple(reversed(kept))


BoardSteps = Literal["", "C", "T", "B", "CT", "CB"]
"""What Art. 13.3.2 adds to EDE for two teams it leaves level: board count (C), then
top board results (T) or bottom board elimination (B)."""
BOARD_STEP_NAMES = {"C": "board count", "T": "top board results", "B": "bottom board elimination"}


class ExtendedDirectEncounter(Criterion):
    """EDE, C.07 Art. 13.3: direct encounter (Art. 6) between the tied teams on the
    primary score; when it leaves them level, on the other score. A subgroup it
    separates is ranked again among itself on the score that separated it, and on
    the other one only when that fails, since it is still the same application of
    the criterion.

    EDEC, EDET, EDEB, EDEBT, EDEBB (Art. 13.3.2): when exactly two teams are still
    level on both scores, the board criteria of Art. 12 (``BOARD_STEP_NAMES``) are
    applied to the boards of the matches between them.
    """

    key = "extended_direct_encounter"
    title = "extended direct encounter"
    depends_on_group = True
    reapply_to_smaller_group = True

    def __init__(
        self, primary: Points, steps: BoardSteps = "", pairing: Pairing = "round-robin"
    ) -> None:
        self.primary = primary
        self.steps = steps
        if steps:
            self.key = f"{self.key}_{steps.lower()}"
            self.title = f"{self.title}, then {' then '.join(BOARD_STEP_NAMES[s] for s in steps)}"
        self.encounters = {points: TeamDirectEncounter(points, pairing) for points in POINTS}

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        return self.encounters[self.primary].totals(on(index, self.primary), group)

    def split(self, index: EventIndex, group: Sequence[str]) -> Split:
        # The score each subgroup was separated on, for when it is ranked again.
        in_use: dict[frozenset[str], Points] = index.memo_of(self)
        first = in_use.get(frozenset(group), self.primary)
        tried: list[Split] = []
        scores = (first, _other(first))
        for points in scores:
            split = self.encounters[points].split(on(index, points), group)
            if split.separates:
                for subgroup in split.groups:
                    if len(subgroup) > 1:
                        in_use[frozenset(subgroup)] = points
                return Split(split.values, split.groups, _on(points, split.note))
            tried.append(split)
        notes = [_on(points, t.note) for points, t in zip(scores, tried, strict=True)]
        if self.steps and len(group) == 2:
            boards = self._on_boards(index, group[0], group[1])
            if boards is not None:
                split = split_by_value(boards, group)
                if split.separates:
                    named = " then ".join(BOARD_STEP_NAMES[s] for s in self.steps)
                    said = f"On the boards of their matches (Art. 13.3.2): {named}."
                    return Split(split.values, split.groups, " ".join([*notes, said]))
        return Split(tried[0].values, (tuple(group),), " ".join(notes))

    def _on_boards(self, index: EventIndex, a: str, b: str) -> dict[str, Value] | None:
        """The board criteria's values for ``a`` and ``b`` over the matches between
        them, or ``None`` when they did not meet."""
        event: TeamEvent = on(index, "MP").memo_of("team_event")[None]
        met = [m for m in event.matches if {m.home, m.away} == {a, b}]
        if not met:
            return None
        width = max(len(m.chess_boards) for m in met)
        totals = {a: [0.0] * width, b: [0.0] * width}
        for match in met:
            for board, result in enumerate(match.chess_boards):
                totals[match.home][board] += result.home_points
                totals[match.away][board] += result.away_points
        found: dict[str, Value] = {}
        for team, points in totals.items():
            value: list[float] = []
            for step in self.steps:
                if step == "C":
                    value.append(-sum(n * p for n, p in enumerate(points, start=1)) + 0.0)
                elif step == "T":
                    value.extend(points)
                else:
                    value.extend(_without_bottom_boards(tuple(points)))
            found[team] = tuple(value)
        return found

    def phrase(self, value: Value) -> str:
        if isinstance(value, tuple) and self.steps.startswith("C"):
            # The board count is ordered on taken negatively; it is shown as counted.
            return " then ".join(number(v) for v in (-value[0] + 0.0, *value[1:]))
        return super().phrase(value)


def _on(points: Points, note: str | None) -> str:
    if note is None:
        return f"On {NAMES[points]}."
    return f"On {NAMES[points]}, {note[0].lower()}{note[1:]}"


def _other(points: Points) -> Points:
    return "GP" if points == "MP" else "MP"


class ScoreStrengthCombination(Criterion):
    """SSSC, C.07 Art. 13.4: the score that is not the primary one, plus the Buchholz
    on the primary score divided by the normalisation factor, so that the strength
    of the schedule refines the scores without outweighing them. The factor is the
    most primary points the event can give divided by the most secondary points one
    match can give, rounded down: 2 match points a round against the boards of a
    match, or the boards of every round against 2. The sum is rounded to two
    decimals, half up, as AOB is."""

    key = "score_strength_combination"
    title = "score and schedule strength combination"

    def __init__(self, primary: Points, pairing: Pairing = "round-robin") -> None:
        self.primary = primary
        self.buchholz = OnScore(Buchholz(pairing, None), primary, False)

    def factor(self, index: EventIndex) -> int:
        rounds, width = on(index, "MP").rounds, boards(index)
        found = MATCH_WIN * rounds / width if self.primary == "MP" else rounds * width / MATCH_WIN
        # An event too short for one secondary match's worth of primary points
        # still divides by 1, never by 0.
        return max(1, int(found))

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        known = index.memo_of(self)
        missing = [t for t in group if t not in known]
        if missing:
            other = on(index, _other(self.primary)).scores
            strength = self.buchholz.evaluate(index, missing)
            factor = self.factor(index)
            for t in missing:
                buchholz = strength[t]
                assert not isinstance(buchholz, tuple)
                total = other[t] + buchholz / factor
                # Two decimals, half up: finer differences are noise, not merit.
                known[t] = int(total * 100 + 0.5 + 1e-9) / 100
        return {t: known[t] for t in group}
