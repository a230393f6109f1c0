"""EBU White Book 143.2.2: a three-team knock-out group (a triangle).

Design notes: docs/rules-notes.md (EBU 143.2.2: the triangle).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations, groupby
from typing import ClassVar

from playoff_formats.builders.stanzas import triangle_extra_boards
from playoff_formats.errors import PlayoffError, RegulationError
from playoff_formats.model import TeamEvent, TeamMatch
from playoff_formats.regulations.kinds import TEAM_BRIDGE, EventKind
from playoff_formats.scoring import imps as imps_of_board
from playoff_formats.standings import StandingRow, Standings
from playoff_formats.tiebreaks.core import Step, Value
from playoff_formats.tiebreaks.words import join, number, ordinal, places, points


def _exact(value: float) -> Fraction:
    return Fraction(repr(float(value)))


def _num(value: Fraction | float) -> str:
    return number(float(value))


def _signed(value: Fraction) -> str:
    return f"+{_num(value)}" if value > 0 else _num(value)


@dataclass(frozen=True)
class MiniMatch:
    """One mini-match of the triangle: IMPs (home, away) and its scheduled boards."""

    match: TeamMatch
    imps: tuple[Fraction, Fraction]
    boards: int | None

    @property
    def teams(self) -> tuple[str, str]:
        return (self.match.home, self.match.away)

    def imps_of(self, team: str) -> Fraction:
        return self.imps[0] if team == self.match.home else self.imps[1]

    def net_of(self, team: str) -> Fraction:
        other = self.match.away if team == self.match.home else self.match.home
        return self.imps_of(team) - self.imps_of(other)

    def wins_of(self, team: str) -> Fraction:
        net = self.net_of(team)
        return Fraction(1) if net > 0 else Fraction(1, 2) if net == 0 else Fraction(0)

    @classmethod
    def of(cls, match: TeamMatch, number: int) -> MiniMatch:
        where = f"match {number} ({match.home} v {match.away})"
        if not match.is_bridge:
            raise PlayoffError(f"{where}: EBU 143.2.2 is a bridge regulation; this is chess")
        nets = match.bridge_boards
        if match.imps is not None:
            pair = (_exact(match.imps[0]), _exact(match.imps[1]))
        elif nets:
            per_board = [imps_of_board(net) for net in nets]
            pair = (
                Fraction(sum(i for i in per_board if i > 0)),
                Fraction(-sum(i for i in per_board if i < 0)),
            )
        else:
            raise PlayoffError(f"{where}: a knock-out triangle is scored by IMPs; give them")
        return cls(match=match, imps=pair, boards=len(nets) or match.board_count)


@dataclass
class _Triangle:
    event: TeamEvent
    matches: list[MiniMatch]
    qualifiers: int
    depends: bool
    steps: list[Step] = field(default_factory=list)
    explanation: list[str] = field(default_factory=list)
    playoff: list[str] = field(default_factory=list)

    def name(self, team: str) -> str:
        return self.event.team(team).name

    def names(self, teams: tuple[str, ...] | list[str]) -> str:
        return join([self.name(t) for t in teams])

    def between(self, a: str, b: str) -> MiniMatch:
        return next(m for m in self.matches if set(m.teams) == {a, b})

    def record(
        self,
        key: str,
        label: str,
        tied: tuple[str, ...],
        values: dict[str, Value],
        groups: tuple[tuple[str, ...], ...],
        first_place: int,
        sentences: list[str],
    ) -> None:
        self.steps.append(
            Step(
                criterion=key,
                label=label,
                tied=tied,
                values=values,
                groups=groups,
                first_place=first_place,
                sentences=tuple(sentences),
            )
        )
        self.explanation.extend(sentences)

    def necessary(self, first_place: int, size: int) -> tuple[bool, str]:
        """Whether a tie for ``size`` places from ``first_place`` must be split, and why."""
        last = first_place + size - 1
        q = self.qualifiers
        teams = "one team qualifies" if q == 1 else "two teams qualify"
        both = "both" if size == 2 else "all three"
        if first_place <= q < last:
            return True, f"{teams}, so the tie decides who goes through: it must be split"
        if last <= q:
            if self.depends:
                return True, (
                    f"{teams} and {both} go through, but next round opponents depend on the "
                    "exact ranking within the triangle, which 143.2.2 defines as a necessary "
                    "circumstance: it must be split"
                )
            return False, (
                f"{teams} and {both} go through whatever their order, and next round "
                "opponents do not depend on it: it is not necessary to split the tie"
            )
        return False, (
            f"{teams} and it is the undisputed winner above them, so neither of them goes "
            "through whatever their order: it is not necessary to split the tie"
        )

    def extra_board_count(self, a: str, b: str) -> int:
        """Boards in one set of extra boards between ``a`` and ``b``; 0 if not known."""
        mini = self.between(a, b)
        return triangle_extra_boards(mini.boards).boards if mini.boards else 0

    def extra_boards_sentence(self, pair: tuple[str, str]) -> str:
        mini = self.between(*pair)
        if mini.boards is None:
            return (
                f"{self.names(list(pair))} play extra boards: one-eighth of the scheduled boards "
                "of their mini-match, at least 2 (the event does not give how many were "
                "scheduled), repeated while they remain tied"
            )
        plan = triangle_extra_boards(mini.boards)
        return (
            f"{self.names(list(pair))} play {plan.boards} extra boards (one-eighth of the "
            f"{mini.boards} scheduled boards of their mini-match, at least 2), repeated while "
            "they remain tied"
        )

    def drawn_pair(
        self, pair: tuple[str, str], first_place: int, why: str
    ) -> list[tuple[str, ...]]:
        """Two teams tied with a drawn match between them: extra boards if necessary."""
        a, b = pair
        mini = self.between(a, b)
        third = next(t.id for t in self.event.teams if t.id not in pair)
        must, reason = self.necessary(first_place, 2)
        sentences = [
            f"143.2.2: {self.name(a)} and {self.name(b)} drew their match "
            f"{_num(mini.imps_of(a))}–{_num(mini.imps_of(b))} IMPs and are tied for "
            f"{places(first_place, 2)}{why}. The IMPs won or lost against {self.name(third)} "
            "are totally irrelevant (143.2.2 Note)."
        ]
        if must:
            sentences.append(
                f"143.2.2: {reason}. {self.extra_boards_sentence(pair)}; they play off for "
                f"{places(first_place, 2)}."
            )
            self.playoff.extend(sorted(pair, key=lambda t: (self.name(t), t)))
        else:
            sentences.append(f"143.2.2: {reason}; they share {places(first_place, 2)}.")
        self.record(
            "extra_boards",
            "143.2.2 extra boards",
            pair,
            {t: float(self.extra_board_count(a, b)) if must else 0.0 for t in pair},
            (pair,),
            first_place,
            sentences,
        )
        return [pair]

    def two_tied(self, pair: tuple[str, str], first_place: int, why: str) -> list[tuple[str, ...]]:
        a, b = pair
        mini = self.between(a, b)
        ia, ib = mini.imps_of(a), mini.imps_of(b)
        if ia == ib:
            return self.drawn_pair(pair, first_place, why)
        win, lose = (a, b) if ia > ib else (b, a)
        self.record(
            "head_to_head",
            "143.2.2 match between them",
            pair,
            {a: float(ia), b: float(ib)},
            ((win,), (lose,)),
            first_place,
            [
                f"143.2.2: the result of the match between {self.name(a)} and {self.name(b)} "
                f"ranks them: {self.name(win)} beat {self.name(lose)} "
                f"{_num(mini.imps_of(win))}–{_num(mini.imps_of(lose))} IMPs; "
                f"{self.name(win)} is {ordinal(first_place)}."
            ],
        )
        return [(win,), (lose,)]

    def three_tied(self, group: tuple[str, ...]) -> list[tuple[str, ...]]:
        drawn = all(m.net_of(m.match.home) == 0 for m in self.matches)
        how = "all three matches were drawn" if drawn else "each team won one match and lost one"
        net = {
            t: sum((m.net_of(t) for m in self.matches if t in m.teams), Fraction(0)) for t in group
        }
        distinct = sorted(set(net.values()), reverse=True)
        groups = tuple(tuple(t for t in group if net[t] == v) for v in distinct)
        listing = ", ".join(f"{self.name(t)} {_signed(net[t])}" for t in group)
        head = f"143.2.2: {how}, so net IMPs over the series determine the ranking: {listing}"
        ordered: list[tuple[str, ...]] = []
        if len(groups) == 3:
            sentence = (
                f"{head}; {self.name(groups[0][0])} is first, {self.name(groups[1][0])} "
                f"second and {self.name(groups[2][0])} third."
            )
            ordered = list(groups)
        elif len(groups) == 2:
            alone = next(g for g in groups if len(g) == 1)[0]
            top = groups[0] == (alone,)
            sentence = (
                f"{head}; {self.name(alone)} is excluded from the tie by clearly "
                f"{'winning' if top else 'losing'} it."
            )
        else:
            sentence = f"{head}. All three are still tied."
        self.record(
            "net_imps",
            "143.2.2 net IMPs",
            group,
            {t: float(net[t]) for t in group},
            groups,
            1,
            [sentence],
        )
        if len(groups) == 3:
            return ordered
        if len(groups) == 2:
            place = 1
            for sub in groups:
                if len(sub) == 1:
                    ordered.append(sub)
                else:
                    pair = (sub[0], sub[1])
                    ordered.extend(self.two_tied(pair, place, " after net IMPs"))
                place += len(sub)
            return ordered
        must, reason = self.necessary(1, 3)
        if must:
            boards = []
            for a, b in combinations(group, 2):
                count = self.extra_board_count(a, b)
                boards.append(
                    f"{self.name(a)} v {self.name(b)} {count or 'one-eighth of its'} boards"
                )
            sentences = [
                f"143.2.2: {reason}. The text is silent when all three are level on net IMPs; "
                "policy: extra boards are played among all three, each pair one-eighth of its "
                f"mini-match, at least 2 ({'; '.join(boards)}), repeated while they remain "
                "tied."
            ]
            self.playoff.extend(sorted(group, key=lambda t: (self.name(t), t)))
        else:
            sentences = [f"143.2.2: {reason}; they share places 1-3."]
        self.record(
            "extra_boards",
            "143.2.2 extra boards",
            group,
            {
                t: float(sum(self.extra_board_count(t, o) for o in group if o != t))
                if must
                else 0.0
                for t in group
            },
            (group,),
            1,
            sentences,
        )
        return [group]


@dataclass(frozen=True)
class Ebu1432Triangle:
    """EBU White Book 143.2.2: three teams in a knock-out triangle.

    ``qualifiers``: how many of the three go through (1 or 2).
    ``next_round_depends_on_order``: next round opponents depend on the exact
    ranking within the triangle (a "necessary circumstance").
    """

    qualifiers: int = 1
    next_round_depends_on_order: bool = False
    name: str = "ebu-143.2-triangle"
    title: str = "EBU White Book 143.2.2: knock-out triangle of three teams"
    ranks: ClassVar[EventKind] = TEAM_BRIDGE

    def __post_init__(self) -> None:
        if self.qualifiers not in (1, 2):
            raise RegulationError(f"a triangle qualifies one or two teams, not {self.qualifiers}")

    def standings(self, event: TeamEvent) -> Standings:
        ids = [t.id for t in event.teams]
        if len(ids) != 3 or len(set(ids)) != 3:
            raise PlayoffError(f"a triangle has three teams, not {len(ids)}")
        if len(event.matches) != 3:
            raise PlayoffError(
                f"a triangle has three mini-matches, one per pair, not {len(event.matches)}"
            )
        pairs = {frozenset((m.home, m.away)) for m in event.matches}
        if pairs != {frozenset(p) for p in combinations(ids, 2)}:
            raise PlayoffError("a triangle has one mini-match between each pair of its teams")
        matches = [MiniMatch.of(m, n) for n, m in enumerate(event.matches, start=1)]
        tri = _Triangle(
            event=event,
            matches=matches,
            qualifiers=self.qualifiers,
            depends=self.next_round_depends_on_order,
        )
        wins = {t: sum((m.wins_of(t) for m in matches if t in m.teams), Fraction(0)) for t in ids}
        order = sorted(ids, key=lambda t: (-wins[t], event.team(t).name, t))
        listing = ", ".join(f"{tri.name(t)} {points(float(wins[t]))}" for t in order)
        score_groups = [tuple(g) for _, g in groupby(order, key=lambda t: wins[t])]
        tri.record(
            "wins",
            "143.2.2 wins",
            tuple(order),
            {t: float(wins[t]) for t in order},
            tuple(score_groups),
            1,
            [f"143.2.2: wins, a drawn match counting as half a win: {listing}."],
        )
        groups: list[tuple[str, ...]] = []
        place = 1
        for tied in score_groups:
            if len(tied) == 3:
                groups.extend(tri.three_tied(tied))
            elif len(tied) == 2:
                groups.extend(tri.two_tied((tied[0], tied[1]), place, ""))
            else:
                groups.append(tied)
            place += len(tied)
        playoff = frozenset(tri.playoff)
        rows: list[StandingRow] = []
        place = 1
        for group in groups:
            for team in sorted(group, key=lambda t: (event.team(t).name, t)):
                net = sum((m.net_of(team) for m in matches if team in m.teams), Fraction(0))
                tiebreaks: dict[str, object] = {"net_imps": _json(float(net))}
                for step in tri.steps:
                    if team in step.values and step.criterion != "wins":
                        tiebreaks[step.criterion] = _json(step.values[team])
                rows.append(
                    StandingRow(
                        rank=place,
                        id=team,
                        name=event.team(team).name,
                        score=float(wins[team]),
                        tiebreaks=dict(tiebreaks),
                        playoff=team in playoff,
                    )
                )
            place += len(group)
        return Standings(
            regulation=self.name,
            rows=tuple(rows),
            groups=tuple(groups),
            playoff=tuple(tri.playoff),
            explanation=tuple(tri.explanation),
            steps=tuple(tri.steps),
        )


def _json(value: Value) -> object:
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return int(value) if value == int(value) else value


def triangle(qualifiers: int = 1, next_round_depends_on_order: bool = False) -> Ebu1432Triangle:
    """EBU 143.2.2 with the number of qualifiers and whether the next round depends on order.

    Each combination is registered under its own name (:func:`triangle_name`), so
    that an event file, the command line and the service can all name it.
    """
    qualify = "one team qualifies" if qualifiers == 1 else "two teams qualify"
    order = (
        "; next round opponents depend on the order" if next_round_depends_on_order else ""
    )
    return Ebu1432Triangle(
        qualifiers=qualifiers,
        next_round_depends_on_order=next_round_depends_on_order,
        name=triangle_name(qualifiers, next_round_depends_on_order),
        title=f"EBU White Book 143.2.2: knock-out triangle of three teams ({qualify}{order})",
    )


def triangle_name(qualifiers: int, next_round_depends_on_order: bool) -> str:
    """``ebu-143.2-triangle``, ``-2`` when two teams qualify, ``-ordered`` when next
    round opponents depend on the order within the triangle (143.2.2)."""
    name = "ebu-143.2-triangle"
    if qualifiers == 2:
        name += "-2"
    if next_round_depends_on_order:
        name += "-ordered"
    return name


TRIANGLES: tuple[tuple[int, bool], ...] = ((1, False), (1, True), (2, False), (2, True))
"""Every triangle a name registers: (qualifiers, next round depends on order)."""


def ebu_143_2_triangle() -> Ebu1432Triangle:
    """The registered default: one team qualifies, next round does not depend on order."""
    return triangle()
