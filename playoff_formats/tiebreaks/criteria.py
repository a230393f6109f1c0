"""The criteria of the Grand Chess Tour 2015 regulation (reg. 4 (a)-(d)).

Each is a small, pure function of the event index and the tied group.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from playoff_formats.tiebreaks.core import Criterion, Split, Value, each_once, split_by_value
from playoff_formats.tiebreaks.index import EventIndex
from playoff_formats.tiebreaks.words import join, number, points, short_name


class GamesWonOverTheBoard(Criterion):
    """GCT 2015 reg. 4 (a): the number of games won over the board.

    A forfeit win is not a game won, and neither is a bye of any kind.
    """

    key = "wins"
    title = "games won"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        return each_once(
            index,
            self,
            group,
            lambda p: float(sum(1 for r in index.rounds_of[p] if r.won_over_the_board)),
        )

    def phrase(self, value: Value) -> str:
        assert not isinstance(value, tuple)
        return f"{number(value)} win" if value == 1 else f"{number(value)} wins"


class DirectEncounter(Criterion):
    """GCT 2015 reg. 4 (b): the results of the games among the tied players.

    Every game between two tied players counts, so a double round robin counts
    both. Forfeits count as the arbiter scored them: they are results between
    the players. When the criterion separates some players and leaves a smaller
    group tied, it is applied again to that group alone (FIDE C.07 Art. 6.2)
    before the next criterion.

    When the tied players have not all met, a mini-table would compare players
    over different numbers of games. Following FIDE C.07 Art. 6.3, the criterion
    then ranks a player first when no other tied player could catch them even by
    winning every game they did not play among the group, the second in the
    same way among the rest, and so on while each place is certain; the
    criterion is then applied again to the players left (Art. 6.2), and not at
    all when no place is certain.
    """

    key = "direct_encounter"
    title = "results between the tied players"
    depends_on_group = True
    reapply_to_smaller_group = True

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        return _mini_table(index, group)

    def phrase(self, value: Value) -> str:
        assert not isinstance(value, tuple)
        return points(value)

    def bare(self, value: Value) -> str:
        return self.phrase(value)

    def split(self, index: EventIndex, group: Sequence[str]) -> Split:
        values = _mini_table(index, group)
        meetings = _meetings(index, group)
        legs = max(meetings.values(), default=0)
        missing = {pair: legs - n for pair, n in meetings.items() if n < legs}
        names = {p: short_name(index.name(p)) for p in group}
        if legs == 0:
            return Split(
                values=values,
                groups=(tuple(group),),
                note="None of them played each other, so this criterion is not applied.",
            )
        if not missing:
            return split_by_value(values, group)
        # The most each player could have had by winning every game not played.
        ceiling = {
            p: values[p] + sum(n for pair, n in missing.items() if p in pair) for p in group
        }
        leaders = certain_order(group, values, ceiling)
        gaps = join(sorted("-".join(names[p] for p in sorted(pair)) for pair in missing))
        if leaders:
            return Split(
                values=values,
                groups=ranked_first(group, leaders),
                note=f"Not all of their games were played ({gaps}); "
                f"{ahead_of_the_rest([names[p] for p in leaders])} (FIDE C.07 Art. 6.3).",
            )
        return Split(
            values=values,
            groups=(tuple(group),),
            note=f"Not all of their games were played ({gaps}), so this criterion is not applied.",
        )


def certain_order(
    group: Sequence[str], values: Mapping[str, float], ceiling: Mapping[str, float]
) -> list[str]:
    """The players whose places at the top of a mini-table no missing game could change.

    FIDE C.07 Art. 6.3: a player is first when their total is above what any
    other could have reached by winning every game they did not play within the
    group, and "the same applies to the second rank", and so on: each next
    player is placed while their total is above every remaining ceiling. The
    totals are those of the whole group: the games against a player already
    placed still count, since the text ranks within the one mini-table.
    """
    placed: list[str] = []
    rest = list(group)
    while len(rest) > 1:
        found = [p for p in rest if all(values[p] > ceiling[q] for q in rest if q != p)]
        if not found:
            break
        placed.append(found[0])
        rest.remove(found[0])
    if len(rest) == 1 and placed:
        placed.append(rest[0])
    return placed


def ranked_first(group: Sequence[str], placed: Sequence[str]) -> tuple[tuple[str, ...], ...]:
    """``placed`` one by one, then the others of ``group`` together."""
    rest = tuple(p for p in group if p not in placed)
    return tuple((p,) for p in placed) + ((rest,) if rest else ())


def ahead_of_the_rest(names: Sequence[str]) -> str:
    """Why the players placed by Art. 6.3 are placed, in order."""
    if len(names) == 1:
        return f"{names[0]} is ahead of what any other could have reached"
    return (
        f"{join(list(names))}, in that order, are each ahead of what any player below "
        "could have reached"
    )


def _mini_table(index: EventIndex, group: Sequence[str]) -> dict[str, float]:
    members = frozenset(group)
    return {p: index.points_between(p, members - {p}) for p in group}


def _meetings(index: EventIndex, group: Sequence[str]) -> dict[frozenset[str], int]:
    """How many games each pair of the group played against each other."""
    members = frozenset(group)
    count = {
        frozenset((a, b)): 0 for i, a in enumerate(group) for b in group[i + 1 :]
    }
    for p in group:
        for r in index.rounds_of[p]:
            if r.opponent is not None and r.opponent in members and p < r.opponent:
                count[frozenset((p, r.opponent))] += 1
    return count


class SonnebornBerger(Criterion):
    """GCT 2015 reg. 4 (c): the Sonneborn-Berger score.

    The sum, over every game, of the points scored in it times the final score
    of the opponent. A bye has no opponent and adds nothing.
    """

    key = "sonneborn_berger"
    title = "Sonneborn-Berger"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        return each_once(index, self, group, lambda p: sonneborn_berger(index, p))


def sonneborn_berger(index: EventIndex, player: str) -> float:
    return sum(
        r.points * index.scores[r.opponent]
        for r in index.rounds_of[player]
        if r.opponent is not None
    )


class ExtendedKoya(Criterion):
    """GCT 2015 reg. 4 (d): the Extended Koya system.

    (i) The points scored against the players who scored 50% or more of the
    points they could have scored: half the rounds in which they were paired or
    given a bye (a free round of an odd round robin is no such round). (ii) If still
    tied, the highest score group below 50% is added and the comparison made
    again, then the next group, and so on until every score group is included.

    The value is the list of those cumulative totals, step (i) first; comparing
    the lists element by element is exactly the step-by-step comparison. Only the
    steps needed to separate the group (or all of them) are kept, so the trace
    and the JSON show what was actually compared.
    """

    key = "koya"
    title = "Koya (points against players on 50% or more)"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        sets = koya_sets(index)
        known = index.memo_of("koya_steps")
        full: dict[str, tuple[float, ...]] = {}
        for p in group:
            if p not in known:
                known[p] = _koya_steps(index, p, sets)
            full[p] = known[p]
        keep = 1
        while keep < len(sets) and len({full[p][:keep] for p in group}) == 1:
            keep += 1
        if len(group) == 1:
            keep = 1
        return {p: full[p][:keep] for p in group}

    def standalone(self, index: EventIndex, players: Sequence[str]) -> Mapping[str, Value]:
        """Step (i) alone: the further steps only mean something inside a tie."""
        fifty = koya_sets(index)[0]
        return {p: (index.points_between(p, fifty),) for p in players}

    def phrase(self, value: Value) -> str:
        assert isinstance(value, tuple)
        if len(value) == 1:
            return number(value[0])
        return " → ".join(number(v) for v in value)


def koya_sets(index: EventIndex) -> tuple[frozenset[str], ...]:
    """The opponents counted at each step: (i), then each lower score group added."""
    known = index.memo_of("koya_sets")
    found: tuple[frozenset[str], ...] | None = known.get(None)
    if found is None:
        found = known[None] = _koya_sets(index)
    return found


def _koya_sets(index: EventIndex) -> tuple[frozenset[str], ...]:
    fifty = frozenset(
        p for p, s in index.scores.items() if 2 * s >= len(index.rounds_of[p])
    )
    lower = sorted({s for p, s in index.scores.items() if p not in fifty}, reverse=True)
    sets = [fifty]
    for score in lower:
        sets.append(fifty | {p for p, s in index.scores.items() if s >= score})
    return tuple(sets)


def _koya_steps(
    index: EventIndex, player: str, sets: tuple[frozenset[str], ...]
) -> tuple[float, ...]:
    return tuple(index.points_between(player, opponents) for opponents in sets)
