"""Final places, prize money and tour points (GCT 2015 reg. 1).

Reg. 1: first prize money is never divided: it goes to the winner of the
play-off. Every other tie on score, including the losers of a play-off, divides
equally the money of the places it covers. Tour points are not divided: the
play-off decides first, the mathematical tiebreaks decide the other places, and
points are shared only between players still tied after reg. 4 (d), as
reg. 4 (e) says.

Money is computed exactly (fractions) and rounded to the cent only when shown.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from enum import StrEnum
from fractions import Fraction
from itertools import groupby
from typing import Any

from playoff_formats.errors import PlayoffError
from playoff_formats.phrase import and_list
from playoff_formats.playoff import Playoff, champion
from playoff_formats.speech import marked, tr
from playoff_formats.standings import Standings


class PlaceBasis(StrEnum):
    """Where a final place comes from (GCT 2015 reg. 2: the play-off decides first
    place only; every other place comes from the main event's tiebreaks)."""

    PLAYOFF_WINNER = "play-off-winner"
    PLAYOFF_LOSER = "play-off-loser"
    STANDINGS = "standings"

    @property
    def words(self) -> str:
        return tr(_BASIS_WORDS[self])

    @property
    def short(self) -> str:
        """One word for a column of the final placings."""
        return tr(_BASIS_SHORT[self])


_BASIS_WORDS = {
    PlaceBasis.PLAYOFF_WINNER: marked("won the play-off"),
    PlaceBasis.PLAYOFF_LOSER: marked(
        "place by the main event's tiebreaks: the play-off decides first place only (reg. 2)"
    ),
    PlaceBasis.STANDINGS: marked("place by the main event's standings"),
}

_BASIS_SHORT = {
    PlaceBasis.PLAYOFF_WINNER: marked("play-off"),
    PlaceBasis.PLAYOFF_LOSER: marked("tiebreaks"),
    PlaceBasis.STANDINGS: marked("standings"),
}

PLACES_NOTE = marked(
    "The play-off decides first place only; the other places come from the main "
    "event's tiebreaks (reg. 2)."
)
"""Where the final places come from, said once beside them."""


@dataclass(frozen=True)
class Award:
    """What one player receives. ``None`` means: not known until the play-off ends."""

    id: str
    name: str
    score: float
    place: int | None
    money: Fraction | None
    points: Fraction | None
    basis: PlaceBasis = PlaceBasis.STANDINGS

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "name": self.name,
            "score": self.score,
            "place": self.place,
            "money": _cents(self.money),
            "points": _plain(self.points),
            "basis": self.basis.value,
            "basis_text": self.basis.words,
            "basis_short": self.basis.short,
        }


@dataclass(frozen=True)
class Awards:
    """Every player's award, in final order, and what still waits for the play-off."""

    players: tuple[Award, ...]
    awaiting_playoff: tuple[str, ...]
    pending_first_prize: Fraction | None
    pending_each_loser: Fraction | None
    notes: tuple[str, ...]

    def award(self, player_id: str) -> Award:
        for award in self.players:
            if award.id == player_id:
                return award
        raise KeyError(player_id)

    def to_json(self) -> dict[str, Any]:
        data: dict[str, Any] = {"players": [a.to_json() for a in self.players]}
        data["awaiting_playoff"] = list(self.awaiting_playoff)
        if self.awaiting_playoff:
            data["pending"] = {
                "first_prize": _cents(self.pending_first_prize),
                "each_playoff_loser": _cents(self.pending_each_loser),
            }
        data["notes"] = list(self.notes)
        return data


def _cents(value: Fraction | None) -> float | None:
    return None if value is None else round(float(value), 2)


def _plain(value: Fraction | None) -> float | int | None:
    if value is None:
        return None
    return int(value) if value.denominator == 1 else round(float(value), 4)


def _at(amounts: Sequence[Fraction], start: int, count: int) -> Fraction:
    """The sum of the amounts for places ``start`` .. ``start + count - 1`` (1-based)."""
    return sum(amounts[start - 1 : start - 1 + count], Fraction(0))


def player_named(standings: Standings, who: str) -> str:
    """The player ``who`` names: an id, or a name or part of one that only one player's
    name holds ("Sindarov", "sindarov, j"), case aside."""
    rows = standings.rows
    if any(r.id == who for r in rows):
        return who
    wanted = " ".join(who.casefold().split())
    found = [r for r in rows if wanted and wanted in " ".join(r.name.casefold().split())]
    if len(found) == 1:
        return found[0].id
    if not found:
        raise PlayoffError(f"no player of the event is called {who!r}")
    raise PlayoffError(
        f"{who!r} could be " + and_list([r.name for r in found]) + ": give more of the name"
    )


def award_prizes(
    standings: Standings,
    prizes: Sequence[Fraction | int | float | str],
    tour_points: Sequence[Fraction | int | float | str] = (),
    playoff_winner: str | None = None,
) -> Awards:
    """Divide prize money and tour points after a tiebreak and, if any, a play-off.

    ``prizes`` and ``tour_points`` are by place, first place first; places past
    the end of either list get nothing. Without ``playoff_winner``, a tie for
    first is reported as awaiting its play-off: no first prize is given and the
    play-off players' money and points are left open.
    """
    money = [Fraction(str(p)) for p in prizes]
    points = [Fraction(str(p)) for p in tour_points]
    playoff = standings.playoff
    names = {r.id: r.name for r in standings.rows}
    if playoff_winner is not None and playoff_winner not in playoff:
        if not playoff:
            raise PlayoffError("there is no play-off: nobody is tied for first place")
        raise PlayoffError(
            f"{names.get(playoff_winner, playoff_winner)} is not in the play-off; the "
            "play-off players are " + and_list([names.get(p, p) for p in playoff])
        )
    awaiting = frozenset(playoff) if playoff and playoff_winner is None else frozenset()
    notes: list[str] = []

    # Money: by ties on score, places in crosstable order.
    money_of: dict[str, Fraction | None] = {}
    place = 1
    rows = standings.rows
    for _score, members in groupby(rows, key=lambda r: r.score):
        group = [r.id for r in members]
        if playoff and group[0] in playoff:
            losers = len(group) - 1
            each = _at(money, place + 1, losers) / losers
            for p in group:
                if p in awaiting:
                    money_of[p] = None
                else:
                    money_of[p] = _at(money, 1, 1) if p == playoff_winner else each
        else:
            share = _at(money, place, len(group)) / len(group)
            for p in group:
                money_of[p] = share
            if len(group) > 1 and share:
                notes.append(
                    f"Places {place}-{place + len(group) - 1} are shared on score: "
                    f"{len(group)} players receive {_cents(share)} each (reg. 1)."
                )
        place += len(group)

    # Final places and tour points: play-off for first, tiebreaks for the rest.
    groups = [list(g) for g in standings.groups]
    if playoff_winner is not None:
        groups = [[playoff_winner]] + [
            [p for p in g if p != playoff_winner] for g in groups if g != [playoff_winner]
        ]
        groups = [g for g in groups if g]
    place_of: dict[str, int | None] = {}
    points_of: dict[str, Fraction | None] = {}
    place = 1
    for group in groups:
        share = _at(points, place, len(group)) / len(group)
        for p in group:
            if p in awaiting:
                place_of[p] = None
                points_of[p] = None
            else:
                place_of[p] = place
                points_of[p] = share
        if len(group) > 1 and not awaiting.intersection(group) and points:
            notes.append(
                f"Places {place}-{place + len(group) - 1} stay tied after reg. 4 (d): "
                "the tour points of those places are shared (reg. 4 (e))."
            )
        place += len(group)

    pending_first = pending_loser = None
    if awaiting:
        pending_first = _at(money, 1, 1)
        pending_loser = _at(money, 2, len(playoff) - 1) / (len(playoff) - 1)
        notes.append(
            f"Awaiting the play-off between {and_list([names.get(p, p) for p in playoff])}: the "
            "winner receives the "
            f"undivided first prize of {_cents(pending_first)}, each loser "
            f"{_cents(pending_loser)}."
        )
    order = [p for g in groups for p in g]
    by_id = {r.id: r for r in rows}
    awards = tuple(
        Award(
            id=p,
            name=by_id[p].name,
            score=by_id[p].score,
            place=place_of[p],
            money=money_of[p],
            points=points_of[p],
            basis=(
                PlaceBasis.PLAYOFF_WINNER if p == playoff_winner
                else PlaceBasis.PLAYOFF_LOSER if playoff_winner is not None and p in playoff
                else PlaceBasis.STANDINGS
            ),
        )
        for p in order
    )
    return Awards(
        players=awards,
        awaiting_playoff=tuple(playoff) if awaiting else (),
        pending_first_prize=pending_first,
        pending_each_loser=pending_loser,
        notes=tuple(notes),
    )


def final_placings(
    standings: Standings,
    playoff: Playoff | None,
    prizes: Sequence[Fraction | int | float | str],
    tour_points: Sequence[Fraction | int | float | str] = (),
) -> Awards:
    """Places, prize money and tour points once the play-off (if any) is played.

    The play-off decides first place only (GCT 2015 reg. 2); its losers keep their
    tiebreak order for places and points and share the money of places 2 to k
    (reg. 1). While the play-off has no champion, the play-off players' awards stay
    open, as :func:`award_prizes` reports them.
    """
    if playoff is None:
        return award_prizes(standings, prizes, tour_points)
    players = {p.id for p in playoff.participants}
    if players != set(standings.playoff):
        raise PlayoffError(
            "the play-off's players are not the players the standings send to a play-off"
        )
    return award_prizes(standings, prizes, tour_points, playoff_winner=champion(playoff))
