"""Standings: the final order of an event and the explanation of every tie split."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from itertools import groupby
from typing import Any, TypeVar

from playoff_formats.tiebreaks.core import Step

S = TypeVar("S", bound=Hashable)


def split_ties(
    order: Sequence[str],
    score: Callable[[str], S],
    resolve: Callable[[tuple[str, ...], S, int], Sequence[tuple[str, ...]]],
) -> list[tuple[str, ...]]:
    """The final order as groups still tied (a group of one is placed).

    ``order`` is sorted by ``score``, best first; each run of equal scores of more
    than one is handed to ``resolve`` with its score and the first place it covers,
    which returns it split into groups, best first.
    """
    groups: list[tuple[str, ...]] = []
    place = 1
    for value, members in groupby(order, key=score):
        tied = tuple(members)
        groups.extend(resolve(tied, value, place) if len(tied) > 1 else [tied])
        place += len(tied)
    return groups


@dataclass(frozen=True)
class StandingRow:
    """One line of the final crosstable.

    ``rank`` is the place after the tiebreaks; players still tied after every
    criterion share the rank of the first of them (1, 2, 2, 4).
    """

    rank: int
    id: str
    name: str
    score: float
    tiebreaks: dict[str, Any]
    playoff: bool

    def to_json(self) -> dict[str, Any]:
        return {
            "rank": self.rank,
            "id": self.id,
            "name": self.name,
            "score": self.score,
            "tiebreaks": self.tiebreaks,
            "playoff": self.playoff,
        }


@dataclass(frozen=True)
class Standings:
    """The outcome of applying a regulation to a finished event.

    ``rows`` are in crosstable order. ``groups`` is the same order as groups of
    players who are still tied after every criterion (a group of one is
    separated). ``playoff`` lists the players who must play off, in seed order.
    """

    regulation: str
    rows: tuple[StandingRow, ...]
    groups: tuple[tuple[str, ...], ...]
    playoff: tuple[str, ...]
    explanation: tuple[str, ...]
    steps: tuple[Step, ...]

    def row(self, player_id: str) -> StandingRow:
        for row in self.rows:
            if row.id == player_id:
                return row
        raise KeyError(player_id)

    @property
    def ranks(self) -> dict[str, int]:
        return {row.id: row.rank for row in self.rows}

    def to_json(self) -> dict[str, Any]:
        return {
            "regulation": self.regulation,
            "standings": [row.to_json() for row in self.rows],
            "playoff": list(self.playoff),
            "unresolved": [list(g) for g in self.groups if len(g) > 1],
            "explanation": list(self.explanation),
            "steps": [
                {
                    "label": step.label,
                    "criterion": step.criterion,
                    "tied": list(step.tied),
                    "first_place": step.first_place,
                    "groups": [list(g) for g in step.groups],
                    "text": " ".join(step.sentences),
                }
                for step in self.steps
            ],
        }
