"""Rating-based tie-breaks, FIDE C.07 Art. 10: ARO, TPR, PTP, APRO, APPO, and RTNG.

They read the ratings the event gives (a TRF's rating column). C.07 requires
them to be dropped when unrated participants are present, unless the
regulation says what rating an unrated participant counts with: that is the
regulation's ``unrated_rating`` setting. Without it, a criterion of this kind
is not applied to an event with an unrated participant, and the trace says so.

The conversion between a fractional score and a rating difference is table
8.1(a) of the FIDE Rating Regulations (B.02), which C.07 refers to, and the
expected score for a rating difference is its table 8.1(b).
"""

from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from functools import cache

from playoff_formats.tiebreaks.core import Criterion, Split, Value, each_once
from playoff_formats.tiebreaks.fide import Pairing
from playoff_formats.tiebreaks.index import EventIndex, RoundKind
from playoff_formats.tiebreaks.words import join, number, short_name

DROPPED = float("-inf")
"""The value of a rating-based criterion that cannot be applied: below every rating."""

_DP_OF_PERCENT = (
    0, 7, 14, 21, 29, 36, 43, 50, 57, 65, 72, 80, 87, 95, 102, 110, 117, 125, 133, 141,
    149, 158, 166, 175, 184, 193, 202, 211, 220, 230, 240, 251, 262, 273, 284, 296, 309,
    322, 336, 351, 366, 383, 401, 422, 444, 470, 501, 538, 589, 677, 800,
)
"""FIDE B.02 table 8.1(a): the rating difference dp for a score of 50%, 51%... 100%."""


def dp(percent: int) -> int:
    """The rating difference of a fractional score in whole percent (0-100)."""
    return _DP_OF_PERCENT[percent - 50] if percent >= 50 else -_DP_OF_PERCENT[50 - percent]


_FIRST_DIFFERENCE = (
    0, 4, 11, 18, 26, 33, 40, 47, 54, 62, 69, 77, 84, 92, 99, 107, 114, 122, 130, 138, 146,
    154, 163, 171, 180, 189, 198, 207, 216, 226, 236, 246, 257, 268, 279, 291, 303, 316, 329,
    345, 358, 375, 392, 412, 433, 457, 485, 518, 560, 620, 736,
)
"""FIDE B.02 table 8.1(b): the smallest rating difference at which the higher-rated
player's expected score is 50%, 51%... 100%."""


@cache
def expected_percent(difference: int) -> int:
    """The expected score, in percent, of a player rated ``difference`` above the opponent.

    Table 8.1(b), read from its printed ranges (it is not the exact inverse of 8.1(a)).
    """
    if difference < 0:
        return 100 - expected_percent(-difference)
    return 50 + bisect_right(_FIRST_DIFFERENCE, difference) - 1


def _half_up(value: float) -> int:
    return int(value + 0.5 + 1e-9) if value >= 0 else -int(-value + 0.5 - 1e-9)


def average_rating(ratings: Sequence[int]) -> int | None:
    """C.07 Art. 10.1: the average, rounded to the nearest whole number (half up)."""
    if not ratings:
        return None
    return _half_up(sum(ratings) / len(ratings))


def performance(score: float, ratings: Sequence[int]) -> int | None:
    """C.07 Art. 10.2: the average rating of the opponents plus dp of the fraction scored.

    The fraction is rounded to whole percent, half up.
    """
    if not ratings:
        return None
    average = average_rating(ratings)
    assert average is not None
    return average + dp(_half_up(100 * score / len(ratings)))


def perfect_performance(score: float, ratings: Sequence[int]) -> int | None:
    """C.07 Art. 10.3: the lowest rating whose expected score against the opponents is
    at least the score made. A zero score, which any rating reaches, gives the lowest
    opponent's rating less 800; a perfect score needs a rating from which table
    8.1(b) expects a win against the strongest opponent."""
    if not ratings:
        return None
    if score <= 0:
        return min(ratings) - 800
    target = round(100 * score)
    low, high = min(ratings) - 800, max(ratings) + 800
    while high - low > 1:  # invariant: low falls short, high reaches the score
        middle = (low + high) // 2
        if _expected(middle, ratings) >= target:
            high = middle
        else:
            low = middle
    return high


def _expected(rating: int, opponents: Sequence[int]) -> int:
    return sum(expected_percent(max(-800, min(800, rating - o))) for o in opponents)


class RatingBased(Criterion):
    """What the rating-based criteria share: the opponents met and their ratings.

    Only games played over the board count (forfeits are unplayed; in a round
    robin too, since a rating describes a game that was played).
    ``unrated_rating`` is the regulation's rating for an unrated participant.
    """

    def __init__(
        self,
        pairing: Pairing = "swiss",
        unrated_rating: int | None = None,
        cut: int = 0,
        top: int = 0,
    ) -> None:
        self.pairing = pairing
        self.unrated_rating = unrated_rating
        self.cut = cut
        self.top = top

    def rating(self, index: EventIndex, player: str) -> int | None:
        found = index.ratings.get(player)
        return found if found is not None else self.unrated_rating

    def unrated(self, index: EventIndex) -> list[str]:
        """The participants without a rating to count with."""
        return [p for p in index.order if self.rating(index, p) is None]

    def games(self, index: EventIndex, player: str) -> tuple[float, list[int]]:
        """Points scored in played games, and the opponents' ratings, after the cuts."""
        met = [
            (r.points, self.rating(index, r.opponent))
            for r in index.rounds_of[player]
            if r.opponent is not None and r.kind is RoundKind.PLAYED
        ]
        rated = sorted((rating, points) for points, rating in met if rating is not None)
        if self.cut or self.top:
            cut = min(self.cut, len(rated))
            rated = rated[cut:]
            rated = rated[: max(0, len(rated) - self.top)]
        return sum(p for _, p in rated), [r for r, _ in rated]

    def measure(self, index: EventIndex, player: str) -> int | None:
        raise NotImplementedError

    def evaluate(self, index: EventIndex, group: Sequence[str]) -> Mapping[str, Value]:
        if self.unrated(index):
            return dict.fromkeys(group, DROPPED)

        def value(p: str) -> float:
            found = self.measure(index, p)
            return DROPPED if found is None else float(found)

        return each_once(index, self, group, value)

    def split(self, index: EventIndex, group: Sequence[str]) -> Split:
        missing = self.unrated(index)
        if not missing:
            return super().split(index, group)
        names = join([short_name(index.name(p)) for p in missing[:3]])
        more = f" and {len(missing) - 3} more" if len(missing) > 3 else ""
        return Split(
            values=dict.fromkeys(group, DROPPED),
            groups=(tuple(group),),
            note=(
                f"{names}{more} {'is' if len(missing) == 1 else 'are'} unrated and the "
                "regulation gives no rating for unrated players, so this criterion is "
                "dropped (FIDE C.07 Art. 10)."
            ),
        )

    def phrase(self, value: Value) -> str:
        assert not isinstance(value, tuple)
        return "none" if value == DROPPED else number(value)

    def to_json(self, value: Value) -> object:
        if value == DROPPED:
            return None
        return super().to_json(value)


def _with_cut(key: str, title: str, cut: int, top: int) -> tuple[str, str]:
    if cut and cut == top:
        return f"{key}_median{cut}", f"{title} median {cut}"
    if cut:
        return f"{key}_cut{cut}", f"{title} cut {cut}"
    return key, title


class AverageRatingOfOpponents(RatingBased):
    """ARO, C.07 Art. 10.1: the average rating of the opponents met over the board,
    rounded to a whole number; with a cut or a median (Art. 14), the lowest (and
    highest) rated opponents are left out."""

    def __init__(
        self,
        pairing: Pairing = "swiss",
        unrated_rating: int | None = None,
        cut: int = 0,
        top: int = 0,
    ) -> None:
        super().__init__(pairing, unrated_rating, cut, top)
        self.key, self.title = _with_cut(
            "average_rating_of_opponents", "average rating of opponents", cut, top
        )

    def measure(self, index: EventIndex, player: str) -> int | None:
        return average_rating(self.games(index, player)[1])


class TournamentPerformanceRating(RatingBased):
    """TPR, C.07 Art. 10.2: the average rating of the opponents plus the rating
    difference (B.02 table 8.1(a)) of the fraction of the points scored against them."""

    key = "performance_rating"
    title = "tournament performance rating"

    def measure(self, index: EventIndex, player: str) -> int | None:
        return performance(*self.games(index, player))


class PerfectTournamentPerformance(RatingBased):
    """PTP, C.07 Art. 10.3: the lowest rating with which the expected score against
    the opponents met (B.02 table 8.1(b)) reaches the points scored against them."""

    key = "perfect_performance"
    title = "perfect tournament performance"

    def measure(self, index: EventIndex, player: str) -> int | None:
        return perfect_performance(*self.games(index, player))


class AverageOfOpponents(RatingBased):
    """The average, over the opponents met over the board, of a rating measure of theirs."""

    of: type[RatingBased] = TournamentPerformanceRating

    def measure(self, index: EventIndex, player: str) -> int | None:
        inner = self.of(self.pairing, self.unrated_rating)
        found = [
            inner.measure(index, r.opponent)
            for r in index.rounds_of[player]
            if r.opponent is not None and r.kind is RoundKind.PLAYED
        ]
        values = [v for v in found if v is not None]
        return average_rating(values)


class AveragePerformanceOfOpponents(AverageOfOpponents):
    """APRO, C.07 Art. 10.4: the average of the tournament performance ratings
    (Art. 10.2) of the opponents met over the board, rounded to a whole number."""

    key = "average_performance_of_opponents"
    title = "average performance rating of opponents"
    of = TournamentPerformanceRating


class AveragePerfectPerformanceOfOpponents(AverageOfOpponents):
    """APPO, C.07 Art. 10.5: the average of the perfect tournament performances
    (Art. 10.3) of the opponents met over the board, rounded to a whole number."""

    key = "average_perfect_performance_of_opponents"
    title = "average perfect performance of opponents"
    of = PerfectTournamentPerformance


class Rating(RatingBased):
    """RTNG: the participant's own rating (the unrated rating for an unrated one)."""

    key = "rating"
    title = "rating"

    def measure(self, index: EventIndex, player: str) -> int | None:
        return self.rating(index, player)
