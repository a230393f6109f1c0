"""FIDE tie-breaks (Handbook C.07, Play-Off and Tie-Break Regulations), by code.

Design notes: docs/rules-notes.md (FIDE tie-breaks).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from enum import StrEnum
from typing import Literal, NamedTuple

from playoff_formats.tiebreaks import criteria as gct
from playoff_formats.tiebreaks.core import Criterion, Split, Value, each_once, split_by_value
from playoff_formats.tiebreaks.editions import LATEST, Edition, applied_edition
from playoff_formats.tiebreaks.index import EventIndex, PlayerRound, RoundKind
from playoff_formats.tiebreaks.words import join, number, short_name
from playoff_formats.values import ByeKind, Colour

Pairing = Literal["swiss", "round-robin"]
PAIRINGS: tuple[Pairing, ...] = ("swiss", "round-robin")

WIN = 1.0
"""Points for a win (C.07 counts wins as rounds scored like a win)."""
DRAW = 0.5


# --- C.07 Art. 16: unplayed rounds in Swiss tournaments ---------------------------


class Unplayed(StrEnum):
    """The categories of unplayed rounds, C.07 Art. 16.2."""

    FULL_POINT_BYE = "16.2.1"  # pairing-allocated bye, or a full-point bye
    FORFEIT_WIN = "16.2.2"
    BYE_BEFORE_RETURN = "16.2.3"  # half/zero-point bye or absence, available later
    FORFEIT_LOSS = "16.2.4"
    BYE_AT_END = "16.2.5"  # half/zero-point bye or absence, never available again


def all_rounds(index: EventIndex, player: str) -> tuple[PlayerRound, ...]:
    """Every round of the event from ``player``'s side, in order.

    A round with no game and no bye is an absence: unplayed and scored zero,
    like a zero-point bye.
    """
    known = index.memo_of("all_rounds")
    found: tuple[PlayerRound, ...] | None = known.get(player)
    if found is None:
        found = known[player] = _all_rounds(index, player)
    return found


def _all_rounds(index: EventIndex, player: str) -> tuple[PlayerRound, ...]:
    recorded = index.rounds_of[player]
    present = {r.round for r in recorded}
    if len(present) == index.rounds:  # already in order, with no absence to add
        return recorded
    absences = [
        PlayerRound(round=n, kind=RoundKind.BYE, points=0.0, bye=ByeKind.ZERO_POINT)
        for n in range(1, index.rounds + 1)
        if n not in present
    ]
    return tuple(sorted([*recorded, *absences], key=lambda r: r.round))


def is_voluntarily_unplayed(r: PlayerRound) -> bool:
    """C.07 Art. 16.1.2: a half-point or zero-point bye, an absence, a forfeit loss."""
    if r.kind is RoundKind.FORFEIT_LOSS:
        return True
    return r.kind is RoundKind.BYE and r.bye in _SHORT_BYES


_SHORT_BYES = frozenset((ByeKind.HALF_POINT, ByeKind.ZERO_POINT))
"""Byes that score less than a win (an absence is a zero-point bye)."""


def categorise(rounds: Sequence[PlayerRound]) -> list[Unplayed | None]:
    """The Art. 16.2 category of each round, or None for a game played over the board."""
    last_available = max((r.round for r in rounds if not is_voluntarily_unplayed(r)), default=0)
    categories: list[Unplayed | None] = []
    for r in rounds:
        if r.kind is RoundKind.PLAYED:
            categories.append(None)
        elif r.kind is RoundKind.FORFEIT_WIN:
            categories.append(Unplayed.FORFEIT_WIN)
        elif r.kind is RoundKind.FORFEIT_LOSS:
            categories.append(Unplayed.FORFEIT_LOSS)
        elif not is_voluntarily_unplayed(r):
            categories.append(Unplayed.FULL_POINT_BYE)
        elif r.round < last_available:
            categories.append(Unplayed.BYE_BEFORE_RETURN)
        else:
            categories.append(Unplayed.BYE_AT_END)
    return categories


def adjusted_score(index: EventIndex, player: str) -> float:
    """C.07 Art. 16.3: ``player``'s score as their opponents' tie-breaks see it.

    Rounds of category 16.2.5 count as draws; every other round as scored.
    """
    return adjusted_scores(index)[player]


def adjusted_scores(index: EventIndex) -> dict[str, float]:
    """:func:`adjusted_score` of every participant, computed once for the index."""
    known = index.memo_of("adjusted_scores")
    found: dict[str, float] | None = known.get(None)
    if found is None:
        found = known[None] = {p: _adjusted_score(index, p) for p in index.rounds_of}
    return found


def _adjusted_score(index: EventIndex, player: str) -> float:
    rounds = all_rounds(index, player)
    draw = index.win * DRAW
    return sum(
        draw if category is Unplayed.BYE_AT_END else r.points
        for r, category in zip(rounds, categorise(rounds), strict=True)
    )


class Contribution(NamedTuple):
    """One round's part of a participant's Buchholz or Sonneborn-Berger.

    ``score`` is the opponent's score (or the dummy's), ``points`` what the
    participant scored in the round, ``voluntary`` whether the round is a VUR.
    """

    round: int
    score: float
    points: float
    voluntary: bool

    @property
    def product(self) -> float:
        return self.score * self.points


def swiss_contributions(
    index: EventIndex, player: str, edition: Edition = LATEST
) -> tuple[Contribution, ...]:
    """One contribution per round, C.07 Art. 16.3 and 16.4 of ``edition``.

    A game played over the board gives the opponent's adjusted score. An
    unplayed round gives the dummy's score: the participant's own final score;
    in the 2026 edition capped by the scheduled opponent's adjusted score for
    a forfeit (16.4.1) and by a draw times the number of rounds otherwise
    (16.4.2).
    """
    known = index.memo_of(("swiss_contributions", edition))
    found: tuple[Contribution, ...] | None = known.get(player)
    if found is None:
        found = known[player] = _swiss_contributions(
            index, player, index.scores[player], adjusted_scores(index), edition
        )
    return found


def _swiss_contributions(
    index: EventIndex,
    player: str,
    own: float,
    adjusted: Mapping[str, float],
    edition: Edition,
    played_last: bool = False,
) -> tuple[Contribution, ...]:
    capped = edition >= 2026
    cap = index.win * DRAW * index.rounds
    contributions = []
    for r in all_rounds(index, player):
        played = r.kind is RoundKind.PLAYED or (played_last and r.round == index.rounds)
        if r.opponent is not None and played:
            score = adjusted[r.opponent]
        elif not capped:
            score = own
        elif r.opponent is not None:
            score = min(own, adjusted[r.opponent])
        else:
            score = min(own, cap)
        # is_voluntarily_unplayed(r), written out: this runs for every round of everyone
        voluntary = not (played and r.opponent is not None) and (
            r.kind is RoundKind.FORFEIT_LOSS or (r.kind is RoundKind.BYE and r.bye in _SHORT_BYES)
        )
        contributions.append(Contribution(r.round, score, r.points, voluntary))
    return tuple(contributions)


def round_robin_contributions(index: EventIndex, player: str) -> tuple[Contribution, ...]:
    """C.07 Art. 15.2: every round with an opponent, forfeits included, at face value."""
    return tuple(
        Contribution(r.round, index.scores[r.opponent], r.points, False)
        for r in index.rounds_of[player]
        if r.opponent is not None
    )


# --- C.07 Art. 8.2: Fore Buchholz ---------------------------------------------------


def fore_scores(index: EventIndex) -> dict[str, float]:
    """Each participant's score with a last-round pairing scored as a draw (Art. 8.2).

    A participant paired in the last round (over the board or by forfeit) is
    taken to have drawn it; nobody else's last round changes.
    """
    known = index.memo_of("fore_scores")
    found: dict[str, float] | None = known.get(None)
    if found is None:
        found = known[None] = {
            p: index.scores[p] - _last_points(index, p)
            + (index.win * DRAW if _paired_last(index, p) else 0.0)
            for p in index.rounds_of
        }
    return found


def _paired_last(index: EventIndex, player: str) -> bool:
    rounds = index.rounds_of[player]
    return bool(rounds) and rounds[-1].round == index.rounds and rounds[-1].opponent is not None


def _last_points(index: EventIndex, player: str) -> float:
    return index.rounds_of[player][-1].points if _paired_last(index, player) else 0.0


def fore_adjusted_scores(index: EventIndex) -> dict[str, float]:
    """Art. 16.3 scores as Fore Buchholz sees them.

    A participant paired in the last round was available in it, so none of
    their earlier byes is of category 16.2.5, and the last round is a draw.
    """
    known = index.memo_of("fore_adjusted_scores")
    found: dict[str, float] | None = known.get(None)
    if found is None:
        fore = fore_scores(index)
        adjusted = adjusted_scores(index)
        found = known[None] = {
            p: fore[p] if _paired_last(index, p) else adjusted[p] for p in index.rounds_of
        }
    return found


def fore_contributions(
    index: EventIndex, player: str, edition: Edition = LATEST
) -> tuple[Contribution, ...]:
    """The contributions of Fore Buchholz (Art. 8.2): as Art. 16 gives them, with every
    last-round pairing a draw (a forfeit in it included) and the fore scores."""
    known = index.memo_of(("fore_contributions", edition))
    found: tuple[Contribution, ...] | None = known.get(player)
    if found is None:
        found = known[player] = _swiss_contributions(
            index,
            player,
            fore_scores(index)[player],
            fore_adjusted_scores(index),
            edition,
            played_last=True,
        )
    return found


# --- C.07 Art. 14: cuts and medians -------------------------------------------------


def buchholz_cut(contributions: Sequence[Contribution]) -> Contribution | None:
    """The contribution a Buchholz cut takes first: C.07 Art. 14.1 with Art. 16.5.1.

    The lowest opponent's score, unless the participant has voluntarily
    unplayed rounds: then the lowest of their contributions.
    """
    voluntary = [c for c in contributions if c.voluntary]
    pool = voluntary or list(contributions)
    return min(pool, key=lambda c: (c.score, c.round)) if pool else None


def sonneborn_berger_cut(contributions: Sequence[Contribution]) -> Contribution | None:
    """The contribution a Sonneborn-Berger cut takes first: C.07 Art. 14.1 with Art. 16.5.1.

    The least significant contribution is the one of the opponent with the
    lowest score (of those, the smallest). With voluntarily unplayed rounds,
    the smallest VUR contribution is cut instead when it is not lower.
    """
    if not contributions:
        return None
    least = min(contributions, key=lambda c: (c.score, c.product, c.round))
    voluntary = [c for c in contributions if c.voluntary]
    if voluntary:
        lowest = min(voluntary, key=lambda c: (c.product, c.round))
        if lowest.product >= least.product:
            return lowest
    return least


def highest_cut(contributions: Sequence[Contribution]) -> Contribution | None:
    """The contribution a median takes from the top: the highest opponent's score
    (of those, the largest product). No exception for unplayed rounds: Art. 16.5.1
    speaks of the least significant values only."""
    if not contributions:
        return None
    return max(contributions, key=lambda c: (c.score, c.product, -c.round))


def after_cuts(
    contributions: Sequence[Contribution],
    low: int,
    high: int,
    first_low: Callable[[Sequence[Contribution]], Contribution | None],
) -> list[Contribution]:
    """``contributions`` without the ``low`` least and the ``high`` most significant."""
    left = list(contributions)
    for _ in range(min(low, len(left))):
        cut = first_low(left)
        if cut is not None:
            left.remove(cut)
    for _ in range(min(high, len(left))):
        cut = highest_cut(left)
        if cut is not None:
            left.remove(cut)
    return left


# --- C.07 Art. 7: the participant's own results (Type B) --------------------------


def _count(value: Value, one: str, many: str) -> str:
    assert not isinstance(value, tuple)
    return f"{number(value)} {one if value == 1 else many}"


class Wins(Criterion):
    """WIN, C.07 Art. 7.1: the number of rounds in which the participant scored
    as many points as a win, with or without playing (forfeit wins and
    pairing-allocated or full-point byes count)."""

    key = "win"
    title = "wins, with or without playing"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        return each_once(
            index,
            self,
            group,
            lambda p: float(sum(1 for r in index.rounds_of[p] if r.points == WIN)),
        )

    def phrase(self, value: Value) -> str:
        return _count(value, "win", "wins")


class GamesWon(gct.GamesWonOverTheBoard):
    """WON, C.07 Art. 7.2: the number of games won over the board.

    Swiss: forfeit wins and byes do not count. Round robin (Art. 15.2): a
    forfeit win is a regular game and counts.
    """

    key = "won"
    title = "games won"

    def __init__(self, pairing: Pairing = "swiss") -> None:
        self.pairing = pairing

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        if self.pairing == "swiss":
            return super().evaluate(index, group)
        return each_once(
            index,
            self,
            group,
            lambda p: float(
                sum(1 for r in index.rounds_of[p] if _game(r, self.pairing) and r.points == WIN)
            ),
        )

    def phrase(self, value: Value) -> str:
        return _count(value, "game won", "games won")


def _game(r: PlayerRound, pairing: Pairing) -> bool:
    """A game for the Type B criteria: played, or (Art. 15.2) a forfeit win in a round robin."""
    if r.kind is RoundKind.PLAYED:
        return True
    return pairing == "round-robin" and r.kind is RoundKind.FORFEIT_WIN


class GamesWithBlack(Criterion):
    """BPG, C.07 Art. 7.3: the number of games played with Black.

    Unplayed games are excluded: forfeits and byes. Round robin (Art. 15.2):
    a forfeit win with Black counts, a forfeit loss does not.
    """

    key = "games_with_black"
    title = "games played with Black"

    def __init__(self, pairing: Pairing = "swiss") -> None:
        self.pairing = pairing

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        return each_once(
            index,
            self,
            group,
            lambda p: float(
                sum(
                    1
                    for r in index.rounds_of[p]
                    if r.colour is Colour.BLACK and _game(r, self.pairing)
                )
            ),
        )

    def phrase(self, value: Value) -> str:
        return _count(value, "game with Black", "games with Black")


class WinsWithBlack(Criterion):
    """BWG, C.07 Art. 7.4: the number of games won with Black.

    Over the board only; round robin (Art. 15.2): a forfeit win with Black counts.
    """

    key = "wins_with_black"
    title = "games won with Black"

    def __init__(self, pairing: Pairing = "swiss") -> None:
        self.pairing = pairing

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        return each_once(
            index,
            self,
            group,
            lambda p: float(
                sum(
                    1
                    for r in index.rounds_of[p]
                    if r.colour is Colour.BLACK and _game(r, self.pairing) and r.points == WIN
                )
            ),
        )

    def phrase(self, value: Value) -> str:
        return _count(value, "win with Black", "wins with Black")


class ProgressiveScore(Criterion):
    """PS, C.07 Art. 7.5: the sum of the participant's running scores after each round.

    Every round counts as scored, played or not. With a cut (Art. 14.1, PS-Cn)
    the running scores of the first n rounds are left out.
    """

    def __init__(self, cut: int = 0) -> None:
        self.cut = cut
        self.key = f"progressive_score_cut{cut}" if cut else "progressive_score"
        self.title = f"progressive score cut {cut}" if cut else "progressive score"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        return each_once(index, self, group, lambda p: self._value(index, p))

    def _value(self, index: EventIndex, player: str) -> float:
        points = dict.fromkeys(range(1, index.rounds + 1), 0.0)
        for r in index.rounds_of[player]:
            points[r.round] += r.points
        total = running = 0.0
        for number_ in range(1, index.rounds + 1):
            running += points[number_]
            if number_ > self.cut:
                total += running
        return total


class RoundsElectedToPlay(Criterion):
    """REP (GE in the 2024 edition), C.07 Art. 7.6: the rounds the participant
    elected to play: games played over the board, and the rounds they were
    ready to play but scored a win without playing (a forfeit win, a
    pairing-allocated or full-point bye)."""

    key = "rounds_elected_to_play"
    title = "rounds elected to play"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        return each_once(
            index,
            self,
            group,
            lambda p: float(
                sum(1 for r in index.rounds_of[p] if r.kind is RoundKind.PLAYED or r.points == WIN)
            ),
        )

    def phrase(self, value: Value) -> str:
        return _count(value, "round", "rounds")


class FewestUnplayed(Criterion):
    """VUR, C.07 Art. 16.1.2: the number of voluntarily unplayed rounds (half-point
    and zero-point byes, absences, forfeit losses); fewer is better, so the
    value ordered on is the count taken negatively and shown as the count."""

    key = "voluntarily_unplayed_rounds"
    title = "voluntarily unplayed rounds"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        return each_once(
            index,
            self,
            group,
            lambda p: -float(sum(1 for r in all_rounds(index, p) if is_voluntarily_unplayed(r))),
        )

    def phrase(self, value: Value) -> str:
        assert not isinstance(value, tuple)
        return _count(-value + 0.0, "unplayed round", "unplayed rounds")

    def bare(self, value: Value) -> str:
        assert not isinstance(value, tuple)
        return number(-value + 0.0)

    def to_json(self, value: Value) -> object:
        assert not isinstance(value, tuple)
        return int(-value)


class StandardPoints(Criterion):
    """STD (2026 edition): the score with each round counted 1 for more than a draw,
    ½ for a draw and 0 for less, whatever the event's own scoring."""

    key = "standard_points"
    title = "standard points"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        return each_once(
            index,
            self,
            group,
            lambda p: sum(
                WIN if r.points > DRAW else DRAW if r.points == DRAW else 0.0
                for r in index.rounds_of[p]
            ),
        )


class PairingNumber(Criterion):
    """TPN, C.07 Art. 5 (the last resort before lots): the tournament pairing
    number; the lower is better, so it is ordered on taken negatively."""

    key = "pairing_number"
    title = "pairing number"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        position = {p: n for n, p in enumerate(index.order, start=1)}
        return {p: -float(_pairing_number(p, position[p])) for p in group}

    def phrase(self, value: Value) -> str:
        assert not isinstance(value, tuple)
        return f"number {number(-value + 0.0)}"

    def bare(self, value: Value) -> str:
        assert not isinstance(value, tuple)
        return number(-value + 0.0)

    def to_json(self, value: Value) -> object:
        assert not isinstance(value, tuple)
        return int(-value)


def _pairing_number(player: str, position: int) -> int:
    """A TRF's starting rank is the player's id; any other event numbers in listed order."""
    return int(player) if player.isdigit() else position


# --- C.07 Art. 8 and 9: opponents' scores (Types B and C) -------------------------


class OpponentsScores(Criterion):
    """The Buchholz and Sonneborn-Berger families, with their modifiers.

    ``cut`` least significant values are left out (C.07 Art. 14.1, Cut-n), and
    ``top`` most significant ones too (a median, Art. 14.2, Median-n: both cut
    by n). In a Swiss, Art. 16 gives every round a contribution (an opponent's
    adjusted score, or a dummy's), and a cut takes a voluntarily unplayed
    round first (Art. 16.5.1); the edition chooses the dummy (Art. 16.4). In a
    round robin (Art. 15.2) every round with an opponent counts as played and
    a round without one adds nothing.
    """

    sonneborn = False
    fore = False
    family = ""
    family_key = ""

    def __init__(
        self,
        pairing: Pairing = "swiss",
        edition: Edition | None = None,
        cut: int = 0,
        top: int = 0,
    ) -> None:
        self.pairing = pairing
        self.edition = edition
        self.cut = cut
        self.top = top
        self.key, self.title = _modified(self.family_key, self.family, cut, top)

    def contributions(self, index: EventIndex, player: str) -> tuple[Contribution, ...]:
        if self.pairing == "round-robin":
            if self.fore:
                fore = fore_scores(index)
                return tuple(
                    Contribution(c.round, fore[o], c.points, False)
                    for c, o in zip(
                        round_robin_contributions(index, player),
                        (r.opponent for r in index.rounds_of[player] if r.opponent is not None),
                        strict=True,
                    )
                )
            return round_robin_contributions(index, player)
        edition = applied_edition(self.edition, index.start_date)
        if self.fore:
            return fore_contributions(index, player, edition)
        return swiss_contributions(index, player, edition)

    def value(self, index: EventIndex, player: str) -> float:
        contributions = self.contributions(index, player)
        if self.cut or self.top:
            first_low = sonneborn_berger_cut if self.sonneborn else buchholz_cut
            contributions = tuple(after_cuts(contributions, self.cut, self.top, first_low))
        if self.sonneborn:
            return sum(c.product for c in contributions)
        return sum(c.score for c in contributions)

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        return each_once(index, self, group, lambda p: self.value(index, p))


def _modified(key: str, title: str, cut: int, top: int) -> tuple[str, str]:
    """The JSON key and the trace's title of a criterion with its modifier."""
    if cut and cut == top:
        return f"{key}_median{cut}", f"{title} median {cut}"
    if cut and top:
        return f"{key}_cut{cut}_top{top}", f"{title} cut {cut} low and {top} high"
    if cut:
        return f"{key}_cut{cut}", f"{title} cut {cut}"
    return key, title


class Buchholz(OpponentsScores):
    """BH, C.07 Art. 8.1: the sum of the scores of the participant's opponents.

    With Art. 16: opponents' adjusted scores (16.3), and one dummy per own
    unplayed round (16.4). Art. 8 note (2026): Buchholz must not be used in
    round robins.
    """

    family = "Buchholz"
    family_key = "buchholz"


class BuchholzCut1(Buchholz):
    """BH-C1, C.07 Art. 14.1: Buchholz without its least significant value.

    The lowest opponent's score is cut, except that with voluntarily unplayed
    rounds the lowest VUR contribution is cut instead (Art. 16.5.1).
    """

    def __init__(self, pairing: Pairing = "swiss", edition: Edition | None = None) -> None:
        super().__init__(pairing, edition, cut=1)


class ForeBuchholz(OpponentsScores):
    """FB, C.07 Art. 8.2: Buchholz as if every game of the last round were drawn.

    Every participant paired in the last round, over the board or by forfeit,
    is taken to have drawn it, for their own score and as an opponent; it lets
    the tie-breaks be known before the last round ends.
    """

    fore = True
    family = "Fore Buchholz"
    family_key = "fore_buchholz"


class SonnebornBerger(OpponentsScores):
    """SB, C.07 Art. 9.1: the sum, over the rounds, of the opponent's score
    times the points the participant scored against them.

    Swiss: Art. 16 applies (adjusted opponents' scores, a dummy for each own
    unplayed round, times the points awarded). Round robin (Art. 15.2):
    forfeits count as games, a round without an opponent adds nothing.
    """

    sonneborn = True
    family = "Sonneborn-Berger"
    family_key = "sonneborn_berger"


class SonnebornBergerCut1(SonnebornBerger):
    """SB-C1, C.07 Art. 14.1: Sonneborn-Berger without the contribution of
    the opponent with the lowest score; with voluntarily unplayed rounds, the
    higher of that and the lowest VUR contribution is cut (Art. 16.5.1)."""

    def __init__(self, pairing: Pairing = "swiss", edition: Edition | None = None) -> None:
        super().__init__(pairing, edition, cut=1)


class AverageOfOpponentsBuchholz(Criterion):
    """AOB, C.07 Art. 8.3: the average of the Buchholz of the participant's opponents.

    The opponents are those met over the board; each one's Buchholz is the
    plain BH of Art. 8.1 (with Art. 16 in a Swiss). The average is rounded to
    two decimals, half up. With no such opponent the value is 0.
    """

    key = "average_opponents_buchholz"
    title = "average of opponents' Buchholz"

    def __init__(self, pairing: Pairing = "swiss", edition: Edition | None = None) -> None:
        self.pairing = pairing
        self.buchholz = Buchholz(pairing, edition)

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        return each_once(index, self, group, lambda p: self._value(index, p))

    def _value(self, index: EventIndex, player: str) -> float:
        opponents = [
            r.opponent
            for r in index.rounds_of[player]
            if r.opponent is not None and r.kind is RoundKind.PLAYED
        ]
        if not opponents:
            return 0.0
        average = sum(self.buchholz.value(index, o) for o in opponents) / len(opponents)
        # Two decimals, half up: finer differences are noise, not merit.
        return int(average * 100 + 0.5 + 1e-9) / 100

    def phrase(self, value: Value) -> str:
        assert not isinstance(value, tuple)
        return number(round(value, 2))


class Koya(Criterion):
    """KS, C.07 Art. 9.2: the points scored against the participants who finished
    with 50% or more of the maximum possible score; with a limit (Art. 14, KS-Ln),
    n% or more instead.

    The maximum possible score is a win per round; in a round robin, a win per
    scheduled game (an odd round robin gives everyone a round off). Forfeits
    count as scored.
    """

    def __init__(self, pairing: Pairing = "swiss", percent: int = 50) -> None:
        self.pairing = pairing
        self.percent = percent
        if percent == 50:
            self.key, self.title = "koya", "Koya (points against players on 50% or more)"
        else:
            self.key = f"koya_limit{percent}"
            self.title = f"Koya (points against players on {percent}% or more)"

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        known = index.memo_of("koya_opponents")
        strong: frozenset[str] | None = known.get((self.pairing, self.percent))
        if strong is None:
            limit = maximum_score(index, self.pairing) * self.percent / 100
            strong = known[(self.pairing, self.percent)] = frozenset(
                p for p, s in index.scores.items() if s >= limit
            )
        opponents = strong
        return each_once(index, self, group, lambda p: index.points_between(p, opponents))


def maximum_score(index: EventIndex, pairing: Pairing) -> float:
    """The most a participant could score: a win per round, or per scheduled game."""
    if pairing == "round-robin":
        games = max(
            (sum(1 for r in rs if r.opponent is not None) for rs in index.rounds_of.values()),
            default=0,
        )
        if games:
            return WIN * games
    return WIN * index.rounds


# --- C.07 Art. 6: direct encounter (Type A) ---------------------------------------


class DirectEncounter(gct.DirectEncounter):
    """DE, C.07 Art. 6: the results between the tied participants.

    Art. 6.1: the points each scored against the others of the group. 6.1.1:
    in a Swiss, a forfeited game is not an encounter; in a round robin it is
    (Art. 15.2). 6.1.2: when two participants met more than once, the average
    of their results counts. Art. 6.2: when all have met, the totals rank
    them, and a subgroup left level is ranked again among itself. Art. 6.3:
    when they have not all met, a participant is ranked first only if nobody
    else could reach their total even by winning every game they did not play
    within the group; "the same applies to the second rank", so the second,
    third... are placed in the same way while each place is certain. Only then
    is the criterion applied again to the participants left unplaced; when no
    place is certain, it is not applied.
    """

    def __init__(self, pairing: Pairing = "swiss", win: float = WIN) -> None:
        self.pairing = pairing
        # What a game not played could still have given: a win's points (2 match
        # points, or every board's game point, between teams).
        self.win = win

    def win_of(self, index: EventIndex) -> float:
        """The points a game not played could have given, in ``index``'s event."""
        return self.win

    def encounters(
        self, index: EventIndex, player: str, opponents: frozenset[str]
    ) -> dict[str, list[float]]:
        """The points ``player`` scored against each of ``opponents`` they met."""
        found: dict[str, list[float]] = {}
        for r in index.rounds_of[player]:
            if r.opponent is None or r.opponent not in opponents:
                continue
            if r.kind is RoundKind.PLAYED or self.pairing == "round-robin":
                found.setdefault(r.opponent, []).append(r.points)
        return found

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        return self.totals(index, group)

    def totals(self, index: EventIndex, group: Sequence[str]) -> dict[str, float]:
        """Each player's points against the rest of ``group`` (Art. 6.1, 6.1.2)."""
        members = frozenset(group)
        return {
            p: sum(sum(s) / len(s) for s in self.encounters(index, p, members - {p}).values())
            for p in group
        }

    def split(self, index: EventIndex, group: Sequence[str]) -> Split:
        members = frozenset(group)
        met = {p: set(self.encounters(index, p, members - {p})) for p in group}
        values = self.totals(index, group)
        unmet = [(a, b) for i, a in enumerate(group) for b in group[i + 1 :] if b not in met[a]]
        if not unmet:
            return split_by_value(values, group)
        names = {p: short_name(index.name(p)) for p in group}
        win = self.win_of(index)
        best = {q: values[q] + win * sum(1 for pair in unmet if q in pair) for q in group}
        leaders = gct.certain_order(group, values, best)
        forfeited = [(a, b) for a, b in unmet if self._forfeited(index, a, b)]
        missing = join(
            [
                f"{names[a]}-{names[b]}" + (" (only a forfeit)" if (a, b) in forfeited else "")
                for a, b in unmet
            ]
        )
        how = " over the board" if self.pairing == "swiss" else ""
        opening = f"Not all of them met{how}: {missing} did not play"
        if forfeited:
            opening += "; a forfeit is not an encounter (FIDE C.07 Art. 6.1.1)"
        if leaders:
            return Split(
                values=values,
                groups=gct.ranked_first(group, leaders),
                note=f"{opening}; {gct.ahead_of_the_rest([names[p] for p in leaders])} "
                "(FIDE C.07 Art. 6.3).",
            )
        return Split(
            values=values,
            groups=(tuple(group),),
            note=f"{opening}, so this criterion is not applied (FIDE C.07 Art. 6.3).",
        )

    @staticmethod
    def _forfeited(index: EventIndex, a: str, b: str) -> bool:
        """Whether ``a`` and ``b`` were paired in a game decided by forfeit."""
        return any(r.opponent == b and r.kind is not RoundKind.PLAYED for r in index.rounds_of[a])
