"""EBU White Book 143.7: splitting a tie in a bridge team event scored by VPs.

Design notes: docs/rules-notes.md (EBU 143.7: split ties).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from fractions import Fraction
from itertools import combinations
from typing import ClassVar

from playoff_formats.errors import PlayoffError
from playoff_formats.model import TeamEvent
from playoff_formats.regulations.bridge_matches import (
    PACHABO_AGGREGATE_MARGIN,
    Board,
    BridgeMatch,
    pachabo_match,
    vp_match,
)
from playoff_formats.regulations.kinds import TEAM_BRIDGE, EventKind
from playoff_formats.standings import StandingRow, Standings, split_ties
from playoff_formats.tiebreaks.core import Step, Value
from playoff_formats.tiebreaks.words import join, number, ordinal, places, points

NEEDS_A_DRAW = "needs a draw (cut of cards, 143.7.1)"

_DRAW_LABEL = "143.7.1 (e)/(f)"
_EXAMPLE_LABEL = "143.7.1 example, third test"


def _num(value: Fraction | float) -> str:
    return number(float(value))


def _signed(value: Fraction | float) -> str:
    text = _num(value)
    return f"+{text}" if value > 0 else text


@dataclass(frozen=True)
class _Outcome:
    """What one test did to a tied group."""

    key: str
    label: str
    values: dict[str, Value]
    groups: tuple[tuple[str, ...], ...]
    sentences: tuple[str, ...]

    @property
    def separates(self) -> bool:
        return len(self.groups) > 1


def _groups_by_value(
    group: Sequence[str], values: dict[str, tuple[Fraction, ...]]
) -> tuple[tuple[str, ...], ...]:
    distinct = sorted(set(values.values()), reverse=True)
    return tuple(tuple(t for t in group if values[t] == v) for v in distinct)


def _plain(value: Fraction | float) -> float:
    return float(value)


@dataclass
class _Resolver:
    event: TeamEvent
    facts: list[BridgeMatch]
    scores: dict[str, Fraction]
    pachabo: bool
    duplicated_boards: bool
    wins_and_draws: bool
    steps: list[Step] = field(default_factory=list)
    explanation: list[str] = field(default_factory=list)

    def __post_init__(self) -> None:
        teams = [t.id for t in self.event.teams]
        met = {frozenset(f.teams) for f in self.facts}
        self.all_play_all = all(frozenset(p) in met for p in combinations(teams, 2))
        self.unit = "HPs" if self.pachabo else "VPs"

    # -- words ---------------------------------------------------------------

    def name(self, team: str) -> str:
        return self.event.team(team).name

    def names(self, teams: Sequence[str]) -> str:
        return join([self.name(t) for t in teams])

    def listing(self, group: Sequence[str], text: dict[str, str]) -> str:
        return ", ".join(f"{self.name(t)} {text[t]}" for t in group)

    def placed(self, groups: Sequence[tuple[str, ...]], first_place: int) -> str:
        parts = []
        place = first_place
        for sub in groups:
            if len(sub) == 1:
                parts.append(f"{self.name(sub[0])} is {ordinal(place)}")
            else:
                parts.append(f"{self.names(sub)} stay tied for {places(place, len(sub))}")
            place += len(sub)
        return "; ".join(parts)

    # -- facts ---------------------------------------------------------------

    def matches_of(self, team: str) -> list[BridgeMatch]:
        return [f for f in self.facts if team in f.teams]

    def among(self, group: Sequence[str]) -> list[BridgeMatch]:
        teams = frozenset(group)
        return [f for f in self.facts if f.involves(teams)]

    def first_without_imps(self, matches: Sequence[BridgeMatch]) -> str:
        """The first match (by round, then names) given by VPs alone, in words."""

        def key(f: BridgeMatch) -> tuple[int, list[str]]:
            return (f.match.round, sorted(self.name(t) for t in f.teams))

        first = min((f for f in matches if f.imps is None), key=key)
        one, two = sorted(self.name(t) for t in first.teams)
        return f"the round {first.match.round} match between {one} and {two}"

    def all_met(self, group: Sequence[str]) -> bool:
        met = {frozenset(f.teams) for f in self.among(group)}
        return all(frozenset(p) in met for p in combinations(group, 2))

    def boards_of(self, team: str) -> dict[Board, float] | None:
        """The team's 1/½/0 on every deal it played; None if deals cannot be told apart."""
        result: dict[Board, float] = {}
        for f in self.matches_of(team):
            if f.board_points is None:
                continue
            home = f.side(team) == 0
            for n, p in enumerate(f.board_points, start=1):
                key = (f.match.round, n)
                if key in result:
                    return None
                result[key] = p if home else 1.0 - p
        return result

    # -- the procedure -------------------------------------------------------

    def order(self, group: tuple[str, ...], first_place: int) -> list[tuple[str, ...]]:
        """The tied group from best to worst; a group still tied after (d) stays together."""
        if len(group) == 1:
            return [group]
        if len(group) == 2:
            tests = [self.head_to_head]
            if self.wins_and_draws:
                tests.append(self.wins_draws)
            tests += [self.tie_break_points, self.basic_all_boards, self.count_back]
        elif self.all_met(group):
            self.explanation.append(
                f"143.7.2: {self.names(group)} all played each other, so they are ranked "
                "first on their results against each other."
            )
            tests = [self.final_among, self.defeated_all, self.basic_among]
            tests += [self.tie_break_points, self.basic_all_boards, self.count_back]
        else:
            missing = next((a, b) for a, b in combinations(group, 2) if not self.among((a, b)))
            self.explanation.append(
                f"143.7.3: {self.names(group)} did not all play each other "
                f"({self.name(missing[0])} did not play {self.name(missing[1])}), "
                "so 143.7.1 (b) to (f) apply."
            )
            tests = [self.tie_break_points, self.basic_all_boards, self.count_back]
        for test in tests:
            outcome = test(group, first_place)
            self.record(outcome, group, first_place)
            if not outcome.separates:
                continue
            ordered: list[tuple[str, ...]] = []
            place = first_place
            for sub in outcome.groups:
                if len(sub) > 1:
                    rule = (
                        "143.7.1"
                        if len(sub) == 2
                        else "143.7.2"
                        if self.all_met(sub)
                        else "143.7.3"
                    )
                    self.explanation.append(
                        f"The tie between {self.names(sub)} for "
                        f"{places(place, len(sub))} is split afresh among them, from {rule}."
                    )
                ordered.extend(self.order(sub, place))
                place += len(sub)
            return ordered
        self.unresolved(group, first_place)
        return [group]

    def record(self, outcome: _Outcome, group: tuple[str, ...], first_place: int) -> None:
        self.steps.append(
            Step(
                criterion=outcome.key,
                label=outcome.label,
                tied=group,
                values=dict(outcome.values),
                groups=outcome.groups,
                first_place=first_place,
                sentences=outcome.sentences,
            )
        )
        self.explanation.extend(outcome.sentences)

    def unresolved(self, group: tuple[str, ...], first_place: int) -> None:
        where = places(first_place, len(group))
        sentence = (
            f"{_DRAW_LABEL}: {self.names(group)} are still tied for {where} after every "
            f"test. They share {where} where it can be shared; where the tie must be broken "
            f"(a trophy that cannot be shared, or a qualifying place) it {NEEDS_A_DRAW}: "
            "the captains cut, aces high, suits ranking spades, hearts, diamonds, clubs. "
            "The draw is not made here."
        )
        self.record(_Outcome("draw", _DRAW_LABEL, {}, (group,), (sentence,)), group, first_place)

    def _simple(
        self,
        key: str,
        label: str,
        title: str,
        group: tuple[str, ...],
        first_place: int,
        values: dict[str, Fraction],
        text: dict[str, str],
        note: str | None = None,
    ) -> _Outcome:
        groups = _groups_by_value(group, {t: (v,) for t, v in values.items()})
        head = f"{label}, {title}: {self.listing(group, text)}"
        if note:
            head = f"{head} ({note})"
        if len(groups) > 1:
            sentence = f"{head}; {self.placed(groups, first_place)}."
        else:
            sentence = f"{head}. Still tied."
        return _Outcome(key, label, {t: _plain(v) for t, v in values.items()}, groups, (sentence,))

    def _not_applied(self, key: str, label: str, group: tuple[str, ...], sentence: str) -> _Outcome:
        return _Outcome(key, label, {}, (group,), (f"{label}: {sentence}",))

    # -- 143.7.1 (a) -----------------------------------------------------------

    def head_to_head(self, group: tuple[str, ...], first_place: int) -> _Outcome:
        label = "143.7.1 (a)"
        a, b = group
        matches = self.among(group)
        if not matches:
            return self._not_applied(
                "head_to_head",
                label,
                group,
                f"{self.name(a)} and {self.name(b)} did not play each other, so no match "
                "between them can decide.",
            )
        their = "their match" if len(matches) == 1 else f"their {len(matches)} matches"
        final = {t: sum((f.final_of(t) for f in matches), Fraction(0)) for t in group}
        if self.pachabo:
            return self._head_to_head_pachabo(group, first_place, matches, final, their)
        fa, fb = final[a], final[b]
        if fa != fb:
            win, lose = (a, b) if fa > fb else (b, a)
            return _Outcome(
                "head_to_head",
                label,
                {a: _plain(fa), b: _plain(fb)},
                ((win,), (lose,)),
                (
                    f"{label}: {self.name(win)} beat {self.name(lose)} "
                    f"{_num(final[win])}–{_num(final[lose])} {self.unit} in {their}; "
                    f"{self.name(win)} is {ordinal(first_place)}.",
                ),
            )
        drew = f"{self.name(a)} and {self.name(b)} drew {_num(fa)}–{_num(fb)} VPs in {their}"
        margins = [f.imp_margin_of(a) for f in matches]
        if any(m is None for m in margins):
            return _Outcome(
                "head_to_head",
                label,
                {a: _plain(fa), b: _plain(fb)},
                (group,),
                (
                    f"{label}: {drew}, and the IMPs are not given, so the Basic method cannot "
                    "decide. Still tied.",
                ),
            )
        scored = {
            t: sum((f.imps_of(t) or Fraction(0) for f in matches), Fraction(0)) for t in group
        }
        values: dict[str, Value] = {t: (_plain(final[t]), _plain(scored[t])) for t in group}
        ia, ib = scored[a], scored[b]
        if ia == ib:
            return _Outcome(
                "head_to_head",
                label,
                values,
                (group,),
                (
                    f"{label}: {drew}, and {_num(ia)}–{_num(ib)} IMPs by the Basic method: "
                    "no swing. Still tied.",
                ),
            )
        win, lose = (a, b) if ia > ib else (b, a)
        return _Outcome(
            "head_to_head",
            label,
            values,
            ((win,), (lose,)),
            (
                f"{label}: {drew}, so the Basic method decides: {self.name(win)} won on IMPs, "
                f"{_num(scored[win])}–{_num(scored[lose])}; {self.name(win)} is "
                f"{ordinal(first_place)}.",
            ),
        )

    def _head_to_head_pachabo(
        self,
        group: tuple[str, ...],
        first_place: int,
        matches: list[BridgeMatch],
        final: dict[str, Fraction],
        their: str,
    ) -> _Outcome:
        label = "143.7.1 (a)"
        a, b = group
        pab = {t: sum((f.pab_of(t) for f in matches), Fraction(0)) for t in group}
        agg = {t: sum(f.aggregate_of(t) for f in matches) for t in group}
        values: dict[str, Value] = {
            t: (_plain(final[t]), _plain(pab[t]), float(agg[t])) for t in group
        }
        parts: list[str] = []
        win: str | None = None
        if final[a] != final[b]:
            win = a if final[a] > final[b] else b
            lose = b if win == a else a
            parts.append(
                f"{self.name(win)} beat {self.name(lose)} "
                f"{_num(final[win])}–{_num(final[lose])} HPs in {their}"
            )
        else:
            parts.append(
                f"{self.name(a)} and {self.name(b)} drew {_num(final[a])}–{_num(final[b])} "
                f"HPs in {their}"
            )
            if pab[a] != pab[b]:
                win = a if pab[a] > pab[b] else b
                lose = b if win == a else a
                parts.append(
                    "the point-a-board element, the more significant, decides: "
                    f"{self.name(win)} won it {_num(pab[win])}–{_num(pab[lose])} HPs"
                )
            else:
                parts.append(
                    f"the point-a-board element is level too, {_num(pab[a])}–{_num(pab[b])} HPs"
                )
                if abs(agg[a]) >= PACHABO_AGGREGATE_MARGIN:
                    win = a if agg[a] > 0 else b
                    parts.append(
                        f"{self.name(win)} won the aggregate element by {abs(agg[a])} points "
                        "(10 or more)"
                    )
                else:
                    parts.append("the aggregate element is level as well")
        if win is None:
            return _Outcome(
                "head_to_head",
                label,
                values,
                (group,),
                (f"{label}: {'; '.join(parts)}. Still tied.",),
            )
        lose = b if win == a else a
        return _Outcome(
            "head_to_head",
            label,
            values,
            ((win,), (lose,)),
            (f"{label}: {'; '.join(parts)}; {self.name(win)} is {ordinal(first_place)}.",),
        )

    # -- the worked example's third test (optional) ----------------------------

    def wins_draws(self, group: tuple[str, ...], first_place: int) -> _Outcome:
        wins: dict[str, Fraction] = {}
        played: dict[str, int] = {}
        for t in group:
            total = Fraction(0)
            ms = self.matches_of(t)
            for f in ms:
                own, other = f.final_of(t), f.final_of(f.opponent(t))
                total += 1 if own > other else Fraction(1, 2) if own == other else 0
            wins[t] = total
            played[t] = len(ms)
        if len(set(played.values())) > 1:
            values = {t: wins[t] / played[t] * 100 if played[t] else Fraction(0) for t in group}
            text = {t: f"{_num(values[t])}%" for t in group}
            note = "the teams played different numbers of matches, so as a percentage (143.6.2)"
        else:
            values = wins
            text = {t: points(float(wins[t])) for t in group}
            note = None
        return self._simple(
            "wins_and_draws",
            _EXAMPLE_LABEL,
            f"matches won in {self.unit}, a draw counting as half a win",
            group,
            first_place,
            values,
            text,
            note,
        )

    # -- 143.7.1 (b) to (d) ------------------------------------------------------

    def tie_break_points(self, group: tuple[str, ...], first_place: int) -> _Outcome:
        label = "143.7.1 (b)"
        if self.all_play_all:
            return self._not_applied(
                "tie_break_points",
                label,
                group,
                "tie-break points never apply in an all-play-all event, and every team "
                "played every other.",
            )
        values = {t: self.tie_break_points_of(t) for t in group}
        return self._simple(
            "tie_break_points",
            label,
            f"tie-break points (the final scores of the opponents each team played, in "
            f"{self.unit})",
            group,
            first_place,
            values,
            {t: _num(v) for t, v in values.items()},
        )

    def tie_break_points_of(self, team: str) -> Fraction:
        opponents = {f.opponent(team) for f in self.matches_of(team)}
        return sum((self.scores[o] for o in opponents), Fraction(0))

    def basic_all_boards(self, group: tuple[str, ...], first_place: int) -> _Outcome:
        label = "143.7.1 (c)"
        if self.pachabo:
            return self._not_applied(
                "imp_difference",
                label,
                group,
                "the Basic method over all boards applies to an event scored by VPs; this "
                "one is scored by HPs.",
            )
        values: dict[str, Fraction] = {}
        for t in group:
            value = self.imp_difference_of(t)
            if value is None:
                missing = self.first_without_imps(self.matches_of(t))
                return self._not_applied(
                    "imp_difference",
                    label,
                    group,
                    f"{missing} gives VPs without IMPs, so the IMP difference over all "
                    "boards cannot be counted.",
                )
            values[t] = value
        return self._simple(
            "imp_difference",
            label,
            "the Basic method over all boards of the stage, IMP difference",
            group,
            first_place,
            values,
            {t: _signed(v) for t, v in values.items()},
        )

    def imp_difference_of(self, team: str) -> Fraction | None:
        total = Fraction(0)
        for f in self.matches_of(team):
            margin = f.imp_margin_of(team)
            if margin is None:
                return None
            total += margin
        return total

    def count_back(self, group: tuple[str, ...], first_place: int) -> _Outcome:
        label = "143.7.1 (d)"
        if not self.duplicated_boards:
            return self._not_applied(
                "point_a_board",
                label,
                group,
                "point-a-board count-back compares the teams' results on the same boards, "
                "and the boards of this event were not duplicated (dealt at each table), "
                "so it cannot be used.",
            )
        maps: dict[str, dict[Board, float]] = {}
        for t in group:
            board_map = self.boards_of(t)
            if board_map is None:
                return self._not_applied(
                    "point_a_board",
                    label,
                    group,
                    f"{self.name(t)} played two matches in one round, so its boards cannot be "
                    "matched deal by deal; point-a-board count-back cannot be used.",
                )
            maps[t] = board_map
        common = set.intersection(*(set(m) for m in maps.values()))
        if not common:
            return self._not_applied(
                "point_a_board",
                label,
                group,
                "no board with a per-board score was played by every tied team, so "
                "point-a-board count-back cannot be used.",
            )
        values = {t: Fraction(sum(maps[t][k] for k in common)) for t in group}
        how = (
            "a board won on any positive score"
            if self.pachabo
            else "a board won, drawn or lost by IMPs, a 10-point difference being a draw"
        )
        who = "both teams" if len(group) == 2 else "every tied team"
        note = f"{len(common)} boards that {who} played; {how}"
        if any(len(maps[t]) != len(common) for t in group):
            note += "; other boards are left out, as they were not common to all"
        return self._simple(
            "point_a_board",
            label,
            "point-a-board count-back",
            group,
            first_place,
            values,
            {t: points(float(v)) for t, v in values.items()},
            note,
        )

    # -- 143.7.2 -----------------------------------------------------------------

    def final_among(self, group: tuple[str, ...], first_place: int) -> _Outcome:
        matches = self.among(group)
        values = {
            t: sum((f.final_of(t) for f in matches if t in f.teams), Fraction(0)) for t in group
        }
        return self._simple(
            "final_among",
            "143.7.2 (1)",
            f"final scores ({self.unit}) obtained against each other",
            group,
            first_place,
            values,
            {t: _num(v) for t, v in values.items()},
        )

    def _beats(self, team: str, other: str) -> bool | None:
        """Did ``team`` beat ``other`` head-on by the Basic method (all their matches)?"""
        matches = self.among((team, other))
        if self.pachabo:
            own = (
                sum((f.final_of(team) for f in matches), Fraction(0)),
                sum((f.pab_of(team) for f in matches), Fraction(0)),
                Fraction(sum(f.aggregate_of(team) for f in matches)),
            )
            theirs = (
                sum((f.final_of(other) for f in matches), Fraction(0)),
                sum((f.pab_of(other) for f in matches), Fraction(0)),
                Fraction(-own[2]),
            )
            return own > theirs
        total = Fraction(0)
        for f in matches:
            margin = f.imp_margin_of(team)
            if margin is None:
                return None
            total += margin
        return total > 0

    def defeated_all(self, group: tuple[str, ...], first_place: int) -> _Outcome:
        label = "143.7.2 (2)"
        basic = (
            "HPs (then the point-a-board element, then the aggregate)" if self.pachabo else "IMPs"
        )
        values: dict[str, Value] = {}
        for t in group:
            results = [self._beats(t, o) for o in group if o != t]
            if any(r is None for r in results):
                return self._not_applied(
                    "defeated_all",
                    label,
                    group,
                    "a match between them gives VPs without IMPs, so who defeated whom by the "
                    "Basic method cannot be told.",
                )
            values[t] = 1.0 if all(results) else 0.0
        winners = [t for t in group if values[t] == 1.0]
        if not winners:
            return _Outcome(
                "defeated_all",
                label,
                values,
                (group,),
                (
                    f"{label}: no team defeated all the others on {basic} in their matches "
                    "against them. Still tied.",
                ),
            )
        top = winners[0]
        rest = tuple(t for t in group if t != top)
        return _Outcome(
            "defeated_all",
            label,
            values,
            ((top,), rest),
            (
                f"{label}: {self.name(top)} defeated each of {self.names(rest)} on {basic} "
                f"head-on; {self.placed(((top,), rest), first_place)}.",
            ),
        )

    def basic_among(self, group: tuple[str, ...], first_place: int) -> _Outcome:
        label = "143.7.2 (3)"
        if self.pachabo:
            return self._not_applied(
                "basic_among",
                label,
                group,
                "in an event not scored by VPs the Basic and Final scores are the same "
                "(143.5.1), so this would repeat 143.7.2 (1).",
            )
        matches = self.among(group)
        if any(f.imps is None for f in matches):
            return self._not_applied(
                "basic_among",
                label,
                group,
                f"{self.first_without_imps(matches)} gives VPs without IMPs, so the Basic "
                "scores among them cannot be counted.",
            )
        values = {
            t: sum(
                (f.imp_margin_of(t) or Fraction(0) for f in matches if t in f.teams), Fraction(0)
            )
            for t in group
        }
        return self._simple(
            "basic_among",
            label,
            "Basic scores against each other, IMP difference",
            group,
            first_place,
            values,
            {t: _signed(v) for t, v in values.items()},
        )


@dataclass(frozen=True)
class Ebu1437:
    """EBU White Book 143.7 for a bridge team event scored by VPs (or the Pachabo, in HPs).

    ``duplicated_boards``: board n of every match of a round is the same deal
    (needed for point-a-board count-back, 143.7.1 (d)). ``wins_and_draws``:
    insert the worked example's third test (wins and draws) after 143.7.1 (a).
    """

    name: str = "ebu-143.7"
    title: str = "EBU White Book 143.7: how to split a tie (teams scored by VPs)"
    ranks: ClassVar[EventKind] = TEAM_BRIDGE
    pachabo: bool = False
    duplicated_boards: bool = True
    wins_and_draws: bool = False

    def standings(self, event: TeamEvent) -> Standings:
        ids = {t.id for t in event.teams}
        for n, m in enumerate(event.matches, start=1):
            for team in (m.home, m.away):
                if team not in ids:
                    raise PlayoffError(f"match {n}: unknown team {team!r}")
        build = pachabo_match if self.pachabo else vp_match
        facts = [build(m, n) for n, m in enumerate(event.matches, start=1)]
        scores = {t.id: Fraction(0) for t in event.teams}
        for f in facts:
            for side, team in enumerate(f.teams):
                scores[team] += f.final[side]
        resolver = _Resolver(
            event=event,
            facts=facts,
            scores=scores,
            pachabo=self.pachabo,
            duplicated_boards=self.duplicated_boards,
            wins_and_draws=self.wins_and_draws,
        )
        unit = resolver.unit
        order = sorted(scores, key=lambda t: (-scores[t], event.team(t).name, t))

        def resolve(
            tied: tuple[str, ...], value: Fraction, place: int
        ) -> Sequence[tuple[str, ...]]:
            resolver.explanation.append(
                f"{resolver.names(tied)} are tied on {_num(value)} {unit} for "
                f"{places(place, len(tied))}."
            )
            return resolver.order(tied, place)

        groups = split_ties(order, lambda t: scores[t], resolve)
        rows = self._rows(event, resolver, groups)
        return Standings(
            regulation=self.name,
            rows=rows,
            groups=tuple(groups),
            playoff=(),
            explanation=tuple(resolver.explanation),
            steps=tuple(resolver.steps),
        )

    def _rows(
        self, event: TeamEvent, resolver: _Resolver, groups: Sequence[tuple[str, ...]]
    ) -> tuple[StandingRow, ...]:
        rows: list[StandingRow] = []
        place = 1
        for group in groups:
            for team in sorted(group, key=lambda t: (event.team(t).name, t)):
                tiebreaks: dict[str, object] = {}
                if not self.pachabo:
                    difference = resolver.imp_difference_of(team)
                    if difference is not None:
                        tiebreaks["imp_difference"] = _json(float(difference))
                if not resolver.all_play_all:
                    tiebreaks["tie_break_points"] = _json(float(resolver.tie_break_points_of(team)))
                for step in resolver.steps:
                    if team in step.values:
                        tiebreaks[step.criterion] = _json(step.values[team])
                if len(group) > 1:
                    tiebreaks["draw"] = NEEDS_A_DRAW
                rows.append(
                    StandingRow(
                        rank=place,
                        id=team,
                        name=event.team(team).name,
                        score=float(resolver.scores[team]),
                        tiebreaks=dict(tiebreaks),
                        playoff=False,
                    )
                )
            place += len(group)
        return tuple(rows)


def _json(value: Value) -> object:
    if isinstance(value, tuple):
        return [_json(v) for v in value]
    return int(value) if value == int(value) else round(value, 4)


def ebu_143_7() -> Ebu1437:
    """EBU 143.7 as written: boards duplicated, no wins-and-draws test."""
    return Ebu1437()


def ebu_143_7_wins_and_draws() -> Ebu1437:
    """EBU 143.7 with the worked example's "wins and draws" test after 143.7.1 (a)."""
    return Ebu1437(
        name="ebu-143.7-wins-and-draws",
        title="EBU White Book 143.7: how to split a tie, with the worked example's "
        "wins-and-draws test",
        wins_and_draws=True,
    )


def ebu_143_7_swiss() -> Ebu1437:
    """EBU 143.7 for an event whose boards were dealt at each table: no count-back."""
    return Ebu1437(name="ebu-143.7-swiss", duplicated_boards=False)


def ebu_143_7_pachabo() -> Ebu1437:
    """The Pachabo variant: matches in HPs (6 point-a-board, 4 aggregate)."""
    return Ebu1437(
        name="ebu-143.7-pachabo",
        title="EBU White Book 143.7: how to split a tie (the Pachabo, scored in HPs)",
        pachabo=True,
    )
