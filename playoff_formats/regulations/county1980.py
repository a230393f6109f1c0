"""County team ties (adopted June 1980): rules 1 to 7, by elimination.

Design notes: docs/rules-notes.md (County team ties (1980)).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import ClassVar

from playoff_formats.errors import PlayoffError
from playoff_formats.model import TeamEvent, Venue
from playoff_formats.regulations.kinds import TEAM_CHESS, EventKind
from playoff_formats.standings import StandingRow, Standings, split_ties
from playoff_formats.team_chess import ChessMatchFacts
from playoff_formats.tiebreaks.core import Step
from playoff_formats.tiebreaks.words import join, number, ordinal, places, points

Decision = int | None  # the winning side of a match (0 home, 1 away), or None if drawn


@dataclass(frozen=True)
class Elimination:
    """What one rule gave each team, and who it eliminated (empty: no effect)."""

    rule: str
    values: dict[str, float]
    eliminated: tuple[str, ...]
    sentences: tuple[str, ...]


@dataclass
class _County:
    event: TeamEvent
    facts: list[ChessMatchFacts]
    steps: list[Step] = field(default_factory=list)
    explanation: list[str] = field(default_factory=list)

    def name(self, team_id: str) -> str:
        return self.event.team(team_id).name

    def names(self, teams: Sequence[str]) -> str:
        return join([self.name(t) for t in teams])

    def among(self, teams: frozenset[str]) -> list[ChessMatchFacts]:
        return [f for f in self.facts if f.involves(teams)]

    # -- the procedure -------------------------------------------------------

    def order(self, tied: tuple[str, ...], first_place: int) -> list[tuple[str, ...]]:
        """Tied teams from best to worst; a group that survives rule 7 stays together."""
        remaining = tied
        bottom: list[list[tuple[str, ...]]] = []
        while len(remaining) > 1:
            found = self.eliminate(remaining, first_place)
            if found is None:
                self.explanation.append(
                    f"{self.names(remaining)} are still tied after rule 7: "
                    f"a play-off is needed for {places(first_place, len(remaining))}."
                )
                break
            out = found.eliminated
            remaining = tuple(t for t in remaining if t not in out)
            out_place = first_place + len(remaining)
            if len(remaining) == 1:
                self.explanation.append(f"{self.name(remaining[0])} is {ordinal(first_place)}.")
            if len(out) > 1:
                self.explanation.append(
                    f"The tie between {self.names(out)} for {places(out_place, len(out))} "
                    "is resolved afresh from rule 1."
                )
                bottom.append(self.order(out, out_place))
            else:
                bottom.append([out])
                self.explanation.append(f"{self.name(out[0])} is {ordinal(out_place)}.")
        ordered = [remaining]
        for groups in reversed(bottom):
            ordered.extend(groups)
        return ordered

    def eliminate(self, tied: tuple[str, ...], first_place: int) -> Elimination | None:
        teams = frozenset(tied)
        matches = self.among(teams)
        for rule in (self.rule_1, self.rule_2, self.rule_3):
            found = rule(tied, matches)
            self._record(found, tied, first_place)
            if found.eliminated:
                return found
        for amalgamated in (self.rule_4, self.rule_5, self.rule_6, self.rule_7):
            found = amalgamated(tied, matches)
            self._record(found, tied, first_place)
            if found.eliminated:
                return found
        return None

    def _record(self, found: Elimination, tied: tuple[str, ...], first_place: int) -> None:
        survivors = tuple(t for t in tied if t not in found.eliminated)
        groups = (survivors, found.eliminated) if found.eliminated else (tied,)
        self.steps.append(
            Step(
                criterion=found.rule.lower().replace(" ", "_"),
                label=found.rule,
                tied=tied,
                values=dict(found.values),
                groups=groups,
                first_place=first_place,
                sentences=found.sentences,
            )
        )
        self.explanation.extend(found.sentences)

    # -- rules 1 to 3: match by match, cumulatively --------------------------

    def rule_1(self, tied: tuple[str, ...], matches: list[ChessMatchFacts]) -> Elimination:
        return self._match_rule("Rule 1", tied, matches, 1)

    def rule_2(self, tied: tuple[str, ...], matches: list[ChessMatchFacts]) -> Elimination:
        return self._match_rule("Rule 2", tied, matches, 2)

    def rule_3(self, tied: tuple[str, ...], matches: list[ChessMatchFacts]) -> Elimination:
        return self._match_rule("Rule 3", tied, matches, 3)

    def _match_rule(
        self, label: str, tied: tuple[str, ...], matches: list[ChessMatchFacts], upto: int
    ) -> Elimination:
        values = {t: 0.0 for t in tied}
        told: list[str] = []
        for facts in matches:
            decision, how = decide(facts, upto)
            home, away = facts.teams
            if decision is None:
                values[home] += 1
                values[away] += 1
            else:
                values[facts.teams[decision]] += 2
            if upto == 1 or (how != "game points" and (upto == 2 or how != "board count")):
                told.append(self._match_sentence(facts, decision, how, upto))
        if not told:
            told.append(f"every match was decided by rule {upto - 1} or before")
        if len(tied) == 2:
            label_text = f"{label} between {self.names(tied)}"
        else:
            label_text = label
        return self._eliminate_lowest(label, tied, values, "match points", told, label_text)

    def _match_sentence(
        self, facts: ChessMatchFacts, decision: Decision, how: str | None, upto: int
    ) -> str:
        home, away = (self.name(t) for t in facts.teams)
        if decision is None:
            h, a = facts.game_points
            if upto == 1:
                return f"{home} drew with {away} {points(h)}–{points(a)}"
            if upto == 2:
                bh, ba = facts.board_count
                return f"{home} v {away} is still drawn on board count {bh}–{ba}"
            return f"{home} v {away} was drawn on every board"
        winner, loser = self.name(facts.teams[decision]), self.name(facts.teams[1 - decision])
        if how == "game points":
            return (
                f"{winner} beat {loser} "
                f"{points(facts.game_points[decision])}–{points(facts.game_points[1 - decision])}"
            )
        if how == "board count":
            return (
                f"{winner} beat {loser} on board count "
                f"{facts.board_count[decision]}–{facts.board_count[1 - decision]}"
            )
        lowest = facts.lowest_decisive_board
        assert lowest is not None
        return f"{winner} beat {loser}, who won the lowest decisive board, {lowest[0]}"

    # -- rules 4 to 7: amalgamated --------------------------------------------

    def rule_4(self, tied: tuple[str, ...], matches: list[ChessMatchFacts]) -> Elimination:
        values = {t: 0.0 for t in tied}
        for facts in matches:
            for side, team in enumerate(facts.teams):
                values[team] += facts.game_points[side] - facts.game_points[1 - side]
        return self._eliminate_lowest("Rule 4", tied, values, "game-point difference")

    def rule_5(self, tied: tuple[str, ...], matches: list[ChessMatchFacts]) -> Elimination:
        values = {t: 0.0 for t in tied}
        for facts in matches:
            for side, team in enumerate(facts.teams):
                values[team] += facts.board_count[side] - facts.board_count[1 - side]
        high = max(values.values())
        out = () if high == min(values.values()) else tuple(t for t in tied if values[t] == high)
        listing = ", ".join(f"{self.name(t)} {number(values[t])}" for t in tied)
        first = f"Rule 5: board-count difference {listing}"
        return Elimination("Rule 5", values, out, (_conclude(first, out, self.names),))

    def rule_6(self, tied: tuple[str, ...], matches: list[ChessMatchFacts]) -> Elimination:
        won_on: dict[int, set[str]] = {}
        for facts in matches:
            for board, side in facts.decisive:
                won_on.setdefault(board, set()).add(facts.teams[side])
        values = {t: 0.0 for t in tied}
        for board, winners in won_on.items():
            for t in winners:
                values[t] = max(values[t], float(board))
        if not won_on:
            return Elimination(
                "Rule 6",
                values,
                (),
                ("Rule 6: no board was decisive in their matches. Still tied.",),
            )
        lowest = max(won_on)
        winners = won_on[lowest]
        if winners == set(tied):
            # Every one of them "won the lowest board": none did worse than another,
            # and the text has no count-back to a higher board (rule 6 as written).
            return Elimination(
                "Rule 6",
                values,
                (),
                (
                    f"Rule 6: the lowest decisive board is board {lowest}, and "
                    f"{self.names(tied)} each won a game on it, so the rule eliminates "
                    "nobody. Still tied.",
                ),
            )
        out = tuple(t for t in tied if t in winners)
        first = f"Rule 6: the lowest decisive board is board {lowest}, won by {self.names(out)}"
        return Elimination("Rule 6", values, out, (_conclude(first, out, self.names),))

    def rule_7(self, tied: tuple[str, ...], matches: list[ChessMatchFacts]) -> Elimination:
        values = {t: 0.0 for t in tied}
        for facts in matches:
            if facts.match.venue is Venue.NEUTRAL:
                for team in facts.teams:
                    values[team] += 1
            else:
                values[facts.match.away] += 2
        return self._eliminate_lowest("Rule 7", tied, values, "location points")

    def _eliminate_lowest(
        self,
        label: str,
        tied: tuple[str, ...],
        values: dict[str, float],
        what: str,
        told: Sequence[str] = (),
        label_text: str | None = None,
    ) -> Elimination:
        """Eliminate the team(s) with the lowest value, unless every value is equal."""
        low = min(values.values())
        out = () if low == max(values.values()) else tuple(t for t in tied if values[t] == low)
        listing = ", ".join(f"{self.name(t)} {number(values[t])}" for t in tied)
        parts = [*told, f"{what} {listing}"]
        first = f"{label_text or label}: {'; '.join(parts)}"
        return Elimination(label, values, out, (_conclude(first, out, self.names),))


def _conclude(first: str, out: tuple[str, ...], names: Callable[[Sequence[str]], str]) -> str:
    if not out:
        return f"{first}. Still tied."
    verb = "is" if len(out) == 1 else "are"
    return f"{first}; {names(out)} {verb} eliminated."


def decide(facts: ChessMatchFacts, upto: int) -> tuple[Decision, str | None]:
    """The winner of a match under rules 1..``upto`` and the rule that decided it."""
    h, a = facts.game_points
    if h != a:
        return (0 if h > a else 1), "game points"
    if upto >= 2 and facts.board_count[0] != facts.board_count[1]:
        return (0 if facts.board_count[0] < facts.board_count[1] else 1), "board count"
    if upto >= 3:
        lowest = facts.lowest_decisive_board
        if lowest is not None:
            return 1 - lowest[1], "lowest decisive board"
    return None, None


def league_match_points(facts: ChessMatchFacts) -> tuple[int, int]:
    """2 for a win, 1 for a draw, on game points."""
    h, a = facts.game_points
    return (2, 0) if h > a else (0, 2) if a > h else (1, 1)


@dataclass(frozen=True)
class County1980:
    """The county team-ties regulation of June 1980."""

    name: str = "county1980"
    title: str = "County team ties (1980), rules 1-7"
    ranks: ClassVar[EventKind] = TEAM_CHESS

    def standings(self, event: TeamEvent) -> Standings:
        if event.is_bridge:
            raise PlayoffError("county1980 is a chess regulation; this event has bridge scores")
        facts = [ChessMatchFacts.of(m, n) for n, m in enumerate(event.matches, start=1)]
        county = _County(event=event, facts=facts)
        mp = {t.id: 0.0 for t in event.teams}
        gp = {t.id: 0.0 for t in event.teams}
        for f in facts:
            for side, team in enumerate(f.teams):
                mp[team] += league_match_points(f)[side]
                gp[team] += f.game_points[side]
        by_mp = sorted((t.id for t in event.teams), key=lambda t: -mp[t])

        def resolve(tied: tuple[str, ...], value: float, place: int) -> list[tuple[str, ...]]:
            county.explanation.append(
                f"{county.names(tied)} are tied on {number(value)} match points for "
                f"{places(place, len(tied))}."
            )
            return county.order(tied, place)

        groups = split_ties(by_mp, lambda t: mp[t], resolve)
        unresolved = [g for g in groups if len(g) > 1]
        playoff = tuple(t for g in unresolved for t in g)
        rows: list[StandingRow] = []
        place = 1
        for group in groups:
            for team in sorted(group, key=lambda t: (event.team(t).name, t)):
                tiebreaks: dict[str, float | int] = {"game_points": gp[team]}
                for step in county.steps:
                    if team in step.values:
                        tiebreaks[step.criterion] = _plain(step.values[team])
                rows.append(
                    StandingRow(
                        rank=place,
                        id=team,
                        name=event.team(team).name,
                        score=mp[team],
                        tiebreaks=tiebreaks,
                        playoff=team in playoff,
                    )
                )
            place += len(group)
        return Standings(
            regulation=self.name,
            rows=tuple(rows),
            groups=tuple(groups),
            playoff=playoff,
            explanation=tuple(county.explanation),
            steps=tuple(county.steps),
        )


def _plain(value: object) -> float | int:
    assert isinstance(value, float | int)
    return int(value) if value == int(value) else value
